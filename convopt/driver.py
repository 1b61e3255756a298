"""What one convopt invocation does, independent of the command line:
read, split, parse, verify, run the pipeline, print, check diagnostics,
write the output (atomically: convopt.output).

`run_text` turns the text of one input into the output text or raises
`ConvoptError`; the command line (`run`) and the Python API
(`convopt.lower`) both go through it.  The pipeline is parsed once
(`check_options` -> PassManager) into a `Session`, and every buffer (each
chunk of --split-input-file) goes through the one runner, `run_buffer`:

    torch-mlir stages?  -> frontend stage, convopt (below), linalg stage
    convopt             -> function by function (convopt.parallel) unless an
                           option needs the module as a whole or the module
                           does not split (parallel.Fallback says why), else
                           the module as a whole

The route and its reason are recorded per buffer (`Session.routes`);
--mlir-timing prints them, --remarks with --threads != 1 says them.
"""

from __future__ import annotations

import enum
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from .diagnostics import ConvoptError, Diagnostic, DiagnosticEngine, SourceFile, verify_expected
from .output import Interrupted, write_atomically
from .timing import NO_TIMING, Timing

if TYPE_CHECKING:
    from .passes import PassManager

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
    timing: bool = False  # --mlir-timing: the time report on the log at the end
    print_ir_before: tuple[str, ...] = ()  # pass names: the IR before each run of them, on the log
    print_ir_after: tuple[str, ...] = ()  # pass names: the IR after each run of them, on the log
    allow_unregistered_dialect: bool = False  # ops of dialects convopt does not know pass through (printed generically)
    pipeline_from_flags: bool = False  # pipeline is default_pipeline's for the flags: its option errors name the flags
    dump_pass_pipeline: bool = False  # --dump-pass-pipeline: the pipeline, every option spelled out, on stderr before running
    elide_elements_over: Optional[int] = None  # --mlir-elide-elementsattrs-if-larger=N
    print_generic: bool = False  # --mlir-print-op-generic: every op in MLIR's generic form


class Route(enum.Enum):
    """How a buffer went through convopt."""

    WHOLE_MODULE = "the module as a whole"
    PER_FUNCTION = "function by function"
    TORCH_MLIR_STAGES = "torch-mlir's stages around convopt"


@dataclass(frozen=True)
class RouteTaken:
    """The route of one buffer and why (for the whole module: why not
    function by function); --mlir-timing prints it, --remarks with
    --threads says it at the buffer's first line."""

    route: Route
    why: str


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


@dataclass
class Session:
    """One invocation: its options, its pipeline parsed once, where its
    diagnostics and its side output go, its timers, the routes it took."""

    options: Options
    passes: Optional[PassManager]
    engine: DiagnosticEngine
    log: Log = None
    timing: Timing = NO_TIMING
    routes: list[RouteTaken] = field(default_factory=list)


def process(source: SourceFile, options: Options, engine: DiagnosticEngine, log: Log = None) -> Optional[str]:
    """Parse, verify, transform and print one buffer; None on error (the
    error is in engine).  A buffer without ops is an empty module, as in
    mlir-opt; `log` receives the --stats lines and the IR dumps."""
    return run_buffer(Session(options, check_options(options), engine, log), source)


def run_buffer(session: Session, source: SourceFile) -> Optional[str]:
    """The one runner: torch-mlir's stages around convopt, or convopt alone;
    convopt goes function by function where it can (same bytes, ~1/3 of the
    memory) and through the module as a whole otherwise, recording why."""
    if session.options.torch_mlir_stages:
        from .torch_mlir_stages import process_with_stages

        session.routes.append(RouteTaken(Route.TORCH_MLIR_STAGES, "--torch-mlir-stages"))
        with session.timing.scope("torch-mlir stages (frontend, convopt, linalg)"):
            return process_with_stages(source, session.engine, lambda middle: _convopt(session, middle))
    return _convopt(session, source)


def _convopt(session: Session, source: SourceFile) -> Optional[str]:
    """convopt on one buffer, per function if it can, else as a whole."""
    from . import parallel

    why = _whole_module_reason(session, source)
    if why is None:
        assert session.passes is not None
        try:
            o = session.options
            out = parallel.run_parallel(source, session.passes, o.threads or None, o.debuginfo, session.timing, o.allow_unregistered_dialect)
            session.routes.append(RouteTaken(Route.PER_FUNCTION, _workers(session.options.threads)))
            return out
        except parallel.Fallback as fallback:
            why = f"fell back: {fallback}"
    session.routes.append(RouteTaken(Route.WHOLE_MODULE, why))
    threads = session.options.threads
    if session.options.remarks and threads not in (None, 1) and session.passes is not None:
        # --threads asked for processes: say why the module went as a whole
        message = f"processed as a whole module, not function by function in {_workers(threads)}: {why}"
        session.engine.emit(Diagnostic("remark", message, source.pos(1, 1)))
    return _whole_module(session, source)


def _whole_module_reason(session: Session, source: SourceFile) -> Optional[str]:
    """Why the buffer goes as a whole module without trying the functions
    one by one (the options), or None to try."""
    from .parallel import static_fallback

    o = session.options
    if session.passes is None:
        return "no passes to run"
    if o.threads is None:
        return "the caller asked for the module as a whole (threads=None)"
    needs = [flag for flag, on in _whole_module_flags(o) if on]
    if not needs:
        return None
    reporting = session.timing.enabled or (o.remarks and o.threads != 1)
    static = static_fallback(source, session.passes) if reporting else None
    return static or f"{needs[0]} needs the module as a whole"


def _whole_module_flags(o: Options) -> list[tuple[str, bool]]:
    """The options whose output (diagnostics, lines per pass) needs the
    module as a whole, in the order they are named."""
    return [
        ("--verify-diagnostics", o.verify_diagnostics),
        ("--remarks", o.remarks),
        ("--stats", o.stats),
        ("--print-ir-after-all", o.print_ir_after_all),
        ("--mlir-print-ir-before", bool(o.print_ir_before)),
        ("--mlir-print-ir-after", bool(o.print_ir_after)),
        ("--verify-each", o.verify_each),
        ("--mlir-elide-elementsattrs-if-larger", o.elide_elements_over is not None),  # the per-function printer has no options
        ("--mlir-print-op-generic", o.print_generic),
    ]


def _workers(threads: Optional[int]) -> str:
    if threads == 1:
        return "one function at a time in this process"
    return "one process per CPU" if not threads else f"{threads} processes"


def _whole_module(session: Session, source: SourceFile) -> Optional[str]:
    """Parse, verify, run the pipeline on and print the buffer as one module."""
    from .parser import parse
    from .printer import print_module
    from .verifier import verify

    timing, engine = session.timing, session.engine
    try:
        with timing.scope("Parser"):
            parsed = parse(source, session.options.allow_unregistered_dialect)
        with timing.scope("Verifier"):
            verify(parsed.module)
        if session.passes is not None:
            run_pipeline(session, parsed.module)
        with timing.scope("Output"):
            o = session.options
            return print_module(parsed.module, parsed.metadata, o.debuginfo, o.elide_elements_over, o.print_generic)
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


def run_pipeline(session: Session, module) -> None:
    """The session's passes on module, with the IR dumps and --stats lines
    the options ask for going to the session's log."""
    from .passes import Instruments, PassContext

    o, log = session.options, session.log
    instruments = Instruments(o.verify_each, timing=session.timing)
    if log is not None and (o.print_ir_after_all or o.print_ir_before or o.print_ir_after):
        dumps = _IRDumps(o, log)
        instruments.before = dumps.before if o.print_ir_before else None
        instruments.after = dumps.after
    ctx = PassContext(session.engine, [] if o.stats else None)
    assert session.passes is not None
    session.passes.run(module, ctx, instruments)
    if ctx.stats and log is not None:
        for line in ctx.stats:
            log(line + "\n")


class _IRDumps:
    """--print-ir-after-all, --mlir-print-ir-before=PASS and
    --mlir-print-ir-after=PASS: the op a pass ran on, with mlir-opt's header
    line, to the log."""

    def __init__(self, options: Options, log: Callable[[str], object]):
        self.debuginfo = options.debuginfo
        self.elide = options.elide_elements_over
        self.generic = options.print_generic
        self.log = log
        self.before_names = set(options.print_ir_before)
        self.after_names = set(options.print_ir_after)
        self.after_all = options.print_ir_after_all

    def before(self, p, op) -> None:
        if p.NAME in self.before_names:
            self._dump("Before", p, op)

    def after(self, p, op) -> None:
        if self.after_all or p.NAME in self.after_names:
            self._dump("After", p, op)

    def _dump(self, when: str, p, op) -> None:
        from .printer import Printer

        where = f"('{op.name}' operation: @{_sym(op)})" if op.name == "func.func" else f"('{op.name}' operation)"
        self.log(f"// -----// IR Dump {when} {p.NAME} {where} //----- //\n")
        self.log(Printer(self.debuginfo, self.elide, self.generic).print_module(op))


def _sym(op) -> str:
    name = op.attributes.get("sym_name")
    return getattr(name, "value", "?")


def check_options(options: Options, timing: Timing = NO_TIMING) -> Optional[PassManager]:
    """The pipeline parsed into a pass manager (None without one).  Rejects
    a bad pipeline, an unknown pass name for the IR dumps (and
    --torch-mlir-stages without torch_mlir) before any input is read:
    ConvoptError with the `convopt: error:` line."""
    from .passes import PassManager, PipelineError, unknown_pass_message

    passes = None
    try:
        if options.pipeline is not None:
            with timing.scope("Pipeline parser"):  # the text, and importing the passes' modules
                passes = PassManager.parse(options.pipeline)
        for flag, names in (("--mlir-print-ir-before", options.print_ir_before), ("--mlir-print-ir-after", options.print_ir_after)):
            message = unknown_pass_message(names)
            if message is not None:
                raise PipelineError(f"{flag}: {message}")
    except PipelineError as e:
        message = str(e)
        if options.pipeline_from_flags:
            from .pipelines import in_flag_terms

            message = in_flag_terms(message)
        raise ConvoptError(lines=[f"convopt: error: {message}"]) from None
    if options.torch_mlir_stages:
        from .torch_mlir_stages import require_torch_mlir

        require_torch_mlir()
    return passes


def run_text(text: str, options: Options, name: str = "<stdin>", log: Log = None, passes: Optional[PassManager] = None, timing: Optional[Timing] = None) -> str:
    """The output text for the input `text` (named `name` in diagnostics).

    Everything the command line prints on stderr (diagnostics, remarks,
    --stats lines, IR dumps) goes to `log` as it is produced.  When the run
    fails, raises ConvoptError whose `.diagnostics` are the diagnostic lines
    of the run, in order.  `passes`: the pipeline already parsed by
    check_options (else it is parsed here); `timing`: the timers to add to
    (else, with options.timing, the report goes to log at the end)."""
    if passes is None:
        passes = check_options(options)
    own_timing = timing is None and options.timing
    session = Session(options, passes, DiagnosticEngine(remarks=options.remarks), log, Timing() if own_timing else timing or NO_TIMING)
    try:
        return _run_chunks(session, split_chunks(name, text) if options.split_input_file else [SourceFile(name, text)])
    finally:
        for line in route_notes(session.routes):
            session.timing.note(line)
        if own_timing and log is not None:
            log(session.timing.report())


def _run_chunks(session: Session, chunks: list[SourceFile]) -> str:
    """Run each chunk, report (or, with --verify-diagnostics, check) its
    diagnostics; the outputs joined by `// -----` lines, or ConvoptError."""
    options, engine, log = session.options, session.engine, session.log
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
        out = run_buffer(session, chunk)
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


def route_notes(routes: list[RouteTaken]) -> list[str]:
    """`Route: function by function (...)` lines, one per distinct route and
    reason, with the number of buffers when more than one took it."""
    counts: dict[RouteTaken, int] = {}
    for r in routes:
        counts[r] = counts.get(r, 0) + 1
    return [f"Route: {r.route.value} ({r.why})" + (f", {n} buffers" if n > 1 else "") for r, n in counts.items()]


def run(options: Options) -> int:
    """Run one invocation of the command line; returns the exit code."""
    timing = Timing() if options.timing else NO_TIMING
    try:
        return _run_command(options, timing)
    finally:
        if options.timing:
            sys.stderr.write(timing.report())


def _run_command(options: Options, timing: Timing) -> int:
    try:  # reject bad options before reading any input
        passes = check_options(options, timing)
    except ConvoptError as e:
        sys.stderr.write("\n".join(e.diagnostics) + "\n")
        return 1
    if options.dump_pass_pipeline:
        count = len(passes.passes()) if passes is not None else 0
        sys.stderr.write(f"Pass Manager with {count} passes:\n{passes.describe() if passes is not None else 'builtin.module()'}\n\n")
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
        result = run_text(text, options, name, sys.stderr.write, passes=passes, timing=timing)
    except ConvoptError:
        return 1  # its lines went to stderr as they were produced
    try:
        with timing.scope("Output"):
            _write(options.output_path, result)
    except OSError as e:
        sys.stderr.write(f"convopt: error: could not write output file '{options.output_path}': {e.strerror}\n")
        return 1
    return 0


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomically(path, text)


__all__ = ["ConvoptError", "Interrupted", "Options", "Route", "RouteTaken", "Session", "check_options", "decode", "process", "read_input", "run", "run_buffer", "run_text", "split_chunks", "write_atomically"]
