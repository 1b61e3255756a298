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
from typing import NamedTuple, Optional

_NAME = r"[A-Za-z0-9_$.\-]+"
_STRING = r'"(?:[^"\\\n]|\\.)*"'
_TOKENS = rf"""(?P<comment>//[^\n]*)
    |(?P<string>{_STRING})
    |(?P<value>%{_NAME})
    |(?P<block>\^{_NAME})
    |(?P<alias>{{aliases}}[A-Za-z_][A-Za-z0-9_$.\-]*)
    |(?P<symbol>@{_NAME}|@{_STRING})
    |(?P<func>(?<![\w.])func\.func(?![\w.]))
    |(?P<brace>[{{}}])"""
# `#x` tokens always; `!x` ones only in a text that defines a type alias (most
# `!` are dialect types, `!torch.vtensor`, many per line)
# (the lookahead lets the regex engine skip to the next possible first
# character: 12 ms instead of 87 ms over resnet18.mlir)
_TOKEN = re.compile("(?=[/\"%^#@f{}])(?:" + _TOKENS.replace("{aliases}", "[#]") + ")", re.VERBOSE)
_TOKEN_TYPE_ALIASES = re.compile("(?=[/\"%^#!@f{}])(?:" + _TOKENS.replace("{aliases}", "[#!]") + ")", re.VERBOSE)
_TYPE_ALIAS_DEF = re.compile(r"^![A-Za-z_][A-Za-z0-9_$.\-]*\s*=", re.MULTILINE)
_RESULTS = re.compile(rf"%{_NAME}(?::[0-9]+)?(?:\s*,\s*%{_NAME}(?::[0-9]+)?)*\s*=(?!=)")
_RESULT_NAME = re.compile(rf"%{_NAME}")
_ALIAS_DEF = re.compile(r"\s*=")
_PARENS = re.compile(rf'[()]|{_STRING}')
_SPLIT = re.compile(r"// -----")


class SymbolKind(Enum):
    VALUE = "SSA value"
    BLOCK = "block"
    ALIAS = "alias"


class Span(NamedTuple):
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
    tokens = _TOKEN_TYPE_ALIASES if _TYPE_ALIAS_DEF.search(text) else _TOKEN
    for m in tokens.finditer(text):
        builder.token(m)
    builder.end_chunk()
    builder.index.finish()
    return builder.index


class _Builder:
    """One pass over the tokens, with a scope stack (braces and func.func).
    Definitions are found by looking around a token: a result list
    `%a, %b:2 =` starting a line, the values inside the parentheses after a
    func.func's `@name` or a `^bb` label starting a line, `#x =` starting a
    line at the top."""

    def __init__(self, text: str):
        self.text = text
        self.index = Index()
        self.prev_end = 0
        self.at_text_start = True
        self.last_end = 0
        self.defs_until = -1  # values before this offset are definitions (a result list, an argument list)
        self.expect_symbol = False  # a func.func was just read
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
        start, end = m.span()
        gap = self.text[self.prev_end : start]
        self.at_text_start = self.prev_end == 0
        self.prev_end = end
        if kind == "comment":
            if _SPLIT.match(m.group()) and self._first(gap):
                self.end_chunk()
                self.start_chunk()
            return
        if kind == "string":
            return
        self.last_end = end
        if kind == "value":
            self._value(Span(start, end), gap)
        elif kind == "brace":
            self._open_brace(start) if m.group() == "{" else self._close_brace(start)
        elif kind == "block":
            self._block(Span(start, end), gap)
        elif kind == "alias":
            self._alias(Span(start, end), gap)
        elif kind == "func":
            self._function(start)
        elif kind == "symbol" and self.expect_symbol:
            function = self.open_functions[id(self.scope)]
            function.name, function.name_span = m.group()[1:].strip('"'), Span(start, end)
            self._argument_list(end)
        self.expect_symbol = kind == "func"

    def _first(self, gap: str) -> bool:
        """Whether the token after gap starts its line."""
        nl = gap.rfind("\n")
        return (nl >= 0 or self.at_text_start) and not gap[nl + 1 :].strip()

    def _name(self, span: Span) -> str:
        return self.text[span.start : span.end]

    def _define(self, kind: SymbolKind, span: Span, names: dict[str, Symbol]) -> None:
        symbol = Symbol(kind, self._name(span), span)
        self.index.symbols.append(symbol)
        names.setdefault(symbol.name, symbol)

    def _value(self, span: Span, gap: str) -> None:
        if span.start < self.defs_until:
            self._define(SymbolKind.VALUE, span, self.scope.names)
            return
        if self._first(gap):
            results = _RESULTS.match(self.text, span.start)
            if results is not None:
                self.defs_until = results.end()
                self._define(SymbolKind.VALUE, span, self.scope.names)
                return
        self.value_uses.append((self._name(span), span, self.scope))

    def _argument_list(self, after: int) -> None:
        """The values between the `(` right after `after` and its `)` are definitions."""
        text = self.text
        i = after
        while i < len(text) and text[i] in " \t":
            i += 1
        if i >= len(text) or text[i] != "(":
            return
        depth = 0
        for m in _PARENS.finditer(text, i):
            if m.group() == "(":
                depth += 1
            elif m.group() == ")":
                depth -= 1
                if depth == 0:
                    self.defs_until = m.end()
                    return
        self.defs_until = len(text)

    def _block(self, span: Span, gap: str) -> None:
        if self._first(gap):
            self._define(SymbolKind.BLOCK, span, self.scope.names)
            self._argument_list(span.end)
        else:
            self.value_uses.append((self._name(span), span, self.scope))

    def _alias(self, span: Span, gap: str) -> None:
        if self.depth == 0 and self._first(gap) and _ALIAS_DEF.match(self.text, span.end):
            self._define(SymbolKind.ALIAS, span, self.aliases)
        else:
            self.alias_uses.append((self._name(span), span))

    def _function(self, start: int) -> None:
        if not self.scope.brace and self.scope.depth == self.depth and self.scope.parent is not None:
            self._close_function(self.last_end)  # the previous function had no body
        self.scope = _Scope(self.scope, True, self.depth, False)
        self.open_functions[id(self.scope)] = FunctionSymbol("?", Span(start, start), Span(start, start))

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
