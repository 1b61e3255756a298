"""The outputs of a scatter cut by output phases, interleaved by one op:
PhaseOutputs (the GPU profile's phase pieces, reading each position's phase
with tensor.extract) and interleave (the CPU forms' col2im_window and
channels-last phases: affine reads, the phase a loop of its own).

Along a dim of stride S the phase pieces of a scatter write the positions
b = S*q + phi (0 <= q < Nq_phi) of the output, one phase phi each
(relation.phase_pieces).  Each combination of phases keeps its own dense
tensor P_phi (its tile, computed from zeros), and one linalg.generic over
the whole output reads them back:

    out[lead..., b...] = P_phi[lead..., min(q, Nq_phi - 1)...]
                         with q = b div S, phi = b mod S per dim

(an arith.select over the phases; the clamp keeps the reads of the phases
not chosen in bounds; a phase with no tap reads as zero).  Instead of one
strided tensor.insert_slice per phase -- each a slow_memcpy dispatch in
IREE -- the output is one elementwise op, which IREE fuses with the op that
consumes the gradient (Emission.interleave_phases).  Static spatial sizes
only (a phase of dynamic size may be empty, and its clamped read would be
out of bounds).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from typing import Optional

from ...dialects import arith, linalg, tensor
from ...ir.affine import AffineMap, d
from ...ir.builder import Builder
from ...ir.core import Value
from ...ir.types import FloatType
from .emit import Emitter, Ix, static
from .relation import Rel, Span


def interleavable(spatial: Sequence[Ix], pieces: Sequence[Sequence[Span]]) -> bool:
    """Whether PhaseOutputs takes these pieces: static output sizes, every
    piece's span static with offset < stride (one phase each, dense from q = 0),
    at least one dim strided."""
    if not pieces or not all(isinstance(x, int) for x in spatial):
        return False
    for spans in pieces:
        if not all(isinstance(sp.size, int) and isinstance(sp.offset, int) and 0 <= sp.offset < sp.stride for sp in spans):
            return False
    return any(sp.stride > 1 for sp in pieces[0])


class PhaseOutputs:
    """The accumulators of the phase pieces of a scatter, one dense tensor
    per combination of phases (the same interface as outputs.Outputs: slot,
    accs, writers, finish)."""

    DIRECT = ("direct",)

    def __init__(self, em: Emitter, lead: list[Ix], spatial: list[Ix], acc_type: FloatType, pieces: Sequence[Sequence[Span]]):
        self.em, self.lead, self.spatial, self.acc_type = em, lead, spatial, acc_type
        self.accs: dict[tuple, Value] = {}
        self.spans: dict[tuple, Sequence[Span]] = {self.key(sp): sp for sp in pieces}
        self.writers: Counter = Counter(self.key(sp) for sp in pieces)
        self.strides = [sp.stride for sp in pieces[0]]
        self.sizes = [static(n) for n in spatial]

    @staticmethod
    def key(spans: Sequence[Span]) -> tuple:
        """The phases of a piece's output positions, one per dim."""
        return tuple(sp.offset for sp in spans)

    def slot(self, spans: Sequence[Span]) -> tuple[tuple, Value, list[Ix], list[Ix], list[int]]:
        """(key, accumulator, offsets, sizes, strides): the piece's own tensor, whole."""
        key = self.key(spans)
        sizes = self.lead + [sp.size for sp in spans]
        if key not in self.accs:
            self.accs[key] = self.em.zeros(sizes, self.acc_type)
        return key, self.accs[key], [0] * len(sizes), self.em.shape(self.accs[key]), [1] * len(sizes)

    def finish(self) -> Value:
        """The output: one linalg.generic reading each position from its phase (module docstring)."""
        em = self.em
        rank = len(self.lead) + len(self.spatial)
        out = em.empty(self.lead + self.spatial, self.acc_type)
        zero = em.float(0.0, self.acc_type)
        # every phase present (prod min(S, Nb) of them): the first needs no select
        every = len(self.accs) == math.prod(min(st, n) for st, n in zip(self.strides, self.sizes))
        limits = {key: self._limits(self.spans[key]) for key in self.accs}
        consts = {x: em.index(x) for x in {*self.strides, *itertools.chain(*self.accs), *itertools.chain(*limits.values())} if x is not None}

        def body(b: Builder, args: list[Value]) -> list[Value]:
            at = [linalg.index(b, i) for i in range(rank)]
            lead, spatial = at[: len(self.lead)], at[len(self.lead):]
            q = [arith.same_type(b, arith.DIVUI, x, consts[st]) if st > 1 else x for x, st in zip(spatial, self.strides)]
            phase = [arith.same_type(b, arith.REMUI, x, consts[st]) if st > 1 else None for x, st in zip(spatial, self.strides)]
            value = None if every else zero
            for key, acc in self.accs.items():
                idx = [x if top is None else arith.same_type(b, arith.MINUI, x, consts[top]) for x, top in zip(q, limits[key])]
                v = tensor.extract(b, acc, lead + idx)
                value = v if value is None else arith.select(b, _is_phase(b, phase, key, consts), v, value)
            assert value is not None
            return [value]

        return em.generic([], [out], [AffineMap.identity(rank)], ["parallel"] * rank, body)[0]

    def _limits(self, spans: Sequence[Span]) -> list[int | None]:
        """Per dim the last q of the phase where a position of another phase
        could read past it (else None: no clamp)."""
        out: list[int | None] = []
        for sp, n in zip(spans, self.sizes):
            top = static(sp.size) - 1
            out.append(top if top < (n - 1) // sp.stride else None)
        return out


def interleave(em: Emitter, phases: dict[tuple, Value], out_lead: list[Ix], rels: Sequence[Rel], quot: list[Ix], acc_type: FloatType,
               trail: Sequence[Ix] = (), at: Optional[Sequence[int]] = None) -> Value:
    """out[.., b, ..] = P_{(b + P) mod S}[.., (b + P) div S, ..] per strided
    dim (a phase key: per dim its phase r, None where S = 1; a phase absent
    reads as zero): one elementwise op writing [.., q, r, ..] (r the phase,
    a loop of its own), collapsed to [.., S*q + r, ..] and sliced at P.
    Affine reads only, no index division.  The phases are [lead.., q..,
    trail..] tensors (trail: dims after the spatial ones, a channels-last
    phase's channel).  at: where out starts in the collapsed dims (default
    P on the strided dims: phases keyed by (b + P) mod S)."""
    lead = len(out_lead)
    shape: list[Ix] = list(out_lead)
    pos_loop: list[int] = []
    phase_loop: list[Optional[int]] = []
    for r, q in zip(rels, quot):
        pos_loop.append(len(shape))
        shape.append(q)
        if r.S > 1:
            phase_loop.append(len(shape))
            shape.append(r.S)
        else:
            phase_loop.append(None)
    tail = list(range(len(shape), len(shape) + len(trail)))
    shape += list(trail)
    rank = len(shape)
    keys = list(phases)
    in_map = AffineMap.from_exprs(rank, [d(x) for x in [*range(lead), *pos_loop, *tail]])

    zero = em.float(0.0, acc_type)
    consts = {ph: em.index(ph) for key in keys for ph in key if ph is not None}

    def body(b: Builder, args: list[Value]) -> list[Value]:
        index = {x: linalg.index(b, x) for x in phase_loop if x is not None}
        value = zero
        for key, v in zip(keys, args):
            cond = None
            for ph, x in zip(key, phase_loop):
                if x is None:
                    continue
                eq = arith.cmpi(b, "eq", index[x], consts[ph])
                cond = eq if cond is None else arith.same_type(b, arith.ANDI, cond, eq)
            assert cond is not None
            value = arith.select(b, cond, v, value)
        return [value]

    merged = em.generic([phases[k] for k in keys], [em.empty(shape, acc_type)], [in_map] * len(keys) + [AffineMap.identity(rank)], ["parallel"] * rank, body)[0]
    groups = [[x] for x in range(lead)] + [[p] if ph is None else [p, ph] for p, ph in zip(pos_loop, phase_loop)] + [[x] for x in tail]
    flat = em.collapse(merged, groups)
    start: list[Ix] = [0] * lead
    start += list(at) if at is not None else [0 if r.S == 1 else r.P for r in rels]
    start += [0] * len(trail)
    return em.extract_slice(flat, start, [*out_lead, *(r.Nb for r in rels), *trail], [1] * len(start))


def _is_phase(b: Builder, phase: Sequence[Value | None], key: tuple, consts: dict[int, Value]) -> Value:
    """b mod S == phi along every strided dim (an i1)."""
    cond = None
    for r, phi in zip(phase, key):
        if r is None:
            continue
        eq = arith.cmpi(b, "eq", r, consts[phi])
        cond = eq if cond is None else arith.same_type(b, arith.ANDI, cond, eq)
    assert cond is not None
    return cond
