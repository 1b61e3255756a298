"""Writing the `-o` file atomically, and the signals that may interrupt it.

    write_atomically("out.mlir", text)   # the old content or the new, never half; no temp file left

SIGTERM and SIGHUP during the write raise `Interrupted` (the temp file is
removed on the way out); the command line then dies of the signal
(convopt.cli.entry).  SIGINT raises KeyboardInterrupt as usual.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator
from typing import Optional, Union


class Interrupted(BaseException):
    """SIGTERM or SIGHUP arrived while the `-o` file was being written (the
    temp file is removed first); the command line then dies of the signal."""

    def __init__(self, signum: int):
        super().__init__(f"interrupted by signal {signum}")
        self.signum = signum


def write_atomically(path: str, text: Union[str, bytes]) -> None:
    """Write `path` (text as UTF-8, or bytes) through a temp file in its
    directory and os.replace: an interrupted or failed write (SIGINT,
    SIGTERM, SIGHUP, a full disk) leaves the previous content and no temp
    file."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    if os.path.exists(path) and not os.path.isfile(path):
        # /dev/null, /dev/stdout, a pipe: write through; renaming over it would replace the device
        with open(path, "wb") as f:
            f.write(data)
        return
    directory = os.path.dirname(os.path.abspath(path))
    tmp: Optional[str] = None
    with _signals_raise():
        try:
            with _signals_blocked():  # no signal between creating the temp file and knowing its name
                fd, tmp = tempfile.mkstemp(prefix=".convopt-", dir=directory)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            # mkstemp makes the file private (0600); give it the mode a plain open() would
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode) if os.path.exists(path) else 0o666 & ~_umask())
            os.replace(tmp, path)
            tmp = None
        finally:
            if tmp is not None and os.path.lexists(tmp):
                os.unlink(tmp)


_TERMINATING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    """While the temp file exists, SIGTERM and SIGHUP (whose default action
    kills the process without cleanup) raise Interrupted; SIGINT raises
    KeyboardInterrupt as usual.  Only on the main thread, and only where the
    default action is in place (an ignored signal stays ignored, a handler
    the embedding program installed stays)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise Interrupted(signum)

    previous = {}
    for sig in _TERMINATING:
        if signal.getsignal(sig) == signal.SIG_DFL:
            previous[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextlib.contextmanager
def _signals_blocked() -> Iterator[None]:
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, *_TERMINATING})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)  # a pending signal is handled here, after the name is known


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
