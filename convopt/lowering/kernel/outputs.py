"""The accumulators the pieces of a kernel write into.

The n-D op of a piece combination is inserted into a zero-initialised
accumulator (in f32 for f16/bf16).  Disjoint pieces start from a fresh zero
tile (IREE 3.13 fails to compile some convolution-like ops whose init is a
slice of another op's result); scatter taps, which overlap, accumulate into
the slice they update.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...ir.core import Value
from ...ir.types import FloatType
from .emit import Emitter, Ix, static
from .relation import Span


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
            dense = [(static(sp.offset) // sp.stride, static(sp.size), sp.stride) for sp in spans]
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
        dense: list[Ix] = [static(sp.offset) // sp.stride - a for sp, (a, _, _) in zip(spans, box)]
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
