"""convopt-torch-to-linalg: lower the torch ops the decomposition emits.

    aten.convolution          regular:    y[n, g, f, s] = b[f] + sum_{c, k} x[n, g, c, S*s + D*k - P] * w[g, f, c, k]   (gather)
                              transposed: y[n, g, f, S*s + D*k - P] += x[n, g, c, s] * w[g, c, f, k]              (scatter)
    aten.slice.Tensor         tensor.extract_slice (folded into a convolution that feeds only it)
    aten.permute              linalg.transpose
    aten.unflatten.int        tensor.expand_shape
    aten.flatten.using_ints   tensor.collapse_shape
    aten.sum.dim_IntList      y[kept...] = sum_{reduced...} x[...]
    tensor_static_info_cast   tensor.cast

Each lowering reads its torch operands through `torch_c.to_builtin_tensor`
(folding away a `from_builtin_tensor` of a value lowered just before) and
hands its result back through `torch_c.from_builtin_tensor`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Optional

from ..diagnostics import position_of
from ..ir.affine import AffineMap, d
from ..ir.attributes import DenseArrayAttr
from ..ir.builder import Builder
from ..ir.core import Operation, Value
from ..ir.types import FloatType, RankedTensorType, ValueTensorType, i64, ranked
from ..passes import PassContext
from .conv_spec import constant_bool, constant_int, constant_list, invalid, is_none, read_conv, unsupported
from .emit import Emitter, Ix, add_extended, unit_groups
from .kernels import emit_kernel
from .options import KernelPass
from .relation import Kind, Rel
from .request import Form, KernelRequest, Peel, accumulator_type
from .roles import A_LAYOUT, B_LAYOUT, W_LAYOUT


def _emitter(op: Operation) -> Emitter:
    func = op.ancestor("func.func")
    assert func is not None
    return Emitter(Builder.before(op), func)


def _builtin(em: Emitter, v: Value) -> Value:
    op = v.owner
    if op is not None and op.name == "torch_c.from_builtin_tensor":
        return op.operands[0]
    t = v.type
    if not isinstance(t, ValueTensorType) or t.shape is None or t.dtype is None:
        raise unsupported(op or v.uses[0][0], f"operand of unknown shape or dtype '{t}'")  # type: ignore[arg-type]
    return em.to_builtin(v)


def _result(em: Emitter, op: Operation, value: Value, result: Optional[Value] = None) -> None:
    """Replace op's result (or `result`) with value, cast to its torch type."""
    result = result if result is not None else op.results[0]
    t = result.type
    assert isinstance(t, ValueTensorType)
    result.replace_all_uses_with(em.from_builtin(value, t))


def int_operand(em: Emitter, v: Value) -> Optional[Ix]:
    """A !torch.int as an index: a constant, or `aten.size.int` of a tensor."""
    c = constant_int(v)
    if c is not None:
        return c
    op = v.owner
    if op is not None and op.name == "torch.aten.size.int":
        dim = constant_int(op.operands[1])
        if dim is not None:
            t = _builtin(em, op.operands[0])
            return em.dim(t, dim % ranked(t.type).rank)
    return None


# --- aten.convolution ------------------------------------------------------------------------

def _folded_slices(op: Operation, rank: int) -> list[Operation]:
    """The chain of `aten.slice.Tensor [0:end]` over spatial dims that is the
    only user of op's result; the convolution computes just those positions."""
    chain = []
    value = op.results[0]
    while len(value.uses) == 1:
        user = value.uses[0][0]
        if user.name != "torch.aten.slice.Tensor" or value.uses[0][1] != 0:
            break
        dim, start, step = (constant_int(user.operands[i]) for i in (1, 2, 4))
        if dim is None or not 2 <= dim % rank or start != 0 or step != 1:
            break
        chain.append(user)
        value = user.results[0]
    return chain


def lower_convolution(op: Operation, peel: Peel = Peel.AUTO, stats: Optional[list[str]] = None, form: Form = Form.AUTO) -> None:
    x, w, bias, stride, padding, dilation, transposed, output_padding, groups = op.operands
    spec = read_conv(op, x, w, stride, padding, dilation, transposed, output_padding, groups)
    em = _emitter(op)
    xb, wb = _builtin(em, x), _builtin(em, w)
    G = spec.groups
    # A channel count known statically on one side is made static on both.
    known_ca, known_cb = spec.group_channels()
    x_groups = known_ca if spec.transposed else known_cb
    xb = em.refine(xb, [None, x_groups * G if x_groups is not None else None])
    wb = em.refine(wb, [known_ca * G if known_ca is not None else None, known_cb])
    kernel: list[Ix] = [k if k is not None else em.dim(wb, 2 + i) for i, k in enumerate(spec.kernel)]
    rank = spec.rank + 2
    slices = _folded_slices(op, rank)
    out: list[Ix] = []
    for i in spec.spatial:
        n = em.dim(xb, 2 + i)
        s, p, dl, k = spec.stride[i], spec.padding[i], spec.dilation[i], kernel[i]
        span = em.mul(em.sub(k, 1), dl)  # D*(K-1)
        if spec.transposed:
            out.append(em.add(em.add(em.mul(em.sub(n, 1), s), span), spec.output_padding[i] + 1 - 2 * p))
        else:
            out.append(em.add(em.floordiv(em.sub(em.add(n, 2 * p - 1), span), s), 1))
    for sl in slices:
        end = int_operand(em, sl.operands[3])
        if end is None:
            raise unsupported(sl, "slice end that is neither constant nor a tensor size")
        i = constant_int(sl.operands[1]) % rank - 2  # type: ignore[operator]
        out[i] = em.min(out[i], end) if end != out[i] else out[i]
    for i, size in enumerate(out):
        if isinstance(size, int) and size < 1:
            raise invalid(op, f"has an empty output along spatial dim {i}")
    acc_type = accumulator_type(spec.dtype)
    batch = em.dim(xb, 0)
    # Weight [G*Ca, Cb, k...]: regular Ca = Cout/G, Cb = Cin/G; transposed Ca = Cin/G, Cb = Cout/G.
    ca: Ix = em.floordiv(em.dim(wb, 0), G)
    cb: Ix = em.dim(wb, 1)
    if spec.transposed:  # y = scatter of x: A = x, output B-shaped
        rels = [Rel(S=spec.stride[i], D=spec.dilation[i], P=spec.padding[i], K=kernel[i], Ns=em.dim(xb, 2 + i), Nb=out[i]) for i in spec.spatial]
        kind, layouts, out_layout = Kind.SCATTER, (A_LAYOUT, W_LAYOUT), B_LAYOUT
    else:  # y = gather of x: B = x, output A-shaped
        rels = [Rel(S=spec.stride[i], D=spec.dilation[i], P=spec.padding[i], K=kernel[i], Ns=out[i], Nb=em.dim(xb, 2 + i)) for i in spec.spatial]
        kind, layouts, out_layout = Kind.GATHER, (B_LAYOUT, W_LAYOUT), A_LAYOUT
    roles: dict[str, Ix] = {"n": batch, "g": G, "ca": ca, "cb": cb}
    req = KernelRequest(kind=kind, ins=(xb, wb), layouts=layouts, out_layout=out_layout, rels=rels, roles=roles, out_spatial=out, acc_type=acc_type, peel=peel, form=form)
    acc, kstats = emit_kernel(em, req)
    if not is_none(bias):
        acc = _add_bias(em, acc, _builtin(em, bias), acc_type)
    if stats is not None:
        stats.append(f"{position_of(op)}: torch.aten.convolution ({kind}): form={kstats.form} ops={kstats.ops} executed_macs={kstats.executed or 'dynamic'}")
    result = em.convert_elements(acc, spec.dtype)
    last = slices[-1] if slices else op
    _result(em, op, result, last.results[0])
    for o in [*reversed(slices), op]:
        o.erase()


def _add_bias(em: Emitter, acc: Value, bias: Value, acc_type: FloatType) -> Value:
    """acc[n, f, s...] += bias[f]"""
    rank = ranked(acc.type).rank
    maps = [AffineMap.from_exprs(rank, [d(1)]), AffineMap.identity(rank)]
    return em.generic([bias], [acc], maps, ["parallel"] * rank, lambda b, a: [add_extended(b, a[1], a[0], acc_type)])[0]


# --- shape ops and sums ------------------------------------------------------------------------

def lower_slice(op: Operation, **_: object) -> None:
    em = _emitter(op)
    src = _builtin(em, op.operands[0])
    rank = ranked(src.type).rank
    dim = constant_int(op.operands[1])
    step = constant_int(op.operands[4])
    if dim is None or step is None or step < 1:
        raise unsupported(op, "slice with a non-constant dim or a step that is not a positive constant")
    dim %= rank
    size = em.dim(src, dim)
    start: Ix = 0 if is_none(op.operands[2]) else int_operand(em, op.operands[2])  # type: ignore[assignment]
    end: Ix = size if is_none(op.operands[3]) else int_operand(em, op.operands[3])  # type: ignore[assignment]
    if start is None or end is None:
        raise unsupported(op, "slice bounds that are neither constants nor tensor sizes")
    if isinstance(start, int) and start < 0:
        start = em.add(size, start)
    if isinstance(end, int) and end < 0:
        end = em.add(size, end)
    end = em.min(end, size) if not (isinstance(end, int) and isinstance(size, int) and end <= size) else end
    count = em.max(0, em.ceildiv(em.sub(end, start), step))
    shape = em.shape(src)
    offsets: list[Ix] = [0] * rank
    sizes = list(shape)
    strides = [1] * rank
    offsets[dim], sizes[dim], strides[dim] = start, count, step
    _result(em, op, em.extract_slice(src, offsets, sizes, strides))
    op.erase()


def lower_permute(op: Operation, **_: object) -> None:
    em = _emitter(op)
    src = _builtin(em, op.operands[0])
    perm = constant_list(op.operands[1])
    if perm is None:
        raise unsupported(op, "non-constant permutation")
    rank = ranked(src.type).rank
    perm = [p % rank for p in perm]
    shape = em.shape(src)
    out = em.empty([shape[p] for p in perm], ranked(src.type).element_type)
    result = em.structured("linalg.transpose", [src], [out], {"permutation": DenseArrayAttr(i64, tuple(perm))})[0]
    _result(em, op, result)
    op.erase()


def lower_unflatten(op: Operation, **_: object) -> None:
    em = _emitter(op)
    src = _builtin(em, op.operands[0])
    dim, sizes = constant_int(op.operands[1]), constant_list(op.operands[2])
    if dim is None or sizes is None or any(s < -1 for s in sizes) or sizes.count(-1) > 1:
        raise unsupported(op, "unflatten with non-constant dim or sizes")
    rank = ranked(src.type).rank
    dim %= rank
    shape = em.shape(src)
    known = -math.prod(sizes) if -1 in sizes else 0  # the product of the sizes given
    split: list[Ix] = [s if s != -1 else em.floordiv(shape[dim], known) for s in sizes]
    new_shape = shape[:dim] + split + shape[dim + 1 :]
    reassoc = [[i] for i in range(dim)] + [list(range(dim, dim + len(sizes)))] + [[i + len(sizes) - 1] for i in range(dim + 1, rank)]
    _result(em, op, em.expand(src, reassoc, new_shape))
    op.erase()


def lower_flatten(op: Operation, **_: object) -> None:
    em = _emitter(op)
    src = _builtin(em, op.operands[0])
    start, end = constant_int(op.operands[1]), constant_int(op.operands[2])
    if start is None or end is None:
        raise unsupported(op, "flatten with non-constant dims")
    rank = ranked(src.type).rank
    start, end = start % rank, end % rank
    reassoc = [[i] for i in range(start)] + [list(range(start, end + 1))] + [[i] for i in range(end + 1, rank)]
    _result(em, op, em.collapse(src, reassoc))
    op.erase()


def lower_sum(op: Operation, **_: object) -> None:
    """y[kept dims] = sum over the listed dims (f16/bf16 summed in f32)."""
    em = _emitter(op)
    src = _builtin(em, op.operands[0])
    dims = constant_list(op.operands[1])
    keepdim = constant_bool(op.operands[2])
    if dims is None or keepdim is None or not is_none(op.operands[3]):
        raise unsupported(op, "sum.dim_IntList with non-constant dims or keepdim, or a dtype")
    t = src.type
    assert isinstance(t, RankedTensorType) and isinstance(t.element_type, FloatType)
    rank = t.rank
    reduced = sorted({x % rank for x in dims}) if dims else list(range(rank))
    kept = [i for i in range(rank) if i not in reduced]
    result = em.convert_elements(em.reduce_sum(src, reduced, accumulator_type(t.element_type)), t.element_type)
    if keepdim and kept:  # give the reduced dims back as size-1 dims
        groups, trailing = unit_groups([i not in reduced for i in range(rank)])
        groups[-1] += trailing
        shape = em.shape(src)
        result = em.expand(result, groups, [1 if i in reduced else shape[i] for i in range(rank)])
    _result(em, op, result)
    op.erase()


def lower_static_info_cast(op: Operation, **_: object) -> None:
    em = _emitter(op)
    _result(em, op, _builtin(em, op.operands[0]))
    op.erase()


LOWERINGS: dict[str, Callable[..., None]] = {
    "torch.aten.convolution": lower_convolution,
    "torch.aten.slice.Tensor": lower_slice,
    "torch.aten.permute": lower_permute,
    "torch.aten.unflatten.int": lower_unflatten,
    "torch.aten.flatten.using_ints": lower_flatten,
    "torch.aten.sum.dim_IntList": lower_sum,
    "torch.tensor_static_info_cast": lower_static_info_cast,
}


def lower_ops(ops: list[Operation], peel: Peel = Peel.AUTO, stats: Optional[list[str]] = None, form: Form = Form.AUTO) -> None:
    """Lower the given ops (in program order) that have a lowering; ops
    erased meanwhile (slices folded into a convolution) are skipped."""
    for op in ops:
        if op.parent is None:
            continue
        fn = LOWERINGS.get(op.name)
        if fn is not None:
            if op.name == "torch.aten.convolution":
                fn(op, peel=peel, stats=stats, form=form)
            else:
                fn(op)


@dataclass(frozen=True)
class TorchToLinalg(KernelPass):
    NAME = "convopt-torch-to-linalg"
    SUMMARY = "Lower aten.convolution, aten.sum.dim_IntList and the shape ops of the decomposition to linalg"
    ANCHOR = "func.func"

    def run(self, op: Operation, ctx: PassContext) -> None:
        lower_ops([o for o in op.walk() if o.name in LOWERINGS], self.peel_policy, ctx.stats, self.form)

