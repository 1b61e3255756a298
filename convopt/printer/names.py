"""SSA value names, assigned at print time the way mlir-opt assigns them.

Each region is numbered after its parent region, starting from the parent's
counters (`%0`, `%arg0`, conflict suffix `_N`), so sibling regions reuse the
same numbers; the name hints of the op definitions (`%cst`, `%c0`,
`%int1`, `%padded`, `%in`, `%out`) are made unique within the enclosing
scopes.
"""

from __future__ import annotations

import re
from typing import Optional

from ..dialects import lookup
from ..ir.core import Block, Operation, Region, Value

_PLAIN_NAME = re.compile(r"[A-Za-z$._-][A-Za-z0-9$._-]*")


def sanitize(name: str) -> str:
    if _PLAIN_NAME.fullmatch(name):
        return name
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


_CONFLICT_SUFFIX = re.compile(r"_\d+$")


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
    def __init__(self, root: Operation, hints: bool = True, implicit_regions: Optional[dict[int, list[Region]]] = None):
        """hints: use the definitions' name hints (`%cst`, `%in`); False
        numbers every value, as MLIR's generic form does.  implicit_regions:
        id(op) -> regions printed for an op that has none (the generic form
        of a named linalg op)."""
        self.hints = hints
        implicit = implicit_regions or {}
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
                    for nested in op.regions or implicit.get(id(op), []):
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
        d = lookup(parent.name) if parent is not None and self.hints else None
        if d is not None and d.block_arg_names is not None and region.blocks:
            entry = region.blocks[0]
            for arg, name in zip(entry.args, d.block_arg_names(parent, len(entry.args)) or ()):  # type: ignore[arg-type]
                self._set_name(arg, name)
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
        d = lookup(op.name) if self.hints else None
        if d is not None and d.result_name is not None:
            self._set_name(op.results[0], d.result_name(op))
        elif self.hints and len(op.results) > 1 and all(r.name_hint for r in op.results):
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
        if op is not None and len(op.results) > 1 and id(op) not in self.groups:
            return self._name(op.results[0]) + f"#{v.index}"  # type: ignore[attr-defined]
        return self._name(v)

    def _name(self, v: Value) -> str:
        key = id(v)
        name = self.names.get(key)
        if name is not None:
            return "%" + name
        number = self.ids.get(key)
        if number is not None:
            return f"%{number}"
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
