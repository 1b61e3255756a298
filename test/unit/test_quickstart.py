"""docs/quickstart.md, run as written: each ```python block is saved under
the name on its first line (`# train_step.py`), each ```sh block's commands
run in order in a fresh folder with the virtualenv's bin first on PATH; every
command must succeed, and the checks the page shows must say so."""

from __future__ import annotations

import os
import re
import subprocess

from unit_helpers import BIN, REPO

PAGE = REPO / "docs" / "quickstart.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def test_the_quick_start_runs_as_written(tmp_path):
    env = {**os.environ, "PATH": str(BIN) + os.pathsep + os.environ.get("PATH", "")}
    outputs = []
    commands = 0
    for language, body in FENCE.findall(PAGE.read_text()):
        if language == "python":
            name = body.splitlines()[0].removeprefix("# ").strip()
            assert re.fullmatch(r"\w+\.py", name), f"a python block must start with '# NAME.py', not {name!r}"
            (tmp_path / name).write_text(body)
            continue
        assert language == "sh", language
        for command in (line for line in body.splitlines() if line.strip()):
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
            assert proc.returncode == 0, f"`{command}` failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
            assert "Traceback" not in proc.stderr
            outputs.append((command, proc.stdout))
            commands += 1
    assert commands >= 9
    said = {command.split()[0]: out for command, out in outputs}
    assert sum("[SUCCESS] all function outputs matched their expected values." in out for _, out in outputs) == 2
    assert any(out == "7 results match ref.npz\n" for _, out in outputs)
    assert said["convopt-run"].startswith("convopt-run: 7 results match ref.npz (out0 ")
    assert "torch.aten.convolution_backward" in (tmp_path / "model.mlir").read_text()
    assert "torch." not in (tmp_path / "model.linalg.mlir").read_text()
    from convopt.lowering.kernel import calibrated

    assert calibrated.load(str(tmp_path / "host.json")).costs.matmul > 0  # convopt-calibrate's profile, which --cost-profile read


def test_the_readme_quick_start_is_the_page_run_here():
    """README's Quick start shows commands of docs/quickstart.md, which the
    test above runs: each of its commands is one of the page's."""
    readme = (REPO / "README.md").read_text()
    start = readme.index("## Quick start")
    section = readme[start : readme.index("\n## ", start + 1)]
    page = [line for lang, body in FENCE.findall(PAGE.read_text()) if lang == "sh" for line in body.splitlines() if line.strip()]
    shown = [line for lang, body in FENCE.findall(section) if lang == "sh" for line in body.splitlines() if line.strip()]
    assert len(shown) >= 7 and [c for c in shown if c not in page] == []
