"""bench/gpu_run.py (bench.gpu_run), the prepared device run: its statistics and table
(always), and its CPU rehearsal end to end (the "gpu" sweep, make
test-full: two layers in f32 and bf16 and one model packed for llvm-cpu and
run with IREE's local-task driver, every result within tolerance)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench import gpu_run

ROOT = Path(__file__).resolve().parents[2]


def test_stats_and_table() -> None:
    s = gpu_run._stats([3.0, 1.0, 2.0, 10.0, 4.0])
    assert s == {"median_ms": 3.0, "min_ms": 1.0, "max_ms": 10.0, "n": 5}
    row = {
        "name": "l.f32",
        "kind": "layer",
        "dtype": "f32",
        "errors": {"convopt": 1e-6, "iree": 2e-6, "pytorch": 1e-6},
        "ok": {"convopt": True, "iree": True, "pytorch": True},
        "times": {"convopt": gpu_run._stats([1.0, 1.0, 1.0]), "iree": gpu_run._stats([2.0] * 3), "pytorch": gpu_run._stats([4.0] * 3)},
    }
    text = gpu_run.table([row, {"name": "m", "kind": "model", "dtype": "f32", "failed": "RuntimeError: x"}])
    assert "| l.f32 | 1.000 (1.000-1.000) | 2.000 (2.000-2.000) | 4.000 (4.000-4.000) | 0.50 | 0.25 |" in text
    assert "| m | failed: RuntimeError: x" in text


def test_layer_inputs_reproduce() -> None:
    """The device draws a layer's arguments from its seed; they are the
    ones harness.inputs gives (the fingerprints taken when packing match)."""
    import numpy as np

    from bench import emitted
    from bench.testsupport import load

    harness = load("harness")

    layer = json.loads((ROOT / "bench" / "layers.json").read_text())["resnet-3x3-s2"]
    cfg = emitted.config("resnet-3x3-s2", layer, "bf16")
    go, x, w = (harness.round_to(a, "bf16") for a in harness.inputs(cfg))
    case = {"seed": cfg.seed, "dtype": "bf16", "shapes": [list(go.shape), list(x.shape), list(w.shape)], "fingerprints": [gpu_run.fingerprint(a) for a in (go, x, w)]}
    for a, b in zip(gpu_run._layer_arrays(case), (go, x, w)):
        assert np.array_equal(a, b)


@pytest.mark.sweep("gpu")  # the CPU rehearsal compiles 10 modules
def test_cpu_rehearsal(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "bench.gpu_run", "--cpu-rehearsal", "--repeats", "1", "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    rows = json.loads((tmp_path / "results.json").read_text())["rows"]
    assert len(rows) == 5 and all(all(r["ok"].values()) for r in rows)
