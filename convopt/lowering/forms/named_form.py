"""The form "named" of the registry (registry.py): linalg named
convolutions.  Its one variant is the channels-last named convolutions of
channels_last.py where they can be emitted (channels_last_emits), else a
gather's channels-first named convolution (named.py), decided into the
emission (Emission.channels_last).  Auto considers the form where the
device profile builds it (`channels_last`, `channels_last_dense`) and
channels_last.competes, at its cost (named_work).
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from ...ir.core import Value
from ..kernel.cost import Work, element_bytes, size
from ..kernel.emit import Emitter
from ..kernel.relation import Kind, Rel, reaching
from ..kernel.request import KernelRequest, KernelStats
from ..kernel.roles import from_roles
from .channels_last import (
    by_phases,
    channels_last_emits,
    channels_last_fits,
    emit_channels_last_kernel,
    is_depthwise,
    phase_dispatches,
    splits_depth,
    whole_lanes,
    window_pairs,
)
from .named import emit_named_gather, named_conv_name
from .registry import FormDef, Variant, register


def channels_last(req: KernelRequest) -> bool:
    """Whether channels_last.py can emit req."""
    return channels_last_emits(req.kind, req.roles, req.rels)


def channels_first_name(req: KernelRequest) -> Optional[str]:
    """The channels-first named convolution of a gather, None if none
    computes it (or req is no gather)."""
    if req.kind != Kind.GATHER:
        return None
    roles = req.roles
    return named_conv_name(len(req.rels), roles["g"], roles["ca"], roles["cb"])  # type: ignore[arg-type]


def named_fits(req: KernelRequest) -> bool:
    """A forced `named`: channels-last wherever it can be emitted, else a
    channels-first gather."""
    return channels_last(req) or channels_first_name(req) is not None


def named_candidate(req: KernelRequest) -> bool:
    """auto considers channels-last where the device profile builds it
    (depthwise kernels by its channels_last, dense ones by
    channels_last_dense and where their output channels fill IREE's
    vectors, channels_last.DENSE_LANES) and it competes (channels_last_fits:
    channels_last.competes)."""
    builds = req.choices.device.builds
    fits = channels_last_fits(req.kind, req.roles, req.rels)
    if is_depthwise(req.roles):
        return builds.channels_last and fits
    return builds.channels_last_dense and whole_lanes(req.kind, req.roles) and fits


def named_work(req: KernelRequest) -> Work:
    """The work of req as channels-last named convolutions (static shapes),
    with E its element bytes: the windows over the zero-padded operand,

        multiply-adds (named, with a stride over 1 named_strided; depthwise:
        named_depthwise, the weight kernel named_weight)
                       = N*G*Ca*Cb * prod_dims K * (Ns, Nb for a scatter)
        copy = E * (N*G*Ca*Ns... + N*G*Cb*Nb...)    (A and B transposed to or from channels-last)
        dispatches = 3 + convolutions (transposes in and out, the weight's;
                     a strided depthwise scatter: channels_last.phase_dispatches)

    with one convolution (a strided depthwise scatter: one per combination
    of output phases, executing channels_last.phase_pairs), or, dense 3-D
    (channels_last._depth_split), N per tap of the first dim reaching the
    input (a tap reaching only some positions adds its part: one more), and
    N inserts, executing exactly that dim's in-bounds (position, tap)
    pairs.  A channels-first named gather
    (forced `named` only) counts the same."""
    n, g, ca, cb = (size(req.roles[x]) for x in ("n", "g", "ca", "cb"))
    split = splits_depth(len(req.rels), is_depthwise(req.roles)) and req.emission.channels_last
    pairs = window_pairs(req.kind, req.rels, split)
    small = big = 1
    for r in req.rels:
        small, big = small * size(r.Ns), big * size(r.Nb)
    dispatches = phase_dispatches(req.rels) if by_phases(req.kind, req.rels) else 3 + (_split_dispatches(req.rels[0], n) if split else 1)
    dense = "named_strided" if any(r.S > 1 for r in req.rels) else "named"
    rate = dense if not is_depthwise(req.roles) else "named_weight" if req.kind == Kind.WEIGHT else "named_depthwise"
    copies = element_bytes(req.ins[0]) * n * g * (ca * small + cb * big)
    return Work(**{rate: float(n * g * ca * cb * pairs), "copy_byte": float(copies), "dispatch": float(dispatches)})


def _split_dispatches(first: Rel, n: int) -> int:
    """The ops of channels_last._depth_split that IREE makes a dispatch
    each: per batch element, a convolution per tap of the first dim that
    reaches the input, an add for each reaching only part of it, and the
    insert of the element's result (none when N = 1)."""
    taps = reaching(first)
    return n * (len(taps) + sum(1 for _, s in taps if len(s) < size(first.Ns)) + (1 if n > 1 else 0))


def named_variants(req: KernelRequest) -> list[Variant]:
    """One variant: channels-last convolutions where channels_last takes
    req, else the channels-first named gather (named_fits), decided here
    into the emission emit_named follows."""
    decided = dataclasses.replace(req, emission=dataclasses.replace(req.emission, channels_last=channels_last(req)))
    return [Variant("named", decided, named_work(decided))]


def emit_named(em: Emitter, req: KernelRequest, stats: KernelStats) -> Value:
    """req as the named convolutions its emission names (named_variants);
    stats.form says which ("channels-last", or the channels-first op's name)."""
    roles = req.roles
    if req.emission.channels_last:
        stats.form = "channels-last"
        return from_roles(em, emit_channels_last_kernel(em, req, stats), req.out_layout, roles)
    name = channels_first_name(req)
    assert name is not None, "emit_named of a request that does not fit"
    stats.ops += 1
    stats.form = name
    return emit_named_gather(em, req.ins[0], req.ins[1], req.rels, roles["g"], roles["ca"], roles["cb"], req.acc_type, name)  # type: ignore[arg-type]


NAMED = register(FormDef(name="named", kinds=frozenset(Kind), fits=named_fits, candidate=named_candidate, variants=named_variants, emit=emit_named, priority=10))
