"""The cost model the forms compete by (../forms/registry.py, `auto`).

Each form estimates, for a kernel request and each variant it can emit it
in (peeled or padded pieces, one compact op), the `Work` that variant
does: multiply-adds by what runs them (a linalg.generic of each kernel, a
matmul, a channels-last named convolution), the matmul's result elements,
the bytes its copies move and its dispatches (the ops IREE makes a
dispatch each).  A device class's `Costs` (its DeviceProfile's) give the
time of one unit of each, measured (bench/costfit.py); a variant's cost is

    time  = sum_f work.f * costs.f                       (ns, f over Work's fields)
    build = work.dispatch * costs.build                  (ns: IREE's build CPU time per
                                                          dispatch over the runs it is amortized on)
    total = time + build

and `auto` emits the variant of least total (ties: the form of lower
priority), each form offering its variant of least
`time + work.dispatch * costs.peel_build` (`Costs.within_form`): the
variants of one form (peeled pieces, padded, compact) weigh the build
more than the forms do against each other.  Nothing here emits IR: sizes
are folded (`FOLD`), a dynamic size counts as DYNAMIC_SIZE.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from ...ir.types import RankedTensorType
from .emit import IndexArith, Ix
from .relation import Kind, Rel, Strategy, pieces

DYNAMIC_SIZE = 16
"""What a dynamic batch, group count or spatial size counts as: a batch
people train with on CPUs (docs/decisions.md, DYNAMIC_SIZE)."""


@dataclass(frozen=True)
class Units:
    """The units of work, one field each: a Work counts them, a Costs
    prices one of each (the one list of them; FIELDS)."""

    generic: float = 0.0
    generic_weight: float = 0.0
    generic_depthwise: float = 0.0
    matmul: float = 0.0
    matmul_result: float = 0.0
    matmul_op: float = 0.0
    named: float = 0.0
    named_depthwise: float = 0.0
    named_weight: float = 0.0
    copy_byte: float = 0.0
    dispatch: float = 0.0
    packed: float = 0.0
    named_strided: float = 0.0


@dataclass(frozen=True)
class Work(Units):
    """What one variant of a form does for a kernel.  The multiply-adds
    are executed ones (padded positions too), by what runs them:
    generic (a gather or scatter), generic_weight (a weight kernel),
    generic_depthwise (any kernel with Ca = Cb = 1): linalg.generic ops
    (channels-first; IREE vectorizes them along the innermost spatial dim);
    matmul: linalg.matmul / batch_matmul, matmul_op: how many (each a
    fixed cost: a small piece's matmul runs far from peak); named (dense), named_depthwise
    (a depthwise gather or scatter), named_weight (the depthwise weight
    kernel, A as the window of a depthwise convolution): channels-last named
    convolutions.  matmul_result: elements of the
    matmuls' results (each one accumulator kept, loaded and stored: what
    makes a short contraction slow); copy_byte: bytes written by copies
    (im2col columns, col2im adds, transposes); dispatch: the ops IREE makes
    a dispatch each.  packed: multiply-adds of linalg.mmt4d (padded to
    its tiles), the data-tiled matmul IREE compiles to its CPU microkernels
    (packed.py; offered only by a profile that measured it,
    DeviceProfile.packed_tiles); named_strided: a dense channels-last named
    convolution with a stride over 1 (a strided gather: a transposed
    convolution's grad_input, a strided forward convolution), which IREE
    runs far slower per multiply-add than the stride-1 ones (unet-up's
    grad_input 2.6x im2col's time, convopt-calibrate on a Zen 5 host)."""

    def __add__(self, other: Work) -> Work:
        return Work(*(getattr(self, f) + getattr(other, f) for f in FIELDS))

    def macs(self) -> float:
        """The multiply-adds executed, whatever runs them."""
        return sum(getattr(self, f) for f in MAC_FIELDS)


FIELDS = tuple(f.name for f in fields(Units))
"""The units of Work, in order: the features bench/costfit.py fits."""

MAC_FIELDS = ("generic", "generic_weight", "generic_depthwise", "matmul", "named", "named_depthwise", "named_weight", "packed", "named_strided")
"""The Work fields that count multiply-adds."""

FITTED_MIN_MACS = 1 << 14
"""The fewest multiply-adds of a kernel the costs were fitted on
(bench/results/forms*.json: audio_encoder's conv_layers.13, 16384).  Below,
the estimate is an extrapolation, and SPEC section 5's MAC efficiency
decides what may compete: see within_fit."""

SMALL_MIN_EFFICIENCY = 0.9
"""Below FITTED_MIN_MACS a variant competes only if it executes at most
1/SMALL_MIN_EFFICIENCY of the multiply-adds of the most exact one (SPEC
section 5's efficiency target; docs/decisions.md, within_fit)."""


def within_fit(works: Sequence[Work]) -> list[bool]:
    """Which of a kernel's variants compete: all where the most exact one
    executes at least FITTED_MIN_MACS multiply-adds, else those within
    SMALL_MIN_EFFICIENCY of it."""
    least = min(w.macs() for w in works)
    if least >= FITTED_MIN_MACS:
        return [True] * len(works)
    return [w.macs() * SMALL_MIN_EFFICIENCY <= least for w in works]


@dataclass(frozen=True)
class Costs(Units):
    """A device class's measured cost of one unit of each Work field (ns
    per multiply-add, result element, byte, dispatch); the build cost of a
    dispatch (IREE's build CPU time per dispatch over the runs a build is
    amortized on): `build` between forms, `peel_build`, larger, between the
    variants of one form (docs/decisions.md, peel_build); and
    `peel_waste`: the `pieces` variant peels a static dim where zero
    padding would waste more than this fraction of its multiply-adds
    (tiles.choose_strategy; docs/decisions.md, peel_waste)."""

    build: float = 0.0
    peel_build: float = 0.0
    peel_waste: float = 0.05

    def time(self, work: Work) -> float:
        """The estimated run time of work, ns."""
        return sum(getattr(work, f) * getattr(self, f) for f in FIELDS)

    def total(self, work: Work) -> float:
        """time + build cost, ns: what forms compete by."""
        return self.time(work) + work.dispatch * self.build

    def within_form(self, work: Work) -> float:
        """time + the build cost between a form's variants, ns: what picks
        the variant a form offers."""
        return self.time(work) + work.dispatch * self.peel_build


def generic_rate(kind: Kind, roles: dict[str, Ix]) -> str:
    """The Work field of a kernel's linalg.generic multiply-adds."""
    if roles["ca"] == 1 and roles["cb"] == 1:
        return "generic_depthwise"
    return "generic_weight" if kind == Kind.WEIGHT else "generic"


FOLD = IndexArith()
"""The index arithmetic the cost model cuts static dims with (pieces, choose_strategy)."""


def size(x: Ix) -> int:
    """A size as the model counts it (DYNAMIC_SIZE when dynamic)."""
    return x if isinstance(x, int) else DYNAMIC_SIZE


def dim_work(kind: Kind, r: Rel, strategy: Strategy) -> tuple[int, int]:
    """(executed (output, reduction) pairs, pieces) of one spatial dim cut
    by strategy: the pieces' own sizes where static; a dynamic dim
    executes Ns * K (Nb * K scattered) in one piece."""
    if r.static:
        cut = pieces(FOLD, kind, r, strategy)
        return sum(p.macs() or 0 for p in cut), max(1, len(cut))
    return size(r.Nb if kind == Kind.SCATTER else r.Ns) * size(r.K), 1


def padded_pairs(kind: Kind, r: Rel) -> int:
    """The (position, tap) pairs a window over the zero-padded operand
    executes: Ns * K (a scatter as a gather over its output: Nb * K)."""
    return size(r.Nb if kind == Kind.SCATTER else r.Ns) * size(r.K)


def output_elements(kind: Kind, roles: dict[str, Ix], rels: Sequence[Rel]) -> int:
    """The kernel's result: N*G*Ca*Ns... (gather), N*G*Cb*Nb... (scatter),
    G*Ca*Cb*K... (weight)."""
    lead = {Kind.GATHER: ("n", "g", "ca"), Kind.SCATTER: ("n", "g", "cb"), Kind.WEIGHT: ("g", "ca", "cb")}[kind]
    out = 1
    for role in lead:
        out *= size(roles[role])
    for r in rels:
        out *= size({Kind.GATHER: r.Ns, Kind.SCATTER: r.Nb, Kind.WEIGHT: r.K}[kind])
    return out


def inserts(tiles: int, result: int, acc_bytes: int = 4) -> Work:
    """Tiles written into slices of one result: each insert a dispatch of
    its own (IREE copies a non-contiguous slice), all moving the result's
    bytes; nothing for one tile (it is the result)."""
    return Work(dispatch=float(tiles), copy_byte=float(acc_bytes * result)) if tiles > 1 else Work()


def channel_macs(roles: dict[str, Ix]) -> int:
    """N * G * Ca * Cb: the multiply-adds per (position, tap) pair."""
    out = 1
    for role in ("n", "g", "ca", "cb"):
        out *= size(roles[role])
    return out


def element_bytes(value: object) -> int:
    """Bytes per element of a tensor value (4 where unknown: a request
    built without IR, in a unit test)."""
    t = getattr(value, "type", None)
    if isinstance(t, RankedTensorType):
        return max(1, getattr(t.element_type, "width", 32) // 8)
    return 4
