"""`--torch-mlir-stages`: from a raw FX import to pure linalg through
torch-mlir's own stages, in-process, with convopt in the middle:

    torch-mlir  builtin.module(torch-function-to-torch-backend-pipeline{backend-legal-ops=aten.convolution_backward})
    convopt     the --lower-conv-bwd pipeline (every convolution_backward, symbolic-shape annotations dropped)
    torch-mlir  builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)

the three commands of the README's torch-mlir recipe, run with the
`torch_mlir` Python package (imported here, and only when used).  Between
the stages goes the text the commands would pipe (with `loc(...)` after the
frontend stage, see below), and the output is theirs byte for byte
(test/unit/test_recipes.py checks it).

What torch-mlir's parser and pass manager report becomes convopt
diagnostics.  The frontend stage reads the input, so its diagnostics point
into it; its output is printed with locations, so that convopt's
diagnostics, located in that text, can be moved to the input line torch-mlir
kept for the op.  The linalg stage reads convopt's output: its diagnostics
point there (named `<input> after convopt`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any, Optional

from .diagnostics import ConvoptError, Diagnostic, DiagnosticEngine, SourceFile, SourcePos

FRONTEND_STAGE = "builtin.module(torch-function-to-torch-backend-pipeline{backend-legal-ops=aten.convolution_backward})"
LINALG_STAGE = "builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)"
MISSING = "--torch-mlir-stages needs the torch_mlir package (pip install 'convopt[torch-mlir]')"

_SEVERITY = {"ERROR": "error", "WARNING": "warning", "NOTE": "note", "REMARK": "remark"}
_FILE_LOC = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')


def _torch_mlir() -> Any:
    """The torch_mlir modules used here (ir, passmanager, the torch dialect)."""
    from torch_mlir import ir, passmanager
    from torch_mlir.dialects import torch as torch_dialect

    return ir, passmanager, torch_dialect


def require_torch_mlir() -> None:
    """ConvoptError with the `convopt: error:` line when torch_mlir cannot be imported."""
    try:
        _torch_mlir()
    except ImportError as e:
        missing = isinstance(e, ModuleNotFoundError) and (e.name or "").split(".")[0] == "torch_mlir"
        raise ConvoptError(lines=[f"convopt: error: {MISSING}" + ("" if missing else f"; importing it failed: {e}")]) from None


@dataclasses.dataclass
class _Reported:
    """One diagnostic of torch-mlir, copied out of its handler (the C++
    object lives only during the call)."""

    severity: str
    location: str
    message: str
    notes: list[tuple[str, str]]


def _position(location: str, source: SourceFile) -> Optional[SourcePos]:
    """Where an MLIR location points: a line of `source` (the buffer torch-mlir
    parsed is called "-"), a line of some other file, or nowhere."""
    m = _FILE_LOC.search(location)
    if m is None:
        return None
    name, line, col = m.group(1), int(m.group(2)), int(m.group(3))
    if name == "-":
        return source.pos(line, max(col, 1))
    return SourcePos(SourceFile(name, ""), line, max(col, 1))


def _diagnostic(reported: _Reported, source: SourceFile) -> Diagnostic:
    diag = Diagnostic(reported.severity, reported.message, _position(reported.location, source))
    for location, message in reported.notes:
        diag.notes.append(Diagnostic("note", message, _position(location, source)))
    return diag


class _Session:
    """A torch-mlir context with the dialects the stages read loaded (the
    Python bindings register only `torch`; `torch_c` and `tm_tensor` get
    loaded when a pipeline that produces them runs once)."""

    def __init__(self) -> None:
        self.ir, self.passmanager, torch_dialect = _torch_mlir()
        self.context = self.ir.Context()
        torch_dialect.register_dialect(self.context)
        self.context.emit_error_diagnostics = True  # errors go to the handler, not only into the exception
        with self.context:
            self.passmanager.PassManager.parse(LINALG_STAGE).run(self.ir.Module.parse("module {\n}\n").operation)

    def run(self, source: SourceFile, pipeline: str, engine: DiagnosticEngine, raw_import: bool = False, locations: bool = False) -> Optional[str]:
        """Parse `source`, run `pipeline`, print the result (with `loc(...)`
        if `locations`); None on failure (the diagnostics are in engine).
        `raw_import`: the input should be torch and func ops only; if it is
        not and the stage fails, the first error says so (torch-mlir's
        errors, with their dumps of the IR, follow)."""
        reported: list[_Reported] = []

        def handler(d: Any) -> bool:
            severity = _SEVERITY.get(str(d.severity).rsplit(".", 1)[-1], "error")
            reported.append(_Reported(severity, str(d.location), str(d.message), [(str(n.location), str(n.message)) for n in d.notes]))
            return True

        handle = self.context.attach_diagnostic_handler(handler)
        failure: Optional[str] = None
        module = None
        foreign: Optional[tuple[str, str]] = None  # (name, location) of the first op outside torch and func
        try:
            with self.context:
                module = self.ir.Module.parse(source.text)
                if raw_import:
                    foreign = self._first_foreign_op(module)
                self.passmanager.PassManager.parse(pipeline).run(module.operation)
        except self.ir.MLIRError as e:
            failure = str(e.message)
        finally:
            handle.detach()
        first_error: Optional[Diagnostic] = None
        if failure is not None and foreign is not None:  # the hint first, before torch-mlir's dumps
            first_error = engine.emit(Diagnostic("error", NOT_A_RAW_IMPORT.format(op=foreign[0]), _position(foreign[1], source)))
        for r in reported:
            if r.severity == "remark" and not engine.remarks:
                continue
            diag = engine.emit(_diagnostic(r, source))
            if r.severity == "error" and first_error is None:
                first_error = diag
        if failure is None and module is not None:
            return module.operation.get_asm(enable_debug_info=locations) + "\n"  # torch-mlir-opt ends its output with an empty line
        if first_error is None:
            engine.emit(Diagnostic("error", f"torch-mlir: {failure or 'failed'} ({pipeline})", source.pos(1, 1)))
        return None

    def _first_foreign_op(self, module: Any) -> Optional[tuple[str, str]]:
        found: list[tuple[str, str]] = []

        def visit(op: Any) -> Any:
            if op.name.split(".")[0] not in ("torch", "func", "builtin"):
                found.append((op.name, str(op.location)))
                return self.ir.WalkResult.INTERRUPT
            return self.ir.WalkResult.ADVANCE

        module.operation.walk(visit, self.ir.WalkOrder.PRE_ORDER)
        return found[0] if found else None


NOT_A_RAW_IMPORT = (
    "--torch-mlir-stages reads torch-mlir's raw FX import (torch and func ops only), but the input has '{op}' ops: "
    "it has been lowered already (convopt's output?); give --torch-mlir-stages the raw import"
)


def process_with_stages(source: SourceFile, engine: DiagnosticEngine, convopt: Callable[[SourceFile], Optional[str]]) -> Optional[str]:
    """One buffer through torch-mlir's frontend stage, `convopt` (the
    driver's processing of one buffer with the invocation's pipeline; None
    on error, the error in engine) and torch-mlir's linalg stage; None on
    error."""
    session = _Session()
    # The frontend stage's output keeps the locations of the input's ops, so
    # that convopt's diagnostics (and remarks) can point into the input.
    backend = session.run(source, FRONTEND_STAGE, engine, raw_import=True, locations=True)
    if backend is None:
        return None
    middle = SourceFile(f"{source.name} after torch-mlir's frontend stage", backend)
    start = len(engine.diagnostics)
    lowered = convopt(middle)
    _relocate(engine.diagnostics[start:], middle, source)
    if lowered is None:
        return None
    return session.run(SourceFile(f"{source.name} after convopt", lowered), LINALG_STAGE, engine)


_LOC_ALIAS = re.compile(r"^#(loc\w*) = (loc\(.*\))$", re.MULTILINE)
_LOC_USE = re.compile(r"loc\((#loc\w*|\"(?:[^\"\\]|\\.)*\":\d+:\d+)\)")


def _relocate(diagnostics: list[Diagnostic], middle: SourceFile, source: SourceFile) -> None:
    """Move the diagnostics located in the frontend stage's output to the
    location torch-mlir kept for the op on that line (the `loc(...)` that
    ends a one-line op): a line of the input, or of the file the importer
    named.  Lines without a location (a function's first line) stay."""
    aliases = dict(_LOC_ALIAS.findall(middle.text))

    def expand(text: str, depth: int = 0) -> str:
        if depth > 8:
            return text
        return re.sub(r"#loc\w*", lambda m: expand(aliases.get(m.group(0)[1:], ""), depth + 1), text)

    for diag in diagnostics:
        for d in [diag, *diag.notes]:
            if d.pos is None or d.pos.source is not middle:
                continue
            uses = _LOC_USE.findall(middle.line_text(d.pos.line))
            if uses:
                pos = _position(expand(uses[-1]), source)
                if pos is not None:
                    d.pos = pos
