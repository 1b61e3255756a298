"""convopt-cleanup: erase dead side-effect-free ops and share constants.

Lowerings create what they need and leave the rest to this pass: torch
constants and lists that only fed a replaced op, and duplicate
`arith.constant`s, disappear.  It touches nothing with side effects.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.core import Block, Operation
from ..ops import is_pure
from . import Pass, PassContext


def erase_dead(block: Block) -> None:
    """Erase unused pure ops, users before their operands (one reverse sweep
    per block; nested regions first)."""
    for op in reversed(list(block.ops)):
        for region in op.regions:
            for nested in region.blocks:
                erase_dead(nested)
        if is_pure(op.name) and not any(r.uses for r in op.results):
            op.erase()


def share_constants(block: Block) -> None:
    """Replace each `arith.constant` equal to an earlier one in the block."""
    seen: dict[tuple, Operation] = {}
    for op in list(block.ops):
        if op.name != "arith.constant" or op.regions:
            continue
        key = (op.attributes.get("value"), op.results[0].type)
        first = seen.get(key)
        if first is None:
            seen[key] = op
        else:
            op.replace_with([first.results[0]])


@dataclass(frozen=True)
class Cleanup(Pass):
    NAME = "convopt-cleanup"
    SUMMARY = "Erase dead side-effect-free ops and share equal arith.constant ops"
    ANCHOR = "func.func"

    def run(self, op: Operation, ctx: PassContext) -> None:
        for region in op.regions:
            for block in region.blocks:
                share_constants(block)
                erase_dead(block)
