"""convopt-torch-to-linalg: lower the torch ops the decomposition emits.

    aten.convolution          regular:    y[n, g, f, s] = b[f] + sum_{c, k} x[n, g, c, S*s + D*k - P] * w[g, f, c, k]   (gather)
                              transposed: y[n, g, f, S*s + D*k - P] += x[n, g, c, s] * w[g, c, f, k]              (scatter)
    aten.slice.Tensor         tensor.extract_slice (folded into a convolution that feeds only it)
    aten.permute              linalg.transpose
    aten.unflatten.int        tensor.expand_shape
    aten.flatten.using_ints   tensor.collapse_shape
    aten.sum.dim_IntList      y[kept...] = sum_{reduced...} x[...]
    aten.zeros                linalg.fill of zeros (a tensor.empty alone for a size-0 shape)
    aten.max_pool2d_with_indices_backward   the form gather (where the target builds no max_pool_scatter, device.Builds: gpu; max_pool_bwd.py)
    tensor_static_info_cast   tensor.cast

Each lowering is a rewrite pattern on its op (torch_to_linalg_patterns: the
pass applies them, and so does convopt-decompose-conv-bwd{lower=true} to the
ops its decomposition creates).  It reads its torch operands through
`torch_c.to_builtin_tensor` (folding away a `from_builtin_tensor` of a value
lowered just before) and hands its result back through
`torch_c.from_builtin_tensor`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Optional

from ...diagnostics import position_of
from ...dialects import OpDef, definition, torch
from ...dialects.func import FUNC
from ...ir.affine import AffineMap, d
from ...ir.core import Operation, Value
from ...ir.types import FloatType, RankedTensorType, ValueTensorType, ranked, vtensor
from ...passes import PassContext
from ...rewrite import RewritePattern, Rewriter, apply_patterns_to
from ..forms.kernels import emit_kernel
from ..kernel.emit import Emitter, Ix, add_extended, unit_groups
from ..kernel.relation import Kind, Rel
from ..kernel.request import DEFAULT_CHOICES, KernelChoices, KernelRequest, accumulator_type
from ..kernel.roles import A_LAYOUT, B_LAYOUT, W_LAYOUT
from .conv_spec import CONV, ConvSpec, check_conv_i64, constant_bool, constant_int, constant_list, invalid, is_none, read_conv, unsupported
from .conv_spec import builtin_operand as _builtin
from .conv_spec import emitter_before as _emitter
from .conv_spec import torch_result as _to_torch
from .empty import TORCH_SCALAR_TYPES, zeros_or_empty
from .max_pool_bwd import LowerMaxPoolBwd
from .options import ERASE_DEAD, KernelPass, KernelPattern


def int_operand(em: Emitter, v: Value) -> Optional[Ix]:
    """A !torch.int as an index: a constant, or `aten.size.int` of a tensor."""
    c = constant_int(v)
    if c is not None:
        return c
    op = v.owner
    if op is not None and op.name == torch.SIZE_INT:
        size = torch.args(op)
        dim = constant_int(size.dim)
        if dim is not None:
            t = _builtin(em, size.self)
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
        if user.name != torch.SLICE_TENSOR or value.uses[0][1] != 0:
            break
        sl = torch.args(user)
        dim, start, step = constant_int(sl.dim), constant_int(sl.start), constant_int(sl.step)
        if dim is None or not 2 <= dim % rank or start != 0 or step != 1:
            break
        chain.append(user)
        value = user.results[0]
    return chain


def _output_sizes(em: Emitter, spec: ConvSpec, xb: Value, kernel: list[Ix]) -> list[Ix]:
    """The output size of each spatial dim:
    transposed (N-1)*S + D*(K-1) + output_padding + 1 - 2P, regular
    floor((N + 2P - 1 - D*(K-1)) / S) + 1."""
    out: list[Ix] = []
    for i in spec.spatial:
        n = em.dim(xb, 2 + i)
        s, p, dl, k = spec.stride[i], spec.padding[i], spec.dilation[i], kernel[i]
        span = em.mul(em.sub(k, 1), dl)  # D*(K-1)
        if spec.transposed:
            out.append(em.add(em.add(em.mul(em.sub(n, 1), s), span), spec.output_padding[i] + 1 - 2 * p))
        else:
            out.append(em.add(em.floordiv(em.sub(em.add(n, 2 * p - 1), span), s), 1))
    return out


def _cut_by_slices(em: Emitter, op: Operation, out: list[Ix], slices: list[Operation], rank: int) -> None:
    """Shrink the output sizes to the ends of the folded slices."""
    for sl in slices:
        args = torch.args(sl)
        end = int_operand(em, args.end)
        if end is None:
            raise unsupported(sl, "slice end that is neither constant nor a tensor size")
        i = constant_int(args.dim) % rank - 2  # type: ignore[operator]
        out[i] = em.min(out[i], end) if end != out[i] else out[i]
    for i, size in enumerate(out):
        if isinstance(size, int) and size < 1:
            raise invalid(op, f"has an empty output along spatial dim {i}")


def convolution_request(em: Emitter, spec: ConvSpec, xb: Value, wb: Value, kernel: list[Ix], out: list[Ix], choices: KernelChoices) -> KernelRequest:
    """The kernel of a convolution: a regular one is a gather of x (B = x,
    output A-shaped), a transposed one a scatter of x (A = x, output
    B-shaped).  Weight [G*Ca, Cb, k...]: regular Ca = Cout/G, Cb = Cin/G;
    transposed Ca = Cin/G, Cb = Cout/G."""
    G = spec.groups
    batch = em.dim(xb, 0)
    ca: Ix = em.floordiv(em.dim(wb, 0), G)
    cb: Ix = em.dim(wb, 1)
    if spec.transposed:  # y = scatter of x: A = x, output B-shaped
        rels = [Rel(S=spec.stride[i], D=spec.dilation[i], P=spec.padding[i], K=kernel[i], Ns=em.dim(xb, 2 + i), Nb=out[i]) for i in spec.spatial]
        kind, layouts, out_layout = Kind.SCATTER, (A_LAYOUT, W_LAYOUT), B_LAYOUT
    else:  # y = gather of x: B = x, output A-shaped
        rels = [Rel(S=spec.stride[i], D=spec.dilation[i], P=spec.padding[i], K=kernel[i], Ns=out[i], Nb=em.dim(xb, 2 + i)) for i in spec.spatial]
        kind, layouts, out_layout = Kind.GATHER, (B_LAYOUT, W_LAYOUT), A_LAYOUT
    roles: dict[str, Ix] = {"n": batch, "g": G, "ca": ca, "cb": cb}
    return KernelRequest(
        kind=kind, ins=(xb, wb), layouts=layouts, out_layout=out_layout, rels=rels, roles=roles, out_spatial=out,
        acc_type=accumulator_type(spec.dtype), choices=choices,
    )


def lower_convolution(em: Emitter, op: Operation, choices: KernelChoices, stats: Optional[list[str]]) -> tuple[Value, list[Operation]]:
    """The convolution (and the slices folded into it, returned) as a
    builtin tensor of its element type."""
    args = torch.args(op)
    spec = read_conv(op, args)
    result = op.results[0].type
    check_conv_i64(op, spec, vtensor(args.input.type), vtensor(args.weight.type), result if isinstance(result, ValueTensorType) else ValueTensorType(None, None))
    xb, wb = _builtin(em, args.input), _builtin(em, args.weight)
    G = spec.groups
    # A channel count known statically on one side is made static on both.
    known_ca, known_cb = spec.group_channels()
    x_groups = known_ca if spec.transposed else known_cb
    xb = em.refine(xb, [None, x_groups * G if x_groups is not None else None])
    wb = em.refine(wb, [known_ca * G if known_ca is not None else None, known_cb])
    kernel: list[Ix] = [k if k is not None else em.dim(wb, 2 + i) for i, k in enumerate(spec.kernel)]
    rank = spec.rank + 2
    slices = _folded_slices(op, rank)
    out = _output_sizes(em, spec, xb, kernel)
    _cut_by_slices(em, op, out, slices, rank)
    req = convolution_request(em, spec, xb, wb, kernel, out, choices)
    acc, kstats = emit_kernel(em, req)
    if not is_none(args.bias):
        acc = _add_bias(em, acc, _builtin(em, args.bias), req.acc_type)
    if stats is not None:
        stats.append(f"{position_of(op)}: torch.aten.convolution ({req.kind}): form={kstats.form} ops={kstats.ops} executed_macs={kstats.executed or 'dynamic'}")
    return em.convert_elements(acc, spec.dtype), slices


@dataclass(frozen=True)
class LowerConvolution(KernelPattern):
    """aten.convolution (and the slices it feeds alone) to a kernel."""

    root = definition(CONV)

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        em = _emitter(op)
        result, slices = lower_convolution(em, op, self.choices, self.stats)
        last = slices[-1] if slices else op
        rewriter.replace_op(last, [_to_torch(em, result, last.results[0])])
        for o in [*reversed(slices[:-1]), op] if slices else []:
            rewriter.erase_op(o)
        return True


def _add_bias(em: Emitter, acc: Value, bias: Value, acc_type: FloatType) -> Value:
    """acc[n, f, s...] += bias[f]"""
    rank = ranked(acc.type).rank
    maps = [AffineMap.from_exprs(rank, [d(1)]), AffineMap.identity(rank)]
    return em.generic([bias], [acc], maps, ["parallel"] * rank, lambda b, a: [add_extended(b, a[1], a[0], acc_type)])[0]


# --- shape ops and sums ------------------------------------------------------------------------

def lower_slice(em: Emitter, op: Operation) -> Value:
    args = torch.args(op)
    src = _builtin(em, args.self)
    rank = ranked(src.type).rank
    dim = constant_int(args.dim)
    step = constant_int(args.step)
    if dim is None or step is None or step < 1:
        raise unsupported(op, "slice with a non-constant dim or a step that is not a positive constant")
    dim %= rank
    size = em.dim(src, dim)
    start: Ix = 0 if is_none(args.start) else int_operand(em, args.start)  # type: ignore[assignment]
    end: Ix = size if is_none(args.end) else int_operand(em, args.end)  # type: ignore[assignment]
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
    return em.extract_slice(src, offsets, sizes, strides)


def lower_permute(em: Emitter, op: Operation) -> Value:
    args = torch.args(op)
    src = _builtin(em, args.self)
    perm = constant_list(args.dims)
    if perm is None:
        raise unsupported(op, "non-constant permutation")
    rank = ranked(src.type).rank
    return em.transpose(src, [p % rank for p in perm])


def lower_unflatten(em: Emitter, op: Operation) -> Value:
    args = torch.args(op)
    src = _builtin(em, args.self)
    dim, sizes = constant_int(args.dim), constant_list(args.sizes)
    if dim is None or sizes is None or any(s < -1 for s in sizes) or sizes.count(-1) > 1:
        raise unsupported(op, "unflatten with non-constant dim or sizes")
    rank = ranked(src.type).rank
    dim %= rank
    shape = em.shape(src)
    known = -math.prod(sizes) if -1 in sizes else 0  # the product of the sizes given
    split: list[Ix] = [s if s != -1 else em.floordiv(shape[dim], known) for s in sizes]
    new_shape = shape[:dim] + split + shape[dim + 1 :]
    reassoc = [[i] for i in range(dim)] + [list(range(dim, dim + len(sizes)))] + [[i + len(sizes) - 1] for i in range(dim + 1, rank)]
    return em.expand(src, reassoc, new_shape)


def lower_flatten(em: Emitter, op: Operation) -> Value:
    args = torch.args(op)
    src = _builtin(em, args.self)
    start, end = constant_int(args.start_dim), constant_int(args.end_dim)
    if start is None or end is None:
        raise unsupported(op, "flatten with non-constant dims")
    rank = ranked(src.type).rank
    start, end = start % rank, end % rank
    reassoc = [[i] for i in range(start)] + [list(range(start, end + 1))] + [[i] for i in range(end + 1, rank)]
    return em.collapse(src, reassoc)


def lower_sum(em: Emitter, op: Operation) -> Value:
    """y[kept dims] = sum over the listed dims (f16/bf16 summed in f32)."""
    args = torch.args(op)
    src = _builtin(em, args.self)
    dims = constant_list(args.dim)
    keepdim = constant_bool(args.keepdim)
    if dims is None or keepdim is None or not is_none(args.dtype):
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
    return result


def lower_zeros(em: Emitter, op: Operation) -> Value:
    """`aten.zeros` of a float dtype (empty.decompose_empty's form):
    a fill of zeros, or the `tensor.empty` alone for a size-0 shape."""
    sizes_op = op.operands[0].owner
    result = op.results[0].type
    if len(op.operands) != 5 or not all(is_none(v) for v in op.operands[2:]) or sizes_op is None or sizes_op.name != "torch.prim.ListConstruct":
        raise unsupported(op, "zeros with a non-constant size list, or a layout, device or pin_memory")
    sizes = [int_operand(em, v) for v in sizes_op.operands]
    if not isinstance(result, ValueTensorType) or not isinstance(result.dtype, FloatType) or TORCH_SCALAR_TYPES.get(result.dtype.name) != constant_int(op.operands[1]) or None in sizes:
        raise unsupported(op, "zeros with sizes that are neither constants nor tensor sizes, or a dtype other than the result's (f16, bf16, f32, f64)")
    return zeros_or_empty(em, sizes, result.dtype)  # type: ignore[arg-type]


def lower_static_info_cast(em: Emitter, op: Operation) -> Value:
    return _builtin(em, torch.args(op).operand)


@dataclass(frozen=True)
class LowerToBuiltin(RewritePattern):
    """A torch op with one result lowered by `lower` to a builtin tensor,
    handed back through torch_c.from_builtin_tensor."""

    lower: Callable[[Emitter, Operation], Value]
    root: OpDef
    takes: Optional[Callable[[Operation], bool]] = None  # False: the op is left as it is (for the backend)

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        if self.takes is not None and not self.takes(op):
            return False
        em = _emitter(op)
        value = self.lower(em, op)
        rewriter.replace_op(op, [_to_torch(em, value, op.results[0])])
        return True


def float_sum(op: Operation) -> bool:
    """A sum lower_sum takes: a float tensor summed into its own type (not,
    e.g., the count of a bool mask as si64, which the backend lowers)."""
    src, result = op.operands[0].type, op.results[0].type
    return isinstance(src, ValueTensorType) and isinstance(src.dtype, FloatType) and isinstance(result, ValueTensorType) and result.dtype == src.dtype


SHAPE_LOWERINGS: dict[str, Callable[[Emitter, Operation], Value]] = {
    torch.SLICE_TENSOR: lower_slice,
    torch.PERMUTE: lower_permute,
    torch.UNFLATTEN: lower_unflatten,
    torch.FLATTEN: lower_flatten,
    torch.SUM_DIM: lower_sum,
    torch.ZEROS: lower_zeros,
    torch.STATIC_INFO_CAST: lower_static_info_cast,
}


def torch_to_linalg_patterns(choices: KernelChoices = DEFAULT_CHOICES, stats: Optional[list[str]] = None) -> list[RewritePattern]:
    """The patterns of convopt-torch-to-linalg: aten.convolution with the
    kernel options, the shape ops and sums."""
    patterns: list[RewritePattern] = [LowerConvolution(choices=choices, stats=stats)]
    if not choices.device.builds.max_pool_scatter:  # the backend's own lowering fails there (max_pool_bwd.py)
        patterns.append(LowerMaxPoolBwd(choices=choices, stats=stats, root=definition(torch.MAX_POOL2D_BACKWARD), forms=("gather",)))
    return patterns + [LowerToBuiltin(root=definition(name), lower=fn, takes=float_sum if name == torch.SUM_DIM else None) for name, fn in SHAPE_LOWERINGS.items()]


@dataclass(frozen=True)
class TorchToLinalg(KernelPass):
    NAME = "convopt-torch-to-linalg"
    SUMMARY = "Lower aten.convolution, aten.sum.dim_IntList and the shape ops of the decomposition to linalg"
    ANCHOR = FUNC

    def run(self, op: Operation, ctx: PassContext) -> None:
        with self.warning_miscompiled_tiles(op, ctx):
            apply_patterns_to(op, torch_to_linalg_patterns(self.choices, ctx.stats), erase_dead=ERASE_DEAD)

