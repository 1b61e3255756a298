"""Syntax to IR: resolve SSA names with a scope stack and type each op form.

Scopes nest with regions; `func.func` and `builtin.module` are isolated from
above.  A use of a name that is defined later in the same scope does not
dominate its definition; a name never defined is undeclared; a name defined
twice is a redefinition.  The forms any op can be written in (generic,
uniform custom `op %a : A, B -> R`, structured `ins(...) outs(...)`) are built
here; an op's own grammar rule is built by its definition's `parse` hook, and
its definition's `colon_types` says how `: T` maps to operand and result types
in the uniform form (`convopt.dialects`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from lark import Token

from ..diagnostics import ConvoptError, Diagnostic, SourceFile, SourcePos
from ..dialects import lookup, unknown_op_message
from ..ir.attributes import (
    DYNAMIC_INDEX,
    ArrayAttr,
    Attribute,
    CallSiteLoc,
    DenseArrayAttr,
    DictAttr,
    FusedLoc,
    Location,
    NameLoc,
)
from ..ir.core import Block, Operation, Region, Value
from ..ir.types import FunctionType, RankedTensorType, Type, i32, index
from .syntax import AliasRef, BlockSyntax, OpSyntax, Use


class Scope:
    __slots__ = ("names", "positions", "pending", "parent", "isolated")

    def __init__(self, parent: Optional[Scope], isolated: bool):
        self.names: dict[str, list[Value]] = {}
        self.positions: dict[str, SourcePos] = {}
        self.pending: dict[str, list[tuple[Value, Use, int]]] = {}
        self.parent = parent
        self.isolated = isolated


class Resolver:
    def __init__(self, source: SourceFile, attr_aliases: dict[str, Attribute], allow_unregistered_dialect: bool = False):
        self.source = source
        self.attr_aliases = attr_aliases
        self.allow_unregistered_dialect = allow_unregistered_dialect
        self.scope: Optional[Scope] = None

    # -- diagnostics ------------------------------------------------------------
    def pos(self, token: Optional[Token], col_override: Optional[int] = None) -> Optional[SourcePos]:
        line, col = getattr(token, "line", None), getattr(token, "column", None)
        if line is None or col is None:
            return None
        return SourcePos(self.source, line, col_override if col_override is not None else col)

    def fail(self, message: str, token: Optional[Token], note: Optional[tuple[str, Optional[SourcePos]]] = None) -> ConvoptError:
        diag = Diagnostic("error", message, self.pos(token))
        if note is not None:
            diag.notes.append(Diagnostic("note", note[0], note[1]))
        return ConvoptError(diag)

    # -- scopes -------------------------------------------------------------------------
    def push(self, isolated: bool) -> None:
        self.scope = Scope(self.scope, isolated)

    def pop(self) -> None:
        scope = self.scope
        assert scope is not None
        self.scope = scope.parent
        if not scope.pending:
            return
        if scope.isolated or self.scope is None:
            name, uses = next(iter(scope.pending.items()))
            raise self.fail(f"use of undeclared SSA value name '%{name}'", uses[0][1].token)
        for name, uses in scope.pending.items():
            self.scope.pending.setdefault(name, []).extend(uses)

    def lookup(self, use: Use, expected: Optional[Type], operand_index: int) -> Value:
        scope = self.scope
        while scope is not None:
            values = scope.names.get(use.name)
            if values is not None:
                if use.index >= len(values):
                    raise self.fail("reference to invalid result number", use.token)
                value = values[use.index]
                if expected is not None and value.type != expected:
                    raise self.fail(
                        f"use of value '%{use.name}' expects different type than prior uses: '{expected}' vs '{value.type}'",
                        use.token,
                        ("prior use here", scope.positions.get(use.name)),
                    )
                return value
            if scope.isolated:
                break
            scope = scope.parent
        if expected is None:
            raise self.fail(f"use of undeclared SSA value name '%{use.name}'", use.token)
        placeholder = Value(expected)
        assert self.scope is not None
        self.scope.pending.setdefault(use.name, []).append((placeholder, use, operand_index))
        return placeholder

    def define(self, name: str, values: list[Value], pos: Optional[SourcePos], token: Optional[Token]) -> None:
        scope = self.scope
        assert scope is not None
        s: Optional[Scope] = scope
        while s is not None:
            if name in s.names:
                raise ConvoptError(
                    Diagnostic("error", f"redefinition of SSA value '%{name}'", pos, [Diagnostic("note", "previously defined here", s.positions.get(name))])
                )
            if s.isolated:
                break
            s = s.parent
        if name in scope.pending:
            _, use, index = scope.pending[name][0]
            raise self.fail(f"operand #{index} does not dominate this use", use.token, ("operand defined here", pos))
        scope.names[name] = values
        scope.positions[name] = pos  # type: ignore[assignment]
        if len(values) == 1 and not name.isdigit():
            values[0].name_hint = name

    # -- ops -------------------------------------------------------------------------------
    def build_block(self, syntax: BlockSyntax, block: Block) -> None:
        for arg_tok, arg_type, arg_loc in syntax.args:
            arg = block.add_arg(arg_type, self.location(arg_loc))
            arg.pos = self.pos(arg_tok)
            self.define(str(arg_tok)[1:], [arg], arg.pos, arg_tok)
        for op_syntax in syntax.ops:
            block.append(self.build_op(op_syntax))

    def build_region(self, blocks: list[BlockSyntax], isolated: bool, entry_args: Optional[list[tuple[Token, Type, Any]]] = None) -> Region:
        self.push(isolated)
        region = Region()
        for i, bs in enumerate(blocks):
            block = region.add_block(Block())
            if bs.label is not None:
                block.label = str(bs.label)
            if i == 0 and entry_args:
                if bs.args:
                    raise self.fail("invalid block name in region with named arguments", bs.label)
                bs = BlockSyntax(bs.label, entry_args, bs.ops)
            self.build_block(bs, block)
        self.pop()
        return region

    def build_op(self, syn: OpSyntax) -> Operation:
        start = syn.result_token if syn.result_token is not None else syn.token
        unknown = unknown_op_message(syn.name, self.allow_unregistered_dialect)
        if unknown is not None:
            raise self.fail(unknown, syn.token)
        if any(contains_alias_ref(a) for a in syn.attributes.values()):
            syn.attributes = {k: self.resolve_attr(v) for k, v in syn.attributes.items()}
        op = self.build_form(syn)
        for table in (op.attributes, op.properties):  # e.g. `func.func ... attributes {...}`, arg_attrs
            if table and any(contains_alias_ref(a) for a in table.values()):
                table.update({k: self.resolve_attr(v) for k, v in table.items()})
        op.pos = self.pos(syn.token)  # at the op name, where MLIR locates an op
        op.loc = self.location(syn.loc)
        num_results = sum(count for _, count, _ in syn.results)
        if num_results != len(op.results):
            raise self.fail(f"operation defines {len(op.results)} results but was provided {num_results} to bind", start)
        i = 0
        for name, count, col in syn.results:
            values: list[Value] = list(op.results[i : i + count])
            self.define(name, values, self.pos(syn.result_token, col), syn.result_token)
            i += count
        return op

    def operands(self, syn: OpSyntax, uses: list[Use], types: Sequence[Optional[Type]]) -> list[Value]:
        if len(uses) != len(types):
            raise self.fail(f"{len(uses)} operands present, but expected {len(types)}", syn.token)
        return [self.lookup(u, t, i) for i, (u, t) in enumerate(zip(uses, types))]

    def regions(self, syn: OpSyntax, isolated: bool = False) -> list[Region]:
        return [self.build_region(r, isolated) for r in syn.regions]

    ANY_OP_FORMS = ("generic", "custom", "structured")
    """Forms any op name can be written in; every other form is one op's own
    grammar rule, built by the `parse` hook of its definition."""

    def build_form(self, syn: OpSyntax) -> Operation:
        if syn.form == "generic":
            return self.form_generic(syn)
        if syn.form == "custom":
            return self.form_custom(syn)
        if syn.form == "structured":
            return self.form_structured(syn)
        d = lookup(syn.name)
        assert d is not None and d.parse is not None, f"no parse hook for '{syn.name}' ({syn.form})"
        return d.parse(self, syn)

    def form_generic(self, syn: OpSyntax) -> Operation:
        ops = self.operands(syn, syn.operands, list(syn.operand_types))
        d = lookup(syn.name)
        isolated = d is not None and d.isolated
        op = Operation(syn.name, ops, syn.result_types or [], syn.attributes, self.regions(syn, isolated), properties=syn.properties)
        if d is None:
            return op
        inherent = d.inherent
        if op.properties and inherent:  # convopt keeps inherent attributes in the attribute dictionary
            moved = {k: v for k, v in op.properties.items() if k in inherent}
            if moved:
                op.attributes = {**moved, **op.attributes}
                op.properties = {k: v for k, v in op.properties.items() if k not in moved}
        if d.read_generic is not None:
            try:
                d.read_generic(op)
            except ConvoptError as e:
                raise self.fail(e.diagnostic.message, syn.token) from None
        return op

    def form_custom(self, syn: OpSyntax) -> Operation:
        """`op %a, %b {attrs} : A, B -> R`, `: A to B`, `: (A, B) -> R` or
        `: T` (which the op's definition interprets)."""
        name = syn.name
        uses = syn.operands
        lhs = list(syn.operand_types)
        d = lookup(name)
        operand_types: Sequence[Optional[Type]]
        if syn.result_types is not None:  # `: A, B -> R` / `: A to B`
            operand_types = self.spread(syn, lhs, len(uses))
            result_types = list(syn.result_types)
        elif len(lhs) == 1 and isinstance(lhs[0], FunctionType) and (d is None or d.functional_types) and len(lhs[0].inputs) == len(uses):
            operand_types = list(lhs[0].inputs)  # functional-type(operands, results)
            result_types = list(lhs[0].results)
        elif d is not None and d.colon_types is not None:
            operand_types, result_types = d.colon_types(self, syn, lhs)
        else:
            operand_types, result_types = self.uniform_types(syn, lhs)
        ops = self.operands(syn, uses, operand_types)
        return Operation(name, ops, result_types, syn.attributes)

    def uniform_types(self, syn: OpSyntax, lhs: list[Type]) -> tuple[list[Type], list[Type]]:
        """`: T` of an op without a hook of its own: operand types of an op
        without results, or result types of an op without operands."""
        if sum(count for _, count, _ in syn.results) == 0:
            return self.spread(syn, lhs, len(syn.operands)), []
        if not syn.operands:
            return [], lhs
        raise self.fail(f"custom op '{syn.name}' is unknown to convopt; write it in MLIR's generic form", syn.token)

    def spread(self, syn: OpSyntax, types: list[Type], count: int) -> list[Type]:
        if len(types) == count:
            return types
        if len(types) == 1 and count > 1:
            return types * count
        raise self.fail(f"expected {count} operand types but had {len(types)}", syn.token)

    def form_structured(self, syn: OpSyntax) -> Operation:
        """`op {attrs} ins(...) outs(...) ... -> T`: ins and outs become the
        operand segments."""
        ops = self.operands(syn, syn.operands, list(syn.operand_types))
        n_in = syn.extra["num_inputs"]
        outs = ops[n_in:]
        if syn.result_types is not None:
            result_types = list(syn.result_types)
        else:
            result_types = [v.type for v in outs if isinstance(v.type, RankedTensorType)]
        attrs = dict(syn.attributes)
        if syn.extra["extra_attrs"]:
            attrs.update(syn.extra["extra_attrs"])
        props: dict[str, Attribute] = {"operandSegmentSizes": DenseArrayAttr(i32, (n_in, len(outs)))}
        return Operation(syn.name, ops, result_types, attrs, self.regions(syn), properties=props)

    def mixed(self, syn: OpSyntax, items: list, start_index: int) -> tuple[tuple[int, ...], list[Value]]:
        """`[0, %a, 4]` -> static values (DYNAMIC_INDEX for %a) and the dynamic values."""
        static: list[int] = []
        dynamic: list[Value] = []
        for item in items:
            if isinstance(item, Use):
                dynamic.append(self.lookup(item, index, start_index + len(dynamic)))
                static.append(DYNAMIC_INDEX)
            else:
                static.append(int(item))
        return tuple(static), dynamic

    # -- locations and aliases --------------------------------------------------------------
    def location(self, loc: Optional[Attribute]) -> Optional[Location]:
        if loc is None:
            return None
        if not _location_has_alias(loc):  # deep nesting without aliases needs no recursion
            return loc  # type: ignore[return-value]
        resolved = self.resolve_attr(loc, in_location=True)
        if not isinstance(resolved, Location):
            raise ConvoptError(Diagnostic("error", "expected location alias to name a location", None))
        return resolved

    def resolve_attr(self, attr: Attribute, in_location: bool = False, depth: int = 0) -> Attribute:
        """Replace alias references that were read before their definition.

        `depth` counts alias hops only (a chain of more than 64 is a cycle);
        nesting without aliases is bounded by the driver's recursion guard.
        """
        if depth > 64:
            raise ConvoptError(Diagnostic("error", "cyclic attribute alias", None))
        if isinstance(attr, AliasRef):
            target = self.attr_aliases.get(attr.name)
            if target is None or not in_location:
                raise self.fail(f"undefined symbol alias id '{attr.name}'", attr.token)
            try:
                return self.resolve_attr(target, in_location, depth + 1)
            except ConvoptError as e:  # a cycle (or too deep a chain): at the innermost alias use
                if e.diagnostic.pos is None:
                    raise self.fail(e.diagnostic.message, attr.token) from None
                raise
        if isinstance(attr, CallSiteLoc):
            return CallSiteLoc(self.resolve_attr(attr.callee, True, depth), self.resolve_attr(attr.caller, True, depth))  # type: ignore[arg-type]
        if isinstance(attr, NameLoc) and attr.child is not None:
            return NameLoc(attr.name, self.resolve_attr(attr.child, True, depth))  # type: ignore[arg-type]
        if isinstance(attr, FusedLoc):
            return FusedLoc(tuple(self.resolve_attr(l, True, depth) for l in attr.locations), attr.metadata)  # type: ignore[misc]
        if isinstance(attr, ArrayAttr):
            return ArrayAttr(tuple(self.resolve_attr(a, in_location, depth) for a in attr.elements))
        if isinstance(attr, DictAttr):
            return DictAttr(tuple((k, self.resolve_attr(v, in_location, depth)) for k, v in attr.entries))
        return attr


def _location_has_alias(loc: Attribute) -> bool:
    """Whether an alias reference occurs anywhere in a location (iterative: nesting may be deep)."""
    stack = [loc]
    while stack:
        attr = stack.pop()
        if isinstance(attr, AliasRef):
            return True
        if isinstance(attr, CallSiteLoc):
            stack += (attr.callee, attr.caller)
        elif isinstance(attr, NameLoc) and attr.child is not None:
            stack.append(attr.child)
        elif isinstance(attr, FusedLoc):
            stack += attr.locations
    return False


def contains_alias_ref(attr: Attribute) -> bool:
    if isinstance(attr, AliasRef):
        return True
    if isinstance(attr, ArrayAttr):
        return any(contains_alias_ref(a) for a in attr.elements)
    if isinstance(attr, DictAttr):
        return any(contains_alias_ref(v) for _, v in attr.entries)
    return False
