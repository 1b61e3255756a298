"""End to end: every configuration of the matrix through convopt, IREE and
PyTorch, on both paths.

* direct:     --lower-conv-bwd (target linalg: everything legal)
* decomposed: --lower-conv-bwd --backend-legal-ops= (nothing legal)
* rocmlir:    --lower-conv-bwd --target=rocmlir (MIGraphX's rule: per op,
              direct or decomposed)
* torch-mlir: --decompose-conv-bwd, lowered by torch-mlir's own backend
              pipeline -- the decomposition is right on its own.

Each case also checks the MAC efficiency of the emitted IR against the bound
of its class; the session fails if the direct path's geometric mean over the
suite is below 0.9 (conftest.py).
"""

from __future__ import annotations

import dataclasses

import harness
import pytest
from e2e_results import record

CONFIGS = harness.all_configs()
STATIC = [c for c in CONFIGS if not c.dynamic]

PATHS = {
    "direct": ("--lower-conv-bwd",),
    "decomposed": ("--lower-conv-bwd", "--backend-legal-ops="),
    "rocmlir": ("--lower-conv-bwd", "--target=rocmlir"),
}

# Lower bounds of MAC efficiency per class.  Static shapes are peeled where
# padding would waste more than 5% per dim; dynamic spatial dims go by taps
# (exact) on the direct path, but the decomposition's grad_weight convolution
# then has a dynamic kernel, which is zero-padded.  Under rocmlir an op goes
# either path, so its dynamic bound is the decomposed one.  A dynamic kernel
# size (the weight's) leaves only padded forms: the gather and weight
# kernels over zero-padded operands, the scatter as one padded gather per
# output phase (kernels.phase_pieces); the worst named row is the
# over-padded one (0.58).
BOUNDS = {
    ("direct", "static"): 0.85,
    ("direct", "spatial"): 0.85,
    ("decomposed", "static"): 0.85,
    ("decomposed", "spatial"): 0.0,
    ("rocmlir", "static"): 0.85,
    ("rocmlir", "spatial"): 0.0,
}
for _path in PATHS:
    BOUNDS[(_path, "kernel")] = 0.5


def dynamic_class(cfg: harness.Config) -> str:
    return "kernel" if "kernel" in cfg.dynamic else "spatial" if "spatial" in cfg.dynamic else "static"


def efficiency_bound(cfg: harness.Config, path: str) -> float:
    """The bound of the case's class, or, where the cost model picks a
    padded variant (im2col padded, col2im, generic compact: where they were
    measured faster, convopt/lowering/kernel/cost.py), as inefficient as
    zero padding, never worse: useful / padded_macs.  The suite's geomean
    bound (conftest.py) holds over every case."""
    bound = BOUNDS[(path, dynamic_class(cfg))]
    padded = harness.padded_macs(cfg)
    if (int(cfg.mask[0]) + int(cfg.mask[1])) and padded:
        bound = min(bound, harness.useful_macs(cfg) / padded)
    return bound


# torch-mlir's own TorchToLinalg fails on a depthwise transposed convolution
# (an invalid tensor.collapse_shape), and computes a wrong transposed
# convolution when the weight's kernel size is dynamic and the padding
# exceeds dilation*(kernel-1) (relative error 1.2; convopt's lowering of the
# same decomposed IR is right): torch-mlir's bugs, not the decomposition's.
# Row -> (why, the text its failure must hold).
TORCH_MLIR_FAILS = {
    "2d_depthwise": ("torch-mlir's TorchToLinalg cannot lower a depthwise transposed convolution",
                     "'tensor.collapse_shape' op expected reassociation map"),
    "2d_dynamic_everything_overpadding": ("torch-mlir's TorchToLinalg is wrong for a transposed convolution with a dynamic kernel and "
                                          "padding > dilation*(kernel-1)", "via torch-mlir: result"),
}


NAMED = {c.name for c in harness.named_matrix()}


def sweeps(cfg: harness.Config, slice_rows: frozenset | set = frozenset()) -> list:
    """The sweeps (test/conftest.py) a case of cfg belongs to: the i-th
    random row is the i-th of "e2e-random" (make test runs the first
    --e2e-random); a named row outside slice_rows (if given) is one of
    "e2e-forms" (--e2e-forms=all)."""
    if cfg.name not in NAMED:
        return [pytest.mark.sweep("e2e-random", cfg.seed)]
    return [pytest.mark.sweep("e2e-forms")] if slice_rows and cfg.name not in slice_rows else []


def path_cases() -> list:
    """The direct path on every configuration; the decomposed and rocmlir
    paths on the random ones and, in make test, one named row per feature
    (harness.FORM_ROWS: the interpreter tier, test_interp.py, runs both on
    every named row in seconds); --e2e-forms=all (make test-full, CI):
    every path on every configuration."""
    return [pytest.param(c, p, id=f"{c.name}-{p}", marks=sweeps(c, set() if p == "direct" else harness.FORM_ROWS)) for c in CONFIGS for p in sorted(PATHS)]


@pytest.mark.parametrize("cfg,path", path_cases())
def test_numerics_and_efficiency(cfg: harness.Config, path: str) -> None:
    outcome = harness.check(cfg, PATHS[path])
    record({"path": path, "name": cfg.name, "errors": outcome.errors, "executed": outcome.executed, "useful": outcome.useful})
    bound = efficiency_bound(cfg, path)
    if outcome.executed:
        assert outcome.efficiency >= bound, f"{cfg.name} ({path}): MAC efficiency {outcome.efficiency:.3f} < {bound}"
    check_work(cfg, outcome)


def check_work(cfg: harness.Config, outcome: harness.Outcome) -> None:
    """The IR multiplies at least as often as useful; with a size-0 dim
    (PyTorch computes nothing) it must not multiply at all."""
    if cfg.empty:
        assert outcome.executed == outcome.useful == 0, f"{cfg.name}: {outcome.executed} multiply-adds for an empty convolution"
    elif any(cfg.mask[:2]):
        assert outcome.executed >= outcome.useful > 0


# Forced forms over the named matrix: the matmul forms (im2col / col2im) and
# the named convolutions are checked numerically even where auto would not
# pick them (small shapes).  make test runs them through IREE on one row per
# feature (harness.FORM_ROWS, which the interpreter tier runs on every form
# in seconds, test_interp.py); --e2e-forms=all (make test-full, CI) on every row.
FORM_CONFIGS = [pytest.param(c, id=c.name, marks=sweeps(c, harness.FORM_ROWS)) for c in harness.named_matrix() if not c.empty]  # empty: no kernel, no form
FORMS = {
    "im2col": ("--lower-conv-bwd", "--conv-form=im2col"),
    "im2col-decomposed": ("--lower-conv-bwd", "--backend-legal-ops=", "--conv-form=im2col"),
    "named-decomposed": ("--lower-conv-bwd", "--backend-legal-ops=", "--conv-form=named"),
    "taps": ("--lower-conv-bwd", "--conv-form=taps"),
}


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("cfg", FORM_CONFIGS)
def test_forms(cfg: harness.Config, form: str) -> None:
    outcome = harness.check(cfg, FORMS[form])
    record({"path": form, "name": cfg.name, "errors": outcome.errors, "executed": outcome.executed, "useful": outcome.useful})
    check_work(cfg, outcome)


# --matmul-tiles=avx512: the packed matmul form (pack, mmt4d, unpack) is
# compiled by IREE and compared to PyTorch on layers large enough to take it
# (the matrix above is too small): a stem-like grad_weight (147 rows,
# swapped, 8-row tiles) and a dense 3x3 layer (col2im and im2col matmuls,
# forced), in bf16 and f32.  Host-dependent: they run where IREE's target
# CPU has AVX-512 and are skipped elsewhere (IREE 3.13 miscompiles the tiles
# for AVX2 CPUs, test/fuzz/packed_sweep.py); the interpreter checks the same
# IR on every machine (test/unit/test_packed.py).
TILED = [
    harness.C("stem_like", batch=1, cin=3, cout=16, spatial=64, kernel=7, stride=2, padding=3, mask=(False, True, False)),
    harness.C("dense_3x3", batch=2, cin=32, cout=64, spatial=16, kernel=3, padding=1, mask=(True, True, False)),
    # auto form: bf16 grad_input as im2col of grad_output + packed matmul
    # (tiles.scatter_matmul), f32 as conv_2d_nhwc_hwcf
    harness.C("dense_3x3_auto", batch=2, cin=32, cout=64, spatial=16, kernel=3, padding=1, mask=(True, False, False)),
]
TILED_ARGS = {
    "stem_like": ("--lower-conv-bwd", "--matmul-tiles=avx512"),
    "dense_3x3": ("--lower-conv-bwd", "--matmul-tiles=avx512", "--conv-form=im2col"),
    "dense_3x3_auto": ("--lower-conv-bwd", "--matmul-tiles=avx512"),
}


@pytest.mark.parametrize("dtype", ["bf16", "f32"])
@pytest.mark.parametrize("cfg", TILED, ids=lambda c: c.name)
def test_matmul_tiles(cfg: harness.Config, dtype: str) -> None:
    if "avx512f" not in harness.target_cpu_flags():  # host-dependent: IREE miscompiles these tiles without AVX-512
        pytest.skip(f"needs an AVX-512 target CPU (IREE target {harness.IREE_TARGET_CPU}): IREE 3.13 computes wrong results for "
                    "16-column mmt4d tiles on AVX2 (packed.MAX_N0_WITHOUT_AVX512); test_packed.py checks the IR with the interpreter")
    cfg = dataclasses.replace(cfg, dtype=dtype)
    args = TILED_ARGS[cfg.name]
    ir = harness.lower(harness.torch_ir(cfg), args)
    assert ("linalg.mmt4d" in ir) == (cfg.name != "dense_3x3_auto" or dtype == "bf16")
    outcome = harness.check(cfg, args)
    record({"path": "matmul-tiles-avx512", "name": f"{cfg.name}_{dtype}", "errors": outcome.errors, "executed": outcome.executed, "useful": outcome.useful})
    assert outcome.executed >= outcome.useful > 0


# convopt's decomposition lowered by torch-mlir's own backend pipeline: the
# decomposition is right without convopt's lowering (the decomposed path
# checks it with convopt's on every row).  make test: one row per feature and
# the rows torch-mlir fails on; --e2e-forms=all: every named row.
TORCH_MLIR_CONFIGS = [pytest.param(c, id=c.name, marks=sweeps(c, harness.FORM_ROWS | TORCH_MLIR_FAILS.keys())) for c in harness.named_matrix()]


@pytest.mark.parametrize("cfg", TORCH_MLIR_CONFIGS)
def test_decomposition_through_torch_mlir(cfg: harness.Config) -> None:
    if cfg.name in TORCH_MLIR_FAILS:  # still failing as it did, or the entry is stale
        why, error = TORCH_MLIR_FAILS[cfg.name]
        try:
            harness.check_through_torch_mlir(cfg)
        except (AssertionError, RuntimeError) as e:
            assert error in str(e), f"{cfg.name} fails otherwise than TORCH_MLIR_FAILS says ({error!r}): {e}"
            pytest.xfail(why)
        pytest.fail(f"torch-mlir now handles {cfg.name}: remove it from TORCH_MLIR_FAILS")
    outcome = harness.check_through_torch_mlir(cfg)
    record({"path": "torch-mlir", "name": cfg.name, "errors": outcome.errors, "executed": 0, "useful": 0})


# The forced `taps` weight form (forms/tap_matmul.py) where some taps reach
# no input position (dilation 3, padding 4 on a 1-wide input: only the middle
# tap reads it) and with the batch of one (no batch dim to sum).
TAPS_EDGES = [
    harness.C("taps_missing", 1, batch=2, cin=3, cout=5, spatial=1, kernel=3, padding=4, dilation=3, mask=(False, True, False)),
    harness.C("taps_batch1", 3, batch=1, cin=4, cout=8, spatial=(4, 5, 5), kernel=(3, 1, 1), padding=(1, 0, 0), mask=(False, True, False)),
]


@pytest.mark.parametrize("cfg", TAPS_EDGES, ids=lambda c: c.name)
def test_taps_form_edges(cfg: harness.Config) -> None:
    lowered = harness.lower(harness.torch_ir(cfg), FORMS["taps"])
    assert lowered.count("arith.select") == (1 if cfg.name == "taps_missing" else 2)  # one test per tap read, the last one free
    outcome = harness.check(cfg, FORMS["taps"])
    assert outcome.executed == outcome.useful > 0
    check_work(cfg, outcome)
