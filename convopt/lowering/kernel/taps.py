"""The weight taps of every phase of a scatter, one dense copy per phase combination.

A phase piece of a scatter (relation.phase_pieces) reads its taps of the
flipped weight Wf[m] = W[K-1-m] at m0 + T*t (0 <= t < J) along each dim.  A
combination c of phases (one per dim) needs the block

    B_c[lead..., t_1, ..., t_d] = W[lead..., f_c1 - T_1*t_1, ..., f_cd - T_d*t_d]
                                  (f_ci = K_i - 1 - m0_ci, 0 <= t_i < J_ci)

Each block is written by its own linalg.generic over B_c's shape, one
tensor.extract at those affine positions: no filter is a strided or offset
window of a bigger tensor (IREE's rocm IGEMM path fails on those:
'memref.collapse_shape' address spaces), and no index is divided or
reduced modulo a constant (a flat copy of every block did that; IREE
narrows such index arithmetic to i16 vectors, which NVPTX cannot select:
test/gpu/repro/cuda_tap_copy_umul_lohi.mlir).  IREE does not fuse a copy
into the contraction that reads it: each block beyond the first is a
dispatch more (bench/README.md, "Fixed since: one copy per phase
combination").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...dialects import arith, linalg, tensor
from ...ir.affine import AffineMap
from ...ir.builder import Builder
from ...ir.core import Value
from ...ir.types import ranked
from .emit import Emitter, Ix

Block = Sequence[tuple[Ix, int, Ix]]
"""Per spatial dim of a combination: (first f, stride T, taps J)."""


def tap_blocks(em: Emitter, w: Value, lead: int, blocks: Sequence[Block]) -> list[Value]:
    """B_c of every combination (module docstring): w has `lead` leading
    dims copied whole, then one spatial dim per entry of each block."""
    lead_shape = em.shape(w)[:lead]
    element = ranked(w.type).element_type
    out = []
    for blk in blocks:
        shape = lead_shape + [size for _, _, size in blk]
        rank = len(shape)
        out.append(em.generic([], [em.empty(shape, element)], [AffineMap.identity(rank)], ["parallel"] * rank, _block_body(em, w, lead, blk))[0])
    return out


def _block_body(em: Emitter, w: Value, lead: int, block: Block) -> Callable[[Builder, list[Value]], list[Value]]:
    """The body of a block's copy: B[lead..., t...] = w[lead..., f - T*t...]."""
    first = [em.index(f) for f, _, _ in block]
    stride = [None if st == 1 else em.index(st) for _, st, _ in block]

    def body(b: Builder, args: list[Value]) -> list[Value]:
        at = [linalg.index(b, i) for i in range(lead + len(block))]
        for i, st in enumerate(stride):
            step = at[lead + i] if st is None else arith.same_type(b, arith.MULI, at[lead + i], st)
            at[lead + i] = arith.same_type(b, arith.SUBI, first[i], step)
        return [tensor.extract(b, w, at)]

    return body
