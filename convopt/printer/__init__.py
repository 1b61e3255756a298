"""Print convopt's IR as MLIR text, the way mlir-opt prints it.

Deterministic: names come from `names.NameState`, affine maps get `#map`,
`#map1`, ... aliases in order of first use, ops print in their custom form
(the print hooks of their definitions, `convopt.dialects`) or in MLIR's
generic form (`ops.py` decides which).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Optional

from ..dialects import lookup
from ..dialects.base import Spelled
from ..ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DenseAttr,
    DictAttr,
    FileLineColLoc,
    Location,
    UnitAttr,
    UnknownLoc,
    is_bare_identifier,
    quote_string,
)
from ..ir.core import Block, Operation, Region, Value
from ..ir.types import Type
from .names import NameState
from .ops import print_generic_form, print_op

INDENT = "  "


class Printer:
    def __init__(self, debuginfo: bool = False, elide_elements_over: Optional[int] = None, generic: bool = False):
        self.debuginfo = debuginfo
        self.elide_elements_over = elide_elements_over  # --mlir-elide-elementsattrs-if-larger
        self.generic = generic  # --mlir-print-op-generic
        self.spelled: dict[int, Spelled] = {}  # id(op) -> what its generic form spells out (generic only)
        self.indent = 0
        self.names: NameState
        self.aliases = {}

    @property
    def aliases(self) -> dict[AffineMapAttr, str]:
        """The `#map` alias of each affine map printed as one."""
        return self._aliases

    @aliases.setter
    def aliases(self, aliases: dict[AffineMapAttr, str]) -> None:
        self._aliases = aliases
        # id(array) -> (array, its text with these aliases): lowered IR shares
        # its arrays (indexing maps, iterator types) among many ops
        self._array_texts: dict[int, tuple[ArrayAttr, str]] = {}

    # -- entry points ----------------------------------------------------------------
    def start(self, module: Operation) -> None:
        """Name the values of module and its map aliases."""
        if self.generic:
            self.spelled = spell_out(module)
            regions = {key: list(sp.regions) for key, sp in self.spelled.items() if sp.regions}
            self.names = NameState(module, hints=False, implicit_regions=regions)
            self.aliases = collect_map_aliases(module, self.spelled)
            return
        self.names = NameState(module)
        self.aliases = collect_map_aliases(module)

    def print_module(self, module: Operation, metadata: Sequence[str] = (), aliases: Optional[dict[AffineMapAttr, str]] = None) -> str:
        """The text of module; `aliases` replaces the map aliases of module
        (`convopt.parallel`: the maps of functions printed elsewhere)."""
        self.start(module)
        if aliases is not None:
            self.aliases = aliases
        lines = [f"{name} = {attr}" for attr, name in self.aliases.items()]
        lines.append(self.op(module))
        text = "\n".join(lines) + "\n"
        for block in metadata:
            text += "\n" + block + "\n"
        return text + "\n"

    # -- pieces used by the op printers ------------------------------------------------------
    def value(self, v: Value) -> str:
        return self.names.value(v)

    def values(self, vs: Iterable[Value]) -> str:
        value = self.names.value
        return ", ".join([value(v) for v in vs])

    def types(self, ts: Iterable[Type]) -> str:
        return ", ".join(map(str, ts))

    def attr(self, a: Attribute) -> str:
        if isinstance(a, AffineMapAttr):
            alias = self.aliases.get(a)
            return alias if alias is not None else str(a)
        if isinstance(a, ArrayAttr):
            known = self._array_texts.get(id(a))
            if known is not None and known[0] is a:
                return known[1]
            text = "[" + ", ".join([self.attr(e) for e in a.elements]) + "]"
            self._array_texts[id(a)] = (a, text)
            return text
        if isinstance(a, DictAttr):
            return self.attr_dict(dict(a.entries), leading_space=False)
        if self.elide_elements_over is not None and isinstance(a, DenseAttr) and _elements(a) > self.elide_elements_over:
            return f"dense_resource<__elided__> : {a.type}"  # as mlir-opt elides: a splat is one element
        return str(a)

    def attr_dict(self, attrs: dict[str, Attribute], elided: Iterable[str] = (), leading_space: bool = True) -> str:
        if not attrs:
            return "" if leading_space else "{}"
        skip = set(elided)
        parts = []
        for key, value in attrs.items():
            if key in skip:
                continue
            name = key if is_bare_identifier(key) else quote_string(key)
            parts.append(name if isinstance(value, UnitAttr) else f"{name} = {self.attr(value)}")
        if not parts and leading_space:
            return ""
        return (" " if leading_space else "") + "{" + ", ".join(parts) + "}"

    def loc(self, loc: Optional[Location], pos: object = None) -> str:
        if not self.debuginfo:
            return ""
        if loc is None:
            loc = FileLineColLoc(pos.source.name, pos.display_line, pos.col) if pos is not None else UnknownLoc()  # type: ignore[attr-defined]
        return " " + str(loc)

    def region(self, region: Region, print_entry_args: bool = True, print_empty_block: bool = False) -> str:
        """`{` ops `}` with nested indentation; the closing brace at the
        current indentation."""
        if not region.blocks:
            return "{\n" + INDENT * self.indent + "}"
        lines: list[str] = []
        self.indent += 1
        for i, block in enumerate(region.blocks):
            label = self.block_label(block, force=(i > 0 or (print_entry_args and bool(block.args)) or (print_empty_block and not block.ops)))
            if label:
                lines.append(INDENT * (self.indent - 1) + label)
            for op in block.ops:
                lines.append(INDENT * self.indent + self.op(op))
        self.indent -= 1
        return "{\n" + "\n".join(lines) + ("\n" if lines else "") + INDENT * self.indent + "}"

    def block_label(self, block: Block, force: bool) -> str:
        if not force:
            return ""
        name = self.names.block(block)
        if not block.args:
            return name + ":"
        args = ", ".join(f"{self.value(a)}: {a.type}{self.loc(a.loc, a.pos)}" for a in block.args)
        return f"{name}({args}):"

    # -- ops -----------------------------------------------------------------------------------
    def op(self, op: Operation) -> str:
        text = print_generic_form(self, op, self.spelled.get(id(op))) if self.generic else print_op(self, op)
        prefix = self.names.result_list(op) + " = " if op.results else ""
        return prefix + text + self.loc(op.loc, op.pos) if self.debuginfo else prefix + text


def _elements(a: DenseAttr) -> int:
    """The number of elements a dense attribute spells out (1 for a splat)."""
    if not isinstance(a.body, tuple):
        return 1
    shape = getattr(a.type, "shape", ())
    count = 1
    for d in shape:
        count *= d if isinstance(d, int) and d >= 0 else 1
    return count


def spell_out(module: Operation) -> dict[int, Spelled]:
    """id(op) -> what the generic form of op spells out, for the ops of
    module whose definitions say (`OpDef.spell_out`)."""
    out = {}
    for op in _preorder(module):
        d = lookup(op.name)
        if d is not None and d.spell_out is not None:
            out[id(op)] = d.spell_out(op)
    return out


def collect_map_aliases(module: Operation, spelled: Optional[dict[int, Spelled]] = None) -> dict[AffineMapAttr, str]:
    """`#map`, `#map1`, ... for the affine maps of module (and of what the
    generic form spells out, `spelled`), in order of first use."""
    aliases: dict[AffineMapAttr, str] = {}
    seen: set[int] = set()  # ids of the arrays and dictionaries visited (lowered IR shares them)

    def visit(a: Attribute) -> None:
        if isinstance(a, AffineMapAttr):
            if a not in aliases:
                aliases[a] = "#map" if not aliases else f"#map{len(aliases)}"
        elif isinstance(a, (ArrayAttr, DictAttr)) and id(a) not in seen:
            seen.add(id(a))
            for e in a.elements if isinstance(a, ArrayAttr) else (v for _, v in a.entries):
                visit(e)

    for op in _preorder(module):
        d = lookup(op.name)
        if d is not None and d.inline_maps:
            continue
        for attrs in (op.properties, op.attributes) if op.properties else (op.attributes,):
            for v in attrs.values():
                if isinstance(v, _MAP_HOLDERS):
                    visit(v)
        sp = spelled.get(id(op)) if spelled else None
        if sp is not None:
            for v in (*sp.properties.values(), *sp.attributes.values()):
                if isinstance(v, _MAP_HOLDERS):
                    visit(v)
    return aliases


_MAP_HOLDERS = (AffineMapAttr, ArrayAttr, DictAttr)


def _preorder(root: Operation) -> Iterator[Operation]:
    """root and the ops nested in it, in the order of Operation.walk (without
    a generator per nesting level; the IR does not change while printing)."""
    stack = [root]
    while stack:
        op = stack.pop()
        yield op
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.extend(reversed(block.ops))


def print_module(
    module: Operation, metadata: Sequence[str] = (), debuginfo: bool = False, elide_elements_over: Optional[int] = None, generic: bool = False,
) -> str:
    return Printer(debuginfo, elide_elements_over, generic).print_module(module, metadata)
