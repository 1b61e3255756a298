"""Which packed-matmul tiles does IREE compile right for which CPU?

    python test/fuzz/packed_sweep.py                  # the whole sweep (make fuzz)
    python test/fuzz/packed_sweep.py --cpus znver2 --tiles 16x16x1 --dtypes f32 --print-ir

For every target CPU x tile shape (M0 x N0 x K0) x element type it builds the
smallest module of the form convopt's `--matmul-tiles` emits,

    A4 = linalg.pack A [M, K] -> [M/M0, K/K0, M0, K0]
    B4 = linalg.pack B [K, N] -> [N/N0, K/K0, N0, K0]   (outer and inner dims transposed)
    C4 = linalg.mmt4d A4, B4 (f32 accumulator, zero-filled)
    C  = linalg.unpack C4 -> [M, N]

with M, N, K multiples of the tiles (no padding), compiles it with
`iree-compile --iree-llvmcpu-target-cpu=CPU` and runs it on this machine
(so a target CPU must be one this machine can execute: its features a subset
of the host's) against numpy's product of the same values.  The packed IR is
right (convopt's interpreter agrees with numpy on it, test/unit/test_packed.py):
a wrong result is IREE's.  Each result is compared with convopt's rule of
what IREE miscompiles (packed.MAX_N0_WITHOUT_AVX512, over the CPU flags of
harness.TARGET_CPU_FLAGS): the sweep exits 1 when a case contradicts it (a
tile convopt would emit is wrong, or the rule is stale).  The findings are
in test/fuzz/crashes/README.md.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))

CPUS = ("host", "skylake-avx512", "znver4", "znver2", "haswell", "x86-64-v3")
TILES = ((16, 16, 1), (8, 16, 1), (16, 16, 2), (8, 16, 2), (8, 8, 1), (4, 8, 1))
DTYPES = ("f32", "bf16")


def module(m: int, n: int, k: int, tile: tuple[int, int, int], dtype: str) -> str:
    """The pack + mmt4d + unpack module of an [m, k] x [k, n] product."""
    m0, n0, k0 = tile
    mo, no, ko = m // m0, n // n0, k // k0
    t = dtype
    a4, b4, c4 = f"tensor<{mo}x{ko}x{m0}x{k0}x{t}>", f"tensor<{no}x{ko}x{n0}x{k0}x{t}>", f"tensor<{mo}x{no}x{m0}x{n0}xf32>"
    return f"""func.func @main(%a: tensor<{m}x{k}x{t}>, %b: tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.000000e+00 : f32
  %ea = tensor.empty() : {a4}
  %a4 = linalg.pack %a outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [{m0}, {k0}] into %ea : tensor<{m}x{k}x{t}> -> {a4}
  %eb = tensor.empty() : {b4}
  %b4 = linalg.pack %b outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [{n0}, {k0}] into %eb : tensor<{k}x{n}x{t}> -> {b4}
  %ec = tensor.empty() : {c4}
  %acc = linalg.fill ins(%zero : f32) outs(%ec : {c4}) -> {c4}
  %c4 = linalg.mmt4d ins(%a4, %b4 : {a4}, {b4}) outs(%acc : {c4}) -> {c4}
  %ecm = tensor.empty() : tensor<{m}x{n}xf32>
  %c = linalg.unpack %c4 outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [{m0}, {n0}] into %ecm : {c4} -> tensor<{m}x{n}xf32>
  return %c : tensor<{m}x{n}xf32>
}}
"""


def run_case(cpu: str, tile: tuple[int, int, int], dtype: str, m: int = 64, n: int = 64, k: int = 128) -> float:
    """The relative error of IREE's result for one case (scaled by max(1, max|ref|))."""
    import iree.compiler as ireec
    import iree.runtime as ireert
    import ml_dtypes

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((m, k), dtype=np.float32), rng.standard_normal((k, n), dtype=np.float32)
    if dtype == "bf16":
        a, b = a.astype(ml_dtypes.bfloat16), b.astype(ml_dtypes.bfloat16)
    vmfb = ireec.compile_str(module(m, n, k, tile, dtype), target_backends=["llvm-cpu"], extra_args=[f"--iree-llvmcpu-target-cpu={cpu}"])
    ctx = ireert.SystemContext(config=ireert.Config("local-sync"))
    ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, vmfb))
    got = np.asarray(ctx.modules.module["main"](a, b)).astype(np.float64)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    return float(np.max(np.abs(got - ref)) / max(1.0, float(np.max(np.abs(ref)))))


def predicted_wrong(cpu: str, tile: tuple[int, int, int]) -> bool:
    """convopt's rule: IREE 3.13 miscompiles tiles of more than
    MAX_N0_WITHOUT_AVX512 columns for a CPU without avx512f."""
    import harness

    from convopt.lowering.kernel.device import read_host_flags
    from convopt.lowering.kernel.packed import MAX_N0_WITHOUT_AVX512

    flags = read_host_flags() if cpu == "host" else frozenset(harness.TARGET_CPU_FLAGS.get(cpu, ()))
    return tile[1] > MAX_N0_WITHOUT_AVX512 and "avx512f" not in flags


def missing_flags(cpu: str) -> frozenset[str]:
    """The CPU flags code for `cpu` needs that this host lacks (its cases
    would die with SIGILL here, e.g. skylake-avx512 on an AVX2 host)."""
    import harness

    from convopt.lowering.kernel.device import read_host_flags

    return frozenset(harness.TARGET_CPU_FLAGS.get(cpu, ())) - read_host_flags() if cpu != "host" else frozenset()


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cpus", default=",".join(CPUS))
    p.add_argument("--tiles", default=",".join("x".join(map(str, t)) for t in TILES))
    p.add_argument("--dtypes", default=",".join(DTYPES))
    p.add_argument("--print-ir", action="store_true", help="print the module of each case instead of running it")
    args = p.parse_args(argv)
    tiles = [tuple(int(x) for x in t.split("x")) for t in args.tiles.split(",")]
    wrong = unexpected = 0
    print(f"{'cpu':16} {'tile':9} {'dtype':5} result")
    for cpu in args.cpus.split(","):
        lacks = missing_flags(cpu)
        if lacks and not args.print_ir:
            print(f"{cpu:16} skipped: this host lacks {', '.join(sorted(lacks))}", flush=True)
            continue
        for tile in tiles:
            for dtype in args.dtypes.split(","):
                name = "x".join(map(str, tile))
                if args.print_ir:
                    print(module(64, 64, 128, tile, dtype))  # type: ignore[arg-type]
                    continue
                try:
                    err = run_case(cpu, tile, dtype)  # type: ignore[arg-type]
                except Exception as e:  # a compile or run failure is a finding too
                    unexpected += 1
                    print(f"{cpu:16} {name:9} {dtype:5} FAILED {str(e).splitlines()[0][:100]}", flush=True)
                    continue
                is_wrong = err >= (5e-2 if dtype == "bf16" else 1e-4)
                agrees = is_wrong == predicted_wrong(cpu, tile)  # type: ignore[arg-type]
                wrong += is_wrong
                unexpected += not agrees
                verdict = ("WRONG" if is_wrong else "ok") + ("" if agrees else " (UNEXPECTED: convopt's rule says otherwise)")
                print(f"{cpu:16} {name:9} {dtype:5} {verdict} (relative error {err:.2e})", flush=True)
    print(f"{wrong} wrong, {unexpected} unexpected")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
