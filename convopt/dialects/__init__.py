"""The op definitions, one module per dialect, looked up by op name.

    lookup("tensor.empty") -> OpDef (or None for an op convopt does not model)

A dialect module is imported the first time one of its ops is looked up; it
has `OPS` (name -> OpDef) and `default(name)`, the definition of the ops of
the dialect it does not list one by one (every torch op in torch-mlir's
uniform form, any other arith or tensor op, printed generically), or None.

Only the listed ops are `registered`: the Builder refuses to create any
other, and an op of linalg (which has no default) that is not listed is an
error of the verifier, as in MLIR.

A dialect module is the one place that spells its ops' names.  For each op
it gives a name constant (`tensor.EMPTY`), its `OpDef` in `OPS` (structure,
syntax, checks; a structured op's `indexing_maps`; a torch op's
`operand_names`) and, for the ops convopt creates, a builder with named
operands (`tensor.extract_slice(b, src, offsets, sizes, strides, type)`).
Everyone else (lowering, interpreter, passes) uses those; patterns match
`definition(NAME)` and read `args(op).step`.  Adding an op is one entry in
its dialect's module (plus a parse hook and a grammar rule if it has a
custom form of its own, and an interpreter handler if tests run it).
"""

from __future__ import annotations

import importlib
from typing import Optional

from ..diagnostics import Diagnostic, position_of
from ..ir.core import Operation
from .base import OpDef, VerifyError, has_extra_properties

__all__ = ["OpDef", "VerifyError", "has_extra_properties", "lookup", "is_pure", "registered", "check_registered", "definition"]

_MODULES = {
    "builtin": "builtin",
    "scf": "builtin",
    "func": "func",
    "arith": "arith",
    "math": "arith",
    "tensor": "tensor",
    "linalg": "linalg",
    "torch": "torch",
    "torch_c": "torch_c",
}

_CLOSED = ("linalg",)
"""Dialects whose every op convopt defines: another name is refused."""

_CACHE: dict[str, Optional[OpDef]] = {}


def lookup(name: str) -> Optional[OpDef]:
    """The definition of op `name`, or None."""
    try:
        return _CACHE[name]
    except KeyError:
        pass
    module = _MODULES.get(name.partition(".")[0])
    found: Optional[OpDef] = None
    if module is not None:
        dialect = importlib.import_module(f"{__name__}.{module}")
        found = dialect.OPS.get(name) or dialect.default(name)
    _CACHE[name] = found
    return found


def is_pure(name: str) -> bool:
    """True for ops that can be erased once their results are unused."""
    d = lookup(name)
    return d is not None and d.pure


def definition(name: str) -> OpDef:
    """The definition of a registered op (what a pattern matches): a name
    no dialect lists is an error where the pattern is written."""
    d = lookup(name)
    if d is None or not d.registered:
        raise KeyError(f"no op definition registers '{name}'")
    return d


def registered(name: str) -> bool:
    """True for an op its dialect lists (what a Builder may create)."""
    if name in _REGISTERED:
        return True
    d = lookup(name)
    if d is not None and d.registered:
        _REGISTERED.add(name)
        return True
    return False


_REGISTERED: set[str] = set()


def check_registered(op: Operation) -> None:
    """Raise for an op of a closed dialect (linalg) that it does not define."""
    dialect = op.name.partition(".")[0]
    if dialect in _CLOSED and lookup(op.name) is None:
        message = f"unregistered operation '{op.name}' found in dialect ('{dialect}') that does not allow unknown operations"
        raise VerifyError(Diagnostic("error", message, position_of(op)))
