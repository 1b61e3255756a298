"""The matmul forms of the three convolution kernels (`--conv-form=im2col`).

Each kernel becomes one (batch) matrix multiply on contiguous operands,
which IREE compiles at close to the machine's peak, plus copies that move no
more data than the tensors hold:

    gather   cols[g, (cb, k...), (n, s...)] = B[n, g, cb, S*s + D*k - P]       (im2col)
             out[n, g, ca, s...]           = sum_{(cb,k)} W[g, ca, (cb, k)] * cols[g, (cb, k), (n, s)]
    weight   cols[g, (n, s...), (cb, k...)] = B[n, g, cb, S*s + D*k - P]       (im2col)
             out[g, ca, cb, k...]          = sum_{(n,s)} A[g, ca, (n, s)] * cols[g, (n, s), (cb, k)]
    scatter  cols[g, (cb, k...), (n, s...)] = sum_ca W[g, (cb, k), ca] * A[g, ca, (n, s)]
             out[n, g, cb, S*s + D*k - P] += cols[g, cb, k, n, s]  for each tap k  (col2im)

(per spatial dim; g is absent when groups == 1).  B is zero-padded where the
windows read outside it, so the multiply executes the padded positions too:
its MAC efficiency is that of the padded generic form.  The col2im taps only
add: the taps of each output phase in one elementwise op over shifted slices
of the zero-padded cols (col2im_window), or, where that does not fit, each tap
exactly the positions it reaches in bounds (col2im_taps).

The form "im2col" of the registry (registry.py): it fits every kernel with
a matrix to multiply; its variants (peeled pieces or padded) compete by
their work (im2col_work) under auto.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Optional

from ...dialects import arith, linalg
from ...ir.affine import AffineExpr, AffineMap, d
from ...ir.builder import Builder
from ...ir.core import Value
from ...ir.types import FloatType, ranked
from ..kernel.cost import Work, dim_work, element_bytes, size
from ..kernel.dry import dry_work
from ..kernel.emit import Emitter, Ix, static, unit_groups
from ..kernel.outputs import Outputs
from ..kernel.packed import TileTable, mmt4d_plan, packed_matmul
from ..kernel.phases import interleave
from ..kernel.relation import Kind, Rel, Span, Strategy, tap_range
from ..kernel.request import Col2im, KernelRequest, KernelStats, Peel
from ..kernel.roles import from_roles
from ..kernel.tiles import Combo, KernelPlan, Tile, decide, emit_tiled, plan_decided, strategies
from .registry import FormDef, Variant, register


class Dim(NamedTuple):
    """A named dim of the matmul forms: a channel role (n, g, ca, cb), or,
    with `spatial` = i, the kernel tap k_i ("k") or the strided position s_i
    ("s") of spatial dim i."""

    name: str
    spatial: Optional[int] = None


def role_dims(roles: Sequence[str]) -> list[Dim]:
    return [Dim(r) for r in roles]


def tap_dims(nd: int) -> list[Dim]:
    return [Dim("k", i) for i in range(nd)]


def position_dims(nd: int) -> list[Dim]:
    return [Dim("s", i) for i in range(nd)]


def reorder(em: Emitter, v: Value, names: list[Dim], order: list[Dim]) -> Value:
    """Transpose v, whose dims are `names`, into `order` (no-op if equal)."""
    if names == order:
        return v
    return em.transpose(v, [names.index(n) for n in order])


def as_matrix(em: Emitter, v: Value, groups: Sequence[Sequence[int]]) -> Value:
    """Collapse v's dims by groups (each consecutive); an empty group becomes
    a dim of size 1."""
    nonempty = [list(g) for g in groups if g]
    if any(len(g) > 1 for g in nonempty) or len(nonempty) != ranked(v.type).rank:
        v = em.collapse(v, nonempty) if nonempty else v
    if len(nonempty) == len(groups):
        return v
    shape = iter(em.shape(v))
    sizes: list[Ix] = [next(shape) if g else 1 for g in groups]
    reassoc, trailing = unit_groups([bool(g) for g in groups])
    reassoc[-1] += trailing
    return em.expand(v, reassoc, sizes)


def batched_matmul(em: Emitter, lhs: Value, rhs: Value, batched: bool, acc_type: FloatType, tiles: TileTable = ()) -> tuple[Value, int]:
    """[b?, m, k] x [b?, k, n] -> [b?, m, n] in acc_type (linalg.matmul or
    linalg.batch_matmul, whose inputs may be narrower than the result; a
    matmul packed.mmt4d_plan tiles by `tiles` as pack, mmt4d, unpack), and
    the multiply-adds it executes: b*m*k*n, padded as packed (0 if dynamic)."""
    ls, rs = em.shape(lhs), em.shape(rhs)
    plan = None if batched else mmt4d_plan(ls[0], rs[1], ls[1], str(ranked(lhs.type).element_type), tiles)
    if plan is not None:  # data-tiled: 2-6x faster for bf16 under IREE's default flags
        return packed_matmul(em, lhs, rhs, acc_type, plan), plan.executed
    out_shape = ([ls[0]] if batched else []) + [ls[-2], rs[-1]]
    init = em.zeros(out_shape, acc_type)
    product = em.structured(linalg.BATCH_MATMUL if batched else linalg.MATMUL, [lhs, rhs], [init])[0]
    macs = 1
    for x in ls + [rs[-1]]:
        if not isinstance(x, int):
            return product, 0
        macs *= x
    return product, macs


def im2col(em: Emitter, b: Value, b_roles: list[Dim], order: list[Dim], rels: Sequence[Rel], offsets: Sequence[int]) -> Value:
    """cols[order...] = B[.., S*s + D*k + offset] over the named dims of order
    (roles, k0.., s0..); B is [b_roles..., b0..] (already padded so that
    every index is in bounds: offset = left padding - P)."""
    b_shape = em.shape(b)
    size_of: dict[Dim, Ix] = {}
    for i, r in enumerate(b_roles):
        size_of[r] = b_shape[i]
    for i, rel in enumerate(rels):
        size_of[Dim("k", i)] = rel.K
        size_of[Dim("s", i)] = rel.Ns
    loop = {name: j for j, name in enumerate(order)}
    exprs: list[AffineExpr] = [d(loop[r]) for r in b_roles]
    for i, rel in enumerate(rels):
        exprs.append(d(loop[Dim("s", i)]) * rel.S + d(loop[Dim("k", i)]) * rel.D + offsets[i])
    n = len(order)
    out = em.empty([size_of[name] for name in order], ranked(b.type).element_type)
    maps = [AffineMap.from_exprs(n, exprs), AffineMap.identity(n)]
    return em.generic([b], [out], maps, ["parallel"] * n, lambda bb, a: [a[0]])[0]


TapChoice = tuple[tuple[int, tuple[int, Ix]], ...]
"""One tap per spatial dim: (k, (first s, count))."""


def _tap_spans(rels: Sequence[Rel], tap: TapChoice) -> list[Span]:
    """The output positions b = S*s + D*k - P a tap reaches, per dim."""
    return [Span(offset=rels[i].S * lo + rels[i].D * k - rels[i].P, size=cnt, stride=rels[i].S) for i, (k, (lo, cnt)) in enumerate(tap)]


def _tap_slice(em: Emitter, cols: Value, cols_order: list[Dim], tap: TapChoice) -> Value:
    """The columns of one tap: its k fixed (size 1), its s range."""
    c_shape = em.shape(cols)
    c_off: list[Ix] = []
    c_sizes: list[Ix] = []
    for j, dim in enumerate(cols_order):
        if dim.name == "k":
            assert dim.spatial is not None
            c_off.append(tap[dim.spatial][0])
            c_sizes.append(1)
        elif dim.name == "s":
            assert dim.spatial is not None
            lo, cnt = tap[dim.spatial][1]
            c_off.append(lo)
            c_sizes.append(cnt)
        else:
            c_off.append(0)
            c_sizes.append(c_shape[j])
    return em.extract_slice(cols, c_off, c_sizes, [1] * len(cols_order))


def col2im_taps(em: Emitter, cols: Value, cols_order: list[Dim], out_lead: list[Ix], out_roles: list[Dim], rels: Sequence[Rel], tap_ranges, acc_type: FloatType) -> Value:
    """out[.., S*s + D*k - P] += cols[.., k, .., s] for every tap k, over the
    s it reaches in bounds (tap_ranges[i][k] = (first s, count) or None).
    The taps of one phase of a strided output add up in a dense tensor
    (outputs.Outputs); a tap alone in its phase is just copied."""
    nd = len(rels)
    taps: list[TapChoice] = list(itertools.product(*[[(k, rng) for k, rng in enumerate(tap_ranges[i]) if rng is not None] for i in range(nd)]))
    outputs = Outputs(em, out_lead, [rel.Nb for rel in rels], acc_type, [_tap_spans(rels, t) for t in taps])
    names = out_roles + position_dims(nd)
    loop = {name: j for j, name in enumerate(names)}
    exprs: list[AffineExpr] = [AffineMap.from_exprs(1, [0]).results[0] if n.name == "k" else d(loop[n]) for n in cols_order]
    maps = [AffineMap.from_exprs(len(names), exprs), AffineMap.identity(len(names))]
    parallel = ["parallel"] * len(names)
    for tap in taps:
        piece = _tap_slice(em, cols, cols_order, tap)
        key, acc, offsets, sizes, strides = outputs.slot(_tap_spans(rels, tap))
        if key == outputs.DIRECT or outputs.writers[key] > 1:  # add to what is there
            target = em.extract_slice(acc, offsets, sizes, strides)
            added = em.generic([piece], [target], maps, parallel, lambda b, a: [arith.same_type(b, arith.ADDF, a[1], a[0])])[0]
        else:  # the only tap of its phase: a copy into a fresh tile
            added = em.generic([piece], [em.empty(sizes, acc_type)], maps, parallel, lambda b, a: [a[0]])[0]
        outputs.accs[key] = em.insert_slice(added, acc, offsets, sizes, strides)
    return outputs.finish()


def col2im_window(em: Emitter, cols: Value, cols_order: list[Dim], out_lead: list[Ix], out_roles: list[Dim], rels: Sequence[Rel], acc_type: FloatType) -> Value:
    """col2im as one elementwise sum per output phase (Col2im.WINDOW, where
    tiles.choose_col2im allows it): every tap of the phase is a shifted
    slice of cols, added in one op.  Per dim, b the output position:

        S = 1:  out[.., b]  = sum_{k < K} cols[.., k, .., b + P - D*k]
        S > 1:  P_r[.., q]  = sum_{j < J_r} cols[.., r + S*j, .., q - j]
                              (b + P = S*q + r: the taps k = r + S*j, J_r = ceil((K - r) / S) of them)
                out[.., b]  = P_{(b + P) mod S}[.., (b + P) div S]

    cols is zero-padded once along s so that every slice is in bounds (the
    padded positions add zero); the phases of the strided dims are
    interleaved by one elementwise op (phases.interleave).  One op per phase
    combination instead of an add and an insert per tap."""
    nd, lead = len(rels), len(out_roles)
    quot: list[Ix] = [-(-(static(r.Nb) + r.P) // r.S) if r.S > 1 else static(r.Nb) for r in rels]
    low = [max(0, r.D * (r.k - 1) - r.P) if r.S == 1 else -(-r.k // r.S) - 1 for r in rels]
    high = [max(0, static(quot[i]) + (r.P if r.S == 1 else 0) - static(r.Ns)) for i, r in enumerate(rels)]
    s_pad = [(low[c.spatial], high[c.spatial]) if c.name == "s" and c.spatial is not None else (0, 0) for c in cols_order]
    padded = em.pad(cols, [lo for lo, _ in s_pad], [hi for _, hi in s_pad])
    shape = em.shape(padded)
    keep = [c.name != "k" for c in cols_order]  # a slice holds one tap: its k dims are unit dims
    loop_of = {c: x for x, c in enumerate(out_roles)} | {Dim("s", i): lead + i for i in range(nd)}
    rank = lead + nd
    in_map = AffineMap.from_exprs(rank, [d(loop_of[c]) for c, kept in zip(cols_order, keep) if kept])

    def body(b: Builder, args: list[Value]) -> list[Value]:
        total = args[0]
        for v in args[1:-1]:
            total = arith.same_type(b, arith.ADDF, total, v)
        return [total]

    phases: dict[tuple, Value] = {}
    for combo in itertools.product(*[[None] if r.S == 1 else list(range(r.S)) for r in rels]):
        per_dim = []  # per dim: the (tap, offset of its s slice) of the phase
        for i, (r, ph) in enumerate(zip(rels, combo)):
            if ph is None:
                per_dim.append([(k, low[i] + r.P - r.D * k) for k in range(r.k)])
            else:
                per_dim.append([(ph + r.S * j, low[i] - j) for j in range(-(-(r.k - ph) // r.S))])
        if not all(per_dim):
            continue  # no tap lands on this phase: it reads as zero
        slices = []
        for tap in itertools.product(*per_dim):
            offsets: list[Ix] = [0] * len(cols_order)
            sizes = list(shape)
            for j, c in enumerate(cols_order):
                if c.spatial is not None:
                    k, at = tap[c.spatial]
                    offsets[j], sizes[j] = (k, 1) if c.name == "k" else (at, quot[c.spatial])
            slices.append(_drop_units(em, em.extract_slice(padded, offsets, sizes, [1] * len(sizes)), keep))
        init = em.empty(list(out_lead) + quot, acc_type)
        phases[combo] = em.generic(slices, [init], [in_map] * len(slices) + [AffineMap.identity(rank)], ["parallel"] * rank, body)[0]
    if all(r.S == 1 for r in rels):
        return phases[(None,) * nd] if phases else em.zeros(list(out_lead) + quot, acc_type)
    return interleave(em, phases, out_lead, rels, quot, acc_type)


def _drop_units(em: Emitter, v: Value, keep: Sequence[bool]) -> Value:
    """v without its unit dims (keep False), by one collapse_shape."""
    groups, trailing = unit_groups(keep)
    groups[-1] += trailing
    return em.collapse(v, groups)


def _permute_into(em: Emitter, src: Value, src_names: list[Dim], dst_names: list[Dim], init: Optional[Value], acc_type: FloatType) -> Value:
    """dst[dst_names] = src[src_names] (+ init): one elementwise generic."""
    n = len(dst_names)
    loop = {name: j for j, name in enumerate(dst_names)}
    src_map = AffineMap.from_exprs(n, [d(loop[name]) for name in src_names])
    shape_of = dict(zip(src_names, em.shape(src)))
    if init is None:
        if src_names == dst_names:
            return src
        out = em.empty([shape_of[name] for name in dst_names], acc_type)
        return em.generic([src], [out], [src_map, AffineMap.identity(n)], ["parallel"] * n, lambda b, a: [a[0]])[0]
    return em.generic([src], [init], [src_map, AffineMap.identity(n)], ["parallel"] * n, lambda b, a: [arith.same_type(b, arith.ADDF, a[1], a[0])])[0]


@dataclass(frozen=True)
class MatmulDims:
    """The named dims of one matmul-form kernel: the roles of its inputs and
    output, the taps k_i and positions s_i, their sizes, and the batch (g,
    when groups > 1)."""

    in_roles: tuple[list[Dim], list[Dim]]
    out_roles: list[Dim]
    ks: list[Dim]
    ss: list[Dim]
    size_of: dict[Dim, Ix]
    batch: list[Dim]

    @staticmethod
    def of(in_roles: list[list[str]], out_roles: list[str], rels: Sequence[Rel], roles: dict[str, Ix]) -> MatmulDims:
        nd = len(rels)
        size_of: dict[Dim, Ix] = {Dim(r): roles[r] for r in roles}
        for i, rel in enumerate(rels):
            size_of[Dim("k", i)] = rel.K
            size_of[Dim("s", i)] = rel.Ns
        batch = [Dim("g")] if "g" in roles and "g" in out_roles + in_roles[0] + in_roles[1] else []
        return MatmulDims(
            in_roles=(role_dims(in_roles[0]), role_dims(in_roles[1])), out_roles=role_dims(out_roles),
            ks=tap_dims(nd), ss=position_dims(nd), size_of=size_of, batch=batch,
        )

    def pick(self, *roles: str) -> list[Dim]:
        """The roles that are dims of some operand (not of static size 1)."""
        used = self.in_roles[0] + self.in_roles[1] + self.out_roles
        return [Dim(r) for r in roles if Dim(r) in self.size_of and Dim(r) in used]

    def with_batch(self, parts: list[list[Dim]]) -> list[list[Dim]]:
        return ([self.batch] if self.batch else []) + parts

    def order(self, parts: list[list[Dim]]) -> list[Dim]:
        return self.batch + [n for part in parts for n in part]

    @staticmethod
    def groups(order: list[Dim], parts: list[list[Dim]]) -> list[list[int]]:
        return [[order.index(n) for n in part if n in order] for part in parts]

    def matrix(self, em: Emitter, v: Value, names: list[Dim], parts: list[list[Dim]]) -> Value:
        """v, whose dims are `names`, as a (batched) matrix whose dims are
        the parts (batch first)."""
        order = self.order(parts)
        return as_matrix(em, reorder(em, v, names, order), self.groups(order, self.with_batch(parts)))

    def unmatrix(self, em: Emitter, mm: Value, parts: list[list[Dim]]) -> tuple[Value, list[Dim]]:
        """A (batched) matmul result with dims `parts` back to named dims."""
        order = self.order(parts)
        return self.expand_named(em, mm, order, self.with_batch(parts)), order

    def expand_named(self, em: Emitter, v: Value, order: list[Dim], parts: list[list[Dim]]) -> Value:
        """v has one dim per part (size 1 for an empty part): split each into
        the part's named dims of `order`, dropping the empty parts."""
        present = [[n for n in part if n in order] for part in parts]
        if any(not p for p in present):  # merge unit dims of empty parts into a neighbour
            merged, trailing = unit_groups([bool(p) for p in present])
            merged[-1] += trailing
            v = em.collapse(v, merged)
            present = [p for p in present if p]
        if all(len(p) == 1 for p in present):
            return v
        reassoc, k = [], 0
        for p in present:
            reassoc.append(list(range(k, k + len(p))))
            k += len(p)
        return em.expand(v, reassoc, [self.size_of[n] for p in present for n in p])


def im2col_matmul(
    em: Emitter, kind: Kind, ins: tuple[Value, Value], dims: MatmulDims, rels: Sequence[Rel], init: Optional[Value], acc_type: FloatType, tiles: TileTable = (),
) -> tuple[Value, int]:
    """The gather or weight kernel on in-bounds role-layout inputs as
    result[ca, cols] = lhs[ca, rows] x im[rows, cols]:

        gather: out[ca, n s]     = W[ca, cb k] x cols[cb k, n s]
        weight: grad_w[ca, cb k] = A[ca, n s]  x cols[n s, cb k]

    Returns the result in role layout [out_roles..., spatial...] (added to
    init for a gather) and the multiply-adds executed (0 if dynamic)."""
    b_index = 0 if kind == Kind.GATHER else 1
    offsets = [-rel.P for rel in rels]  # the slices are in bounds: no left padding
    if kind == Kind.GATHER:
        rows, cols = dims.pick("cb") + dims.ks, dims.pick("n") + dims.ss
        lhs_in, lhs_names = ins[1], dims.in_roles[1] + dims.ks
    else:
        rows, cols = dims.pick("n") + dims.ss, dims.pick("cb") + dims.ks
        lhs_in, lhs_names = ins[0], dims.in_roles[0] + dims.ss
    order = dims.order([rows, cols])
    im = im2col(em, ins[b_index], dims.in_roles[b_index], order, rels, offsets)
    im_m = as_matrix(em, im, dims.groups(order, dims.with_batch([rows, cols])))
    lhs = dims.matrix(em, lhs_in, lhs_names, [dims.pick("ca"), rows])
    product, macs = batched_matmul(em, lhs, im_m, bool(dims.batch), acc_type, tiles)
    result, mm_order = dims.unmatrix(em, product, [dims.pick("ca"), cols])
    if kind == Kind.GATHER:
        result = _permute_into(em, result, mm_order, dims.out_roles + dims.ss, init, acc_type)
    return result, macs


def matmul_tile(em: Emitter, req: KernelRequest, plan: KernelPlan, tile: Tile, stats: KernelStats) -> Value:
    """A tile of a gather or weight kernel as im2col and a matmul over the
    piece's own (in-bounds) slices, see piece_rels."""
    rels = piece_rels(req.kind, tile.combo)
    dims = MatmulDims.of(plan.in_roles, plan.out_roles, rels, req.roles)
    value, executed = im2col_matmul(em, req.kind, tile.ins, dims, rels, tile.init if tile.accumulate else None, req.acc_type, req.choices.tiles)
    stats.add(executed)
    return value


def emit_col2im_kernel(em: Emitter, req: KernelRequest, plan: KernelPlan, stats: KernelStats) -> Value:
    """The scatter as cols = W^T A, then the taps summed into the output as
    the emission says (Col2im: col2im_window or col2im_taps):

        cols[g, (cb, k...), (n, s...)] = sum_ca W[g, (cb, k), ca] * A[g, ca, (n, s)]

    Returns the result in role layout [out_roles..., spatial...]."""
    rels, ins, acc_type = req.rels, plan.ins, req.acc_type
    dims = MatmulDims.of(plan.in_roles, plan.out_roles, rels, req.roles)
    out_lead = [dims.size_of[r] for r in dims.out_roles]
    lhs = dims.matrix(em, ins[1], dims.in_roles[1] + dims.ks, [dims.pick("cb") + dims.ks, dims.pick("ca")])
    rhs = dims.matrix(em, ins[0], dims.in_roles[0] + dims.ss, [dims.pick("ca"), dims.pick("n") + dims.ss])
    parts = [dims.pick("cb") + dims.ks, dims.pick("n") + dims.ss]
    product, macs = batched_matmul(em, lhs, rhs, bool(dims.batch), acc_type, req.choices.tiles)
    col_matrix, cols_order = dims.unmatrix(em, product, parts)
    if req.emission.col2im == Col2im.WINDOW:
        result = col2im_window(em, col_matrix, cols_order, out_lead, dims.out_roles, rels, acc_type)
    else:
        ranges = [[tap_range(em, rel, k) for k in range(rel.k)] for rel in rels]
        result = col2im_taps(em, col_matrix, cols_order, out_lead, dims.out_roles, rels, ranges, acc_type)
    stats.add(macs)
    return result


def piece_rels(kind: Kind, combo: Combo) -> list[Rel]:
    """The relation each piece of a gather or weight kernel computes on its
    own slices (see relation.Piece): a dense convolution with the piece's
    extents, read from in-bounds slices (no padding)."""
    out = []
    for p in combo:
        if kind == Kind.GATHER:  # B index = c_out * o + c_red * r + const, W index = r
            b = p.ins[0]
            out.append(Rel(S=b.c_out, D=b.c_red or 1, P=-b.const, K=p.red, Ns=p.out.size, Nb=b.span.size))
        else:  # weight: A index = r, B index = c_out * o + c_red * r + const
            b = p.ins[1]
            out.append(Rel(S=b.c_red or 1, D=b.c_out or 1, P=-b.const, K=p.out.size, Ns=p.red, Nb=b.span.size))
    return out


def im2col_fits(req: KernelRequest) -> bool:
    """Whether a forced im2col can emit req: not for Ca = Cb = 1 (no matrix
    at all, depthwise: a 1x1 matmul per group) nor for a scatter with a
    dynamic kernel size (col2im enumerates the taps)."""
    if req.kind == Kind.SCATTER and not all(isinstance(r.K, int) for r in req.rels):
        return False
    return not (req.roles["ca"] == 1 and req.roles["cb"] == 1)


def im2col_candidate(req: KernelRequest) -> bool:
    """Whether auto considers im2col: the profile builds the matmul forms
    (matmul_forms), it fits, and the channel counts and spatial sizes are
    static (its pieces are counted)."""
    roles = req.roles
    return req.choices.device.builds.matmul_forms and im2col_fits(req) and all(isinstance(roles[x], int) for x in ("ca", "cb")) and all(r.static for r in req.rels)


def im2col_work(req: KernelRequest) -> Work:
    """The work of req in the matmul forms: what emit_im2col builds for it,
    counted over its dry run (kernel/dry.py: matmuls, the copies of im2col,
    col2im, the transposes and inserts, a dispatch each)."""
    return dry_work(emit_im2col, req)


def unpeeled(req: KernelRequest) -> Optional[KernelRequest]:
    """req with peel `never`: the padded variant of a gather or weight
    kernel whose peel `auto` would cut pieces (static, peel auto; each
    piece is an im2col copy and a matmul of its own, and a copy into the
    result)."""
    if req.kind == Kind.SCATTER or req.choices.peel != Peel.AUTO or not all(r.static for r in req.rels):
        return None
    if Strategy.PEELED not in strategies(req):
        return None
    return decide(dataclasses.replace(req, choices=dataclasses.replace(req.choices, peel=Peel.NEVER)))


def one_matmul(req: KernelRequest) -> Optional[tuple[int, int, int]]:
    """(m, n, k) of the one matmul of a static kernel of one group cut in
    one piece per dim (im2col_matmul, emit_col2im_kernel), or None:

        gather   [Ca, Cb*K...] x [Cb*K..., N*Ns...]
        weight   [Ca, N*Ns...] x [N*Ns..., Cb*K...]
        scatter  [Cb*K..., Ca] x [Ca, N*Ns...]"""
    roles, kind = req.roles, req.kind
    if roles.get("g", 1) != 1 or not all(isinstance(roles[x], int) for x in ("n", "ca", "cb")) or not all(r.static for r in req.rels):
        return None
    if kind != Kind.SCATTER and any(dim_work(kind, r, st)[1] > 1 for r, st in zip(req.rels, strategies(req))):
        return None
    taps = positions = 1
    for r in req.rels:
        taps, positions = taps * size(r.K), positions * size(r.Ns)
    n, ca, cb = (size(roles[x]) for x in ("n", "ca", "cb"))
    return {Kind.GATHER: (ca, n * positions, cb * taps), Kind.WEIGHT: (ca, cb * taps, n * positions), Kind.SCATTER: (cb * taps, n * positions, ca)}[kind]


def packed(v: Variant) -> Optional[Variant]:
    """The variant of a gather or weight kernel with its matmul data-tiled
    (packed.py: pack, mmt4d, unpack) by the device profile's packed_tiles,
    where it has one matmul that mmt4d_plan tiles: its multiply-adds become
    `packed` ones (padded to the tiles), plus the bytes the packs and the
    unpack write, E*(m*k + k*n) + A*m*n, and their 2 dispatches (IREE
    makes the pack of the im2col columns a dispatch of its own); its
    emission decided again with those tiles (tiles.decide).  Not the
    scatter: its packed col2im matmul ran slower than the plain one
    (docs/decisions.md, packed)."""
    tiles = v.req.choices.device.packed_tiles
    shape = one_matmul(v.req) if tiles and not v.req.choices.tiles and v.req.kind != Kind.SCATTER else None
    plan = mmt4d_plan(*shape, str(ranked(v.req.ins[0].type).element_type), tiles) if shape else None
    if plan is None or shape is None:
        return None
    m, n, k = shape
    e = element_bytes(v.req.ins[0])
    work = dataclasses.replace(v.work, matmul=0.0) + Work(packed=float(plan.executed), copy_byte=float(e * (m * k + k * n) + 4 * m * n), dispatch=2.0)
    return Variant(f"{v.name}+packed", decide(dataclasses.replace(v.req, choices=dataclasses.replace(v.req.choices, tiles=tiles))), work)


def im2col_variants(req: KernelRequest) -> list[Variant]:
    """`pieces` (req as asked) and, where it applies, `padded`; and each of
    those `+packed` where the device profile has measured packed tiles."""
    padded = unpeeled(req)
    variants = [Variant("pieces", req, im2col_work(req))]
    variants += [Variant("padded", padded, im2col_work(padded))] if padded is not None else []
    return variants + [p for p in map(packed, variants) if p is not None]


def emit_im2col(em: Emitter, req: KernelRequest, stats: KernelStats) -> Value:
    """req in the matmul forms: the scatter as one matmul then col2im, the
    gather and the weight kernel as im2col and a matmul per tile."""
    if req.kind == Kind.SCATTER:
        return from_roles(em, emit_col2im_kernel(em, req, plan_decided(em, req), stats), req.out_layout, req.roles)
    return emit_tiled(em, req, matmul_tile, stats)


IM2COL = register(FormDef(name="im2col", kinds=frozenset(Kind), fits=im2col_fits, candidate=im2col_candidate, variants=im2col_variants, emit=emit_im2col, priority=20))
