"""The emission decides, the emitters follow (kernel/request.Emission,
kernel/tiles.decide): how the matmul forms' scatter sums its taps
(Emission.col2im) and whether a dense channels-last scatter is one packed
matmul (Emission.scatter_matmul) are decided once per kernel; the emitters
and the work estimates read the emission only, so an emission changed by
hand is what gets emitted (and it is still right: checked with the
interpreter against PyTorch)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

from convopt.interp import run_text
from convopt.lowering.forms import channels_last, matmul_forms, registry
from convopt.lowering.kernel import tiles
from convopt.lowering.kernel.relation import Kind, Rel
from convopt.lowering.kernel.request import Col2im, KernelRequest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import harness  # noqa: E402

IM2COL = ("--lower-conv-bwd", "--conv-form=im2col")
NAMED = ("--lower-conv-bwd", "--conv-form=named")
TILED = ("--lower-conv-bwd", "--matmul-tiles=avx512")
INPUT_ONLY = (True, False, False)  # grad_input: the scatter alone

SAME = harness.C("same", mask=INPUT_ONLY)  # stride 1, P = 1: col2im by windows
STRIDED_DILATED = harness.C("strided_dilated", stride=2, dilation=2, padding=1, spatial=11, mask=INPUT_ONLY)  # S = D = 2: by taps
SMALL_DENSE = harness.C("small_dense", batch=1, cin=8, cout=8, spatial=16, mask=INPUT_ONLY)  # channels-last under a forced named
BIG_DENSE = harness.C("big_dense", cin=32, cout=64, spatial=16, mask=INPUT_ONLY, dtype="bf16")  # its matmul packs by the avx512 tiles


def lower(cfg: harness.Config, args: tuple[str, ...]) -> tuple[str, list[KernelRequest]]:
    """cfg lowered with args, and the request (decided) of each scatter kernel chosen."""
    reqs: list[KernelRequest] = []
    with registry.observing(lambda req, pick: reqs.append(pick.variant.req)):
        text = harness.lower(harness.torch_ir(cfg), args)
    return text, [r for r in reqs if r.kind == Kind.SCATTER]


def spy(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[str]:
    """A list that gets `name` each time module.name is called."""
    calls: list[str] = []
    original = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


def overrule(monkeypatch: pytest.MonkeyPatch, **fields: object) -> None:
    """tiles.decide as it is, then the emission's `fields` set by hand."""
    decide = tiles.decide

    def decided(req: KernelRequest) -> KernelRequest:
        req = decide(req)
        return dataclasses.replace(req, emission=dataclasses.replace(req.emission, **fields))

    monkeypatch.setattr(tiles, "decide", decided)


def error(cfg: harness.Config, text: str) -> float:
    """The relative error of the interpreted grad_input against PyTorch."""
    go, x, w = (harness.round_to(a, cfg.dtype) for a in harness.inputs(cfg))
    expected = harness.reference(cfg, go, x, w)[0]
    (got,) = run_text(text, "main", [harness.to_device(a, cfg.dtype) for a in (go, x, w)], name=cfg.name)
    return float(np.max(np.abs(got.astype(np.float64) - expected))) / max(1.0, float(np.max(np.abs(expected))))


# --- the rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rel, expected",
    [
        (Rel(S=1, D=2, P=2, K=3, Ns=9, Nb=9), Col2im.WINDOW),  # dilated, stride 1
        (Rel(S=2, D=1, P=1, K=3, Ns=4, Nb=8), Col2im.WINDOW),  # strided, dilation 1
        (Rel(S=2, D=2, P=1, K=3, Ns=5, Nb=11), Col2im.TAPS),  # strided and dilated
        (Rel(S=1, D=1, P=-1, K=3, Ns=5, Nb=7), Col2im.TAPS),  # negative padding
    ],
)
def test_col2im_rule(rel, expected):
    assert tiles.choose_col2im([Rel(S=1, D=1, P=1, K=3, Ns=7, Nb=7), rel]) == expected


def test_the_emission_carries_col2im(monkeypatch):
    """Decided with the kernel; the emitter takes the form it names (in
    the work estimate's dry run of it too: kernel/dry.py)."""
    taps, window = spy(monkeypatch, matmul_forms, "col2im_taps"), spy(monkeypatch, matmul_forms, "col2im_window")
    _, (req,) = lower(STRIDED_DILATED, IM2COL)
    assert req.emission.col2im == Col2im.TAPS and set(taps) == {"col2im_taps"} and window == []
    taps.clear()
    _, (req,) = lower(SAME, IM2COL)
    assert req.emission.col2im == Col2im.WINDOW and set(window) == {"col2im_window"} and taps == []


def test_col2im_follows_the_emission(monkeypatch):
    """A window-fitting scatter whose emission says TAPS is emitted tap by
    tap, and is right."""
    by_window, _ = lower(SAME, IM2COL)
    overrule(monkeypatch, col2im=Col2im.TAPS)
    taps, window = spy(monkeypatch, matmul_forms, "col2im_taps"), spy(monkeypatch, matmul_forms, "col2im_window")
    by_taps, (req,) = lower(SAME, IM2COL)
    assert req.emission.col2im == Col2im.TAPS and set(taps) == {"col2im_taps"} and window == []
    assert by_taps != by_window
    assert error(SAME, by_taps) <= harness.TOLERANCE[SAME.dtype]


def test_the_work_estimate_reads_col2im():
    """im2col_work counts what the emission's col2im emits (its dry run):
    the matmul, the zero-padded cols and one op per phase combination
    (WINDOW), or an add per tap and an insert of each that covers part of the output (TAPS)."""
    _, (req,) = lower(SAME, IM2COL)
    as_taps = dataclasses.replace(req, emission=dataclasses.replace(req.emission, col2im=Col2im.TAPS))
    window, taps = matmul_forms.im2col_work(req), matmul_forms.im2col_work(as_taps)
    assert window.dispatch == 3.0 and taps.dispatch > 1.0 + 9  # at least an add per tap, most with their insert


# --- the dense channels-last scatter --------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype, args, expected",
    [("bf16", TILED, True), ("bf16", NAMED, False), ("f32", TILED, False)],
    ids=["bf16-tiles", "bf16-no-tiles", "f32-tiles"],
)
def test_the_emission_carries_scatter_matmul(monkeypatch, dtype, args, expected):
    """bf16 with --matmul-tiles: one packed matmul; no tiles, or f32: the
    named convolution."""
    matmul = spy(monkeypatch, channels_last, "_scatter_im2col")
    text, (req,) = lower(dataclasses.replace(BIG_DENSE, dtype=dtype), args)
    assert req.emission.scatter_matmul == expected
    assert (matmul == ["_scatter_im2col"]) == expected
    assert ("linalg.mmt4d" in text) == expected and ("conv_2d_nhwc_hwcf" in text) != expected


def test_a_bf16_scatter_told_otherwise_stays_a_convolution(monkeypatch):
    overrule(monkeypatch, scatter_matmul=False)
    matmul = spy(monkeypatch, channels_last, "_scatter_im2col")
    text, (req,) = lower(BIG_DENSE, TILED)
    assert not req.emission.scatter_matmul and matmul == []
    assert "conv_2d_nhwc_hwcf" in text and "linalg.mmt4d" not in text


def test_an_f32_scatter_told_so_is_one_matmul(monkeypatch):
    """f32 without tiles, emission scatter_matmul: _scatter_im2col (a
    plain linalg.matmul), and right."""
    named, _ = lower(SMALL_DENSE, NAMED)
    assert "conv_2d_nhwc_hwcf" in named
    overrule(monkeypatch, scatter_matmul=True)
    matmul = spy(monkeypatch, channels_last, "_scatter_im2col")
    text, (req,) = lower(SMALL_DENSE, NAMED)
    assert req.emission.scatter_matmul and matmul == ["_scatter_im2col"]
    assert "conv_2d_nhwc_hwcf" not in text and "linalg.matmul" in text
    assert error(SMALL_DENSE, text) <= harness.TOLERANCE[SMALL_DENSE.dtype]


# --- the named form's variant -------------------------------------------------------------------


def test_the_named_emitter_follows_its_variant():
    """named_variants decides channels-last or the channels-first gather
    into the emission; emit_named builds what the emission says, whatever
    the shapes would allow (a 3-D dense gather with taps in every dim fits both)."""
    from convopt.lowering.forms.named_form import emit_named, named_variants
    from convopt.lowering.kernel.dry import dry_run
    from convopt.lowering.kernel.relation import Kind, Rel
    from convopt.lowering.kernel.request import sized

    req = tiles.decide(sized(Kind.GATHER, {"n": 2, "g": 1, "ca": 8, "cb": 8}, [Rel(S=1, D=1, P=1, K=3, Ns=24, Nb=24)] * 3))
    (variant,) = named_variants(req)
    assert variant.req.emission.channels_last
    names = {op.name for op in dry_run(emit_named, variant.req)}
    first = {op.name for op in dry_run(emit_named, dataclasses.replace(variant.req, emission=dataclasses.replace(variant.req.emission, channels_last=False)))}
    assert any("nhwc" in n for n in names) and not any("ncdhw" in n for n in names)
    assert any("ncdhw" in n for n in first) and not any("nhwc" in n for n in first)
