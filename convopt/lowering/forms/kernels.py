"""Convolution kernels: which form, and dispatch to its emitter.

Every convolution and each of its gradients is one of three kernels over
the per-dim relation b = S*s + D*k - P (../kernel/relation.py has the math):

    gather   out[s] = sum_k          B[S*s + D*k - P] * W[k]
    scatter  out[b] = sum_{s,k: b = S*s + D*k - P}   A[s] * W[k]
    weight   out[k] = sum_s          A[s] * B[S*s + D*k - P]

A regular convolution has A = output, B = input: its forward is a gather,
its grad_input a scatter, its grad_weight the weight kernel.  A transposed
convolution swaps the roles (A = its input, B = its output): its forward is a
scatter, its grad_input a gather, and grad_weight the weight kernel again.

Layers, bottom up: the kernel math in ../kernel/ (relation.py: relations,
pieces, tap ranges; roles.py: channel roles and reshapes; request.py: what
is asked; outputs.py and tiles.py: accumulators, the plan of pieces, the
strategy that cuts each dim and the loop over piece combinations), the
forms beside this module, each registering itself in registry.py
(generic_form.py; named_form.py over named.py and channels_last.py;
matmul_forms.py), and this module on top: emit_kernel.  The patterns and
passes of ../patterns/ call emit_kernel.
"""

from __future__ import annotations

from ...diagnostics import ConvoptError, Diagnostic
from ...ir.core import Value
from ..kernel.emit import Emitter
from ..kernel.request import KernelRequest, KernelStats
from . import registry


def emit_kernel(em: Emitter, req: KernelRequest) -> tuple[Value, KernelStats]:
    """Build req.kind over req.ins; returns the sum in req.out_layout
    (element type req.acc_type) and what was emitted.  The form is the
    registry's choice (registry.choose): under auto the variant of least
    estimated cost (../kernel/cost.py) among channels-last named
    convolutions (named_form.py), the matmul forms (matmul_forms.py) and
    linalg.generic ops, one per piece combination (generic_form.py);
    where none can (registry.NoForm), a located "no form can lower" error
    at the op being lowered."""
    try:
        pick = registry.choose(req)
    except registry.NoForm as e:
        raise ConvoptError(Diagnostic("error", f"unsupported: no form can lower this {req.kind.value} kernel: {e}", em.b.pos)) from None
    stats = KernelStats(form=pick.form.name)
    return pick.form.emit(em, pick.variant.req, stats), stats
