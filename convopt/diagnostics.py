"""Diagnostics in MLIR's form, and the `--verify-diagnostics` checker.

    in.mlir:3:8: error: use of undeclared SSA value name '%x'
      %0 = torch.aten.relu %x : ...
           ^

A `SourceFile` is one buffer (one chunk under `--split-input-file`); its
`line_offset` keeps reported line numbers those of the original file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional


class SourceFile:
    def __init__(self, name: str, text: str, line_offset: int = 0):
        self.name = name
        self.text = text
        self.line_offset = line_offset
        self._lines: Optional[list[str]] = None

    def line_text(self, line: int) -> str:
        if self._lines is None:
            self._lines = self.text.split("\n")
        if 1 <= line <= len(self._lines):
            return self._lines[line - 1].rstrip("\r")
        return ""

    def pos(self, line: int, col: int) -> SourcePos:
        return SourcePos(self, line, col)

    def pos_at_offset(self, offset: int) -> SourcePos:
        line = self.text.count("\n", 0, offset) + 1
        col = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return SourcePos(self, line, col)


@dataclass(frozen=True)
class SourcePos:
    source: SourceFile
    line: int  # 1-based, within the buffer
    col: int  # 1-based

    @property
    def display_line(self) -> int:
        return self.line + self.source.line_offset

    def __str__(self) -> str:
        return f"{self.source.name}:{self.display_line}:{self.col}"


@dataclass
class Diagnostic:
    severity: str  # "error", "warning", "remark" or "note"
    message: str
    pos: Optional[SourcePos] = None
    notes: list[Diagnostic] = field(default_factory=list)

    def note(self, message: str, at: object = None) -> Diagnostic:
        self.notes.append(Diagnostic("note", message, position_of(at)))
        return self

    def render(self) -> str:
        parts = [self._render_one()]
        parts.extend(n._render_one() for n in self.notes)
        return "\n".join(parts)

    def _render_one(self) -> str:
        if self.pos is None:
            return f"<unknown>:0:0: {self.severity}: {self.message}"
        head = f"{self.pos}: {self.severity}: {self.message}"
        line = self.pos.source.line_text(self.pos.line)
        if not line.strip():
            return head
        caret = "".join("\t" if ch == "\t" else " " for ch in line[: self.pos.col - 1]) + "^"
        return f"{head}\n{line}\n{caret}"


Locatable = object
"""What a diagnostic can point at: a SourcePos, an op or a value of the IR
(anything with a `pos`, or an `owner` or `block` that has one), or None.
Duck-typed, so that this module does not depend on the IR (which depends on
it)."""


def position_of(at: object) -> Optional[SourcePos]:
    """The source position of an op, a value (its definition) or a position."""
    if at is None or isinstance(at, SourcePos):
        return at
    pos = getattr(at, "pos", None)
    if pos is not None:
        return pos
    owner = getattr(at, "owner", None)
    if owner is not None:
        return owner.pos
    block = getattr(at, "block", None)
    if block is not None and block.parent is not None and block.parent.parent is not None:
        return block.parent.parent.pos
    return None


class ConvoptError(Exception):
    """Aborts processing of one input.

    `.diagnostic` is the (first) error as a `Diagnostic`; `.diagnostics` is
    the list of lines the command line prints for the failure, e.g.

        ["in.mlir:3:8: error: use of undeclared SSA value name '%x'",
         "  %0 = torch.aten.relu %x : ...",
         "       ^"]

    An error raised inside convopt carries one diagnostic (its lines are its
    rendering); the error that `convopt.lower()` and the driver raise for a
    failed run carries every line of the run (`lines=`)."""

    def __init__(self, diagnostic: Optional[Diagnostic] = None, lines: Optional[list[str]] = None):
        if diagnostic is None:
            if not lines:
                raise ValueError("ConvoptError needs a diagnostic or lines")
            diagnostic = Diagnostic("error", lines[0])
        super().__init__("\n".join(lines) if lines else diagnostic.message)
        self.diagnostic = diagnostic
        self._lines = lines

    @property
    def diagnostics(self) -> list[str]:
        if self._lines is not None:
            return list(self._lines)
        return self.diagnostic.render().split("\n")


def error(message: str, at: Locatable = None) -> ConvoptError:
    """Build (not raise) a located error: `raise error("...", op)`."""
    return ConvoptError(Diagnostic("error", message, position_of(at)))


class DiagnosticEngine:
    """Collects the diagnostics of one run (errors, warnings, remarks)."""

    def __init__(self, remarks: bool = False):
        self.diagnostics: list[Diagnostic] = []
        self.remarks = remarks

    def emit(self, diag: Diagnostic) -> Diagnostic:
        self.diagnostics.append(diag)
        return diag

    def remark(self, message: str, at: Locatable = None) -> None:
        if self.remarks:
            self.emit(Diagnostic("remark", message, position_of(at)))

    def warning(self, message: str, at: Locatable = None) -> None:
        self.emit(Diagnostic("warning", message, position_of(at)))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)


# --- --verify-diagnostics ------------------------------------------------------------

_EXPECTED = re.compile(r"expected-(error|warning|remark|note)\s*(?:@([+-]\d+|above|below))?\s*\{\{(.*)\}\}")


@dataclass
class Expectation:
    severity: str
    line: int  # line in the buffer the diagnostic must be on
    text: str
    comment_line: int
    matched: bool = False


def expectations(source: SourceFile) -> list[Expectation]:
    """Parse `// expected-error@+1 {{...}}` style comments of one buffer."""
    result = []
    for i, line in enumerate(source.text.split("\n"), start=1):
        comment = line.find("//")
        if comment < 0:
            continue
        for m in _EXPECTED.finditer(line, comment):
            severity, offset, text = m.group(1), m.group(2), m.group(3)
            target = i
            if offset == "above":
                target = i - 1
            elif offset == "below":
                target = i + 1
            elif offset:
                target = i + int(offset)
            result.append(Expectation(severity, target, text, i))
    return result


def verify_expected(source: SourceFile, diagnostics: list[Diagnostic]) -> list[str]:
    """Match produced diagnostics against the expected ones; return the
    rendered mismatches (empty when everything matched exactly)."""
    expected = expectations(source)
    problems: list[str] = []
    flat: list[Diagnostic] = []
    for diag in diagnostics:
        flat.append(diag)
        flat.extend(diag.notes)
    for diag in flat:
        found = None
        if diag.pos is not None and diag.pos.source is source:
            for exp in expected:
                if not exp.matched and exp.severity == diag.severity and exp.line == diag.pos.line and exp.text in diag.message:
                    found = exp
                    break
        if found is not None:
            found.matched = True
        else:
            problems.append(Diagnostic("error", f"unexpected {diag.severity}: {diag.message}", diag.pos).render())
    for exp in expected:
        if not exp.matched:
            pos = source.pos(exp.comment_line, 1)
            problems.append(Diagnostic("error", f'expected {exp.severity} "{exp.text}" was not produced', pos).render())
    return problems
