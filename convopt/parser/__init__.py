"""Parse textual MLIR into convopt's IR.

    parse(SourceFile("in.mlir", text)) -> ParsedFile(module, metadata)

The grammar is `mlir.lark` (LALR, contextual lexer).  Syntax errors become
located diagnostics naming what was expected.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Optional

from ..diagnostics import ConvoptError, Diagnostic, SourceFile, SourcePos
from ..dialects.builtin import MODULE
from ..ir.attributes import FileLineColLoc
from ..ir.core import Block, Operation, Region, new_module
from ..ir.types import Type

_PARSER: Any = None
_BUILDER: Any = None


@dataclass
class ParsedFile:
    module: Operation
    metadata: list[str] = field(default_factory=list)
    type_aliases: dict[str, Type] = field(default_factory=dict)


def _parser() -> tuple[Any, Any]:
    """Build the Lark parser once; its tables are cached on disk by Lark."""
    global _PARSER, _BUILDER
    if _PARSER is None:
        from .syntax import SyntaxBuilder

        _BUILDER = SyntaxBuilder()
        _PARSER = lark_parser(_BUILDER)
    return _PARSER, _BUILDER


def lark_parser(transformer: Any) -> Any:
    """A new Lark LALR parser (contextual lexer) of `mlir.lark` whose rule
    callbacks are the methods of `transformer`, from the on-disk cache when
    there is one (bench/tool.py times Lark alone with this)."""
    import lark

    grammar = os.path.join(os.path.dirname(__file__), "mlir.lark")
    try:
        cache: Any = _cache_path(grammar, lark.__version__)
    except OSError:  # pragma: no cover
        cache = False
    return lark.Lark.open(
        grammar,
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=True,
        transformer=transformer,
        lexer_callbacks={"OP_NAME": transformer.note_op_name} if hasattr(transformer, "note_op_name") else {},
        cache=cache,
    )


def _cache_path(grammar: str, lark_version: str) -> str:
    """Where Lark caches the parser tables: $CONVOPT_CACHE_DIR, else the
    temporary directory.  The name carries Lark's version and a CRC-32 of
    the grammar, so checkouts with different grammars keep their own files;
    before using a cache Lark checks the SHA-256 of the grammar and options
    stored in it, and rebuilds and rewrites a stale one."""
    import tempfile
    import zlib

    with open(grammar, "rb") as f:
        digest = zlib.crc32(f.read())
    cache_dir = os.environ.get("CONVOPT_CACHE_DIR") or tempfile.gettempdir()
    return os.path.join(cache_dir, f"convopt-grammar-{lark_version}-{digest:08x}.cache")


def parse(source: SourceFile, allow_unregistered_dialect: bool = False) -> ParsedFile:
    """Parse one buffer; raises ConvoptError with a located diagnostic.  An
    op name its dialect does not have is an error, and so is an op of a
    dialect convopt does not know unless `allow_unregistered_dialect`
    (`convopt.dialects.unknown_op_message`)."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

    from .resolve import Resolver
    from .syntax import OpSyntax, SyntaxError_

    parser, builder = _parser()
    builder.type_aliases = {}
    builder.attr_aliases = {}
    builder.alias_tokens = {}
    builder.vtensor_types = {}
    builder.last_op_name = None
    if not _has_content(source.text):  # no ops: an empty module, as torch-mlir-opt prints for an empty file
        return ParsedFile(new_module(source.pos(1, 1)))
    try:
        items = parser.parse(source.text)
    except SyntaxError_ as e:
        raise _at_token(source, e.message, e.token) from None
    except VisitError as e:  # pragma: no cover - inline callbacks raise directly
        inner = e.orig_exc
        if isinstance(inner, SyntaxError_):
            raise _at_token(source, inner.message, inner.token) from None
        raise
    except UnexpectedCharacters as e:
        raise _unknown_op(source, builder, allow_unregistered_dialect) or ConvoptError(
            Diagnostic("error", f"unexpected character '{_char_at(source.text, e.pos_in_stream)}'", source.pos(e.line, e.column))
        ) from None
    except UnexpectedToken as e:
        raise _unknown_op(source, builder, allow_unregistered_dialect) or ConvoptError(Diagnostic("error", _unexpected_message(e, parser), _token_pos(source, e.token))) from None
    except UnexpectedInput:  # UnexpectedEOF
        raise _unknown_op(source, builder, allow_unregistered_dialect) or ConvoptError(Diagnostic("error", "unexpected end of input", _end_pos(source))) from None
    except ValueError as e:
        raise _too_long_integer(source, e) from None

    resolver = Resolver(source, builder.attr_aliases, allow_unregistered_dialect)
    ops: list[OpSyntax] = [i for i in items if isinstance(i, OpSyntax)]
    metadata = [i[1] for i in items if isinstance(i, tuple) and i[0] == "metadata"]
    try:
        if len(ops) == 1 and not ops[0].results and (ops[0].form == "module" or (ops[0].form == "generic" and ops[0].name == MODULE)):
            module = resolver.build_op(ops[0])
        else:
            # mlir-opt locates the module it wraps around a file at line 0, column 0
            implied_loc = FileLineColLoc(source.name, 0, 0) if source.line_offset == 0 else None
            module = Operation(MODULE, regions=[Region([Block()])], loc=implied_loc, pos=source.pos(1, 1))
            resolver.push(True)
            for op_syntax in ops:
                module.regions[0].blocks[0].append(resolver.build_op(op_syntax))
            resolver.pop()
    except SyntaxError_ as e:
        raise _at_token(source, e.message, e.token) from None
    except ValueError as e:
        raise _too_long_integer(source, e) from None
    return ParsedFile(module, metadata, dict(builder.type_aliases))


def _unknown_op(source: SourceFile, builder: Any, allow_unregistered_dialect: bool) -> Optional[ConvoptError]:
    """At a syntax error: the error for the latest op name, when it names no
    op (its custom form is unknown, so the text after it cannot parse; MLIR
    stops at the name too), else None."""
    from ..dialects import unknown_op_message

    token = builder.last_op_name
    message = None if token is None else unknown_op_message(str(token), allow_unregistered_dialect)
    return None if message is None else _at_token(source, message, token)


def _too_long_integer(source: SourceFile, error: ValueError) -> Exception:
    """Python refuses to convert integer literals of more digits than
    sys.get_int_max_str_digits() (4300): a located error at the first such
    literal.  Any other ValueError is a bug and stays one."""
    import re
    import sys

    limit = sys.get_int_max_str_digits()
    match = re.search(r"(?<![0-9A-Za-z_])-?[0-9]{%d,}" % (limit + 1), source.text) if "integer string conversion" in str(error) else None
    if match is None:
        return error
    return ConvoptError(Diagnostic("error", f"integer literal too large ({len(match.group().lstrip('-'))} digits; at most {limit} are supported)", source.pos_at_offset(match.start())))


def _has_content(text: str) -> bool:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("//"):
            return True
    return False


def _char_at(text: str, offset: Optional[int]) -> str:
    ch = text[offset] if offset is not None and 0 <= offset < len(text) else "?"
    return ch if ch.isprintable() else repr(ch)[1:-1]


def _token_pos(source: SourceFile, token: Any) -> SourcePos:
    if getattr(token, "type", None) == "$END" or getattr(token, "line", None) is None:
        return _end_pos(source)
    return source.pos(token.line, token.column)


def _end_pos(source: SourceFile) -> SourcePos:
    text = source.text.rstrip()
    return source.pos_at_offset(len(text))


def _at_token(source: SourceFile, message: str, token: Optional[Any]) -> ConvoptError:
    pos = source.pos(token.line, token.column) if token is not None and getattr(token, "line", None) else None
    return ConvoptError(Diagnostic("error", message, pos))


_FRIENDLY = {
    "VALUE_USE": "SSA value",
    "RESULT_DEF": "SSA result list",
    "BLOCK_ID": "block label",
    "SYMBOL": "symbol name",
    "OP_NAME": "operation name",
    "BARE_ID": "identifier",
    "HASH_ID": "attribute alias",
    "HASH_BODY": "dialect attribute",
    "BANG_ID": "dialect type",
    "STRING": "string",
    "HEX": "hexadecimal literal",
    "FLOAT": "float literal",
    "SIGNED_INT": "integer",
    "INT": "integer",
    "SHAPE_DIMS": "shape",
    "BUILTIN_TYPE": "builtin type",
    "FILE_METADATA": "file metadata",
    "QUESTION": "'?'",
    "BOOL": "'true' or 'false'",
    "VISIBILITY": "visibility",
    "UNRANKED": "'*x'",
}


def _friendly(name: str, parser: Any) -> str:
    if name in _FRIENDLY:
        return _FRIENDLY[name]
    try:
        term = parser.get_terminal(name)
        pattern = term.pattern
        if pattern.type == "str":
            return f"'{pattern.value}'"
    except KeyError:
        pass
    return name.lower()


_OP_START = {"OP_NAME", "RESULT_DEF", "K_RETURN", "STRING"}


def _unexpected_message(e: Any, parser: Any) -> str:
    token = e.token
    if token.type == "$END":
        found = "end of input"
    else:
        text = str(token)
        found = f"'{text if len(text) <= 40 else text[:37] + '...'}'"
    names = set(e.expected)
    try:  # the exact set, by simulating the parser (LALR merges lookaheads)
        interactive = getattr(e, "interactive_parser", None)
        if interactive is not None:
            names = set(interactive.accepts()) or names
    except Exception:  # pragma: no cover - best effort only
        pass
    names -= {"$END", "VTENSOR_TYPE"}  # a dialect type, already listed as such
    summary: list[str] = []
    if names & {"OP_NAME", "RESULT_DEF"}:
        names = {n for n in names if n not in _OP_START and not n.startswith("K_") and n not in ("CMPI", "CMPF")}
        names -= {"HASH_ID", "BANG_ID", "FILE_METADATA", "LOC"}
        summary.append("an operation")
    expected = sorted({_friendly(n, parser) for n in names}, key=lambda s: (not s.startswith("'"), s)) + summary
    if not expected:
        return f"unexpected {found}"
    if len(expected) > 8:
        expected = expected[:7] + ["..."]
    listed = expected[0] if len(expected) == 1 else ", ".join(expected[:-1]) + " or " + expected[-1]
    return f"unexpected {found}: expected {listed}"
