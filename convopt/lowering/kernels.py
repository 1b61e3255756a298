"""Convolution kernels as `linalg.generic` ops, built one spatial dim at a time.

Every convolution and each of its gradients is a sum over the triples
(s, k, b) of one relation per spatial dim

    b = S*s + D*k - P        0 <= s < Ns,  0 <= k < K,  0 <= b < Nb

between a position s on the strided ("small") side, a kernel tap k and a
position b on the other ("big") side.  With A the small-side tensor, B the
big-side tensor and W the weight, there are three kernels:

    gather   out[s] = sum_k          B[S*s + D*k - P] * W[k]
    scatter  out[b] = sum_{s,k: b = S*s + D*k - P}   A[s] * W[k]
    weight   out[k] = sum_s          A[s] * B[S*s + D*k - P]

A regular convolution has A = output, B = input: its forward is a gather,
its grad_input a scatter, its grad_weight the weight kernel.  A transposed
convolution swaps the roles (A = its input, B = its output): its forward is a
scatter, its grad_input a gather, and grad_weight the weight kernel again.

Channels: A is [N, G*Ca, s...], B is [N, G*Cb, b...], W is [G*Ca, Cb, k...]
(for a regular convolution Ca = Cout/G, Cb = Cin/G; transposed Ca = Cin/G,
Cb = Cout/G), expanded to separate groups when G > 1.

Along each spatial dim a kernel is cut into `Piece`s, each a dense
rectangle of (output position, reduction index) whose accesses are affine:

* scatter without zero insertion: each tap k adds A[s] * W[k] into the
  strided slice b = S*s + D*k - P of the output (the phase of b mod S that
  the tap reaches), over exactly the s whose b is in bounds -- the flip of
  the kernel is in the slice offsets; maps keep non-negative coefficients;
* gather and weight: "padded" pieces cover a whole phase and may read outside A or B, which is
  then zero-padded once; "peeled" pieces split the output where the valid
  reduction range changes, so that every multiply-add they execute is
  useful (no padding at all).  Static dims whose padded form would waste
  more than PEEL_WASTE of their multiply-adds are peeled.

The n-D op of a piece combination is one `linalg.generic`; its result is
inserted into a zero-initialised accumulator (in f32 for f16/bf16).  Disjoint
pieces start from a fresh zero tile (IREE 3.13 fails to compile some
convolution-like ops whose init is a slice of another op's result); scatter
taps, which overlap, accumulate into the slice they update.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Optional

from ..ir.affine import AffineConst, AffineExpr, AffineMap, d
from ..ir.builder import Builder
from ..ir.core import Value
from ..ir.types import FloatType, Type, ranked
from ..passes import Pass
from .emit import Emitter, Ix, ceildiv, extend, unit_groups

PEEL_WASTE = 0.05
"""A static dim is peeled when padding would waste more than this fraction
of its multiply-adds."""


@dataclass(frozen=True)
class Rel:
    """One spatial dim: b = S*s + D*k - P with sizes Ns, K, Nb."""

    S: int
    D: int
    P: int
    K: Ix  # dynamic with a dynamic weight, or for the decomposition's grad_weight convolution
    Ns: Ix
    Nb: Ix

    @property
    def static(self) -> bool:
        return isinstance(self.Ns, int) and isinstance(self.Nb, int) and isinstance(self.K, int)

    @property
    def k(self) -> int:
        """The kernel size of a static kernel (every caller of this checked)."""
        assert isinstance(self.K, int)
        return self.K

    def useful(self) -> int:
        """Number of valid (s, k) pairs (static dims)."""
        assert isinstance(self.Ns, int) and isinstance(self.Nb, int)
        return sum(len(_valid_s(self, k)) for k in range(self.k))


def _valid_s(r: Rel, k: int) -> range:
    assert isinstance(r.Ns, int) and isinstance(r.Nb, int)
    lo = max(0, ceildiv(r.P - r.D * k, r.S))
    hi = min(r.Ns - 1, (r.Nb - 1 + r.P - r.D * k) // r.S)
    return range(lo, hi + 1)


@dataclass(frozen=True)
class Span:
    """Positions offset + stride*i, 0 <= i < size, in an operand's own
    (unpadded) coordinates along one dim."""

    offset: Ix
    size: Ix
    stride: int = 1


@dataclass(frozen=True)
class Access:
    """An input's slice along one dim and its index inside that slice:
    c_out * o + c_red * r + const, with o the output loop and r the
    reduction loop of the dim."""

    span: Span
    c_out: int
    c_red: int
    const: int = 0
    inside: bool = False  # the span is known to lie inside the operand (no padding needed)


@dataclass(frozen=True)
class Piece:
    out: Span
    red: Ix
    ins: tuple[Access, Access]

    def macs(self) -> Optional[int]:
        if isinstance(self.out.size, int) and isinstance(self.red, int):
            return self.out.size * self.red
        return None


def _runs(n: int, valid) -> list[tuple[int, int, int, int]]:
    """Maximal runs [x0, x1) of x in [0, n) with the same non-empty valid
    range [lo, hi]; returns (x0, x1, lo, hi)."""
    runs: list[list[int]] = []
    for x in range(n):
        lo, hi = valid(x)
        if lo > hi:
            continue
        if runs and runs[-1][1] == x and runs[-1][2:] == [lo, hi]:
            runs[-1][1] = x + 1
        else:
            runs.append([x, x + 1, lo, hi])
    return [tuple(r) for r in runs]  # type: ignore[misc]


# --- pieces of each kernel along one dim ------------------------------------------------------

def tap_range(em: Emitter, r: Rel, k: int) -> Optional[tuple[int, Ix]]:
    """(first s, number of s) for which tap k lands in bounds:
    0 <= S*s + D*k - P < Nb and 0 <= s < Ns.  None if statically empty."""
    if isinstance(r.Ns, int) and isinstance(r.Nb, int):
        valid = _valid_s(r, k)
        return (valid.start, len(valid)) if valid else None
    lo = max(0, ceildiv(r.P - r.D * k, r.S))
    hi_ix = em.min(em.sub(r.Ns, 1), em.floordiv(em.add(r.Nb, r.P - r.D * k - 1), r.S))
    return lo, em.max(0, em.add(em.sub(hi_ix, lo), 1))


def _extent(em: Emitter, r: Rel, ns: Ix, nk: Ix) -> Ix:
    """How many positions b = S*s + D*k - P span for ns values of s and nk
    of k: S*(ns - 1) + D*(nk - 1) + 1."""
    return em.add(em.add(em.mul(em.sub(ns, 1), r.S), em.mul(em.sub(nk, 1), r.D)), 1)


def _taps(em: Emitter, r: Rel) -> list[tuple[int, int, Ix, Span]]:
    """(k, first s, count, positions b = S*s + D*k - P) of every tap k."""
    out = []
    for k in range(r.k):
        rng = tap_range(em, r, k)
        if rng is not None:
            lo, n = rng
            out.append((k, lo, n, Span(r.S * lo + r.D * k - r.P, n, r.S)))
    return out


def gather_pieces(em: Emitter, r: Rel, strategy: str) -> list[Piece]:
    """out[s] = sum_k B[S*s + D*k - P] * W[k]; inputs (B, W)."""
    if strategy == "taps":  # one piece per tap; pieces overlap and accumulate
        return [Piece(Span(lo, n), 1, (Access(b, 1, 0), Access(Span(k, 1), 0, 1))) for k, lo, n, b in _taps(em, r)]
    if strategy == "padded":
        b = Access(Span(-r.P, _extent(em, r, r.Ns, r.K)), r.S, r.D)
        return [Piece(Span(0, r.Ns), r.K, (b, Access(Span(0, r.K), 0, 1)))]
    assert isinstance(r.Ns, int) and isinstance(r.Nb, int)
    Nb = r.Nb

    def taps(s: int) -> tuple[int, int]:
        return max(0, ceildiv(r.P - r.S * s, r.D)), min(r.k - 1, (Nb - 1 + r.P - r.S * s) // r.D)

    pieces = []
    for s0, s1, lo, hi in _runs(r.Ns, taps):
        ns, nk = s1 - s0, hi - lo + 1
        b = Access(Span(r.S * s0 + r.D * lo - r.P, _extent(em, r, ns, nk)), r.S, r.D)
        pieces.append(Piece(Span(s0, ns), nk, (b, Access(Span(lo, nk), 0, 1))))
    return pieces


def scatter_pieces(em: Emitter, r: Rel, strategy: str) -> list[Piece]:
    """out[b] = sum_{s,k: b = S*s + D*k - P} A[s] * W[k]; inputs (A, W).

    One piece per tap k: the positions b = S*s + (D*k - P) it reaches form a
    strided slice of the output (one phase of b mod S), and over the s whose b
    is in bounds it adds A[s] * W[k] -- a dense stride-1 op whose maps are
    plain positions.  The flip of the kernel lives in the per-tap slice
    offsets, so no map has a negative coefficient (linalg tiling, and so
    IREE, computes wrong slice sizes for those), no copy of the weight is
    flipped and no zeros are inserted: every multiply-add is useful."""
    return [Piece(b, 1, (Access(Span(lo, n), 1, 0), Access(Span(k, 1), 0, 1))) for k, lo, n, b in _taps(em, r)]


def weight_pieces(em: Emitter, r: Rel, strategy: str) -> list[Piece]:
    """out[k] = sum_s A[s] * B[S*s + D*k - P]; inputs (A, B)."""
    if strategy == "taps":  # one piece per tap, each over its own s range
        return [Piece(Span(k, 1), n, (Access(Span(lo, n), 0, 1), Access(b, 0, 1))) for k, lo, n, b in _taps(em, r)]
    if strategy == "padded":
        b = Access(Span(-r.P, _extent(em, r, r.Ns, r.K)), r.D, r.S)
        return [Piece(Span(0, r.K), r.Ns, (Access(Span(0, r.Ns), 0, 1), b))]
    pieces = []
    for k0, k1, lo, hi in _runs(r.k, lambda k: (_valid_s(r, k).start, _valid_s(r, k).stop - 1)):
        nk, ns = k1 - k0, hi - lo + 1
        b = Access(Span(r.S * lo + r.D * k0 - r.P, _extent(em, r, ns, nk)), r.D, r.S)
        pieces.append(Piece(Span(k0, nk), ns, (Access(Span(lo, ns), 0, 1), b)))
    return pieces


def phase_pieces(em: Emitter, r: Rel) -> list[Piece]:
    """out[b] = sum_{s,k: b = S*s + D*k - P} A[s] * W[k] for a kernel size K
    known only at run time, so that taps cannot be enumerated; inputs
    (A, Wf) with the flipped weight Wf[m] = W[K-1-m].

    One piece per output phase b = S*q + phi (0 <= phi < S), a dense gather
    over q.  With g = gcd(S, D), T = S/g and Dq = D/g, the taps that reach
    phase phi are k = k0 + T*j (0 <= j < J), where k0 < T solves
    D*k0 = phi + P (mod S) (none when g does not divide phi + P: the phase
    stays zero) and J = ceildiv(K - k0, T).  Tap j reads s = q + c - Dq*j
    with c = (phi + P - D*k0) / S; counting j' = J-1-j instead,

        out[S*q + phi] = sum_{j'} A[q + Dq*j' - Pphi] * Wf[m0 + T*j']
        Pphi = Dq*(J-1) - c,   m0 = K-1-k0 - T*(J-1)

    for 0 <= q < ceildiv(Nb - phi, S): non-negative coefficients only, the
    flip in the weight copy (G*Ca*Cb*K values, 1/(N*Ns) of the
    multiply-adds) and in the dynamic offsets.  The weight slice lies inside
    Wf (m0 >= 0 and m0 + T*(J-1) = K-1-k0); when J can be 0 (T > 1), m0
    and the extent of A's window are clamped so that the empty piece still
    slices in bounds."""
    g = math.gcd(r.S, r.D)
    T, Dq = r.S // g, r.D // g
    pieces = []
    for phi in range(r.S):
        if (phi + r.P) % g or (isinstance(r.Nb, int) and r.Nb <= phi):
            continue
        k0 = next(k for k in range(T) if (r.D * k - phi - r.P) % r.S == 0)
        c = (phi + r.P - r.D * k0) // r.S
        J = em.ceildiv(em.sub(r.K, k0), T)
        Nq = em.ceildiv(em.sub(r.Nb, phi), r.S)
        m0 = em.sub(em.sub(r.K, 1 + k0), em.mul(em.sub(J, 1), T))
        extent = em.add(Nq, em.mul(em.sub(J, 1), Dq))  # (Nq - 1) + Dq*(J - 1) + 1
        if T > 1:
            m0, extent = em.min(m0, r.K), em.max(extent, 0)
        a = Access(Span(em.sub(c, em.mul(em.sub(J, 1), Dq)), extent), 1, Dq)
        pieces.append(Piece(Span(phi, Nq, r.S), J, (a, Access(Span(m0, J, T), 0, 1, inside=True))))
    return pieces


PIECES = {"gather": gather_pieces, "scatter": scatter_pieces, "weight": weight_pieces}


IM2COL_MIN_MACS = 1 << 20
"""Below this many multiply-adds an op is too small for the matmul form to
pay for its copies (measured, bench/README.md)."""

IM2COL_MIN_EFFICIENCY = 0.85
"""col2im multiplies every (s, k) pair, also those landing in the padding;
below this fraction of useful multiply-adds the scatter stays generic."""

FORMS = ("auto", "generic", "named", "im2col")
PEELS = ("auto", "always", "never")


@dataclass(frozen=True)
class KernelPass(Pass):
    """A pass that emits kernels, with their two options; a value no kernel
    strategy knows is a ValueError (a pipeline diagnostic)."""

    peel: str = field(default="auto", metadata={"doc": f"split borders off instead of zero padding: {'|'.join(PEELS)}"})
    conv_form: str = field(default="auto", metadata={"doc": f"shape of the emitted convolutions: {'|'.join(FORMS)}"})

    def __post_init__(self) -> None:
        if self.peel not in PEELS:
            raise ValueError(f"peel must be one of {', '.join(PEELS)}, not '{self.peel}'")
        if self.conv_form not in FORMS:
            raise ValueError(f"conv-form must be one of {', '.join(FORMS)}, not '{self.conv_form}'")


def choose_form(kind: str, roles: dict[str, Ix], rels: Sequence[Rel], requested: str) -> str:
    """The form of one kernel.  auto picks the matmul form (im2col per
    piece, col2im for the scatter) when there is a matrix to multiply (not
    depthwise: Ca * Cb >= 4), the shapes are static and the op has at least
    IM2COL_MIN_MACS multiply-adds; a scatter also needs at most 15% padded
    positions at most (col2im multiplies them too).  Otherwise linalg.generic;
    also for a forced im2col when Ca = Cb = 1 (a 1x1 matmul per group) and
    for a scatter with a dynamic kernel size (col2im needs its taps)."""
    ca, cb = roles["ca"], roles["cb"]
    if kind == "scatter" and not all(isinstance(r.K, int) for r in rels):
        return "generic"  # col2im enumerates the taps
    if requested == "im2col" and ca == 1 and cb == 1:
        return "generic"  # no matrix at all (depthwise): a 1x1 matmul per group
    if requested != "auto":
        return requested
    if not isinstance(ca, int) or not isinstance(cb, int) or ca * cb < 4 or not all(r.static for r in rels):
        return "generic"
    useful = executed = 1
    for r in rels:
        useful *= r.useful()
        executed *= r.Ns * r.k  # type: ignore[operator]
    if kind == "scatter" and useful < IM2COL_MIN_EFFICIENCY * executed:
        return "generic"
    macs = useful * ca * cb
    for role in ("n", "g"):
        size = roles[role]
        macs *= size if isinstance(size, int) else IM2COL_MIN_MACS  # a dynamic batch counts as large
    return "im2col" if macs >= IM2COL_MIN_MACS else "generic"


def choose_strategy(kind: str, em: Emitter, r: Rel, policy: str) -> str:
    """How to cut one dim: scatter by taps (by output phases over the
    flipped weight when the kernel size is dynamic); a static dim is "peeled"
    when its "padded" form would waste more than PEEL_WASTE of its
    multiply-adds; a dynamic dim goes by taps (exact at any size) unless the
    policy is `never`."""
    if kind == "scatter":
        return "taps" if isinstance(r.K, int) else "phases"
    if not isinstance(r.K, int):
        return "padded"
    if not r.static:
        return "padded" if policy == "never" else "taps"
    if policy in ("never", "always"):
        return "padded" if policy == "never" else "peeled"
    executed = sum(p.macs() or 0 for p in PIECES[kind](em, r, "padded"))
    return "peeled" if executed > 0 and r.useful() < (1 - PEEL_WASTE) * executed else "padded"


# --- the n-D op ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class KernelDef:
    """Loop dims by role: non-spatial parallel roles, then one output loop per
    spatial dim, then non-spatial reduction roles, then one reduction loop
    per spatial dim.  Operand and output dims are named by role; their
    spatial dims follow."""

    parallel: tuple[str, ...]
    reduction: tuple[str, ...]
    inputs: tuple[tuple[str, ...], tuple[str, ...]]
    output: tuple[str, ...]


KERNELS = {
    # out A[n, g, ca, s] = sum_{cb, k} B[n, g, cb, S*s + D*k - P] * W[g, ca, cb, k]
    "gather": KernelDef(("n", "g", "ca"), ("cb",), (("n", "g", "cb"), ("g", "ca", "cb")), ("n", "g", "ca")),
    # out B[n, g, cb, S*s + D*k - P] += sum_{ca} A[n, g, ca, s] * W[g, ca, cb, k]   (one op per tap k)
    "scatter": KernelDef(("n", "g", "cb"), ("ca",), (("n", "g", "ca"), ("g", "ca", "cb")), ("n", "g", "cb")),
    # out W[g, ca, cb, k] = sum_{n, s} A[n, g, ca, s] * B[n, g, cb, S*s + D*k - P]
    "weight": KernelDef(("g", "ca", "cb"), ("n",), (("n", "g", "ca"), ("n", "g", "cb")), ("g", "ca", "cb")),
}


@dataclass
class KernelStats:
    """What one kernel emitted: its form, ops that multiply, and their
    multiply-adds (static shapes)."""

    form: str = ""
    executed: int = 0
    ops: int = 0


Layout = tuple[tuple[str, ...], ...]
"""The roles in each leading (non-spatial) dim of a tensor, e.g. grad_output
of a grouped convolution is ((n,), (g, ca)): [N, G*Ca, spatial...]."""

A_LAYOUT: Layout = (("n",), ("g", "ca"))  # [N, G*Ca, s...]
B_LAYOUT: Layout = (("n",), ("g", "cb"))  # [N, G*Cb, b...]
W_LAYOUT: Layout = (("g", "ca"), ("cb",))  # [G*Ca, Cb, k...]


def _present(roles: dict[str, Ix]) -> set[str]:
    """Roles that become loops: every role not statically of size 1."""
    return {r for r, size in roles.items() if size != 1}


def _fold_units(keep: list[bool], rank: int) -> tuple[list[list[int]], list[list[int]]]:
    """Reassociation of a [lead..., spatial...] tensor of this rank that folds
    the lead dims whose `keep` is False into a neighbour: the kept lead dim
    after them, else the last kept one, else the first spatial dim.  Returns
    (lead groups, spatial groups)."""
    groups, trailing = unit_groups(keep)
    spatial = [[i] for i in range(len(keep), rank)]
    if trailing:
        if groups:
            groups[-1] += trailing
        else:
            spatial[0] = trailing + spatial[0]
    return groups, spatial


def to_roles(em: Emitter, v: Value, layout: Layout, roles: dict[str, Ix]) -> Value:
    """Reshape v from `layout` to one dim per present role (unit roles
    dropped, grouped roles split), spatial dims unchanged."""
    present = _present(roles)
    # Merge dims that hold no present role into a neighbour (collapse).
    groups, spatial = _fold_units([any(r in present for r in names) for names in layout], ranked(v.type).rank)
    merged = [[r for i in g for r in layout[i] if r in present] for g in groups]
    if any(len(g) > 1 for g in groups) or (spatial and len(spatial[0]) > 1):
        v = em.collapse(v, groups + spatial)
    # Split dims that hold several present roles (expand).
    if any(len(m) > 1 for m in merged):
        reassoc, shape, k = [], [], 0
        for m in merged:
            reassoc.append(list(range(k, k + len(m))))
            shape += [roles[r] for r in m]
            k += len(m)
        spatial_sizes = em.shape(v)[len(merged):]
        reassoc += [[k + i] for i in range(len(spatial_sizes))]
        v = em.expand(v, reassoc, shape + spatial_sizes)
    return v


def from_roles(em: Emitter, v: Value, layout: Layout, roles: dict[str, Ix]) -> Value:
    """The inverse of to_roles: from one dim per present role to `layout`."""
    present = _present(roles)
    per_dim = [[r for r in names if r in present] for names in layout]
    n_present = sum(len(p) for p in per_dim)
    rank = ranked(v.type).rank
    n_spatial = rank - n_present
    if any(len(p) > 1 for p in per_dim):
        groups, k = [], 0
        for p in per_dim:
            if p:
                groups.append(list(range(k, k + len(p))))
                k += len(p)
        v = em.collapse(v, groups + [[k + i] for i in range(n_spatial)])
    if any(not p for p in per_dim):
        sizes = em.shape(v)
        kept = iter(sizes)
        shape: list[Ix] = [next(kept) if p else 1 for p in per_dim]
        reassoc, spatial = _fold_units([bool(p) for p in per_dim], len(layout) + n_spatial)
        v = em.expand(v, reassoc + spatial, shape + list(kept))
    return v


def emit_kernel(
    em: Emitter,
    kind: str,
    ins: tuple[Value, Value],
    layouts: tuple[Layout, Layout],
    out_layout: Layout,
    rels: Sequence[Rel],
    roles: dict[str, Ix],
    out_spatial: Sequence[Ix],
    acc_type: FloatType,
    peel_policy: str = "auto",
    stats: Optional[KernelStats] = None,
    form: str = "auto",
) -> Value:
    """Build `kind` over ins (tensors in `layouts`); returns the sum in
    `out_layout`, element type acc_type.  roles maps n/g/ca/cb to sizes;
    roles of static size 1 get no loop.  form (see choose_form):
    "im2col" emits the matmul form of matmul_forms.py, "named" a linalg named
    convolution where one computes a gather, else linalg.generic ops."""
    form = choose_form(kind, roles, rels, form)
    if stats is not None:
        stats.form = form
    if form == "named":
        from .named import emit_named_gather, named_conv_name

        name = named_conv_name(len(rels), roles["g"], roles["ca"], roles["cb"]) if kind == "gather" else None  # type: ignore[arg-type]
        if name is not None:
            if stats is not None:
                stats.ops += 1
                stats.form = name
            return emit_named_gather(em, ins[0], ins[1], rels, roles["g"], roles["ca"], roles["cb"], acc_type, name)  # type: ignore[arg-type]
        form = "generic"
        if stats is not None:
            stats.form = form
    kdef = KERNELS[kind]
    present = _present(roles)
    par = [r for r in kdef.parallel if r in present]
    red = [r for r in kdef.reduction if r in present]
    nd = len(rels)
    loop = {name: i for i, name in enumerate(par)}
    out_loops = [len(par) + i for i in range(nd)]
    loop.update({name: len(par) + nd + i for i, name in enumerate(red)})
    ins = (to_roles(em, ins[0], layouts[0], roles), to_roles(em, ins[1], layouts[1], roles))
    in_roles = [[x for x in names if x in present] for names in kdef.inputs]

    strategies = [choose_strategy(kind, em, r, peel_policy) for r in rels]
    per_dim = [phase_pieces(em, r) if st == "phases" else PIECES[kind](em, r, st) for r, st in zip(rels, strategies)]
    flipped = [len(in_roles[1]) + i for i, st in enumerate(strategies) if st == "phases"]
    if flipped:  # phase pieces read the weight flipped along their dims
        ins = (ins[0], em.reverse(ins[1], flipped))
    overlapping = kind != "weight" and "taps" in strategies
    out_roles = [x for x in kdef.output if x in present]

    # Zero-pad each input once, as far as any piece reads outside it.
    padded = []
    shifts: list[list[Ix]] = []
    for j, value in enumerate(ins):
        lead = len(in_roles[j])
        low: list[Ix] = [0] * lead
        high: list[Ix] = [0] * lead
        for i in range(nd):
            size = em.dim(value, lead + i)
            lo: Ix = 0
            hi: Ix = 0
            for piece in per_dim[i]:
                if piece.ins[j].inside:
                    continue
                span = piece.ins[j].span
                end = em.add(span.offset, em.mul(em.sub(span.size, 1), span.stride))
                lo = em.max(lo, em.sub(0, span.offset))
                hi = em.max(hi, em.sub(em.add(end, 1), size))
            low.append(lo)
            high.append(hi)
        padded.append(em.pad(value, low, high))
        shifts.append(low[lead:])

    if form == "im2col" and kind == "scatter":  # one matmul, then col2im
        from .matmul_forms import emit_matmul_kernel

        result, executed = emit_matmul_kernel(em, kind, ins, in_roles, out_roles, rels, roles, acc_type, None, padded, shifts)
        if stats is not None:
            stats.ops += 1
            stats.executed += executed
        return from_roles(em, result, out_layout, roles)
    combos = list(itertools.product(*per_dim))
    outputs = Outputs(em, [roles[r] for r in out_roles], list(out_spatial), acc_type, [[p.out for p in combo] for combo in combos])
    for combo in combos:
        in_slices = []
        for j, value in enumerate(padded):
            lead = len(in_roles[j])
            offsets = [0] * lead + [em.add(p.ins[j].span.offset, shifts[j][i]) for i, p in enumerate(combo)]
            sizes = em.shape(value)[:lead] + [p.ins[j].span.size for p in combo]
            strides = [1] * lead + [p.ins[j].span.stride for p in combo]
            in_slices.append(em.extract_slice(value, offsets, sizes, strides))
        key, acc, out_off, out_sizes, out_strides = outputs.slot([p.out for p in combo])
        # Overlapping pieces (taps) add into what is there; a piece alone in its
        # accumulator starts from a fresh zero tile like a disjoint one.
        accumulate = overlapping and (key == outputs.DIRECT or outputs.writers[key] > 1)
        if accumulate or em.is_whole(acc, out_off, out_sizes, out_strides):
            out_slice = em.extract_slice(acc, out_off, out_sizes, out_strides)  # taps accumulate
        else:
            # Pieces of gather and weight are disjoint: each computes into a
            # fresh zero tile, which IREE fuses into the op's dispatch.
            out_slice = em.zeros(out_sizes, acc_type)
        # A spatial reduction of extent 1 (a single tap) needs no loop.
        red_loops: dict[int, AffineExpr] = {}
        for i, p in enumerate(combo):
            if p.red != 1:
                red_loops[i] = d(len(par) + nd + len(red) + len(red_loops))
        n_loops = len(par) + nd + len(red) + len(red_loops)
        iterators = ["parallel"] * (len(par) + nd) + ["reduction"] * (len(red) + len(red_loops))
        maps = []
        for j in range(2):
            exprs: list[AffineExpr] = [d(loop[x]) for x in in_roles[j]]
            for i, p in enumerate(combo):
                a = p.ins[j]
                exprs.append(d(out_loops[i]) * a.c_out + red_loops.get(i, AffineConst(0)) * a.c_red + a.const)
            maps.append(AffineMap.from_exprs(n_loops, exprs))
        maps.append(AffineMap.from_exprs(n_loops, [d(loop[x]) for x in out_roles] + [d(out_loops[i]) for i in range(nd)]))
        if form == "im2col":  # the piece as a matmul (see matmul_forms.py)
            from .matmul_forms import emit_matmul_kernel, piece_rels

            tile, executed = emit_matmul_kernel(
                em, kind, (in_slices[0], in_slices[1]), in_roles, out_roles, piece_rels(kind, combo), roles, acc_type,
                out_slice if accumulate else None, list(in_slices), [[0] * nd, [0] * nd],
            )
            if stats is not None:
                stats.ops += 1
                stats.executed += executed
            outputs.accs[key] = em.insert_slice(tile, acc, out_off, out_sizes, out_strides)
            continue
        summed = em.generic(in_slices, [out_slice], maps, iterators, lambda b, args: [multiply_add(b, args[0], args[1], args[2], acc_type)])[0]
        outputs.accs[key] = em.insert_slice(summed, acc, out_off, out_sizes, out_strides)
        if stats is not None:
            stats.ops += 1
            macs = [p.macs() for p in combo]
            lead_sizes = [roles[x] for x in par + red]
            if all(isinstance(m, int) for m in macs) and all(isinstance(s, int) for s in lead_sizes):
                total = 1
                for m in macs + lead_sizes:
                    total *= m  # type: ignore[operator]
                stats.executed += total
    return from_roles(em, outputs.finish(), out_layout, roles)


class Outputs:
    """The accumulators the pieces of a kernel write into.  Pieces whose
    output positions are strided (the taps of a scatter with stride S: b =
    S*q + phi) accumulate in one dense tensor per phase phi -- just large
    enough for the pieces of that phase -- so that every op reads and writes
    contiguous memory; each phase is written into the output, with stride S,
    once at the end."""

    def __init__(self, em: Emitter, lead: list[Ix], spatial: list[Ix], acc_type: FloatType, pieces: Sequence[Sequence[Span]]):
        self.em, self.lead, self.spatial, self.acc_type = em, lead, spatial, acc_type
        self.accs: dict[tuple, Value] = {}
        self.box: dict[tuple, list[tuple[int, int, int]]] = {}  # per dim: (dense start, dense end, stride)
        self.writers: Counter = Counter()
        for spans in pieces:
            key = self.key(spans)
            self.writers[key] += 1
            if None in key or not all(isinstance(x, int) for x in [*lead, *(sp.size for sp in spans)]):
                continue  # phases only for static shapes (IREE miscompiles some dynamic ones)
            dense = [(_int(sp.offset) // sp.stride, _int(sp.size), sp.stride) for sp in spans]
            old = self.box.get(key)
            if old is None:
                self.box[key] = [(a, a + n, st) for a, n, st in dense]
            else:
                self.box[key] = [(min(a, a2), max(e, a2 + n2), st) for (a, e, st), (a2, n2, _) in zip(old, dense)]

    @staticmethod
    def key(spans: Sequence[Span]) -> tuple:
        """The phase of a piece's output positions (None per unstrided dim)."""
        return tuple(sp.offset % sp.stride if sp.stride > 1 else None for sp in spans)  # type: ignore[operator]

    def slot(self, spans: Sequence[Span]) -> tuple[tuple, Value, list[Ix], list[Ix], list[int]]:
        """(key, accumulator, offsets, sizes, strides) where a piece writing
        `spans` (one per spatial dim) goes."""
        em = self.em
        key = self.key(spans)
        lead = len(self.lead)
        if key not in self.box:  # unstrided (or of dynamic size): the output itself
            key = self.DIRECT
            if key not in self.accs:
                self.accs[key] = em.zeros(self.lead + self.spatial, self.acc_type)
            offsets: list[Ix] = _zeros(lead) + [sp.offset for sp in spans]
            return key, self.accs[key], offsets, em.shape(self.accs[key])[:lead] + [sp.size for sp in spans], [1] * lead + [sp.stride for sp in spans]
        box = self.box[key]
        if key not in self.accs:
            self.accs[key] = em.zeros(self.lead + [e - a for a, e, _ in box], self.acc_type)
        dense: list[Ix] = [_int(sp.offset) // sp.stride - a for sp, (a, _, _) in zip(spans, box)]
        offsets = _zeros(lead) + dense
        sizes = em.shape(self.accs[key])[:lead] + [sp.size for sp in spans]
        return key, self.accs[key], offsets, sizes, [1] * (lead + len(spans))

    DIRECT = ("direct",)

    def finish(self) -> Value:
        em = self.em
        direct = self.accs.get(self.DIRECT)
        if not self.box and direct is not None:
            return direct
        out = direct if direct is not None else em.zeros(self.lead + self.spatial, self.acc_type)
        lead = len(self.lead)
        for key, box in self.box.items():
            acc = self.accs[key]
            starts: list[Ix] = [a * st + k for k, (a, _, st) in zip(key, box)]
            strides = [1] * lead + [st for _, _, st in box]
            offsets: list[Ix] = _zeros(lead) + starts
            out = em.insert_slice(acc, out, offsets, em.shape(acc), strides)
        return out


def _zeros(n: int) -> list[Ix]:
    return [0] * n


def _int(x: Ix) -> int:
    assert isinstance(x, int), "expected a static size"
    return x


def multiply_add(b: Builder, x: Value, y: Value, acc: Value, acc_type: Type) -> Value:
    """acc + x * y, with x and y extended to the accumulator type first."""
    product = b.value("arith.mulf", [extend(b, x, acc_type), extend(b, y, acc_type)], acc_type)
    return b.value("arith.addf", [acc, product], acc_type)


def accumulator_type(dtype: FloatType) -> FloatType:
    """f16 and bf16 accumulate in f32; f32 and f64 in themselves."""
    return FloatType("f32") if dtype.name in ("f16", "bf16") else dtype
