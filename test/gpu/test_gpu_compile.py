"""Compile-only matrix for IREE's GPU backends: convopt --device=gpu output
built by iree-compile for rocm (gfx942), cuda (sm_80) and vulkan-spirv
(test/gpu/gpu_compile.py has the flags).  No GPU is needed, none is used:
what is checked is that the IR builds.

A failing build names the op IREE failed on and the raw import's result on
the same input (the torch IR given to iree-compile directly), so that an
IREE limitation the raw import shares is told apart from one convopt
causes.  make test builds a fast slice (two small named rows per target);
the "gpu" sweep (--gpu-full, make test-full; test/conftest.py) builds every
model of test/models and every named e2e row for every target.  A build
expected to fail (a `Known` below) must fail with the error it names.  The decomposed path
(`--backend-legal-ops=`: convolution_backward decomposed into convolutions,
which the same GPU forms lower) builds the same rows.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from pathlib import Path

import gpu_compile
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import harness  # noqa: E402
import pool_harness  # noqa: E402

MODELS = Path(__file__).resolve().parents[1] / "models"

# The fast slice: a strided 2-D row (scatter by phases, padded gather and
# weight kernels) and a dynamic transposed 1-D row (which the raw import
# cannot lower at all), per target.
SLICE = ("2d_stride2", "1d_dynamic_transposed")


SWEEP = pytest.mark.sweep("gpu")


def params(names: list[str], fast: tuple[str, ...] = ()) -> list:
    """(name, target) cases for every target; those of names not in fast
    are the "gpu" sweep's."""
    return [pytest.param(n, t, marks=() if n in fast else SWEEP) for n in names for t in gpu_compile.TARGETS]


def cases() -> list:
    rows = [f"row:{c.name}" for c in harness.named_matrix()]
    return params(rows, tuple(f"row:{n}" for n in SLICE)) + params([f"model:{p.stem}" for p in sorted(MODELS.glob("*.mlir"))])


def decomposed_cases() -> list:
    """The decomposed path (`--backend-legal-ops=`: convolution_backward
    decomposed into convolutions, then lowered with the same GPU forms) on
    the same rows."""
    return params([f"row:{c.name}" for c in harness.named_matrix()], tuple(f"row:{n}" for n in SLICE))


def torch_text(name: str) -> str:
    kind, _, what = name.partition(":")
    if kind == "model":
        return (MODELS / f"{what}.mlir").read_text()
    return harness.torch_ir({c.name: c for c in harness.named_matrix()}[what])


@dataclass(frozen=True)
class Known:
    """A build expected to fail: why, and the text its error must hold
    (Build.error: the first error line, or IREE's crash banner)."""

    why: str
    error: str


def expect_failure(name: str, target: str, built: gpu_compile.Build, known: Known, raw: gpu_compile.Build | None = None) -> None:
    """xfail a failed build that fails as `known` says; fail one that fails otherwise."""
    if known.error not in built.error:
        pytest.fail(f"{name} for {target} fails otherwise than expected ({known.error!r}): {built.short()}")
    pytest.xfail(f"{known.why} (convopt: {built.short()}" + (f"; raw import: {raw.short()})" if raw else ")"))


_MASK = "'vector.mask' op expects only one operation to mask"
_CRASH = "Please report issues to https://github.com/iree-org/iree/issues"
"""IREE's banner when iree-compile crashes (no error line)."""

# Builds that fail for a reason outside convopt's ops, the raw import alike
# (reproducers in test/gpu/repro/, bench/README.md "GPU builds").
KNOWN_IREE_FAILURES = {
    ("model:dynamic_batch_cnn", "vulkan"): Known("repro/vulkan_var_mean_dynamic.mlir: IREE's SPIR-V path cannot mask BatchNorm's var_mean over a dynamic batch", _MASK),
    # The raw import cannot build it anywhere (no lowering of avg_pool2d_backward);
    # `convopt --lower-pool-bwd --device=gpu` (IREE lowers every convolution
    # itself, convopt only the pools) fails on the same dispatch.
    ("model:densenet_small", "vulkan"): Known("IREE's vulkan-spirv tiles a 1x1 convolution's matmul_like_2x48x1024x48_f32 dispatch into "
                                              "68608 bytes of shared memory (limit 65536), with convopt lowering only the pools too",
                                              "uses 68608 bytes of shared memory"),
}


# Builds that fail on convopt's form while the raw import builds (or fails
# earlier): open.
# (row:2d_dynamic_channels on vulkan was one until the phases' weight taps
# became dense blocks, kernel/taps.py: it builds since;
# repro/vulkan_dynamic_channels_phase.mlir keeps the old form.  r2plus1d
# through README's recipe was one on cuda while those blocks were written by
# one flat copy (repro/cuda_tap_copy_umul_lohi.mlir keeps that form), and on
# vulkan while a phase reduced over taps that read only zero padding
# (relation.reaching_taps; repro/vulkan_matmul_like_three_taps.mlir).)
OPEN_CONVOPT_FAILURES: dict[tuple[str, str], Known] = {}


# Decomposed-path builds that fail where the raw import fails too (and the
# direct path builds): reproducers in test/gpu/repro/vulkan_decomposed_*.mlir.
KNOWN_DECOMPOSED_FAILURES = {
    ("row:2d_dynamic_batch", "vulkan"): Known("repro/vulkan_decomposed_dynamic_batch.mlir", _MASK),
    ("row:2d_dynamic_spatial", "vulkan"): Known("repro/vulkan_decomposed_dynamic_spatial.mlir: unresolved materialization of a dynamic strided memref",
                                                "failed to legalize unresolved source materialization"),
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
        expect_failure(name, target, built, known, raw)
    pytest.fail(f"{name} for {target}: convopt --device=gpu --backend-legal-ops= does not build: {built.short()}; the raw import: {raw.short()}")


@pytest.mark.parametrize("name,target", cases(), ids=lambda x: x)
def test_gpu_build(name: str, target: str) -> None:
    text = torch_text(name)
    built = gpu_compile.compile_text(recipe_output(name, text), target)
    known = KNOWN_IREE_FAILURES.get((name, target)) or OPEN_CONVOPT_FAILURES.get((name, target))
    if built.ok:
        assert known is None, f"{name} now builds for {target}: remove it from KNOWN_IREE_FAILURES / OPEN_CONVOPT_FAILURES"
        return
    raw = gpu_compile.compile_text(text, target)
    if (name, target) in OPEN_CONVOPT_FAILURES and raw.ok:
        expect_failure(name, target, built, OPEN_CONVOPT_FAILURES[(name, target)], raw)
    if (name, target) in KNOWN_IREE_FAILURES and not raw.ok:
        expect_failure(name, target, built, KNOWN_IREE_FAILURES[(name, target)], raw)
    pytest.fail(f"{name} for {target}: convopt --device=gpu does not build: {built.short()}; the raw import: {raw.short()}")


# bf16 and f16 (issue 26).  make test: two bf16 rows per target, a strided
# one (the scatter by phases, its taps and interleave in bf16, f32
# accumulators truncated) and a grouped one (the 2d_bf16 row).
# The "gpu" sweep: every training step of bench/lowp (the model suite
# traced in bf16 and f16, test/models/generate.py --dtype) per target,
# through README's GPU recipe (--lower-forward-convs where IREE's own
# lowering of the forward convolutions fails: model_zoo's known failures of
# the iree pipeline); the whole matrix with IREE's own next to it is
# `bench/gpu.py --models-dir bench/lowp` (bench/README.md, "Matrix cores").
LOWP = Path(__file__).resolve().parents[2] / "bench" / "lowp"
LOWP_ROWS = (dataclasses.replace({c.name: c for c in harness.named_matrix()}["2d_stride2"], name="2d_stride2_bf16", dtype="bf16"),
             {c.name: c for c in harness.named_matrix()}["2d_bf16"])

# Steps that fail for a reason outside convopt's ops, the raw import alike
# (bench/README.md, "Matrix cores", the bf16/f16 build matrix; reproducers
# in test/gpu/repro/).
_BITCAST = Known("IREE's SPIR-V path cannot legalize the 'vector.bitcast' of its bf16 emulation (vector<4xbf16> <-> vector<2xf32>)",
                 "failed to legalize operation 'vector.bitcast'")
_MMA_F16 = Known("IREE's SPIR-V cooperative-matrix pipeline generates no subgroup MMA op", "no GPU subgroup mma compute ops generated")
_CRASHES = Known("iree-compile crashes on vulkan-spirv (the raw import alike where it gets that far; densenet/inception's stops at their pools)",
                 _CRASH)
_MASKS = Known("repro/vulkan_var_mean_dynamic.mlir (f32 alike)", _MASK)
_SMEM = Known("IREE's rocm configuration of a matmul_like_48x8x2x256 dispatch both flows have takes 73728 bytes of shared memory (limit 65536)",
              "uses 73728 bytes of shared memory")
KNOWN_LOWP_FAILURES: dict[tuple[str, str], Known] = {
    ("model:mobilenet_v2_slice.bf16", "rocm"): _SMEM,
    ("model:mobilenet_v2_slice.f16", "rocm"): _SMEM,
    **{(f"model:{m}.bf16", "vulkan"): _BITCAST for m in ("c3d", "dcgan_generator", "mobilenet_v2_slice", "resnet18")},
    ("model:convnext_channels_last.bf16", "vulkan"): Known("a bf16 memref in IREE's SPIR-V cooperative matrix load",
                                                           "'gpu.subgroup_mma_load_matrix' op operand #0 must be"),
    ("model:resnet18.f16", "vulkan"): _MMA_F16,
    **{(f"model:{m}.{d}", "vulkan"): _CRASHES for m in ("densenet_small", "efficientnet_se", "inception_small") for d in ("bf16", "f16")},
    **{(f"model:{m}", "vulkan"): _CRASHES for m in ("resnet50_slim.bf16", "resnet50_slim.f16", "shufflenet_v2.bf16", "shufflenet_v2.f16")},
    **{(f"model:video_block.{d}", "vulkan"): _MMA_F16 for d in ("bf16", "f16")},
    **{(f"model:resnext_block.{d}", "vulkan"): _CRASHES for d in ("bf16", "f16")},
    **{(f"model:dynamic_batch_cnn.{d}", "vulkan"): _MASKS for d in ("bf16", "f16")},
    # Through README's recipe (the raw import fails earlier, on torch-mlir's
    # forward convolution): each dispatch built alone, the step's classifier
    # matmul (matmul_2x64x10 and its gradient, IREE's own lowering of
    # aten.mm) fails with _BITCAST, as do convopt's contractions.
    ("model:r2plus1d.bf16", "vulkan"): Known(_CRASHES.why + "; IREE's own classifier matmul fails alone: " + _BITCAST.why, _CRASH),
}

# Steps that fail on convopt's form (the raw import builds, or fails
# elsewhere): open.
OPEN_LOWP_FAILURES: dict[tuple[str, str], Known] = {
    ("row:2d_stride2_bf16", "vulkan"): Known(_BITCAST.why + " on convopt's strided scatter (phases, taps, interleave); the raw import of the row builds",
                                             _BITCAST.error),
    ("model:convnext_channels_last.f16", "vulkan"): Known(_MMA_F16.why + " on convopt's output; the raw import builds", _MMA_F16.error),
    # r2plus1d's recipe has --lower-forward-convs: the raw import fails
    # earlier, on torch-mlir's invalid lowering of its strided 3x1x1 forward
    # convolution.  Each dispatch built alone (--compile-mode=hal-executable):
    # 8 of convopt's contractions fail as convnext's f16 does, and one weight
    # kernel (matmul_like_64x144x2x16) crashes iree-compile.
    ("model:r2plus1d.f16", "vulkan"): Known("iree-compile crashes on vulkan-spirv; " + _MMA_F16.why + " on 8 of convopt's contractions", _CRASH),
}


def lowp_cases() -> list:
    rows = [f"row:{c.name}" for c in LOWP_ROWS]
    return params(rows, tuple(rows)) + params([f"model:{p.stem}" for p in sorted(LOWP.glob("*.mlir"))])


def recipe_output(name: str, text: str) -> str:
    """convopt's output of case `name` ("row:..." or "model:<stem>") by
    README's GPU recipe: with --lower-forward-convs for a model whose
    forward convolutions IREE's own lowering fails on (model_zoo's known
    failure of the iree pipeline: r2plus1d)."""
    kind, _, stem = name.partition(":")
    forward = False
    if kind == "model":
        sys.path.insert(0, str(MODELS))
        from model_zoo import MODELS as SPECS

        forward = "iree" in dict(SPECS[stem.partition(".")[0]].known_failures)
    return gpu_compile.convopt_output(text, "gpu", forward_convs=forward)


@pytest.mark.parametrize("name,target", lowp_cases(), ids=lambda x: x)
def test_gpu_build_lowp(name: str, target: str) -> None:
    kind, _, what = name.partition(":")
    text = harness.torch_ir({c.name: c for c in LOWP_ROWS}[what]) if kind == "row" else (LOWP / f"{what}.mlir").read_text()
    built = gpu_compile.compile_text(recipe_output(name, text), target)
    known = KNOWN_LOWP_FAILURES.get((name, target))
    open_ = OPEN_LOWP_FAILURES.get((name, target))
    if built.ok:
        assert known is None and open_ is None, f"{name} now builds for {target}: remove it from KNOWN_LOWP_FAILURES / OPEN_LOWP_FAILURES"
        return
    if open_ is not None:
        expect_failure(name, target, built, open_)
    raw = gpu_compile.compile_text(text, target)
    if known is not None and not raw.ok:
        expect_failure(name, target, built, known, raw)
    pytest.fail(f"{name} for {target}: convopt --device=gpu does not build: {built.short()}; the raw import: {raw.short()}")


# Average-pooling backward (pool_harness.matrix(), --lower-pool-bwd
# --device=gpu): two rows per target in make test (a ceil_mode row with a
# per-window divisor, a dynamic-batch stride-1 row), every row in the
# "gpu" sweep.  The raw import has no lowering for the op at all.
POOL_SLICE = ("2d_k3s2p1_ceil_exclude", "2d_dynamic_batch_k3s1p1")


def pool_cases() -> list:
    return params([c.name for c in pool_harness.matrix()], POOL_SLICE)


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


SMALL_WGRAD = harness.C("r50_wgrad", 2, batch=4, cin=8, cout=8, spatial=16, kernel=3, padding=1, mask=(False, True, False), dtype="bf16")
"""resnet50_slim's bottleneck 3x3 weight kernel (8 -> 8 channels, 16x16,
batch 4), which failed for rocm in bf16 and f16 until the GPU profile wrote
weight accumulators kernel dims first (request.Emission weight_spatial_first)."""


@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_small_lowp_weight_kernel_builds_for_rocm(dtype: str) -> None:
    cfg = dataclasses.replace(SMALL_WGRAD, dtype=dtype)
    text = gpu_compile.convopt_output(harness.torch_ir(cfg), "gpu")
    assert "linalg.transpose" in text  # the kernel-first accumulator, transposed back
    built = gpu_compile.compile_text(text, "rocm")
    assert built.ok, built.short()


@SWEEP  # the failing bf16 build takes 60-90 s
def test_channels_first_weight_accumulator_still_fails() -> None:
    # Why weight_spatial_first: the same layer with its accumulator channels
    # first (convopt's output before) asks IREE's rocm configuration for too
    # much shared memory.  When this builds, the flag may go.
    repro = (Path(__file__).parent / "repro" / "rocm_lowp_wgrad_smem.mlir").read_text()
    built = gpu_compile.compile_text(repro, "rocm")
    assert not built.ok and "139264 bytes of shared memory" in built.error, built.short()


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


@SWEEP
def test_cuda_tap_copy_failure_is_reproduced() -> None:
    # r2plus1d's cuda failure while convopt wrote the weight taps by one
    # flat copy (kernel/taps.py writes each block dense since): its index
    # arithmetic, NVPTX cannot select once IREE narrows it to i16 vectors;
    # rocm builds the same IR.  When this fails, IREE fixed it.
    repro = (Path(__file__).parent / "repro" / "cuda_tap_copy_umul_lohi.mlir").read_text()
    built = gpu_compile.compile_text(repro, "cuda")
    assert not built.ok and "umul_lohi" in built.error, built.short()
    assert gpu_compile.compile_text(repro, "rocm").ok


@SWEEP
def test_vulkan_three_tap_reduction_failure_is_reproduced() -> None:
    # r2plus1d's vulkan failure while a phase reduced over all 3 taps, of
    # which one reads in bounds (relation.reaching_taps drops the others
    # since); the same op with 4 taps builds, and rocm builds this one.
    # When this fails, IREE fixed it.
    repro = (Path(__file__).parent / "repro" / "vulkan_matmul_like_three_taps.mlir").read_text()
    built = gpu_compile.compile_text(repro, "vulkan")
    assert not built.ok and "'vector.transfer_read' op with rank > 1" in built.error, built.short()
    assert gpu_compile.compile_text(repro.replace("x3x16xf32", "x4x16xf32").replace("x48x3xf32", "x48x4xf32"), "vulkan").ok
    assert gpu_compile.compile_text(repro, "rocm").ok
