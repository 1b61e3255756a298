"""`-o` is all or nothing: a run that is interrupted (SIGINT, SIGTERM,
SIGHUP) or whose write fails (a full disk, a file-size limit, a failing
rename) leaves the previous content of the output file as it was and no
`.convopt-*` temp file next to it.

The signal tests run the real command in a subprocess, paused at a chosen
point of the write by a small wrapper (the computation, the middle of the
write, just before the rename), and send it the signal there.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from unit_helpers import INPUTS, REPO, convopt

from convopt import output

PREVIOUS = b"previous content\n"
SOURCE = INPUTS / "conv1d_conv3d.mlir"  # ~60 kB of output with --lower-conv-bwd

WRAPPER = r'''
import os, sys, time
import convopt.driver as d

point, ready = os.environ["PAUSE_AT"], os.environ["READY_FILE"]


def pause():
    open(ready, "w").close()
    time.sleep(60)


if point == "replace":  # the temp file is complete, the rename has not happened
    real_replace = os.replace

    def replace(a, b):
        pause()
        real_replace(a, b)

    d.os.replace = replace
elif point == "write":  # half the text is in the temp file
    real_fdopen = os.fdopen

    class Half:
        def __init__(self, f):
            self.f = f

        def write(self, text):
            self.f.write(text[: len(text) // 2])
            self.f.flush()
            pause()
            self.f.write(text[len(text) // 2 :])

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return self.f.__exit__(*exc)

    d.os.fdopen = lambda *a, **k: Half(real_fdopen(*a, **k))
elif point == "compute":  # before any output exists
    real_run_text = d.run_text

    def run_text(*a, **k):
        pause()
        return real_run_text(*a, **k)

    d.run_text = run_text

from convopt.cli import entry

sys.argv = ["convopt", *sys.argv[1:]]
entry()
'''


def _default_signals() -> None:
    """In the child: SIGHUP and SIGINT at their defaults, however the test run
    was started (a background job of a non-interactive shell ignores SIGINT,
    `nohup` SIGHUP, and an ignored signal stays ignored across exec)."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_paused(tmp_path: Path, point: str, *args: str) -> subprocess.Popen:
    wrapper = tmp_path / "wrapper.py"
    wrapper.write_text(WRAPPER)
    ready = tmp_path / "ready"
    env = dict(os.environ, PAUSE_AT=point, READY_FILE=str(ready))
    work = tmp_path / "work"
    proc = subprocess.Popen([sys.executable, str(wrapper), *args], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_default_signals)
    deadline = time.monotonic() + 120
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"the wrapped convopt did not reach '{point}' (exit {proc.returncode}):\n{err.decode(errors='replace')}")
        time.sleep(0.02)
    return proc


def setup_work(tmp_path: Path, previous: bool = True) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    (work / "in.mlir").write_bytes(SOURCE.read_bytes())
    if previous:
        (work / "out.mlir").write_bytes(PREVIOUS)
    return work


def listing(work: Path) -> list[str]:
    return sorted(p.name for p in work.iterdir())


SIGNALS = [("SIGTERM", -signal.SIGTERM), ("SIGHUP", -signal.SIGHUP), ("SIGINT", 1)]  # SIGINT: click's "Aborted!", exit 1


@pytest.mark.parametrize("point", ["write", "replace", "compute"])
@pytest.mark.parametrize("name,code", SIGNALS, ids=[s[0] for s in SIGNALS])
def test_signal_leaves_previous_output_and_no_temp_file(tmp_path, point, name, code):
    work = setup_work(tmp_path)
    proc = start_paused(tmp_path, point, "--lower-conv-bwd", "in.mlir", "-o", "out.mlir")
    if point != "compute":
        assert any(n.startswith(".convopt-") for n in listing(work)), "the pause is not inside the write"
    proc.send_signal(getattr(signal, name))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err.decode(errors="replace")
    assert b"Traceback" not in err, err.decode(errors="replace")
    assert (work / "out.mlir").read_bytes() == PREVIOUS
    assert listing(work) == ["in.mlir", "out.mlir"]


@pytest.mark.parametrize("name,code", SIGNALS, ids=[s[0] for s in SIGNALS])
def test_signal_creates_no_output_when_there_was_none(tmp_path, name, code):
    work = setup_work(tmp_path, previous=False)
    proc = start_paused(tmp_path, "write", "--lower-conv-bwd", "in.mlir", "-o", "out.mlir")
    proc.send_signal(getattr(signal, name))
    proc.communicate(timeout=60)
    assert proc.returncode == code
    assert listing(work) == ["in.mlir"]


def test_ignored_sigterm_stays_ignored(tmp_path):
    """Under `nohup`-style SIG_IGN the write completes."""
    work = setup_work(tmp_path)
    wrapper_env_ignore = "import signal; signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    (tmp_path / "wrapper.py").write_text(wrapper_env_ignore + WRAPPER)
    ready = tmp_path / "ready"
    env = dict(os.environ, PAUSE_AT="replace", READY_FILE=str(ready))
    proc = subprocess.Popen([sys.executable, str(tmp_path / "wrapper.py"), "--lower-conv-bwd", "in.mlir", "-o", "out.mlir"], cwd=work, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    while not ready.exists():
        assert proc.poll() is None, proc.communicate()[1].decode(errors="replace")
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    assert proc.poll() is None  # still sleeping in the paused rename: SIGTERM was ignored
    proc.kill()
    proc.communicate(timeout=60)


def test_file_size_limit_is_a_write_error(tmp_path):
    """A full disk, simulated with RLIMIT_FSIZE (Python ignores SIGXFSZ, so
    the write fails with EFBIG): exit 1, a `convopt: error:` line, the
    previous content kept, no temp file."""
    import resource

    work = setup_work(tmp_path)
    limit = 8192

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = subprocess.run([str(Path(sys.executable).parent / "convopt"), "--lower-conv-bwd", "in.mlir", "-o", "out.mlir"], cwd=work,
                          capture_output=True, preexec_fn=small_files, timeout=120)
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode == 1, err
    assert "convopt: error: could not write output file 'out.mlir'" in err, err
    assert "Traceback" not in err
    assert (work / "out.mlir").read_bytes() == PREVIOUS
    assert listing(work) == ["in.mlir", "out.mlir"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_dev_full_is_a_write_error(tmp_path):
    work = setup_work(tmp_path, previous=False)
    proc = convopt("--lower-conv-bwd", "in.mlir", "-o", "/dev/full", cwd=work)
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode == 1, err
    assert "convopt: error: could not write output file '/dev/full': No space left on device" in err, err
    assert "Traceback" not in err
    assert listing(work) == ["in.mlir"]


# --- in-process: write_atomically itself -------------------------------------------------------------

def test_failing_write_keeps_previous_content(tmp_path, monkeypatch):
    out = tmp_path / "out.mlir"
    out.write_bytes(PREVIOUS)
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, text):
            self.f.write(text[:10])
            self.f.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return self.f.__exit__(*exc)

    monkeypatch.setattr(output.os, "fdopen", lambda *a, **k: Full(real_fdopen(*a, **k)))
    with pytest.raises(OSError, match="No space left"):
        output.write_atomically(str(out), "new content\n" * 1000)
    assert out.read_bytes() == PREVIOUS
    assert listing(tmp_path) == ["out.mlir"]


def test_failing_rename_keeps_previous_content(tmp_path, monkeypatch):
    out = tmp_path / "out.mlir"
    out.write_bytes(PREVIOUS)

    def fail(a, b):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(output.os, "replace", fail)
    with pytest.raises(OSError):
        output.write_atomically(str(out), "new\n")
    assert out.read_bytes() == PREVIOUS
    assert listing(tmp_path) == ["out.mlir"]


def test_interrupt_inside_the_write_removes_the_temp_file(tmp_path, monkeypatch):
    out = tmp_path / "out.mlir"
    out.write_bytes(PREVIOUS)

    def interrupted(a, b):
        raise KeyboardInterrupt

    monkeypatch.setattr(output.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        output.write_atomically(str(out), "new\n")
    assert out.read_bytes() == PREVIOUS
    assert listing(tmp_path) == ["out.mlir"]


def test_sigterm_handler_only_during_the_write(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace

    def replace(a, b):
        seen.append(signal.getsignal(signal.SIGTERM))
        real_replace(a, b)

    monkeypatch.setattr(output.os, "replace", replace)
    before = signal.getsignal(signal.SIGTERM)
    output.write_atomically(str(tmp_path / "out.mlir"), "x\n")
    assert signal.getsignal(signal.SIGTERM) == before
    if before == signal.SIG_DFL:
        assert seen and seen[0] not in (signal.SIG_DFL, signal.SIG_IGN)
    assert (tmp_path / "out.mlir").read_text() == "x\n"


def test_write_from_another_thread(tmp_path):
    """Signal handlers can only be set on the main thread: elsewhere the write works without them."""
    errors = []

    def work():
        try:
            output.write_atomically(str(tmp_path / "out.mlir"), "y\n")
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert not errors
    assert (tmp_path / "out.mlir").read_text() == "y\n"


def test_modes(tmp_path):
    new = tmp_path / "new.mlir"
    mask = os.umask(0o022)
    try:
        output.write_atomically(str(new), "a\n")
    finally:
        os.umask(mask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o644
    old = tmp_path / "old.mlir"
    old.write_text("b\n")
    old.chmod(0o640)
    output.write_atomically(str(old), "c\n")
    assert stat.S_IMODE(old.stat().st_mode) == 0o640 and old.read_text() == "c\n"


def test_repo_has_no_stray_temp_files():
    """Nothing this suite ran left a temp file in the repository."""
    assert not list(REPO.glob(".convopt-*")) and not list(INPUTS.glob(".convopt-*"))
