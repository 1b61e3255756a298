"""The generic form: each tile of a kernel as one `linalg.generic`.

Loops: the parallel roles, one output loop o per spatial dim, the reduction
roles, then one reduction loop r per spatial dim whose piece reduces over
more than one index.  Input j of a piece is read at c_out*o + c_red*r + const
along each spatial dim (relation.Access), the output at o:

    out[par..., o...] (+)= sum_{red..., r...} in0[...] * in1[...]

It serves every kernel and fits every request: the registry's FALLBACK,
a candidate of auto on every profile (generic_work: its cost).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Optional

from ...dialects import arith
from ...ir.affine import AffineConst, AffineExpr, AffineMap, d
from ...ir.builder import Builder
from ...ir.core import Value
from ...ir.types import Type
from ..kernel.cost import Work, channel_macs, dim_work, generic_rate, inserts, output_elements
from ..kernel.emit import Emitter, extend
from ..kernel.relation import Kind, Strategy
from ..kernel.request import KernelRequest, KernelStats, Peel
from ..kernel.tiles import KernelPlan, Tile, emit_tiled, strategies
from .registry import FormDef, Variant, register


def multiply_add(b: Builder, x: Value, y: Value, acc: Value, acc_type: Type) -> Value:
    """acc + x * y, with x and y extended to the accumulator type first."""
    product = arith.same_type(b, arith.MULF, extend(b, x, acc_type), extend(b, y, acc_type))
    return arith.same_type(b, arith.ADDF, acc, product)


def tile_maps(plan: KernelPlan, tile: Tile) -> tuple[tuple[AffineMap, ...], tuple[str, ...]]:
    """The indexing maps (two inputs, output) and iterator types of a tile.
    A spatial reduction of extent 1 (a single tap) needs no loop."""
    layout = (
        len(plan.par), plan.nd, len(plan.red),
        tuple(tuple(plan.loop(x) for x in roles) for roles in plan.in_roles[:2]), tuple(plan.loop(x) for x in plan.out_roles),
    )
    accesses = tuple((p.red != 1, tuple((a.c_out, a.c_red, a.const) for a in p.ins)) for p in tile.combo)
    return _tile_maps(layout, accesses)


@functools.lru_cache(maxsize=4096)
def _tile_maps(layout: tuple, accesses: tuple) -> tuple[tuple[AffineMap, ...], tuple[str, ...]]:
    """tile_maps of the loop layout (parallel, spatial and reduction role
    counts, the loops of the inputs' and the output's roles) and of each
    piece's (reduces, ((c_out, c_red, const) per input)): once per distinct
    tile shape, the same map objects each time (their hashes are kept)."""
    n_par, nd, n_red, in_loops, out_loops = layout
    base = n_par + nd + n_red
    red_loops: dict[int, AffineExpr] = {}
    for i, (reduces, _) in enumerate(accesses):
        if reduces:
            red_loops[i] = d(base + len(red_loops))
    n_loops = base + len(red_loops)
    iterators = ("parallel",) * (n_par + nd) + ("reduction",) * (n_red + len(red_loops))
    maps = []
    for j in range(2):
        exprs: list[AffineExpr] = [d(x) for x in in_loops[j]]
        for i, (_, ins) in enumerate(accesses):
            c_out, c_red, const = ins[j]
            exprs.append(d(n_par + i) * c_out + red_loops.get(i, AffineConst(0)) * c_red + const)
        maps.append(AffineMap.from_exprs(n_loops, exprs))
    maps.append(AffineMap.from_exprs(n_loops, [d(x) for x in out_loops] + [d(n_par + i) for i in range(nd)]))
    return tuple(maps), iterators


def weight_first(req: KernelRequest, plan: KernelPlan, tile: Tile) -> bool:
    """Whether the tile takes the weight first where the emission says
    tap_weight_first: a phase of a strided scatter with a single tap
    along every dim (no spatial reduction: a contraction over channels)."""
    if not (req.kind == Kind.SCATTER and req.emission.tap_weight_first):
        return False
    strided = any(p.out.stride > 1 for p in tile.combo)
    return strided and all(st == Strategy.PHASES for st in plan.strategies) and all(p.red == 1 for p in tile.combo)


def generic_tile(em: Emitter, req: KernelRequest, plan: KernelPlan, tile: Tile, stats: KernelStats) -> Value:
    """The tile as one linalg.generic (multiply-adds in the accumulator
    type); a weight kernel takes B first where the emission says
    image_first, a single-tap phase of a scatter its weight first where it
    says tap_weight_first (the product stays A * B).  A weight tile writes
    a fresh accumulator [k..., lead...] where it says
    weight_spatial_first, transposed back to the tile's [lead..., k...]."""
    maps, iterators = tile_maps(plan, tile)
    acc_type = req.acc_type
    init, back = tile.init, None
    if req.kind == Kind.WEIGHT and req.emission.weight_spatial_first:
        assert not tile.accumulate  # weight pieces are disjoint: each tile starts from zero
        lead = len(plan.out_roles)
        out = maps[2]
        maps = (maps[0], maps[1], AffineMap.from_exprs(out.num_dims, [*out.results[lead:], *out.results[:lead]]))
        sizes = em.shape(tile.init)
        init = em.zeros([*sizes[lead:], *sizes[:lead]], acc_type)
        back = [plan.nd + i for i in range(lead)] + list(range(plan.nd))
    if (req.kind == Kind.WEIGHT and req.emission.image_first) or weight_first(req, plan, tile):
        swapped = (maps[1], maps[0], maps[2])
        summed = em.generic([tile.ins[1], tile.ins[0]], [init], swapped, iterators, lambda b, args: [multiply_add(b, args[1], args[0], args[2], acc_type)])[0]
    else:
        summed = em.generic(list(tile.ins), [init], maps, iterators, lambda b, args: [multiply_add(b, args[0], args[1], args[2], acc_type)])[0]
    if back is not None:
        summed = em.transpose(summed, back)
    macs = [p.macs() for p in tile.combo]
    lead_sizes = [req.roles[x] for x in plan.par + plan.red]
    total = 0
    if all(isinstance(m, int) for m in macs) and all(isinstance(s, int) for s in lead_sizes):
        total = 1
        for m in macs + lead_sizes:
            total *= m  # type: ignore[operator]
    stats.add(total)
    return summed


COMPACT_MIN_KERNEL = 3
"""Only depthwise kernels at least this wide in every dim (3x3, 5x5, 7x7)
have a compact variant, which competes with the pieces by cost (the build
weighed between a form's variants, cost.Costs.peel_build; docs/decisions.md,
compact)."""


def generic_work(req: KernelRequest) -> Work:
    """The work of req as linalg.generic tiles: each dim cut as req's
    emission decided (tiles.decide),

        multiply-adds (of this kernel's generic rate) = N*G*Ca*Cb * prod_dims sum_pieces |out| * |red|
        dispatches = tiles = prod_dims pieces (one op per piece combination)
        + cost.inserts: with more than one tile, a dispatch per tile and a
          copy of the result (4 bytes per element)

    (cost.dim_work: useful pairs where peeled or cut by taps, the padded
    window where padded)."""
    pairs = tiles = 1
    for r, strategy in zip(req.rels, strategies(req)):
        executed, count = dim_work(req.kind, r, strategy)
        pairs, tiles = pairs * executed, tiles * count
    ops = Work(**{generic_rate(req.kind, req.roles): float(channel_macs(req.roles) * pairs), "dispatch": float(tiles)})
    return ops + inserts(tiles, output_elements(req.kind, req.roles, req.rels))


def compact(req: KernelRequest) -> Optional[KernelRequest]:
    """req as one op over zero-padded operands (peel `never`: every dim
    padded, a scatter's cut by output phases over the flipped weight
    instead of one op per tap), where that variant applies: a depthwise
    kernel (Ca = Cb = 1), static, at least COMPACT_MIN_KERNEL wide in every
    dim, peel `auto` (docs/decisions.md, compact)."""
    roles = req.roles
    if req.choices.peel != Peel.AUTO or roles["ca"] != 1 or roles["cb"] != 1:
        return None
    if not all(r.static and isinstance(r.K, int) and r.K >= COMPACT_MIN_KERNEL for r in req.rels):
        return None
    if not all(isinstance(roles[x], int) for x in ("n", "g")):
        return None
    one_op = Strategy.PHASES if req.kind == Kind.SCATTER else Strategy.PADDED
    emission = dataclasses.replace(req.emission, strategies=(one_op,) * len(req.rels))
    return dataclasses.replace(req, choices=dataclasses.replace(req.choices, peel=Peel.NEVER), emission=emission)


def generic_variants(req: KernelRequest) -> list[Variant]:
    """`pieces` (req as asked) and, where it applies, `compact`."""
    one_op = compact(req)
    variants = [Variant("pieces", req, generic_work(req))]
    return variants + ([Variant("compact", one_op, generic_work(one_op))] if one_op is not None else [])


def emit_generic(em: Emitter, req: KernelRequest, stats: KernelStats) -> Value:
    """req as linalg.generic ops, one per piece combination (one in all
    for a compact variant's request)."""
    return emit_tiled(em, req, generic_tile, stats)


def always(req: KernelRequest) -> bool:
    """Every request."""
    return True


GENERIC = register(FormDef(name="generic", kinds=frozenset(Kind), fits=always, candidate=always, variants=generic_variants, emit=emit_generic, priority=1000))
