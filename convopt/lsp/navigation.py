"""Go to definition, find references and document symbols, from the
lexical index (`index.py`) of the document's current text."""

from __future__ import annotations

from typing import Optional

from lsprotocol import types

from .index import Symbol
from .server import ConvoptServer, Snapshot


def _symbol_at(ls: ConvoptServer, uri: str, position: types.Position) -> tuple[Snapshot, Optional[Symbol]]:
    snap = ls.snapshot(uri)
    return snap, snap.index.at(snap.lines.offset(position))


def definition(ls: ConvoptServer, params: types.DefinitionParams) -> Optional[types.Location]:
    snap, symbol = _symbol_at(ls, params.text_document.uri, params.position)
    if symbol is None:
        return None
    return types.Location(snap.uri, snap.lines.range(symbol.definition.start, symbol.definition.end))


def references(ls: ConvoptServer, params: types.ReferenceParams) -> Optional[list[types.Location]]:
    snap, symbol = _symbol_at(ls, params.text_document.uri, params.position)
    if symbol is None:
        return None
    spans = ([symbol.definition] if params.context.include_declaration else []) + symbol.uses
    return [types.Location(snap.uri, snap.lines.range(s.start, s.end)) for s in spans]


def document_symbols(ls: ConvoptServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    """One symbol per func.func, spanning the function."""
    snap = ls.snapshot(params.text_document.uri)
    return [
        types.DocumentSymbol(
            name=f"@{f.name}",
            kind=types.SymbolKind.Function,
            range=snap.lines.range(f.span.start, f.span.end),
            selection_range=snap.lines.range(f.name_span.start, f.name_span.end),
            detail="func.func",
        )
        for f in snap.index.functions
    ]


def register(server: ConvoptServer) -> None:
    server.feature(types.TEXT_DOCUMENT_DEFINITION)(definition)
    server.feature(types.TEXT_DOCUMENT_REFERENCES)(references)
    server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbols)
