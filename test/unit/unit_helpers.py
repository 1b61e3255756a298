"""Shared helpers for convopt's unit tests (imported as `unit_helpers`):
paths, and running the tools installed next to the running Python (the
project's virtualenv)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INPUTS = REPO / "test" / "inputs"
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    path = shutil.which(name, path=str(BIN))
    if path is None:
        pytest.fail(f"'{name}' is not installed next to {sys.executable}; run `make test`")
    return path


def run_tool(args: list, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run a command, capturing bytes; never raises on a non-zero exit."""
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True, cwd=cwd or REPO, timeout=120)


def convopt(*args, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return run_tool([tool("convopt"), *args], stdin=stdin, cwd=cwd)


def torch_mlir_opt(*args, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return run_tool([tool("torch-mlir-opt"), *args], stdin=stdin, cwd=cwd)


def ok(proc: subprocess.CompletedProcess) -> bytes:
    """stdout of a command that must have succeeded."""
    assert proc.returncode == 0, f"{proc.args} exited {proc.returncode}:\n{proc.stderr.decode(errors='replace')}"
    return proc.stdout
