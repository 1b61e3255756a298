"""The data-tiled matmul form (convopt/lowering/kernel/packed.py, `--matmul-tiles`):
the tiling rule, the option (off by default, avx512, host from cpuinfo), the
interpreter's pack/mmt4d/unpack, and lowered layers that take it checked by
the interpreter (the e2e tests and bench/emitted.py compile them with IREE;
test/e2e verifies them with torch-mlir-opt)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from convopt import api
from convopt.interp import run_text
from convopt.lowering.choices import MatmulTiles
from convopt.lowering.kernel.packed import AVX512_TILES, BF16_TILES, F32_TILES, MMT4D_MIN_MACS, host_tiles, miscompiled_tiles, mmt4d_plan, read_host_tiles
from convopt.lowering.patterns.options import KernelPass, tile_table
from convopt.pass_options import KernelOptions
from convopt.passes import PipelineError, describe_passes, make_pass
from convopt.pipelines import PipelineOptions, default_pipeline

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import harness  # noqa: E402


def test_plan_picks_the_least_padding():
    stem = mmt4d_plan(64, 147, 6272, "bf16", AVX512_TILES)  # 147 = 3*7*7: as rows of 8 (152), not columns of 16 (160)
    assert stem is not None and stem.swapped and (stem.m0, stem.n0, stem.k0) == (8, 16, 2)
    assert stem.executed == 152 * 64 * 6272
    dense = mmt4d_plan(64, 576, 6272, "f32", AVX512_TILES)
    assert dense is not None and not dense.swapped and (dense.m0, dense.n0, dense.k0) == (16, 16, 1)


@pytest.mark.parametrize("shape,element", [((64, 64, 64), "bf16"), ((64, 20, 4096), "bf16"), ((512, 512, 512), "f16"), ((512, 512, 512), "f64"), ((None, 64, 4096), "bf16")])
def test_plan_keeps_the_matmul(shape, element):
    """Small, too much padding (20 -> 32), unmeasured types, dynamic."""
    assert mmt4d_plan(*shape, element, AVX512_TILES) is None
    assert 64 * 64 * 64 < MMT4D_MIN_MACS


def test_f32_needs_a_long_reduction():
    """conv3d-video's col2im matmul (k = 32) stays plain in f32, packs in bf16."""
    assert mmt4d_plan(864, 6272, 32, "f32", AVX512_TILES) is None
    assert mmt4d_plan(864, 6272, 32, "bf16", AVX512_TILES) is not None
    assert mmt4d_plan(1152, 1568, 128, "f32", AVX512_TILES) is not None


def test_no_tiles_keep_every_matmul():
    assert mmt4d_plan(64, 576, 6272, "bf16", ()) is None
    assert mmt4d_plan(64, 576, 6272, "bf16", (F32_TILES,)) is None  # bf16 not enabled


# --- the option -------------------------------------------------------------------------------

CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
flags\t\t: fpu sse2 avx2 {flags}
bugs\t\t: spectre_v1

processor\t: 1
flags\t\t: fpu avx512f avx512_bf16
"""


@pytest.mark.parametrize(
    "flags, expected",
    [
        ("avx512f avx512_bf16 avx512vl", (BF16_TILES, F32_TILES)),
        ("avx512f avx512vl", (F32_TILES,)),
        ("avx512_bf16x", ()),  # whole flags only
        ("fma", ()),  # AVX2 only: the first processor's flags decide
    ],
)
def test_host_tiles_follow_the_cpu_flags(flags, expected):
    assert host_tiles(CPUINFO.format(flags=flags)) == expected


def test_host_tiles_without_cpuinfo(tmp_path):
    assert host_tiles("") == () and host_tiles("processor : 0\n") == ()
    assert read_host_tiles(str(tmp_path / "no-such-cpuinfo")) == ()
    (tmp_path / "cpuinfo").write_text(CPUINFO.format(flags="avx512f"))
    assert read_host_tiles(str(tmp_path / "cpuinfo")) == (F32_TILES,)


def test_option_resolves_once_at_pass_construction(monkeypatch):
    assert KernelPass().tiles == () and KernelPass(matmul_tiles="avx512").tiles == AVX512_TILES
    calls = []
    monkeypatch.setattr("convopt.lowering.patterns.options.read_host_tiles", lambda: calls.append(1) or (F32_TILES,))
    p = make_pass("convopt-conv-bwd-to-linalg", {"matmul-tiles": "host"})
    assert calls == [1] and p.tiles == (F32_TILES,) and p.tiles == (F32_TILES,) and calls == [1]
    assert tile_table(MatmulTiles.NONE) == ()


def test_bad_value_is_a_pipeline_diagnostic():
    with pytest.raises(PipelineError, match="matmul-tiles must be one of none, avx512, host, not 'amx'"):
        make_pass("convopt-torch-to-linalg", {"matmul-tiles": "amx"})
    with pytest.raises(ValueError, match="matmul_tiles must be one of none, avx512, host, not 'amx'"):
        api.lower("", matmul_tiles="amx")


def test_pipeline_text_and_pass_listing():
    lower = PipelineOptions(lower_conv_bwd=True)
    assert default_pipeline(replace(lower, kernel=KernelOptions(matmul_tiles=MatmulTiles.NONE))) == default_pipeline(lower)
    text = default_pipeline(replace(lower, kernel=KernelOptions(conv_form="im2col", matmul_tiles=MatmulTiles.AVX512)))
    assert "convopt-decompose-conv-bwd{target=linalg lower=true conv-form=im2col matmul-tiles=avx512}" in text
    assert "convopt-conv-bwd-to-linalg{conv-form=im2col matmul-tiles=avx512}" in text
    decompose = PipelineOptions(decompose_conv_bwd=True, kernel=KernelOptions(matmul_tiles=MatmulTiles.AVX512))
    assert "matmul-tiles" not in default_pipeline(decompose)  # decompose only: no kernels
    listing = describe_passes()
    # the kernel passes: conv-bwd-to-linalg, decompose-conv-bwd, torch-to-linalg, pool-bwd-to-linalg
    assert listing.count("matmul-tiles=none") == 4 and "none|avx512|host" in listing


PACKED = """func.func @main(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>) -> tensor<5x3xf32> {
  %z = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<3x4x2x2xf32>
  %pa = "linalg.pack"(%a, %ea, %z) <{inner_dims_pos = array<i64: 0, 1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, outer_dims_perm = array<i64: 0, 1>, static_inner_tiles = array<i64: 2, 2>}> : (tensor<5x7xf32>, tensor<3x4x2x2xf32>, f32) -> tensor<3x4x2x2xf32>
  %eb = tensor.empty() : tensor<1x4x4x2xf32>
  %pb = "linalg.pack"(%b, %eb, %z) <{inner_dims_pos = array<i64: 1, 0>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, outer_dims_perm = array<i64: 1, 0>, static_inner_tiles = array<i64: 4, 2>}> : (tensor<7x3xf32>, tensor<1x4x4x2xf32>, f32) -> tensor<1x4x4x2xf32>
  %ec = tensor.empty() : tensor<3x1x2x4xf32>
  %c = linalg.fill ins(%z : f32) outs(%ec : tensor<3x1x2x4xf32>) -> tensor<3x1x2x4xf32>
  %m = linalg.mmt4d ins(%pa, %pb : tensor<3x4x2x2xf32>, tensor<1x4x4x2xf32>) outs(%c : tensor<3x1x2x4xf32>) -> tensor<3x1x2x4xf32>
  %eo = tensor.empty() : tensor<5x3xf32>
  %u = "linalg.unpack"(%m, %eo) <{inner_dims_pos = array<i64: 0, 1>, outer_dims_perm = array<i64: 0, 1>, static_inner_tiles = array<i64: 2, 4>}> : (tensor<3x1x2x4xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %u : tensor<5x3xf32>
}
"""


def test_interpreter_pack_mmt4d_unpack_is_the_matmul():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((5, 7)).astype(np.float32), rng.standard_normal((7, 3)).astype(np.float32)
    (out,) = run_text(PACKED, "main", [a, b], name="t.mlir")
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


STEM = harness.Config(name="stem", dtype="f32", batch=1, cin=3, cout=16, spatial=(64, 64), kernel=(7, 7), stride=(2, 2), padding=(3, 3),
                      dilation=(1, 1), groups=1, transposed=False, output_padding=(0, 0), mask=(False, True, False))
AVX512 = ("--lower-conv-bwd", "--matmul-tiles=avx512")


@pytest.mark.parametrize("args", [("--lower-conv-bwd",), ("--lower-conv-bwd", "--matmul-tiles=none"), ("--lower-conv-bwd", "--backend-legal-ops=")])
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_default_keeps_the_plain_matmul(dtype, args):
    text = harness.lower(harness.torch_ir(replace(STEM, dtype=dtype)), args)
    assert "linalg.matmul" in text and "mmt4d" not in text and "linalg.pack" not in text and "linalg.unpack" not in text


def test_decomposed_path_takes_the_option():
    text = harness.lower(harness.torch_ir(replace(STEM, dtype="bf16")), AVX512 + ("--backend-legal-ops=",))
    assert "linalg.mmt4d" in text


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_lowered_stem_like_layer_takes_the_packed_form(dtype):
    """grad_weight of a 7x7 stride-2 layer with 3 input channels (147 rows,
    swapped, 8-row tiles), interpreted against PyTorch."""
    cfg = replace(STEM, dtype=dtype)
    text = harness.lower(harness.torch_ir(cfg), AVX512)
    assert "linalg.mmt4d" in text and text.count('"linalg.pack"') == 2 and '"linalg.unpack"' in text
    go, x, w = (harness.round_to(v, dtype) for v in harness.inputs(cfg))
    (out,) = run_text(text, "main", [harness.to_device(v, dtype) for v in (go, x, w)], name="t.mlir")
    ref = harness.reference(cfg, go, x, w)[1]
    err = np.max(np.abs(np.asarray(out).astype(np.float64) - ref)) / max(1.0, float(np.max(np.abs(ref))))
    assert err <= harness.TOLERANCE[dtype]


def test_lowered_dense_layer_packs_both_kernels():
    """grad_input (col2im: cols = W^T A) and grad_weight of a 3x3 layer with
    the matmul forms forced, bf16, interpreted against PyTorch."""
    cfg = harness.C("dense", batch=2, cin=32, cout=64, spatial=16, kernel=3, padding=1, dtype="bf16", mask=(True, True, False))
    text = harness.lower(harness.torch_ir(cfg), AVX512 + ("--conv-form=im2col",))
    assert text.count("linalg.mmt4d") == 2 and text.count('"linalg.unpack"') == 2 and "linalg.matmul" not in text
    go, x, w = (harness.round_to(v, "bf16") for v in harness.inputs(cfg))
    outs = run_text(text, "main", [harness.to_device(v, "bf16") for v in (go, x, w)], name="t.mlir")
    for out, ref in zip(outs, harness.reference(cfg, go, x, w)[:2]):
        err = np.max(np.abs(np.asarray(out).astype(np.float64) - ref)) / max(1.0, float(np.max(np.abs(ref))))
        assert err <= harness.TOLERANCE["bf16"]


# --- tiles IREE miscompiles (packed.MAX_N0_WITHOUT_AVX512) ---------------------------------------

def test_every_avx512_tile_is_miscompiled_without_avx512():
    assert miscompiled_tiles(AVX512_TILES, frozenset({"avx2", "fma"})) == AVX512_TILES
    assert miscompiled_tiles(AVX512_TILES, frozenset({"avx2", "fma", "avx512f"})) == ()
    assert miscompiled_tiles((), frozenset()) == ()


def _lower_with_diagnostics(text: str, args: tuple[str, ...]):
    from convopt.diagnostics import DiagnosticEngine, SourceFile
    from convopt.driver import Options, process

    engine = DiagnosticEngine()
    out = process(SourceFile("stem.mlir", text), Options(pipeline=harness._options(args)), engine)
    return out, engine.diagnostics


@pytest.mark.parametrize("legal", [(), ("--backend-legal-ops=",)])
def test_packed_tiles_warn_on_a_machine_without_avx512(monkeypatch, legal):
    """The generic cpu class on a machine without avx512f: the IR is still
    emitted, with one located warning at each mmt4d (direct and decomposed path)."""
    monkeypatch.setattr("convopt.lowering.patterns.options.read_host_flags", lambda: frozenset({"avx2", "fma"}))
    text = harness.torch_ir(replace(STEM, dtype="bf16"))
    out, diags = _lower_with_diagnostics(text, AVX512 + legal)
    assert out is not None and out.count("linalg.mmt4d") == 1
    warnings = [d for d in diags if d.severity == "warning"]
    assert len(warnings) == 1 and "IREE 3.13 computes wrong results for bf16 mmt4d tiles of 16 columns" in warnings[0].message
    assert warnings[0].render().startswith("stem.mlir:") and "this machine has no avx512f" in warnings[0].render()


@pytest.mark.parametrize("device", ["avx512", "host"])
def test_no_warning_where_the_tiles_are_right(monkeypatch, device):
    monkeypatch.setattr("convopt.lowering.patterns.options.read_host_flags", lambda: frozenset({"avx2", "fma", "avx512f", "avx512_bf16"}))
    monkeypatch.setattr("convopt.lowering.kernel.device.read_host_flags", lambda path="": frozenset({"avx2", "fma", "avx512f", "avx512_bf16"}))
    out, diags = _lower_with_diagnostics(harness.torch_ir(replace(STEM, dtype="bf16")), AVX512 + (f"--device={device}",))
    assert out is not None and "linalg.mmt4d" in out and not diags


@pytest.mark.parametrize(("device", "message"), [("avx2", "wrong results for mmt4d tiles of 16 columns"), ("gpu", "matmul-tiles are CPU tiles")])
def test_tiles_known_wrong_for_the_device_are_refused(device, message):
    with pytest.raises(PipelineError, match=message):
        make_pass("convopt-conv-bwd-to-linalg", {"matmul-tiles": "avx512", "device": device})
    with pytest.raises(api.ConvoptError):
        api.lower(harness.torch_ir(STEM), matmul_tiles="avx512", device=device)
    assert make_pass("convopt-conv-bwd-to-linalg", {"matmul-tiles": "none", "device": device}).tiles == ()


def test_host_never_picks_miscompiled_tiles():
    for flags in ("avx2 fma", "avx2 fma avx512f", "avx2 fma avx512f avx512_bf16", "sse2"):
        table = host_tiles(CPUINFO.format(flags=flags))
        assert miscompiled_tiles(table, frozenset(flags.split()) | {"fpu", "sse2", "avx2"}) == ()


def test_tile_warnings_come_in_program_order(monkeypatch):
    """One warning per convolution_backward of a function, in the order of
    the source (not the order of a set of ops, which follows their addresses)."""
    monkeypatch.setattr("convopt.lowering.patterns.options.read_host_flags", lambda: frozenset({"avx2", "fma"}))
    text = (Path(__file__).resolve().parents[2] / "test" / "models" / "unet.mlir").read_text()
    out, diags = _lower_with_diagnostics(text, AVX512)
    lines = [int(d.render().split(":")[1]) for d in diags if d.severity == "warning"]
    assert out is not None and len(lines) == out.count("linalg.mmt4d") >= 4
    assert lines == sorted(lines)
