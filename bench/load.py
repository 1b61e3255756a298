"""How busy the machine is: the share of the CPU other processes use.

The machines here are shared (2 cores, several developers), so every
benchmark records the others' share of the CPU while it times
(OthersBusy), and can wait for a quiet machine (wait_quiet) or make one
(paused: the bench's own helpers' processes stopped while it times).
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import time
from collections.abc import Iterator
from typing import Optional


def children_cpu() -> float:
    """CPU seconds (user + system) of this process's waited-for children."""
    t = os.times()
    return t.children_user + t.children_system


def _cpu_ticks() -> tuple[int, int, int]:
    """(machine busy ticks, machine total ticks, this process's ticks)."""
    with open("/proc/stat") as f:
        vals = [int(v) for v in f.readline().split()[1:]]
    t = os.times()
    mine = round((t.user + t.system + children_cpu()) * os.sysconf("SC_CLK_TCK"))
    total = sum(vals[:8])  # guest time is already in user
    return total - vals[3] - vals[4], total, mine


class OthersBusy:
    """Share of the machine's CPU that other processes kept busy between
    start() and value() (this process's own CPU time taken out)."""

    t0: Optional[tuple[int, int, int]] = None

    def start(self) -> OthersBusy:
        try:
            self.t0 = _cpu_ticks()
        except (OSError, ValueError):
            self.t0 = None
        return self

    def value(self) -> float:
        if self.t0 is None:
            return math.nan
        busy1, total1, mine1 = _cpu_ticks()
        busy0, total0, mine0 = self.t0
        return max(0.0, ((busy1 - busy0) - (mine1 - mine0)) / max(1, total1 - total0))


QUIET = 0.25
"""Above this share of the CPU used by others, a timing is marked busy."""


def wait_quiet(max_wait: float) -> float:
    """Wait (up to max_wait s) until other processes keep less than QUIET of
    the CPU busy.  Returns the busy share seen last."""
    deadline = time.monotonic() + max_wait
    while True:
        probe = OthersBusy().start()
        time.sleep(0.5 if max_wait <= 0 else 2.0)
        busy = probe.value()
        if not busy > QUIET or time.monotonic() >= deadline:
            return busy


PAUSE_ENV = "CONVOPT_BENCH_PAUSE_CWD"
"""When set to a folder, the timing loops (bench/timing.py) stop (SIGSTOP) every process whose working directory is
inside it while they time, and continue them (SIGCONT) after: a developer's
own background work (builds in git worktrees, say) is paused for the
seconds a timing loop takes instead of costing PyTorch's spinning OpenMP
threads 10-100x.  The compiles between the timing loops run alongside."""


def _ancestors() -> set[int]:
    """This process and its parents (never paused)."""
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def _under(pid: str, folder: str) -> bool:
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return False
    return cwd == folder or cwd.startswith(folder.rstrip("/") + "/")


@contextlib.contextmanager
def paused(folder: Optional[str] = None) -> Iterator[list[int]]:
    """Stop the processes working inside `folder` (default: $PAUSE_ENV;
    nothing when neither is set) for the duration of the block, then
    continue them.  Yields the stopped pids."""
    folder = folder if folder is not None else os.environ.get(PAUSE_ENV)
    stopped: list[int] = []
    if folder:
        keep = _ancestors()
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) not in keep and _under(entry, folder):
                with contextlib.suppress(OSError):
                    os.kill(int(entry), signal.SIGSTOP)
                    stopped.append(int(entry))
        if stopped:
            time.sleep(0.5)  # let the cores settle
    try:
        yield stopped
    finally:
        for pid in stopped:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
