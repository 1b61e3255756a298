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
add; each adds exactly the positions its tap reaches in bounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from ..ir.affine import AffineExpr, AffineMap, d
from ..ir.attributes import DenseArrayAttr
from ..ir.core import Value
from ..ir.types import FloatType, i64, ranked
from .emit import Emitter, Ix, unit_groups


def _named(roles: Sequence[str], nd: int, spatial: str) -> list[str]:
    return list(roles) + [f"{spatial}{i}" for i in range(nd)]


def reorder(em: Emitter, v: Value, names: list[str], order: list[str]) -> Value:
    """Transpose v, whose dims are `names`, into `order` (no-op if equal)."""
    if names == order:
        return v
    perm = [names.index(n) for n in order]
    shape = em.shape(v)
    out = em.empty([shape[p] for p in perm], ranked(v.type).element_type)
    return em.structured("linalg.transpose", [v], [out], {"permutation": DenseArrayAttr(i64, tuple(perm))})[0]


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


def batched_matmul(em: Emitter, lhs: Value, rhs: Value, batched: bool, acc_type: FloatType) -> Value:
    """[b?, m, k] x [b?, k, n] -> [b?, m, n] in acc_type (linalg.matmul or
    linalg.batch_matmul, whose inputs may be narrower than the result)."""
    ls, rs = em.shape(lhs), em.shape(rhs)
    out_shape = ([ls[0]] if batched else []) + [ls[-2], rs[-1]]
    init = em.zeros(out_shape, acc_type)
    return em.structured("linalg.batch_matmul" if batched else "linalg.matmul", [lhs, rhs], [init])[0]


def im2col(em: Emitter, b: Value, b_roles: list[str], order: list[str], rels, offsets: Sequence[Ix]) -> Value:
    """cols[order...] = B[.., S*s + D*k + offset] over the named dims of order
    (roles, k0.., s0..); B is [b_roles..., b0..] (already padded so that
    every index is in bounds: offset = left padding - P)."""
    b_shape = em.shape(b)
    size_of: dict[str, Ix] = {}
    for i, r in enumerate(b_roles):
        size_of[r] = b_shape[i]
    for i, rel in enumerate(rels):
        size_of[f"k{i}"] = rel.K
        size_of[f"s{i}"] = rel.Ns
    loop = {name: j for j, name in enumerate(order)}
    exprs: list[AffineExpr] = [d(loop[r]) for r in b_roles]
    for i, rel in enumerate(rels):
        exprs.append(d(loop[f"s{i}"]) * rel.S + d(loop[f"k{i}"]) * rel.D + offsets[i])
    n = len(order)
    out = em.empty([size_of[name] for name in order], ranked(b.type).element_type)
    maps = [AffineMap.from_exprs(n, exprs), AffineMap.identity(n)]
    return em.generic([b], [out], maps, ["parallel"] * n, lambda bb, a: [a[0]])[0]


def col2im_taps(em: Emitter, cols: Value, cols_order: list[str], out_lead: list[Ix], out_roles: list[str], rels, tap_ranges, acc_type: FloatType) -> Value:
    """out[.., S*s + D*k - P] += cols[.., k, .., s] for every tap k, over the
    s it reaches in bounds (tap_ranges[i][k] = (first s, count) or None).
    The taps of one phase of a strided output add up in a dense tensor
    (kernels.Outputs); a tap alone in its phase is just copied."""
    import itertools

    from .kernels import Outputs, Span

    nd = len(rels)
    taps = list(itertools.product(*[[(k, rng) for k, rng in enumerate(tap_ranges[i]) if rng is not None] for i in range(nd)]))

    def spans(tap) -> list[Span]:
        return [Span(rels[i].S * lo + rels[i].D * k - rels[i].P, cnt, rels[i].S) for i, (k, (lo, cnt)) in enumerate(tap)]

    outputs = Outputs(em, out_lead, [rel.Nb for rel in rels], acc_type, [spans(t) for t in taps])
    names = out_roles + [f"s{i}" for i in range(nd)]
    loop = {name: j for j, name in enumerate(names)}
    exprs: list[AffineExpr] = [AffineMap.from_exprs(1, [0]).results[0] if n.startswith("k") else d(loop[n]) for n in cols_order]
    maps = [AffineMap.from_exprs(len(names), exprs), AffineMap.identity(len(names))]
    c_shape = em.shape(cols)
    for tap in taps:
        c_off: list[Ix] = []
        c_sizes: list[Ix] = []
        for j, name in enumerate(cols_order):  # the tap's k fixed (size 1), its s range
            if name.startswith("k"):
                c_off.append(tap[int(name[1:])][0])
                c_sizes.append(1)
            elif name.startswith("s"):
                lo, cnt = tap[int(name[1:])][1]
                c_off.append(lo)
                c_sizes.append(cnt)
            else:
                c_off.append(0)
                c_sizes.append(c_shape[j])
        piece = em.extract_slice(cols, c_off, c_sizes, [1] * len(cols_order))
        key, acc, offsets, sizes, strides = outputs.slot(spans(tap))
        if key == outputs.DIRECT or outputs.writers[key] > 1:  # add to what is there
            target = em.extract_slice(acc, offsets, sizes, strides)
            added = em.generic([piece], [target], maps, ["parallel"] * len(names), lambda b, a: [b.value("arith.addf", [a[1], a[0]], acc_type)])[0]
        else:  # the only tap of its phase: a copy into a fresh tile
            added = em.generic([piece], [em.empty(sizes, acc_type)], maps, ["parallel"] * len(names), lambda b, a: [a[0]])[0]
        outputs.accs[key] = em.insert_slice(added, acc, offsets, sizes, strides)
    return outputs.finish()


def _permute_into(em: Emitter, src: Value, src_names: list[str], dst_names: list[str], init: Optional[Value], acc_type: FloatType) -> Value:
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
    return em.generic([src], [init], [src_map, AffineMap.identity(n)], ["parallel"] * n, lambda b, a: [b.value("arith.addf", [a[1], a[0]], acc_type)])[0]


def emit_matmul_kernel(em: Emitter, kind: str, ins: tuple[Value, Value], in_roles: list[list[str]], out_roles: list[str], rels, roles: dict[str, Ix], acc_type: FloatType, init: Optional[Value], padded: list[Value], shifts: list[list[Ix]]) -> tuple[Value, int]:
    """The matmul form of `kind` on role-layout tensors (see the module
    docstring).  padded/shifts: the inputs zero-padded for the padded pieces
    and their left paddings.  Returns the result in role layout
    [out_roles..., spatial...] and the multiply-adds executed (0 if dynamic)."""
    from .kernels import tap_range

    nd = len(rels)
    batch = ["g"] if "g" in roles and "g" in out_roles + in_roles[0] + in_roles[1] else []
    ks = [f"k{i}" for i in range(nd)]
    ss = [f"s{i}" for i in range(nd)]
    size_of: dict[str, Ix] = {r: roles[r] for r in roles}
    for i, rel in enumerate(rels):
        size_of[ks[i]] = rel.K
        size_of[ss[i]] = rel.Ns

    def pick(names: list[str]) -> list[str]:
        return [n for n in names if n in size_of and (n in in_roles[0] or n in in_roles[1] or n in out_roles or n in ks or n in ss)]

    def groups(order: list[str], parts: list[list[str]]) -> list[list[int]]:
        return [[order.index(n) for n in part if n in order] for part in parts]

    def expand_named(v: Value, order: list[str], parts: list[list[str]]) -> Value:
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
        return em.expand(v, reassoc, [size_of[n] for p in present for n in p])

    def matmul_macs(lhs: Value, rhs: Value) -> int:
        ls, rs = em.shape(lhs), em.shape(rhs)
        dims = ls + [rs[-1]]
        total = 1
        for x in dims:
            if not isinstance(x, int):
                return 0
            total *= x
        return total

    def with_batch(parts: list[list[str]]) -> list[list[str]]:
        return ([batch] if batch else []) + parts

    def matrix(v: Value, names: list[str], parts: list[list[str]]) -> Value:
        """v, whose dims are `names`, as a (batched) matrix whose dims are
        the parts (batch first)."""
        order = batch + [n for part in parts for n in part]
        return as_matrix(em, reorder(em, v, names, order), groups(order, with_batch(parts)))

    def unmatrix(mm: Value, parts: list[list[str]]) -> tuple[Value, list[str]]:
        """A (batched) matmul result with dims `parts` back to named dims."""
        order = batch + [n for part in parts for n in part]
        return expand_named(mm, order, with_batch(parts)), order

    if kind in ("gather", "weight"):
        # result[ca, cols] = lhs[ca, rows] x im[rows, cols]:
        #   gather: out[ca, n s]     = W[ca, cb k] x cols[cb k, n s]
        #   weight: grad_w[ca, cb k] = A[ca, n s]  x cols[n s, cb k]
        b_index = 0 if kind == "gather" else 1
        offsets = [em.sub(shifts[b_index][i], rels[i].P) for i in range(nd)]
        if kind == "gather":
            rows, cols = pick(["cb"]) + ks, pick(["n"]) + ss
            lhs_in, lhs_names = ins[1], in_roles[1] + ks
        else:
            rows, cols = pick(["n"]) + ss, pick(["cb"]) + ks
            lhs_in, lhs_names = ins[0], in_roles[0] + ss
        order = batch + rows + cols
        im = im2col(em, padded[b_index], in_roles[b_index], order, rels, offsets)
        im_m = as_matrix(em, im, groups(order, with_batch([rows, cols])))
        lhs = matrix(lhs_in, lhs_names, [pick(["ca"]), rows])
        result, mm_order = unmatrix(batched_matmul(em, lhs, im_m, bool(batch), acc_type), [pick(["ca"]), cols])
        if kind == "gather":
            result = _permute_into(em, result, mm_order, out_roles + ss, init, acc_type)
        return result, matmul_macs(lhs, im_m)
    # scatter: cols = W^T A, then every tap adds its slice (col2im)
    lhs = matrix(ins[1], in_roles[1] + ks, [pick(["cb"]) + ks, pick(["ca"])])
    rhs = matrix(ins[0], in_roles[0] + ss, [pick(["ca"]), pick(["n"]) + ss])
    col_matrix, cols_order = unmatrix(batched_matmul(em, lhs, rhs, bool(batch), acc_type), [pick(["cb"]) + ks, pick(["n"]) + ss])
    ranges = [[tap_range(em, rel, k) for k in range(rel.k)] for rel in rels]
    return col2im_taps(em, col_matrix, cols_order, [size_of[r] for r in out_roles], out_roles, rels, ranges, acc_type), matmul_macs(lhs, rhs)


def piece_rels(kind: str, combo) -> list:
    """The relation each piece of a gather or weight kernel computes on its
    own slices (see kernels.Piece): a dense convolution with the piece's
    extents, read from in-bounds slices (no padding)."""
    from .kernels import Rel

    out = []
    for p in combo:
        if kind == "gather":  # B index = c_out * o + c_red * r + const, W index = r
            b = p.ins[0]
            out.append(Rel(b.c_out, b.c_red or 1, -b.const, p.red, p.out.size, b.span.size))
        else:  # weight: A index = r, B index = c_out * o + c_red * r + const
            b = p.ins[1]
            out.append(Rel(b.c_red or 1, b.c_out or 1, -b.const, p.out.size, p.red, b.span.size))
    return out
