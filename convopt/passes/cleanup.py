"""convopt-cleanup: erase dead side-effect-free ops and share equal ones.

Lowerings create what they need and leave the rest to this pass: torch
constants and lists that only fed a replaced op disappear, and a
side-effect-free op equal to an earlier one in the same block (same name,
operands, attributes and result types: a second `tensor.collapse_shape` of
the same tensor, a repeated `arith.constant`) is replaced by it.  It touches
nothing with side effects.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dialects import is_pure
from ..dialects.func import FUNC
from ..ir.core import Block, Operation
from . import Pass, PassContext


def erase_dead(block: Block) -> None:
    """Erase unused pure ops, users before their operands (one reverse sweep
    per block; nested regions first)."""
    for op in reversed(block.ops[:]):
        for region in op.regions:
            for nested in region.blocks:
                erase_dead(nested)
        if not _used(op) and is_pure(op.name):
            op.erase()


def _used(op: Operation) -> bool:
    for r in op.results:
        if r.uses:
            return True
    return False


def share_equal_ops(block: Block) -> None:
    """Replace each pure op equal to an earlier one in the block by it."""
    seen: dict[tuple, Operation] = {}
    for op in list(block.ops):
        if op.regions or not op.results or not is_pure(op.name) or op.name.startswith("torch"):
            continue  # torch ops are the user's: left as written
        props = op.properties
        key = (
            op.name,
            tuple(map(id, op._operands)),
            tuple(op.attributes.items()),
            tuple(sorted(props.items())) if props else (),
            tuple([r.type for r in op.results]),
        )
        try:
            first = seen.get(key)
        except TypeError:  # an unhashable attribute: leave the op alone
            continue
        if first is None:
            seen[key] = op
        else:
            op.replace_with(list(first.results))


@dataclass(frozen=True)
class Cleanup(Pass):
    NAME = "convopt-cleanup"
    SUMMARY = "Erase dead side-effect-free ops and replace repeated ones by the first"
    ANCHOR = FUNC

    def run(self, op: Operation, ctx: PassContext) -> None:
        for region in op.regions:
            for block in region.blocks:
                share_equal_ops(block)
                erase_dead(block)
