"""A lexical index of one `.mlir` document: where each SSA value, block
label and `#alias` / `!alias` is defined and used, and where each
`func.func` is.  It reads tokens only (no parse), so it also works on a
document that does not parse while it is being typed.

    index = build_index(text)
    index.at(offset)        # the Symbol whose definition or use covers offset
    index.functions         # FunctionSymbol per func.func, in order

Scoping is MLIR's: a `func.func` is isolated from above, a name defined in
a region is visible in the regions nested in it, sibling regions may reuse
a name, and a use may come before its definition (graph regions, forward
branches).  `#name = ...` / `!name = ...` at the top of a chunk define
aliases for the whole chunk; chunks are split at `// -----` lines, as
`--split-input-file` splits them.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Optional

_NAME = r"[A-Za-z0-9_$.\-]+"
_TOKEN = re.compile(
    rf"""(?P<comment>//[^\n]*)
    |(?P<string>"(?:[^"\\\n]|\\.)*")
    |(?P<value>%{_NAME})(?::[0-9]+|\#[0-9]+)?
    |(?P<block>\^{_NAME})
    |(?P<alias>[#!][A-Za-z_][A-Za-z0-9_$.\-]*)
    |(?P<symbol>@{_NAME}|@"(?:[^"\\\n]|\\.)*")
    |(?P<func>(?<![\w.])func\.func(?![\w.]))
    |(?P<punct>[{{}}()=,:])""",
    re.VERBOSE,
)
_SPLIT = re.compile(r"// -----")


class SymbolKind(Enum):
    VALUE = "SSA value"
    BLOCK = "block"
    ALIAS = "alias"


@dataclass(frozen=True)
class Span:
    start: int  # offsets into the text, end exclusive
    end: int


@dataclass(eq=False)
class Symbol:
    kind: SymbolKind
    name: str  # with its sigil: %arg0, ^bb1, #map
    definition: Span
    uses: list[Span] = field(default_factory=list)


@dataclass
class FunctionSymbol:
    name: str  # without the @
    span: Span  # func.func to the closing brace of its body
    name_span: Span


@dataclass(eq=False)
class _Scope:
    parent: Optional[_Scope]
    isolated: bool
    depth: int  # brace depth it was opened at
    brace: bool  # opened by `{` (else a func.func)
    multiline: bool = False  # a `{` that ends its line: a region body
    names: dict[str, Symbol] = field(default_factory=dict)

    def lookup(self, name: str) -> Optional[Symbol]:
        scope: Optional[_Scope] = self
        while scope is not None:
            found = scope.names.get(name)
            if found is not None or scope.isolated:
                return found
            scope = scope.parent
        return None


@dataclass
class Index:
    symbols: list[Symbol] = field(default_factory=list)
    functions: list[FunctionSymbol] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list)
    _spans: list[tuple[Span, Symbol]] = field(default_factory=list)

    def finish(self) -> None:
        spans = [(s.definition, s) for s in self.symbols] + [(u, s) for s in self.symbols for u in s.uses]
        spans.sort(key=lambda p: p[0].start)
        self._spans = spans
        self._starts = [sp.start for sp, _ in spans]

    def at(self, offset: int) -> Optional[Symbol]:
        """The symbol defined or used at offset (also just after the token,
        where an editor's cursor is after typing it)."""
        i = bisect.bisect_right(self._starts, offset) - 1
        if i >= 0 and self._spans[i][0].start <= offset <= self._spans[i][0].end:
            return self._spans[i][1]
        return None

    def function_at(self, offset: int) -> Optional[FunctionSymbol]:
        return next((f for f in self.functions if f.span.start <= offset <= f.span.end), None)


def build_index(text: str) -> Index:
    builder = _Builder(text)
    for m in _TOKEN.finditer(text):
        builder.token(m)
    builder.end_chunk()
    builder.index.finish()
    return builder.index


class _Builder:
    """One pass over the tokens: a scope stack (braces and func.func), the
    candidate result list of the current line, and the argument list being
    read (a func.func signature or a `^bb(...)` label)."""

    def __init__(self, text: str):
        self.text = text
        self.index = Index()
        self.prev_end = 0
        self.last_end = 0
        self.pending: list[Span] = []  # `%a, %b:2` at a line's start, defined if `=` follows
        self.pending_comma = False
        self.pending_alias: Optional[Span] = None
        self.expect: Optional[str] = None  # "symbol" after func.func, "args" before a signature or label's `(`
        self.arg_parens = 0  # > 0 inside an argument list: its values are definitions
        self.open_functions: dict[int, FunctionSymbol] = {}  # id(scope) -> its function
        self.start_chunk()

    def start_chunk(self) -> None:
        self.depth = 0
        self.scope = _Scope(None, True, 0, False)
        self.aliases: dict[str, Symbol] = {}
        self.alias_uses: list[tuple[str, Span]] = []
        self.value_uses: list[tuple[str, Span, _Scope]] = []

    def token(self, m: re.Match) -> None:
        kind = m.lastgroup
        start = m.start()
        first = self._first_on_line(start)
        self.prev_end = m.end()
        if kind == "comment":
            if first and _SPLIT.match(m.group()):
                self.end_chunk()
                self.start_chunk()
            return
        self.last_end = m.end()
        if self.pending_alias is not None and m.group() != "=":
            self.alias_uses.append((self._name(self.pending_alias), self.pending_alias))
            self.pending_alias = None
        if kind == "value":
            self._value(Span(start, m.end("value")), first)
            return
        if kind == "punct":
            self._punct(m.group(), start)
            return
        self._flush()
        expect, self.expect = self.expect, None
        if kind == "block":
            self._block(Span(start, m.end()), first)
        elif kind == "alias":
            if first and self.depth == 0:
                self.pending_alias = Span(start, m.end())
            else:
                self.alias_uses.append((m.group(), Span(start, m.end())))
        elif kind == "func":
            self._function(start)
        elif kind == "symbol" and expect == "symbol":
            self.open_functions[id(self.scope)].name = m.group()[1:].strip('"')
            self.open_functions[id(self.scope)].name_span = Span(start, m.end())
            self.expect = "args"

    def _first_on_line(self, start: int) -> bool:
        gap = self.text[self.prev_end : start]
        nl = gap.rfind("\n")
        return (nl >= 0 or self.prev_end == 0) and not gap[nl + 1 :].strip()

    def _name(self, span: Span) -> str:
        return self.text[span.start : span.end]

    def _define(self, kind: SymbolKind, span: Span, names: dict[str, Symbol]) -> None:
        symbol = Symbol(kind, self._name(span), span)
        self.index.symbols.append(symbol)
        names.setdefault(symbol.name, symbol)

    def _value(self, span: Span, first: bool) -> None:
        self.expect = None
        if self.arg_parens:
            self._define(SymbolKind.VALUE, span, self.scope.names)
        elif first:
            self._flush()
            self.pending = [span]
        elif self.pending and self.pending_comma:
            self.pending.append(span)
            self.pending_comma = False
        else:
            self._flush()
            self.value_uses.append((self._name(span), span, self.scope))

    def _flush(self) -> None:
        """The candidate results were uses after all (no `=` followed)."""
        for span in self.pending:
            self.value_uses.append((self._name(span), span, self.scope))
        self.pending = []
        self.pending_comma = False

    def _punct(self, ch: str, start: int) -> None:
        expect, self.expect = self.expect, None
        if ch == "," and self.pending and not self.pending_comma:
            self.pending_comma = True
            return
        if ch == "=" and self.pending_alias is not None:
            self._define(SymbolKind.ALIAS, self.pending_alias, self.aliases)
            self.pending_alias = None
            return
        if ch == "=" and self.pending:
            for span in self.pending:
                self._define(SymbolKind.VALUE, span, self.scope.names)
            self.pending = []
            return
        self._flush()
        if ch == "(" and (expect == "args" or self.arg_parens):
            self.arg_parens += 1
        elif ch == ")" and self.arg_parens:
            self.arg_parens -= 1
        elif ch == "{":
            self._open_brace(start)
        elif ch == "}":
            self._close_brace(start)

    def _block(self, span: Span, first: bool) -> None:
        if first:
            self._define(SymbolKind.BLOCK, span, self.scope.names)
            self.expect = "args"
        else:
            self.value_uses.append((self._name(span), span, self.scope))

    def _function(self, start: int) -> None:
        if not self.scope.brace and self.scope.depth == self.depth and self.scope.parent is not None:
            self._close_function(self.last_end)  # the previous function had no body
        self.scope = _Scope(self.scope, True, self.depth, False)
        self.open_functions[id(self.scope)] = FunctionSymbol("?", Span(start, start), Span(start, start))
        self.expect = "symbol"

    def _close_function(self, end: int) -> None:
        function = self.open_functions.pop(id(self.scope))
        function.span = Span(function.span.start, end)
        self.index.functions.append(function)
        assert self.scope.parent is not None
        self.scope = self.scope.parent

    def _open_brace(self, start: int) -> None:
        line_end = self.text.find("\n", start)
        multiline = not self.text[start + 1 : None if line_end < 0 else line_end].strip()
        self.depth += 1
        self.scope = _Scope(self.scope, False, self.depth, True, multiline)

    def _close_brace(self, start: int) -> None:
        while not self.scope.brace and self.scope.parent is not None:
            self._close_function(self.last_end)
        if self.scope.parent is None:  # an unbalanced `}`
            return
        closed = self.scope
        self.scope = closed.parent  # type: ignore[assignment]
        self.depth -= 1
        if closed.multiline and not self.scope.brace and self.scope.parent is not None and self.scope.depth == self.depth:
            self._close_function(start + 1)

    def end_chunk(self) -> None:
        self._flush()
        while self.scope.parent is not None:
            if self.scope.brace:
                self.scope = self.scope.parent
            else:
                self._close_function(self.last_end)
        for name, span, scope in self.value_uses:
            symbol = scope.lookup(name)
            if symbol is not None:
                symbol.uses.append(span)
        for name, span in self.alias_uses:
            alias = self.aliases.get(name)
            if alias is not None:
                alias.uses.append(span)
