"""Every input under test/inputs round-trips through convopt without loss.

For each file: it parses and verifies; printing is a fixed point; convopt's
default output is byte-identical to torch-mlir-opt's; torch-mlir-opt accepts
convopt's output and prints it exactly as it prints the original, also with
`--mlir-print-debuginfo` on both sides (so no location is lost).  The same
holds for linalg/tensor/arith IR that torch-mlir lowers these inputs to.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from unit_helpers import INPUTS, REPO, convopt, ok, torch_mlir_opt

from convopt.diagnostics import SourceFile
from convopt.parser import parse
from convopt.printer import print_module
from convopt.verifier import verify

INPUT_FILES = sorted(INPUTS.glob("*.mlir"))
# Inputs torch-mlir's own pipeline lowers to linalg (it cannot lower the
# transposed and the depthwise convolution_backward).
LOWERABLE = ["resnet_basic_block", "dynamic_batch", "conv1d_conv3d", "debuginfo", "dense_resource"]
TORCH_TO_LINALG = ["-torch-decompose-complex-ops", "-convert-torch-to-linalg", "-canonicalize"]


def rel(path: Path) -> str:
    """The name both tools are given, so file locations agree."""
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def convopt_print(text: str, name: str = "in.mlir", debuginfo: bool = False) -> str:
    parsed = parse(SourceFile(name, text))
    verify(parsed.module)
    return print_module(parsed.module, parsed.metadata, debuginfo)


def check_against_torch_mlir(path: Path) -> None:
    """The four tool-level properties, for one file."""
    name = rel(path)
    ours = ok(convopt(name))
    theirs = ok(torch_mlir_opt(name))
    assert ours == theirs, "convopt's default output differs from torch-mlir-opt's"
    assert ok(torch_mlir_opt("-", stdin=ours)) == theirs
    ours_dbg = ok(convopt(name, "--mlir-print-debuginfo"))
    assert ok(torch_mlir_opt("--mlir-print-debuginfo", "-", stdin=ours_dbg)) == ok(torch_mlir_opt("--mlir-print-debuginfo", name))


def test_inputs_exist():
    names = {p.stem for p in INPUT_FILES}
    assert set(LOWERABLE) <= names and "dense_resource" in names


@pytest.mark.parametrize("path", INPUT_FILES, ids=lambda p: p.stem)
def test_parses_and_verifies(path):
    parsed = parse(SourceFile(path.name, path.read_text()))
    verify(parsed.module)
    assert parsed.module.name == "builtin.module"
    assert any(op.name == "func.func" for op in parsed.module.walk())


@pytest.mark.parametrize("path", INPUT_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("debuginfo", [False, True], ids=["plain", "debuginfo"])
def test_printing_is_a_fixed_point(path, debuginfo):
    once = convopt_print(path.read_text(), path.name, debuginfo)
    twice = convopt_print(once, path.name, debuginfo)
    assert twice == once


@pytest.mark.parametrize("path", INPUT_FILES, ids=lambda p: p.stem)
def test_matches_torch_mlir_opt(path):
    check_against_torch_mlir(path)


def test_dialect_resources_survive_byte_for_byte():
    path = INPUTS / "dense_resource.mlir"
    text = path.read_text()
    section = text[text.index("{-#") : text.index("#-}") + 3]
    out = ok(convopt(rel(path))).decode()
    assert section in out
    assert "dense_resource<torch_tensor_2_3_torch.float32> : tensor<2x3xf32>" in out
    # and again after a second trip through convopt
    assert section in ok(convopt("-", stdin=out.encode())).decode()


def test_unusual_resource_layout_is_kept_verbatim(tmp_path):
    # Not mlir-opt's layout: convopt keeps the section as written.
    blob = '{-# dialect_resources: { builtin: { r: "0x0400000000000000" } } #-}'
    src = tmp_path / "r.mlir"
    src.write_text(
        "func.func @f() -> tensor<2xf32> {\n"
        "  %0 = arith.constant dense_resource<r> : tensor<2xf32>\n"
        "  return %0 : tensor<2xf32>\n}\n" + blob + "\n"
    )
    out = ok(convopt(src))
    assert blob.encode() in out
    ok(torch_mlir_opt("-", stdin=out))


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> dict[str, Path]:
    """torch-mlir's linalg lowering of the lowerable inputs (generated, not committed)."""
    out_dir = tmp_path_factory.mktemp("linalg")
    files = {}
    for stem in LOWERABLE:
        target = out_dir / f"{stem}.mlir"
        target.write_bytes(ok(torch_mlir_opt(rel(INPUTS / f"{stem}.mlir"), *TORCH_TO_LINALG)))
        files[stem] = target
    # the same with locations kept, so #loc aliases and fused/callsite locations appear
    target = out_dir / "debuginfo_with_locations.mlir"
    target.write_bytes(ok(torch_mlir_opt(rel(INPUTS / "debuginfo.mlir"), "--mlir-print-debuginfo", *TORCH_TO_LINALG)))
    files["debuginfo_with_locations"] = target
    return files


@pytest.mark.parametrize("stem", LOWERABLE + ["debuginfo_with_locations"])
def test_linalg_roundtrip(lowered, stem):
    path = lowered[stem]
    text = path.read_text()
    assert "linalg.generic" in text and "tensor.empty" in text and "arith." in text
    once = convopt_print(text, path.name)
    assert convopt_print(once, path.name) == once
    check_against_torch_mlir(path)
