"""Convolution kernels: which form and which cut, and dispatch to the
emitters.

Every convolution and each of its gradients is one of three kernels over
the per-dim relation b = S*s + D*k - P (relation.py has the math):

    gather   out[s] = sum_k          B[S*s + D*k - P] * W[k]
    scatter  out[b] = sum_{s,k: b = S*s + D*k - P}   A[s] * W[k]
    weight   out[k] = sum_s          A[s] * B[S*s + D*k - P]

A regular convolution has A = output, B = input: its forward is a gather,
its grad_input a scatter, its grad_weight the weight kernel.  A transposed
convolution swaps the roles (A = its input, B = its output): its forward is a
scatter, its grad_input a gather, and grad_weight the weight kernel again.

Layers, bottom up: the kernel math in ../kernel/ (relation.py: relations,
pieces, tap ranges; roles.py: channel roles and reshapes; request.py: what
is asked; outputs.py and tiles.py: accumulators, the plan of pieces and the
loop over their combinations), the forms beside this module
(generic_form.py, matmul_forms.py, named.py and channels_last.py), and this
module on top: choose_form, choose_strategy and emit_kernel.  The patterns
and passes of ../patterns/ call emit_kernel.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...ir.core import Value
from ..kernel.device import DeviceProfile
from ..kernel.emit import Emitter, Ix
from ..kernel.relation import PIECES, Kind, Rel, Strategy
from ..kernel.request import Form, KernelRequest, KernelStats, Peel
from ..kernel.roles import from_roles
from ..kernel.tiles import emit_tiles, plan_kernel
from .channels_last import channels_last_fits, emit_channels_last_kernel, is_depthwise
from .generic_form import generic_tile
from .matmul_forms import emit_col2im_kernel, matmul_tile
from .named import emit_named_gather, named_conv_name

IM2COL_MIN_EFFICIENCY = 0.85
"""col2im multiplies every (s, k) pair, also those landing in the padding;
below this fraction of useful multiply-adds the scatter stays generic."""


def choose_form(kind: Kind, roles: dict[str, Ix], rels: Sequence[Rel], requested: Form, device: DeviceProfile) -> Form:
    """The form of one kernel.  auto picks the matmul form (im2col per
    piece, col2im for the scatter) when there is a matrix to multiply (not
    depthwise: Ca * Cb >= 4), the shapes are static and the op has at least
    im2col_min_macs multiply-adds; a scatter also needs at most 15% padded
    positions at most (col2im multiplies them too) and Ca * Cb >=
    col2im_min_channels, and a 1x1 scatter at least pointwise_col2im_min_macs.
    The thresholds are the device profile's (device.py).  Otherwise linalg.generic;
    also for a forced im2col when Ca = Cb = 1 (a 1x1 matmul per group) and
    for a scatter with a dynamic kernel size (col2im needs its taps)."""
    ca, cb = roles["ca"], roles["cb"]
    if kind == Kind.SCATTER and not all(isinstance(r.K, int) for r in rels):
        return Form.GENERIC  # col2im enumerates the taps
    if requested == Form.IM2COL and ca == 1 and cb == 1:
        return Form.GENERIC  # no matrix at all (depthwise): a 1x1 matmul per group
    if requested != Form.AUTO:
        return requested
    if not isinstance(ca, int) or not isinstance(cb, int) or ca * cb < 4 or not all(r.static for r in rels):
        return Form.GENERIC
    useful = executed = 1
    for r in rels:
        useful *= r.useful()
        executed *= r.Ns * r.k  # type: ignore[operator]
    if kind == Kind.SCATTER and (useful < IM2COL_MIN_EFFICIENCY * executed or ca * cb < device.col2im_min_channels):
        return Form.GENERIC
    macs = useful * ca * cb
    for role in ("n", "g"):
        size = roles[role]
        macs *= size if isinstance(size, int) else device.im2col_min_macs  # a dynamic batch counts as large
    if kind == Kind.SCATTER and all(r.K == 1 for r in rels) and macs < device.pointwise_col2im_min_macs:
        return Form.GENERIC  # one contraction either way; col2im adds its transposes
    return Form.IM2COL if macs >= device.im2col_min_macs else Form.GENERIC


def choose_strategy(kind: Kind, em: Emitter, r: Rel, policy: Peel, peel_waste: float, compact: bool = False) -> Strategy:
    """How to cut one dim: scatter by taps (by output phases over the
    flipped weight when the kernel size is dynamic or the kernel is
    `compact`); a static dim is "peeled" when its "padded" form would waste
    more than peel_waste (the device profile's) of its multiply-adds, unless
    compact under auto; a dynamic dim goes by taps (exact at any size)
    unless the policy is `never`."""
    if kind == Kind.SCATTER:
        return Strategy.TAPS if isinstance(r.K, int) and not compact else Strategy.PHASES
    if not isinstance(r.K, int):
        return Strategy.PADDED
    if not r.static:
        return Strategy.PADDED if policy == Peel.NEVER else Strategy.TAPS
    if policy == Peel.NEVER or compact and policy == Peel.AUTO:
        return Strategy.PADDED
    if policy == Peel.ALWAYS:
        return Strategy.PEELED
    executed = sum(p.macs() or 0 for p in PIECES[kind](em, r, Strategy.PADDED))
    return Strategy.PEELED if executed > 0 and r.useful() < (1 - peel_waste) * executed else Strategy.PADDED


COMPACT_MIN_KERNEL = 5
"""Only kernels at least this wide in every dim (5x5, 7x7) are compact: a
3-wide dim splits into a few ops (3 taps, 2 borders), exactly (MAC
efficiency); 7x7 splits into 49 tap ops and up to 98 peeled pieces."""


def channels_last_wanted(device: DeviceProfile, roles: dict[str, Ix]) -> bool:
    """Whether auto takes the channels-last form where it fits: depthwise
    kernels by the profile's channels_last, dense ones by channels_last_dense."""
    return device.channels_last if is_depthwise(roles) else device.channels_last_dense


def is_small(req: KernelRequest, device: DeviceProfile) -> bool:
    """A static depthwise kernel (G > 1 groups) at least COMPACT_MIN_KERNEL wide in every dim, with fewer useful
    multiply-adds than the profile's compact_max_macs (N * G * Ca * Cb *
    prod useful per dim): emitted as one op (padded dims, a scatter by
    phases over the flipped weight) rather than peeled pieces or one op per
    tap.  Smaller kernels (3x3: at most 9 ops) keep the exact split."""
    g = req.roles["g"]
    if not is_depthwise(req.roles) or not (isinstance(g, int) and g > 1) or not all(isinstance(r.K, int) and r.K >= COMPACT_MIN_KERNEL for r in req.rels):
        return False
    macs = 1
    for role in ("n", "g", "ca", "cb"):
        size = req.roles[role]
        if not isinstance(size, int):
            return False
        macs *= size
    for r in req.rels:
        if not r.static:
            return False
        macs *= r.useful()
    return macs < device.compact_max_macs


def emit_kernel(em: Emitter, req: KernelRequest) -> tuple[Value, KernelStats]:
    """Build req.kind over req.ins; returns the sum in req.out_layout
    (element type req.acc_type) and what was emitted.  A kernel that
    channels_last_fits (static; depthwise, or a dense gather or scatter;
    little padding) takes the channels-last named convolutions of
    channels_last.py under auto and named.  Otherwise
    the form (see choose_form): "im2col" emits the matmul forms of
    matmul_forms.py, "named" a linalg named convolution where one computes a
    gather, else linalg.generic ops (generic_form.py), one per piece
    combination."""
    roles = req.roles
    choices = req.choices
    if (choices.form == Form.NAMED or choices.form == Form.AUTO and channels_last_wanted(choices.device, roles)) and channels_last_fits(em, req.kind, roles, req.rels):
        stats = KernelStats(form="channels-last")
        return from_roles(em, emit_channels_last_kernel(em, req, stats), req.out_layout, roles), stats
    form = choose_form(req.kind, req.roles, req.rels, choices.form, choices.device)
    stats = KernelStats(form=form.value)
    if form == Form.NAMED:
        name = named_conv_name(len(req.rels), roles["g"], roles["ca"], roles["cb"]) if req.kind == Kind.GATHER else None  # type: ignore[arg-type]
        if name is not None:
            stats.ops += 1
            stats.form = name
            return emit_named_gather(em, req.ins[0], req.ins[1], req.rels, roles["g"], roles["ca"], roles["cb"], req.acc_type, name), stats  # type: ignore[arg-type]
        form = Form.GENERIC
        stats.form = form.value
    compact = form == Form.GENERIC and choices.form == Form.AUTO and is_small(req, choices.device)
    strategies = [choose_strategy(req.kind, em, r, choices.peel, choices.device.peel_waste, compact) for r in req.rels]
    plan = plan_kernel(em, req, strategies)
    if form == Form.IM2COL and req.kind == Kind.SCATTER:  # one matmul, then col2im
        result = emit_col2im_kernel(em, req, plan, stats)
    else:
        result = emit_tiles(em, req, plan, matmul_tile if form == Form.IM2COL else generic_tile, stats)
    return from_roles(em, result, req.out_layout, roles), stats
