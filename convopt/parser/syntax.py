"""Lark callbacks: parse-tree rules to types, attributes and op syntax.

Types, attributes, affine maps and locations become IR values directly.
Operations become `OpSyntax` records (name, operand names, types, regions);
SSA names are resolved afterwards, top-down with a scope stack, by
`resolve.py`, because Lark reduces bottom-up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

from lark import Token, Transformer

from ..dialects.builtin import MODULE
from ..dialects.func import FUNC, RETURN
from ..ir import affine
from ..ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    CallSiteLoc,
    DenseArrayAttr,
    DenseAttr,
    DenseResourceAttr,
    FileLineColLoc,
    FloatAttr,
    FusedLoc,
    IntegerAttr,
    Location,
    NameLoc,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    UnknownLoc,
    float_from_hex,
)
from ..ir.types import (
    ComplexType,
    DialectType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    Keyword,
    NoneType,
    OpaqueType,
    RankedTensorType,
    ShapeParam,
    TupleType,
    Type,
    UnrankedTensorType,
    ValueTensorType,
    VectorType,
    f64,
    i1,
    i64,
)


class SyntaxError_(Exception):
    """A semantic error found while building syntax (bad literal, bad alias)."""

    def __init__(self, message: str, token: Optional[Token]):
        super().__init__(message)
        self.message = message
        self.token = token


@dataclass(frozen=True)
class AliasRef(Attribute):
    """`#name` not yet defined when it was read (a location alias defined at
    the end of the file); replaced once all aliases are known."""

    name: str
    token: Any = field(compare=False, default=None)


@dataclass
class Use:
    """`%name` or `%name#2` at a source token."""

    name: str
    index: int
    token: Token


@dataclass
class BlockSyntax:
    label: Optional[Token]
    args: list[tuple[Token, Type, Optional[Attribute]]]
    ops: list[OpSyntax]


@dataclass
class OpSyntax:
    form: str  # the grammar rule: "custom", "generic", "func", "module", ...
    name: str
    token: Token  # where the op starts, for diagnostics
    operands: list[Use] = field(default_factory=list)
    operand_types: list[Type] = field(default_factory=list)
    result_types: Optional[list[Type]] = None  # None: to be inferred from the form
    attributes: dict[str, Attribute] = field(default_factory=dict)
    properties: Optional[dict[str, Attribute]] = None
    regions: list[list[BlockSyntax]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    results: list[tuple[str, int, int]] = field(default_factory=list)  # (name, count, column)
    result_token: Optional[Token] = None
    loc: Optional[Attribute] = None


def _decode_string(tok: Token) -> str:
    """Decode an MLIR string literal (escapes `\\n`, `\\t`, `\\"`, `\\\\`, `\\XX`)."""
    body = tok[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    i = 0
    raw = body.encode("utf-8")
    while i < len(raw):
        c = raw[i]
        if c == 0x5C and i + 1 < len(raw):  # backslash
            n = chr(raw[i + 1])
            if n in '"\\':
                out.append(raw[i + 1])
                i += 2
                continue
            if n == "n":
                out.append(10)
                i += 2
                continue
            if n == "t":
                out.append(9)
                i += 2
                continue
            hexdigits = raw[i + 1 : i + 3].decode("ascii", "replace")
            if len(hexdigits) == 2 and all(h in "0123456789abcdefABCDEF" for h in hexdigits):
                out.append(int(hexdigits, 16))
                i += 3
                continue
            raise SyntaxError_("unknown escape in string literal", tok)
        out.append(c)
        i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return out.decode("latin-1")


I64_MAX = 2**63 - 1


def _dim(text: str, token: Optional[Token]) -> Optional[int]:
    """One dimension size: `?` or an integer that fits i64 (MLIR: "invalid dimension")."""
    if text == "?":
        return None
    value = int(text)
    if value > I64_MAX:
        raise SyntaxError_("invalid dimension", token)
    return value


def _literal_shape(body: tuple, token: Token) -> tuple[int, ...]:
    """The shape of a nested `[...]` literal; every level must be uniform (MLIR's rule)."""
    shape: list[int] = []
    level: list = [body]
    while level and all(isinstance(x, tuple) for x in level):
        sizes = {len(x) for x in level}
        if len(sizes) != 1:
            raise SyntaxError_("tensor literal is invalid; ranks or sizes are not consistent between elements", token)
        shape.append(sizes.pop())
        level = [y for x in level for y in x]
    if any(isinstance(x, tuple) for x in level):
        raise SyntaxError_("tensor literal is invalid; ranks or sizes are not consistent between elements", token)
    return tuple(shape)


def _parse_dims(token: Token) -> tuple[Optional[int], ...]:
    return tuple(_dim(p, token) for p in str(token).split("x")[:-1])




def builtin_scalar(name: str) -> Type:
    if name == "index":
        return IndexType()
    if name == "none":
        return NoneType()
    for prefix, signedness in (("si", "s"), ("ui", "u"), ("i", "")):
        if name.startswith(prefix) and name[len(prefix) :].isdigit():
            return IntegerType(int(name[len(prefix) :]), signedness)
    return FloatType(name)


def torch_shape(dims: tuple[Optional[int], ...]) -> tuple[Optional[int], ...]:
    """A torch tensor shape as torch-mlir reads it: -1 (its kUnknownSize) is
    an unknown size, printed `?`; any other negative size is an error
    ("invalid size -2 for !torch.tensor type", at the `<`)."""
    if not any(d is not None and d < 0 for d in dims):
        return dims
    for d in dims:
        if d is not None and d < -1:
            raise ValueError(f"invalid size {d} for !torch.tensor type")
    return tuple(None if d == -1 else d for d in dims)


def _at_angle(tok: Token, width: int) -> Token:
    """A token at the `<` `width` columns after tok's start (the `<` of
    `!torch.vtensor<`: where torch-mlir reports a bad size)."""
    return Token("LESS", "<", line=tok.line, column=(tok.column or 1) + width)


def torch_tensor_type(name: str, params: tuple) -> DialectType:
    """Build `!torch.vtensor<[...],dtype>` / `!torch.tensor<...>` from params."""
    vs = name == "vtensor"
    if not params:
        return ValueTensorType(None, None, vs)
    if len(params) != 2:
        raise ValueError(f"'!torch.{name}' takes a shape and a dtype")
    shape_p, dtype_p = params
    shape = torch_shape(shape_p.dims) if isinstance(shape_p, ShapeParam) else None
    dtype = None if isinstance(dtype_p, Keyword) and dtype_p.text == "unk" else dtype_p
    if isinstance(dtype, DialectType) and dtype.dialect == "torch" and dtype.name == "unk":
        dtype = None
    return ValueTensorType(shape, dtype, vs)


class SyntaxBuilder(Transformer):
    """One method per grammar rule (the rule's name or its `-> alias`)."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.type_aliases: dict[str, Type] = {}
        self.attr_aliases: dict[str, Attribute] = {}
        self.alias_tokens: dict[str, Token] = {}
        self.vtensor_types: dict[str, Type] = {}
        self.items: list[Any] = []
        self.metadata: list[str] = []
        self.last_op_name: Optional[Token] = None  # the latest OP_NAME lexed (see note_op_name)

    def note_op_name(self, token: Token) -> Token:
        """Lexer callback: remember the latest op name, so that a syntax
        error in the custom form of a misspelled op (`tensor.emtpy(...)`, a
        custom op that takes no `(`) is reported as the unknown op it is."""
        self.last_op_name = token
        return token

    # -- top level -----------------------------------------------------------------
    def start(self, children: list) -> list:
        return children

    def attr_alias_def(self, c: list) -> tuple:
        name = c[0][1:]
        if name in self.attr_aliases:
            raise SyntaxError_(f"redefinition of attribute alias id '{name}'", c[0])
        self.attr_aliases[name] = c[1]
        self.alias_tokens[name] = c[0]
        return ("attr_alias", name, c[1])

    def type_alias_def(self, c: list) -> tuple:
        name = c[0][1:]
        if name in self.type_aliases:
            raise SyntaxError_(f"redefinition of type alias id '{name}'", c[0])
        self.type_aliases[name] = c[1]
        return ("type_alias", name, c[1])

    def file_metadata(self, c: list) -> tuple:
        return ("metadata", str(c[0]))

    # -- operations ----------------------------------------------------------------
    def operation(self, c: list) -> OpSyntax:
        result_def, op, loc = c
        if result_def is not None:
            op.result_token = result_def
            text = str(result_def)
            col = result_def.column
            body = text[: text.rfind("=")]
            offset = 0
            for part in body.split(","):
                stripped = part.strip()
                lead = len(part) - len(part.lstrip())
                name, _, count = stripped.partition(":")
                op.results.append((name[1:], int(count) if count else 1, col + offset + lead))
                offset += len(part) + 1
        op.loc = loc
        return op

    def _opt(self, c: list) -> Any:
        return c[0] if c else None

    opt_uses = opt_attrs = opt_named_attrs = opt_extra_attrs = opt_properties = _opt
    opt_region = opt_region_list = opt_ins = opt_typed_values = opt_result_types = _opt
    opt_visibility = opt_func_args = opt_func_results = _opt

    def trailing_attrs(self, c: list) -> list:
        return list(c)

    def generic_op(self, c: list) -> OpSyntax:
        name, uses, props, regions, attrs, fn = c
        op = OpSyntax("generic", _decode_string(name), name, uses or [], list(fn.inputs), list(fn.results), attrs or {})
        op.properties = props
        op.regions = regions or []
        return op

    def properties(self, c: list) -> dict:
        return c[0]

    def region_list(self, c: list) -> list:
        return list(c)

    def module_op(self, c: list) -> OpSyntax:
        kw, sym, attrs, region = c
        op = OpSyntax("module", MODULE, kw, attributes=attrs or {})
        if sym is not None:
            op.attributes = {"sym_name": StringAttr(_symbol(sym)), **op.attributes}
        op.regions = [region]
        return op

    def func_op(self, c: list) -> OpSyntax:
        kw, vis, sym, args, results, attrs, region = c
        op = OpSyntax("func", FUNC, kw)
        op.extra = {"visibility": str(vis) if vis is not None else None, "sym_name": _symbol(sym), "args": args or [], "results": results or [], "attrs": attrs or {}}
        if region is not None:
            op.regions = [region]
        return op

    def func_args(self, c: list) -> list:
        return list(c)

    def named_arg(self, c: list) -> tuple:
        return (c[0], c[1], c[2], c[3])

    def anon_arg(self, c: list) -> tuple:
        return (None, c[0], c[1], c[2])

    def single_result(self, c: list) -> list:
        return [(c[0], None)]

    def result_list(self, c: list) -> list:
        return [r for r in c if r is not None]

    def func_result(self, c: list) -> tuple:
        return (c[0], c[1])

    def op_name(self, c: list) -> Token:
        return c[0]

    def custom_op(self, c: list) -> OpSyntax:
        name, uses, attrs, types = c
        op_name = RETURN if name.type == "K_RETURN" else str(name)
        op = OpSyntax("custom", op_name, name, uses or [], attributes=attrs or {})
        if types is not None:
            op.operand_types, arrow, rhs = types
            op.extra["arrow"] = arrow
            if arrow:
                op.result_types = rhs
        return op

    def custom_types(self, c: list) -> tuple:
        lhs = c[0]
        rhs = c[1] if len(c) > 1 else None
        return (lhs, rhs is not None, rhs)

    def structured_op(self, c: list) -> OpSyntax:
        name, attrs, ins, outs, trailing, extra_attrs, region, result_types = c
        op = OpSyntax("structured", str(name), name, attributes=dict(attrs or {}))
        ins = ins or ([], [])
        outs = outs or ([], [])
        op.operands = ins[0] + outs[0]
        op.operand_types = ins[1] + outs[1]
        op.extra = {"num_inputs": len(ins[0]), "extra_attrs": extra_attrs}
        for key, value in trailing:
            op.attributes[key] = value
        if region is not None:
            op.regions = [region]
        op.result_types = result_types
        return op

    def ins(self, c: list) -> Optional[tuple]:
        return c[0]

    def typed_values(self, c: list) -> tuple:
        return (c[0], c[1])

    def trailing_attr(self, c: list) -> tuple:
        return (str(c[0]), c[1])

    def _constant(self, c: list, value: Optional[Attribute]) -> OpSyntax:
        attrs = c[-1] or {}
        if value is not None:
            attrs = {"value": value, **attrs}
        return OpSyntax("constant", str(c[0]), c[0], attributes=attrs)

    def constant_int(self, c: list) -> OpSyntax:
        value = int(c[1])
        if not -I64_MAX - 1 <= value <= I64_MAX:
            raise SyntaxError_("integer value too large", c[1])
        return self._constant(c, IntegerAttr(value, i64))

    def constant_float(self, c: list) -> OpSyntax:
        return self._constant(c, FloatAttr(_float_value(c[1], f64), f64))

    def constant_bool(self, c: list) -> OpSyntax:
        return self._constant(c, IntegerAttr(1 if c[1] == "true" else 0, i1))

    def constant_none(self, c: list) -> OpSyntax:
        return self._constant(c, None)

    def constant_str(self, c: list) -> OpSyntax:
        return self._constant(c, StringAttr(_decode_string(c[1])))

    def constant_device(self, c: list) -> OpSyntax:
        return self._constant(c, StringAttr(_decode_string(c[1])))

    def vtensor_literal(self, c: list) -> OpSyntax:
        kw, value, attrs, type_ = c
        return OpSyntax("literal", str(kw), kw, attributes={"value": value, **(attrs or {})}, result_types=[type_])

    def torch_operator(self, c: list) -> OpSyntax:
        kw, name, uses, attrs, fn, regions = c
        op = OpSyntax("operator", str(kw), kw, uses or [], list(fn.inputs), list(fn.results), {"name": StringAttr(_decode_string(name)), **(attrs or {})})
        op.regions = regions or []
        return op

    def symbolic_int(self, c: list) -> OpSyntax:
        kw, name, attrs, type_ = c
        return OpSyntax("symbolic_int", str(kw), kw, attributes={"symbol_name": StringAttr(_decode_string(name)), **(attrs or {})}, result_types=[type_])

    def bind_symbolic_shape(self, c: list) -> OpSyntax:
        kw, operand, syms, shape_map, attrs, type_ = c
        uses = [operand] + (syms or [])
        return OpSyntax("bind_symbolic_shape", str(kw), kw, uses, [type_] + [None] * len(syms or []), [], {"shape_expressions": shape_map, **(attrs or {})})

    def arith_constant(self, c: list) -> OpSyntax:
        return OpSyntax("arith_constant", str(c[0]), c[0], attributes={"value": c[1]})

    def cmp_op(self, c: list) -> OpSyntax:
        kind, pred, a, b, attrs, type_ = c
        op = OpSyntax("cmp", str(kind), kind, [a, b], [type_, type_], None, dict(attrs or {}))
        op.extra = {"predicate": str(pred)}
        return op

    def tensor_empty(self, c: list) -> OpSyntax:
        kw, uses, attrs, type_ = c
        uses = uses or []
        return OpSyntax("tensor_empty", str(kw), kw, uses, [IndexType()] * len(uses), [type_], attrs or {})

    def expand_shape(self, c: list) -> OpSyntax:
        kw, src, reassoc, out_shape, attrs, src_t, res_t = c
        op = OpSyntax("reshape", str(kw), kw, attributes=dict(attrs or {}))
        op.extra = {"values": [src], "reassociation": reassoc, "mixed": [out_shape]}
        op.operand_types, op.result_types = [src_t], [res_t]
        return op

    def collapse_shape(self, c: list) -> OpSyntax:
        kw, src, reassoc, attrs, src_t, res_t = c
        op = OpSyntax("reshape", str(kw), kw, attributes=dict(attrs or {}))
        op.extra = {"values": [src], "reassociation": reassoc, "mixed": []}
        op.operand_types, op.result_types = [src_t], [res_t]
        return op

    def reassociation(self, c: list) -> list:
        return [g for g in c if g is not None]

    def int_group(self, c: list) -> list:
        return [int(x) for x in c if x is not None]

    def extract_slice(self, c: list) -> OpSyntax:
        kw, src, offs, sizes, strides, attrs, src_t, res_t = c
        op = OpSyntax("slice", str(kw), kw, attributes=dict(attrs or {}))
        op.extra = {"values": [src], "mixed": [offs, sizes, strides]}
        op.operand_types, op.result_types = [src_t], [res_t]
        return op

    def insert_slice(self, c: list) -> OpSyntax:
        kw, src, dest, offs, sizes, strides, attrs, src_t, dest_t = c
        op = OpSyntax("slice", str(kw), kw, attributes=dict(attrs or {}))
        op.extra = {"values": [src, dest], "mixed": [offs, sizes, strides]}
        op.operand_types, op.result_types = [src_t, dest_t], [dest_t]
        return op

    def pad_op(self, c: list) -> OpSyntax:
        kw, src, nofold, low, high, region, attrs, src_t, res_t = c
        op = OpSyntax("slice", str(kw), kw, attributes=dict(attrs or {}))
        if nofold is not None:
            op.attributes["nofold"] = UnitAttr()
        op.extra = {"values": [src], "mixed": [low, high]}
        op.operand_types, op.result_types = [src_t], [res_t]
        op.regions = [region]
        return op

    def extract_op(self, c: list) -> OpSyntax:
        kw, src, idx, attrs, type_ = c
        idx = idx or []
        return OpSyntax("extract", str(kw), kw, [src] + idx, [type_] + [IndexType()] * len(idx), None, attrs or {})

    def linalg_index(self, c: list) -> OpSyntax:
        kw, dim, attrs, type_ = c
        return OpSyntax("linalg_index", str(kw), kw, [], [], [type_], {"dim": IntegerAttr(int(dim), i64), **(attrs or {})})

    def concat_op(self, c: list) -> OpSyntax:
        kw, dim, uses, attrs, fn = c
        return OpSyntax("concat", str(kw), kw, uses, list(fn.inputs), list(fn.results), {"dim": IntegerAttr(int(dim), i64), **(attrs or {})})

    def assert_op(self, c: list) -> OpSyntax:
        kw, cond, message, attrs = c
        return OpSyntax("assert", str(kw), kw, [cond], [i1], [], {"msg": StringAttr(_decode_string(message)), **(attrs or {})})

    def tm_scatter(self, c: list) -> OpSyntax:
        """tm_tensor.scatter: a structured op with `unique_indices(B)` (an attribute)."""
        kw, attrs, unique, ins, outs, region, result_types = c
        op = self.structured_op([kw, attrs, ins, outs, [], None, region, result_types])
        op.attributes["unique_indices"] = IntegerAttr(1 if unique == "true" else 0, i1)
        return op

    def affine_apply(self, c: list) -> OpSyntax:
        kw, map_, dims, syms, attrs = c
        if isinstance(map_, Token):  # #map: an alias
            map_ = self.hash_ref([map_])
        uses = (dims or []) + (syms or [])
        op = OpSyntax("affine_apply", str(kw), kw, uses, [IndexType()] * len(uses), [IndexType()], {"map": map_, **(attrs or {})})
        op.extra = {"num_dims": len(dims or [])}
        return op

    def index_list(self, c: list) -> list:
        return [x for x in c if x is not None]

    def value_use_list(self, c: list) -> list:
        return list(c)

    def value_use(self, c: list) -> Use:
        tok = c[0]
        text = str(tok)[1:]
        name, _, idx = text.partition("#")
        return Use(name, int(idx) if idx else 0, tok)

    # -- regions ---------------------------------------------------------------------
    def region(self, c: list) -> list:
        ops: list[OpSyntax] = []
        blocks: list[BlockSyntax] = []
        for item in c:
            if isinstance(item, OpSyntax):
                ops.append(item)
            else:
                blocks.append(item)
        result: list[BlockSyntax] = []
        if ops or not blocks:
            result.append(BlockSyntax(None, [], ops))
        result.extend(blocks)
        return result

    def block(self, c: list) -> BlockSyntax:
        label = c[0]
        args = [a for a in c[1:] if isinstance(a, tuple)]
        ops = [o for o in c[1:] if isinstance(o, OpSyntax)]
        return BlockSyntax(label, args, ops)

    def block_arg(self, c: list) -> tuple:
        return (c[0], c[1], c[2])

    # -- types -----------------------------------------------------------------------------
    def type_list(self, c: list) -> list:
        return list(c)

    def function_type(self, c: list) -> FunctionType:
        inputs = c[0] or []
        res = c[1] if len(c) > 1 else None
        if res is None:
            results: tuple = ()
        elif isinstance(res, list):
            results = tuple(res)
        else:
            results = (res,)
        return FunctionType(tuple(inputs), results)

    def builtin_type(self, c: list) -> Type:
        return builtin_scalar(str(c[0]))

    def ranked_tensor(self, c: list) -> Type:
        return RankedTensorType(_parse_dims(c[0]), c[1], c[2])

    def ranked_tensor0(self, c: list) -> Type:
        return RankedTensorType((), c[0], c[1])

    def unranked_tensor(self, c: list) -> Type:
        return UnrankedTensorType(c[1])

    def vector_type(self, c: list) -> Type:
        dims = _parse_dims(c[0])
        if any(x is None for x in dims):
            raise SyntaxError_("vector types must have static shape", c[0])
        return VectorType(tuple(x for x in dims if x is not None), c[1])

    def memref_type(self, c: list) -> Type:
        dims = "" if c[0] is None else str(c[0])
        rest = "".join(f", {a}" for a in c[2:])
        return OpaqueType(f"memref<{dims}{c[1]}{rest}>")

    def complex_type(self, c: list) -> Type:
        return ComplexType(c[0])

    def tuple_type(self, c: list) -> Type:
        return TupleType(tuple(c[0] or []))

    def dialect_type(self, c: list) -> Type:
        tok, params = c
        name = str(tok)[1:]
        if "." not in name:
            if params is None and name in self.type_aliases:
                return self.type_aliases[name]
            raise SyntaxError_(f"undefined symbol alias id '{name}'", tok)
        dialect, _, rest = name.partition(".")
        params_t = tuple(params or ())
        if dialect == "torch" and rest in ("vtensor", "tensor"):
            try:
                return torch_tensor_type(rest, params_t)
            except ValueError as e:
                raise SyntaxError_(str(e), _at_angle(tok, len(str(tok)))) from None
        return DialectType(dialect, rest, params_t)

    def vtensor_type(self, c: list) -> Type:
        """`!torch.vtensor<[2,?],f32>` in one token: the type `dialect_type`
        builds from the same text, made once per distinct text."""
        text = str(c[0])
        t = self.vtensor_types.get(text)
        if t is None:
            dims, _, dtype = text[len("!torch.vtensor<[") : -1].partition("],")
            shape = ShapeParam(tuple(_dim(x, c[0]) for x in dims.split(",")) if dims else ())
            try:
                t = torch_tensor_type("vtensor", (shape, builtin_scalar(dtype)))
            except ValueError as e:
                raise SyntaxError_(str(e), _at_angle(c[0], len("!torch.vtensor"))) from None
            self.vtensor_types[text] = t
        return t

    def dialect_params(self, c: list) -> list:
        return list(c)

    def shape_param(self, c: list) -> ShapeParam:
        return ShapeParam(tuple(_dim(str(x), x) for x in c if x is not None))

    def star_param(self, c: list) -> Keyword:
        return Keyword("*")

    def int_param(self, c: list) -> int:
        return int(c[0])

    def string_param(self, c: list) -> str:
        return _decode_string(c[0])

    def short_type(self, c: list) -> Type:
        tok, params = c
        name = str(tok)
        params_t = tuple(params or ())
        if name in ("vtensor",):
            try:
                return torch_tensor_type(name, params_t)
            except ValueError as e:
                raise SyntaxError_(str(e), _at_angle(tok, len(name))) from None
        if not params_t and name == "unk":
            return Keyword("unk")  # type: ignore[return-value]
        return DialectType("torch", name, params_t)

    def short_tensor(self, c: list) -> Type:
        return ValueTensorType(None, None, False)

    # -- attributes -----------------------------------------------------------------------
    def attr_dict(self, c: list) -> dict:
        out: dict[str, Attribute] = {}
        for entry in c:
            if entry is None:
                continue
            key, value = entry
            out[key] = value
        return out

    def attr_entry(self, c: list) -> tuple:
        key = c[0]
        name = _decode_string(key) if key.type == "STRING" else str(key)
        return (name, c[1] if c[1] is not None else UnitAttr())

    def number_attr(self, c: list) -> Attribute:
        tok, type_ = c
        text = str(tok)
        if tok.type == "FLOAT":
            t = type_ if type_ is not None else f64
            if not isinstance(t, FloatType):
                raise SyntaxError_("floating point value not valid for specified type", tok)
            return FloatAttr(float(text), t)
        if tok.type == "HEX":
            if isinstance(type_, FloatType):
                return FloatAttr(float_from_hex(text, type_), type_)
            return IntegerAttr(int(text, 16), type_ if type_ is not None else i64)
        t = type_ if type_ is not None else i64
        if isinstance(t, FloatType):
            raise SyntaxError_("unexpected decimal integer literal for a floating point value", tok)
        if not isinstance(t, (IntegerType, IndexType)):
            raise SyntaxError_(f"integer literal not valid for specified type '{t}'", tok)
        value = int(text)
        if isinstance(t, IntegerType):
            bits = t.width
            lo = -(1 << (bits - 1)) if t.signedness != "u" else 0
            hi = (1 << bits) - 1 if t.signedness != "s" else (1 << (bits - 1)) - 1
            if t.signedness == "" and bits == 1:
                lo, hi = 0, 1
            if not lo <= value <= hi:
                raise SyntaxError_("integer constant out of range for attribute", tok)
        elif not -I64_MAX - 1 <= value <= I64_MAX:  # index: MLIR reads it as a signed i64
            raise SyntaxError_("integer constant out of range for attribute", tok)
        return IntegerAttr(value, t)

    def bool_attr(self, c: list) -> Attribute:
        return IntegerAttr(1 if c[0] == "true" else 0, i1)

    def unit_attr(self, c: list) -> Attribute:
        return UnitAttr()

    def string_attr(self, c: list) -> Attribute:
        return StringAttr(_decode_string(c[0]))

    def array_attr(self, c: list) -> Attribute:
        return ArrayAttr(tuple(x for x in c if x is not None))

    def dense_attr(self, c: list) -> Attribute:
        # `[_dense_body]` is inlined, so Lark leaves no placeholder for `dense<>`
        body, type_ = (c[1], c[2]) if len(c) == 3 else (None, c[1])
        if isinstance(body, Token) and body.type == "DENSE_NUMBERS":
            body = _dense_numbers(body)
        elif isinstance(body, Token):
            body = str(body)
        shape = getattr(type_, "shape", None)
        if isinstance(body, tuple) and shape is not None and None not in shape:
            inferred = _literal_shape(body, c[0])
            if inferred != tuple(shape):
                got, want = ", ".join(map(str, inferred)), ", ".join(map(str, shape))
                raise SyntaxError_(f"inferred shape of elements literal ([{got}]) does not match type ([{want}])", c[0])
        return DenseAttr(body, type_)

    def dense_list(self, c: list) -> tuple:
        return tuple(str(x) if isinstance(x, Token) else x for x in c if x is not None)

    def dense_complex(self, c: list) -> str:
        return f"({c[0]}, {c[1]})"

    def dense_resource_attr(self, c: list) -> Attribute:
        return DenseResourceAttr(str(c[0]), c[1])

    def dense_array_attr(self, c: list) -> Attribute:
        type_ = c[0]
        values: list = []
        for tok in c[1:]:
            if tok is None:
                continue
            if tok.type == "BOOL":
                values.append(1 if tok == "true" else 0)
            elif tok.type == "FLOAT":
                values.append(float(tok))
            else:
                values.append(int(tok))
        return DenseArrayAttr(type_, tuple(values))

    def symbol_ref_attr(self, c: list) -> Attribute:
        names = [_symbol(t) for t in c]
        return SymbolRefAttr(names[0], tuple(names[1:]))

    def hash_ref(self, c: list) -> Attribute:
        name = str(c[0])[1:]
        if name in self.attr_aliases:
            return self.attr_aliases[name]
        if "." in name:
            return OpaqueAttr(str(c[0]))
        return AliasRef(name, c[0])

    def opaque_attr(self, c: list) -> Attribute:
        return OpaqueAttr(str(c[0]))

    def type_attr(self, c: list) -> Attribute:
        return TypeAttr(c[0])

    def number(self, c: list) -> Token:
        return c[0]

    # -- affine -----------------------------------------------------------------------------
    def affine_map_attr(self, c: list) -> Attribute:
        return AffineMapAttr(c[0])

    def affine_map(self, c: list) -> affine.AffineMap:
        dim_names, sym_names, exprs = c
        env = {n: affine.AffineDim(i) for i, n in enumerate(dim_names)}
        env.update({n: affine.AffineSym(i) for i, n in enumerate(sym_names or [])})
        return affine.AffineMap(len(dim_names), len(sym_names or []), tuple(e(env) for e in exprs))

    def affine_dims(self, c: list) -> list:
        return [str(x) for x in c if x is not None]

    def affine_symbols(self, c: list) -> list:
        return [str(x) for x in c if x is not None]

    def affine_results(self, c: list) -> list:
        return [x for x in c if x is not None]

    # Affine expressions are built as closures over the dim/symbol names, which
    # are only known when the whole map has been read.
    def aff_id(self, c: list):
        tok = c[0]

        def build(env):
            if str(tok) not in env:
                raise SyntaxError_(f"use of undeclared identifier '{tok}' in affine expression", tok)
            return env[str(tok)]

        return _located(build, tok)

    def aff_int(self, c: list):
        value = int(c[0])
        return _located(lambda env: affine.AffineConst(value), c[0])

    def aff_neg(self, c: list):
        inner = c[0]
        return _located(lambda env: -inner(env), inner)

    def _aff_bin(self, c: list, fn, rule: Optional[str] = None):
        a, b = c

        def build(env):
            x, y = a(env), b(env)
            # MLIR's rule: a product needs a factor, a division a divisor, without dimensions
            if rule == "mul" and _has_dims(x) and _has_dims(y):
                raise SyntaxError_("non-affine expression: at least one of the multiply operands has to be either a constant or symbolic", _token_of(a))
            if rule == "div" and _has_dims(y):
                raise SyntaxError_("non-affine expression: right operand of floordiv, ceildiv or mod has to be either a constant or symbolic", _token_of(b))
            return fn(x, y)

        return _located(build, a)

    def aff_add(self, c):
        return self._aff_bin(c, lambda x, y: x + y)

    def aff_sub(self, c):
        return self._aff_bin(c, lambda x, y: x - y)

    def aff_mul(self, c):
        return self._aff_bin(c, lambda x, y: x * y, "mul")

    def aff_floordiv(self, c):
        return self._aff_bin(c, lambda x, y: x.floordiv(y), "div")

    def aff_ceildiv(self, c):
        return self._aff_bin(c, lambda x, y: x.ceildiv(y), "div")

    def aff_mod(self, c):
        return self._aff_bin(c, lambda x, y: x.mod(y), "div")

    # -- locations ---------------------------------------------------------------------------
    def location(self, c: list) -> Attribute:
        return c[0]

    def loc_unknown(self, c: list) -> Location:
        return UnknownLoc()

    def loc_file(self, c: list) -> Location:
        fname, line, col, rng = c
        return FileLineColLoc(_decode_string(fname), int(line), int(col), rng)

    def loc_range(self, c: list) -> tuple:
        return (int(c[0]) if c[0] is not None else None, int(c[1]))

    def loc_name(self, c: list) -> Location:
        return NameLoc(_decode_string(c[0]), c[1])

    def loc_callsite(self, c: list) -> Location:
        return CallSiteLoc(c[0], c[1])

    def loc_fused(self, c: list) -> Location:
        meta, *locs = c
        return FusedLoc(tuple(l for l in locs if l is not None), meta)

    def loc_meta(self, c: list) -> Attribute:
        return c[0]

    def loc_alias(self, c: list) -> Attribute:
        name = str(c[0])[1:]
        if name in self.attr_aliases:
            return self.attr_aliases[name]
        return AliasRef(name, c[0])


def _located(build: Any, at: Any) -> Any:
    """Tag an affine-expression builder with its first token, for errors."""
    build.token = at if isinstance(at, Token) else _token_of(at)
    return build


def _token_of(build: Any) -> Optional[Token]:
    return getattr(build, "token", None)


def _has_dims(e: affine.AffineExpr) -> bool:
    if isinstance(e, affine.AffineDim):
        return True
    if isinstance(e, affine.AffineBinary):
        return _has_dims(e.lhs) or _has_dims(e.rhs)
    return False


def _symbol(tok: Token) -> str:
    text = str(tok)[1:]
    if text.startswith('"'):
        return _decode_string(Token("STRING", text))
    return text


def _float_value(tok: Token, t: Type) -> float:
    if tok.type == "HEX":
        return float_from_hex(str(tok), t)
    if tok.type == "SIGNED_INT":
        raise SyntaxError_("unexpected decimal integer literal for a floating point value", tok)
    return float(str(tok))


_NUM = r"-?[0-9]+(?:\.[0-9]*(?:[eE][-+]?[0-9]+)?)?"
_FLAT = re.compile(r"\[\s*(?:" + _NUM + r"\s*(?:,\s*" + _NUM + r"\s*)*)?\]")
_DENSE_TOKENS = re.compile(r"\[|\]|,|[^\s\[\],]+")
_NUM_RE = re.compile(_NUM)


def _dense_numbers(tok: Token) -> tuple:
    """The body of `dense<[...]>` lexed as one DENSE_NUMBERS token: nested
    tuples of the literal texts, as dense_list builds them."""
    text = str(tok)
    if _FLAT.fullmatch(text):  # the common case: one flat list, validated by one regex
        inner = text[1:-1].strip()
        return tuple(x.strip() for x in inner.split(",")) if inner else ()
    stack: list[list] = []
    result: tuple = ()
    expect_elem = True
    for m in _DENSE_TOKENS.finditer(text):
        t = m.group()
        if t == "[":
            if not expect_elem:
                raise SyntaxError_("expected ',' or ']' in dense literal", tok)
            stack.append([])
        elif t == "]":
            if not stack or (expect_elem and stack[-1]):
                raise SyntaxError_("unexpected ']' in dense literal", tok)
            done = tuple(stack.pop())
            if stack:
                stack[-1].append(done)
            else:
                result = done
            expect_elem = False
        elif t == ",":
            if expect_elem or not stack:
                raise SyntaxError_("unexpected ',' in dense literal", tok)
            expect_elem = True
        else:
            if not expect_elem or not stack or not _NUM_RE.fullmatch(t):
                raise SyntaxError_(f"invalid element '{t}' in dense literal", tok)
            stack[-1].append(t)
            expect_elem = False
    if stack:
        raise SyntaxError_("unbalanced '[' in dense literal", tok)
    return result
