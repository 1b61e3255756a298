"""The grammar in convopt/parser/mlir.lark is LALR(1) without conflicts.

Lark resolves a shift/reduce conflict silently as a shift (it only logs it,
and only with debug=True); a reduce/reduce conflict raises.  Either would
mean some input is parsed in a way nobody chose, so both are errors here.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

import lark
import pytest
from lark import Lark

import convopt.parser

GRAMMAR = Path(convopt.parser.__file__).with_name("mlir.lark")


def build(grammar_text: str) -> str:
    """Build an LALR parser with debug on; return what Lark logged."""
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    old_level = lark.logger.level
    lark.logger.addHandler(handler)
    lark.logger.setLevel(logging.DEBUG)
    try:
        Lark(grammar_text, parser="lalr", lexer="contextual", maybe_placeholders=True, debug=True, cache=False)
    finally:
        lark.logger.removeHandler(handler)
        lark.logger.setLevel(old_level)
    return buf.getvalue()


def test_grammar_has_no_conflicts():
    log = build(GRAMMAR.read_text())
    assert "conflict" not in log.lower(), log


def test_shift_reduce_conflicts_are_detected():
    # The dangling else: proves build() sees what Lark resolves silently.
    dangling_else = """
        start: stmt
        stmt: "if" "c" "then" stmt ["else" stmt] | "s"
        %ignore " "
    """
    assert "Shift/Reduce conflict" in build(dangling_else)


def test_reduce_reduce_conflicts_are_errors():
    with pytest.raises(lark.exceptions.GrammarError, match="Reduce/Reduce"):
        build('start: a | b\na: "x"\nb: "x"\n')


def test_convopt_parser_is_lalr_with_contextual_lexer():
    from convopt.parser import _parser

    parser, _ = _parser()
    assert parser.options.parser == "lalr"
    assert parser.options.lexer == "contextual"
