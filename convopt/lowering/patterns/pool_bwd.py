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

from ...dialects import OpDef, arith, definition, linalg, torch
from ...dialects.func import FUNC
from ...dialects.torch import Reduce, WindowOp
from ...ir.affine import AffineMap
from ...ir.attributes import DenseAttr, format_float
from ...ir.builder import Builder
from ...ir.core import Operation, Value
from ...ir.types import FloatType, IntegerType
from ...passes import PassContext
from ...rewrite import Rewriter, apply_patterns_to
from ..forms.kernels import emit_kernel
from ..kernel.emit import Emitter, Ix, extend
from ..kernel.relation import Kind, Rel
from ..kernel.request import DEFAULT_CHOICES, KernelChoices, KernelRequest, accumulator_type
from ..kernel.roles import A_LAYOUT, B_LAYOUT, W_LAYOUT
from .conv_bwd import finish
from .conv_spec import emitter_before
from .max_pool_bwd import LowerMaxPoolBwd
from .max_pool_fwd import LowerMaxPoolForward
from .options import ERASE_DEAD, KernelPass, KernelPattern
from .window import WindowSpec, backward_operands, backward_rels, read_window_op, stats_line


def lowered_here(decl: WindowOp) -> bool:
    """Whether convopt-pool-bwd-to-linalg lowers a window op: average
    pooling's backward and max pooling's forward, which neither torch-mlir
    nor IREE's torch input lowers for every argument PyTorch takes, and
    max_pool3d's backward (max_pool2d's stays torch-mlir's:
    bench/README.md "max_pool2d_with_indices_backward: not taken over")."""
    return decl.reduce == Reduce.AVG or not decl.backward or decl.rank == 3


def constant_divisor(spec: WindowSpec, rels: list[Rel]) -> Optional[int]:
    """The divisor when every window has the same one (statically), else
    None: divisor_override; prod(K) when every window lies inside the
    padded input (count_include_pad) or inside the input itself."""
    w = spec.window
    if w.divisor is not None:
        return w.divisor
    pad = [r.P if w.count_include_pad else 0 for r in rels]
    for r, p in zip(rels, pad):
        if not (isinstance(r.Ns, int) and isinstance(r.Nb, int)) or r.S * (r.Ns - 1) - r.P + r.k > r.Nb + p or r.P > p:
            return None
    return math.prod(w.kernel)


def divide_by_windows(em: Emitter, dy: Value, spec: WindowSpec, rels: list[Rel], acc_type: FloatType) -> Value:
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
            if not spec.window.count_include_pad:
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
    spec = read_window_op(op)
    em = emitter_before(op)
    acc_type = accumulator_type(spec.dtype)
    (dy, x), shape = backward_operands(em, op, spec, ("grad_output", "self"))
    dy = em.refine(dy, [s if isinstance(s, int) else None for s in shape[:2]])
    batch: Ix = shape[0] if isinstance(shape[0], int) else em.dim(dy, 0)
    channels = shape[1] if isinstance(shape[1], int) else em.dim(dy, 1)
    rels = backward_rels(em, spec, dy, shape)
    divisor = constant_divisor(spec, rels)
    if divisor is not None:  # f16/bf16 widened first: both kernel inputs in acc_type
        dy, weight_value = em.convert_elements(dy, acc_type), 1.0 / divisor
    else:
        dy, weight_value = divide_by_windows(em, dy, spec, rels, acc_type), 1.0
    w = constant_weight(em, weight_value, [channels, 1, *spec.window.kernel], acc_type)
    req = KernelRequest(
        kind=Kind.SCATTER, ins=(dy, w), layouts=(A_LAYOUT, W_LAYOUT), out_layout=B_LAYOUT, rels=rels,
        roles={"n": batch, "g": channels, "ca": 1, "cb": 1}, out_spatial=[r.Nb for r in rels], acc_type=acc_type, choices=choices,
    )
    acc, kstats = emit_kernel(em, req)
    if not spec.batched:
        acc = em.collapse(acc, [[0, 1], *([i] for i in range(2, spec.rank + 2))])
    value = finish(em, acc, spec.dtype, op.results[0].type)
    if stats is not None:
        stats.append(stats_line(op, "grad_input", kstats.form, kstats.ops, kstats.executed))
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
    SUMMARY = ("Lower the window ops: torch.aten.avg_pool1d/2d/3d_backward as the scatter kernel of a depthwise convolution with a constant "
               "weight and a divisor, max_pool3d_with_indices_backward by its indices (the registry's form: scatter or gather), and the "
               "max-pool forward ops (max_pool1d/2d/3d and their _with_indices) by the registry's form of their kernel: two reductions, values and indices")
    ANCHOR = FUNC

    def run(self, op: Operation, ctx: PassContext) -> None:
        apply_patterns_to(op, window_patterns(self.choices, ctx.stats), erase_dead=ERASE_DEAD)


def window_patterns(choices: KernelChoices, stats: Optional[list[str]]) -> list[KernelPattern]:
    """One pattern per window op the pass lowers (lowered_here), in WINDOW_OPS' order."""
    return [pattern_of(decl)(choices=choices, stats=stats, root=definition(name))  # type: ignore[call-arg]
            for name, decl in torch.WINDOW_OPS.items() if lowered_here(decl)]


def pattern_of(decl: WindowOp) -> type[KernelPattern]:
    """The pattern of a window op: by its kind."""
    if not decl.backward:
        return LowerMaxPoolForward
    return LowerPoolBwd if decl.reduce == Reduce.AVG else LowerMaxPoolBwd
