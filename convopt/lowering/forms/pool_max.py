"""The form "reduction" of the window kernel MAX_POOL (pooling.py): max
pooling's forward as gathers over the convolution relation
(../kernel/relation.py): along each spatial dim, output position s reads
the input positions b = S*s + D*k - P of its taps k, and

    y[n, c, s]   = max_{k: 0 <= b < N} x[n, c, b]
    idx[n, c, s] = flat(b) of the first k, in the window's row-major order,
                   with x[n, c, b] > y so far or x[n, c, b] NaN
                   (the first in-bounds tap when there is none)

with flat(b) = sum_i b_i * prod_{j > i} N_j over the input's spatial
sizes: PyTorch's CPU kernels (`val > maxval || isnan(val)`, initial index
the window's first in-bounds position), so that ties take the first
maximum and a NaN the last NaN.

The input is padded with -inf to exactly the extent the windows read,
S*(Ns - 1) + D*(K - 1) + 1 from -P (relation.extent; sliced where the
windows stop short of the input's end), and read at S*s + D*k: no negative
coefficient in any map.  A `tensor.empty` of the kernel's shape gives the
tap loops their extents.  Two reductions over the taps, each one
vectorisable op: the values with arith.maximumf (a NaN propagates, the
-inf padding never wins: every window holds an input position), then the
indices from the values (max_indices: the least flat(b) among the
in-bounds taps equal to the maximum, or the greatest among the NaNs, as
one arith.minsi of keys, and an elementwise op that decodes them).  Max
is exact in every type: no widening of f16/bf16.  It fits every request
and every profile builds it.

Work (cost.Work; taps = n*c*prod(Ns)*prod(K), the taps one reduction visits):

    values            generic_depthwise = taps      dispatch = 1
    values, indices   generic_depthwise = 2*taps    dispatch = 3   (the keys' decode)
"""

from __future__ import annotations

import math
from typing import Optional

from ...dialects import arith, linalg
from ...ir.affine import AffineMap, d
from ...ir.attributes import IntegerAttr
from ...ir.builder import Builder
from ...ir.core import Value
from ...ir.types import FloatType, i64, ranked
from ..kernel.cost import DYNAMIC_SIZE, Work, size
from ..kernel.emit import Emitter, Ix
from ..kernel.relation import Rel, extent
from ..kernel.request import KernelStats
from .pooling import MaxPoolRequest, WindowKind, add_term, product
from .registry import FormDef, Variant, register


def padded_input(em: Emitter, x: Value, rels: list[Rel], ceil_mode: bool) -> Value:
    """x padded with -inf to the positions -P <= b < -P + E the windows
    read, E = extent = S*(Ns - 1) + D*(K - 1) + 1: P low, max(0, E - P - N)
    high (0 without padding and ceil_mode: then E <= N), then the first E
    (a slice where the windows stop short of N)."""
    ext = [extent(em, r, r.Ns, r.k) for r in rels]
    high = [em.max(0, em.sub(em.sub(e, r.P), r.Nb)) if r.P or ceil_mode else 0 for e, r in zip(ext, rels)]
    xp = em.pad(x, [0, 0, *(r.P for r in rels)], [0, 0, *high], fill=-math.inf)
    lead = em.shape(x)[:2]
    return em.extract_slice(xp, [0] * (2 + len(rels)), [*lead, *ext], [1] * (2 + len(rels)))


def overhangs(r: Rel, ceil_mode: bool) -> bool:
    """Whether some tap of some window may lie outside the input: with
    padding, or with ceil_mode unless the last window ends inside
    (without either, E <= N)."""
    inside = isinstance(r.Ns, int) and isinstance(r.Nb, int) and r.S * (r.Ns - 1) + r.D * (r.k - 1) < r.Nb
    return r.P > 0 or (ceil_mode and not inside)


def window_maps(rels: list[Rel]) -> tuple[AffineMap, AffineMap, AffineMap]:
    """Maps over the loops (n, c, s..., k...): the padded input at
    (n, c, S*s + D*k), the taps k (the window operand), the output (n, c, s)."""
    nd = len(rels)
    loops = 2 + 2 * nd
    read = AffineMap.from_exprs(loops, [d(0), d(1), *(d(2 + i) * r.S + d(2 + nd + i) * r.D for i, r in enumerate(rels))])
    taps = AffineMap.from_exprs(loops, [d(2 + nd + i) for i in range(nd)])
    return read, taps, AffineMap.from_exprs(loops, [d(i) for i in range(2 + nd)])


def max_values(em: Emitter, xp: Value, rels: list[Rel], dtype: FloatType) -> Value:
    """y[n, c, s] = max_k xp[n, c, S*s + D*k] with arith.maximumf from -inf
    (a NaN propagates; the -inf padding never wins: every window holds an
    input position)."""
    read, taps, out = window_maps(rels)
    nd = len(rels)
    init = em.fill(em.float(-math.inf, dtype), em.empty([*em.shape(xp)[:2], *(r.Ns for r in rels)], dtype))
    window = em.empty([r.k for r in rels], dtype)
    iterators = ["parallel"] * (2 + nd) + ["reduction"] * nd

    def body(b: Builder, a: list[Value]) -> list[Value]:
        return [arith.same_type(b, arith.MAXIMUMF, a[2], a[0])]

    return em.generic([xp, window], [init], [read, taps, out], iterators, body)[0]


def max_indices(em: Emitter, xp: Value, y: Value, rels: list[Rel], ceil_mode: bool) -> Value:
    """idx[n, c, s] from the values y (module docstring): flat(b) grows
    with k in row-major order, so the first maximum is the least flat(b)
    with x == y, and the last NaN (y NaN) the greatest one with x NaN.  One
    arith.minsi reduction (vectorisable, as the maximum is) of the keys
    flat(b), or -flat(b) where y is NaN, over the in-bounds taps that
    match (x == y or x NaN), from INT64_MAX; then idx = key, or -key where
    y is NaN."""
    read, taps, out = window_maps(rels)
    nd = len(rels)
    shape = em.shape(y)
    top = em.constant(IntegerAttr(2**63 - 1, i64), i64)
    init = em.fill(top, em.empty(shape, i64))
    window = em.empty([r.k for r in rels], ranked(y.type).element_type)
    flat_of = flat_position(em, rels, ceil_mode)

    def body(b: Builder, a: list[Value]) -> list[Value]:
        x, best, acc = a[0], a[1], a[3]
        flat, inside = flat_of(b)
        key = arith.convert(b, arith.INDEX_CAST, flat, i64)
        nan = arith.cmpf(b, "uno", best, best)
        key = arith.select(b, nan, arith.same_type(b, arith.SUBI, em.constant(IntegerAttr(0, i64), i64), key), key)
        match = arith.same_type(b, arith.ORI, arith.cmpf(b, "oeq", x, best), arith.cmpf(b, "uno", x, x))
        if inside is not None:
            match = arith.same_type(b, arith.ANDI, match, inside)
        return [arith.same_type(b, arith.MINSI, acc, arith.select(b, match, key, top))]

    iterators = ["parallel"] * (2 + nd) + ["reduction"] * nd
    keys = em.generic([xp, y, window], [init], [read, out, taps, out], iterators, body)[0]
    ident = AffineMap.identity(len(shape))

    empty_windows = any(r.D > 1 and r.P > 0 for r in rels)  # else every window holds an input position
    first_of = first_position(em, rels) if empty_windows else None

    def unkey(b: Builder, a: list[Value]) -> list[Value]:
        negated = arith.same_type(b, arith.SUBI, em.constant(IntegerAttr(0, i64), i64), a[0])
        out = arith.select(b, arith.cmpf(b, "uno", a[1], a[1]), negated, a[0])
        if first_of is not None:  # no tap in bounds: PyTorch's initial index
            out = arith.select(b, arith.cmpi(b, "eq", a[0], top), arith.convert(b, arith.INDEX_CAST, first_of(b), i64), out)
        return [out]

    return em.generic([keys, y], [em.empty(shape, i64)], [ident, ident, ident], ["parallel"] * len(shape), unkey)[0]


def first_position(em: Emitter, rels: list[Rel]):
    """A body helper over the output loops (n, c, s...): flat(b0) with, per
    dim, b0 = S*s + D*k0 - P the first tap at or after 0,
    k0 = max(0, ceildiv(P - S*s, D)): PyTorch's initial index, which it
    returns for a window with no tap inside the input (possible with
    dilation and padding: input 1, kernel 2, dilation 2, padding 1)."""
    nd = len(rels)
    strides = [em.index(product(em, [r.Nb for r in rels[i + 1:]])) if i < nd - 1 else None for i in range(nd)]
    c = em.index

    def at(b: Builder) -> Value:
        def op(name: str, x: Value, y: Value) -> Value:
            return arith.same_type(b, name, x, y)

        flat: Optional[Value] = None
        for i, r in enumerate(rels):
            start = op(arith.MULI, linalg.index(b, 2 + i), c(r.S))
            k0 = op(arith.MAXSI, op(arith.CEILDIVSI, op(arith.SUBI, c(r.P), start), c(r.D)), c(0))
            pos = op(arith.SUBI, op(arith.ADDI, start, op(arith.MULI, k0, c(r.D))), c(r.P))
            flat = add_term(b, flat, pos, strides[i])
        assert flat is not None
        return flat

    return at


def flat_position(em: Emitter, rels: list[Rel], ceil_mode: bool):
    """A body helper: (flat(b) as an index, whether 0 <= b < N along every
    dim that can overhang, or None) at the loops (n, c, s..., k...), with
    b = S*s + D*k - P and flat(b) = sum_i b_i * prod_{j > i} N_j."""
    nd = len(rels)
    sizes: list[Ix] = [r.Nb for r in rels]
    strides = [em.index(product(em, sizes[i + 1:])) if i < nd - 1 else None for i in range(nd)]
    bounds = [em.index(r.Nb) if overhangs(r, ceil_mode) else None for r in rels]
    consts = {v: em.index(v) for v in sorted({x for r in rels for x in (r.S, r.D) if x != 1} | {r.P for r in rels if r.P})}

    def at(b: Builder) -> tuple[Value, Optional[Value]]:
        def op(name: str, x: Value, y: Value) -> Value:
            return arith.same_type(b, name, x, y)

        flat: Optional[Value] = None
        inside: Optional[Value] = None
        for i, r in enumerate(rels):
            pos = op(arith.MULI, linalg.index(b, 2 + i), consts[r.S]) if r.S != 1 else linalg.index(b, 2 + i)
            tap = op(arith.MULI, linalg.index(b, 2 + nd + i), consts[r.D]) if r.D != 1 else linalg.index(b, 2 + nd + i)
            pos = op(arith.ADDI, pos, tap)
            pos = op(arith.SUBI, pos, consts[r.P]) if r.P else pos
            bound = bounds[i]
            if bound is not None:  # 0 <= pos < N, as one unsigned compare
                ok = arith.cmpi(b, "ult", pos, bound)
                inside = ok if inside is None else op(arith.ANDI, inside, ok)
            flat = add_term(b, flat, pos, strides[i])
        assert flat is not None
        return flat, inside

    return at


def taps_visited(lead: tuple, rels: list[Rel]) -> int:
    """n*c*prod(Ns)*prod(K): the taps one reduction visits (0 where a size is dynamic)."""
    sizes = [*lead, *(r.Ns for r in rels), *(r.k for r in rels)]
    return math.prod(sizes) if all(isinstance(s, int) for s in sizes) else 0


def reduction_variants(req: MaxPoolRequest) -> list[Variant]:
    """The one variant with its work (module docstring; a dynamic size counts as cost.DYNAMIC_SIZE)."""
    lead = math.prod(x if x is not None else DYNAMIC_SIZE for x in req.lead)
    taps = lead * math.prod(size(r.Ns) * r.k for r in req.rels)
    reductions = 1 + req.indices
    return [Variant("reduction", req, Work(generic_depthwise=reductions * taps, dispatch=1 + 2 * req.indices))]  # type: ignore[arg-type]


def emit_reduction(em: Emitter, req: MaxPoolRequest, stats: KernelStats) -> tuple[Value, ...]:
    """The values [n, c, Ns...] in req.dtype, then (req.indices) the indices in i64."""
    (x,), rels = req.ins, list(req.rels)
    xp = padded_input(em, x, rels, req.ceil_mode)
    results = [max_values(em, xp, rels, req.dtype)]
    if req.indices:
        results.append(max_indices(em, xp, results[0], rels, req.ceil_mode))
    for _ in results:
        stats.add(taps_visited(req.lead, rels))
    return tuple(results)


REDUCTION = register(FormDef(
    name="reduction", kinds=frozenset({WindowKind.MAX_POOL}), fits=lambda req: True, candidate=lambda req: True,  # type: ignore[arg-type]
    variants=reduction_variants, emit=emit_reduction, priority=100,  # type: ignore[arg-type]
))
