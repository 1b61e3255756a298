"""The weight taps of every phase of a scatter, copied by one op.

A phase piece of a scatter (relation.phase_pieces) reads its taps of the
flipped weight Wf[m] = W[K-1-m] at m0 + T*t (0 <= t < J) along each dim.  A
combination c of phases (one per dim) needs the block

    B_c[lead..., t_1, ..., t_d] = W[lead..., f_c1 - T_1*t_1, ..., f_cd - T_d*t_d]
                                  (f_ci = K_i - 1 - m0_ci, 0 <= t_i < J_ci)

One linalg.generic writes every block into one flat tensor, block after
block (B_c from o_c = |B_0| + ... + |B_{c-1}|, row-major inside), by
tensor.extract at the position of its flat index u (the block: the last
o_c <= u, chosen by arith.select; the multi-index: u - o_c unravelled over
B_c's shape).  Each combination then reads its block as a contiguous
slice of the flat copy, expanded to B_c's shape (a single combination: the
block is written as such): one op for all phases
where one copy per phase was S^d ops, and no filter is a strided or offset
window of a bigger tensor (IREE's rocm IGEMM path fails on those:
'memref.collapse_shape' address spaces).
"""

from __future__ import annotations

import math
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
    shapes = [lead_shape + [size for _, _, size in blk] for blk in blocks]
    if len(blocks) == 1:  # the block itself (IREE fuses it into the op that reads it)
        return [em.generic([], [em.empty(shapes[0], ranked(w.type).element_type)], [AffineMap.identity(len(shapes[0]))], ["parallel"] * len(shapes[0]), _block_body(em, w, lead, blocks[0]))[0]]
    counts = [_product(em, shape) for shape in shapes]
    starts: list[Ix] = [0]
    for n in counts:
        starts.append(em.add(starts[-1], n))
    total = starts.pop()
    flat = em.generic([], [em.empty([total], ranked(w.type).element_type)], [AffineMap.identity(1)], ["parallel"], _copy_body(em, w, lead, blocks, shapes, starts))[0]
    out = []
    for shape, start, n in zip(shapes, starts, counts):
        piece = em.extract_slice(flat, [start], [n], [1])
        out.append(em.expand(piece, [list(range(len(shape)))], shape))
    return out


def _copy_body(em: Emitter, w: Value, lead: int, blocks: Sequence[Block], shapes: list[list[Ix]], starts: list[Ix]) -> Callable[[Builder, list[Value]], list[Value]]:
    """The body of the flat copy: the position in w of flat index u."""
    start = [em.index(s) for s in starts]
    dims = [[_const(em, em.max(x, 1)) for x in shape] for shape in shapes]  # a block of size 0 divides by 1
    first = [[em.index(f) for f, _, _ in blk] for blk in blocks]
    stride = [[_const(em, st) for _, st, _ in blk] for blk in blocks]

    def body(b: Builder, args: list[Value]) -> list[Value]:
        u = linalg.index(b, 0)
        at: list[Value] = []
        for c in range(len(blocks)):
            local = arith.same_type(b, arith.SUBI, u, start[c]) if starts[c] != 0 else u
            idx = _unravel(b, local, dims[c], em.index(0))
            for i, st in enumerate(stride[c]):  # spatial: f - T*t (f where the block has one tap)
                if dims[c][lead + i] is None:
                    idx[lead + i] = first[c][i]
                    continue
                step = idx[lead + i] if st is None else arith.same_type(b, arith.MULI, idx[lead + i], st)
                idx[lead + i] = arith.same_type(b, arith.SUBI, first[c][i], step)
            if c == 0:
                at = idx
            else:
                inside = arith.cmpi(b, "uge", u, start[c])
                at = [arith.select(b, inside, x, y) for x, y in zip(idx, at)]
        return [tensor.extract(b, w, at)]

    return body


def _block_body(em: Emitter, w: Value, lead: int, block: Block) -> Callable[[Builder, list[Value]], list[Value]]:
    """The body of a single block's copy: B[lead..., t...] = w[lead..., f - T*t...]."""
    first = [em.index(f) for f, _, _ in block]
    stride = [_const(em, st) for _, st, _ in block]

    def body(b: Builder, args: list[Value]) -> list[Value]:
        at = [linalg.index(b, i) for i in range(lead + len(block))]
        for i, st in enumerate(stride):
            step = at[lead + i] if st is None else arith.same_type(b, arith.MULI, at[lead + i], st)
            at[lead + i] = arith.same_type(b, arith.SUBI, first[i], step)
        return [tensor.extract(b, w, at)]

    return body


def _const(em: Emitter, x: Ix) -> Value | None:
    """x as an index value; None for a static 1 (no arithmetic needed)."""
    return None if x == 1 else em.index(x)


def _unravel(b: Builder, flat: Value, dims: Sequence[Value | None], zero: Value) -> list[Value]:
    """The row-major multi-index of `flat` over dims (None: a dim of size 1,
    index 0): i_last = flat mod n_last, then flat div n_last, ..."""
    idx: list[Value] = []
    rest = flat
    for i in range(len(dims) - 1, 0, -1):
        n = dims[i]
        if n is None:
            idx.append(zero)
            continue
        idx.append(arith.same_type(b, arith.REMUI, rest, n))
        rest = arith.same_type(b, arith.DIVUI, rest, n)
    idx.append(rest)
    return idx[::-1]


def _product(em: Emitter, sizes: Sequence[Ix]) -> Ix:
    """prod(sizes), folded where static."""
    static = math.prod(s for s in sizes if isinstance(s, int))
    out: Ix = static
    for s in sizes:
        if not isinstance(s, int):
            out = em.mul(out, s)
    return out
