"""Builder: creates operations at an insertion point.

Passes create ops through a builder so that new ops land in the right place
and inherit the source position of the op they replace (diagnostics about
generated code still point at the user's line).  A builder creates only the
ops some definition in `convopt.dialects` registers: a misspelt name is an
error where it is built, not IR that verifies and prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Optional

from .. import dialects
from .attributes import Attribute, Location
from .core import Block, IRError, Operation, Region, Value
from .types import Type

if TYPE_CHECKING:  # pragma: no cover
    from ..diagnostics import SourcePos


class Builder:
    def __init__(self, block: Block, index: Optional[int] = None, pos: Optional[SourcePos] = None, loc: Optional[Location] = None):
        self.block = block
        self.index = len(block.ops) if index is None else index
        self.pos = pos
        self.loc = loc

    @staticmethod
    def before(op: Operation) -> Builder:
        assert op.parent is not None
        return Builder(op.parent, op.parent.index_of(op), op.pos, op.loc)

    @staticmethod
    def at_end(block: Block, pos: Optional[SourcePos] = None) -> Builder:
        return Builder(block, None, pos)

    def insert(self, op: Operation) -> Operation:
        if op.pos is None:
            op.pos = self.pos
        if op.loc is None:
            op.loc = self.loc
        self.block.insert(self.index, op)
        self.index += 1
        return op

    def create(
        self,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attributes: Optional[Mapping[str, Attribute]] = None,
        regions: Sequence[Region] = (),
        properties: Optional[dict[str, Attribute]] = None,
    ) -> Operation:
        if not dialects.registered(name):
            raise IRError(f"cannot build '{name}': no op definition registers it (convopt.dialects)")
        return self.insert(Operation(name, operands, result_types, attributes, regions, properties=properties))

    def value(self, name: str, operands: Sequence[Value], result_type: Type, attributes: Optional[Mapping[str, Attribute]] = None, regions: Sequence[Region] = ()) -> Value:
        """Create a single-result op and return its result."""
        return self.create(name, operands, [result_type], attributes, regions).results[0]
