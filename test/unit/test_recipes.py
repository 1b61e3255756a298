"""The README's "Using convopt with torch-mlir and IREE" recipes, run as
written: every ```sh block, command by command (on a static graph and on one
imported with symbolic shapes, copied to the `model.mlir` the recipes read),
the ```python example, and the ```console transcript of the mistake, whose
error text must be what torch-mlir prints."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from unit_helpers import BIN, INPUTS, REPO

from convopt.torch_mlir_stages import LINALG_STAGE, MISSING

SECTION = "## Using convopt with torch-mlir and IREE"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
INPUT_FILES = ["resnet_basic_block.mlir", "dynamic_batch.mlir"]
TORCH_OP = re.compile(r"\btorch(_c)?\.|!torch\.")


def section() -> str:
    text = (REPO / "README.md").read_text()
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start : end if end >= 0 else len(text)]


def blocks(language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(section()) if lang == language]


def commands(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


SH_BLOCKS = blocks("sh")


def env() -> dict[str, str]:
    return {**os.environ, "PATH": str(BIN) + os.pathsep + os.environ.get("PATH", "")}


def run(command: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env(), capture_output=True, text=True, timeout=300)


def output_files(block: str) -> list[str]:
    """The files the block's commands write with `-o`, in order."""
    names = []
    for command in commands(block):
        words = shlex.split(command)
        names += [words[i + 1] for i, w in enumerate(words[:-1]) if w == "-o"]
    return names


def run_block(block: str, input_name: str, workdir: Path) -> str:
    """Run the block's commands on a copy of test/inputs/input_name named
    model.mlir; every command must succeed.  Returns the last .mlir file
    written."""
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copy(INPUTS / input_name, workdir / "model.mlir")
    for command in commands(block):
        proc = run(command, workdir)
        assert proc.returncode == 0, f"`{command}` failed on {input_name} (exit {proc.returncode}):\n{proc.stderr}"
        assert "Traceback" not in proc.stderr
    for name in output_files(block):
        assert (workdir / name).stat().st_size > 0, f"{name} is empty"
    final = [n for n in output_files(block) if n.endswith(".mlir")][-1]
    return (workdir / final).read_text()


def ends_in_linalg(block: str) -> bool:
    return LINALG_STAGE in block or "--torch-mlir-stages" in block


def test_the_section_has_every_recipe():
    assert any("iree-compile --iree-input-type=torch" in b for b in SH_BLOCKS)
    assert sum(LINALG_STAGE in b and "torch-function-to-torch-backend-pipeline{backend-legal-ops=aten.convolution_backward}" in b for b in SH_BLOCKS) >= 1
    assert any("--torch-mlir-stages" in b for b in SH_BLOCKS)
    assert len(blocks("python")) == 1 and "export_and_import" in blocks("python")[0]
    assert len(blocks("console")) == 1
    assert f"`convopt: error: {MISSING}`" in section()  # the message convopt prints without torch_mlir


@pytest.mark.parametrize("input_name", INPUT_FILES)
@pytest.mark.parametrize("index", range(len(SH_BLOCKS)))
def test_sh_recipe(tmp_path, index, input_name):
    block = SH_BLOCKS[index]
    final = run_block(block, input_name, tmp_path)
    assert "torch.aten.convolution_backward" not in final
    if ends_in_linalg(block):
        assert not TORCH_OP.search(final), f"torch ops left by:\n{block}"
        assert "linalg." in final


@pytest.mark.parametrize("input_name", INPUT_FILES)
def test_linalg_recipes_print_the_same_bytes(tmp_path, input_name):
    outputs = {i: run_block(b, input_name, tmp_path / str(i)) for i, b in enumerate(SH_BLOCKS) if ends_in_linalg(b)}
    assert len(outputs) >= 3  # three commands, one pipe, --torch-mlir-stages
    assert len(set(outputs.values())) == 1


def test_python_example(tmp_path):
    (code,) = blocks("python")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "bad.mlir:2:10: error: use of undeclared SSA value name '%x'\n  return %x : f32\n         ^\n"


def test_the_mistake_fails_as_quoted(tmp_path):
    (transcript,) = blocks("console")
    first, *expected = transcript.splitlines()
    assert first.startswith("$ ")
    shutil.copy(INPUTS / "resnet_basic_block.mlir", tmp_path / "model.mlir")
    proc = run(first[2:], tmp_path)
    assert proc.returncode != 0
    assert proc.stderr.splitlines() == expected


def test_skipping_the_frontend_stage_fails_as_said(tmp_path):
    claim = "(`error: failed to legalize operation 'torch.constant.int'`)"
    assert claim in section()
    shutil.copy(INPUTS / "resnet_basic_block.mlir", tmp_path / "model.mlir")
    proc = run(f"convopt --lower-conv-bwd model.mlir | torch-mlir-opt --pass-pipeline='{LINALG_STAGE}'", tmp_path)
    assert proc.returncode != 0
    assert claim[2:-2] in proc.stderr
