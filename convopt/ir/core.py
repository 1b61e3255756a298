"""The IR: values that know their uses, operations, blocks and regions.

Operations own their operands, results, attributes and regions; a value keeps
the list of (operation, operand index) pairs that use it, so replacing a value
everywhere is one call.  Erasing an operation whose results are still used is
refused.  This is the whole data model: every dialect's op is an `Operation`
with a name; what is special about an op lives in its definition
(`convopt.dialects`), looked up by that name.

Each op has a `checked` flag for incremental verification
(`convopt.verifier.verify_changed`): the verifier sets it, and every change
made through this API that can invalidate a check clears it on the ops
concerned (a new op, a new operand, an op inserted into or removed from a
block together with the block's parent op and the users of its results, a
block argument added or erased).  Code that assigns a value's `type` or an
op's attributes directly calls `changed(op)` on the ops that see it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Optional

from .attributes import Attribute, Location
from .types import Type

if TYPE_CHECKING:  # pragma: no cover
    from ..diagnostics import SourcePos


class IRError(Exception):
    """Misuse of the IR API (a bug in a pass, not bad input)."""


class Value:
    __slots__ = ("type", "uses", "name_hint")

    def __init__(self, type: Type):
        self.type = type
        self.uses: list[tuple[Operation, int]] = []
        self.name_hint: Optional[str] = None

    @property
    def owner(self) -> Optional[Operation]:
        """The defining operation (None for a block argument)."""
        return None

    def has_uses(self) -> bool:
        return bool(self.uses)

    def users(self) -> list[Operation]:
        seen: list[Operation] = []
        for op, _ in self.uses:
            if not any(op is s for s in seen):
                seen.append(op)
        return seen

    def replace_all_uses_with(self, new: Value) -> None:
        if new is self:
            return
        for op, index in list(self.uses):
            op.set_operand(index, new)


class OpResult(Value):
    __slots__ = ("op", "index")

    def __init__(self, type: Type, op: Operation, index: int):
        super().__init__(type)
        self.op = op
        self.index = index

    @property
    def owner(self) -> Optional[Operation]:
        return self.op


class BlockArgument(Value):
    __slots__ = ("block", "index", "loc", "pos")

    def __init__(self, type: Type, block: Block, index: int, loc: Optional[Location] = None):
        super().__init__(type)
        self.block = block
        self.index = index
        self.loc = loc
        self.pos: Optional[SourcePos] = None


class Operation:
    __slots__ = ("name", "_operands", "results", "attributes", "properties", "regions", "loc", "pos", "parent", "checked")

    def __init__(
        self,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attributes: Optional[Mapping[str, Attribute]] = None,
        regions: Sequence[Region] = (),
        loc: Optional[Location] = None,
        pos: Optional[SourcePos] = None,
        properties: Optional[dict[str, Attribute]] = None,
    ):
        self.name = name
        self._operands: list[Value] = []
        for value in operands:
            self._add_operand(value)
        self.results = [OpResult(t, self, i) for i, t in enumerate(result_types)]
        self.attributes: dict[str, Attribute] = dict(attributes or {})
        self.properties: Optional[dict[str, Attribute]] = properties
        self.regions: list[Region] = []
        for region in regions:
            self.add_region(region)
        self.loc = loc
        self.pos = pos
        self.parent: Optional[Block] = None
        self.checked = False  # verified since its last change (see the module docstring)

    # -- operands -------------------------------------------------------------
    @property
    def operands(self) -> tuple[Value, ...]:
        return tuple(self._operands)

    def operand(self, i: int) -> Value:
        return self._operands[i]

    def _add_operand(self, value: Value) -> None:
        if not isinstance(value, Value):
            raise IRError(f"operand of '{self.name}' is not a value: {value!r}")
        value.uses.append((self, len(self._operands)))
        self._operands.append(value)

    def set_operand(self, index: int, value: Value) -> None:
        old = self._operands[index]
        _remove_use(old, self, index)
        self._operands[index] = value
        value.uses.append((self, index))
        self.checked = False

    def drop_operands(self) -> None:
        # last operand first: `_remove_use` scans a use list from its end, where
        # this op's latest uses are (first to last was O(n^2) for n uses of one value)
        for i in range(len(self._operands) - 1, -1, -1):
            _remove_use(self._operands[i], self, i)
        self._operands = []

    # -- results ---------------------------------------------------------------
    @property
    def result(self) -> OpResult:
        if len(self.results) != 1:
            raise IRError(f"'{self.name}' has {len(self.results)} results, not one")
        return self.results[0]

    # -- structure -----------------------------------------------------------------
    def add_region(self, region: Region) -> Region:
        region.parent = self
        self.checked = False
        self.regions.append(region)
        return region

    def drop_regions(self) -> None:
        """Remove this op's regions (the ops in them release their operands)."""
        for region in self.regions:
            for block in region.blocks:
                for op in block.ops:
                    op._drop_all_references()
        self.regions = []
        self.checked = False

    @property
    def parent_op(self) -> Optional[Operation]:
        if self.parent is None or self.parent.parent is None:
            return None
        return self.parent.parent.parent

    def ancestor(self, name: str) -> Optional[Operation]:
        op = self.parent_op
        while op is not None and op.name != name:
            op = op.parent_op
        return op

    def walk(self) -> Iterator[Operation]:
        """Pre-order walk over this op and every op nested in it."""
        yield self
        for region in self.regions:
            for block in region.blocks:
                for op in list(block.ops):
                    yield from op.walk()

    def erase(self) -> None:
        """Remove this op from its block; its results must be unused."""
        for result in self.results:
            if result.uses:
                raise IRError(f"cannot erase '{self.name}': result #{result.index} still has uses")
        self._drop_all_references()
        if self.parent is not None:
            self.parent.remove(self)

    def _drop_all_references(self) -> None:
        self.drop_operands()
        for region in self.regions:
            for block in region.blocks:
                for op in block.ops:
                    op._drop_all_references()

    def replace_with(self, values: Sequence[Value]) -> None:
        """Replace every use of this op's results with `values`, then erase it."""
        if len(values) != len(self.results):
            raise IRError(f"replacing '{self.name}': {len(values)} values for {len(self.results)} results")
        for old, new in zip(self.results, values):
            old.replace_all_uses_with(new)
        self.erase()

    def __repr__(self) -> str:
        return f"<Operation {self.name}>"


def _remove_use(value: Value, op: Operation, index: int) -> None:
    uses = value.uses
    for i in range(len(uses) - 1, -1, -1):
        user, idx = uses[i]
        if user is op and idx == index:
            del uses[i]
            return
    raise IRError("use list out of sync")


class Block:
    __slots__ = ("args", "ops", "parent", "label")

    def __init__(self, arg_types: Sequence[Type] = ()):
        self.args: list[BlockArgument] = []
        self.ops: list[Operation] = []
        self.parent: Optional[Region] = None
        self.label: Optional[str] = None
        for t in arg_types:
            self.add_arg(t)

    def add_arg(self, type: Type, loc: Optional[Location] = None) -> BlockArgument:
        arg = BlockArgument(type, self, len(self.args), loc)
        self.args.append(arg)
        changed(self.parent_op)
        return arg

    def erase_arg(self, index: int) -> None:
        if self.args[index].uses:
            raise IRError("cannot erase a block argument that is still used")
        del self.args[index]
        for i, arg in enumerate(self.args):
            arg.index = i
        changed(self.parent_op)

    def append(self, op: Operation) -> Operation:
        return self.insert(len(self.ops), op)

    def insert(self, index: int, op: Operation) -> Operation:
        if op.parent is not None:
            raise IRError(f"'{op.name}' is already in a block")
        op.parent = self
        self.ops.insert(index, op)
        if op.checked:  # moved: what its regions use may no longer dominate them
            for nested in op.walk():
                nested.checked = False
        changed(self.parent_op)
        return op

    def index_of(self, op: Operation) -> int:
        try:  # by identity: Operation has no __eq__ (list.index's C loop)
            return self.ops.index(op)
        except ValueError:
            raise IRError(f"'{op.name}' is not in this block") from None

    def remove(self, op: Operation) -> None:
        del self.ops[self.index_of(op)]
        op.parent = None
        changed(self.parent_op)
        for result in op.results:  # defined nowhere now (or later, if op is moved)
            for user, _ in result.uses:
                user.checked = False

    @property
    def parent_op(self) -> Optional[Operation]:
        return self.parent.parent if self.parent is not None else None


class Region:
    __slots__ = ("blocks", "parent")

    def __init__(self, blocks: Sequence[Block] = ()):
        self.blocks: list[Block] = []
        self.parent: Optional[Operation] = None
        for block in blocks:
            self.add_block(block)

    def add_block(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        changed(self.parent)
        return block

    @property
    def entry(self) -> Block:
        return self.blocks[0]


def changed(op: Optional[Operation]) -> None:
    """Mark op for re-verification by `verify_changed` (after a change the
    IR API does not see: a value's type or an attribute assigned directly)."""
    if op is not None:
        op.checked = False


def new_module(pos: Optional[SourcePos] = None) -> Operation:
    """An empty `builtin.module` with one block."""
    return Operation("builtin.module", regions=[Region([Block()])], pos=pos)
