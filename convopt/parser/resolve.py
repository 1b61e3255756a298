"""Syntax to IR: resolve SSA names with a scope stack and type each op form.

Scopes nest with regions; `func.func` and `builtin.module` are isolated from
above.  A use of a name that is defined later in the same scope does not
dominate its definition; a name never defined is undeclared; a name defined
twice is a redefinition.  Each custom form knows how its types map to operand
and result types (the uniform `: A, B -> R` form, `: T` for same-type
arithmetic, `: A to B` for casts, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from lark import Token

from ..diagnostics import ConvoptError, Diagnostic, SourceFile, SourcePos
from ..ir.attributes import (
    ArrayAttr,
    Attribute,
    CallSiteLoc,
    DenseArrayAttr,
    DenseAttr,
    DenseResourceAttr,
    DictAttr,
    FloatAttr,
    FusedLoc,
    IntegerAttr,
    Location,
    NameLoc,
    StringAttr,
    TypeAttr,
)
from ..ir.core import Block, Operation, Region, Value
from ..ir.types import FunctionType, RankedTensorType, Type, i1, i32, i64, index, torch_type
from ..ops import (
    CMPF_PREDICATES,
    CMPI_PREDICATES,
    DYNAMIC_INDEX,
    SAME_TYPE_OPS,
    TERMINATOR_OPS,
    TORCH_CONSTANT_TYPES,
)
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
    def __init__(self, source: SourceFile, attr_aliases: dict[str, Attribute]):
        self.source = source
        self.attr_aliases = attr_aliases
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
        if any(contains_alias_ref(a) for a in syn.attributes.values()):
            syn.attributes = {k: self.resolve_attr(v) for k, v in syn.attributes.items()}
        handler = getattr(self, "form_" + syn.form)
        op: Operation = handler(syn)
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

    def form_generic(self, syn: OpSyntax) -> Operation:
        ops = self.operands(syn, syn.operands, list(syn.operand_types))
        return Operation(syn.name, ops, syn.result_types or [], syn.attributes, self.regions(syn, syn.name in ("func.func", "builtin.module")), properties=syn.properties)

    def form_module(self, syn: OpSyntax) -> Operation:
        return Operation("builtin.module", [], [], syn.attributes, self.regions(syn, True))

    def form_func(self, syn: OpSyntax) -> Operation:
        x = syn.extra
        args = x["args"]
        arg_types = [a[1] for a in args]
        results = x["results"]
        attrs: dict[str, Attribute] = {"sym_name": StringAttr(x["sym_name"])}
        attrs["function_type"] = TypeAttr(FunctionType(tuple(arg_types), tuple(r[0] for r in results)))
        if x["visibility"] is not None:
            attrs["sym_visibility"] = StringAttr(x["visibility"])
        if any(a[2] for a in args):
            attrs["arg_attrs"] = ArrayAttr(tuple(DictAttr(tuple((a[2] or {}).items())) for a in args))
        if any(r[1] for r in results):
            attrs["res_attrs"] = ArrayAttr(tuple(DictAttr(tuple((r[1] or {}).items())) for r in results))
        attrs.update(x["attrs"])
        regions = []
        if syn.regions:
            if any(a[0] is None for a in args):
                raise self.fail("expected SSA identifier for the arguments of a function with a body", syn.token)
            entry = [(a[0], a[1], a[3]) for a in args]
            regions = [self.build_region(syn.regions[0], True, entry)]
        return Operation("func.func", [], [], attrs, regions)

    def form_custom(self, syn: OpSyntax) -> Operation:
        name = syn.name
        uses = syn.operands
        lhs = list(syn.operand_types)
        n_results = sum(count for _, count, _ in syn.results)
        operand_types: Sequence[Optional[Type]]
        if syn.result_types is not None:  # `: A, B -> R` / `: A to B`
            operand_types = self._spread(syn, lhs, len(uses))
            result_types = list(syn.result_types)
        elif len(lhs) == 1 and isinstance(lhs[0], FunctionType) and name not in SAME_TYPE_OPS and name not in TERMINATOR_OPS and len(lhs[0].inputs) == len(uses):
            operand_types = list(lhs[0].inputs)  # functional-type(operands, results)
            result_types = list(lhs[0].results)
        elif name in SAME_TYPE_OPS:
            if len(lhs) != 1:
                raise self.fail(f"'{name}' expects a single type after ':'", syn.token)
            operand_types, result_types = [lhs[0]] * len(uses), [lhs[0]]
        elif name == "arith.select":
            if len(lhs) == 1:
                cond: Type = i1
                operand_types, result_types = [cond, lhs[0], lhs[0]], [lhs[0]]
            else:
                operand_types, result_types = [lhs[0], lhs[1], lhs[1]], [lhs[1]]
        elif name == "tensor.dim":
            operand_types, result_types = [lhs[0] if lhs else None, index], [index]  # type: ignore[list-item]
        elif name in TERMINATOR_OPS or n_results == 0:
            operand_types, result_types = self._spread(syn, lhs, len(uses)), []
        elif not uses:
            operand_types, result_types = [], lhs
        elif name.startswith(("torch.", "torch_c.")):
            raise self.fail(f"expected '->' and the result types of '{name}'", syn.token)
        else:
            raise self.fail(f"custom op '{name}' is unknown to convopt; write it in MLIR's generic form", syn.token)
        ops = self.operands(syn, uses, operand_types)
        return Operation(name, ops, result_types, syn.attributes)

    def _spread(self, syn: OpSyntax, types: list[Type], count: int) -> list[Type]:
        if len(types) == count:
            return types
        if len(types) == 1 and count > 1:
            return types * count
        raise self.fail(f"expected {count} operand types but had {len(types)}", syn.token)

    def form_structured(self, syn: OpSyntax) -> Operation:
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

    def form_constant(self, syn: OpSyntax) -> Operation:
        return Operation(syn.name, [], [TORCH_CONSTANT_TYPES[syn.name]], syn.attributes)

    def form_literal(self, syn: OpSyntax) -> Operation:
        return Operation(syn.name, [], syn.result_types or [], syn.attributes)

    def form_operator(self, syn: OpSyntax) -> Operation:
        ops = self.operands(syn, syn.operands, list(syn.operand_types))
        return Operation(syn.name, ops, syn.result_types or [], syn.attributes, self.regions(syn))

    def form_symbolic_int(self, syn: OpSyntax) -> Operation:
        return Operation(syn.name, [], syn.result_types or [], syn.attributes)

    def form_bind_symbolic_shape(self, syn: OpSyntax) -> Operation:
        types: list[Optional[Type]] = [syn.operand_types[0], *[torch_type("int")] * (len(syn.operands) - 1)]
        ops = self.operands(syn, syn.operands, types)
        return Operation(syn.name, ops, [], syn.attributes)

    def form_arith_constant(self, syn: OpSyntax) -> Operation:
        value = syn.attributes["value"]
        if isinstance(value, (IntegerAttr, FloatAttr, DenseAttr, DenseResourceAttr)):
            result_type = value.type
        else:
            raise self.fail("'arith.constant' needs a typed value (e.g. `0 : index`, `1.0 : f32`, `dense<...> : tensor<...>`)", syn.token)
        return Operation(syn.name, [], [result_type], {"value": value})

    def form_cmp(self, syn: OpSyntax) -> Operation:
        table = CMPI_PREDICATES if syn.name == "arith.cmpi" else CMPF_PREDICATES
        pred = syn.extra["predicate"]
        if pred not in table:
            raise self.fail(f"invalid predicate '{pred}' for '{syn.name}'", syn.token)
        ops = self.operands(syn, syn.operands, list(syn.operand_types))
        t = syn.operand_types[0]
        result: Type = RankedTensorType(t.shape, i1) if isinstance(t, RankedTensorType) else i1
        attrs = {"predicate": IntegerAttr(table.index(pred), i64), **syn.attributes}
        return Operation(syn.name, ops, [result], attrs)

    def form_tensor_empty(self, syn: OpSyntax) -> Operation:
        ops = self.operands(syn, syn.operands, list(syn.operand_types))
        return Operation(syn.name, ops, syn.result_types or [], syn.attributes)

    def _mixed(self, syn: OpSyntax, items: list, start_index: int) -> tuple[tuple[int, ...], list[Value]]:
        static: list[int] = []
        dynamic: list[Value] = []
        for item in items:
            if isinstance(item, Use):
                dynamic.append(self.lookup(item, index, start_index + len(dynamic)))
                static.append(DYNAMIC_INDEX)
            else:
                static.append(int(item))
        return tuple(static), dynamic

    def form_reshape(self, syn: OpSyntax) -> Operation:
        src = self.operands(syn, syn.extra["values"], list(syn.operand_types))
        reassoc = ArrayAttr(tuple(ArrayAttr(tuple(IntegerAttr(i, i64) for i in g)) for g in syn.extra["reassociation"]))
        attrs: dict[str, Attribute] = {"reassociation": reassoc}
        dynamic: list[Value] = []
        if syn.name == "tensor.expand_shape":
            static, dynamic = self._mixed(syn, syn.extra["mixed"][0], 1)
            attrs["static_output_shape"] = DenseArrayAttr(i64, static)
        attrs.update(syn.attributes)
        return Operation(syn.name, src + dynamic, syn.result_types or [], attrs)

    def form_slice(self, syn: OpSyntax) -> Operation:
        values = self.operands(syn, syn.extra["values"], list(syn.operand_types))
        names = ("static_low", "static_high") if syn.name == "tensor.pad" else ("static_offsets", "static_sizes", "static_strides")
        attrs: dict[str, Attribute] = {}
        dynamic: list[Value] = []
        segments = [1] * len(values)
        for key, items in zip(names, syn.extra["mixed"]):
            static, dyn = self._mixed(syn, items, len(values) + len(dynamic))
            attrs[key] = DenseArrayAttr(i64, static)
            dynamic += dyn
            segments.append(len(dyn))
        attrs.update(syn.attributes)
        props: dict[str, Attribute] = {"operandSegmentSizes": DenseArrayAttr(i32, tuple(segments))}
        return Operation(syn.name, values + dynamic, syn.result_types or [], attrs, self.regions(syn), properties=props)

    def form_extract(self, syn: OpSyntax) -> Operation:
        ops = self.operands(syn, syn.operands, list(syn.operand_types))
        t = syn.operand_types[0]
        if not isinstance(t, RankedTensorType):
            raise self.fail("'tensor.extract' expects a ranked tensor type", syn.token)
        return Operation(syn.name, ops, [t.element_type], syn.attributes)

    def form_linalg_index(self, syn: OpSyntax) -> Operation:
        return Operation(syn.name, [], syn.result_types or [], syn.attributes)

    # -- locations and aliases --------------------------------------------------------------
    def location(self, loc: Optional[Attribute]) -> Optional[Location]:
        if loc is None:
            return None
        resolved = self.resolve_attr(loc, in_location=True)
        if not isinstance(resolved, Location):
            raise ConvoptError(Diagnostic("error", "expected location alias to name a location", None))
        return resolved

    def resolve_attr(self, attr: Attribute, in_location: bool = False, depth: int = 0) -> Attribute:
        """Replace alias references that were read before their definition."""
        if depth > 64:
            raise ConvoptError(Diagnostic("error", "cyclic attribute alias", None))
        if isinstance(attr, AliasRef):
            target = self.attr_aliases.get(attr.name)
            if target is None or not in_location:
                raise self.fail(f"undefined symbol alias id '{attr.name}'", attr.token)
            return self.resolve_attr(target, in_location, depth + 1)
        if isinstance(attr, CallSiteLoc):
            return CallSiteLoc(self.resolve_attr(attr.callee, True, depth + 1), self.resolve_attr(attr.caller, True, depth + 1))  # type: ignore[arg-type]
        if isinstance(attr, NameLoc) and attr.child is not None:
            return NameLoc(attr.name, self.resolve_attr(attr.child, True, depth + 1))  # type: ignore[arg-type]
        if isinstance(attr, FusedLoc):
            return FusedLoc(tuple(self.resolve_attr(l, True, depth + 1) for l in attr.locations), attr.metadata)  # type: ignore[misc]
        if isinstance(attr, ArrayAttr):
            return ArrayAttr(tuple(self.resolve_attr(a, in_location, depth + 1) for a in attr.elements))
        if isinstance(attr, DictAttr):
            return DictAttr(tuple((k, self.resolve_attr(v, in_location, depth + 1)) for k, v in attr.entries))
        return attr


def contains_alias_ref(attr: Attribute) -> bool:
    if isinstance(attr, AliasRef):
        return True
    if isinstance(attr, ArrayAttr):
        return any(contains_alias_ref(a) for a in attr.elements)
    if isinstance(attr, DictAttr):
        return any(contains_alias_ref(v) for _, v in attr.entries)
    return False
