"""convopt-decompose-conv-bwd: legality filtering, and the decomposition of
`torch.aten.convolution_backward` into ordinary torch ops.

In the pseudo-code of PyTorch, with A the strided ("small") side (grad_output
of a regular convolution, input of a transposed one), B the other side, both
[N, G*C, spatial...], W the weight [G*Ca, Cb, k...]:

    # grad_input
    if not transposed:   # a transposed convolution of grad_output
        gi = conv_transpose(dy, w, stride=S, padding=P, dilation=D, groups=G,
                            output_padding=input_size - minimal_output_size)
    else:                # a regular convolution of grad_output
        gi = conv(dy, w, stride=S, padding=P, dilation=D, groups=G)[..., :input_size]

    # grad_weight: a convolution whose batch is B's channels and whose
    # channels are (group, batch):
    #   B' = B.unflatten(1, [G, Cb]).permute(2, 1, 0, 3...).flatten(1, 2)   [Cb, G*N, b...]
    #   A' = A.unflatten(1, [G, Ca]).permute(1, 2, 0, 3...).flatten(0, 1)   [G*Ca, N, s...]
    gw = conv(B', A', stride=D, padding=P, dilation=S, groups=G)[..., :K].transpose(0, 1)

    # grad_bias
    gb = dy.sum(dim=[0, 2, 3, ...])

Slices appear only where the convolution computes more positions than the
gradient has (output_padding >= stride, an uneven division, a dynamic size).
Only the results output_mask asks for are built.

The decomposition is a rewrite pattern (DecomposeConvBwdPattern); with
`lower=true` the pass applies the torch-to-linalg patterns to the ops each
decomposition created.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...diagnostics import DiagnosticEngine
from ...dialects import definition
from ...dialects.func import FUNC
from ...ir.builder import Builder
from ...ir.core import Operation, Value
from ...ir.types import ValueTensorType, vtensor
from ...pass_options import DecomposeOptions
from ...passes import PassContext
from ...rewrite import RewritePattern, Rewriter, apply_patterns
from .conv_bwd import replace_results
from .conv_spec import CONV_BWD, conv_output_size, read_conv_backward, wanted_results
from .empty import decompose_empty
from .legality import CONV_BWD_KIND, describe, legal_op_problem, target_rejects
from .options import ERASE_DEAD, KernelPass
from .torch_emit import TorchEmitter
from .torch_to_linalg import torch_to_linalg_patterns


def decompose(op: Operation, rewriter: Rewriter) -> None:
    """Replace op by its decomposition (the ops created, in order, reported
    to the rewriter)."""
    cb = read_conv_backward(op)
    spec = cb.spec
    t = TorchEmitter(Builder.before(op))
    dy, x, w = cb.grad_output, cb.input, cb.weight
    nd, G = spec.rank, spec.groups
    x_shape = vtensor(x.type).shape or ()
    dy_shape = vtensor(dy.type).shape or ()
    kernel = spec.kernel
    wanted = wanted_results(op, cb)
    if cb.empty:
        replace_by(op, t, decompose_empty(t, cb, wanted), rewriter)
        return
    values: list[Optional[Value]] = [None, None, None]
    if wanted[0]:
        if not spec.transposed:
            out_pad = []
            dynamic_dims = []
            for i in spec.spatial:
                ns, nb, k = dy_shape[2 + i], x_shape[2 + i], kernel[i]
                if ns is None or nb is None or k is None:
                    out_pad.append(spec.stride[i] - 1)  # the largest; sliced below
                    dynamic_dims.append(i)
                else:
                    out_pad.append(nb - conv_output_size(ns, k, spec.stride[i], spec.padding[i], spec.dilation[i], True))
            gi = t.convolution(dy, w, spec.stride, spec.padding, spec.dilation, True, out_pad, G)
            for i in dynamic_dims:
                gi = t.slice(gi, 2 + i, 0, t.size(x, 2 + i))
        else:
            gi = t.convolution(dy, w, spec.stride, spec.padding, spec.dilation, False, [0] * nd, G)
            for i in spec.spatial:
                gi = t.slice(gi, 2 + i, 0, t.size(x, 2 + i))
        values[0] = gi
    if wanted[1]:
        A, B = (x, dy) if spec.transposed else (dy, x)
        ca, cb_ = (c if c is not None else -1 for c in spec.group_channels())  # -1: unflatten infers it
        if G == 1:
            b2 = t.permute(B, [1, 0, *range(2, 2 + nd)])  # [Cb, N, b...]
            a2 = t.permute(A, [1, 0, *range(2, 2 + nd)])  # [Ca, N, s...]
        else:
            spatial = list(range(3, 3 + nd))
            b2 = t.flatten(t.permute(t.unflatten(B, 1, [G, cb_]), [2, 1, 0, *spatial]), 1, 2)  # [Cb, G*N, b...]
            a2 = t.flatten(t.permute(t.unflatten(A, 1, [G, ca]), [1, 2, 0, *spatial]), 0, 1)  # [G*Ca, N, s...]
        r = t.convolution(b2, a2, spec.dilation, spec.padding, spec.stride, False, [0] * nd, G)  # [Cb, G*Ca, k'...]
        for i in spec.spatial:
            r = t.slice(r, 2 + i, 0, t.size(w, 2 + i))
        values[1] = t.permute(r, [1, 0, *range(2, 2 + nd)])
    if wanted[2]:
        values[2] = t.sum(dy, [0, *range(2, 2 + nd)])
    replace_by(op, t, values, rewriter)


def replace_by(op: Operation, t: TorchEmitter, values: list[Optional[Value]], rewriter: Rewriter) -> None:
    """Replace op's results by the values t created (cast to the declared types)."""
    for i, v in enumerate(values):
        declared = op.results[i].type
        if v is not None and isinstance(declared, ValueTensorType) and v.type != declared:
            values[i] = t.static_info_cast(v, declared)
    rewriter.notify_created(t.created)
    replace_results(op, values, rewriter)


@dataclass(frozen=True)
class DecomposeConvBwdPattern(RewritePattern):
    """Decompose a convolution_backward the backend does not take (with a
    remark saying why, or why it stays)."""

    root = definition(CONV_BWD)
    legal_kinds: frozenset[str]
    target: str
    diagnostics: DiagnosticEngine
    lower: bool = True  # a legal op is lowered directly next (else it stays for the backend)

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        spec = read_conv_backward(op).spec
        why: Optional[str] = None
        if CONV_BWD_KIND not in self.legal_kinds:
            why = f"{CONV_BWD_KIND} is not a backend-legal op"
        else:
            why = target_rejects(self.target, spec)
        if why is None:
            what = "lowered directly" if self.lower else "kept for the backend (not decomposed)"
            self.diagnostics.remark(f"{what}: {describe(spec)} is legal for target {self.target}", op)
            return False
        self.diagnostics.remark(f"decomposed: {why}", op)
        decompose(op, rewriter)
        return True


@dataclass(frozen=True)
class DecomposeConvBwd(DecomposeOptions, KernelPass):
    NAME = "convopt-decompose-conv-bwd"
    SUMMARY = "Decompose the torch.aten.convolution_backward ops a backend does not take into aten.convolution and aten.sum.dim_IntList"
    ANCHOR = FUNC

    def __post_init__(self) -> None:
        super().__post_init__()
        for kind in self.legal_ops or ():
            problem = legal_op_problem(kind)
            if problem is not None:
                raise ValueError(f"legal-ops: {problem}")

    def legal_kinds(self) -> set[str]:
        """Explicit legal-ops win; a target alone makes convolution_backward
        a legal kind; with neither, nothing is legal (decompose all)."""
        if self.legal_ops is not None:
            kinds: tuple[str, ...] = self.legal_ops
        else:
            kinds = (CONV_BWD_KIND,) if self.target is not None else ()
        return {k.removeprefix("torch.") for k in kinds}

    def run(self, op: Operation, ctx: PassContext) -> None:
        """Decompose; with lower, apply the torch-to-linalg patterns to the
        ops each decomposition created, right after it (before the next
        convolution_backward is looked at, as a greedy driver visits the ops
        a rewrite creates)."""
        decomposition = [DecomposeConvBwdPattern(frozenset(self.legal_kinds()), self.target or "linalg", ctx.diagnostics, self.lower)]
        lowering = torch_to_linalg_patterns(self.choices, ctx.stats) if self.lower else []
        with self.warning_miscompiled_tiles(op, ctx):
            for conv in [o for o in op.walk() if o.name == CONV_BWD]:
                created = apply_patterns([conv], decomposition, erase_dead=ERASE_DEAD)
                if lowering:
                    apply_patterns(created, lowering, erase_dead=ERASE_DEAD)
