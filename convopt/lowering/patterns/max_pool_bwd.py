"""Lower `torch.aten.max_pool3d_with_indices_backward`: the scatter of
grad_output to the positions the forward max pool's indices name.

Max pooling with kernel K, stride S, padding P and dilation D reads, per
spatial dim, the input positions b = S*s + D*k - P of the convolution
relation (../kernel/relation.py); its forward returns, per output position
s, the flat index of the window's maximum, idx[n, c, s] = flat(b) with
flat(b) = sum_i b_i * prod_{j > i} N_j over the input's spatial sizes N.
The backward adds every grad_output value to the position its index names:

    grad_input[n, c, b] = sum_{s, k: b = S*s + D*k - P} (idx[n, c, s] == flat(b)) ? grad_output[n, c, s] : 0

It is the scatter of a depthwise convolution whose weight is the indicator
of the index, one value per (s, k): not a weight of k alone, so the
"columns" cols[n, c, k, s] = (idx[n, c, s] == flat(S*s + D*k - P)) ?
grad_output[n, c, s] : 0 are made by one elementwise op and added into
grad_input by col2im (../forms/matmul_forms.col2im_taps: every tap adds its
in-bounds slice; the padding is never written).  Where the windows tile
the input (S = K and D = 1 along every dim, e.g. C3D's 1x2x2 and 2x2x2
pools) each position belongs to one window and the same values, laid out
[n, c, s0, k0, s1, k1, ...], are grad_input read at b + P: one op, a
collapse, and a slice (or zero padding) of the ends.  Out-of-bounds (s, k)
never reach grad_input, so their flat index, which may alias another
position's, does not matter.

torch-mlir lowers max_pool2d_with_indices_backward itself; its 1-D and 3-D
forms have no lowering in torch-mlir nor in IREE's torch input, so a
training step with a 3-D max pool builds nowhere without this pattern.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from ...diagnostics import position_of
from ...dialects import OpDef, arith, definition, linalg, torch
from ...dialects.func import FUNC
from ...ir.affine import AffineMap, d
from ...ir.builder import Builder
from ...ir.core import Operation, Value
from ...ir.types import IntegerType, ValueTensorType, i64
from ...rewrite import Rewriter
from ..forms.matmul_forms import Dim, col2im_taps, position_dims, tap_dims
from ..kernel.emit import Emitter, Ix, extend
from ..kernel.relation import Rel, pool_output_size, tap_range
from ..kernel.request import accumulator_type
from .conv_bwd import finish
from .conv_spec import MAX_KERNEL_TAPS, MAX_SPATIAL_SIZE, _dtype, _shaped, check_i64, constant_bool, constant_ints, invalid, unsupported, window_extent
from .options import KernelPattern

MAX_POOL_BWD: dict[str, int] = {torch.MAX_POOL3D_WITH_INDICES_BACKWARD: 3}
"""The max-pool backward ops convopt lowers, with their spatial rank (the
2-D one is torch-mlir's: bench/README.md "Pooling backward")."""


MAX_POOL_FWD: dict[str, tuple[int, bool]] = {
    torch.MAX_POOL1D_VALUES: (1, False), torch.MAX_POOL2D_VALUES: (2, False), torch.MAX_POOL3D_VALUES: (3, False),
    torch.MAX_POOL1D_WITH_INDICES: (1, True), torch.MAX_POOL2D: (2, True), torch.MAX_POOL3D: (3, True),
}
"""The max-pool forward ops convopt lowers (max_pool_fwd.py), with their
spatial rank and whether they return the indices."""


@dataclass(frozen=True)
class MaxPoolSpec:
    rank: int
    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    padding: tuple[int, ...]
    dilation: tuple[int, ...]
    batched: bool
    ceil_mode: bool = False


def read_window(op: Operation, args, nd: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]:
    """(kernel, stride, padding, dilation, ceil_mode) of a max pool, checked
    as PyTorch's pooling shape checks do: every value >= 1 (padding >= 0),
    padding at most half the kernel; at most MAX_KERNEL_TAPS taps."""
    kernel = constant_ints(op, args.kernel_size, "kernel_size", nd)
    stride = constant_ints(op, args.stride, "stride", nd, empty_is=kernel)
    padding = constant_ints(op, args.padding, "padding", nd)
    dilation = constant_ints(op, args.dilation, "dilation", nd)
    ceil_mode = constant_bool(args.ceil_mode)
    if ceil_mode is None:
        raise unsupported(op, "non-constant ceil_mode")
    if min(kernel) < 1 or min(stride) < 1 or min(dilation) < 1:
        raise invalid(op, f"expects kernel_size, stride and dilation >= 1, got {list(kernel)}, {list(stride)} and {list(dilation)}")
    if any(p < 0 or 2 * p > k for p, k in zip(padding, kernel)):
        raise invalid(op, f"expects padding between 0 and half the kernel size, got {list(padding)} for kernel {list(kernel)}")
    if math.prod(kernel) > MAX_KERNEL_TAPS:
        raise unsupported(op, f"a kernel of {math.prod(kernel)} taps (at most {MAX_KERNEL_TAPS})")
    return kernel, stride, padding, dilation, ceil_mode


def read_max_pool_backward(op: Operation) -> MaxPoolSpec:
    """Validate the op as PyTorch's max_pool checks do; anything convopt
    cannot lower is a located `unsupported:` error."""
    nd = MAX_POOL_BWD[op.name]
    args = torch.args(op)
    gt, xt, it = _shaped(op, args.grad_output, "grad_output"), _shaped(op, args.self, "the input"), _shaped(op, args.indices, "the indices")
    dtype = _dtype(op, xt)
    if gt.dtype != dtype:
        raise invalid(op, f"expects grad_output of element type {dtype}, got {gt.dtype}")
    if not (isinstance(it.dtype, IntegerType) and it.dtype.width == 64):
        raise invalid(op, f"expects 64-bit integer indices, got '{it}'")
    shape, gshape, ishape = xt.shape or (), gt.shape or (), it.shape or ()
    if len(shape) not in (nd + 1, nd + 2) or len(gshape) != len(shape) or len(ishape) != len(shape):
        raise invalid(op, f"expects input, grad_output and indices of rank {nd + 1} or {nd + 2}, got '{xt}', '{gt}' and '{it}'")
    kernel, stride, padding, dilation, ceil_mode = read_window(op, args, nd)
    if 0 in shape or 0 in gshape:
        raise unsupported(op, f"a size-0 dim ('{xt}', '{gt}')")
    for a, b in zip(gshape, ishape):
        if a is not None and b is not None and a != b:
            raise invalid(op, f"expects indices of grad_output's shape, got '{it}' and '{gt}'")
    lead = len(shape) - nd
    for i in range(nd):
        n, g = shape[lead + i], gshape[lead + i]
        if n is not None and n > MAX_SPATIAL_SIZE:
            raise unsupported(op, f"spatial size {n} along dim {i} (at most {MAX_SPATIAL_SIZE})")
        expected = None if n is None else pool_output_size(n, kernel[i], stride[i], padding[i], ceil_mode, dilation[i])
        if expected is not None and expected < 1:
            raise invalid(op, f"has an empty output along spatial dim {i} (input size {n}, kernel {kernel[i]}, dilation {dilation[i]}, padding {padding[i]})")
        if expected is not None and g is not None and g != expected:
            raise invalid(op, f"expects grad_output size {expected} along spatial dim {i} (input {n}), got {g}")
    check_i64(op, (xt, gt, it), [window_extent(stride[i], dilation[i], kernel[i], padding[i], (shape[lead + i], gshape[lead + i])) for i in range(nd)])
    result = op.results[0].type
    if isinstance(result, ValueTensorType) and result != xt:
        raise invalid(op, f"expects a result of type '{xt}', got '{result}'")
    return MaxPoolSpec(nd, kernel, stride, padding, dilation, lead == 2)


def read_max_pool_forward(op: Operation) -> MaxPoolSpec:
    """Validate a max-pool forward op as PyTorch does (input of rank nd + 1
    or nd + 2, the window checks of read_window, an output of at least one
    position along every dim) and check its declared results: the values
    in the input's element type, the indices si64, both of the output's
    shape [lead..., Ns...] (Ns = pool_output_size)."""
    nd, with_indices = MAX_POOL_FWD[op.name]
    args = torch.args(op)
    xt = _shaped(op, args.self, "the input")
    dtype = _dtype(op, xt)
    shape = xt.shape or ()
    if len(shape) not in (nd + 1, nd + 2):
        raise invalid(op, f"expects an input of rank {nd + 1} or {nd + 2}, got '{xt}'")
    kernel, stride, padding, dilation, ceil_mode = read_window(op, args, nd)
    if 0 in shape:
        raise unsupported(op, f"a size-0 dim ('{xt}')")
    lead = len(shape) - nd
    out: list[Optional[int]] = list(shape[:lead])
    for i in range(nd):
        n = shape[lead + i]
        if n is not None and n > MAX_SPATIAL_SIZE:
            raise unsupported(op, f"spatial size {n} along dim {i} (at most {MAX_SPATIAL_SIZE})")
        size = None if n is None else pool_output_size(n, kernel[i], stride[i], padding[i], ceil_mode, dilation[i])
        if size is not None and size < 1:
            raise invalid(op, f"has an empty output along spatial dim {i} (input size {n}, kernel {kernel[i]}, dilation {dilation[i]}, padding {padding[i]})")
        out.append(size)
    check_i64(op, (xt,), [window_extent(stride[i], dilation[i], kernel[i], padding[i], (shape[lead + i], out[lead + i])) for i in range(nd)])
    if len(op.results) != 1 + with_indices:
        raise invalid(op, f"expects {1 + with_indices} results, got {len(op.results)}")
    shown = ",".join("?" if x is None else str(x) for x in out)
    for r, (element_ok, spelled) in zip(op.results, ((lambda e: e == dtype, str(dtype)), (_is_i64, "si64"))):
        t = r.type
        if not (isinstance(t, ValueTensorType) and t.shape is not None and len(t.shape) == len(out) and element_ok(t.dtype)) or any(
                a is not None and b is not None and a != b for a, b in zip(t.shape, out)):
            raise invalid(op, f"expects a result of shape [{shown}] and element type {spelled}, got '{t}'")
    return MaxPoolSpec(nd, kernel, stride, padding, dilation, lead == 2, ceil_mode)


def _is_i64(t: object) -> bool:
    return isinstance(t, IntegerType) and t.width == 64


def tiles_input(rels: list[Rel]) -> bool:
    """Whether the windows tile the input: one window per position."""
    return all(r.S == r.k and r.D == 1 for r in rels)


def picked(em: Emitter, dy: Value, idx: Value, rels: list[Rel], order: list[Dim], acc_type) -> Value:
    """out[order] = (idx[n, c, s] == flat(S*s + D*k - P)) ? dy[n, c, s] : 0
    over the dims of order (n, g, and k_i, s_i of every spatial dim), in
    acc_type (the module docstring's cols)."""
    loop = {name: j for j, name in enumerate(order)}
    nd = len(rels)
    read = AffineMap.from_exprs(len(order), [d(loop[Dim("n")]), d(loop[Dim("g")]), *(d(loop[Dim("s", i)]) for i in range(nd))])
    size_of = {Dim("n"): em.dim(dy, 0), Dim("g"): em.dim(dy, 1)}
    for i, r in enumerate(rels):
        size_of[Dim("k", i)], size_of[Dim("s", i)] = r.k, r.Ns
    out = em.empty([size_of[name] for name in order], acc_type)
    strides = [_product(em, [r.Nb for r in rels[i + 1:]]) for i in range(nd)]  # flat(b) = sum b_i * strides[i]
    consts = [em.index(x) for x in strides]
    zero = em.float(0.0, acc_type)
    c = em.index

    def body(b: Builder, a: list[Value]) -> list[Value]:
        def op(name: str, x: Value, y: Value) -> Value:
            return arith.same_type(b, name, x, y)

        flat: Optional[Value] = None
        for i, r in enumerate(rels):
            pos = linalg.index(b, loop[Dim("s", i)])
            pos = op(arith.MULI, pos, c(r.S)) if r.S != 1 else pos
            if r.k > 1:
                tap = linalg.index(b, loop[Dim("k", i)])
                pos = op(arith.ADDI, pos, op(arith.MULI, tap, c(r.D)) if r.D != 1 else tap)
            pos = op(arith.SUBI, pos, c(r.P)) if r.P else pos
            term = pos if strides[i] == 1 else op(arith.MULI, pos, consts[i])
            flat = term if flat is None else op(arith.ADDI, flat, term)
        assert flat is not None
        hit = arith.cmpi(b, "eq", a[1], arith.convert(b, arith.INDEX_CAST, flat, i64))
        return [arith.select(b, hit, extend(b, a[0], acc_type), zero)]

    return em.generic([dy, idx], [out], [read, read, AffineMap.identity(len(order))], ["parallel"] * len(order), body)[0]


def _product(em: Emitter, xs: list[Ix]) -> Ix:
    """prod(xs), folded where static."""
    out: Ix = 1
    for x in xs:
        out = em.mul(out, x)
    return out


def tiled_scatter(em: Emitter, dy: Value, idx: Value, rels: list[Rel], acc_type) -> Value:
    """grad_input where the windows tile the input: picked in the layout
    [n, c, s0, k0, s1, k1, ...], collapsed to [n, c, S*s + k] (= b + P),
    then read at b + P for b < N: sliced, or padded with zeros where the
    windows end before the input does."""
    nd = len(rels)
    order = [Dim("n"), Dim("g")] + [x for i in range(nd) for x in (Dim("s", i), Dim("k", i))]
    full = em.collapse(picked(em, dy, idx, rels, order, acc_type), [[0], [1], *([2 + 2 * i, 3 + 2 * i] for i in range(nd))])
    lead = em.shape(full)[:2]
    covered = [em.mul(r.Ns, r.S) for r in rels]
    # positions 0 <= b < N are full[b + P]: pad where S*Ns < N + P, then slice N from P
    high = [em.max(0, em.sub(em.add(r.Nb, r.P), cov)) for r, cov in zip(rels, covered)]
    if any(h != 0 for h in high):
        full = em.pad(full, [0] * (2 + nd), [0, 0, *high])
    if all(r.P == 0 for r in rels) and all(isinstance(x, int) and x == 0 for x in high) and all(cov == r.Nb for cov, r in zip(covered, rels)):
        return full
    return em.extract_slice(full, [0, 0, *(r.P for r in rels)], [*lead, *(r.Nb for r in rels)], [1] * (2 + nd))


def lower_max_pool_backward(op: Operation, rewriter: Rewriter, stats: Optional[list[str]] = None) -> None:
    spec = read_max_pool_backward(op)
    func = op.ancestor(FUNC)
    assert func is not None
    em = Emitter(Builder.before(op), func)
    dtype = _dtype(op, _shaped(op, torch.args(op).self, "the input"))
    acc_type = accumulator_type(dtype)
    args = torch.args(op)
    dy, x, idx = em.to_builtin(args.grad_output), em.to_builtin(args.self), em.to_builtin(args.indices)
    groups = [[0, 1], *([i] for i in range(2, spec.rank + 2))]
    if not spec.batched:  # [C, s...] -> [1, C, s...]
        dy, x, idx = (em.expand(v, groups, [1, *em.shape(v)]) for v in (dy, x, idx))
    shape = em.shape(x)
    rels = [Rel(S=spec.stride[i], D=spec.dilation[i], P=spec.padding[i], K=spec.kernel[i], Ns=em.dim(dy, 2 + i), Nb=shape[2 + i])
            for i in range(spec.rank)]
    if tiles_input(rels):
        acc, form = tiled_scatter(em, dy, idx, rels, acc_type), "tiled"
    else:
        order = [Dim("n"), Dim("g"), *tap_dims(spec.rank), *position_dims(spec.rank)]
        cols = picked(em, dy, idx, rels, order, acc_type)
        ranges = [[tap_range(em, r, k) for k in range(r.k)] for r in rels]
        lead: list[Ix] = [shape[0] if isinstance(shape[0], int) else em.dim(dy, 0), shape[1] if isinstance(shape[1], int) else em.dim(dy, 1)]
        acc, form = col2im_taps(em, cols, order, lead, [Dim("n"), Dim("g")], rels, ranges, acc_type), "col2im"
    if not spec.batched:
        acc = em.collapse(acc, groups)
    value = finish(em, acc, dtype, op.results[0].type)
    if stats is not None:
        stats.append(f"{position_of(op)}: {op.name} grad_input: form={form}")
    rewriter.replace_op(op, [value])


@dataclass(frozen=True)
class LowerMaxPoolBwd(KernelPattern):
    """One max-pool backward op (root: its definition) to the scatter of
    grad_output by its indices."""

    root: OpDef = definition(torch.MAX_POOL3D_WITH_INDICES_BACKWARD)

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        lower_max_pool_backward(op, rewriter, self.stats)
        return True
