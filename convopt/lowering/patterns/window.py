"""The front end of every window (pooling) op: avg_pool{1,2,3}d backward,
max_pool{2,3}d_with_indices backward and the max-pool forward ops.

Each op is declared once in dialects/torch.py (`WINDOW_OPS`: its operands
by name; `WINDOW_PARAMS`: the checks of its window parameters).  Here is
the one validator (`read_window_op`): the operands' types, the window
parameters as PyTorch's pooling shape checks have them, the output sizes
(relation.pool_output_size, ceil_mode and dilation included) and the
result types; whatever convopt cannot lower is a located `unsupported:`
error, whatever PyTorch rejects a located `'op' op expects ...` one.  And
the shared emitter set-up (`backward_operands`: the operands as builtin
tensors with a batch dim; `backward_rels`, `forward_rels`: the relation
per spatial dim) and `--stats` line (`stats_line`).

Adding a pooling variant: its entry in dialects/torch.py's WINDOW_OPS, a
pattern beside the others (pool_bwd.py's pass lists them), its tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Optional

from ...diagnostics import position_of
from ...dialects import torch
from ...dialects.torch import Flag, IntList, NonZeroInt, Reduce, WindowOp
from ...ir.core import Operation, Value
from ...ir.types import FloatType, IntegerType, ValueTensorType
from ..kernel.emit import Emitter, Ix
from ..kernel.relation import Rel, pool_output_size, pool_outputs
from .conv_spec import (
    MAX_KERNEL_TAPS,
    MAX_SPATIAL_SIZE,
    _dtype,
    _shaped,
    builtin_operand,
    check_i64,
    constant_bool,
    constant_int,
    constant_ints,
    invalid,
    is_none,
    unsupported,
    window_extent,
)


class Window(NamedTuple):
    """A pooling window, per spatial dim (dilation 1 for average pooling);
    divisor: divisor_override (None: the window's count)."""

    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    padding: tuple[int, ...]
    dilation: tuple[int, ...]
    ceil_mode: bool
    count_include_pad: bool
    divisor: Optional[int]


@dataclass(frozen=True)
class WindowSpec:
    """One validated window op: its declaration, window, whether its
    input has a batch dim, and its element type."""

    op: WindowOp
    window: Window
    batched: bool
    dtype: FloatType

    @property
    def rank(self) -> int:
        return self.op.rank


def _join(words: Sequence[str]) -> str:
    """a; a and b; a, b and c."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def read_window(op: Operation, decl: WindowOp, args: Any) -> Window:
    """The window parameters decl takes, read and checked as WINDOW_PARAMS
    declares them: the int lists, then the flags, the divisor, the lower
    bounds, the padding; at most MAX_KERNEL_TAPS taps."""
    nd, params = decl.rank, decl.window_params
    checks = {name: torch.WINDOW_PARAMS[name] for name in params}
    ints = {name: p for name, p in checks.items() if isinstance(p, IntList)}
    lists: dict[str, tuple[int, ...]] = {}
    for name, p in ints.items():
        lists[name] = constant_ints(op, getattr(args, name), name, nd, empty_is=lists[p.empty] if p.empty else None)
    flags = [name for name, p in checks.items() if isinstance(p, Flag)]
    values = {name: constant_bool(getattr(args, name)) for name in flags}
    if None in values.values():
        raise unsupported(op, f"non-constant {' or '.join(flags)}")
    divisor = None
    for name in (n for n, p in checks.items() if isinstance(p, NonZeroInt) and not is_none(getattr(args, n))):
        divisor = constant_int(getattr(args, name))
        if divisor is None:
            raise unsupported(op, f"non-constant {name}")
        if divisor == 0:
            raise invalid(op, f"expects a non-zero {name}")
    positive = [name for name, p in ints.items() if p.least == 1]
    if any(min(lists[name]) < 1 for name in positive):
        raise invalid(op, f"expects {_join(positive)} >= 1, got {_join([str(list(lists[name])) for name in positive])}")
    kernel = lists["kernel_size"]
    for name, p in ints.items():
        if p.half_kernel and any(v < p.least or 2 * v > k for v, k in zip(lists[name], kernel)):
            raise invalid(op, f"expects {name} between {p.least} and half the kernel size, got {list(lists[name])} for kernel {list(kernel)}")
    if math.prod(kernel) > MAX_KERNEL_TAPS:
        raise unsupported(op, f"a kernel of {math.prod(kernel)} taps (at most {MAX_KERNEL_TAPS})")
    return Window(kernel, lists["stride"], lists["padding"], lists.get("dilation", (1,) * nd), bool(values["ceil_mode"]),
                  bool(values.get("count_include_pad")), divisor)


def _operand_types(op: Operation, decl: WindowOp, args: Any) -> dict[str, ValueTensorType]:
    """The tensor operands' types, by what the errors call them: the
    input, and (backward) grad_output, (max) the indices."""
    names = {"grad_output": "grad_output", "self": "the input", "indices": "the indices"}
    return {names[n]: _shaped(op, getattr(args, n), names[n]) for n in decl.operand_names if n in names}


def _check_types(op: Operation, decl: WindowOp, types: dict[str, ValueTensorType]) -> FloatType:
    """Element types (grad_output's that of the input, si64/i64 indices)
    and ranks (spatial + 1 or + 2, all alike); the element type."""
    nd, xt = decl.rank, types["the input"]
    dtype = _dtype(op, xt)
    gt, it = types.get("grad_output"), types.get("the indices")
    if gt is not None and gt.dtype != dtype:
        raise invalid(op, f"expects grad_output of element type {dtype}, got {gt.dtype}")
    if it is not None and not (isinstance(it.dtype, IntegerType) and it.dtype.width == 64):
        raise invalid(op, f"expects 64-bit integer indices, got '{it}'")
    ranks = {len(t.shape or ()) for t in types.values()}
    if len(xt.shape or ()) not in (nd + 1, nd + 2) or len(ranks) > 1:
        if gt is None:
            raise invalid(op, f"expects an input of rank {nd + 1} or {nd + 2}, got '{xt}'")
        order = [xt, gt, *([it] if it is not None else [])]
        words = ["input", "grad_output", *(["indices"] if it is not None else [])]
        raise invalid(op, f"expects {_join(words)} of rank {nd + 1} or {nd + 2}, got {_join(_quoted(order))}")
    return dtype


def _quoted(types: Sequence[ValueTensorType]) -> list[str]:
    return [f"'{t}'" for t in types]


def _check_lead(op: Operation, shape: tuple, gshape: tuple, lead: int) -> None:
    """grad_output's batch and channels are the input's."""
    pairs = (("batch", shape[0], gshape[0]), ("channels", shape[lead - 1], gshape[lead - 1])) if lead == 2 else (("channels", shape[0], gshape[0]),)
    for what, a, b in pairs:
        if a is not None and b is not None and a != b:
            raise invalid(op, f"expects grad_output and the input to have the same {what}, got {b} and {a}")


def output_sizes(op: Operation, decl: WindowOp, w: Window, shape: tuple, gshape: Optional[tuple]) -> list[Optional[int]]:
    """The output's spatial sizes (None where the input's is dynamic),
    checked dim by dim: spatial sizes at most MAX_SPATIAL_SIZE, the input
    covering the kernel where decl says so, an output of at least one
    position, grad_output's size where given."""
    lead = len(shape) - decl.rank
    sizes: list[Optional[int]] = []
    dilated = decl.reduce == Reduce.MAX
    for i in range(decl.rank):
        n, g = shape[lead + i], (gshape[lead + i] if gshape is not None else None)
        if n is not None and n > MAX_SPATIAL_SIZE:
            raise unsupported(op, f"spatial size {n} along dim {i} (at most {MAX_SPATIAL_SIZE})")
        if n is None:
            sizes.append(None)
            continue
        k, s, p, d = w.kernel[i], w.stride[i], w.padding[i], w.dilation[i]
        if decl.input_covers_kernel and n < k:  # avg_pool3d's check_input_size (padding not counted)
            raise invalid(op, f"expects an input at least as large as the kernel along spatial dim {i} (input size {n}, kernel {k})")
        expected = pool_output_size(n, k, s, p, w.ceil_mode, d)
        if expected < 1:
            raise invalid(op, f"has an empty output along spatial dim {i} (input size {n}, kernel {k}{f', dilation {d}' if dilated else ''}, padding {p})")
        if g is not None and g != expected:
            raise invalid(op, f"expects grad_output size {expected} along spatial dim {i} (input {n}), got {g}")
        sizes.append(expected)
    return sizes


def _check_results(op: Operation, decl: WindowOp, xt: ValueTensorType, out: list[Optional[int]], dtype: FloatType) -> None:
    """Backward: one result of the input's type; forward: the values in the
    input's element type and (with indices) the indices si64, of the
    output's shape [lead..., Ns...]."""
    if decl.backward:
        result = op.results[0].type
        if isinstance(result, ValueTensorType) and result != xt:
            raise invalid(op, f"expects a result of type '{xt}', got '{result}'")
        return
    if len(op.results) != 1 + decl.indices:
        raise invalid(op, f"expects {1 + decl.indices} results, got {len(op.results)}")
    shown = ",".join("?" if x is None else str(x) for x in out)
    for r, (element_ok, spelled) in zip(op.results, ((lambda e: e == dtype, str(dtype)), (_is_i64, "si64"))):
        t = r.type
        if not (isinstance(t, ValueTensorType) and t.shape is not None and len(t.shape) == len(out) and element_ok(t.dtype)) or any(
                a is not None and b is not None and a != b for a, b in zip(t.shape, out)):
            raise invalid(op, f"expects a result of shape [{shown}] and element type {spelled}, got '{t}'")


def _is_i64(t: object) -> bool:
    return isinstance(t, IntegerType) and t.width == 64


def read_window_op(op: Operation) -> WindowSpec:
    """Validate a window op as PyTorch does (module docstring) and read it."""
    decl = torch.window(op)
    args = torch.args(op)
    types = _operand_types(op, decl, args)
    dtype = _check_types(op, decl, types)
    w = read_window(op, decl, args)
    xt, gt, it = types["the input"], types.get("grad_output"), types.get("the indices")
    shape, gshape = xt.shape or (), (gt.shape or ()) if gt is not None else None
    lead = len(shape) - decl.rank
    if gshape is not None:
        _check_lead(op, shape, gshape, lead)
    if 0 in shape or 0 in (gshape or ()):
        raise unsupported(op, f"a size-0 dim ({', '.join(_quoted([t for t in (xt, gt) if t is not None]))})")
    if it is not None and gshape is not None and any(a is not None and b is not None and a != b for a, b in zip(gshape, it.shape or ())):
        raise invalid(op, f"expects indices of grad_output's shape, got '{it}' and '{gt}'")
    sizes = output_sizes(op, decl, w, shape, gshape)
    outer = gshape if gshape is not None else [*shape[:lead], *sizes]
    extents = [window_extent(w.stride[i], w.dilation[i], w.kernel[i], w.padding[i], (shape[lead + i], outer[lead + i])) for i in range(decl.rank)]
    check_i64(op, (xt, *(t for t in (gt, it) if t is not None)), extents)
    _check_results(op, decl, xt, [*shape[:lead], *sizes], dtype)
    return WindowSpec(decl, w, lead == 2, dtype)


def backward_operands(em: Emitter, op: Operation, spec: WindowSpec, names: Sequence[str],
                      read: Callable[[Emitter, Value], Value] = Emitter.to_builtin) -> tuple[list[Value], list[Ix]]:
    """The operands `names` of a backward op as builtin tensors with a
    batch dim ([C, s...] -> [1, C, s...]) in that order, by `read`
    (to_builtin, or builtin_operand: through an earlier lowering's cast),
    and the input's shape (the first operand named self)."""
    args = torch.args(op)
    values = [read(em, getattr(args, n)) for n in names]
    if not spec.batched:
        values = [em.expand(v, [[0, 1], *([i] for i in range(2, spec.rank + 2))], [1, *em.shape(v)]) for v in values]
    return values, em.shape(values[list(names).index("self")]) if "self" in names else []


THROUGH_CASTS = builtin_operand
"""backward_operands' `read` for convopt-torch-to-linalg, whose operands may
be an earlier lowering's casts from builtin tensors."""


def backward_rels(em: Emitter, spec: WindowSpec, dy: Value, shape: Sequence[Ix]) -> list[Rel]:
    """One relation per spatial dim: Ns grad_output's size, Nb the input's."""
    w = spec.window
    return [Rel(S=w.stride[i], D=w.dilation[i], P=w.padding[i], K=w.kernel[i], Ns=em.dim(dy, 2 + i), Nb=shape[2 + i]) for i in range(spec.rank)]


def forward_rels(em: Emitter, spec: WindowSpec, x: Value) -> list[Rel]:
    """One relation per spatial dim of a forward op's input x [n, c, N...]:
    Nb = N, Ns the output size (relation.pool_outputs)."""
    w = spec.window
    rels = []
    for i in range(spec.rank):
        n = em.dim(x, 2 + i)
        ns = pool_outputs(em, n, w.kernel[i], w.stride[i], w.padding[i], w.ceil_mode, w.dilation[i])
        rels.append(Rel(S=w.stride[i], D=w.dilation[i], P=w.padding[i], K=w.kernel[i], Ns=ns, Nb=n))
    return rels


def stats_line(op: Operation, what: str, form: str, ops: int, executed: int) -> str:
    """The `--stats` line of one lowered window op: `file:line:col: op
    result: form=F ops=N executed_macs=M` (M: the windows' taps visited,
    dynamic where a size is)."""
    return f"{position_of(op)}: {op.name} {what}: form={form} ops={ops} executed_macs={executed or 'dynamic'}"
