"""The op definitions, one module per dialect, looked up by op name.

    lookup("tensor.empty") -> OpDef (or None for an op convopt does not model)

A dialect module is imported the first time one of its ops is looked up; it
has `OPS` (name -> OpDef) and `default(name)`, the definition of the ops of
the dialect it does not list one by one (every linalg structured op, every
torch op in torch-mlir's uniform form), or None.
"""

from __future__ import annotations

import importlib
from typing import Optional

from .base import OpDef, VerifyError, has_extra_properties

__all__ = ["OpDef", "VerifyError", "has_extra_properties", "lookup", "is_pure"]

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
