"""Functions of a large module in worker processes, with the serial output.

Like MLIR's threaded pass manager: the functions of a module are independent
under convopt's passes (function passes, and convopt-finalize-boundary, whose
only look across functions is which symbols are referenced), so each one can
be parsed, verified, transformed and printed on its own.  The result is the
serial result byte for byte:

- SSA names are numbered per function (func.func is isolated from above), so a
  function prints the same alone as inside its module;
- `#map` aliases are numbered in order of first use over the module: a worker
  prints placeholders and returns its maps in its own order of first use; the
  maps are numbered here, function by function in module order, as the
  serial walk does;
- the chunks keep their line numbers and columns (a chunk starts at the line
  start), so locations print the same with --mlir-print-debuginfo.

When that does not hold, or anything goes wrong, `run_parallel` raises
`Fallback` saying why, and the caller runs the serial path, which also
reports the diagnostics exactly as usual: a module whose top level is not
only functions, input with alias definitions or text after the module,
symbol references, module passes other than convopt-finalize-boundary, any
diagnostic in a worker.

    try:
        text = run_parallel(SourceFile(name, text), PassManager.parse(pipeline), workers=2)
    except Fallback as why:
        ...  # the serial path (driver), str(why) is the reason
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import re
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Optional

from .diagnostics import ConvoptError, DiagnosticEngine, SourceFile
from .dialects.func import FUNC
from .ir.attributes import AffineMapAttr
from .ir.core import Operation
from .passes import Instruments, PassContext, PassManager
from .printer import Printer, collect_map_aliases
from .timing import NO_TIMING, TimeNode, Timing

_FUNC_LINE = re.compile(r"^( *)func\.func ", re.MULTILINE)
_PLACEHOLDER = re.compile("\x00([0-9]+)\x00")
_MODULE_PASSES = ("convopt-finalize-boundary",)
"""Module passes that treat each function on its own (given no symbol
references)."""

MIN_FUNCTIONS = 8
"""Fewer functions than this are not worth the worker processes."""


class Fallback(Exception):
    """The module cannot be processed function by function; the message says
    why.  The caller uses the serial path."""


def split_functions(text: str) -> Optional[tuple[str, list[tuple[int, str]], str]]:
    """(header, [(line offset, function text)], footer) of a module written
    `module ... {` + top-level `func.func` ops, each starting a line, + `}`
    (as torch-mlir and convopt print it), or None."""
    found = [(len(m.group(1)), m.start()) for m in _FUNC_LINE.finditer(text)]
    if not found:
        return None
    indent = min(i for i, _ in found)  # the top level; a body is indented more
    starts = [start for i, start in found if i == indent]
    close = text.rstrip().rfind("\n}")
    if close < starts[-1] or text[close + 2 :].strip():
        return None  # no closing brace of the module, or text after it
    header = text[: starts[0]]
    if not header.lstrip().startswith("module") or header.count("{") != 1 + header.count("}") or "#" in header or "!" in header.split("module", 1)[0]:
        return None
    chunks = []
    bounds = starts + [close + 1]
    for a, b in zip(bounds, bounds[1:]):
        chunks.append((text.count("\n", 0, a), text[a:b]))
    return header, chunks, text[close + 1 :]


def static_fallback(source: SourceFile, passes: PassManager) -> Optional[str]:
    """Why the module cannot go function by function, seen without parsing
    it (the pipeline, the text's shape, the number of functions), or None."""
    try:
        _split(source, passes)
    except Fallback as why:
        return str(why)
    return None


def _split(source: SourceFile, passes: PassManager) -> tuple[str, list[tuple[int, str]], str]:
    """split_functions of the source, or Fallback saying why not."""
    module_pass = passes.module_pass(_MODULE_PASSES)
    if module_pass is not None:
        raise Fallback(f"the pipeline has the module pass '{module_pass}'")
    parts = split_functions(source.text)
    if parts is None:
        raise Fallback("the text is not one module of top-level func.func ops")
    if len(parts[1]) < MIN_FUNCTIONS:
        raise Fallback(f"{len(parts[1])} function{'s' if len(parts[1]) != 1 else ''}, fewer than {MIN_FUNCTIONS}")
    return parts


@dataclass
class _Job:
    """What a worker gets: the functions to process, with the pass manager
    parsed once by the caller."""

    name: str
    passes: PassManager
    debuginfo: bool
    chunks: list[tuple[int, str]]
    timed: bool = False
    allow_unregistered_dialect: bool = False


Results = list[tuple[str, list[AffineMapAttr]]]


def _run_job(job: _Job) -> tuple[Results, Optional[TimeNode]]:
    """In a worker process: the job's results and, if timed, its timers."""
    timing = Timing() if job.timed else NO_TIMING
    return _run_chunks(job, timing), timing.root if job.timed else None


def _run_chunks(job: _Job, timing: Timing) -> Results:
    """Parse, verify, transform and print each function alone.  Raises
    Fallback when the serial path must decide."""
    out = []
    # The IR is cyclic (ops, values, uses), and the command line turns the
    # cyclic collector off: collect each function once it is printed, scanning
    # only what was made since (the parser's tables and the rest are frozen).
    gc.freeze()
    for line_offset, text in job.chunks:
        module = _run_function(job, SourceFile(job.name, text, line_offset), timing)
        with timing.scope("Output"):
            out.append(print_function(module, job.debuginfo))
        del module
        gc.collect()
        gc.freeze()  # what is kept (the results so far) is not scanned again
    return out


def _run_function(job: _Job, source: SourceFile, timing: Timing) -> Operation:
    """The module of one function after the pipeline; Fallback on anything
    the serial path must report or decide."""
    from .parser import parse
    from .passes.boundary import referenced_symbols
    from .verifier import verify

    engine = DiagnosticEngine()
    where = f"line {source.line_offset + 1}"
    try:
        with timing.scope("Parser"):
            parsed = parse(source, job.allow_unregistered_dialect)
        module = parsed.module
        funcs = module.regions[0].blocks[0].ops
        if len(funcs) != 1 or funcs[0].name != "func.func" or parsed.metadata or parsed.type_aliases or referenced_symbols(module):
            raise Fallback(f"the function at {where} is not alone (symbol references, aliases, metadata or other ops)")
        with timing.scope("Verifier"):
            verify(module)
        job.passes.run(module, PassContext(engine), Instruments(timing=timing))
    except ConvoptError:
        raise Fallback(f"the function at {where} has an error") from None
    if engine.diagnostics:
        raise Fallback(f"the function at {where} has a diagnostic")
    if len(module.regions[0].blocks[0].ops) != 1:
        raise Fallback(f"the pipeline changed the ops around the function at {where}")
    return module


def print_function(module: Operation, debuginfo: bool) -> tuple[str, list[AffineMapAttr]]:
    """The text of the one function of module as the module printer prints
    it (one indent deep), with `\\x00N\\x00` for its N-th map alias, and its
    maps in order of first use."""
    p = Printer(debuginfo)
    p.start(module)
    local = list(p.aliases)
    p.aliases = {m: f"\x00{i}\x00" for i, m in enumerate(local)}
    p.indent = 1
    return p.op(module.regions[0].blocks[0].ops[0]), local


class _Assembler(Printer):
    """Prints the module skeleton with the workers' function texts in place
    of its (empty) function ops."""

    def __init__(self, debuginfo: bool, texts: dict[int, str]):
        super().__init__(debuginfo)
        self.texts = texts

    def op(self, op: Operation) -> str:
        text = self.texts.get(id(op))
        return text if text is not None else super().op(op)


def run_parallel(
    source: SourceFile, passes: PassManager, workers: Optional[int] = None, debuginfo: bool = False, timing: Timing = NO_TIMING, allow_unregistered_dialect: bool = False,
) -> str:
    """The output of `parse, verify, pipeline, print` on source, computed
    function by function in `workers` processes (default: the CPUs this
    process may use; 1: in this process, each function's IR freed once it
    is printed).  Raises Fallback (saying why) when the module does not
    split (see the module docstring) or a worker met a diagnostic."""
    workers = workers or len(os.sched_getaffinity(0))
    header, chunks, footer = _split(source, passes)
    skeleton = _skeleton(source, header + footer, timing)
    allow = allow_unregistered_dialect
    try:
        if workers == 1:  # in this process, one function at a time: little memory
            results = _run_chunks(_Job(source.name, passes, debuginfo, chunks, allow_unregistered_dialect=allow), timing)
        else:
            results = _run_pool(_Job(source.name, passes, debuginfo, chunks, timing.enabled, allow), workers, timing)
    except Fallback:
        raise
    except Exception as e:  # a bug in a worker: the serial path reports it as usual
        raise Fallback(f"a worker failed ({type(e).__name__}: {e})") from None
    finally:
        gc.unfreeze()
    with timing.scope("Output"):
        return assemble(skeleton, results, debuginfo)


def _skeleton(source: SourceFile, text: str, timing: Timing) -> Operation:
    """The module around the functions, parsed; it must be bare."""
    from .parser import parse

    try:
        with timing.scope("Parser"):
            skeleton = parse(SourceFile(source.name, text, 0))
    except ConvoptError:
        raise Fallback("the module around the functions does not parse alone") from None
    body = skeleton.module.regions[0].blocks[0] if skeleton.module.regions and skeleton.module.regions[0].blocks else None
    if skeleton.metadata or skeleton.type_aliases or body is None or body.ops:
        raise Fallback("the module has attributes, aliases or ops besides its functions")
    return skeleton.module


def _run_pool(job: _Job, workers: int, timing: Timing) -> Results:
    """The job in a few batches per worker (balanced, with little
    inter-process traffic); the workers' timers are added to timing."""
    chunks = job.chunks
    n = min(len(chunks), workers * 4)
    jobs = [replace(job, chunks=chunks[i * len(chunks) // n : (i + 1) * len(chunks) // n]) for i in range(n)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        done = list(pool.map(_run_job, jobs))
    for _, tree in done:
        if tree is not None:
            timing.add(tree)
    return [r for batch, _ in done for r in batch]


def assemble(module: Operation, results: Sequence[tuple[str, list[AffineMapAttr]]], debuginfo: bool) -> str:
    """Put the printed functions into the (function-less) module: one
    placeholder op per function, map aliases numbered over the module."""
    texts: dict[int, str] = {}
    body = module.regions[0].blocks[0]
    printer = _Assembler(debuginfo, texts)
    aliases = collect_map_aliases(module)
    for text, local in results:
        names = []
        for m in local:
            if m not in aliases:
                aliases[m] = "#map" if not aliases else f"#map{len(aliases)}"
            names.append(aliases[m])
        placeholder = body.append(Operation(FUNC))
        texts[id(placeholder)] = _PLACEHOLDER.sub(lambda g, names=names: names[int(g.group(1))], text)  # type: ignore[misc]
    return printer.print_module(module, aliases=aliases)
