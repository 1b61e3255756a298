"""The form "scatter" of the window kernel UNPOOL (pooling.py): grad_output
added to the positions the forward max pool's indices name.

It is the scatter of a depthwise convolution whose weight is the
indicator of the index, one value per (s, k): not a weight of k alone, so
the "columns"

    cols[n, c, k, s] = (idx[n, c, s] == flat(S*s + D*k - P)) ? grad_output[n, c, s] : 0

are made by one elementwise op and added into grad_input by col2im
(matmul_forms.col2im_taps: every tap adds its in-bounds slice; the padding
is never written): the variant `col2im`.  Where the windows tile the input
(S = K and D = 1 along every dim, e.g. C3D's 1x2x2 and 2x2x2 pools) each
position belongs to one window and the same values, laid out
[n, c, s0, k0, s1, k1, ...], are grad_input read at b + P: one op, a
collapse, and a slice (or zero padding) of the ends, the variant `tiled`,
the only one offered there (col2im's adds are then copies of it).
Out-of-bounds (s, k) never reach grad_input, so their flat index, which
may alias another position's, does not matter.

Work (cost.Work; n, c: batch and channels, taps = prod(K)):

    tiled   generic_depthwise = n*c*prod(Ns*K)    dispatch = 1
    col2im  generic_depthwise = n*c*taps*prod(Ns)  dispatch = 1 + taps
            copy_byte = n*c*taps*prod(Ns) * bytes(acc_type)   (each tap's add)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...dialects import arith, linalg
from ...ir.affine import AffineMap, d
from ...ir.builder import Builder
from ...ir.core import Value
from ..kernel.cost import DYNAMIC_SIZE, Work, size
from ..kernel.emit import Emitter, Ix, extend
from ..kernel.relation import Rel, tap_range
from ..kernel.request import KernelStats
from .matmul_forms import Dim, col2im_taps, position_dims, tap_dims
from .pooling import UnpoolRequest, WindowKind, add_term, index_equals, product
from .registry import FormDef, Variant, register

TILED, COL2IM = "tiled", "col2im"


def tiles_input(rels: Sequence[Rel]) -> bool:
    """Whether the windows tile the input: one window per position."""
    return all(r.S == r.k and r.D == 1 for r in rels)


def variant(req: UnpoolRequest) -> str:
    """The one variant offered: tiled where the windows tile the input."""
    return TILED if tiles_input(req.rels) else COL2IM


def scatter_variants(req: UnpoolRequest) -> list[Variant]:
    """The variant of req with its work (module docstring)."""
    lead = math.prod(x if x is not None else DYNAMIC_SIZE for x in req.lead)
    positions = math.prod(size(r.Ns) for r in req.rels)
    taps = math.prod(r.k for r in req.rels)
    if variant(req) == TILED:
        work = Work(generic_depthwise=lead * math.prod(size(r.Ns) * r.k for r in req.rels), dispatch=1)
    else:
        picked = lead * taps * positions
        work = Work(generic_depthwise=picked, copy_byte=picked * req.acc_type.width // 8, dispatch=1 + taps)
    return [Variant(variant(req), req, work)]  # type: ignore[arg-type]


def picked(em: Emitter, dy: Value, idx: Value, rels: Sequence[Rel], order: list[Dim], acc_type) -> Value:
    """out[order] = (idx[n, c, s] == flat(S*s + D*k - P)) ? dy[n, c, s] : 0
    over the dims of order (n, g, and k_i, s_i of every spatial dim), in
    acc_type (the module docstring's cols)."""
    loop = {name: j for j, name in enumerate(order)}
    nd = len(rels)
    read = AffineMap.from_exprs(len(order), [d(loop[Dim("n")]), d(loop[Dim("g")]), *(d(loop[Dim("s", i)]) for i in range(nd))])
    size_of = {Dim("n"): em.dim(dy, 0), Dim("g"): em.dim(dy, 1)}
    for i, r in enumerate(rels):
        size_of[Dim("k", i)], size_of[Dim("s", i)] = r.k, r.Ns
    out = em.empty([size_of[name] for name in order], acc_type)
    strides = [product(em, [r.Nb for r in rels[i + 1:]]) for i in range(nd)]  # flat(b) = sum b_i * strides[i]
    consts = [em.index(x) for x in strides]
    zero = em.float(0.0, acc_type)
    c = em.index

    def body(b: Builder, a: list[Value]) -> list[Value]:
        def op(name: str, x: Value, y: Value) -> Value:
            return arith.same_type(b, name, x, y)

        flat = None
        for i, r in enumerate(rels):
            pos = linalg.index(b, loop[Dim("s", i)])
            pos = op(arith.MULI, pos, c(r.S)) if r.S != 1 else pos
            if r.k > 1:
                tap = linalg.index(b, loop[Dim("k", i)])
                pos = op(arith.ADDI, pos, op(arith.MULI, tap, c(r.D)) if r.D != 1 else tap)
            pos = op(arith.SUBI, pos, c(r.P)) if r.P else pos
            flat = add_term(b, flat, pos, None if strides[i] == 1 else consts[i])
        assert flat is not None
        return [arith.select(b, index_equals(b, a[1], flat), extend(b, a[0], acc_type), zero)]

    return em.generic([dy, idx], [out], [read, read, AffineMap.identity(len(order))], ["parallel"] * len(order), body)[0]


def tiled_scatter(em: Emitter, dy: Value, idx: Value, rels: Sequence[Rel], acc_type) -> Value:
    """grad_input where the windows tile the input: picked in the layout
    [n, c, s0, k0, s1, k1, ...], collapsed to [n, c, S*s + k] (= b + P),
    then read at b + P for b < N: sliced, or padded with zeros where the
    windows end before the input does."""
    nd = len(rels)
    order = [Dim("n"), Dim("g")] + [x for i in range(nd) for x in (Dim("s", i), Dim("k", i))]
    full = em.collapse(picked(em, dy, idx, rels, order, acc_type), [[0], [1], *([2 + 2 * i, 3 + 2 * i] for i in range(nd))])
    lead = em.shape(full)[:2]
    covered = [em.mul(r.Ns, r.S) for r in rels]
    # positions 0 <= b < N are full[b + P]: pad where S*Ns < N + P, then slice N from P
    high = [em.max(0, em.sub(em.add(r.Nb, r.P), cov)) for r, cov in zip(rels, covered)]
    if any(h != 0 for h in high):
        full = em.pad(full, [0] * (2 + nd), [0, 0, *high])
    if all(r.P == 0 for r in rels) and all(isinstance(x, int) and x == 0 for x in high) and all(cov == r.Nb for cov, r in zip(covered, rels)):
        return full
    return em.extract_slice(full, [0, 0, *(r.P for r in rels)], [*lead, *(r.Nb for r in rels)], [1] * (2 + nd))


def col2im_scatter(em: Emitter, dy: Value, idx: Value, req: UnpoolRequest) -> Value:
    """grad_input as the columns added in by col2im (module docstring)."""
    nd, rels = len(req.rels), req.rels
    order = [Dim("n"), Dim("g"), *tap_dims(nd), *position_dims(nd)]
    cols = picked(em, dy, idx, rels, order, req.acc_type)
    ranges = [[tap_range(em, r, k) for k in range(r.k)] for r in rels]
    lead: list[Ix] = [x if x is not None else em.dim(dy, i) for i, x in enumerate(req.lead)]
    return col2im_taps(em, cols, order, lead, [Dim("n"), Dim("g")], rels, ranges, req.acc_type)


def emit_scatter(em: Emitter, req: UnpoolRequest, stats: KernelStats) -> Value:
    """grad_input [n, c, N...] in req.acc_type."""
    dy, idx = req.ins
    stats.add(int(scatter_variants(req)[0].work.generic_depthwise) if all(isinstance(x, int) for x in (*req.lead, *(r.Ns for r in req.rels))) else 0)
    if variant(req) == TILED:
        return tiled_scatter(em, dy, idx, req.rels, req.acc_type)
    return col2im_scatter(em, dy, idx, req)


SCATTER = register(FormDef(
    name="scatter", kinds=frozenset({WindowKind.UNPOOL}), fits=lambda req: True, candidate=lambda req: True,  # type: ignore[arg-type]
    variants=scatter_variants, emit=emit_scatter, priority=100,  # type: ignore[arg-type]
))
