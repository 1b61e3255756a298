"""Offsets into a document's text <-> LSP positions, and convopt's
diagnostics as LSP diagnostics.

An LSP position is (0-based line, 0-based character) where a character is
counted in the code units the client and server agreed on (UTF-16 unless
the client offers UTF-8 or UTF-32); convopt's positions are 1-based lines
and 1-based columns counted in code points.
"""

from __future__ import annotations

import bisect
import re
from typing import Optional

from lsprotocol import types

from ..diagnostics import Diagnostic, SourcePos

_NEWLINE = re.compile("\n")
_WORD = re.compile(r"[%^#!@]?[A-Za-z0-9_$.\-]+|\S")
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "remark": types.DiagnosticSeverity.Information,
    "note": types.DiagnosticSeverity.Hint,
}


def _units(text: str, encoding: str) -> int:
    if text.isascii() or encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


class LineMap:
    """Line starts of one text, for conversions in O(log lines)."""

    def __init__(self, text: str, encoding: str = types.PositionEncodingKind.Utf16):
        self.text = text
        self.encoding = encoding
        self.starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    def position(self, offset: int) -> types.Position:
        line = bisect.bisect_right(self.starts, offset) - 1
        return types.Position(line, _units(self.text[self.starts[line] : offset], self.encoding))

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(self.position(start), self.position(end))

    def offset(self, position: types.Position) -> int:
        """The offset of a position; a character past the end of its line
        is the end of the line, a line past the end is the end of the text."""
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[position.line]
        end = self.starts[position.line + 1] - 1 if position.line + 1 < len(self.starts) else len(self.text)
        line = self.text[start:end]
        if line.isascii() or self.encoding == types.PositionEncodingKind.Utf32:
            return start + min(position.character, len(line))
        for i in range(len(line) + 1):
            if _units(line[:i], self.encoding) >= position.character:
                return start + i
        return end

    def offset_of(self, pos: SourcePos) -> int:
        """The offset of a convopt position (1-based line of the document, 1-based column)."""
        line = min(pos.display_line - 1, len(self.starts) - 1)
        return min(self.starts[line] + pos.col - 1, len(self.text))

    def token_range(self, pos: SourcePos) -> types.Range:
        """The range of the token a diagnostic points at (empty at the end of a line)."""
        start = self.offset_of(pos)
        m = _WORD.match(self.text, start)
        end = m.end() if m is not None and "\n" not in m.group() else start
        return self.range(start, end)


def to_lsp(diag: Diagnostic, lines: LineMap, uri: str) -> types.Diagnostic:
    """One LSP diagnostic; its notes become related information."""
    related = []
    for note in diag.notes:
        where = note.pos or diag.pos
        where_range = lines.token_range(where) if where is not None else types.Range(types.Position(0, 0), types.Position(0, 0))
        related.append(types.DiagnosticRelatedInformation(types.Location(uri, where_range), note.message))
    return types.Diagnostic(
        range=_range(diag.pos, lines),
        message=diag.message,
        severity=_SEVERITY.get(diag.severity, types.DiagnosticSeverity.Error),
        source="convopt",
        related_information=related or None,
    )


def _range(pos: Optional[SourcePos], lines: LineMap) -> types.Range:
    if pos is None or pos.display_line < 1:
        return types.Range(types.Position(0, 0), types.Position(0, 0))
    return lines.token_range(pos)
