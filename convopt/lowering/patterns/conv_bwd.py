"""convopt-conv-bwd-to-linalg: lower `torch.aten.convolution_backward`
directly to `linalg.generic` ops.

For a regular convolution y = conv(x, w) (A = grad_output, B = input):

    grad_input[n, g, c, b]  = sum_{f, s, k: b = S*s + D*k - P} dy[n, g, f, s] * w[g, f, c, k]   (scatter)
    grad_weight[g, f, c, k] = sum_{n, s} dy[n, g, f, s] * x[n, g, c, S*s + D*k - P]            (weight)
    grad_bias[f]            = sum_{n, s} dy[n, f, s]

For a transposed convolution (A = input, B = grad_output):

    grad_input[n, g, c, s]  = sum_{f, k} dy[n, g, f, S*s + D*k - P] * w[g, c, f, k]            (gather)
    grad_weight[g, c, f, k] = sum_{n, s} x[n, g, c, s] * dy[n, g, f, S*s + D*k - P]            (weight)

(per spatial dim; kernels.py builds each sum).  Only the results that
output_mask asks for are computed.  Operands come in through
`torch_c.to_builtin_tensor`, results go out through
`torch_c.from_builtin_tensor`; convopt-finalize-boundary removes the casts
when the whole function is lowered.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from ...diagnostics import position_of
from ...dialects import definition, torch
from ...dialects.func import FUNC
from ...ir.builder import Builder
from ...ir.core import Operation, Value
from ...ir.types import FloatType, ValueTensorType, ranked
from ...passes import PassContext
from ...rewrite import Rewriter, apply_patterns_to
from ..forms.kernels import emit_kernel
from ..kernel.emit import Emitter, Ix
from ..kernel.relation import Kind, Rel
from ..kernel.request import DEFAULT_CHOICES, KernelChoices, KernelRequest, accumulator_type
from ..kernel.roles import A_LAYOUT, B_LAYOUT, W_LAYOUT
from .conv_spec import CONV_BWD, ConvBackward, read_conv_backward, wanted_results
from .empty import lower_empty
from .options import ERASE_DEAD, KernelPass, KernelPattern


@dataclass
class Operands:
    """The builtin operands of one convolution, in the kernels' A/B/W roles."""

    conv: ConvBackward
    A: Value  # strided ("small") side: grad_output (regular) / input (transposed)
    B: Value  # other side: input (regular) / grad_output (transposed)
    W: Value
    batch: Ix
    channels: tuple[Ix, Ix]  # (Ca, Cb), see ConvSpec.group_channels
    kernel: list[Ix]
    rels: list[Rel]

    def roles(self) -> dict[str, Ix]:
        ca, cb = self.channels
        return {"n": self.batch, "g": self.conv.spec.groups, "ca": ca, "cb": cb}


def make_operands(em: Emitter, conv: ConvBackward, A: Value, B: Value, W: Value) -> Operands:
    """A [N, G*Ca, s...], B [N, G*Cb, b...], W [G*Ca, Cb, k...].  A size
    that one operand has static and another dynamic is made static in both
    (tensor.cast), so that the role reshapes see one size; what stays
    dynamic is read with tensor.dim."""
    spec = conv.spec
    G = spec.groups
    known = [s for s in (ranked(A.type).shape[0], ranked(B.type).shape[0]) if s is not None]
    ca, cb = spec.group_channels()
    times = lambda c: c * G if c is not None else None  # noqa: E731
    A = em.refine(A, [known[0] if known else None, times(ca)])
    B = em.refine(B, [known[0] if known else None, times(cb)])
    W = em.refine(W, [times(ca), cb])
    static_batch = [s for s in (em.dim(A, 0), em.dim(B, 0)) if isinstance(s, int)]
    batch: Ix = static_batch[0] if static_batch else em.dim(A, 0)
    channels: tuple[Ix, Ix] = (ca if ca is not None else em.floordiv(em.dim(W, 0), G), cb if cb is not None else em.dim(W, 1))
    kernel: list[Ix] = [em.dim(W, 2 + i) for i in spec.spatial]
    rels = [Rel(S=spec.stride[i], D=spec.dilation[i], P=spec.padding[i], K=kernel[i], Ns=em.dim(A, 2 + i), Nb=em.dim(B, 2 + i)) for i in spec.spatial]
    return Operands(conv, A, B, W, batch, channels, kernel, rels)


def useful_macs(ops: Operands) -> Optional[int]:
    """Multiply-adds whose operands are both in bounds (static shapes)."""
    if not all(r.static for r in ops.rels) or not isinstance(ops.batch, int):
        return None
    ca, cb = ops.channels
    if not isinstance(ca, int) or not isinstance(cb, int):
        return None
    total = ops.batch * ops.conv.spec.groups * ca * cb
    for r in ops.rels:
        total *= r.useful()
    return total


def bias_gradient(em: Emitter, dy: Value, acc_type: FloatType, two_step: bool = False) -> Value:
    """grad_bias[f] = sum_{n, s...} dy[n, f, s...]; two_step (where the
    target has no dynamic_all_reduce, device.Builds) with a dynamic size:
    sum_n (sum_{s...} dy[n, f, s...]), two reductions that each reduce
    contiguous dims (static shapes keep one op: one dispatch less to
    build)."""
    rank = ranked(dy.type).rank
    if two_step and None in ranked(dy.type).shape:
        return em.reduce_sum(em.reduce_sum(dy, list(range(2, rank)), acc_type), [0], acc_type)
    return em.reduce_sum(dy, [i for i in range(rank) if i != 1], acc_type)


def finish(em: Emitter, acc: Value, dtype: FloatType, like: object) -> Value:
    """Truncate the accumulator to dtype and cast it to the declared type."""
    value = em.convert_elements(acc, dtype)
    if isinstance(like, ValueTensorType) and like.shape is not None and like.dtype is not None:
        return em.from_builtin(value, like)
    return value


def lower_conv_backward(op: Operation, rewriter: Rewriter, choices: KernelChoices = DEFAULT_CHOICES, stats: Optional[list[str]] = None) -> None:
    cb = read_conv_backward(op)
    spec = cb.spec
    func = op.ancestor(FUNC)
    assert func is not None
    em = Emitter(Builder.before(op), func)
    if cb.empty:
        lower_empty_backward(op, cb, em, rewriter, stats)
        return
    acc_type = accumulator_type(spec.dtype)
    x, w, dy = em.to_builtin(cb.input), em.to_builtin(cb.weight), em.to_builtin(cb.grad_output)
    A, B = (x, dy) if spec.transposed else (dy, x)
    ops = make_operands(em, cb, A, B, w)
    A, B, w = ops.A, ops.B, ops.W
    wanted = wanted_results(op, cb)
    values: list[Optional[Value]] = [None, None, None]
    useful = useful_macs(ops)
    report = []
    weight = KernelRequest(
        kind=Kind.WEIGHT, ins=(A, B), layouts=(A_LAYOUT, B_LAYOUT), out_layout=W_LAYOUT, rels=ops.rels, roles=ops.roles(),
        out_spatial=ops.kernel, acc_type=acc_type, choices=choices, image_padding=() if spec.transposed else [r.P for r in ops.rels],
    )
    if wanted[0]:
        if spec.transposed:  # grad_input = gather of grad_output: A-shaped
            req = replace(weight, kind=Kind.GATHER, ins=(B, w), layouts=(B_LAYOUT, W_LAYOUT), out_layout=A_LAYOUT, out_spatial=[r.Ns for r in ops.rels])
        else:  # grad_input = scatter of grad_output: B-shaped
            req = replace(weight, kind=Kind.SCATTER, ins=(A, w), layouts=(A_LAYOUT, W_LAYOUT), out_layout=B_LAYOUT, out_spatial=[r.Nb for r in ops.rels])
        acc, kstats = emit_kernel(em, req)
        values[0] = finish(em, acc, spec.dtype, op.results[0].type)
        report.append(("grad_input", kstats))
    if wanted[1]:
        acc, kstats = emit_kernel(em, weight)
        values[1] = finish(em, acc, spec.dtype, op.results[1].type)
        report.append(("grad_weight", kstats))
    if wanted[2]:
        values[2] = finish(em, bias_gradient(em, dy, acc_type, two_step=not choices.device.builds.dynamic_all_reduce), spec.dtype, op.results[2].type)
    if stats is not None:
        for name, k in report:
            eff = f"{useful / k.executed:.3f}" if useful and k.executed else "n/a (dynamic shape)"
            stats.append(f"{position_of(op)}: {CONV_BWD} {name}: form={k.form} ops={k.ops} executed_macs={k.executed or 'dynamic'} useful_macs={useful or 'dynamic'} efficiency={eff}")
    replace_results(op, values, rewriter)


def lower_empty_backward(op: Operation, cb: ConvBackward, em: Emitter, rewriter: Rewriter, stats: Optional[list[str]]) -> None:
    """An empty input: PyTorch's zeros and empty tensors (empty.py)."""
    values = lower_empty(em, cb, wanted_results(op, cb))
    for i, value in enumerate(values):
        like = op.results[i].type
        if value is not None and isinstance(like, ValueTensorType):
            values[i] = em.from_builtin(value, like)
    if stats is not None:
        for name, value in zip(("grad_input", "grad_weight"), values):
            if value is not None:
                stats.append(f"{position_of(op)}: {CONV_BWD} {name}: form=empty ops=0 executed_macs=0 useful_macs=0 efficiency=n/a (empty input)")
    replace_results(op, values, rewriter)


def replace_results(op: Operation, values: list[Optional[Value]], rewriter: Rewriter) -> None:
    """Replace op's results (unrequested ones that are still used by a
    `torch.constant.none`) and erase op."""
    builder = Builder.before(op)
    for i, result in enumerate(op.results):
        if values[i] is None and result.has_uses():
            values[i] = builder.value(torch.CONSTANT_NONE, [], result.type)
    rewriter.replace_op(op, values)


@dataclass(frozen=True)
class LowerConvBwd(KernelPattern):
    """convolution_backward directly to kernels (one per requested gradient)."""

    root = definition(CONV_BWD)

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        lower_conv_backward(op, rewriter, self.choices, self.stats)
        return True


@dataclass(frozen=True)
class ConvBwdToLinalg(KernelPass):
    NAME = "convopt-conv-bwd-to-linalg"
    SUMMARY = "Lower torch.aten.convolution_backward directly to linalg.generic (no flip copy, no zero insertion)"
    ANCHOR = FUNC

    def run(self, op: Operation, ctx: PassContext) -> None:
        with self.warning_miscompiled_tiles(op, ctx):
            apply_patterns_to(op, [LowerConvBwd(choices=self.choices, stats=ctx.stats)], erase_dead=ERASE_DEAD)
