"""The data-tiled matmul: `linalg.pack` both operands into tiles,
`linalg.mmt4d`, `linalg.unpack` the result.

    C[m, n] = sum_k A[m, k] B[k, n]
    A4[mo, ko, mi, ki] = A[mo*M0 + mi, ko*K0 + ki]      (zero past the edges)
    B4[no, ko, ni, ki] = B[ko*K0 + ki, no*N0 + ni]
    C4[mo, no, mi, ni] = sum_{ko, ki} A4[mo, ko, mi, ki] B4[no, ko, ni, ki]
    C[m, n]            = C4[m / M0, n / N0, m % M0, n % N0]

The same sums in the same order as the matmul, plus zero products in the
padding.  This is what IREE's `--iree-opt-data-tiling` rewrites a matmul
into (off by default in IREE 3.13); written out here, the default flags
compile it to IREE's mmt4d microkernels: 2-6x the plain bf16 matmul
(bench/README.md, "The matmul ceiling").  "Swapped" computes C^T = B^T A^T
instead (the packs and the unpack transpose for free), so that a dim that
is not a multiple of 16 takes the 8-row tile: the stem's 147 = 3*7*7 pads to
152 rather than 160.

Opt-in (`--matmul-tiles`, options.KernelPass): the tiles are those of one
CPU's microkernels, and the default output stays CPU-neutral linalg.matmul.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from ...dialects import linalg
from ...ir.core import Value
from ...ir.types import FloatType, ranked
from .device import cpu_flags, read_host_flags
from .emit import Emitter, ceildiv


class Mmt4dTiles(NamedTuple):
    """The mmt4d tiles of one input element type: the row tiles M0 tried
    (the fewest padded multiply-adds wins), N0 and K0; and the smallest
    reduction `min_k` worth packing (the unpack rewrites the m x n result,
    1/k of the multiply-adds: where the mmt4d gains little, a short k loses)."""

    element: str
    rows: tuple[int, ...]
    n0: int
    k0: int
    min_k: int = 1


TileTable = tuple[Mmt4dTiles, ...]
"""The tiles per element type (`--matmul-tiles`); a type not listed, and
the empty table (`none`, the default), keep the plain linalg.matmul."""

BF16_TILES = Mmt4dTiles("bf16", (16, 8), 16, 2)
F32_TILES = Mmt4dTiles("f32", (16, 8), 16, 1, min_k=128)
"""f32 only from k = 128: conv3d-video's col2im matmul [864, 32] x [32, 6272]
packed ran its layer 1.3x slower (two runs), the k = 128 matmul above 1.36x faster."""

AVX512_TILES: TileTable = (BF16_TILES, F32_TILES)
"""`--matmul-tiles=avx512`.  16x16x2 (bf16, f32 accumulator) and 16x16x1
(f32) are what IREE's data tiling picks on an AVX-512 (avx512_bf16) host; 8
rows is also a microkernel tile.  N0 = 8 or M0 = 4 ran 1.4-300x slower (no
microkernel), and so may these tiles on a CPU without the microkernels:
hence opt-in.  Measured on that host, IREE 3.13 default flags, matmul alone
in GMAC/s (plain linalg.matmul / --iree-opt-data-tiling / this mmt4d form /
torch.mm), one run each (bench/README.md, "Packed matmuls"):

    64x576x6272   bf16  129 / 291 / 322 / 67-238     f32  111 / 123 / 115 / 73
    1152x1568x128 bf16  135 / 336 / 265 / 388        f32  128 / 206 / 176 / 102
    64x147x6272   bf16   27 / 194 / 218 / 278        f32   79 / 106 / 108 / 83

End to end (bench/emitted.py, bench/results/archive/emitted.matmul-tiles.txt) bf16 layers
1.1-5.3x faster (dense layers), f32 1.0-1.3x.
f16 is not listed (not measured)."""

CPU_FLAG_TILES = (("avx512_bf16", BF16_TILES), ("avx512f", F32_TILES))
"""`--matmul-tiles=host`: the /proc/cpuinfo flag that enables each entry."""


def host_tiles(cpuinfo: str) -> TileTable:
    """The tiles the CPU flags of a /proc/cpuinfo text enable (those of its
    first `flags` line), in AVX512_TILES order; () without them."""
    return flags_tiles(cpu_flags(cpuinfo))


def flags_tiles(flags: frozenset[str]) -> TileTable:
    return tuple(entry for flag, entry in CPU_FLAG_TILES if flag in flags)


def read_host_tiles(path: str = "/proc/cpuinfo") -> TileTable:
    """host_tiles of this machine; () where there is no cpuinfo."""
    return flags_tiles(read_host_flags(path))


MAX_N0_WITHOUT_AVX512 = 8
"""IREE 3.13 computes wrong results for mmt4d tiles of more than 8 columns
(N0 > 8) when it compiles for an x86 CPU without AVX-512 (no avx512f).
test/fuzz/packed_sweep.py (pack + mmt4d + unpack of a 64x128 by 128x64
product, tiles dividing it, run here against numpy): every tile with N0 = 16
(16x16x1, 8x16x1, 16x16x2, 8x16x2; f32 and bf16) is wrong for
`--iree-llvmcpu-target-cpu=znver2` and `haswell` (relative error 1.2-1.3),
8x8x1 and 4x8x1 are right there; every tile is right for skylake-avx512,
znver4 and an avx512_bf16 host.  So every AVX512_TILES entry is wrong on an
AVX2 CPU.  Reproducer: test/fuzz/crashes/repro-iree-mmt4d-avx2-n16.mlir."""


def miscompiled_tiles(table: TileTable, flags: frozenset[str]) -> TileTable:
    """The entries of table that IREE 3.13 compiles to wrong results for a
    CPU with these flags (MAX_N0_WITHOUT_AVX512)."""
    if "avx512f" in flags:
        return ()
    return tuple(t for t in table if t.n0 > MAX_N0_WITHOUT_AVX512)


def tiles_for(table: TileTable, element: str) -> Optional[Mmt4dTiles]:
    return next((t for t in table if t.element == element), None)


MMT4D_MIN_MACS = 1 << 20
"""Below this many multiply-adds the packs do not pay."""

MMT4D_MIN_EFFICIENCY = 0.95
"""The tiles pad M, N and K up; at most this waste of multiply-adds."""


class PackPlan(NamedTuple):
    swapped: bool  # compute C^T = B^T A^T
    m0: int
    n0: int
    k0: int
    executed: int  # multiply-adds of the mmt4d (padding included)


def mmt4d_plan(m: object, n: object, k: object, element: str, table: TileTable) -> Optional[PackPlan]:
    """The cheapest tiling of a static [m, k] x [k, n] matmul with inputs of
    `element` by the tiles of `table`, or None when the plain matmul stays
    (type not in the table, dynamic or small, too much padding)."""
    tiles = tiles_for(table, element)
    if tiles is None or not all(isinstance(x, int) and x > 0 for x in (m, n, k)):
        return None
    assert isinstance(m, int) and isinstance(n, int) and isinstance(k, int)
    useful = m * n * k
    if useful < MMT4D_MIN_MACS:
        return None
    if k < tiles.min_k:
        return None
    _, rows, n0, k0, _ = tiles
    best: Optional[PackPlan] = None
    for swapped in (False, True):
        mm, nn = (n, m) if swapped else (m, n)
        for m0 in rows:
            executed = ceildiv(mm, m0) * m0 * ceildiv(nn, n0) * n0 * ceildiv(k, k0) * k0
            if best is None or executed < best.executed:
                best = PackPlan(swapped, m0, n0, k0, executed)
    assert best is not None
    return best if useful >= MMT4D_MIN_EFFICIENCY * best.executed else None


def _pack(em: Emitter, src: Value, inner_dims: tuple[int, int], tiles: tuple[int, int]) -> Value:
    """src [a, b] -> [outer of inner_dims[0], outer of inner_dims[1], tiles...]
    (`linalg.pack` with outer_dims_perm = inner_dims_pos = inner_dims),
    zero-padded when the tiles do not divide the dims."""
    t = ranked(src.type)
    shape = em.shape(src)
    outer = [ceildiv(shape[inner_dims[0]], tiles[0]), ceildiv(shape[inner_dims[1]], tiles[1])]  # type: ignore[arg-type]
    dest = em.empty(outer + list(tiles), t.element_type)
    pad = any(shape[d] % s for d, s in zip(inner_dims, tiles))  # type: ignore[operator]
    padding = em.float(0.0, t.element_type) if pad else None
    return linalg.pack(em.b, src, dest, padding, inner_dims, inner_dims, tiles)


def packed_matmul(em: Emitter, lhs: Value, rhs: Value, acc_type: FloatType, plan: PackPlan) -> Value:
    """[m, k] x [k, n] -> [m, n] in acc_type as pack, mmt4d, unpack (see the
    module doc)."""
    (m, _), (_, n) = em.shape(lhs), em.shape(rhs)
    if plan.swapped:  # C^T[n, m] = B^T[n, k] A^T[k, m]: B packs as the mmt4d's LHS
        a4 = _pack(em, rhs, (1, 0), (plan.m0, plan.k0))
        b4 = _pack(em, lhs, (0, 1), (plan.n0, plan.k0))
    else:
        a4 = _pack(em, lhs, (0, 1), (plan.m0, plan.k0))
        b4 = _pack(em, rhs, (1, 0), (plan.n0, plan.k0))
    rows, cols = em.shape(a4)[0], em.shape(b4)[0]
    acc = em.zeros([rows, cols, plan.m0, plan.n0], acc_type)
    c4 = em.structured(linalg.MMT4D, [a4, b4], [acc])[0]
    dest = em.empty([m, n], acc_type)
    dims = (1, 0) if plan.swapped else (0, 1)  # swapped: c4's outer and tile dims are (n, m)
    return linalg.unpack(em.b, c4, dest, dims, dims, (plan.m0, plan.n0))
