"""The channels-last forms: kernels as linalg's channels-last named
convolutions, with transposes to and from PyTorch's channels-first layout
at the boundary.  Depthwise (one channel per group, Ca = Cb = 1:
`linalg.depthwise_conv_{1d_nwc_wc,2d_nhwc_hwc}`) and dense (G = 1:
`linalg.conv_2d_nhwc_hwcf`), in channels-last layout (c the reduced channel, f the produced one; for a
depthwise op c = f = g and W has no c):

    gather   out[n, s..., f]  = sum_{k, c} B[n, S*s + D*k - P ..., c] * W[k..., c, f]
    scatter  out[n, b..., f]  = sum_{m, c} A[n, b + D*m - (D*(K-1) - P) ..., c] * Wf[m..., c, f]
             (stride 1: the gather over the flipped weight Wf[m] = W[K-1-m];
             a strided depthwise scatter: one such gather per output phase,
             interleaved, _scatter_phases)

and, depthwise only, the weight kernel with the batch folded into the
channels (a depthwise convolution whose "kernel" is A, strides D and
dilations S):

    weight   P[0, k..., (n, g)] = sum_s  B[0, D*k + S*s - P ..., (n, g)] * A[s..., (n, g)]
             out[g, k...]        = sum_n P[0, k..., (n, g)]

IREE vectorizes these along the contiguous channel dim.  Every window is cut or
zero-padded to exactly the positions it reads, so the multiply-adds
executed are those of the padded generic form.  The flipped weight is a
copy of G*Ca*Cb*K... values, 1/(N*Ns...) of the multiply-adds (SPEC allows
a copy below 1%; competes checks it).  Where the form is taken:
docs/decisions.md, channels_last_kernels.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple, Optional

from ...dialects import arith, linalg
from ...ir.affine import AffineMap, d
from ...ir.attributes import Attribute
from ...ir.core import Value
from ...ir.types import FloatType, ranked
from ..kernel.cost import padded_pairs
from ..kernel.emit import Emitter, Ix, static
from ..kernel.phases import interleave
from ..kernel.relation import Kind, Rel, reaching
from ..kernel.request import KernelRequest, KernelStats
from ..kernel.roles import to_roles
from .matmul_forms import batched_matmul
from .named import ints_attr

MAX_FLIP_FRACTION = 0.01
"""The flipped weight of a scatter may hold at most this fraction of its
multiply-adds (SPEC section 5)."""

DENSE_LANES = 8
"""auto considers a dense channels-last convolution only when its output
channels F (a scatter's Cb, a gather's Ca) are at most this or a multiple
of it: IREE vectorizes F by 8 f32 lanes on x86 (docs/decisions.md,
DENSE_LANES).  A forced `--conv-form=named` still takes it."""


def whole_lanes(kind: Kind, roles: dict[str, Ix]) -> bool:
    """Whether a dense kernel's output channels are whole DENSE_LANES."""
    out = roles["cb"] if kind == Kind.SCATTER else roles["ca"]
    return isinstance(out, int) and (out <= DENSE_LANES or out % DENSE_LANES == 0)

_DEPTHWISE = {1: linalg.conv_name(1, "_nwc_wc", depthwise=True), 2: linalg.conv_name(2, "_nhwc_hwc", depthwise=True)}
_DENSE = {2: linalg.conv_name(2, "_nhwc_hwcf"), 3: linalg.conv_name(2, "_nhwc_hwcf")}
"""The named ops by number of spatial dims.  A dense 3-D kernel is K0 2-D
convolutions, one per tap of its first spatial dim (_depth_split): IREE's
CPU codegen vectorizes the 2-D named convolution, not the 3-D one."""


def is_depthwise(roles: dict[str, Ix]) -> bool:
    return roles["ca"] == 1 and roles["cb"] == 1


def channels_last_fits(kind: Kind, roles: dict[str, Ix], rels: Sequence[Rel]) -> bool:
    """Whether auto prices the channels-last form for the kernel: where it
    can emit it (channels_last_emits) and competes (competes)."""
    return channels_last_emits(kind, roles, rels) and competes(kind, roles, rels)


def channels_last_emits(kind: Kind, roles: dict[str, Ix], rels: Sequence[Rel]) -> bool:
    """What emit_channels_last_kernel can emit: static shapes; depthwise
    (Ca = Cb = 1, G > 1) in 1-D and 2-D, a strided scatter by output phases
    (D = 1 and P >= 0 on its strided dims: phase_windows); dense (G = 1,
    Ca and Cb over 1: W as [ca, cb, k...]) in 2-D and 3-D, no weight kernel (the batch folds into the channels
    of a depthwise one only) and a scatter of stride 1 (the flipped
    weight)."""
    g, n, ca, cb = roles["g"], roles["n"], roles["ca"], roles["cb"]
    if not all(isinstance(x, int) for x in (g, n, ca, cb)) or not all(r.static for r in rels):
        return False
    if is_depthwise(roles) and g > 1:  # type: ignore[operator]
        return len(rels) in _DEPTHWISE and (kind != Kind.SCATTER or all(r.S == 1 or (r.D == 1 and r.P >= 0) for r in rels))
    return g == 1 and ca > 1 and cb > 1 and len(rels) in _DENSE and kind != Kind.WEIGHT and (kind != Kind.SCATTER or all(r.S == 1 for r in rels))  # type: ignore[operator]


def competes(kind: Kind, roles: dict[str, Ix], rels: Sequence[Rel]) -> bool:
    """Where auto prices a channels-last kernel that channels_last_emits
    (its cost decides); the rest were measured slower by more than the
    cost model tells apart (docs/decisions.md, channels_last_kernels):
    every depthwise kernel; a dense scatter, but not a 2-D convolution
    with one unit kernel dim beside a wider one (1x7, 3x1: 1.5-3.2x im2col's
    time); a dense gather only in 3-D with taps in every dim and stride 1
    (2-D ones: whole steps 1.2-3.3x slower; strided: 3-32x); and a
    scatter's flipped weight at most MAX_FLIP_FRACTION of its useful
    multiply-adds (SPEC section 5)."""
    if not (is_depthwise(roles) and roles["g"] > 1):  # type: ignore[operator]
        if sum(r.K == 1 for r in rels[-2:]) == 1:
            return False
        if kind == Kind.GATHER and not (len(rels) == 3 and all(r.K != 1 and r.S == 1 for r in rels)):
            return False
    if kind != Kind.SCATTER:
        return True
    useful = flip = 1
    for r in rels:
        useful *= r.useful()
        flip *= r.k
    return flip <= MAX_FLIP_FRACTION * useful * roles["n"]  # type: ignore[operator]


def splits_depth(nd: int, depthwise: bool) -> bool:
    """Whether the kernel's named convolutions are _depth_split's (dense 3-D)."""
    return nd == 3 and not depthwise


def by_phases(kind: Kind, rels: Sequence[Rel]) -> bool:
    """Whether the channels-last kernel is a strided scatter, emitted by
    output phases (_scatter_phases)."""
    return kind == Kind.SCATTER and any(r.S > 1 for r in rels)


def window_pairs(kind: Kind, rels: Sequence[Rel], split: bool) -> int:
    """The (position, tap) pairs the channels-last convolutions execute:
    per dim those of the window over the zero-padded operand (padded_pairs),
    but exactly the in-bounds ones of the first dim where split
    (_depth_split); a strided scatter those of its phases (phase_pairs)."""
    if by_phases(kind, rels):
        return phase_pairs(rels)
    pairs = 1
    for i, r in enumerate(rels):
        pairs *= r.useful() if split and i == 0 else padded_pairs(kind, r)
    return pairs


def transpose(em: Emitter, v: Value, perm: Sequence[int]) -> Value:
    """out[i...] = v[i at perm...]: dim j of the result is dim perm[j] of v."""
    if list(perm) == list(range(len(perm))):
        return v
    return em.transpose(v, perm)


def window(em: Emitter, v: Value, first: int, rels: Sequence[Rel]) -> Value:
    """v cut or zero-padded along its spatial dims first, first+1, ... to
    exactly the positions b = S*s + D*k - P read (b from -P to
    S*(Ns-1) + D*(K-1) - P): keep [max(0, -P), min(Nb, E - P)) with
    E = S*(Ns-1) + D*(K-1) + 1, pad max(0, P) low and max(0, E - P - Nb) high."""
    shape = em.shape(v)
    rank = len(shape)
    offsets, sizes, low, high = [0] * rank, list(shape), [0] * rank, [0] * rank
    for i, r in enumerate(rels):
        j, extent = first + i, r.S * (r.Ns - 1) + r.D * (r.k - 1) + 1  # type: ignore[operator]
        start, stop = max(0, -r.P), min(shape[j], extent - r.P)  # type: ignore[type-var]
        offsets[j], sizes[j] = start, stop - start  # type: ignore[operator]
        low[j], high[j] = max(0, r.P), max(0, extent - r.P - shape[j])  # type: ignore[operator]
    return em.pad(em.extract_slice(v, offsets, sizes, [1] * rank), low, high)


def named_conv(em: Emitter, b: Value, w: Value, rels: Sequence[Rel], acc_type: FloatType, stats: KernelStats) -> Value:
    """out[n, s..., f] = sum_{k, c} B[n, S*s + D*k - P ..., c] * W[k..., c, f]
    as a channels-last named convolution; B [n, b..., c] in its own
    coordinates, W [k..., c, f] (dense) or [k..., c] (depthwise, f = c).
    Returns [n, Ns..., f] in acc_type."""
    nd = len(rels)
    depthwise = ranked(w.type).rank == nd + 1
    name = (_DEPTHWISE if depthwise else _DENSE)[nd]
    if splits_depth(nd, depthwise):
        return _depth_split(em, b, w, rels, acc_type, stats)
    b = window(em, b, 1, rels)
    shape, w_shape = em.shape(b), em.shape(w)
    out_shape = [shape[0]] + [r.Ns for r in rels] + [w_shape[-1]]
    attrs: dict[str, Attribute] = {"dilations": ints_attr([r.D for r in rels]), "strides": ints_attr([r.S for r in rels])}
    result = em.structured(name, [b, w], [em.zeros(out_shape, acc_type)], attrs)[0]
    macs = 1
    for x in out_shape + [r.K for r in rels] + ([] if depthwise else [shape[-1]]):
        macs *= x  # type: ignore[operator]
    stats.add(macs)
    stats.form = name
    return result


def _depth_split(em: Emitter, b: Value, w: Value, rels: Sequence[Rel], acc_type: FloatType, stats: KernelStats) -> Value:
    """The dense 3-D named convolution as 2-D convolutions, one per batch
    element n and tap k0 of the first spatial dim, each over the depth
    positions s0 whose input b0 = S0*s0 + D0*k0 - P0 is in bounds (valid_s:
    exact in depth, no zero slabs):

        out[n, s0, s1, s2, f] = sum_{k0} conv_2d(B[n, S0*s0 + D0*k0 - P0, ...], W[k0])[s0, s1, s2, f]
                                over s0 in valid_s(rel0, k0)

    A tap reaching every s0 accumulates into the whole result of n (the
    convolution's init); one reaching fewer computes its part alone and
    adds it to its slice (IREE's CPU codegen cannot build a convolution
    whose init is a slice of a tensor it writes back: "write affecting
    operations on global resources are restricted to workgroup distributed
    contexts").  B [n, b..., c] in its own coordinates (the inner dims are
    windowed here), W [k..., c, f].  Returns [n, Ns..., f] in acc_type."""
    first, rest = rels[0], rels[1:]
    b = window(em, b, 2, rest)
    shape, w_shape = em.shape(b), em.shape(w)
    inner = [r.Ns for r in rest] + [w_shape[-1]]
    attrs: dict[str, Attribute] = {"dilations": ints_attr([r.D for r in rest]), "strides": ints_attr([r.S for r in rest])}
    fold, ones = [[0, 1], [2], [3], [4]], [1] * 4
    taps = sorted(reaching(first), key=lambda t: len(t[1]) != first.Ns)  # whole ones first
    out = em.empty([shape[0], first.Ns, *inner], acc_type)
    for n in range(shape[0]):  # type: ignore[arg-type]
        acc = em.zeros([first.Ns, *inner], acc_type)
        for k0, s0 in taps:
            slab = em.extract_slice(b, [n, first.S * s0.start + first.D * k0 - first.P, 0, 0, 0], [1, len(s0), *shape[2:]], [1, first.S, 1, 1, 1])
            kernel = em.extract_slice(w, [k0, 0, 0, 0, 0], [1, *w_shape[1:]], [1] * 5)
            ins = [em.collapse(slab, fold), em.collapse(kernel, fold)]
            at, sizes = [s0.start, 0, 0, 0], [len(s0), *inner]
            if len(s0) == first.Ns:
                acc = em.structured(_DENSE[2], ins, [acc], attrs)[0]
            else:
                part = em.structured(_DENSE[2], ins, [em.zeros(sizes, acc_type)], attrs)[0]
                target = em.extract_slice(acc, at, sizes, ones)
                added = em.generic([part], [target], [AffineMap.identity(4)] * 2, ["parallel"] * 4, lambda bb, x: [arith.same_type(bb, arith.ADDF, x[1], x[0])])[0]
                acc = em.insert_slice(added, acc, at, sizes, ones)
            stats.add(len(s0) * shape[-1] * math.prod(inner) * math.prod(r.k for r in rest))  # type: ignore[operator,arg-type]
        sizes = [1, first.Ns, *inner]
        out = em.insert_slice(em.expand(acc, fold, sizes), out, [n, 0, 0, 0, 0], sizes, [1] * 5)
    stats.form = _DENSE[2]
    return out


def emit_channels_last_kernel(em: Emitter, req: KernelRequest, stats: KernelStats) -> Value:
    """req (channels_last_fits) in the channels-last form; returns the sum
    in role layout ([n, channel, spatial...], n absent when N = 1; [g, k...]
    for the depthwise weight kernel)."""
    ins = [to_roles(em, v, layout, req.roles) for v, layout in zip(req.ins, req.layouts)]
    if req.kind == Kind.WEIGHT:
        return _weight(em, ins[0], ins[1], req, stats)
    nd, has_n = len(req.rels), req.roles["n"] != 1
    if req.emission.scatter_matmul:  # a dense scatter (tiles.scatter_matmul)
        return _scatter_im2col(em, ins[0], ins[1], req, stats)
    x = ins[0] if has_n else em.expand(ins[0], [[0, 1]] + [[i + 1] for i in range(1, nd + 1)], [1] + em.shape(ins[0]))
    x = transpose(em, x, [0] + list(range(2, nd + 2)) + [1])  # [n, spatial..., c]
    w, lead = ins[1], 1 if is_depthwise(req.roles) else 2
    if req.kind == Kind.SCATTER:
        w = em.reverse(w, list(range(lead, lead + nd)))
    # W is [g, k...] or [ca, cb, k...]: to [k..., g] or [k..., c, f] (gather: c = cb, f = ca; scatter: c = ca, f = cb)
    w = transpose(em, w, list(range(lead, lead + nd)) + ([0] if lead == 1 else [1, 0] if req.kind == Kind.GATHER else [0, 1]))
    if req.kind == Kind.GATHER:
        out = named_conv(em, x, w, req.rels, req.acc_type, stats)
    elif by_phases(req.kind, req.rels):
        out = _scatter_phases(em, x, w, req, stats)
    else:
        out = _scatter(em, x, w, req, stats)
    out = transpose(em, out, [0, nd + 1] + list(range(1, nd + 1)))  # [n, f, spatial...]
    return out if has_n else em.collapse(out, [[0, 1]] + [[i + 1] for i in range(1, nd + 1)])


def _scatter(em: Emitter, a: Value, wf: Value, req: KernelRequest, stats: KernelStats) -> Value:
    """out[n, b..., f] = sum_{s,k,c: b = s + D*k - P} A[n, s..., c] * W[k..., c, f]
    (stride 1) as the gather of A over the flipped weight Wf[m] = W[K-1-m]:

        out[n, b..., f] = sum_{m, c} A[n, b + D*m - (D*(K-1) - P) ..., c] * Wf[m..., c, f]

    a in [n, s..., c], wf [k..., c, f] ([k..., g] depthwise).  Returns
    [n, Nb..., f]."""
    rels = [Rel(S=1, D=r.D, P=r.D * (r.k - 1) - r.P, K=r.K, Ns=r.Nb, Nb=r.Ns) for r in req.rels]
    return named_conv(em, a, wf, rels, req.acc_type, stats)


class Phase(NamedTuple):
    """One output phase of one dim of a depthwise scatter (phase_windows):
    phase r (b = S*q + r; None for a dim of stride 1, the whole output),
    start: the position of A its first tap reads at q = 0, w_at: its first
    tap in the flipped weight, gather: the stride-1 gather over its window
    of A (P = 0: the window starts at start) and taps of the flipped weight
    (every S-th from w_at)."""

    phase: Optional[int]
    start: int
    w_at: int
    gather: Rel


def phase_windows(r: Rel) -> list[Phase]:
    """A dim of a depthwise scatter (static; D = 1 where S > 1) as stride-1
    gathers over the flipped weight Wf[m] = W[K-1-m], one per output phase.
    Stride 1 (one phase, _scatter's gather):

        out[b] = sum_{m < K} A[b + D*m - (D*(K-1) - P)] * Wf[m]

    Stride S > 1: phase r (b = S*q + r, 0 <= q < Q = ceil(Nb / S)) is
    reached by the taps k = k0 + S*j (k0 = (r + P) mod S, j < J = ceil((K - k0) / S))
    at s = q + c - j (c = (r + P - k0) div S); with m = J-1-j,

        P_r[q] = sum_{m < J} A[q + c - (J-1) + m] * Wf[K-1-k0 - S*(J-1) + S*m]

    a gather of stride 1 and J taps.  Phases no tap reaches (J <= 0) are
    left out: they read as zero.  The gathers of one dim share Q (one
    interleave reads them all; S*Q >= Nb, the excess positions cut)."""
    if r.S == 1:
        return [Phase(None, r.P - r.D * (r.k - 1), 0, Rel(S=1, D=r.D, P=0, K=r.K, Ns=r.Nb, Nb=static(r.Nb) + r.D * (r.k - 1)))]
    assert r.D == 1, "phase_windows: a strided dim of dilation 1"
    quot = -(-static(r.Nb) // r.S)
    out = []
    for ph in range(min(r.S, static(r.Nb))):
        k0 = (ph + r.P) % r.S
        c, taps = (ph + r.P - k0) // r.S, -(-(r.k - k0) // r.S)
        if taps > 0:
            out.append(Phase(ph, c - (taps - 1), r.k - 1 - k0 - r.S * (taps - 1), Rel(S=1, D=1, P=0, K=taps, Ns=quot, Nb=quot + taps - 1)))
    return out


def phase_pairs(rels: Sequence[Rel]) -> int:
    """The (position, tap) pairs _scatter_phases executes: per combination
    of phases prod_dims Q * J, a unit-tap dim of a 2-D combination over
    its whole padded extent (_phase_conv)."""
    per_dim = [phase_windows(r) for r in rels]
    extent = [static(r.Ns) + low + high for r, (low, high) in zip(rels, _phase_pads(rels, per_dim))]
    total = 0
    for combo in itertools.product(*per_dim):
        unit = _unit_dim(combo)
        total += math.prod(p.gather.k * (ext if i == unit else static(p.gather.Ns)) for i, (p, ext) in enumerate(zip(combo, extent)))
    return total


def phase_dispatches(rels: Sequence[Rel]) -> int:
    """The dispatches IREE makes of _scatter_phases (measured on 3x3 and
    5x5 kernels of stride 2): A's transpose, the weight's flip, one per
    combination of phases and per taps broadcast for a unit dim (_phase_conv);
    the interleave, the transpose back and a combination of single taps
    (an elementwise product) fuse into the last convolution."""
    per_dim = [phase_windows(r) for r in rels]
    combos = list(itertools.product(*per_dim))
    spread = sum(1 for combo in combos if _unit_dim(combo) == 1)
    single = any(all(p.gather.k == 1 for p in combo) for combo in combos)
    return 2 + len(combos) + spread - int(single and len(combos) > 1)


def _phase_pads(rels: Sequence[Rel], per_dim: Sequence[Sequence[Phase]]) -> list[tuple[int, int]]:
    """Per dim the zero padding of A that every phase's window lies in."""
    return [(max(0, *(-p.start for p in ps)), max(0, *(p.start + static(p.gather.Nb) - static(r.Ns) for p in ps))) for ps, r in zip(per_dim, rels)]


def _unit_dim(combo: Sequence[Phase]) -> Optional[int]:
    """The dim of a 2-D phase combination whose single tap makes its
    named convolution slow, where the other dim has several (else None):
    IREE runs a 1x2 depthwise convolution ~5x slower than a 1-D one
    (docs/decisions.md, unit_dim)."""
    if len(combo) != 2:
        return None
    unit = [p.gather.k == 1 for p in combo]
    return unit.index(True) if sum(unit) == 1 else None


def _scatter_phases(em: Emitter, a: Value, wf: Value, req: KernelRequest, stats: KernelStats) -> Value:
    """The depthwise scatter out[n, b..., c] = sum_{s,k: b = S*s + D*k - P} A[n, s..., c] * W[k..., c]
    of a strided kernel as one stride-1 depthwise convolution per
    combination of output phases (phase_windows, _phase_conv), each over
    its window of A (zero-padded once for all) and its taps of the flipped
    weight wf (a strided slice), interleaved by one op
    (phases.interleave).  a in [n, s..., c], wf [k..., c]; returns
    [n, b..., c]."""
    per_dim = [phase_windows(r) for r in req.rels]
    pads = _phase_pads(req.rels, per_dim)
    padded = em.pad(a, [0, *(lo for lo, _ in pads), 0], [0, *(hi for _, hi in pads), 0])
    phases: dict[tuple, Value] = {}
    for combo in itertools.product(*per_dim):
        taps = em.extract_slice(wf, [p.w_at for p in combo] + [0], [p.gather.K for p in combo] + [em.shape(wf)[-1]], [r.S for r in req.rels] + [1])
        phases[tuple(p.phase for p in combo)] = _phase_conv(em, padded, [lo + p.start for (lo, _), p in zip(pads, combo)], combo, taps, req.acc_type, stats)
    quot: list[Ix] = [ps[0].gather.Ns for ps in per_dim]
    return interleave(em, phases, [em.shape(a)[0]], req.rels, quot, req.acc_type, trail=[em.shape(wf)[-1]], at=[0] * len(req.rels))


def _phase_conv(em: Emitter, padded: Value, at: list[int], combo: Sequence[Phase], taps: Value, acc_type: FloatType, stats: KernelStats) -> Value:
    """P[n, q..., c] = sum_{m...} padded[n, at + q + m ..., c] * taps[m..., c]
    (0 <= q < Q, m < J per dim): a stride-1 depthwise convolution, or,
    where a 2-D combination has one unit-tap dim u (_unit_dim), the 1-D
    depthwise convolution along the other dim over every position of u
    (u folded into the batch where it is the first dim, into the channels
    with the taps broadcast where it is the second), sliced to the phase's."""
    n, c, nd = em.shape(padded)[0], em.shape(padded)[-1], len(combo)
    rels, ones = [p.gather for p in combo], [1] * (nd + 2)
    u = _unit_dim(combo)
    if u is None:
        win = em.extract_slice(padded, [0, *at, 0], [n, *(g.Nb for g in rels), c], ones)
        return named_conv(em, win, taps, rels, acc_type, stats)
    v, whole = 1 - u, em.shape(padded)[1 + u]
    offsets, sizes = [0, 0, 0, 0], [n, 0, 0, c]
    offsets[1 + v], sizes[1 + v], sizes[1 + u] = at[v], rels[v].Nb, whole
    win = em.extract_slice(padded, offsets, sizes, ones)
    line = em.collapse(taps, [[0, 1], [2]])  # [J_v, c]
    if u == 0:  # [n, R, W, c] -> [n*R, W, c]
        out = named_conv(em, em.collapse(win, [[0, 1], [2], [3]]), line, [rels[v]], acc_type, stats)
        out = em.expand(out, [[0, 1], [2], [3]], [n, whole, rels[v].Ns, c])
    else:  # [n, H, R, c] -> [n, H, R*c], the taps [J, c] broadcast to [J, R*c]
        spread = em.generic([line], [em.empty([rels[v].K, whole, c], ranked(taps.type).element_type)],
                            [AffineMap.from_exprs(3, [d(0), d(2)]), AffineMap.identity(3)], ["parallel"] * 3, lambda b, x: [x[0]])[0]
        out = named_conv(em, em.collapse(win, [[0], [1], [2, 3]]), em.collapse(spread, [[0], [1, 2]]), [rels[v]], acc_type, stats)
        out = em.expand(out, [[0], [1], [2, 3]], [n, rels[v].Ns, whole, c])
    offsets, sizes = [0, 0, 0, 0], [n, rels[0].Ns, rels[1].Ns, c]
    offsets[1 + u] = at[u]
    return em.extract_slice(out, offsets, sizes, ones)


def _weight(em: Emitter, a: Value, b: Value, req: KernelRequest, stats: KernelStats) -> Value:
    """out[g, k...] = sum_{n, s} A[n, g, s...] * B[n, g, S*s + D*k - P ...]:
    the batch folded into the channels ((n, g) innermost), A as the kernel
    of a depthwise convolution over B with strides D and dilations S, then
    the sum over n.  a, b in role layout ([n, g, spatial...], n absent when
    N = 1)."""
    nd, has_n = len(req.rels), req.roles["n"] != 1
    lead = 2 if has_n else 1
    perm = list(range(lead, lead + nd)) + list(range(lead))  # [spatial..., (n,) g]
    fold = [[i] for i in range(nd)] + [list(range(nd, nd + lead))]
    a_cl = em.collapse(transpose(em, a, perm), fold) if has_n else transpose(em, a, perm)
    b_cl = em.collapse(transpose(em, b, perm), fold) if has_n else transpose(em, b, perm)
    b_cl = em.expand(b_cl, [[0, 1]] + [[i + 1] for i in range(1, nd + 1)], [1] + em.shape(b_cl))
    swapped = [Rel(S=r.D, D=r.S, P=r.P, K=r.Ns, Ns=r.K, Nb=r.Nb) for r in req.rels]
    partial = named_conv(em, b_cl, a_cl, swapped, req.acc_type, stats)  # [1, k..., (n, g)]
    g = req.roles["g"]
    ks = [r.K for r in req.rels]
    if not has_n:
        partial = em.collapse(partial, [[0, 1]] + [[i + 1] for i in range(1, nd + 1)])
        return transpose(em, partial, [nd] + list(range(nd)))
    partial = em.expand(partial, [[i] for i in range(nd + 1)] + [[nd + 1, nd + 2]], [1] + ks + [req.roles["n"], g])
    rank = nd + 3  # [1, k..., n, g] -> out[g, k...] summing n
    maps = [AffineMap.identity(rank), AffineMap.from_exprs(rank, [d(nd + 2)] + [d(1 + i) for i in range(nd)])]
    iterators = ["reduction"] + ["parallel"] * nd + ["reduction", "parallel"]
    out = em.zeros([g] + ks, req.acc_type)
    return em.generic([partial], [out], maps, iterators, lambda bb, x: [arith.same_type(bb, arith.ADDF, x[1], x[0])])[0]


def _scatter_im2col(em: Emitter, a: Value, w: Value, req: KernelRequest, stats: KernelStats) -> Value:
    """The dense stride-1 scatter (where the emission says scatter_matmul)
    as the gather over the flipped weight (see _scatter), as im2col read straight from channels-first A
    [n, ca, s...] (n absent when N = 1) and one (packed) matmul:

        cols[(ca, m...), (n, b...)] = A[n, ca, b + D*m - (D*(K-1) - P) ...]   (zero outside)
        out[cb, (n, b...)]          = sum_{(ca, m)} Wf[cb, (ca, m...)] * cols[(ca, m...), (n, b...)]

    Returns role layout [n, cb, b...]."""
    nd, has_n = len(req.rels), req.roles["n"] != 1
    if not has_n:
        a = em.expand(a, [[0, 1]] + [[i + 1] for i in range(1, nd + 1)], [1] + em.shape(a))
    rels = [Rel(S=1, D=r.D, P=r.D * (r.k - 1) - r.P, K=r.K, Ns=r.Nb, Nb=r.Ns) for r in req.rels]
    a = window(em, a, 2, rels)
    shape = em.shape(a)
    n, ca = shape[0], shape[1]
    cb = em.shape(w)[1]
    wf = em.reverse(w, list(range(2, 2 + nd)))
    wf = transpose(em, wf, [1, 0] + list(range(2, 2 + nd)))  # [cb, ca, m...]
    rank = 2 * nd + 2  # loops ca, k..., n, s...
    exprs = [d(nd + 1), d(0)] + [d(nd + 2 + i) * r.S + d(1 + i) * r.D for i, r in enumerate(rels)]
    out = em.empty([ca] + [r.K for r in rels] + [n] + [r.Ns for r in rels], ranked(a.type).element_type)
    cols = em.generic([a], [out], [AffineMap.from_exprs(rank, exprs), AffineMap.identity(rank)], ["parallel"] * rank, lambda bb, x: [x[0]])[0]
    rhs = em.collapse(cols, [list(range(nd + 1)), list(range(nd + 1, rank))])
    lhs = em.collapse(wf, [[0], list(range(1, nd + 2))])
    mm, macs = batched_matmul(em, lhs, rhs, False, req.acc_type, req.choices.tiles)
    stats.add(macs)
    stats.form = "im2col-gather"
    out4 = em.expand(mm, [[0], list(range(1, nd + 2))], [cb, n] + [r.Ns for r in rels])
    out4 = transpose(em, out4, [1, 0] + list(range(2, nd + 2)))
    return out4 if has_n else em.collapse(out4, [[0, 1]] + [[i + 1] for i in range(1, nd + 1)])
