"""README's "Train with torch.compile" section, run as written.

Until the project is reinstalled, the `torch_dynamo_backends` entry point
that makes `backend="convopt"` a name Dynamo knows is not in the installed
metadata; then the block runs after `convopt.dynamo.register()`, which does
what the entry point does."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def readme_block() -> str:
    readme = (REPO / "README.md").read_text()
    start = readme.index("## Train with torch.compile")
    section = readme[start : readme.index("\n## ", start + 1)]
    (block,) = [body for lang, body in FENCE.findall(section) if lang == "python"]
    return block


def test_the_readme_training_runs_as_written(tmp_path):
    code = readme_block()
    installed = any(ep.name == "convopt" for ep in importlib.metadata.entry_points(group="torch_dynamo_backends"))
    if not installed:
        code = "import convopt.dynamo\nconvopt.dynamo.register()\n" + code
    script = tmp_path / "train.py"
    script.write_text("import torch\ntorch.set_num_threads(1)\n" + code)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr and "convopt backend" not in proc.stderr  # no fallback warning
    found = re.fullmatch(r"loss (\d+\.\d+), test accuracy (\d+\.\d)%\n", proc.stdout)
    assert found, proc.stdout
    assert float(found.group(2)) > 90
