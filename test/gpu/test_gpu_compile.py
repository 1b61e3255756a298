"""Compile-only matrix for IREE's GPU backends: convopt --device=gpu output
built by iree-compile for rocm (gfx942), cuda (sm_80) and vulkan-spirv
(test/gpu/gpu_compile.py has the flags).  No GPU is needed, none is used:
what is checked is that the IR builds.

A failing build names the op IREE failed on and the raw import's result on
the same input (the torch IR given to iree-compile directly), so that an
IREE limitation the raw import shares is told apart from one convopt
causes.  make test builds a fast slice (two small named rows per target);
CONVOPT_GPU_FULL=1 (make test-full) builds every model of test/models and
every named e2e row for every target.  The decomposed path
(`--backend-legal-ops=`: convolution_backward decomposed into convolutions,
which the same GPU forms lower) builds the same rows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import gpu_compile
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import harness  # noqa: E402
import pool_harness  # noqa: E402

FULL = os.environ.get("CONVOPT_GPU_FULL") == "1"
MODELS = Path(__file__).resolve().parents[1] / "models"

# The fast slice: a strided 2-D row (scatter by phases, padded gather and
# weight kernels) and a dynamic transposed 1-D row (which the raw import
# cannot lower at all), per target.
SLICE = ("2d_stride2", "1d_dynamic_transposed")


def cases() -> list[tuple[str, str]]:
    rows = [c.name for c in harness.named_matrix() if FULL or c.name in SLICE]
    models = sorted(p.stem for p in MODELS.glob("*.mlir")) if FULL else []
    return [(f"row:{n}", t) for n in rows for t in gpu_compile.TARGETS] + [(f"model:{n}", t) for n in models for t in gpu_compile.TARGETS]


def decomposed_cases() -> list[tuple[str, str]]:
    """The decomposed path (`--backend-legal-ops=`: convolution_backward
    decomposed into convolutions, then lowered with the same GPU forms) on
    the same rows."""
    return [(f"row:{c.name}", t) for c in harness.named_matrix() if FULL or c.name in SLICE for t in gpu_compile.TARGETS]


def torch_text(name: str) -> str:
    kind, _, what = name.partition(":")
    if kind == "model":
        return (MODELS / f"{what}.mlir").read_text()
    return harness.torch_ir({c.name: c for c in harness.named_matrix()}[what])


# Builds that fail for a reason outside convopt's ops, the raw import alike
# (reproducers in test/gpu/repro/, bench/README.md "GPU builds").
KNOWN_IREE_FAILURES = {
    ("model:dynamic_batch_cnn", "vulkan"): "repro/vulkan_var_mean_dynamic.mlir: IREE's SPIR-V path cannot mask BatchNorm's var_mean over a dynamic batch",
    # The raw import cannot build it anywhere (no lowering of avg_pool2d_backward);
    # `convopt --lower-pool-bwd --device=gpu` (IREE lowers every convolution
    # itself, convopt only the pools) fails on the same dispatch.
    ("model:densenet_small", "vulkan"): "IREE's vulkan-spirv tiles a 1x1 convolution's matmul_like_2x48x1024x48_f32 dispatch into "
                                        "68608 bytes of shared memory (limit 65536), with convopt lowering only the pools too",
}


# Builds that fail on convopt's form while the raw import builds: open.
# (row:2d_dynamic_channels on vulkan was one until the phases' weight taps
# became blocks of one flat copy, kernel/taps.py: it builds since;
# repro/vulkan_dynamic_channels_phase.mlir keeps the old form.)
OPEN_CONVOPT_FAILURES: dict[tuple[str, str], str] = {}


# Decomposed-path builds that fail where the raw import fails too (and the
# direct path builds): reproducers in test/gpu/repro/vulkan_decomposed_*.mlir.
KNOWN_DECOMPOSED_FAILURES = {
    ("row:2d_dynamic_batch", "vulkan"): "repro/vulkan_decomposed_dynamic_batch.mlir: 'vector.mask' op expects only one operation to mask",
    ("row:2d_dynamic_spatial", "vulkan"): "repro/vulkan_decomposed_dynamic_spatial.mlir: unresolved materialization of a dynamic strided memref",
}


@pytest.mark.parametrize("name,target", decomposed_cases(), ids=lambda x: x)
def test_gpu_build_decomposed(name: str, target: str) -> None:
    text = torch_text(name)
    built = gpu_compile.compile_text(gpu_compile.convopt_output(text, "gpu", decomposed=True), target)
    known = KNOWN_DECOMPOSED_FAILURES.get((name, target))
    if built.ok:
        assert known is None, f"{name} now builds for {target} on the decomposed path: remove it from KNOWN_DECOMPOSED_FAILURES"
        return
    raw = gpu_compile.compile_text(text, target)
    if known is not None and not raw.ok:
        pytest.xfail(f"{known} (convopt: {built.short()}; raw import: {raw.short()})")
    pytest.fail(f"{name} for {target}: convopt --device=gpu --backend-legal-ops= does not build: {built.short()}; the raw import: {raw.short()}")


@pytest.mark.parametrize("name,target", cases(), ids=lambda x: x)
def test_gpu_build(name: str, target: str) -> None:
    text = torch_text(name)
    built = gpu_compile.compile_text(gpu_compile.convopt_output(text, "gpu"), target)
    known = KNOWN_IREE_FAILURES.get((name, target)) or OPEN_CONVOPT_FAILURES.get((name, target))
    if built.ok:
        assert known is None, f"{name} now builds for {target}: remove it from KNOWN_IREE_FAILURES / OPEN_CONVOPT_FAILURES"
        return
    raw = gpu_compile.compile_text(text, target)
    if (name, target) in OPEN_CONVOPT_FAILURES and raw.ok:
        pytest.xfail(f"OPEN: {known} (convopt: {built.short()}; raw import: {raw.short()})")
    if known is not None and not raw.ok:
        pytest.xfail(f"{known} (convopt: {built.short()}; raw import: {raw.short()})")
    pytest.fail(f"{name} for {target}: convopt --device=gpu does not build: {built.short()}; the raw import: {raw.short()}")


# Average-pooling backward (pool_harness.matrix(), --lower-pool-bwd
# --device=gpu): two rows per target in make test (a ceil_mode row with a
# per-window divisor, a dynamic-batch stride-1 row), every row under
# CONVOPT_GPU_FULL=1.  The raw import has no lowering for the op at all.
POOL_SLICE = ("2d_k3s2p1_ceil_exclude", "2d_dynamic_batch_k3s1p1")


def pool_cases() -> list[tuple[str, str]]:
    return [(c.name, t) for c in pool_harness.matrix() if FULL or c.name in POOL_SLICE for t in gpu_compile.TARGETS]


@pytest.mark.parametrize("name,target", pool_cases(), ids=lambda x: x)
def test_gpu_build_pool(name: str, target: str) -> None:
    cfg = {c.name: c for c in pool_harness.matrix()}[name]
    built = gpu_compile.compile_text(gpu_compile.convopt_output(pool_harness.torch_ir(cfg), "gpu"), target)
    assert built.ok, f"{name} for {target}: convopt --lower-pool-bwd --device=gpu does not build: {built.short()}"


def test_known_failures_are_reproduced() -> None:
    # The reproducer fails where the table says, and builds for rocm: the
    # failure is the target's, not the input's.
    repro = (Path(__file__).parent / "repro" / "vulkan_var_mean_dynamic.mlir").read_text()
    vulkan = gpu_compile.compile_text(repro, "vulkan")
    assert not vulkan.ok and vulkan.op == "vector.mask", vulkan.short()
    assert gpu_compile.compile_text(repro, "rocm").ok


def test_failure_names_the_op() -> None:
    # A form IREE's rocm pipeline rejects (a depthwise weight gradient with
    # the image second, see test/gpu/repro/): the op and the first error are read.
    bad = (Path(__file__).parent / "repro" / "wgrad_image_second.mlir").read_text()
    built = gpu_compile.compile_text(bad, "rocm")
    assert not built.ok
    assert built.op == "linalg.generic"
    assert "failed to pack reduction dimensions" in built.error


def test_readme_recipes_use_these_flags() -> None:
    # README's "Building for GPUs" recipes are the flags built here.
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for flags in gpu_compile.TARGETS.values():
        assert "iree-compile " + " ".join(gpu_compile.COMMON + flags) + " model.gpu.mlir" in readme, flags
