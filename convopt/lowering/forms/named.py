"""Indexing maps of the linalg ops convopt emits, named ops generalized.

Used to count executed multiply-adds (`--stats`, the MAC-efficiency tests)
the same way for `linalg.generic` and for named ops.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...ir.affine import AffineExpr, AffineMap, d
from ...ir.attributes import AffineMapAttr, ArrayAttr, Attribute, DenseAttr
from ...ir.core import Operation, Value
from ...ir.types import FloatType, RankedTensorType, VectorType, i64
from ..kernel.emit import Emitter, Ix
from ..kernel.relation import Rel


def _rank(v) -> int:
    t = v.type
    return t.rank if isinstance(t, RankedTensorType) else 0


def _ints(attr: object, n: int) -> list[int]:
    if isinstance(attr, DenseAttr):
        body = attr.body
        if isinstance(body, tuple):
            return [int(str(x)) for x in body]
        return [int(str(body))] * n
    return [1] * n


def indexing_maps(op: Operation) -> list[AffineMap]:
    name = op.name
    if name == "linalg.generic":
        maps = op.attributes["indexing_maps"]
        assert isinstance(maps, ArrayAttr)
        return [m.map for m in maps.elements if isinstance(m, AffineMapAttr)]
    if name == "linalg.matmul":  # C[m, n] += A[m, k] * B[k, n]
        return [AffineMap.from_exprs(3, [d(0), d(2)]), AffineMap.from_exprs(3, [d(2), d(1)]), AffineMap.from_exprs(3, [d(0), d(1)])]
    if name == "linalg.batch_matmul":  # C[b, m, n] += A[b, m, k] * B[b, k, n]
        return [AffineMap.from_exprs(4, [d(0), d(1), d(3)]), AffineMap.from_exprs(4, [d(0), d(3), d(2)]), AffineMap.from_exprs(4, [d(0), d(1), d(2)])]
    if name == "linalg.mmt4d":  # C[m, n, m0, n0] += A[m, k, m0, k0] * B[n, k, n0, k0]
        return [AffineMap.from_exprs(6, [d(0), d(2), d(3), d(5)]), AffineMap.from_exprs(6, [d(1), d(2), d(4), d(5)]), AffineMap.from_exprs(6, [d(0), d(1), d(3), d(4)])]
    if name.startswith("linalg.conv_") and name.endswith(("_nchw_fchw", "_ncw_fcw", "_ncdhw_fcdhw")):
        # O[n, f, o...] += I[n, c, s*o + d*k...] * W[f, c, k...]
        return _conv_maps(op, _rank(op.operands[1]) - 2, ["n", "f"], ["c"], ["n", "c"], ["f", "c"])
    if name == "linalg.conv_2d_ngchw_gfchw":
        # O[n, g, f, o...] += I[n, g, c, s*o + d*k...] * W[g, f, c, k...]
        return _conv_maps(op, _rank(op.operands[1]) - 3, ["n", "g", "f"], ["c"], ["n", "g", "c"], ["g", "f", "c"])
    if name.startswith("linalg.depthwise_conv_") and name.endswith(("_ncw_cw", "_nchw_chw", "_ncdhw_cdhw")):
        # O[n, c, o...] += I[n, c, s*o + d*k...] * W[c, k...]
        return _conv_maps(op, _rank(op.operands[1]) - 1, ["n", "c"], [], ["n", "c"], ["c"])
    if name.startswith("linalg.depthwise_conv_") and name.endswith(("_nwc_wc", "_nhwc_hwc", "_ndhwc_dhwc")):
        # O[n, o..., c] += I[n, s*o + d*k..., c] * W[k..., c]
        return _conv_maps(op, _rank(op.operands[1]) - 1, ["n", "*", "c"], [], ["n", "*", "c"], ["*", "c"])
    if name.startswith("linalg.conv_") and name.endswith(("_nwc_wcf", "_nhwc_hwcf", "_ndhwc_dhwcf")):
        # O[n, o..., f] += I[n, s*o + d*k..., c] * W[k..., c, f]
        return _conv_maps(op, _rank(op.operands[1]) - 2, ["n", "*", "f"], ["c"], ["n", "*", "c"], ["*", "c", "f"])
    # Elementwise/copy named ops (fill, transpose, ...): identity-like maps.
    return [AffineMap.identity(_rank(v)) for v in op.operands]


# --- emitting named convolutions ----------------------------------------------------------

_SUFFIX = {1: ("ncw", "fcw"), 2: ("nchw", "fchw"), 3: ("ncdhw", "fcdhw")}
_DW_SUFFIX = {1: "ncw_cw", 2: "nchw_chw", 3: "ncdhw_cdhw"}


def _conv_maps(op: Operation, nd: int, out: list[str], red: list[str], inp: list[str], wgt: list[str]) -> list[AffineMap]:
    """Maps of a named convolution whose loops are `out`, the output
    positions o..., `red`, the kernel positions k... (linalg's order), with the
    input read at `inp` + (s*o + d*k...), the weight at `wgt` + k... and the
    output written at `out` + o...; an operand's spatial dims go where its
    roles have "*" (channels-last layouts), else after them."""
    strides = _ints(op.attributes.get("strides"), nd)
    dilations = _ints(op.attributes.get("dilations"), nd)
    loops = [n for n in out if n != "*"] + [f"o{i}" for i in range(nd)] + red + [f"k{i}" for i in range(nd)]
    dim: dict[str, AffineExpr] = {n: d(i) for i, n in enumerate(loops)}
    o = [dim[f"o{i}"] for i in range(nd)]
    k = [dim[f"k{i}"] for i in range(nd)]
    spatial = [o[i] * strides[i] + k[i] * dilations[i] for i in range(nd)]
    n_loops = len(loops)

    def operand(roles: list[str], positions: list[AffineExpr]) -> AffineMap:
        exprs: list[AffineExpr] = []
        for n in roles if "*" in roles else roles + ["*"]:
            exprs += positions if n == "*" else [dim[n]]
        return AffineMap.from_exprs(n_loops, exprs)

    return [operand(inp, spatial), operand(wgt, k), operand(out, o)]


def named_conv_name(nd: int, groups: int, ca: object, cb: object) -> str | None:
    """The linalg named convolution computing a regular (gather) convolution
    with these groups and per-group channels, or None if none fits:

        conv_Nd_nc.._fc..        groups == 1
        conv_2d_ngchw_gfchw      2-D, groups > 1
        depthwise_conv_Nd_nc.._c..  groups == channels, one output per channel
    """
    if groups == 1:
        i, w = _SUFFIX[nd]
        return f"linalg.conv_{nd}d_{i}_{w}"
    if cb == 1 and ca == 1:
        return f"linalg.depthwise_conv_{nd}d_{_DW_SUFFIX[nd]}"
    if nd == 2:
        return "linalg.conv_2d_ngchw_gfchw"
    return None


def ints_attr(values: list[int]) -> DenseAttr:
    body: object = str(values[0]) if len(set(values)) == 1 else tuple(str(v) for v in values)
    return DenseAttr(body, VectorType((len(values),), i64))


def emit_named_gather(em: Emitter, b: Value, w: Value, rels: Sequence[Rel], groups: int, ca: Ix, cb: Ix, acc_type: FloatType, name: str) -> Value:
    """out[n, f, s] = sum_{c, k} B[n, c, S*s + D*k - P] * W[f, c, k] as the
    linalg named convolution `name`; B [N, G*Cb, b...] and W [G*Ca, Cb, k...]
    in PyTorch's layout, B zero-padded (or cut) to exactly the positions the
    windows read.  Returns [N, G*Ca, s...] in acc_type."""
    nd = len(rels)
    shape = em.shape(b)
    # Windows read [-P, S*(Ns-1) + D*(K-1) - P]: pad P on the left, and on the
    # right cut B or pad it to exactly `needed` positions.
    needed = [em.add(em.add(em.mul(em.sub(r.Ns, 1), r.S), em.mul(em.sub(r.K, 1), r.D)), 1 - r.P) for r in rels]
    keep = [em.min(shape[2 + i], needed[i]) for i in range(nd)]
    b = em.extract_slice(b, [0] * (nd + 2), shape[:2] + keep, [1] * (nd + 2))
    high = [em.max(0, em.sub(needed[i], keep[i])) for i in range(nd)]
    b = em.pad(b, [0, 0] + [r.P for r in rels], [0, 0] + high)
    attrs: dict[str, Attribute] = {"dilations": ints_attr([r.D for r in rels]), "strides": ints_attr([r.S for r in rels])}
    n = shape[0]
    out_shape = [n, em.mul(ca, groups)] + [r.Ns for r in rels]
    if name.startswith("linalg.depthwise"):
        w = em.collapse(w, [[0, 1]] + [[2 + i] for i in range(nd)])
        return em.structured(name, [b, w], [em.zeros(out_shape, acc_type)], attrs)[0]
    if groups == 1:
        return em.structured(name, [b, w], [em.zeros(out_shape, acc_type)], attrs)[0]
    # conv_2d_ngchw_gfchw: split the channels into (group, channels)
    rank = nd + 2
    b = em.expand(b, [[0], [1, 2]] + [[i + 1] for i in range(2, rank)], [n, groups, cb] + em.shape(b)[2:])
    w = em.expand(w, [[0, 1]] + [[i + 1] for i in range(1, rank)], [groups, ca] + em.shape(w)[1:])
    grouped = [n, groups, ca] + [r.Ns for r in rels]
    result = em.structured(name, [b, w], [em.zeros(grouped, acc_type)], attrs)[0]
    return em.collapse(result, [[0], [1, 2]] + [[i + 1] for i in range(2, rank)])
