"""Lower the max-pool backward ops (`torch.aten.max_pool{2,3}d_with_indices_backward`):
grad_output added to the positions the forward max pool's indices name,

    grad_input[n, c, b] = sum_{s, k: b = S*s + D*k - P} (idx[n, c, s] == flat(b)) ? grad_output[n, c, s] : 0

the window kernel UNPOOL (../forms/pooling.py).  The op is read by the
window front end (window.py); its form is the registry's choice on the
device profile, as a convolution kernel's (../forms/registry.py): the
scatter by indices (../forms/pool_scatter.py) or the gather over the
input positions (../forms/pool_gather.py, the gpu profile's).

Two passes use it.  convopt-pool-bwd-to-linalg (--lower-pool-bwd) lowers
max_pool3d's backward, which neither torch-mlir nor IREE's torch input
lowers, so that a training step with a 3-D max pool builds at all (the
2-D one stays torch-mlir's: bench/README.md "max_pool2d_with_indices_backward:
not taken over").  convopt-torch-to-linalg (--lower-forward-convs) lowers
max_pool2d's backward where the profile builds the gather and the gather
fits the op (`forms`), and leaves it to the backend elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...dialects import OpDef, definition, torch
from ...ir.core import Operation, Value
from ...ir.types import vtensor
from ...rewrite import Rewriter
from ..forms import registry
from ..forms.kernels import emit_kernel
from ..forms.pooling import UnpoolRequest
from ..kernel.emit import Emitter, Ix
from ..kernel.relation import Rel
from ..kernel.request import KernelChoices, KernelStats, accumulator_type
from .conv_bwd import finish
from .conv_spec import emitter_before
from .options import KernelPattern
from .window import THROUGH_CASTS, WindowSpec, backward_operands, backward_rels, read_window_op, stats_line


def unpool_request(spec: WindowSpec, rels: list[Rel], shape: list[Ix], choices: KernelChoices) -> UnpoolRequest:
    """The request of a max-pool backward whose input has (batched) shape `shape`."""
    lead = (shape[0] if isinstance(shape[0], int) else None, shape[1] if isinstance(shape[1], int) else None)
    return UnpoolRequest(rels, lead, spec.dtype, accumulator_type(spec.dtype), spec.window.ceil_mode, spec.batched, choices=choices)


def static_request(op: Operation, spec: WindowSpec, choices: KernelChoices) -> Optional[UnpoolRequest]:
    """The request read from the op's types alone, emitting nothing (no
    operands yet), where every size is static; else None."""
    args = torch.args(op)
    shape, gshape = ([*([] if spec.batched else [1]), *vtensor(v.type).shape] for v in (args.self, args.grad_output))  # type: ignore[misc]
    if not all(isinstance(s, int) for s in (*shape, *gshape)):
        return None
    w = spec.window
    rels = [Rel(S=w.stride[i], D=w.dilation[i], P=w.padding[i], K=w.kernel[i], Ns=gshape[2 + i], Nb=shape[2 + i]) for i in range(spec.rank)]
    return unpool_request(spec, rels, shape, choices)


def finish_max_pool(op: Operation, rewriter: Rewriter, em: Emitter, spec: WindowSpec, acc: Value, kstats: KernelStats, stats: Optional[list[str]]) -> None:
    """grad_input from the kernel's [n, c, N...] sum: the batch dim taken
    off where the op had none, in the op's type."""
    if not spec.batched:
        acc = em.collapse(acc, [[0, 1], *([i] for i in range(2, spec.rank + 2))])
    if stats is not None:
        stats.append(stats_line(op, "grad_input", kstats.form, kstats.ops, kstats.executed))
    rewriter.replace_op(op, [finish(em, acc, spec.dtype, op.results[0].type)])


def lower_max_pool_backward(op: Operation, rewriter: Rewriter, spec: WindowSpec, choices: KernelChoices, stats: Optional[list[str]] = None) -> None:
    """The registry's form among every candidate (a dynamic size allowed)."""
    em = emitter_before(op)
    (dy, _, idx), shape = backward_operands(em, op, spec, ("grad_output", "self", "indices"))
    req = unpool_request(spec, backward_rels(em, spec, dy, shape), shape, choices).with_ins(dy, idx)
    acc, kstats = emit_kernel(em, req)  # type: ignore[arg-type]
    finish_max_pool(op, rewriter, em, spec, acc, kstats, stats)


@dataclass(frozen=True)
class LowerMaxPoolBwd(KernelPattern):
    """One max-pool backward op (root: its definition) through the UNPOOL
    forms: the registry's choice among every candidate; with `forms`, the
    cheapest of these that fits the op's static sizes, read through an
    earlier lowering's casts (convopt-torch-to-linalg), the op left as it is
    where none does."""

    root: OpDef = definition(torch.MAX_POOL3D_WITH_INDICES_BACKWARD)
    forms: tuple[str, ...] = ()

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        spec = read_window_op(op)
        if not self.forms:
            lower_max_pool_backward(op, rewriter, spec, self.choices, self.stats)
            return True
        req = static_request(op, spec, self.choices)
        fitting = [f for f in map(registry.form, self.forms) if req is not None and f.fits(req)]  # type: ignore[arg-type]
        if req is None or not fitting:
            return False
        em = emitter_before(op)
        (dy, idx), _ = backward_operands(em, op, spec, ("grad_output", "indices"), THROUGH_CASTS)
        pick = registry.cheapest(fitting, req.with_ins(dy, idx))  # type: ignore[arg-type]
        kstats = KernelStats(form=pick.form.name)
        finish_max_pool(op, rewriter, em, spec, pick.form.emit(em, pick.variant.req, kstats), kstats, self.stats)
        return True
