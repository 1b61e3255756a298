"""tensor: empty, dim, extract/insert_slice, pad, expand/collapse_shape,
extract, cast, yield."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Optional, Union

from ..ir.attributes import DYNAMIC_INDEX, ArrayAttr, Attribute, DenseArrayAttr, IntegerAttr
from ..ir.core import Block, Operation, Region, Value
from ..ir.types import FunctionType, IndexType, RankedTensorType, Type, i32, i64, index
from .base import BuilderAPI, OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, build_segmented, cast_op, fail, fits_i64, ranked, rest, segment_sizes, segments
from .func import print_terminator, terminator_types

EMPTY = "tensor.empty"
DIM = "tensor.dim"
EXTRACT_SLICE = "tensor.extract_slice"
INSERT_SLICE = "tensor.insert_slice"
PAD = "tensor.pad"
EXPAND_SHAPE = "tensor.expand_shape"
COLLAPSE_SHAPE = "tensor.collapse_shape"
EXTRACT = "tensor.extract"
CAST = "tensor.cast"
YIELD = "tensor.yield"
SPLAT = "tensor.splat"
CONCAT = "tensor.concat"
FROM_ELEMENTS = "tensor.from_elements"
INSERT = "tensor.insert"
RESHAPE = "tensor.reshape"
GENERATE = "tensor.generate"


def _result_fits(op: Operation, what: str = "its result") -> RankedTensorType:
    """op's ranked result, its static sizes checked by fits_i64."""
    t = ranked(op, op.results[0].type, what)
    fits_i64(op, "static size", t.shape)
    return t


def _required_static(op: Operation, name: str) -> Sequence[int]:
    """The i64 array attribute `name` of a slice or pad op, which the generic
    form can leave out or misspell (the custom form always has it); its
    values checked by fits_i64."""
    values = op.attributes.get(name)
    if values is None:
        raise fail(op, f"requires attribute '{name}'")
    if not isinstance(values, DenseArrayAttr) or values.element_type != i64:
        raise fail(op, f"attribute '{name}' failed to satisfy constraint: i64 dense array attribute")
    fits_i64(op, name, values.values)
    return values.values


def _mixed_fits(static: object, dynamic: Sequence[Value]) -> bool:
    """A static array with one DYNAMIC_INDEX per dynamic value."""
    return isinstance(static, DenseArrayAttr) and static.values.count(DYNAMIC_INDEX) == len(dynamic)


def _print_mixed(p: PrinterAPI, static: object, dynamic: Sequence[Value]) -> str:
    """`[0, %a, 4]`: static values with the dynamic ones in their places."""
    assert isinstance(static, DenseArrayAttr)
    if not dynamic:
        return "[" + ", ".join(map(str, static.values)) + "]"
    it = iter(dynamic)
    items = [p.value(next(it)) if v == DYNAMIC_INDEX else str(v) for v in static.values]
    return "[" + ", ".join(items) + "]"


# --- tensor.empty ---------------------------------------------------------------------------

def _print_empty(p: PrinterAPI, op: Operation) -> str:
    return f"{EMPTY}({p.values(op.operands)}){p.attr_dict(op.attributes)} : {op.results[0].type}"


def _verify_empty(op: Operation) -> None:
    t = _result_fits(op, "the result")
    dynamic = sum(1 for d in t.shape if d is None)
    if len(op.operands) != dynamic:
        raise fail(op, f"incorrect number of dynamic sizes, has {len(op.operands)}, expected {dynamic}")
    for v in op.operands:
        if not isinstance(v.type, IndexType):
            raise fail(op, "expects index operands")


def _parse_empty(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    ops = r.operands(syn, syn.operands, list(syn.operand_types))
    return Operation(syn.name, ops, syn.result_types or [], syn.attributes)


# --- tensor.dim ------------------------------------------------------------------------------

def _print_dim(p: PrinterAPI, op: Operation) -> str:
    return f"tensor.dim {p.values(op.operands)}{p.attr_dict(op.attributes)} : {op.operands[0].type}"


def _dim_types(r: ResolverAPI, syn: OpSyntaxAPI, lhs: list[Type]) -> tuple[list[Optional[Type]], list[Type]]:
    """`tensor.dim %t, %i : T`."""
    return [lhs[0] if lhs else None, index], [index]


def _verify_dim(op: Operation) -> None:
    ranked(op, op.operands[0].type, "its source")


# --- slices and padding: offsets/sizes/strides (or low/high) as mixed lists ------------------------

SLICE_ATTRS = ("static_offsets", "static_sizes", "static_strides")
PAD_ATTRS = ("static_low", "static_high")


def _mixed_attrs(op: Operation) -> tuple[str, ...]:
    return PAD_ATTRS if op.name == PAD else SLICE_ATTRS


def _fits_mixed(op: Operation) -> bool:
    """Each static array matches its segment of dynamic operands."""
    names = _mixed_attrs(op)
    for k, d in zip(names, segments(op)[-len(names) :]):
        if not _mixed_fits(op.attributes[k], d):
            return False
    return True


def _print_mixed_lists(p: PrinterAPI, op: Operation, sep: str) -> str:
    names = _mixed_attrs(op)
    return sep.join([_print_mixed(p, op.attributes[k], d) for k, d in zip(names, segments(op)[-len(names) :])])


def _print_extract_slice(p: PrinterAPI, op: Operation) -> str:
    src = op.operands[0]
    return f"tensor.extract_slice {p.value(src)}{_print_mixed_lists(p, op, ' ')}{p.attr_dict(rest(op, *SLICE_ATTRS))} : {src.type} to {op.results[0].type}"


def _print_insert_slice(p: PrinterAPI, op: Operation) -> str:
    src, dest = op.operands[0], op.operands[1]
    return (
        f"tensor.insert_slice {p.value(src)} into {p.value(dest)}{_print_mixed_lists(p, op, ' ')}"
        f"{p.attr_dict(rest(op, *SLICE_ATTRS))} : {src.type} into {dest.type}"
    )


def _print_pad(p: PrinterAPI, op: Operation) -> str:
    src = op.operands[0]
    low, high = segments(op)[1:]
    nofold = " nofold" if "nofold" in op.attributes else ""
    region = p.region(op.regions[0])
    return (
        f"tensor.pad {p.value(src)}{nofold} low{_print_mixed(p, op.attributes['static_low'], low)} "
        f"high{_print_mixed(p, op.attributes['static_high'], high)} {region}{p.attr_dict(rest(op, *PAD_ATTRS, 'nofold'))} : {src.type} to {op.results[0].type}"
    )


def _fits_slice(op: Operation) -> bool:
    return segment_sizes(op)[0] == 1 and _fits_mixed(op)  # type: ignore[index]


def _fits_insert(op: Operation) -> bool:
    return segment_sizes(op)[:2] == (1, 1) and _fits_mixed(op)  # type: ignore[index]


def _fits_pad(op: Operation) -> bool:
    return len(op.regions) >= 1 and _fits_slice(op)


def _slice_shape(op: Operation, source: RankedTensorType, result: RankedTensorType) -> None:
    offsets, sizes, strides = (_required_static(op, name) for name in SLICE_ATTRS)
    rank = len(source.shape)
    if not (len(offsets) == len(sizes) == len(strides) == rank):
        raise fail(op, f"expected {rank} offset, size and stride values")
    if len(result.shape) != rank:
        raise fail(op, "rank-reducing slices are not supported by convopt")
    for i, (o, sz, st, dim, rdim) in enumerate(zip(offsets, sizes, strides, source.shape, result.shape)):
        if o < 0 and o != DYNAMIC_INDEX:  # (MLIR allows any stride)
            raise fail(op, f"expected offsets to be non-negative, but got {o}")
        if sz < 0 and sz != DYNAMIC_INDEX:
            raise fail(op, f"expected sizes to be non-negative, but got {sz}")
        if sz != DYNAMIC_INDEX and rdim is not None and sz != rdim:
            raise fail(op, f"expected type to be '{RankedTensorType(tuple(None if s == DYNAMIC_INDEX else s for s in sizes), result.element_type)}' or a rank-reduced version. (size mismatch)")
        # sz > 0 excludes a dynamic size (DYNAMIC_INDEX is negative)
        if dim is not None and sz > 0 and o != DYNAMIC_INDEX and st != DYNAMIC_INDEX and o + (sz - 1) * st >= dim:
            raise fail(op, f"slice along dimension {i} runs out of bounds: offset {o}, size {sz}, stride {st} in a dimension of size {dim}")


def _verify_cast(op: Operation) -> None:
    """Same element type; ranks equal and static sizes equal where both are known."""
    a, b = op.operands[0].type, op.results[0].type
    ea, eb = getattr(a, "element_type", None), getattr(b, "element_type", None)
    compatible = ea is not None and ea == eb
    if compatible and isinstance(a, RankedTensorType) and isinstance(b, RankedTensorType):
        compatible = a.rank == b.rank and all(x is None or y is None or x == y for x, y in zip(a.shape, b.shape))
    if not compatible:
        raise fail(op, f"operand type '{a}' and result type '{b}' are cast incompatible")


def _verify_extract_slice(op: Operation) -> None:
    _slice_shape(op, ranked(op, op.operands[0].type, "its source"), _result_fits(op))


def _verify_insert_slice(op: Operation) -> None:
    dest = ranked(op, op.operands[1].type, "its destination")
    if op.results[0].type != dest:
        raise fail(op, "expects the result type to match the destination type")
    _slice_shape(op, dest, ranked(op, op.operands[0].type, "its source"))


def _verify_pad(op: Operation) -> None:
    src = ranked(op, op.operands[0].type, "its source")
    res = _result_fits(op)
    low, high = (_required_static(op, name) for name in PAD_ATTRS)
    if not (len(low) == len(high) == src.rank == res.rank):
        raise fail(op, "expects low and high padding for every dimension")
    for i, (lo, hi, s, r) in enumerate(zip(low, high, src.shape, res.shape)):
        if DYNAMIC_INDEX in (lo, hi) or s is None or r is None:
            continue
        if s + lo + hi != r:
            raise fail(op, f"specified type '{res}' does not match the inferred type along dimension {i}")
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise fail(op, "expects a region with one block")


def _parse_slice(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    """extract_slice, insert_slice and pad: the values, then the mixed lists."""
    values = r.operands(syn, syn.extra["values"], list(syn.operand_types))
    names = PAD_ATTRS if syn.name == PAD else SLICE_ATTRS
    attrs: dict[str, Attribute] = {}
    dynamic: list[Value] = []
    sizes = [1] * len(values)
    for key, items in zip(names, syn.extra["mixed"]):
        static, dyn = r.mixed(syn, items, len(values) + len(dynamic))
        attrs[key] = DenseArrayAttr(i64, static)
        dynamic += dyn
        sizes.append(len(dyn))
    attrs.update(syn.attributes)
    props: dict[str, Attribute] = {"operandSegmentSizes": DenseArrayAttr(i32, tuple(sizes))}
    return Operation(syn.name, values + dynamic, syn.result_types or [], attrs, r.regions(syn), properties=props)


# --- expand_shape / collapse_shape -------------------------------------------------------------

def _fits_reassociation(op: Operation) -> bool:
    attr = op.attributes["reassociation"]
    return (
        len(op.operands) >= 1 and len(op.results) >= 1 and isinstance(attr, ArrayAttr)
        and all(isinstance(g, ArrayAttr) and all(isinstance(i, IntegerAttr) for i in g.elements) for g in attr.elements)
    )


def _print_reassociation(attr: object) -> str:
    assert isinstance(attr, ArrayAttr)
    return "[" + ", ".join("[" + ", ".join(str(i.value) for i in g.elements) + "]" for g in attr.elements) + "]"  # type: ignore[attr-defined]


def _fits_expand(op: Operation) -> bool:
    return _fits_reassociation(op) and _mixed_fits(op.attributes["static_output_shape"], op.operands[1:])


def _print_expand(p: PrinterAPI, op: Operation) -> str:
    src = op.operands[0]
    shape = _print_mixed(p, op.attributes["static_output_shape"], list(op.operands[1:]))
    others = rest(op, "reassociation", "static_output_shape")
    return f"tensor.expand_shape {p.value(src)} {_print_reassociation(op.attributes['reassociation'])} output_shape {shape}{p.attr_dict(others)} : {src.type} into {op.results[0].type}"


def _print_collapse(p: PrinterAPI, op: Operation) -> str:
    src = op.operands[0]
    return f"tensor.collapse_shape {p.value(src)} {_print_reassociation(op.attributes['reassociation'])}{p.attr_dict(rest(op, 'reassociation'))} : {src.type} into {op.results[0].type}"


def _verify_reshape(op: Operation) -> None:
    src = ranked(op, op.operands[0].type, "its source")
    res = _result_fits(op)
    reassoc = op.attributes.get("reassociation")
    if not isinstance(reassoc, ArrayAttr):
        raise fail(op, "requires a 'reassociation' attribute")
    groups = [[e.value for e in g.elements] for g in reassoc.elements]  # type: ignore[attr-defined]
    collapsed, expanded = (res, src) if op.name == COLLAPSE_SHAPE else (src, res)
    if len(groups) != collapsed.rank or sorted(i for g in groups for i in g) != list(range(expanded.rank)):
        raise fail(op, "reassociation does not match the ranks of the source and result")
    for g, size in zip(groups, collapsed.shape):
        dims = [expanded.shape[i] for i in g]
        if size is not None and None not in dims:
            prod = 1
            for x in dims:
                prod *= x  # type: ignore[operator]
            if prod != size:
                raise fail(op, f"expected dimension of size {size} to be the product of {dims}")


def _parse_reshape(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    src = r.operands(syn, syn.extra["values"], list(syn.operand_types))
    reassoc = ArrayAttr(tuple(ArrayAttr(tuple(IntegerAttr(i, i64) for i in g)) for g in syn.extra["reassociation"]))
    attrs: dict[str, Attribute] = {"reassociation": reassoc}
    dynamic: list[Value] = []
    if syn.name == EXPAND_SHAPE:
        static, dynamic = r.mixed(syn, syn.extra["mixed"][0], 1)
        attrs["static_output_shape"] = DenseArrayAttr(i64, static)
    attrs.update(syn.attributes)
    return Operation(syn.name, src + dynamic, syn.result_types or [], attrs)


# --- tensor.extract --------------------------------------------------------------------------------

def _print_extract(p: PrinterAPI, op: Operation) -> str:
    return f"tensor.extract {p.value(op.operands[0])}[{p.values(op.operands[1:])}]{p.attr_dict(op.attributes)} : {op.operands[0].type}"


def _verify_extract(op: Operation) -> None:
    t = ranked(op, op.operands[0].type, "its source")
    if len(op.operands) != 1 + t.rank:
        raise fail(op, f"expects {t.rank} indices")


def _parse_extract(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    ops = r.operands(syn, syn.operands, list(syn.operand_types))
    t = syn.operand_types[0]
    if not isinstance(t, RankedTensorType):
        raise r.fail("'tensor.extract' expects a ranked tensor type", syn.token)
    return Operation(syn.name, ops, [t.element_type], syn.attributes)


def _print_concat(p: PrinterAPI, op: Operation) -> str:
    fn = FunctionType(tuple(v.type for v in op.operands), (op.results[0].type,))
    return f"tensor.concat dim({op.attributes['dim'].value}) {p.values(op.operands)}{p.attr_dict(rest(op, 'dim'))} : {fn}"  # type: ignore[attr-defined]


def _parse_concat(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    ops = r.operands(syn, syn.operands, list(syn.operand_types))
    return Operation(syn.name, ops, syn.result_types or [], syn.attributes)


def _verify_concat(op: Operation) -> None:
    """The inputs and the result have one rank; along `dim` the static sizes
    add up, along the others they agree (dynamic sizes are not checked)."""
    dim = op.attributes.get("dim")
    result = ranked(op, op.results[0].type, "its result")
    if not isinstance(dim, IntegerAttr) or not 0 <= dim.value < result.rank:
        raise fail(op, f"expects a dim attribute in [0, {result.rank})")
    total: Optional[int] = 0
    for i, v in enumerate(op.operands):
        t = ranked(op, v.type, f"operand #{i}")
        if t.rank != result.rank or t.element_type != result.element_type:
            raise fail(op, f"expects operand #{i} of type '{t}' to have the result's rank and element type")
        for d, (a, b) in enumerate(zip(t.shape, result.shape)):
            if d != dim.value and a is not None and b is not None and a != b:
                raise fail(op, f"expects operand #{i} to have size {b} along dim {d}, found {a}")
        a = t.shape[dim.value]
        total = None if total is None or a is None else total + a
    if total is not None and result.shape[dim.value] is not None and total != result.shape[dim.value]:
        raise fail(op, f"expects the sizes along dim {dim.value} to add up to {result.shape[dim.value]}, found {total}")


def _named(hint: str):
    return lambda op: hint


_SLICE_SEGMENTS = ("source", "offsets", "sizes", "strides")

OPS: dict[str, OpDef] = {
    EMPTY: OpDef(
        EMPTY, results=1, print=_print_empty, parse=_parse_empty, verify=_verify_empty, pure=True,
    ),
    DIM: OpDef(
        DIM, operands=2, results=1, print=_print_dim, colon_types=_dim_types, verify=_verify_dim,
        result_name=_named("dim"), pure=True,
    ),
    EXTRACT_SLICE: OpDef(
        EXTRACT_SLICE, results=1, segments=_SLICE_SEGMENTS, attrs=SLICE_ATTRS, print=_print_extract_slice, fits=_fits_slice,
        parse=_parse_slice, verify=_verify_extract_slice, result_name=_named("extracted_slice"), pure=True,
    ),
    INSERT_SLICE: OpDef(
        INSERT_SLICE, results=1, segments=("source", "dest") + _SLICE_SEGMENTS[1:], attrs=SLICE_ATTRS, print=_print_insert_slice,
        fits=_fits_insert, parse=_parse_slice, verify=_verify_insert_slice, result_name=_named("inserted_slice"), pure=True,
    ),
    PAD: OpDef(
        PAD, results=1, segments=("source", "low", "high"), attrs=PAD_ATTRS, optional_attrs=("nofold",), print=_print_pad, fits=_fits_pad,
        parse=_parse_slice, verify=_verify_pad, result_name=_named("padded"), pure=True,
    ),
    EXPAND_SHAPE: OpDef(
        EXPAND_SHAPE, attrs=("reassociation", "static_output_shape"), print=_print_expand, fits=_fits_expand,
        parse=_parse_reshape, verify=_verify_reshape, result_name=_named("expanded"), pure=True,
    ),
    COLLAPSE_SHAPE: OpDef(
        COLLAPSE_SHAPE, attrs=("reassociation",), print=_print_collapse, fits=_fits_reassociation,
        parse=_parse_reshape, verify=_verify_reshape, result_name=_named("collapsed"), pure=True,
    ),
    EXTRACT: OpDef(
        EXTRACT, print=_print_extract, fits=lambda op: len(op.operands) >= 1, parse=_parse_extract, verify=_verify_extract,
        result_name=_named("extracted"), pure=True,
    ),
    CAST: cast_op(CAST, result_name=_named("cast"), verify=_verify_cast, pure=True),
    CONCAT: OpDef(
        CONCAT, results=1, attrs=("dim",), print=_print_concat, fits=lambda op: isinstance(op.attributes.get("dim"), IntegerAttr) and len(op.operands) >= 1,
        parse=_parse_concat, verify=_verify_concat, result_name=_named("concat"), pure=True, rejects_properties=False,
    ),
    YIELD: OpDef(YIELD, print=print_terminator, colon_types=terminator_types, terminator=True, functional_types=False),
    **{
        n: OpDef(n, result_name=_named(hint), pure=True)
        for n, hint in ((SPLAT, "splat"), (FROM_ELEMENTS, "from_elements"), (INSERT, "inserted"), (RESHAPE, "reshape"))
    },
}


def default(name: str) -> Optional[OpDef]:
    """Any other tensor op: free of side effects, printed generically (and
    built by no one)."""
    return OpDef(name, pure=True, registered=False)


# --- builders -------------------------------------------------------------------------------------
# Mixed lists (offsets, sizes, strides, low, high, output shapes) are Python
# ints where known statically and index values where not:
#     [0, %a, 4] -> static array<i64: 0, DYNAMIC_INDEX, 4> and the operands [%a].
# Attributes are immutable values and the lowerings make the same few many
# times: they are made once and shared (shared objects also keep their hashes).

Mixed = Sequence[Union[int, Value]]


@functools.lru_cache(maxsize=4096)
def _i64_array(values: tuple[int, ...]) -> DenseArrayAttr:
    return DenseArrayAttr(i64, values)


def mixed(items: Mixed) -> tuple[DenseArrayAttr, list[Value]]:
    """The static array and the dynamic operands of a mixed list."""
    dynamic = [x for x in items if isinstance(x, Value)]
    if not dynamic:
        return _i64_array(tuple(items)), dynamic  # type: ignore[arg-type]
    return DenseArrayAttr(i64, tuple(DYNAMIC_INDEX if isinstance(x, Value) else x for x in items)), dynamic


@functools.lru_cache(maxsize=1024)
def _reassociation_attr(groups: tuple[tuple[int, ...], ...]) -> ArrayAttr:
    return ArrayAttr(tuple(ArrayAttr(tuple(IntegerAttr(i, i64) for i in g)) for g in groups))


def reassociation(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    """`[[0, 1], [2]]`: which dims of the expanded shape form each collapsed dim."""
    return _reassociation_attr(tuple(tuple(g) for g in groups))


def empty(b: BuilderAPI, type: RankedTensorType, dynamic_sizes: Sequence[Value] = ()) -> Value:
    """`tensor.empty(%sizes of the ? dims) : type`."""
    return b.create(EMPTY, dynamic_sizes, [type]).results[0]


def dim(b: BuilderAPI, source: Value, index_: Value) -> Value:
    """`tensor.dim %source, %index`: the size of one dim, an index."""
    return b.create(DIM, [source, index_], [index]).results[0]


def cast(b: BuilderAPI, source: Value, type: Type) -> Value:
    return b.create(CAST, [source], [type]).results[0]


def extract(b: BuilderAPI, source: Value, indices: Sequence[Value]) -> Value:
    """`tensor.extract %source[%i, %j]`: one element."""
    t = source.type
    assert isinstance(t, RankedTensorType)
    return b.create(EXTRACT, [source, *indices], [t.element_type]).results[0]


def _slice_parts(offsets: Mixed, sizes: Mixed, strides: Mixed) -> tuple[dict[str, Attribute], list[list[Value]]]:
    o, od = mixed(offsets)
    s, sd = mixed(sizes)
    st, std = mixed(strides)
    return {"static_offsets": o, "static_sizes": s, "static_strides": st}, [od, sd, std]


def extract_slice(b: BuilderAPI, source: Value, offsets: Mixed, sizes: Mixed, strides: Mixed, type: RankedTensorType) -> Value:
    """`result[i...] = source[offsets + i * strides]` for i < sizes."""
    attrs, groups = _slice_parts(offsets, sizes, strides)
    return build_segmented(b, EXTRACT_SLICE, [[source], *groups], [type], attrs).results[0]


def insert_slice(b: BuilderAPI, source: Value, dest: Value, offsets: Mixed, sizes: Mixed, strides: Mixed) -> Value:
    """dest with `dest[offsets + i * strides] = source[i...]`."""
    attrs, groups = _slice_parts(offsets, sizes, strides)
    return build_segmented(b, INSERT_SLICE, [[source], [dest], *groups], [dest.type], attrs).results[0]


def pad(b: BuilderAPI, source: Value, low: Mixed, high: Mixed, type: RankedTensorType, padding: Value) -> Value:
    """source with `low`/`high` elements of value `padding` added before and
    after each dim (the padding value yielded by the region)."""
    body = Block([index] * type.rank)
    body.append(Operation(YIELD, [padding]))
    lo_attr, lo_dyn = mixed(low)
    hi_attr, hi_dyn = mixed(high)
    attrs = {"static_low": lo_attr, "static_high": hi_attr}
    return build_segmented(b, PAD, [[source], lo_dyn, hi_dyn], [type], attrs, [Region([body])]).results[0]


def expand_shape(b: BuilderAPI, source: Value, groups: Sequence[Sequence[int]], output_shape: Mixed, type: RankedTensorType) -> Value:
    """source with each dim split into the dims of its group."""
    static, dynamic = mixed(output_shape)
    attrs = {"reassociation": reassociation(groups), "static_output_shape": static}
    return b.create(EXPAND_SHAPE, [source, *dynamic], [type], attrs).results[0]


def collapse_shape(b: BuilderAPI, source: Value, groups: Sequence[Sequence[int]], type: RankedTensorType) -> Value:
    """source with the dims of each group merged into one."""
    return b.create(COLLAPSE_SHAPE, [source], [type], {"reassociation": reassociation(groups)}).results[0]
