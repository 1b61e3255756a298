"""What one convopt invocation does, independent of the command line:
read, split, parse, verify, run the pipeline, print, check diagnostics,
write the output atomically.

`run_text` turns the text of one input into the output text or raises
`ConvoptError`; the command line (`run`) and the Python API
(`convopt.lower`) both go through it.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Optional

from .diagnostics import ConvoptError, Diagnostic, DiagnosticEngine, SourceFile, verify_expected
from .dialects.func import FUNC

SPLIT_LINE = re.compile(r"^// -----", re.MULTILINE)
OUTPUT_SEPARATOR = "// -----\n"

Log = Optional[Callable[[str], object]]
"""Where the text a run prints besides its output goes (stderr for the
command line); None drops it."""


@dataclass
class Options:
    input_path: str = "-"
    output_path: str = "-"
    pipeline: Optional[str] = None
    split_input_file: bool = False
    verify_diagnostics: bool = False
    debuginfo: bool = False
    print_ir_after_all: bool = False
    remarks: bool = False
    stats: bool = False
    torch_mlir_stages: bool = False  # run torch-mlir's frontend stage before the pipeline and its linalg stage after
    threads: Optional[int] = 1  # functions one by one in N processes (0: per CPU, 1: in this process); None: the module as a whole
    verify_each: bool = False  # verify everything after each pass (default: what the pass changed; everything at the end)


def read_input(path: str) -> tuple[str, bytes]:
    """(display name, bytes) of INPUT; '-' is stdin."""
    if path == "-":
        return "<stdin>", sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return path, f.read()


def decode(name: str, data: bytes) -> str:
    """UTF-8 text, or a located error at the first invalid byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = data[: e.start].decode("utf-8")
        source = SourceFile(name, good)
        pos = source.pos_at_offset(len(good))
        raise ConvoptError(Diagnostic("error", f"invalid UTF-8 byte 0x{data[e.start]:02X} in input", pos)) from None


def split_chunks(name: str, text: str) -> list[SourceFile]:
    """Split at `// -----` lines; each chunk keeps its original line numbers.
    As in mlir-opt, a chunk may be empty (a file ending with a `// -----`
    line has an empty last chunk), except that a marker ending the file
    without a newline does not split."""
    chunks = []
    start = 0
    line = 0
    for m in SPLIT_LINE.finditer(text):
        if m.end() == len(text):  # mlir-opt: a "near miss", the marker stays in the chunk
            break
        chunk = text[start : m.start()]
        chunks.append(SourceFile(name, chunk, line))
        line += chunk.count("\n") + 1
        end = text.find("\n", m.end())
        start = len(text) if end < 0 else end + 1
    chunks.append(SourceFile(name, text[start:], line))
    return chunks


def process(source: SourceFile, options: Options, engine: DiagnosticEngine, log: Log = None, allow_empty: bool = False) -> Optional[str]:
    """Parse, verify, transform and print one buffer; None on error (the
    error is in engine).  `allow_empty` (a chunk of --split-input-file)
    makes a buffer without ops an empty module, as mlir-opt does; `log`
    receives the --stats lines and --print-ir-after-all dumps."""
    if options.torch_mlir_stages:
        from .torch_mlir_stages import process_with_stages

        plain = replace(options, torch_mlir_stages=False)
        return process_with_stages(source, engine, lambda middle: process(middle, plain, engine, log))
    # one function at a time (same bytes, ~1/3 of the memory); the whole
    # module where per-pass output or a full verification after each pass is asked for
    if options.threads is not None and options.pipeline is not None and not (options.remarks or options.stats or options.print_ir_after_all or options.verify_each):
        from .parallel import run_parallel

        out = run_parallel(source, options.pipeline, options.threads or None, options.debuginfo)
        if out is not None:  # None: the module does not split, or a function has a diagnostic
            return out
    from .ir.core import new_module
    from .parser import ParsedFile, _has_content, parse
    from .printer import print_module
    from .verifier import verify

    try:
        parsed = ParsedFile(new_module(source.pos(1, 1))) if allow_empty and not _has_content(source.text) else parse(source)
        verify(parsed.module)
        if options.pipeline is not None:
            run_pipeline(parsed.module, options, engine, log)
        return print_module(parsed.module, parsed.metadata, options.debuginfo)
    except ConvoptError as e:
        engine.emit(e.diagnostic)
        return None
    except RecursionError:
        engine.emit(Diagnostic("error", "input nests too deeply", source.pos(1, 1)))
        return None
    except Exception as e:  # a bug in convopt: report it as a diagnostic, not a traceback
        if os.environ.get("CONVOPT_DEBUG"):
            raise
        engine.emit(Diagnostic("error", f"internal error: {type(e).__name__}: {e} (set CONVOPT_DEBUG=1 for a traceback)", source.pos(1, 1)))
        return None


def run_pipeline(module, options: Options, engine: DiagnosticEngine, log: Log = None) -> None:
    from .passes import PassContext, run_passes

    def dump(p, op) -> None:
        from .printer import Printer

        where = f"('{op.name}' operation: @{_sym(op)})" if op.name == FUNC else f"('{op.name}' operation)"
        log(f"// -----// IR Dump After {p.NAME} {where} //----- //\n")  # type: ignore[misc]
        log(Printer(options.debuginfo).print_module(op))  # type: ignore[misc]

    ctx = PassContext(engine, [] if options.stats else None)
    run_passes(module, options.pipeline or "", ctx, options.verify_each, dump if options.print_ir_after_all and log is not None else None)
    if ctx.stats and log is not None:
        for line in ctx.stats:
            log(line + "\n")


def _sym(op) -> str:
    name = op.attributes.get("sym_name")
    return getattr(name, "value", "?")


class Interrupted(BaseException):
    """SIGTERM or SIGHUP arrived while the `-o` file was being written (the
    temp file is removed first); the command line then dies of the signal."""

    def __init__(self, signum: int):
        super().__init__(f"interrupted by signal {signum}")
        self.signum = signum


def write_atomically(path: str, text: str) -> None:
    """Write `path` through a temp file in its directory and os.replace: an
    interrupted or failed write (SIGINT, SIGTERM, SIGHUP, a full disk)
    leaves the previous content and no temp file."""
    if os.path.exists(path) and not os.path.isfile(path):
        # /dev/null, /dev/stdout, a pipe: write through; renaming over it would replace the device
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    directory = os.path.dirname(os.path.abspath(path))
    tmp: Optional[str] = None
    with _signals_raise():
        try:
            with _signals_blocked():  # no signal between creating the temp file and knowing its name
                fd, tmp = tempfile.mkstemp(prefix=".convopt-", dir=directory)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
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


def check_options(options: Options) -> None:
    """Reject a bad pipeline (and --torch-mlir-stages without torch_mlir)
    before any input is read: ConvoptError with the `convopt: error:` line."""
    from .passes import PipelineError, parse_pipeline

    if options.pipeline is not None:
        try:
            parse_pipeline(options.pipeline)
        except PipelineError as e:
            raise ConvoptError(lines=[f"convopt: error: {e}"]) from None
    if options.torch_mlir_stages:
        from .torch_mlir_stages import require_torch_mlir

        require_torch_mlir()


def run_text(text: str, options: Options, name: str = "<stdin>", log: Log = None) -> str:
    """The output text for the input `text` (named `name` in diagnostics).

    Everything the command line prints on stderr (diagnostics, remarks,
    --stats lines, --print-ir-after-all dumps) goes to `log` as it is
    produced.  When the run fails, raises ConvoptError whose `.diagnostics`
    are the diagnostic lines of the run, in order."""
    check_options(options)
    engine = DiagnosticEngine(remarks=options.remarks)
    chunks = split_chunks(name, text) if options.split_input_file else [SourceFile(name, text)]
    outputs: list[str] = []
    lines: list[str] = []
    problems: list[str] = []
    failed = False

    def report(rendered: str) -> None:
        lines.extend(rendered.split("\n"))
        if log is not None:
            log(rendered + "\n")

    for chunk in chunks:
        start = len(engine.diagnostics)
        out = process(chunk, options, engine, log, allow_empty=options.split_input_file)
        produced = engine.diagnostics[start:]
        if options.verify_diagnostics:
            problems += verify_expected(chunk, produced)
        else:
            for diag in produced:
                report(diag.render())
        if out is None:
            failed = True
        else:
            outputs.append(out)
    if options.verify_diagnostics:  # only the mismatches are reported
        for p in problems:
            report(p)
        failed = bool(problems)
    if failed:
        first = next((d for d in engine.diagnostics if d.severity == "error"), None)
        raise ConvoptError(first, lines=lines or ["convopt: error: processing failed"])
    return OUTPUT_SEPARATOR.join(outputs)


def run(options: Options) -> int:
    """Run one invocation of the command line; returns the exit code."""
    try:  # reject bad options before reading any input
        check_options(options)
    except ConvoptError as e:
        sys.stderr.write("\n".join(e.diagnostics) + "\n")
        return 1
    try:
        name, data = read_input(options.input_path)
    except OSError as e:
        sys.stderr.write(f"convopt: error: could not open input file '{options.input_path}': {e.strerror}\n")
        return 1
    try:
        text = decode(name, data)
    except ConvoptError as e:
        sys.stderr.write("\n".join(e.diagnostics) + "\n")
        return 1
    try:
        result = run_text(text, options, name, sys.stderr.write)
    except ConvoptError:
        return 1  # its lines went to stderr as they were produced
    try:
        if options.output_path == "-":
            sys.stdout.write(result)
            sys.stdout.flush()
        else:
            write_atomically(options.output_path, result)
    except OSError as e:
        sys.stderr.write(f"convopt: error: could not write output file '{options.output_path}': {e.strerror}\n")
        return 1
    return 0
