"""convopt as people install it: a wheel built from the tree (`pip wheel
--no-deps`), installed into a fresh virtualenv (no system site-packages,
no extras, the dependencies from the configured package index), whose
entry points all work: `convopt`, `convopt-run`, `convopt-lsp`,
`python -m convopt`, `python -m convopt.lsp`.

Only the project's own files are copied to a temporary directory for the
build, so the checkout gets no build/ or .egg-info; the commands run from
another directory without PYTHONPATH, so nothing of the checkout is on
their path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from convopt import __version__
from convopt.driver import Options, run_text
from convopt.pipelines import PipelineOptions, default_pipeline

ROOT = Path(__file__).resolve().parents[2]

GRADS = """\
func.func @main(%go: !torch.vtensor<[1,2,4,4],f32>, %x: !torch.vtensor<[1,2,4,4],f32>, %w: !torch.vtensor<[2,2,3,3],f32>) -> (!torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[2,2,3,3],f32>) {
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %z = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l, %l, %l, %false, %z, %int1, %mask : !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[2,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[2,2,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[2,2,3,3],f32>
}
"""


def _run(cmd: list[str], cwd: Path, input: str | bytes = "", timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    return subprocess.run(cmd, cwd=cwd, input=input, capture_output=True, text=isinstance(input, str), timeout=timeout, env=env)


def _build_wheel(tmp: Path) -> Path:
    """`pip wheel --no-deps` of a copy of the project's files (without build
    isolation when this interpreter has setuptools >= 64: no download)."""
    src = tmp / "src"
    shutil.copytree(ROOT / "convopt", src / "convopt", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(src)]
    try:
        import setuptools

        if int(setuptools.__version__.split(".")[0]) >= 64:
            cmd.insert(4, "--no-build-isolation")
    except ImportError:
        pass
    proc = _run(cmd, tmp)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [wheel] = (tmp / "dist").glob("convopt-*.whl")
    return wheel


def _fresh_venv(tmp: Path, wheel: Path) -> Path:
    """A virtualenv without pip and without system site-packages, the wheel
    installed into it by this interpreter's pip (`pip --python`)."""
    venv = tmp / "venv"
    proc = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp)
    assert proc.returncode == 0, proc.stderr
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()
    proc = _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", str(wheel)], tmp)
    if proc.returncode != 0 and any(s in proc.stderr for s in ("NewConnectionError", "Could not find a version", "No matching distribution")):
        pytest.skip(f"the dependencies are not installable from the package index here: {proc.stderr.strip().splitlines()[-1]}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return venv


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path, Path]:
    tmp = tmp_path_factory.mktemp("packaging")
    wheel = _build_wheel(tmp)
    return wheel, _fresh_venv(tmp, wheel), tmp


def test_the_wheel_holds_the_grammar_and_the_entry_points(installed):
    wheel, _, _ = installed
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        entry_points = next(z.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
        metadata = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert {"convopt/parser/mlir.lark", "convopt/__main__.py", "convopt/lsp/__init__.py", "convopt/lsp/__main__.py"} <= names
    for script in ("convopt = convopt.cli:entry", "convopt-run = convopt.interp.cli:entry", "convopt-lsp = convopt.lsp:entry"):
        assert script in entry_points
    assert "[torch_dynamo_backends]\nconvopt = convopt.dynamo:backend" in entry_points  # torch.compile(backend="convopt")
    assert "convopt/dynamo/__init__.py" in names
    assert "Requires-Dist: pygls" in metadata
    assert not any(n.startswith(("test/", "bench/", "examples/")) for n in names)


def test_the_entry_points_work_in_a_fresh_venv(installed):
    _, venv, tmp = installed
    bin_ = venv / "bin"
    where = _run([str(bin_ / "python"), "-c", "import convopt, sys; print(convopt.__file__); print(sys.flags.no_site, sys.prefix)"], tmp)
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr
    for cmd, expected in (
        ([str(bin_ / "convopt"), "--version"], f"convopt, version {__version__}"),
        ([str(bin_ / "python"), "-m", "convopt", "--version"], f"convopt, version {__version__}"),
        ([str(bin_ / "convopt-lsp"), "--version"], f"convopt-lsp {__version__}"),
        ([str(bin_ / "python"), "-m", "convopt.lsp", "--version"], f"convopt-lsp {__version__}"),
    ):
        proc = _run(cmd, tmp)
        assert (proc.returncode, proc.stdout.strip()) == (0, expected), proc.stderr
    assert "usage: convopt-run" in _run([str(bin_ / "convopt-run"), "--help"], tmp).stdout


def test_a_lowering_and_a_run_in_the_fresh_venv(installed):
    """The installed convopt (and `python -m convopt`) lowers a
    convolution_backward to the bytes the tree does, convopt-run runs the
    result, and `import convopt.cli` does not import pygls."""
    _, venv, tmp = installed
    bin_ = venv / "bin"
    lowered = _run([str(bin_ / "convopt"), "--lower-conv-bwd", "-"], tmp, GRADS)
    assert lowered.returncode == 0, lowered.stderr
    assert lowered.stdout == run_text(GRADS, Options(pipeline=default_pipeline(PipelineOptions(lower_conv_bwd=True))), "<stdin>")
    as_module = _run([str(bin_ / "python"), "-m", "convopt", "--lower-conv-bwd", "-"], tmp, GRADS)
    assert (as_module.returncode, as_module.stdout) == (0, lowered.stdout), as_module.stderr
    ran = _run([str(bin_ / "convopt-run"), "-", "--random", "0"], tmp, lowered.stdout)
    assert ran.returncode == 0, ran.stderr
    assert "result #0: tensor<1x2x4x4xf32>" in ran.stdout and "result #1: tensor<2x2x3x3xf32>" in ran.stdout
    modules = _run([str(bin_ / "python"), "-c", "import sys, convopt.cli, convopt.api; print(sorted(m for m in ('pygls', 'lsprotocol') if m in sys.modules))"], tmp)
    assert modules.stdout.strip() == "[]", modules.stderr


def test_the_installed_language_server_answers(installed):
    """initialize, shutdown and exit over stdio, framed by hand."""
    _, venv, tmp = installed

    def frame(message: dict) -> bytes:
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    proc = _run([str(venv / "bin" / "convopt-lsp")], tmp, b"".join(frame(m) for m in messages), timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    bodies = [json.loads(part.split(b"\r\n\r\n", 1)[1]) for part in proc.stdout.split(b"Content-Length: ")[1:]]
    init = next(b for b in bodies if b.get("id") == 1)["result"]
    assert init["serverInfo"] == {"name": "convopt-lsp", "version": __version__}
    caps = init["capabilities"]
    assert caps["hoverProvider"] and caps["definitionProvider"] and caps["referencesProvider"] and caps["documentSymbolProvider"]
    assert set(caps["executeCommandProvider"]["commands"]) == {"convopt.showLoweredIR", "convopt.applyLoweredIR"}
