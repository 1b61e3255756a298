"""IR verification: run after parsing and after every pass.

Generic checks on every op: each operand is defined before its use and
visible there (dominance; ops whose definition says `isolated`, func.func and
builtin.module, are isolated from above).  Per-op checks (arity, types that
must agree, `linalg.generic`'s maps and block, static extents that must fit)
are the definitions' `verify` hooks (`convopt.dialects`).  Failures raise a
located error.
"""

from __future__ import annotations

from .diagnostics import Diagnostic, position_of
from .dialects import VerifyError, lookup
from .ir.core import Operation, Value

__all__ = ["VerifyError", "verify"]


def verify(module: Operation) -> None:
    """Raise a located error for the first problem found."""
    _verify_op(module, set())


def _verify_op(op: Operation, visible: set[int]) -> None:
    """Check op, then its regions; `visible` holds the ids of the values
    defined before op in the enclosing regions (not copied: regions add their
    values and take them out again)."""
    d = lookup(op.name)
    if d is not None:
        d.verify_op(op)
    if not op.regions:
        return
    scope = set() if d is not None and d.isolated else visible
    for region in op.regions:
        for block in region.blocks:
            added = [id(a) for a in block.args]
            scope.update(added)
            for inner in block.ops:
                for i, v in enumerate(inner.operands):
                    if id(v) not in scope:
                        raise _dominance_error(inner, i, v)
                _verify_op(inner, scope)
                for r in inner.results:
                    scope.add(id(r))
                    added.append(id(r))
            scope.difference_update(added)


def _dominance_error(op: Operation, index: int, value: Value) -> VerifyError:
    diag = Diagnostic("error", f"operand #{index} does not dominate this use", position_of(op))
    where = position_of(value)
    if where is not None:
        diag.notes.append(Diagnostic("note", "operand defined here", where))
    return VerifyError(diag)
