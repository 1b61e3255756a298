"""Rewrite patterns and one greedy applier (MLIR's RewritePattern and
greedy driver, xDSL's PatternRewriteWalker, in miniature).

A pattern names the definition of the op it applies to (`root`, an OpDef of
`convopt.dialects`) and rewrites one such op in `match_and_rewrite(op,
rewriter)`, returning whether it changed anything.
Every change goes through the `Rewriter`: replacing or erasing ops, and
telling it about the ops a rewrite created, so that the applier knows what
became dead and what is new:

    class LowerSlice(RewritePattern):
        root = definition(torch.SLICE_TENSOR)

        def match_and_rewrite(self, op, rewriter):
            step = self.root.args(op).step  # the operand by name
            rewriter.replace_op(op, [lowered_value])
            return True

    created = apply_patterns(func.walk(), [LowerSlice(), ...])

The applier visits a snapshot of the ops in order, skips those erased
meanwhile, tries the patterns registered for the op's name (first success
wins), and returns the ops the rewrites reported as created (in order).
With erase_dead it then erases the pure ops the rewrites left without uses
(the operands' definitions of erased ops, transitively); the rest of the
IR is left alone (convopt-cleanup removes dead code in general).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Optional

from .dialects import OpDef, is_pure
from .ir.core import Operation, Value


class Rewriter:
    """The IR changes of one application of a pattern set."""

    def __init__(self) -> None:
        self.created: list[Operation] = []
        self._maybe_dead: list[Operation] = []

    def notify_created(self, ops: Iterable[Operation]) -> None:
        """Record ops a rewrite inserted (returned by apply_patterns)."""
        self.created.extend(ops)

    def erase_op(self, op: Operation) -> None:
        """Erase op (its results must be unused); its operands' definitions
        may become dead."""
        self._maybe_dead.extend(v.owner for v in op.operands if v.owner is not None)
        op.erase()

    def replace_op(self, op: Operation, values: Sequence[Optional[Value]]) -> None:
        """Replace each result of op by the value at its index (None: the
        result must be unused), then erase op."""
        for result, value in zip(op.results, values, strict=True):
            if value is not None:
                result.replace_all_uses_with(value)
        self.erase_op(op)

    def erase_dead(self) -> None:
        """Erase the pure ops that rewrites left without uses, users before
        their operands."""
        while self._maybe_dead:
            op = self._maybe_dead.pop()
            if op.parent is not None and is_pure(op.name) and not op.regions and not any(r.uses for r in op.results):
                self.erase_op(op)


class RewritePattern:
    """Rewrites one op of the definition `root`."""

    root: OpDef

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError


def apply_patterns(ops: Iterable[Operation], patterns: Sequence[RewritePattern], erase_dead: bool = True) -> list[Operation]:
    """Apply `patterns` to each of `ops` (a snapshot, in order) by root op
    name; returns the ops the rewrites created.  erase_dead: erase the pure
    ops the rewrites left unused."""
    by_root: dict[str, list[RewritePattern]] = {}
    for pattern in patterns:
        by_root.setdefault(pattern.root.name, []).append(pattern)
    rewriter = Rewriter()
    for op in list(ops):
        if op.parent is None:  # erased by an earlier rewrite
            continue
        for pattern in by_root.get(op.name, ()):
            if pattern.match_and_rewrite(op, rewriter):
                break
    if erase_dead:
        rewriter.erase_dead()
    return [op for op in rewriter.created if op.parent is not None]


def apply_patterns_to(root: Operation, patterns: Sequence[RewritePattern], erase_dead: bool = True) -> list[Operation]:
    """Apply `patterns` to every op nested in root (pre-order)."""
    return apply_patterns(root.walk(), patterns, erase_dead)
