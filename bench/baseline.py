"""convopt as committed at a git ref, beside the working tree's: the
--baseline of bench/emitted.py and bench/models.py (and bench/ab.py).

`command(ref)` is the command line that runs that convopt: the ref's
convopt/ extracted once per process into a temporary directory (git
archive), put first on sys.path by the command itself -- `python -c` puts
the working directory (a checkout's root, with the new convopt/) before
PYTHONPATH, so PYTHONPATH alone would run the working tree's code.
"""

from __future__ import annotations

import compileall
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_ROOTS: dict[str, str] = {}


def extracted(ref: str) -> str:
    """The directory holding convopt/ as committed at ref (extracted once)."""
    if ref not in _ROOTS:
        root = tempfile.mkdtemp(prefix="convopt-baseline-")
        archive = subprocess.run(["git", "-C", str(REPO), "archive", ref, "convopt"], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", root], input=archive, check=True)
        compile_bytecode(Path(root))
        _ROOTS[ref] = root
    return _ROOTS[ref]


def compile_bytecode(root: Path = REPO) -> None:
    """Write the .pyc files of root/convopt, as `pip install` does, so that a
    timed convopt run does not compile its 100 modules first (0.2-0.3 CPU s
    a run): an editable install writes them on first import, unless
    PYTHONDONTWRITEBYTECODE is set, as it is on the machines here and in CI.
    Python reads them whatever that variable says, and ignores a stale one."""
    compileall.compile_dir(str(root / "convopt"), quiet=1)


def command(ref: str) -> list[str]:
    """argv running convopt as committed at ref (append its arguments)."""
    code = f"import sys; sys.path.insert(0, {extracted(ref)!r}); from convopt.cli import entry; sys.argv[0] = 'convopt'; entry()"
    return [sys.executable, "-c", code]
