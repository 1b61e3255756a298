"""Indexing maps of the linalg ops convopt emits, named ops generalized.

Used to count executed multiply-adds (`--stats`, the MAC-efficiency tests)
the same way for `linalg.generic` and for named ops.
"""

from __future__ import annotations

from ..ir.affine import AffineMap, d
from ..ir.attributes import AffineMapAttr, ArrayAttr, DenseAttr
from ..ir.core import Operation
from ..ir.types import RankedTensorType


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
    if name.startswith("linalg.conv_") and name.endswith(("_nchw_fchw", "_ncw_fcw", "_ncdhw_fcdhw")):
        # O[n, f, o...] += I[n, c, s*o + d*k...] * W[f, c, k...]; loops n f o... c k...
        nd = _rank(op.operands[1]) - 2
        strides = _ints(op.attributes.get("strides"), nd)
        dilations = _ints(op.attributes.get("dilations"), nd)
        n_loops = 3 + 2 * nd
        o = [d(2 + i) for i in range(nd)]
        k = [d(3 + nd + i) for i in range(nd)]
        inp = [d(0), d(2 + nd)] + [o[i] * strides[i] + k[i] * dilations[i] for i in range(nd)]
        return [AffineMap.from_exprs(n_loops, inp), AffineMap.from_exprs(n_loops, [d(1), d(2 + nd)] + k), AffineMap.from_exprs(n_loops, [d(0), d(1)] + o)]
    # Elementwise/copy named ops (fill, transpose, ...): identity-like maps.
    return [AffineMap.identity(_rank(v)) for v in op.operands]
