"""The relation math of the convolution kernels: one relation per spatial
dim, and the pieces each kernel is cut into along it.

Every convolution and each of its gradients is a sum over the triples
(s, k, b) of one relation per spatial dim

    b = S*s + D*k - P        0 <= s < Ns,  0 <= k < K,  0 <= b < Nb

between a position s on the strided ("small") side, a kernel tap k and a
position b on the other ("big") side.  With A the small-side tensor, B the
big-side tensor and W the weight, there are three kernels (`Kind`):

    gather   out[s] = sum_k          B[S*s + D*k - P] * W[k]
    scatter  out[b] = sum_{s,k: b = S*s + D*k - P}   A[s] * W[k]
    weight   out[k] = sum_s          A[s] * B[S*s + D*k - P]

Along each spatial dim a kernel is cut into `Piece`s, each a dense
rectangle of (output position, reduction index) whose accesses are affine
(`Strategy`):

* scatter without zero insertion ("taps"): each tap k adds A[s] * W[k] into
  the strided slice b = S*s + D*k - P of the output (the phase of b mod S
  that the tap reaches), over exactly the s whose b is in bounds -- the flip
  of the kernel is in the slice offsets; maps keep non-negative
  coefficients; with a kernel size known only at run time, one piece per
  output phase over the flipped weight ("phases");
* gather and weight: "padded" pieces cover a whole phase and may read
  outside A or B, which is then zero-padded once; "peeled" pieces split the
  output where the valid reduction range changes, so that every multiply-add
  they execute is useful (no padding at all); "taps" (dynamic sizes) one
  piece per tap.

Nothing here emits a tensor op: only index arithmetic through an IndexArith
(which folds for static sizes).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple, Optional

from ..choices import Choice
from .emit import IndexArith, Ix, ceildiv


class Kind(Choice):
    """The three kernels (see the module docstring)."""

    GATHER = "gather"
    SCATTER = "scatter"
    WEIGHT = "weight"


class Strategy(Choice):
    """How one spatial dim of a kernel is cut into pieces."""

    PADDED = "padded"  # one piece over the zero-padded operand
    PEELED = "peeled"  # pieces where the valid reduction range changes: no padding
    TAPS = "taps"  # one piece per kernel tap
    PHASES = "phases"  # scatter with a dynamic kernel size: one piece per output phase


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
        return sum(len(valid_s(self, k)) for k in range(self.k))


def valid_s(r: Rel, k: int) -> range:
    """The s for which tap k lands in bounds (static dims):
    max(0, ceil((P - D*k) / S)) <= s <= min(Ns - 1, floor((Nb - 1 + P - D*k) / S))."""
    assert isinstance(r.Ns, int) and isinstance(r.Nb, int)
    lo = max(0, ceildiv(r.P - r.D * k, r.S))
    hi = min(r.Ns - 1, (r.Nb - 1 + r.P - r.D * k) // r.S)
    return range(lo, hi + 1)


def reaching(r: Rel) -> list[tuple[int, range]]:
    """The taps k that land in bounds for some s (static dims), in order,
    each with its valid_s."""
    return [(k, s) for k in range(r.k) if (s := valid_s(r, k))]


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
    """A dense rectangle of (output position o, reduction index r) along one
    dim: the output positions `out`, `red` reduction indices, and the
    accesses of the two inputs."""

    out: Span
    red: Ix
    ins: tuple[Access, Access]

    def macs(self) -> Optional[int]:
        if isinstance(self.out.size, int) and isinstance(self.red, int):
            return self.out.size * self.red
        return None


class Tap(NamedTuple):
    """Tap k of a dim: it lands in bounds for `size` values of s from
    `first`, at the positions b = S*s + D*k - P of `span`."""

    k: int
    first: int
    size: Ix
    span: Span


class Run(NamedTuple):
    """Positions [start, stop) that share the valid range [lo, hi]."""

    start: int
    stop: int
    lo: int
    hi: int


def runs(n: int, valid: Callable[[int], tuple[int, int]]) -> list[Run]:
    """Maximal runs [x0, x1) of x in [0, n) with the same non-empty valid
    range [lo, hi]; returns (x0, x1, lo, hi)."""
    found: list[list[int]] = []
    for x in range(n):
        lo, hi = valid(x)
        if lo > hi:
            continue
        if found and found[-1][1] == x and found[-1][2:] == [lo, hi]:
            found[-1][1] = x + 1
        else:
            found.append([x, x + 1, lo, hi])
    return [Run(*r) for r in found]


def pool_output_size(n: int, k: int, s: int, p: int, ceil_mode: bool, dilation: int = 1) -> int:
    """PyTorch's pooling output size Ns along one dim of input size n (the
    number of window positions s whose first tap S*s - P starts inside the
    input or its left padding):
    (n + 2*p - dilation*(k - 1) - 1 + (s - 1 if ceil_mode)) // s + 1, less one
    where ceil_mode would start the last window past the input and its left
    padding."""
    out = (n + 2 * p - dilation * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def pool_outputs(em: IndexArith, n: Ix, k: int, s: int, p: int, ceil_mode: bool, dilation: int = 1) -> Ix:
    """pool_output_size for an input size known only at run time: the
    ceil_mode correction is min(out, ceildiv(n + p, s)) (out exceeds that
    by at most one when 2*p <= k, as PyTorch requires)."""
    if isinstance(n, int):
        return pool_output_size(n, k, s, p, ceil_mode, dilation)
    out = em.add(em.floordiv(em.add(n, 2 * p - dilation * (k - 1) - 1 + (s - 1 if ceil_mode else 0)), s), 1)
    return em.min(out, em.ceildiv(em.add(n, p), s)) if ceil_mode else out


# --- pieces of each kernel along one dim ------------------------------------------------------

def tap_range(em: IndexArith, r: Rel, k: int) -> Optional[tuple[int, Ix]]:
    """(first s, number of s) for which tap k lands in bounds:
    0 <= S*s + D*k - P < Nb and 0 <= s < Ns.  None if statically empty."""
    if isinstance(r.Ns, int) and isinstance(r.Nb, int):
        valid = valid_s(r, k)
        return (valid.start, len(valid)) if valid else None
    lo = max(0, ceildiv(r.P - r.D * k, r.S))
    hi_ix = em.min(em.sub(r.Ns, 1), em.floordiv(em.add(r.Nb, r.P - r.D * k - 1), r.S))
    return lo, em.max(0, em.add(em.sub(hi_ix, lo), 1))


def extent(em: IndexArith, r: Rel, ns: Ix, nk: Ix) -> Ix:
    """How many positions b = S*s + D*k - P span for ns values of s and nk
    of k: S*(ns - 1) + D*(nk - 1) + 1."""
    return em.add(em.add(em.mul(em.sub(ns, 1), r.S), em.mul(em.sub(nk, 1), r.D)), 1)


def taps(em: IndexArith, r: Rel) -> list[Tap]:
    """(k, first s, count, positions b = S*s + D*k - P) of every tap k."""
    out = []
    for k in range(r.k):
        rng = tap_range(em, r, k)
        if rng is not None:
            lo, n = rng
            out.append(Tap(k=k, first=lo, size=n, span=Span(offset=r.S * lo + r.D * k - r.P, size=n, stride=r.S)))
    return out


def _tap_weight(k: int) -> Access:
    """The weight read at the single tap k (no reduction loop)."""
    return Access(span=Span(offset=k, size=1), c_out=0, c_red=1)


def gather_pieces(em: IndexArith, r: Rel, strategy: Strategy) -> list[Piece]:
    """out[s] = sum_k B[S*s + D*k - P] * W[k]; inputs (B, W)."""
    if strategy == Strategy.TAPS:  # one piece per tap; pieces overlap and accumulate
        return [
            Piece(out=Span(offset=t.first, size=t.size), red=1, ins=(Access(span=t.span, c_out=1, c_red=0), _tap_weight(t.k)))
            for t in taps(em, r)
        ]
    if strategy == Strategy.PADDED:
        b = Access(span=Span(offset=-r.P, size=extent(em, r, r.Ns, r.K)), c_out=r.S, c_red=r.D)
        return [Piece(out=Span(offset=0, size=r.Ns), red=r.K, ins=(b, Access(span=Span(offset=0, size=r.K), c_out=0, c_red=1)))]
    assert isinstance(r.Ns, int) and isinstance(r.Nb, int)
    Nb = r.Nb

    def valid_taps(s: int) -> tuple[int, int]:
        return max(0, ceildiv(r.P - r.S * s, r.D)), min(r.k - 1, (Nb - 1 + r.P - r.S * s) // r.D)

    pieces = []
    for run in runs(r.Ns, valid_taps):
        ns, nk = run.stop - run.start, run.hi - run.lo + 1
        b = Access(span=Span(offset=r.S * run.start + r.D * run.lo - r.P, size=extent(em, r, ns, nk)), c_out=r.S, c_red=r.D)
        w = Access(span=Span(offset=run.lo, size=nk), c_out=0, c_red=1)
        pieces.append(Piece(out=Span(offset=run.start, size=ns), red=nk, ins=(b, w)))
    return pieces


def scatter_pieces(em: IndexArith, r: Rel, strategy: Strategy) -> list[Piece]:
    """out[b] = sum_{s,k: b = S*s + D*k - P} A[s] * W[k]; inputs (A, W).

    One piece per tap k: the positions b = S*s + (D*k - P) it reaches form a
    strided slice of the output (one phase of b mod S), and over the s whose b
    is in bounds it adds A[s] * W[k] -- a dense stride-1 op whose maps are
    plain positions.  The flip of the kernel lives in the per-tap slice
    offsets, so no map has a negative coefficient (linalg tiling, and so
    IREE, computes wrong slice sizes for those), no copy of the weight is
    flipped and no zeros are inserted: every multiply-add is useful."""
    return [
        Piece(out=t.span, red=1, ins=(Access(span=Span(offset=t.first, size=t.size), c_out=1, c_red=0), _tap_weight(t.k)))
        for t in taps(em, r)
    ]


def weight_pieces(em: IndexArith, r: Rel, strategy: Strategy) -> list[Piece]:
    """out[k] = sum_s A[s] * B[S*s + D*k - P]; inputs (A, B)."""
    if strategy == Strategy.TAPS:  # one piece per tap, each over its own s range
        return [
            Piece(out=Span(offset=t.k, size=1), red=t.size, ins=(Access(span=Span(offset=t.first, size=t.size), c_out=0, c_red=1), Access(span=t.span, c_out=0, c_red=1)))
            for t in taps(em, r)
        ]
    if strategy == Strategy.PADDED:
        b = Access(span=Span(offset=-r.P, size=extent(em, r, r.Ns, r.K)), c_out=r.D, c_red=r.S)
        return [Piece(out=Span(offset=0, size=r.K), red=r.Ns, ins=(Access(span=Span(offset=0, size=r.Ns), c_out=0, c_red=1), b))]
    pieces = []
    for run in runs(r.k, lambda k: (valid_s(r, k).start, valid_s(r, k).stop - 1)):
        nk, ns = run.stop - run.start, run.hi - run.lo + 1
        b = Access(span=Span(offset=r.S * run.lo + r.D * run.start - r.P, size=extent(em, r, ns, nk)), c_out=r.D, c_red=r.S)
        a = Access(span=Span(offset=run.lo, size=ns), c_out=0, c_red=1)
        pieces.append(Piece(out=Span(offset=run.start, size=nk), red=ns, ins=(a, b)))
    return pieces


def phase_pieces(em: IndexArith, r: Rel) -> list[Piece]:
    """out[b] = sum_{s,k: b = S*s + D*k - P} A[s] * W[k] for a kernel size K
    known only at run time, so that taps cannot be enumerated (or, static,
    where disjoint pieces are wanted: --device=gpu); inputs
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
    multiply-adds) and in the dynamic offsets.  Where the sizes are static,
    a piece keeps only the taps that read A in bounds (reaching_taps).  The
    weight slice lies inside
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
        if isinstance(J, int) and J <= 0:
            continue  # a static kernel with no tap in this phase: it stays zero
        Nq = em.ceildiv(em.sub(r.Nb, phi), r.S)
        m0 = em.sub(em.sub(r.K, 1 + k0), em.mul(em.sub(J, 1), T))
        size = em.add(Nq, em.mul(em.sub(J, 1), Dq))  # (Nq - 1) + Dq*(J - 1) + 1
        if T > 1:
            m0, size = em.min(m0, r.K), em.max(size, 0)
        a = Access(span=Span(offset=em.sub(c, em.mul(em.sub(J, 1), Dq)), size=size), c_out=1, c_red=Dq)
        w = Access(span=Span(offset=m0, size=J, stride=T), c_out=0, c_red=1, inside=True)
        piece = Piece(out=Span(offset=phi, size=Nq, stride=r.S), red=J, ins=(a, w))
        if isinstance(r.Ns, int) and all(isinstance(x, int) for x in (J, Nq, a.span.offset)):
            trimmed = reaching_taps(piece, r.Ns)
            if trimmed is None:
                continue  # no tap of this phase reads A in bounds: it stays zero
            piece = trimmed
        pieces.append(piece)
    return pieces


def reaching_taps(piece: Piece, Ns: int) -> Optional[Piece]:
    """A static phase piece (phase_pieces) without the taps that read only
    A's zero padding: tap j' reads A[q + Dq*j' + o] (o its offset,
    0 <= q < Nq), inside A (0 <= . < Ns) for some q when

        -o - (Nq - 1) <= Dq*j' <= Ns - 1 - o,

    so it keeps j' in [lo, hi] (within [0, J - 1]): A's window starts at
    o + Dq*lo, the weight's at m0 + T*lo.  None when no tap is left (a
    layer whose extent is 1 with padding 1 keeps 1 of its 3 taps)."""
    a, w = piece.ins
    J, Nq, o, Dq = piece.red, piece.out.size, a.span.offset, a.c_red
    m0 = w.span.offset
    assert isinstance(J, int) and isinstance(Nq, int) and isinstance(o, int) and isinstance(m0, int)
    lo = max(0, ceildiv(-o - (Nq - 1), Dq))
    hi = min(J - 1, (Ns - 1 - o) // Dq)
    if hi < lo:
        return None
    n = hi - lo + 1
    return replace(piece, red=n, ins=(
        replace(a, span=Span(offset=o + Dq * lo, size=Nq + Dq * (n - 1))),
        replace(w, span=Span(offset=m0 + w.span.stride * lo, size=n, stride=w.span.stride)),
    ))


PIECES: dict[Kind, Callable[[IndexArith, Rel, Strategy], list[Piece]]] = {
    Kind.GATHER: gather_pieces,
    Kind.SCATTER: scatter_pieces,
    Kind.WEIGHT: weight_pieces,
}


def pieces(em: IndexArith, kind: Kind, r: Rel, strategy: Strategy) -> list[Piece]:
    """The pieces of `kind` along one dim cut by `strategy`."""
    if strategy == Strategy.PHASES:
        return phase_pieces(em, r)
    return PIECES[kind](em, r, strategy)
