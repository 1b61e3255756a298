"""A kernel as a plan of pieces, and the loop that emits one tile per
combination of pieces (one piece per spatial dim), each dim cut by its
strategy (choose_strategy, decided once per kernel: decide).

The n-D op of a piece combination reads one slice of each input (zero-padded
once, as far as any piece reads outside it) and writes one slice of an
accumulator (outputs.Outputs); the form (generic_form, matmul_forms) decides
which ops compute the tile.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ...ir.core import Value
from ...ir.types import ranked
from .cost import FOLD
from .device import DeviceProfile
from .emit import Emitter, IndexArith, Ix
from .outputs import Outputs
from .packed import mmt4d_plan
from .phases import PhaseOutputs, interleavable
from .relation import PIECES, Kind, Piece, Rel, Span, Strategy, pieces
from .request import Col2im, Emission, KernelRequest, KernelStats, Peel
from .roles import KERNELS, from_roles, present, to_roles
from .taps import tap_blocks

Combo = tuple[Piece, ...]
"""One piece per spatial dim."""


@dataclass(frozen=True)
class KernelPlan:
    """A kernel in role layout: its inputs with one dim per present role
    (`in_roles`), the parallel and reduction roles of its loops, the pieces
    of each spatial dim, and the inputs zero-padded (with their left
    paddings per spatial dim, `shifts`)."""

    ins: tuple[Value, Value]
    in_roles: list[list[str]]
    out_roles: list[str]
    par: list[str]
    red: list[str]
    per_dim: list[list[Piece]]
    strategies: list[Strategy]
    padded: list[Value]
    shifts: list[list[Ix]]
    overlapping: bool  # taps of a gather or a scatter overlap: they accumulate
    tap_blocks: dict[tuple[int, ...], Value] = field(default_factory=dict)  # input 1 per combination (taps.py), by piece index per dim

    @property
    def nd(self) -> int:
        return len(self.per_dim)

    def loop(self, role: str) -> int:
        """The loop of a non-spatial role: parallel roles, then the output
        loops of the spatial dims, then reduction roles."""
        if role in self.par:
            return self.par.index(role)
        return len(self.par) + self.nd + self.red.index(role)

    def out_loop(self, i: int) -> int:
        return len(self.par) + i

    def combos(self) -> list[Combo]:
        return list(itertools.product(*self.per_dim))


def choose_strategy(kind: Kind, em: IndexArith, r: Rel, policy: Peel, device: DeviceProfile) -> Strategy:
    """How to cut one dim: scatter by taps (by output phases over the
    flipped weight when the kernel size is dynamic or the target has no
    tap_updates); a static dim is "peeled" when its "padded" form would
    waste more than the costs' peel_waste of its multiply-adds; a dynamic
    dim goes by taps (exact at any size) unless the policy is `never` or
    the target has no dynamic_pieces."""
    if kind == Kind.SCATTER:
        return Strategy.TAPS if isinstance(r.K, int) and device.builds.tap_updates else Strategy.PHASES
    if not isinstance(r.K, int):
        return Strategy.PADDED
    if not r.static:
        return Strategy.TAPS if policy != Peel.NEVER and device.builds.dynamic_pieces else Strategy.PADDED
    if policy == Peel.NEVER:
        return Strategy.PADDED
    if policy == Peel.ALWAYS:
        return Strategy.PEELED
    executed = sum(p.macs() or 0 for p in PIECES[kind](em, r, Strategy.PADDED))
    return Strategy.PEELED if executed > 0 and r.useful() < (1 - device.costs.peel_waste) * executed else Strategy.PADDED


def choose_col2im(rels: Sequence[Rel]) -> Col2im:
    """How a scatter in the matmul forms sums its taps: WINDOW
    (col2im_window) where every spatial dim is static with P >= 0 and
    D = 1 along every strided dim, else TAPS (col2im_taps: exact at any
    padding and dilation)."""
    return Col2im.WINDOW if all(r.static and r.P >= 0 and (r.S == 1 or r.D == 1) for r in rels) else Col2im.TAPS


SCATTER_MATMUL_TYPES = ("bf16",)
"""Element types whose dense stride-1 scatter in the channels-last form is
emitted as im2col of the padded grad_output and one packed matmul
(channels_last._scatter_im2col) rather than `conv_2d_nhwc_hwcf`: IREE's
bf16 convolution runs at ~1/3 of its bf16 mmt4d microkernels
(docs/decisions.md, SCATTER_MATMUL_TYPES)."""


def scatter_matmul(req: KernelRequest) -> bool:
    """Whether a dense scatter (not Ca = Cb = 1) in the channels-last form
    takes _scatter_im2col: its element type (of grad_output, ins[0]) is
    listed and the matmul [Cb, Ca*K...] x [Ca*K..., N*Nb...] is packed by
    `--matmul-tiles` (never with the default `none`: without the mmt4d
    microkernels the named convolution is the faster form)."""
    roles = req.roles
    if req.kind != Kind.SCATTER or (roles["ca"] == 1 and roles["cb"] == 1) or not req.choices.tiles:
        return False
    element = str(ranked(req.ins[0].type).element_type)
    if element not in SCATTER_MATMUL_TYPES:
        return False
    sizes = [roles["ca"], roles["cb"], roles["n"], *(r.K for r in req.rels), *(r.Nb for r in req.rels)]
    if not all(isinstance(x, int) for x in sizes):
        return False  # dynamic: the channels-last form takes static kernels only
    rows = roles["ca"] * math.prod(r.K for r in req.rels)  # type: ignore[operator,misc]
    positions = roles["n"] * math.prod(r.Nb for r in req.rels)  # type: ignore[operator,misc]
    return mmt4d_plan(roles["cb"], positions, rows, element, req.choices.tiles) is not None


def decide(req: KernelRequest) -> KernelRequest:
    """req with its Emission decided from its peel policy, its profile
    (what the target builds, its costs), its shapes and element type and
    its matmul tiles: once per kernel where its form is chosen
    (registry.choose), again for a variant of another peel policy or
    other matmul tiles."""
    device, builds = req.choices.device, req.choices.device.builds
    emission = Emission(
        strategies=tuple(choose_strategy(req.kind, FOLD, r, req.choices.peel, device) for r in req.rels),
        interleave_phases=not builds.strided_inserts, dense_taps=not builds.strided_filter, image_first=not builds.image_second,
        weight_spatial_first=not builds.channels_first_weight, tap_weight_first=not builds.quick_tap_products, symmetric_pad=not builds.own_pads,
        col2im=choose_col2im(req.rels), scatter_matmul=scatter_matmul(req),
    )
    return replace(req, emission=emission)


def strategies(req: KernelRequest) -> tuple[Strategy, ...]:
    """The decided cut of each spatial dim of req (decide)."""
    assert len(req.emission.strategies) == len(req.rels), "a request whose emission is not decided (tiles.decide)"
    return req.emission.strategies


def plan_decided(em: Emitter, req: KernelRequest) -> KernelPlan:
    """plan_kernel with each dim cut as req's emission decided."""
    return plan_kernel(em, req, strategies(req))


def plan_kernel(em: Emitter, req: KernelRequest, strategies: Sequence[Strategy]) -> KernelPlan:
    """Reshape the inputs to roles, cut each spatial dim by its strategy,
    flip the weight along the dims cut by output phases, and pad."""
    kdef = KERNELS[req.kind]
    live = present(req.roles)
    ins = (to_roles(em, req.ins[0], req.layouts[0], req.roles), to_roles(em, req.ins[1], req.layouts[1], req.roles))
    in_roles = [[x for x in names if x in live] for names in kdef.inputs]
    per_dim = [pieces(em, req.kind, r, st) for r, st in zip(req.rels, strategies)]
    flipped = [i for i, st in enumerate(strategies) if st == Strategy.PHASES]
    blocks: dict[tuple[int, ...], Value] = {}
    if flipped and req.emission.dense_taps and len(flipped) == len(strategies):
        blocks, per_dim = _tap_copy(em, ins[1], len(in_roles[1]), per_dim)
    elif flipped:  # phase pieces read the weight flipped along their dims
        ins = (ins[0], em.reverse(ins[1], [len(in_roles[1]) + i for i in flipped]))
    floors: list[list[Ix]] = [[0] * len(per_dim), [0] * len(per_dim)]
    if req.kind == Kind.WEIGHT and req.emission.symmetric_pad and req.image_padding:
        floors[1] = list(req.image_padding)  # the image padded as the forward convolution pads it
    padded, shifts = _pad_inputs(em, ins, in_roles, per_dim, floors)
    return KernelPlan(
        ins=ins, in_roles=in_roles, out_roles=[x for x in kdef.output if x in live],
        par=[r for r in kdef.parallel if r in live], red=[r for r in kdef.reduction if r in live],
        per_dim=per_dim, strategies=list(strategies), padded=padded, shifts=shifts,
        overlapping=req.kind != Kind.WEIGHT and Strategy.TAPS in strategies, tap_blocks=blocks,
    )


def _tap_copy(em: Emitter, w: Value, lead: int, per_dim: list[list[Piece]]) -> tuple[dict[tuple[int, ...], Value], list[list[Piece]]]:
    """The weight taps of every combination of phase pieces, each copied
    dense (taps.tap_blocks): a piece's weight span (m0, J, T) indexes the
    flipped weight Wf[m] = W[K-1-m], so its taps are W[K-1-m0 - T*t]
    (0 <= t < J).  Returns each combination's block (by the index of its
    piece per dim) and the pieces reading their block whole (span 0..J)."""
    keys = list(itertools.product(*[range(len(d)) for d in per_dim]))
    blocks = []
    for key in keys:
        spans = [per_dim[i][k].ins[1].span for i, k in enumerate(key)]
        blocks.append([(em.sub(em.sub(em.dim(w, lead + i), 1), sp.offset), sp.stride, sp.size) for i, sp in enumerate(spans)])
    values = tap_blocks(em, w, lead, blocks)
    dense = [[replace(p, ins=(p.ins[0], replace(p.ins[1], span=Span(0, p.ins[1].span.size)))) for p in d] for d in per_dim]
    return dict(zip(keys, values)), dense


def _pad_inputs(
    em: Emitter, ins: tuple[Value, Value], in_roles: list[list[str]], per_dim: list[list[Piece]], floors: list[list[Ix]],
) -> tuple[list[Value], list[list[Ix]]]:
    """Zero-pad each input once, as far as any piece reads outside it:
    low = max(0, -offset), high = max(0, offset + stride*(size-1) + 1 - dim)
    over the pieces' spans; where low equals floors[j][i] (static), high is
    at least that too (high = low = P: the padding of the forward
    convolution, whose padded operand IREE then computes once for both).
    Returns the padded inputs and their low paddings along the spatial dims."""
    padded = []
    shifts: list[list[Ix]] = []
    for j, value in enumerate(ins):
        lead = len(in_roles[j])
        low: list[Ix] = [0] * lead
        high: list[Ix] = [0] * lead
        for i, dim_pieces in enumerate(per_dim):
            size = em.dim(value, lead + i)
            lo: Ix = 0
            hi: Ix = 0
            for piece in dim_pieces:
                if piece.ins[j].inside:
                    continue
                span = piece.ins[j].span
                end = em.add(span.offset, em.mul(em.sub(span.size, 1), span.stride))
                lo = em.max(lo, em.sub(0, span.offset))
                hi = em.max(hi, em.sub(em.add(end, 1), size))
            floor = floors[j][i]
            if isinstance(floor, int) and floor > 0 and lo == floor and isinstance(hi, int):
                hi = max(hi, floor)
            low.append(lo)
            high.append(hi)
        padded.append(em.pad(value, low, high))
        shifts.append(low[lead:])
    return padded, shifts


@dataclass(frozen=True)
class Tile:
    """What a form computes for one piece combination: the input slices it
    reads, the slice of the accumulator it starts from (`init`) and whether
    it adds to what is there (`accumulate`) or starts from zero."""

    combo: Combo
    ins: tuple[Value, Value]
    init: Value
    accumulate: bool


TileFn = Callable[[Emitter, KernelRequest, KernelPlan, Tile, KernelStats], Value]
"""A form: the ops computing one tile; returns the tile's value."""


def emit_tiles(em: Emitter, req: KernelRequest, plan: KernelPlan, tile_fn: TileFn, stats: KernelStats) -> Value:
    """One tile per piece combination, each inserted into its accumulator;
    returns the sum in role layout [out_roles..., spatial...]."""
    combos = plan.combos()
    outputs = _outputs(em, req, plan, combos)
    for combo in combos:
        in_slices = tuple(_in_slice(em, plan, j, value, combo) for j, value in enumerate(plan.padded))
        key, acc, out_off, out_sizes, out_strides = outputs.slot([p.out for p in combo])
        # Overlapping pieces (taps) add into what is there; a piece alone in its
        # accumulator starts from a fresh zero tile like a disjoint one.
        accumulate = plan.overlapping and (key == outputs.DIRECT or outputs.writers[key] > 1)
        if accumulate or em.is_whole(acc, out_off, out_sizes, out_strides):
            out_slice = em.extract_slice(acc, out_off, out_sizes, out_strides)  # taps accumulate
        else:
            # Pieces of gather and weight are disjoint: each computes into a
            # fresh zero tile, which IREE fuses into the op's dispatch.
            out_slice = em.zeros(out_sizes, req.acc_type)
        tile = Tile(combo=combo, ins=(in_slices[0], in_slices[1]), init=out_slice, accumulate=accumulate)
        outputs.accs[key] = em.insert_slice(tile_fn(em, req, plan, tile, stats), acc, out_off, out_sizes, out_strides)
    return outputs.finish()


def _outputs(em: Emitter, req: KernelRequest, plan: KernelPlan, combos: list[Combo]) -> Outputs | PhaseOutputs:
    """The accumulators of the pieces: a strided scatter cut by phases
    interleaves its phases by one op where the emission says
    interleave_phases (phases.py), else outputs.Outputs."""
    lead, spatial, spans = [req.roles[r] for r in plan.out_roles], list(req.out_spatial), [[p.out for p in combo] for combo in combos]
    phased = req.emission.interleave_phases and all(st == Strategy.PHASES for st in plan.strategies)
    if phased and interleavable(spatial, spans):
        return PhaseOutputs(em, lead, spatial, req.acc_type, spans)
    return Outputs(em, lead, spatial, req.acc_type, spans)


def _in_slice(em: Emitter, plan: KernelPlan, j: int, value: Value, combo: Combo) -> Value:
    """The slice of padded input j that the pieces of `combo` read (the
    weight's own block where the plan has tap_blocks)."""
    if j == 1 and plan.tap_blocks:
        return plan.tap_blocks[tuple(plan.per_dim[i].index(p) for i, p in enumerate(combo))]
    lead = len(plan.in_roles[j])
    offsets = [0] * lead + [em.add(p.ins[j].span.offset, plan.shifts[j][i]) for i, p in enumerate(combo)]
    sizes = em.shape(value)[:lead] + [p.ins[j].span.size for p in combo]
    strides = [1] * lead + [p.ins[j].span.stride for p in combo]
    return em.extract_slice(value, offsets, sizes, strides)


def emit_tiled(em: Emitter, req: KernelRequest, tile_fn: TileFn, stats: KernelStats) -> Value:
    """req as one tile_fn tile per piece combination (plan_decided,
    emit_tiles), returned in req.out_layout."""
    return from_roles(em, emit_tiles(em, req, plan_decided(em, req), tile_fn, stats), req.out_layout, req.roles)
