"""convopt-pool-bwd-to-linalg: lower `torch.aten.avg_pool{1,2,3}d_backward`
as the scatter kernel of a depthwise convolution.

Average pooling with kernel K, stride S and padding P is, per spatial dim,
the relation b = S*s + k - P of a convolution (dilation 1) whose weight is
one constant per window: y[n, c, s] = sum_k x[n, c, S*s + k - P] / div(s).
Its grad_input is the scatter of that depthwise convolution (groups =
channels, one channel per group; ../kernel/relation.py):

    grad_input[n, c, b] = sum_{s, k: b = S*s + k - P} grad_output[n, c, s] / div(s)

with div(s) = prod_i div_i(s_i) (PyTorch's avg_pool kernels), along dim i
of input size N:

    start = S*s - P,  end = min(start + K, N + P)
    div_i(s) = end - start                              count_include_pad
             = min(end, N) - max(start, 0)              otherwise
    div(s)   = divisor_override                         when given

The window never reaches past N + P, so with count_include_pad and no
ceil_mode overhang every window holds prod(K): then (and with a
divisor_override) the divisor is a constant, and the scatter's weight is
the constant 1/div over grad_output as it is (f16/bf16 widened to f32).
Otherwise grad_output is divided by div(s) first (one elementwise op
computing div from linalg.index, widening f16/bf16 to f32), and the weight
is ones.
The scatter goes through the registry's forms and the device profile like
every convolution kernel (forms/kernels.emit_kernel); taps outside the
input (the padding, ceil_mode's last window) are never emitted.

There is no avg_pool1d_backward in torch-mlir's dialect (PyTorch's
avg_pool1d is avg_pool2d over an inserted unit dim, and so is its
backward): 1-D pooling reaches convopt as the 2-D op.  Inputs without a batch dim (rank
spatial + 1, which PyTorch accepts) get a unit batch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from ...diagnostics import position_of
from ...dialects import OpDef, arith, definition, linalg, torch
from ...dialects.func import FUNC
from ...ir.affine import AffineMap
from ...ir.attributes import DenseAttr, format_float
from ...ir.builder import Builder
from ...ir.core import Operation, Value
from ...ir.types import FloatType, IntegerType, ValueTensorType
from ...passes import PassContext
from ...rewrite import Rewriter, apply_patterns_to
from ..forms.kernels import emit_kernel
from ..kernel.emit import Emitter, Ix, extend
from ..kernel.relation import Kind, Rel, pool_output_size
from ..kernel.request import DEFAULT_CHOICES, KernelChoices, KernelRequest, accumulator_type
from ..kernel.roles import A_LAYOUT, B_LAYOUT, W_LAYOUT
from .conv_bwd import finish
from .conv_spec import (
    MAX_KERNEL_TAPS,
    MAX_SPATIAL_SIZE,
    _dtype,
    _shaped,
    check_i64,
    constant_bool,
    constant_int,
    constant_ints,
    invalid,
    is_none,
    unsupported,
    window_extent,
)
from .max_pool_bwd import MAX_POOL_BWD, MAX_POOL_FWD, LowerMaxPoolBwd
from .max_pool_fwd import LowerMaxPoolForward
from .options import ERASE_DEAD, KernelPass, KernelPattern

POOL_BWD: dict[str, int] = {torch.AVG_POOL2D_BACKWARD: 2, torch.AVG_POOL3D_BACKWARD: 3}
"""The ops this pass lowers, with their number of spatial dims."""


@dataclass(frozen=True)
class PoolSpec:
    """One avg_pool backward, in PyTorch's terms (per spatial dim: kernel,
    stride, padding); divisor: divisor_override (None: the window's count)."""

    rank: int
    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    padding: tuple[int, ...]
    ceil_mode: bool
    count_include_pad: bool
    divisor: Optional[int]
    batched: bool
    dtype: FloatType


def read_pool_backward(op: Operation) -> PoolSpec:
    """Validate an avg_pool backward as PyTorch does (avg_pool2d's checks)
    and read its parameters; anything convopt cannot lower is a located
    `unsupported:` error."""
    nd = POOL_BWD[op.name]
    args = torch.args(op)
    gt = _shaped(op, args.grad_output, "grad_output")
    xt = _shaped(op, args.self, "the input")
    dtype = _dtype(op, xt)
    if gt.dtype != dtype:
        raise invalid(op, f"expects grad_output of element type {dtype}, got {gt.dtype}")
    shape, gshape = xt.shape or (), gt.shape or ()
    if len(shape) not in (nd + 1, nd + 2) or len(gshape) != len(shape):
        raise invalid(op, f"expects input and grad_output of rank {nd + 1} or {nd + 2}, got '{xt}' and '{gt}'")
    kernel = constant_ints(op, args.kernel_size, "kernel_size", nd)
    stride = constant_ints(op, args.stride, "stride", nd, empty_is=kernel)
    padding = constant_ints(op, args.padding, "padding", nd)
    ceil_mode, include = constant_bool(args.ceil_mode), constant_bool(args.count_include_pad)
    if ceil_mode is None or include is None:
        raise unsupported(op, "non-constant ceil_mode or count_include_pad")
    divisor = None
    if not is_none(args.divisor_override):
        divisor = constant_int(args.divisor_override)
        if divisor is None:
            raise unsupported(op, "non-constant divisor_override")
        if divisor == 0:
            raise invalid(op, "expects a non-zero divisor_override")
    if min(kernel) < 1 or min(stride) < 1:
        raise invalid(op, f"expects kernel_size and stride >= 1, got {list(kernel)} and {list(stride)}")
    if any(p < 0 or 2 * p > k for p, k in zip(padding, kernel)):
        raise invalid(op, f"expects padding between 0 and half the kernel size, got {list(padding)} for kernel {list(kernel)}")
    if math.prod(kernel) > MAX_KERNEL_TAPS:
        raise unsupported(op, f"a kernel of {math.prod(kernel)} taps (at most {MAX_KERNEL_TAPS})")
    lead = len(shape) - nd
    for what, a, b in (("batch", shape[0], gshape[0]), ("channels", shape[lead - 1], gshape[lead - 1])) if lead == 2 else (("channels", shape[0], gshape[0]),):
        if a is not None and b is not None and a != b:
            raise invalid(op, f"expects grad_output and the input to have the same {what}, got {b} and {a}")
    if 0 in shape or 0 in gshape:
        raise unsupported(op, f"a size-0 dim ('{xt}', '{gt}')")
    for i in range(nd):
        n, g = shape[lead + i], gshape[lead + i]
        if n is not None and n > MAX_SPATIAL_SIZE:
            raise unsupported(op, f"spatial size {n} along dim {i} (at most {MAX_SPATIAL_SIZE})")
        if n is None:
            continue
        if nd == 3 and n < kernel[i]:  # avg_pool3d's check_input_size (padding not counted)
            raise invalid(op, f"expects an input at least as large as the kernel along spatial dim {i} (input size {n}, kernel {kernel[i]})")
        expected = pool_output_size(n, kernel[i], stride[i], padding[i], ceil_mode)
        if expected < 1:
            raise invalid(op, f"has an empty output along spatial dim {i} (input size {n}, kernel {kernel[i]}, padding {padding[i]})")
        if g is not None and g != expected:
            raise invalid(op, f"expects grad_output size {expected} along spatial dim {i} (input {n}), got {g}")
    check_i64(op, (xt, gt), [window_extent(stride[i], 1, kernel[i], padding[i], (shape[lead + i], gshape[lead + i])) for i in range(nd)])
    result = op.results[0].type
    if isinstance(result, ValueTensorType) and result != xt:
        raise invalid(op, f"expects a result of type '{xt}', got '{result}'")
    return PoolSpec(nd, kernel, stride, padding, ceil_mode, include, divisor, lead == 2, dtype)


def constant_divisor(spec: PoolSpec, rels: list[Rel]) -> Optional[int]:
    """The divisor when every window has the same one (statically), else
    None: divisor_override; prod(K) when every window lies inside the
    padded input (count_include_pad) or inside the input itself."""
    if spec.divisor is not None:
        return spec.divisor
    pad = [r.P if spec.count_include_pad else 0 for r in rels]
    for r, p in zip(rels, pad):
        if not (isinstance(r.Ns, int) and isinstance(r.Nb, int)) or r.S * (r.Ns - 1) - r.P + r.k > r.Nb + p or r.P > p:
            return None
    return math.prod(spec.kernel)


def divide_by_windows(em: Emitter, dy: Value, spec: PoolSpec, rels: list[Rel], acc_type: FloatType) -> Value:
    """dy[n, c, s...] / div(s) in acc_type (the module docstring's div_i,
    from linalg.index; a count below 1, which no window PyTorch makes has,
    reads as 1 so that no padded read multiplies an infinity)."""
    rank = 2 + spec.rank
    out = em.empty(em.shape(dy), acc_type)
    bounds = [em.index(r.Nb) for r in rels]
    padded = [em.index(em.add(r.Nb, r.P)) for r in rels]  # N + P
    c = em.index

    def body(b: Builder, a: list[Value]) -> list[Value]:
        def op(name: str, x: Value, y: Value) -> Value:
            return arith.same_type(b, name, x, y)

        count: Optional[Value] = None
        for i, r in enumerate(rels):
            if r.k == 1 and r.P == 0:
                continue  # every window holds one position: div_i = 1
            start = linalg.index(b, 2 + i)
            start = op(arith.MULI, start, c(r.S)) if r.S != 1 else start
            start = op(arith.SUBI, start, c(r.P)) if r.P else start
            end = op(arith.MINSI, op(arith.ADDI, start, c(r.k)), padded[i])
            if not spec.count_include_pad:
                start, end = (op(arith.MAXSI, start, c(0)) if r.P else start), op(arith.MINSI, end, bounds[i])
            size = op(arith.SUBI, end, start)
            count = size if count is None else op(arith.MULI, count, size)
        value = extend(b, a[0], acc_type)
        if count is None:
            return [value]
        count = op(arith.MAXSI, count, c(1))
        as_int = arith.convert(b, arith.INDEX_CAST, count, IntegerType(64))
        return [op(arith.DIVF, value, arith.convert(b, arith.SITOFP, as_int, acc_type))]

    ident = AffineMap.identity(rank)
    return em.generic([dy], [out], [ident, ident], ["parallel"] * rank, body)[0]


def constant_weight(em: Emitter, value: float, shape: list[Ix], acc_type: FloatType) -> Value:
    """The scatter's weight w[c, 0, k...] = value: a splat `arith.constant`
    where the channels are static (the kernel's per-tap slices of it fold
    to constants), else a linalg.fill.  A filled weight whose tap slices
    are read by the scatter's pieces makes iree-compile (3.13, llvm-cpu)
    form a dispatch that fills the whole weight and copies one slice out
    of it outside its workgroup loop: "write affecting operations on
    global resources are restricted to workgroup distributed contexts"
    (avg_pool1d backward, window 5, stride 1, padding 2,
    count_include_pad=False, input [2, 8, 18])."""
    if all(isinstance(s, int) for s in shape):
        t = em.tensor_type(shape, acc_type)
        return em.constant(DenseAttr.splat(format_float(value, acc_type), t), t)
    return em.fill(em.float(value, acc_type), em.empty(shape, acc_type))


def lower_pool_backward(op: Operation, rewriter: Rewriter, choices: KernelChoices = DEFAULT_CHOICES, stats: Optional[list[str]] = None) -> None:
    spec = read_pool_backward(op)
    func = op.ancestor(FUNC)
    assert func is not None
    em = Emitter(Builder.before(op), func)
    acc_type = accumulator_type(spec.dtype)
    dy, x = em.to_builtin(torch.args(op).grad_output), em.to_builtin(torch.args(op).self)
    if not spec.batched:  # [C, s...] -> [1, C, s...]
        dy, x = (em.expand(v, [[0, 1], *([i] for i in range(2, spec.rank + 2))], [1, *em.shape(v)]) for v in (dy, x))
    shape = em.shape(x)
    dy = em.refine(dy, [s if isinstance(s, int) else None for s in shape[:2]])
    batch: Ix = shape[0] if isinstance(shape[0], int) else em.dim(dy, 0)
    channels = shape[1] if isinstance(shape[1], int) else em.dim(dy, 1)
    rels = [Rel(S=spec.stride[i], D=1, P=spec.padding[i], K=spec.kernel[i], Ns=em.dim(dy, 2 + i), Nb=shape[2 + i]) for i in range(spec.rank)]
    divisor = constant_divisor(spec, rels)
    if divisor is not None:  # f16/bf16 widened first: both kernel inputs in acc_type
        dy, weight_value = em.convert_elements(dy, acc_type), 1.0 / divisor
    else:
        dy, weight_value = divide_by_windows(em, dy, spec, rels, acc_type), 1.0
    w = constant_weight(em, weight_value, [channels, 1, *spec.kernel], acc_type)
    req = KernelRequest(
        kind=Kind.SCATTER, ins=(dy, w), layouts=(A_LAYOUT, W_LAYOUT), out_layout=B_LAYOUT, rels=rels,
        roles={"n": batch, "g": channels, "ca": 1, "cb": 1}, out_spatial=[r.Nb for r in rels], acc_type=acc_type, choices=choices,
    )
    acc, kstats = emit_kernel(em, req)
    if not spec.batched:
        acc = em.collapse(acc, [[0, 1], *([i] for i in range(2, spec.rank + 2))])
    value = finish(em, acc, spec.dtype, op.results[0].type)
    if stats is not None:
        stats.append(f"{position_of(op)}: {op.name} grad_input: form={kstats.form} ops={kstats.ops} executed_macs={kstats.executed or 'dynamic'}")
    rewriter.replace_op(op, [value])


@dataclass(frozen=True)
class LowerPoolBwd(KernelPattern):
    """One avg_pool backward op (root: its definition) to the scatter kernel."""

    root: OpDef = definition(torch.AVG_POOL2D_BACKWARD)

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        lower_pool_backward(op, rewriter, self.choices, self.stats)
        return True


@dataclass(frozen=True)
class PoolBwdToLinalg(KernelPass):
    NAME = "convopt-pool-bwd-to-linalg"
    SUMMARY = ("Lower torch.aten.avg_pool1d/2d/3d_backward to the scatter kernel of a depthwise convolution with a constant weight and a divisor, "
               "max_pool3d_with_indices_backward to the scatter by its indices, and the max-pool forward ops to one gather (values and indices)")
    ANCHOR = FUNC

    def run(self, op: Operation, ctx: PassContext) -> None:
        patterns: list[KernelPattern] = [LowerPoolBwd(choices=self.choices, stats=ctx.stats, root=definition(name)) for name in POOL_BWD]
        patterns += [LowerMaxPoolBwd(choices=self.choices, stats=ctx.stats, root=definition(name)) for name in MAX_POOL_BWD]
        patterns += [LowerMaxPoolForward(choices=self.choices, stats=ctx.stats, root=definition(name)) for name in MAX_POOL_FWD]
        apply_patterns_to(op, patterns, erase_dead=ERASE_DEAD)
