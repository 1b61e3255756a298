"""The test tiers of test/conftest.py: IREE_TESTS names test functions that
exist, the guard stops a fast test that runs an IREE tool (directly or in a
shell command) and nothing else, and a sweep's case is in make test's slice
only when its option selects it."""

from __future__ import annotations

import ast
import importlib.util
from types import SimpleNamespace

import pytest
from unit_helpers import REPO

TEST = REPO / "test"


def load_conftest():
    """A copy of test/conftest.py under its own name (pytest holds the real one)."""
    spec = importlib.util.spec_from_file_location("tiers_conftest", TEST / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tiers = load_conftest()


def test_iree_tests_names_existing_test_functions():
    for rel, functions in tiers.IREE_TESTS.items():
        path = TEST / rel
        assert path.exists(), rel
        defined = {n.name for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        assert set(functions) <= defined, f"{rel}: no {sorted(set(functions) - defined)}"


@pytest.mark.parametrize("executable, argv", [
    ("/venv/bin/iree-compile", ["/venv/bin/iree-compile", "x.mlir"]),
    (None, ["iree-run-module", "--module=m.vmfb"]),
    ("bash", ["bash", "-o", "pipefail", "-c", "convopt x.mlir | iree-compile - -o m.vmfb"]),
    (None, "cd /tmp && /venv/bin/iree-opt x.mlir"),
])
def test_the_guard_stops_an_iree_tool_in_a_fast_test(monkeypatch, executable, argv):
    monkeypatch.setattr(tiers, "_fast_test", ["test_x.py::test_y"])
    with pytest.raises(tiers.IreeInFastTest, match=r"test_x.py::test_y runs iree-(compile|run-module|opt): name it in"):
        tiers._audit("subprocess.Popen", (executable, argv, None, None))


@pytest.mark.parametrize("argv", [
    ["convopt", "--lower-conv-bwd", "--iree-flags=x", "/tmp/iree-work/m.mlir"],
    ["torch-mlir-opt", "x.mlir"],
    ["bash", "-c", "echo iree-compiled"],
])
def test_the_guard_lets_other_commands_run(monkeypatch, argv):
    monkeypatch.setattr(tiers, "_fast_test", ["test_x.py::test_y"])
    tiers._audit("subprocess.Popen", (None, argv, None, None))


def test_the_guard_is_off_outside_fast_tests(monkeypatch):
    monkeypatch.setattr(tiers, "_fast_test", [])
    tiers._audit("subprocess.Popen", ("iree-compile", ["iree-compile"], None, None))


def test_a_sweep_is_in_the_slice_only_when_its_option_selects_it():
    options = {"e2e_random": 8, "e2e_forms": "feature-rows", "models": "fast", "gpu_full": False}
    config = SimpleNamespace(getoption=options.__getitem__)
    assert tiers.in_slice(config, pytest.mark.sweep("e2e-random", 7).mark)
    assert not tiers.in_slice(config, pytest.mark.sweep("e2e-random", 8).mark)
    assert not any(tiers.in_slice(config, pytest.mark.sweep(name).mark) for name in ("e2e-forms", "models", "gpu"))
    options.update(e2e_random=110, e2e_forms="all", models="all", gpu_full=True)
    assert tiers.in_slice(config, pytest.mark.sweep("e2e-random", 109).mark)
    assert all(tiers.in_slice(config, pytest.mark.sweep(name).mark) for name in ("e2e-forms", "models", "gpu"))
    with pytest.raises(pytest.UsageError, match="unknown sweep 'e2e-everything'"):
        tiers.in_slice(config, pytest.mark.sweep("e2e-everything").mark)
