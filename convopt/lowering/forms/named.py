"""The named-convolution form: a regular (gather) convolution as the linalg
named convolution that computes it (`linalg.conv_2d_nchw_fchw`, ...).  The
named ops' semantics (their indexing maps) are their definitions'
(`convopt.dialects.linalg`)."""

from __future__ import annotations

from collections.abc import Sequence

from ...dialects import linalg
from ...ir.attributes import Attribute, DenseAttr
from ...ir.core import Value
from ...ir.types import FloatType, VectorType, i64
from ..kernel.emit import Emitter, Ix
from ..kernel.relation import Rel

_SUFFIX = {1: ("ncw", "fcw"), 2: ("nchw", "fchw"), 3: ("ncdhw", "fcdhw")}
_DW_SUFFIX = {1: "ncw_cw", 2: "nchw_chw", 3: "ncdhw_cdhw"}


def named_conv_name(nd: int, groups: int, ca: object, cb: object) -> str | None:
    """The linalg named convolution computing a regular (gather) convolution
    with these groups and per-group channels, or None if none fits:

        conv_Nd_nc.._fc..        groups == 1
        conv_2d_ngchw_gfchw      2-D, groups > 1
        depthwise_conv_Nd_nc.._c..  groups == channels, one output per channel
    """
    if groups == 1:
        i, w = _SUFFIX[nd]
        return linalg.conv_name(nd, f"_{i}_{w}")
    if cb == 1 and ca == 1:
        return linalg.conv_name(nd, f"_{_DW_SUFFIX[nd]}", depthwise=True)
    if nd == 2:
        return linalg.conv_name(2, "_ngchw_gfchw")
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
    if linalg.is_depthwise(name):
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
