"""Lower the max-pool forward ops (`torch.aten.max_pool{1,2,3}d` and
`max_pool{1,2,3}d_with_indices`): the window kernel MAX_POOL
(../forms/pooling.py), the values and (with indices) the flat index of
each window's first maximum, as PyTorch's CPU kernels have them; Ns is
PyTorch's output size (relation.pool_output_size, ceil_mode included).
The op is read by the window front end (window.py); its form is the
registry's choice on the device profile, as a convolution kernel's
(../forms/registry.py): today the one form ../forms/pool_max.py (two
reductions over the taps).

torch-mlir's lowering of max_pool2d_with_indices is invalid IR where an
output size is 1 and the window stops short of the input's end (input 4,
window 3, stride 2) and with some ceil_mode shapes, and its indices
compare with `oeq` only (a window holding a NaN gets index -1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, cast

from ...dialects import OpDef, definition, torch
from ...ir.core import Operation, Value
from ...ir.types import ranked
from ...rewrite import Rewriter
from ..forms.kernels import emit_kernel
from ..forms.pooling import MaxPoolRequest
from ..kernel.request import KernelChoices
from .conv_spec import emitter_before
from .options import KernelPattern
from .window import forward_rels, read_window_op, stats_line


def lower_max_pool_forward(op: Operation, rewriter: Rewriter, choices: KernelChoices, stats: Optional[list[str]] = None) -> None:
    """The registry's form of the op's MAX_POOL kernel over its input with
    a batch dim ([C, s...] -> [1, C, s...]), the results taken back to the
    op's shapes and types."""
    spec = read_window_op(op)
    em = emitter_before(op)
    x = em.to_builtin(torch.args(op).self)
    groups = [[0, 1], *([i] for i in range(2, spec.rank + 2))]
    if not spec.batched:
        x = em.expand(x, groups, [1, *em.shape(x)])
    n, c = (s if isinstance(s, int) else None for s in ranked(x.type).shape[:2])
    req = MaxPoolRequest(forward_rels(em, spec, x), (n, c), spec.dtype, spec.window.ceil_mode, spec.op.indices, choices=choices)
    outs, kstats = emit_kernel(em, req.with_ins(x))  # type: ignore[arg-type]
    results = list(cast("tuple[Value, ...]", outs))
    if not spec.batched:
        results = [em.collapse(v, groups) for v in results]
    values = [em.from_builtin(v, r.type) for v, r in zip(results, op.results)]  # type: ignore[arg-type]
    if stats is not None:
        stats.append(stats_line(op, "result", kstats.form, kstats.ops, kstats.executed))
    rewriter.replace_op(op, values)


@dataclass(frozen=True)
class LowerMaxPoolForward(KernelPattern):
    """One max-pool forward op (root: its definition) through the MAX_POOL
    forms: the registry's choice among every candidate."""

    root: OpDef = definition(torch.MAX_POOL2D)

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        lower_max_pool_forward(op, rewriter, self.choices, self.stats)
        return True
