"""bench/load.py's `paused`: the processes working in a folder stop while a
benchmark times, those started there meanwhile too, and the bench's own
workers never."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench import load

SLEEPER = [sys.executable, "-c", "import time; time.sleep(30)"]
# a runner working in the folder whose worker changes into another one (as pytest's tmp_path tests do)
RUNNER = [sys.executable, "-c", "import subprocess, sys; subprocess.run(sys.argv[1:], cwd='/')", *SLEEPER]


def state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def detached(cwd: Path, argv: list[str]) -> int:
    """Start `argv` in `cwd` as a process that is not this one's descendant
    (another developer's), and return its pid."""
    cmd = " ".join(shlex.quote(a) for a in argv)
    out = subprocess.run(["sh", "-c", f"cd {shlex.quote(str(cwd))} && {cmd} >/dev/null 2>&1 & echo $!"], capture_output=True, text=True)
    return int(out.stdout)


def first_child(pid: int) -> int:
    for _ in range(100):
        kids = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout.split()
        if kids:
            return int(kids[0])
        time.sleep(0.05)
    raise AssertionError("the runner started no worker")


def test_paused_stops_workers_late_starters_and_not_its_own(tmp_path: Path):
    work = tmp_path / "helper"
    work.mkdir()
    runner = detached(work, RUNNER)
    own = subprocess.Popen(SLEEPER, cwd=work)  # the bench's own worker
    pids = [runner]
    try:
        worker = first_child(runner)
        pids.append(worker)
        with load.paused(str(work)) as stopped:
            late = detached(work, SLEEPER)
            pids.append(late)
            time.sleep(0.8)
            states = {name: state(p) for name, p in [("runner", runner), ("worker", worker), ("own", own.pid), ("late", late)]}
            assert {runner, worker, late} <= set(stopped)
        assert states == {"runner": "T", "worker": "T", "own": "S", "late": "T"}
        assert "T" not in {state(worker), state(late)}
    finally:
        own.kill()
        own.wait()
        for p in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p, signal.SIGKILL)
