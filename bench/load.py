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
import threading
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


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    return parents


def _line(pid: int, parents: dict[int, int], stop: set[int]) -> tuple[list[int], int]:
    """pid and its ancestors up to the first one in `stop`, and that one
    (0 or 1 where the line reaches the top)."""
    line: list[int] = []
    while pid > 1 and pid not in stop and pid not in line:
        line.append(pid)
        pid = parents.get(pid, 0)
    return line, pid


def _ancestors() -> set[int]:
    """This process and its parents (never paused)."""
    return set(_line(os.getpid(), _parents(), set())[0])


def _cwd_under(pid: int, folder: str) -> bool:
    """Whether the process works in `folder`, or in one of the folders of an
    os.pathsep-separated list."""
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return False
    return any(cwd == f or cwd.startswith(f.rstrip("/") + "/") for f in folder.split(os.pathsep) if f)


def _working_in(folder: str, keep: set[int]) -> list[int]:
    """The processes whose working directory, or an ancestor's below `keep`,
    is under `folder` (a test's worker that changed into a temporary folder
    is still its runner's child); `keep` and this process's descendants (the
    bench's own workers) left out."""
    parents, me = _parents(), os.getpid()
    inside = {pid for pid in parents if _cwd_under(pid, folder)}
    found = []
    for pid in parents:
        line, top = _line(pid, parents, keep)
        if top != me and inside.intersection(line):
            found.append(pid)
    return found


def _stop_new(folder: str, keep: set[int], stopped: list[int]) -> None:
    for pid in _working_in(folder, keep):
        if pid not in stopped:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)


@contextlib.contextmanager
def paused(folder: Optional[str] = None) -> Iterator[list[int]]:
    """Stop the processes working inside `folder` (or any folder of an
    os.pathsep-separated list; default: $PAUSE_ENV;
    nothing when neither is set) for the duration of the block, then
    continue them.  Processes started there meanwhile (a helper's next
    command) are stopped too: the folder is scanned again every 0.2 s.
    Yields the stopped pids."""
    folder = folder if folder is not None else os.environ.get(PAUSE_ENV)
    stopped: list[int] = []
    done = threading.Event()
    watcher = None
    if folder:
        keep = _ancestors()
        _stop_new(folder, keep, stopped)
        if stopped:
            time.sleep(0.5)  # let the cores settle

        def watch() -> None:
            while not done.wait(0.2):
                _stop_new(folder, keep, stopped)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
    try:
        yield stopped
    finally:
        done.set()
        if watcher is not None:
            watcher.join()
        for pid in stopped:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
