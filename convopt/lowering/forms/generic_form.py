"""The generic form: each tile of a kernel as one `linalg.generic`.

Loops: the parallel roles, one output loop o per spatial dim, the reduction
roles, then one reduction loop r per spatial dim whose piece reduces over
more than one index.  Input j of a piece is read at c_out*o + c_red*r + const
along each spatial dim (relation.Access), the output at o:

    out[par..., o...] (+)= sum_{red..., r...} in0[...] * in1[...]
"""

from __future__ import annotations

import functools

from ...ir.affine import AffineConst, AffineExpr, AffineMap, d
from ...ir.builder import Builder
from ...ir.core import Value
from ...ir.types import Type
from ..kernel.emit import Emitter, extend
from ..kernel.request import KernelRequest, KernelStats
from ..kernel.tiles import KernelPlan, Tile


def multiply_add(b: Builder, x: Value, y: Value, acc: Value, acc_type: Type) -> Value:
    """acc + x * y, with x and y extended to the accumulator type first."""
    product = b.value("arith.mulf", [extend(b, x, acc_type), extend(b, y, acc_type)], acc_type)
    return b.value("arith.addf", [acc, product], acc_type)


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


def generic_tile(em: Emitter, req: KernelRequest, plan: KernelPlan, tile: Tile, stats: KernelStats) -> Value:
    """The tile as one linalg.generic (multiply-adds in the accumulator type)."""
    maps, iterators = tile_maps(plan, tile)
    acc_type = req.acc_type
    summed = em.generic(list(tile.ins), [tile.init], maps, iterators, lambda b, args: [multiply_add(b, args[0], args[1], args[2], acc_type)])[0]
    macs = [p.macs() for p in tile.combo]
    lead_sizes = [req.roles[x] for x in plan.par + plan.red]
    total = 0
    if all(isinstance(m, int) for m in macs) and all(isinstance(s, int) for s in lead_sizes):
        total = 1
        for m in macs + lead_sizes:
            total *= m  # type: ignore[operator]
    stats.add(total)
    return summed
