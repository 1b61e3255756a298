"""SSA value names, assigned at print time the way mlir-opt assigns them.

Each region is numbered after its parent region, starting from the parent's
counters (`%0`, `%arg0`, conflict suffix `_N`), so sibling regions reuse the
same numbers; op-specific name hints (`%cst`, `%c0`, `%int1`, `%padded`,
`%in`, `%out`) are made unique within the enclosing scopes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Optional

from ..ir.attributes import FloatAttr, IntegerAttr, StringAttr
from ..ir.core import Block, Operation, Region, Value
from ..ir.types import IndexType, IntegerType

STRUCTURED_ARG_NAMES = ("in", "out")


def sanitize(name: str) -> str:
    out = []
    for ch in name:
        if ch.isascii() and (ch.isalnum() or ch in "$._-"):
            out.append(ch)
        elif ch == " ":
            out.append("_")
        else:
            out.extend("%X" % b for b in ch.encode("utf-8"))
    text = "".join(out)
    return "_" + text if text[:1].isdigit() else text


def _float_name(value: float) -> str:
    import math

    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    mant, exp = ("%.5e" % value).split("e")
    return f"{mant}0e{exp.replace('+', '')}"


def _constant_name(op: Operation) -> str:
    value = op.attributes.get("value")
    if isinstance(value, IntegerAttr):
        t = value.type
        if isinstance(t, IndexType):
            return f"c{value.value}"
        if isinstance(t, IntegerType) and t.width == 1 and not t.signedness:
            return "true" if value.value else "false"
        return f"c{value.value}_{t}"
    return "cst"


def _torch_constant_name(op: Operation) -> str:
    kind = op.name.rsplit(".", 1)[1]
    value = op.attributes.get("value")
    if kind == "int" and isinstance(value, IntegerAttr):
        return f"int{value.value}"
    if kind == "float" and isinstance(value, FloatAttr):
        return "float" + _float_name(value.value)
    if kind == "bool" and isinstance(value, IntegerAttr):
        return "true" if value.value else "false"
    if kind == "device" and isinstance(value, StringAttr):
        return value.value
    return kind


RESULT_NAMES: dict[str, Callable[[Operation], str]] = {
    "arith.constant": _constant_name,
    "torch.constant.int": _torch_constant_name,
    "torch.constant.float": _torch_constant_name,
    "torch.constant.bool": _torch_constant_name,
    "torch.constant.none": _torch_constant_name,
    "torch.constant.str": _torch_constant_name,
    "torch.constant.device": _torch_constant_name,
    "tensor.extract_slice": lambda op: "extracted_slice",
    "tensor.insert_slice": lambda op: "inserted_slice",
    "tensor.pad": lambda op: "padded",
    "tensor.expand_shape": lambda op: "expanded",
    "tensor.collapse_shape": lambda op: "collapsed",
    "tensor.extract": lambda op: "extracted",
    "tensor.dim": lambda op: "dim",
    "tensor.cast": lambda op: "cast",
    "tensor.splat": lambda op: "splat",
    "tensor.concat": lambda op: "concat",
    "tensor.from_elements": lambda op: "from_elements",
    "tensor.insert": lambda op: "inserted",
    "tensor.reshape": lambda op: "reshape",
    "linalg.transpose": lambda op: "transposed",
    "linalg.broadcast": lambda op: "broadcasted",
}

_CONFLICT_SUFFIX = re.compile(r"_\d+$")


def is_structured(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.properties is not None and "operandSegmentSizes" in op.properties


class _Scope:
    __slots__ = ("names", "parent")

    def __init__(self, parent: Optional[_Scope]):
        self.names: set[str] = set()
        self.parent = parent

    def __contains__(self, name: str) -> bool:
        s: Optional[_Scope] = self
        while s is not None:
            if name in s.names:
                return True
            s = s.parent
        return False


class NameState:
    def __init__(self, root: Operation):
        self.ids: dict[int, int] = {}  # id(value) -> number
        self.names: dict[int, str] = {}  # id(value) -> name
        self.groups: dict[int, list[int]] = {}  # id(op) -> starting result indices
        self.block_names: dict[int, str] = {}
        self.next_value = 0
        self.next_arg = 0
        self.next_conflict = 0
        self.scope = _Scope(None)
        work: list[tuple[Region, int, int, int, _Scope]] = [(r, 0, 0, 0, self.scope) for r in root.regions]
        self._number_op(root)
        while work:
            region, self.next_value, self.next_arg, self.next_conflict, parent = work.pop()
            self.scope = _Scope(parent)
            self._number_region(region)
            for block in region.blocks:
                for op in block.ops:
                    for nested in op.regions:
                        work.append((nested, self.next_value, self.next_arg, self.next_conflict, self.scope))

    # -- numbering ------------------------------------------------------------------
    def _set_name(self, value: Value, name: str) -> None:
        if not name:
            self.ids[id(value)] = self.next_value
            self.next_value += 1
            return
        self.names[id(value)] = self._unique(name)

    def _unique(self, name: str) -> str:
        name = sanitize(name)
        if name in self.scope:
            base = name + "_"
            while True:
                probe = f"{base}{self.next_conflict}"
                self.next_conflict += 1
                if probe not in self.scope:
                    name = probe
                    break
        self.scope.names.add(name)
        return name

    def _number_region(self, region: Region) -> None:
        parent = region.parent
        if parent is not None and is_structured(parent) and region.blocks:
            entry = region.blocks[0]
            n_in = parent.properties["operandSegmentSizes"].values[0]  # type: ignore[index,union-attr]
            for i, arg in enumerate(entry.args):
                self._set_name(arg, STRUCTURED_ARG_NAMES[0] if i < n_in else STRUCTURED_ARG_NAMES[1])
        for i, block in enumerate(region.blocks):
            self.block_names[id(block)] = f"^bb{i}"
            self._number_block(block, i == 0)

    def _number_block(self, block: Block, entry: bool) -> None:
        for arg in block.args:
            if id(arg) in self.ids or id(arg) in self.names:
                continue
            if entry:
                self._set_name(arg, f"arg{self.next_arg}")
                self.next_arg += 1
            else:
                self._set_name(arg, "")
        for op in block.ops:
            self._number_op(op)

    def _number_op(self, op: Operation) -> None:
        if not op.results:
            return
        namer = RESULT_NAMES.get(op.name)
        if namer is not None:
            self._set_name(op.results[0], namer(op))
        elif len(op.results) > 1 and all(r.name_hint for r in op.results):
            starts = []
            for r in op.results:
                hint = _CONFLICT_SUFFIX.sub("", r.name_hint or "")
                self._set_name(r, hint)
                if r.index:
                    starts.append(r.index)
            if starts:
                self.groups[id(op)] = [0] + starts
        if id(op.results[0]) not in self.names and id(op.results[0]) not in self.ids:
            self._set_name(op.results[0], "")

    # -- queries -------------------------------------------------------------------------
    def value(self, v: Value) -> str:
        op = v.owner
        index = getattr(v, "index", 0)
        if op is not None and len(op.results) > 1 and id(op) not in self.groups:
            head = op.results[0]
            return self._name(head) + f"#{index}"
        return self._name(v)

    def _name(self, v: Value) -> str:
        key = id(v)
        if key in self.names:
            return "%" + self.names[key]
        if key in self.ids:
            return f"%{self.ids[key]}"
        return "%<<UNKNOWN SSA VALUE>>"

    def result_list(self, op: Operation) -> str:
        """`%0`, `%0:3` or `%a, %b, %c` for the results of op."""
        if len(op.results) == 1:
            return self._name(op.results[0])
        starts = self.groups.get(id(op))
        if starts is None:
            return f"{self._name(op.results[0])}:{len(op.results)}"
        parts = []
        bounds = starts + [len(op.results)]
        for a, b in zip(bounds, bounds[1:]):
            size = b - a
            parts.append(self._name(op.results[a]) + (f":{size}" if size > 1 else ""))
        return ", ".join(parts)

    def block(self, b: Block) -> str:
        return self.block_names.get(id(b), "^bb?")
