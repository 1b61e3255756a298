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

When that does not hold, or anything goes wrong, `run_parallel` returns None
and the caller runs the serial path, which also reports the diagnostics
exactly as usual: a module whose top level is not only functions, input with
alias definitions or text after the module, symbol references, module passes
other than convopt-finalize-boundary, any diagnostic in a worker.

    text = run_parallel(SourceFile(name, text), pipeline, workers=2)
    if text is None:
        ...  # the serial path (driver.process)
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import re
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Optional

from .diagnostics import ConvoptError, DiagnosticEngine, SourceFile
from .dialects.func import FUNC
from .ir.attributes import AffineMapAttr
from .ir.core import Operation
from .printer import Printer, collect_map_aliases

_FUNC_LINE = re.compile(r"^( *)func\.func ", re.MULTILINE)
_PLACEHOLDER = re.compile("\x00([0-9]+)\x00")
_MODULE_PASSES = ("convopt-finalize-boundary",)
"""Module passes that treat each function on its own (given no symbol
references)."""

MIN_FUNCTIONS = 8
"""Fewer functions than this are not worth the worker processes."""


class _Fallback(Exception):
    """The module cannot be split; use the serial path."""


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


def check_pipeline(pipeline: str) -> bool:
    """True when every pass of the pipeline runs per function."""
    from .passes import Pass, parse_pipeline

    for entry in parse_pipeline(pipeline):
        if isinstance(entry, Pass):
            if entry.ANCHOR != FUNC and entry.NAME not in _MODULE_PASSES:
                return False
        elif entry[0] != FUNC:
            return False
    return True


def _run_chunks(args: tuple[str, str, bool, list[tuple[int, str]]]) -> list[tuple[str, list[AffineMapAttr]]]:
    """In a worker: parse, verify, transform and print each function alone.
    Raises _Fallback when the serial path must decide."""
    name, pipeline, debuginfo, chunks = args
    from .parser import parse
    from .passes import PassContext, run_passes
    from .passes.boundary import referenced_symbols
    from .verifier import verify

    out = []
    # The IR is cyclic (ops, values, uses), and the command line turns the
    # cyclic collector off: collect each function once it is printed, scanning
    # only what was made since (the parser's tables and the rest are frozen).
    gc.freeze()
    for line_offset, text in chunks:
        engine = DiagnosticEngine()
        try:
            parsed = parse(SourceFile(name, text, line_offset))
            module = parsed.module
            funcs = module.regions[0].blocks[0].ops
            if len(funcs) != 1 or funcs[0].name != FUNC or parsed.metadata or parsed.type_aliases or referenced_symbols(module):
                raise _Fallback()
            verify(module)
            run_passes(module, pipeline, PassContext(engine))
        except ConvoptError:
            raise _Fallback() from None
        if engine.diagnostics or len(module.regions[0].blocks[0].ops) != 1:
            raise _Fallback()
        out.append(print_function(module, debuginfo))
        del parsed, module, funcs
        gc.collect()
        gc.freeze()  # what is kept (the results so far) is not scanned again
    return out


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


def run_parallel(source: SourceFile, pipeline: str, workers: Optional[int] = None, debuginfo: bool = False) -> Optional[str]:
    """The output of `parse, verify, pipeline, print` on source, computed
    function by function in `workers` processes (default: the CPUs this
    process may use; 1: in this process, each function's IR freed once it
    is printed); None when the module does not split (see the module
    docstring) or a worker met a diagnostic."""
    from .parser import parse

    workers = workers or len(os.sched_getaffinity(0))
    parts = split_functions(source.text)
    if parts is None or len(parts[1]) < MIN_FUNCTIONS or not check_pipeline(pipeline):
        return None
    header, chunks, footer = parts
    try:
        skeleton = parse(SourceFile(source.name, header + footer, 0))
    except ConvoptError:
        return None
    body = skeleton.module.regions[0].blocks[0] if skeleton.module.regions and skeleton.module.regions[0].blocks else None
    if skeleton.metadata or skeleton.type_aliases or body is None or body.ops:
        return None
    # a few batches per worker: balanced, with little inter-process traffic
    try:
        if workers == 1:  # in this process, one function at a time: little memory
            results = _run_chunks((source.name, pipeline, debuginfo, chunks))
        else:
            n = min(len(chunks), workers * 4)
            batches = [chunks[i * len(chunks) // n : (i + 1) * len(chunks) // n] for i in range(n)]
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                results = [r for batch in pool.map(_run_chunks, [(source.name, pipeline, debuginfo, b) for b in batches]) for r in batch]
    except Exception:  # _Fallback, or a bug in a worker: the serial path reports it as usual
        return None
    finally:
        gc.unfreeze()
    return assemble(skeleton.module, results, debuginfo)


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
