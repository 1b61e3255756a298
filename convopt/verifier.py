"""IR verification: run after parsing and after every pass.

Generic checks on every op: each operand is defined before its use and
visible there (dominance; ops whose definition says `isolated`, func.func and
builtin.module, are isolated from above).  Per-op checks (arity, types that
must agree, `linalg.generic`'s maps and block, static extents that must fit)
are the definitions' `verify` hooks (`convopt.dialects`).  Failures raise a
located error.

`verify(op)` checks everything under op.  `verify_changed(op)` checks only
the ops changed since they were last verified (each op's `checked` flag,
cleared by the IR API on every change that can invalidate a check; see
`convopt.ir.core`), and with them the terminators of their regions (whose
checks read the parent: func.return, linalg.yield): what a pass pipeline
runs after each pass, with a full `verify` at the end.  Setting
`VERIFY_EACH_FULLY` (or `verify_changed(op, full=True)`) makes it verify
everything.
"""

from __future__ import annotations

from .diagnostics import Diagnostic, position_of
from .dialects import VerifyError, check_registered, lookup
from .ir.core import Operation, Value

__all__ = ["VERIFY_EACH_FULLY", "VerifyError", "verify", "verify_changed"]

VERIFY_EACH_FULLY = False
"""When True, `verify_changed` verifies everything (as `verify` does)."""


def verify(module: Operation) -> None:
    """Raise a located error for the first problem found."""
    _Verifier(True).op(module, set())


def verify_changed(op: Operation, full: bool = False) -> None:
    """Like `verify`, but only the ops changed since they were last verified
    (all of them with `full` or VERIFY_EACH_FULLY)."""
    _Verifier(full or VERIFY_EACH_FULLY).op(op, set())


class _Verifier:
    __slots__ = ("full",)

    def __init__(self, full: bool):
        self.full = full

    def op(self, op: Operation, visible: set[int], check: bool = True) -> None:
        """Check op (when `check`), then its regions; `visible` holds the ids
        of the values defined before op in the enclosing regions (not copied:
        regions add their values and take them out again)."""
        d = lookup(op.name)
        if check:
            if d is not None:
                d.verify_op(op)
            else:
                check_registered(op)
            op.checked = True
        if not op.regions:
            return
        full = self.full
        scope = set() if d is not None and d.isolated else visible
        for region in op.regions:
            for block in region.blocks:
                added = [id(a) for a in block.args]
                scope.update(added)
                last = block.ops[-1] if block.ops else None
                last_dirty = last is not None and not last.checked
                for inner in block.ops:
                    # a terminator's checks read its parent: redo them when the parent changed
                    dirty = full or not inner.checked or (check and inner is last)
                    if dirty:
                        for i, v in enumerate(inner._operands):
                            if id(v) not in scope:
                                raise _dominance_error(inner, i, v)
                    if inner.regions:
                        self.op(inner, scope, dirty)
                    elif dirty:  # self.op without the call
                        inner_def = lookup(inner.name)
                        if inner_def is not None:
                            inner_def.verify_op(inner)
                        else:
                            check_registered(inner)
                        inner.checked = True
                    for r in inner.results:
                        rid = id(r)
                        scope.add(rid)
                        added.append(rid)
                scope.difference_update(added)
                if last_dirty and not check and d is not None:
                    d.verify_op(op)  # a changed terminator: the parent's checks read it too


def _dominance_error(op: Operation, index: int, value: Value) -> VerifyError:
    diag = Diagnostic("error", f"operand #{index} does not dominate this use", position_of(op))
    where = position_of(value)
    if where is not None:
        diag.notes.append(Diagnostic("note", "operand defined here", where))
    return VerifyError(diag)
