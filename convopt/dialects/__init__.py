"""The op definitions, one module per dialect, looked up by op name.

    lookup("tensor.empty") -> OpDef (or None for an op convopt does not model)

A dialect module is imported the first time one of its ops is looked up; it
has `OPS` (name -> OpDef) and `default(name)`, the definition of the ops of
the dialect it does not list one by one (every torch op in torch-mlir's
uniform form, any other arith or tensor op, printed generically), or None.

Only the listed ops are `registered`: the Builder refuses to create any
other, and an op of linalg (which has no default) that is not listed is an
error of the verifier, as in MLIR.

Which op names exist at all is torch-mlir's word: `op_names.py` (generated
by `generate_op_names.py` from the installed torch-mlir) lists every op of
the dialects convopt reads, and the parser refuses a name its dialect does
not have, with the nearest one (`unknown_op_message`), as torch-mlir-opt
does; an op of a dialect not in the table is refused unless
--allow-unregistered-dialect.

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

__all__ = ["OpDef", "VerifyError", "has_extra_properties", "lookup", "is_pure", "registered", "check_registered", "definition", "nearest", "unknown_op_message"]

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
    "cf": "cf",
    "affine": "affine",
    "tm_tensor": "tm_tensor",
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
        message = unknown_op_message(op.name) or f"unsupported: convopt does not model the '{op.name}' op"
        raise VerifyError(Diagnostic("error", message, position_of(op)))


# --- the op names torch-mlir registers (op_names.py, generated) ----------------------------------

_KNOWN: dict[str, frozenset[str]] = {}


def _known() -> dict[str, frozenset[str]]:
    """dialect -> its full op names, from the generated table."""
    if not _KNOWN:
        from .op_names import NAMES

        _KNOWN.update({d: frozenset(f"{d}.{n}" for n in ops) for d, ops in NAMES.items()})
    return _KNOWN


def unknown_op_message(name: str, allow_unregistered_dialect: bool = False) -> Optional[str]:
    """None for an op name torch-mlir registers (or, when allowed, one of a
    dialect convopt does not read); else the error, with a "did you mean"
    where a known name is close: as torch-mlir-opt, convopt refuses an op
    its dialect does not have, and ops of unknown dialects unless
    --allow-unregistered-dialect."""
    known = _known()
    dialect = name.partition(".")[0]
    names = known.get(dialect)
    if names is not None:
        if name in names:
            return None
        message = f"unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
        return message + _did_you_mean(name, names)
    if allow_unregistered_dialect:
        return None
    import difflib

    near = difflib.get_close_matches(dialect, sorted(known), n=1)
    suggestion = ""
    if near:  # the op under the nearest dialect's name, if it has one close to it, else the dialect
        fixed = near[0] + name[len(dialect) :]
        suggestion = _did_you_mean(fixed, known[near[0]]) or f"; did you mean the dialect '{near[0]}'?"
    return f"dialect '{dialect}' not found for op '{name}'{suggestion} (--allow-unregistered-dialect lets ops of unknown dialects through)"


def _did_you_mean(name: str, names: frozenset[str]) -> str:
    near = nearest(name, names)
    return f"; did you mean '{near}'?" if near else ""


def nearest(name: str, names: Optional[frozenset[str]] = None) -> Optional[str]:
    """The known op name closest to name (among `names`, default: those of
    name's dialect), or None when none is close."""
    import difflib

    candidates = names if names is not None else _known().get(name.partition(".")[0], frozenset())
    near = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.7)
    return near[0] if near else None
