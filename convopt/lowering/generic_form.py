"""The generic form: each tile of a kernel as one `linalg.generic`.

Loops: the parallel roles, one output loop o per spatial dim, the reduction
roles, then one reduction loop r per spatial dim whose piece reduces over
more than one index.  Input j of a piece is read at c_out*o + c_red*r + const
along each spatial dim (relation.Access), the output at o:

    out[par..., o...] (+)= sum_{red..., r...} in0[...] * in1[...]
"""

from __future__ import annotations

from ..ir.affine import AffineConst, AffineExpr, AffineMap, d
from ..ir.builder import Builder
from ..ir.core import Value
from ..ir.types import Type
from .emit import Emitter, extend
from .request import KernelRequest, KernelStats
from .tiles import KernelPlan, Tile


def multiply_add(b: Builder, x: Value, y: Value, acc: Value, acc_type: Type) -> Value:
    """acc + x * y, with x and y extended to the accumulator type first."""
    product = b.value("arith.mulf", [extend(b, x, acc_type), extend(b, y, acc_type)], acc_type)
    return b.value("arith.addf", [acc, product], acc_type)


def tile_maps(plan: KernelPlan, tile: Tile) -> tuple[list[AffineMap], list[str]]:
    """The indexing maps (two inputs, output) and iterator types of a tile.
    A spatial reduction of extent 1 (a single tap) needs no loop."""
    nd, base = plan.nd, len(plan.par) + plan.nd + len(plan.red)
    red_loops: dict[int, AffineExpr] = {}
    for i, p in enumerate(tile.combo):
        if p.red != 1:
            red_loops[i] = d(base + len(red_loops))
    n_loops = base + len(red_loops)
    iterators = ["parallel"] * (len(plan.par) + nd) + ["reduction"] * (len(plan.red) + len(red_loops))
    maps = []
    for j in range(2):
        exprs: list[AffineExpr] = [d(plan.loop(x)) for x in plan.in_roles[j]]
        for i, p in enumerate(tile.combo):
            a = p.ins[j]
            exprs.append(d(plan.out_loop(i)) * a.c_out + red_loops.get(i, AffineConst(0)) * a.c_red + a.const)
        maps.append(AffineMap.from_exprs(n_loops, exprs))
    out_exprs = [d(plan.loop(x)) for x in plan.out_roles] + [d(plan.out_loop(i)) for i in range(nd)]
    maps.append(AffineMap.from_exprs(n_loops, out_exprs))
    return maps, iterators


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
