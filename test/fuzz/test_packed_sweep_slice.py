"""A slice of test/fuzz/packed_sweep.py: the IREE bug behind
packed.MAX_N0_WITHOUT_AVX512, still there (or the rule is stale), and the
tiles convopt emits right where it emits them.

Host-dependent: the AVX2 targets run only on a host that can execute AVX2
code (every x86-64 machine since 2013); the AVX-512 case only on an AVX-512
host (the IREE target is `host`)."""

from __future__ import annotations

import packed_sweep
import pytest

from convopt.lowering.kernel.device import read_host_flags
from convopt.lowering.kernel.packed import MAX_N0_WITHOUT_AVX512

needs_avx2 = pytest.mark.skipif(not {"avx2", "fma"} <= read_host_flags(), reason="host cannot run AVX2 code (no avx2/fma in /proc/cpuinfo)")


@needs_avx2
def test_iree_still_miscompiles_16_column_tiles_for_avx2():
    err = packed_sweep.run_case("znver2", (16, 16, 1), "f32")
    assert err > 1e-2, f"IREE now computes 16x16x1 mmt4d right for znver2 (relative error {err:.1e}): revisit packed.MAX_N0_WITHOUT_AVX512"


@needs_avx2
def test_narrow_tiles_are_right_for_avx2():
    assert packed_sweep.run_case("znver2", (8, MAX_N0_WITHOUT_AVX512, 1), "f32") < 1e-4


@pytest.mark.skipif("avx512f" not in read_host_flags(), reason="host has no AVX-512 (avx512f)")
def test_avx512_tiles_are_right_on_an_avx512_host():
    assert packed_sweep.run_case("host", (16, 16, 2), "bf16") < 5e-2
