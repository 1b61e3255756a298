"""linalg: the structured ops (`linalg.generic` and the named ops, printed
`op {attrs} ins(...) outs(...) -> T`), linalg.yield and linalg.index."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from typing import Optional

from ..ir.affine import AffineDim, AffineExpr, AffineMap, d
from ..ir.attributes import AffineMapAttr, ArrayAttr, Attribute, DenseArrayAttr, DenseAttr, IntegerAttr, OpaqueAttr, StringAttr
from ..ir.core import Block, Operation, Region, Value
from ..ir.types import FloatType, RankedTensorType, Type, i32, i64
from ..ir.types import index as index_type
from . import arith
from .base import BuilderAPI, OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, Spelled, build_segmented, fail, rest, segment_sizes
from .func import print_terminator, terminator_types

GENERIC = "linalg.generic"
YIELD = "linalg.yield"
INDEX = "linalg.index"
FILL = "linalg.fill"
COPY = "linalg.copy"
TRANSPOSE = "linalg.transpose"
BROADCAST = "linalg.broadcast"
MATMUL = "linalg.matmul"
BATCH_MATMUL = "linalg.batch_matmul"
MMT4D = "linalg.mmt4d"
PACK = "linalg.pack"
UNPACK = "linalg.unpack"

LEADING_ATTRS = ("indexing_maps", "iterator_types", "doc", "library_call")
"""linalg.generic attributes printed in its leading dictionary; the rest go in
`attrs = {...}`."""

TRAILING_ATTRS = {TRANSPOSE: ("permutation",), BROADCAST: ("dimensions",)}
"""Named ops whose attributes are written after outs(...)."""

BLOCK_ARG_NAMES = ("in", "out")


def is_structured(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.properties is not None and "operandSegmentSizes" in op.properties


# --- the structured form ----------------------------------------------------------------------

def _fits_structured(op: Operation) -> bool:
    """The attributes written after outs(...) are integer lists (the two
    segments are checked by OpDef.fits_custom_form)."""
    for name in TRAILING_ATTRS.get(op.name, ()):
        value = op.attributes.get(name)
        if value is not None and not isinstance(value, DenseArrayAttr):
            if not (isinstance(value, ArrayAttr) and all(isinstance(e, IntegerAttr) for e in value.elements)):
                return False
    return True


def _print_structured(p: PrinterAPI, op: Operation) -> str:
    n_in, _ = segment_sizes(op)  # type: ignore[misc]
    trailing_names = TRAILING_ATTRS.get(op.name, ())
    if op.name == GENERIC:
        leading = {k: v for k, v in op.attributes.items() if k in LEADING_ATTRS}
        extra = rest(op, *LEADING_ATTRS)
    else:
        leading = rest(op, *trailing_names)
        extra = {}
    text = op.name + p.attr_dict(leading)
    ins, outs = op.operands[:n_in], op.operands[n_in:]
    if ins:
        text += f" ins({p.values(ins)} : {p.types(v.type for v in ins)})"
    text += f" outs({p.values(outs)} : {p.types(v.type for v in outs)})"
    for name in trailing_names:
        if name in op.attributes:
            value = op.attributes[name]
            items = value.values if isinstance(value, DenseArrayAttr) else [e.value for e in value.elements]  # type: ignore[attr-defined]
            text += f" {name} = [" + ", ".join(str(v) for v in items) + "] "
    if extra:
        text += " attrs = " + p.attr_dict(extra, leading_space=False)
    if op.name == GENERIC and op.regions:
        text += " " + p.region(op.regions[0])
    if op.results and op.name not in TRAILING_ATTRS:
        types = p.types(r.type for r in op.results)
        text += f" -> ({types})" if len(op.results) > 1 else " -> " + types
    return text


def _block_arg_names(op: Operation, n: int) -> Optional[list[str]]:
    """`%in` for the inputs' elements, `%out` for the outputs'."""
    sizes = segment_sizes(op)
    if not is_structured(op) or sizes is None:
        return None
    return [BLOCK_ARG_NAMES[0] if i < sizes[0] else BLOCK_ARG_NAMES[1] for i in range(n)]


# --- verification -------------------------------------------------------------------------------

def _ins_outs(op: Operation) -> tuple[int, int]:
    sizes = segment_sizes(op)
    if sizes is None or len(sizes) != 2 or sum(sizes) != len(op.operands):
        raise fail(op, "requires 'operandSegmentSizes' matching its ins and outs")
    return sizes[0], sizes[1]


def _element(t: Type) -> Type:
    return t.element_type if isinstance(t, RankedTensorType) else t


def _verify_named(op: Operation) -> None:
    """The results are the outs' tensors; a contraction's maps (its
    definition's) fit its operands' ranks and give each loop one extent."""
    n_in, _ = _ins_outs(op)
    outs = op.operands[n_in:]
    if [r.type for r in op.results] != [v.type for v in outs if isinstance(v.type, RankedTensorType)]:
        raise fail(op, "expected the result types to match the types of the outs operands")
    maps = indexing_maps(op)
    if maps is None:
        return
    try:  # the checks read nothing else; lowered IR repeats a few structures many times
        key: Optional[tuple] = (op.name, op.attributes.get("strides"), op.attributes.get("dilations"), op.attributes.get("indexing_maps"), tuple(v.type for v in op._operands))
        if key in _NAMED_OK:
            return
    except TypeError:  # an unhashable attribute
        key = None
    _check_named_maps(op, maps)
    if key is not None:
        if len(_NAMED_OK) > 4096:
            _NAMED_OK.clear()
        _NAMED_OK[key] = True


_NAMED_OK: dict[tuple, bool] = {}
"""The structures of named contractions whose maps were checked already."""


def _check_named_maps(op: Operation, maps: list[AffineMap]) -> None:
    if len(maps) != len(op.operands):
        raise fail(op, f"expects {len(maps)} operands (ins and outs), found {len(op.operands)}")
    for i, (m, v) in enumerate(zip(maps, op.operands)):
        rank = v.type.rank if isinstance(v.type, RankedTensorType) else 0
        if len(m.results) != rank:
            raise fail(op, f"expects operand #{i} to have rank {len(m.results)}, found {rank}")
    _check_loop_ranges(op, maps, maps[0].num_dims)


_GENERIC_OK: dict[tuple, bool] = {}
"""The structures of `linalg.generic` ops verified already: the checks read
nothing else, and lowered IR repeats a few structures many times."""


def _verify_generic(op: Operation) -> None:
    block = op.regions[0].blocks[0] if len(op.regions) == 1 and len(op.regions[0].blocks) == 1 else None
    yielded = block.ops[-1] if block is not None and block.ops else None
    try:
        key: Optional[tuple] = (
            op.attributes.get("indexing_maps"), op.attributes.get("iterator_types"), segment_sizes(op),
            tuple(v.type for v in op._operands), tuple(r.type for r in op.results),
            None if block is None else tuple(a.type for a in block.args),
            None if yielded is None else (yielded.name, tuple(v.type for v in yielded._operands)),
        )
        if key in _GENERIC_OK:
            return
    except TypeError:  # an unhashable attribute
        key = None
    _check_generic(op)
    if key is not None:
        if len(_GENERIC_OK) > 4096:
            _GENERIC_OK.clear()
        _GENERIC_OK[key] = True


def _check_generic(op: Operation) -> None:
    n_in, _ = _ins_outs(op)
    maps_attr = op.attributes.get("indexing_maps")
    iters = op.attributes.get("iterator_types")
    if not isinstance(maps_attr, ArrayAttr) or not isinstance(iters, ArrayAttr):
        raise fail(op, "requires 'indexing_maps' and 'iterator_types'")
    maps = [m.map for m in maps_attr.elements if isinstance(m, AffineMapAttr)]
    if len(maps) != len(op.operands):
        raise fail(op, f"expected the number of indexing_map ({len(maps)}) to be equal to the number of input/output operands ({len(op.operands)})")
    n_loops = len(iters.elements)
    for it in iters.elements:
        if not (isinstance(it, StringAttr) and it.value in ("parallel", "reduction")):
            raise fail(op, f"expected iterator_types to be \"parallel\" or \"reduction\" strings, found {it}")
    for i, (m, v) in enumerate(zip(maps, op.operands)):
        rank = v.type.rank if isinstance(v.type, RankedTensorType) else 0
        if m.num_dims != n_loops:
            raise fail(op, f"expected indexing_map #{i} to have {n_loops} dim(s) to match the number of loops")
        if len(m.results) != rank:
            raise fail(op, f"expected operand rank ({rank}) to match the result rank of indexing_map #{i} ({len(m.results)})")
    outs = op.operands[n_in:]
    if [r.type for r in op.results] != [v.type for v in outs if isinstance(v.type, RankedTensorType)]:
        raise fail(op, "expected the result types to match the types of the outs operands")
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise fail(op, "expects a region with one block")
    block = op.regions[0].blocks[0]
    if [a.type for a in block.args] != [_element(v.type) for v in op.operands]:
        raise fail(op, "expected the block arguments to be the element types of the operands")
    if not block.ops or block.ops[-1].name != YIELD:
        raise fail(op, "expects its body to end with 'linalg.yield'")
    if [v.type for v in block.ops[-1].operands] != [_element(v.type) for v in outs]:
        raise fail(op, "expected 'linalg.yield' to yield the element types of the outs operands")
    _check_loop_ranges(op, maps, n_loops)


def _check_loop_ranges(op: Operation, maps: list[AffineMap], n_loops: int) -> None:
    """Every loop must appear bare in some map (so its range is known), and
    with static shapes every access must stay inside its operand."""
    ranges: list[Optional[int]] = [None] * n_loops
    known = [False] * n_loops
    for m, v in zip(maps, op.operands):
        shape = v.type.shape if isinstance(v.type, RankedTensorType) else ()
        for r, size in zip(m.results, shape):
            if isinstance(r, AffineDim):
                if known[r.pos] and ranges[r.pos] is not None and size is not None and ranges[r.pos] != size:
                    raise fail(op, f"inferred loop range for d{r.pos} is inconsistent: {ranges[r.pos]} vs {size}")
                if not known[r.pos] or ranges[r.pos] is None:
                    ranges[r.pos] = size
                known[r.pos] = True
    for i, k in enumerate(known):
        if not k:
            raise fail(op, f"loop d{i} does not appear alone in any indexing map, so its range cannot be inferred")
    for index, (m, v) in enumerate(zip(maps, op.operands)):
        shape = v.type.shape if isinstance(v.type, RankedTensorType) else ()
        for dim, (r, size) in enumerate(zip(m.results, shape)):
            lin = _linear(r)
            if lin is None or size is None:
                continue
            coeffs, const = lin
            lo = hi = const
            static = True
            for (kind, pos), c in coeffs.items():
                extent = ranges[pos] if kind == "d" else None
                if not extent:  # symbolic, dynamic, or an empty loop
                    static = False
                    break
                if c > 0:
                    hi += c * (extent - 1)
                else:
                    lo += c * (extent - 1)
            if static and (lo < 0 or hi >= size):
                raise fail(op, f"operand #{index} is accessed out of bounds along dimension {dim}: indices [{lo}, {hi}] in a dimension of size {size}")


@functools.lru_cache(maxsize=4096)
def _linear(expr: AffineExpr):
    """expr.linear(), once per distinct expression (maps repeat a lot)."""
    return expr.linear()


# --- linalg.yield, linalg.index -------------------------------------------------------------------

def _verify_yield(op: Operation) -> None:
    parent = op.parent_op
    if parent is None or parent.name not in OPS:
        raise fail(op, "expects a linalg op as parent")


def _print_index(p: PrinterAPI, op: Operation) -> str:
    dim = op.attributes["dim"]
    assert isinstance(dim, IntegerAttr)
    return f"linalg.index {dim.value}{p.attr_dict(rest(op, 'dim'))} : {op.results[0].type}"


def _parse_index(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    return Operation(syn.name, [], syn.result_types or [], syn.attributes)


# --- named-op semantics: each named contraction's indexing maps ---------------------------------
# A named op is the `linalg.generic` with these maps and a multiply-add body:
#     out[maps[-1](d)] += ins[0][maps[0](d)] * ins[1][maps[1](d)]   for every loop point d.
# The verifier, the interpreter and the MAC counts read them here.

def _ints(attr: object, n: int) -> list[int]:
    """`dense<[2, 1]> : vector<2xi64>`, `dense<1>`, `array<i64: 2, 1>`, `[2, 1]`; absent: n ones."""
    if attr is None:
        return [1] * n
    if isinstance(attr, DenseArrayAttr):
        return [int(v) for v in attr.values]
    if isinstance(attr, ArrayAttr):
        return [e.value for e in attr.elements if isinstance(e, IntegerAttr)]
    if isinstance(attr, DenseAttr):
        body = attr.body
        return [int(str(x)) for x in body] if isinstance(body, tuple) else [int(str(body))] * n
    return []


@functools.lru_cache(maxsize=64)
def _contraction_maps(lhs: str, rhs: str, out: str) -> list[AffineMap]:
    """Maps of a contraction named by index letters, `mk,kn->mn` (loop dims
    in order of first appearance, output letters first)."""
    loops: list[str] = []
    for ch in out + lhs + rhs:
        if ch not in loops:
            loops.append(ch)
    n = len(loops)
    return [AffineMap.from_exprs(n, [d(loops.index(ch)) for ch in s]) for s in (lhs, rhs, out)]


MATMULS = {
    MATMUL: ("mk", "kn", "mn"),
    BATCH_MATMUL: ("bmk", "bkn", "bmn"),
    "linalg.matvec": ("mk", "k", "m"),
    "linalg.vecmat": ("k", "kn", "n"),
    "linalg.batch_matvec": ("bmk", "bk", "bm"),
    "linalg.dot": ("k", "k", ""),
    MMT4D: ("mkpr", "nkqr", "mnpq"),  # C[m, n, m0, n0] += A[m, k, m0, k0] * B[n, k, n0, k0]
}
"""C[out] += A[lhs] * B[rhs], by index letters."""

CONV_LAYOUTS = ("", "_ncw_fcw", "_nwc_wcf", "_nchw_fchw", "_nhwc_hwcf", "_nhwc_fhwc", "_ngchw_gfchw", "_ngchw_fgchw", "_nhwgc_gfhwc", "_ncdhw_fcdhw", "_ndhwc_dhwcf")
DEPTHWISE_LAYOUTS = ("_ncw_cw", "_nwc_wc", "_nwc_wcm", "_nchw_chw", "_nhwc_hwc", "_nhwc_hwcm", "_ncdhw_cdhw", "_ndhwc_dhwc", "_ndhwc_dhwcm")
_SPATIAL = "dhw"


def conv_name(nd: int, layout: str, depthwise: bool = False) -> str:
    """`linalg.conv_2d_nchw_fchw` for (2, "_nchw_fchw"); the op must be defined."""
    name = f"linalg.{'depthwise_' if depthwise else ''}conv_{nd}d{layout}"
    assert name in OPS, f"no linalg convolution {name}"
    return name


_CONV_NAME = re.compile(r"linalg\.(depthwise_)?conv_([123])d(?:_([a-z]+)_([a-z]+))?")


def _conv_letters(name: str) -> tuple[bool, int, str, str]:
    """(depthwise, spatial rank, input letters, weight letters) of a conv name."""
    m = _CONV_NAME.fullmatch(name)
    assert m is not None, name
    nd = int(m.group(2))
    spatial = _SPATIAL[-nd:]
    return bool(m.group(1)), nd, m.group(3) or spatial, m.group(4) or spatial


def conv_maps(op: Operation) -> list[AffineMap]:
    """Maps of `linalg.[depthwise_]conv_Nd[_IN_W]` from its layout letters:
    n, g, c, f, m by role and d/h/w spatial (the output is IN with c -> f for
    a convolution; IN, plus m if W has it, for a depthwise one):

        O[n, f, o...] += I[n, c, o*stride + k*dilation ...] * W[f, c, k...]
    """
    _, nd, _, _ = _conv_letters(op.name)
    strides, dilations = _ints(op.attributes.get("strides"), nd), _ints(op.attributes.get("dilations"), nd)
    if len(strides) != nd or len(dilations) != nd:
        raise fail(op, f"expects {nd} strides and dilations")
    return _conv_maps(op.name, tuple(strides), tuple(dilations))


@functools.lru_cache(maxsize=1024)
def _conv_maps(name: str, strides: tuple[int, ...], dilations: tuple[int, ...]) -> list[AffineMap]:
    depthwise, nd, lin, lw = _conv_letters(name)
    spatial = _SPATIAL[-nd:]
    lout = lin + ("m" if "m" in lw else "") if depthwise else lin.replace("c", "f")
    loops = [("o" + ch if ch in _SPATIAL else ch) for ch in lout]
    loops += [ch for ch in lw if ch not in _SPATIAL and ch not in lout]
    loops += ["k" + ch for ch in spatial]
    dim = {name: d(i) for i, name in enumerate(loops)}
    s_of = {ch: (strides[i], dilations[i]) for i, ch in enumerate(spatial)}

    def access(letters: str, spatial_of: Callable[[str], AffineExpr]) -> AffineMap:
        return AffineMap.from_exprs(len(loops), [spatial_of(ch) if ch in _SPATIAL else dim[ch] for ch in letters])

    return [
        access(lin, lambda ch: dim["o" + ch] * s_of[ch][0] + dim["k" + ch] * s_of[ch][1]),
        access(lw, lambda ch: dim["k" + ch]),
        access(lout, lambda ch: dim["o" + ch]),
    ]


POOLINGS = {
    f"linalg.pooling_{layout}_{kind}": (layout, kind)
    for layout, kinds in (("ncw", "max sum"), ("nchw", "max sum"), ("nwc", "max min sum"), ("nhwc", "max min sum"), ("ndhwc", "max min sum"))
    for kind in kinds.split()
}
"""The float pooling ops by (layout letters, reduction): torch-mlir's linalg
stage lowers max_pool and avg_pool to them."""


def pooling_maps(op: Operation) -> list[AffineMap]:
    """Maps of `linalg.pooling_LAYOUT_KIND`; the window operand gives only
    the extents of the window loops k...:

        O[n, c, o...] = KIND(O[n, c, o...], I[n, c, o*stride + k*dilation ...])
    """
    nd = sum(ch in _SPATIAL for ch in POOLINGS[op.name][0])
    strides, dilations = _ints(op.attributes.get("strides"), nd), _ints(op.attributes.get("dilations"), nd)
    if len(strides) != nd or len(dilations) != nd:
        raise fail(op, f"expects {nd} strides and dilations")
    return _pooling_maps(op.name, tuple(strides), tuple(dilations))


@functools.lru_cache(maxsize=256)
def _pooling_maps(name: str, strides: tuple[int, ...], dilations: tuple[int, ...]) -> list[AffineMap]:
    layout = POOLINGS[name][0]
    spatial = [ch for ch in layout if ch in _SPATIAL]
    loops = [("o" + ch if ch in _SPATIAL else ch) for ch in layout] + ["k" + ch for ch in spatial]
    dim = {n: d(i) for i, n in enumerate(loops)}
    s_of = {ch: (strides[i], dilations[i]) for i, ch in enumerate(spatial)}
    window = [dim["o" + ch] * s_of[ch][0] + dim["k" + ch] * s_of[ch][1] if ch in _SPATIAL else dim[ch] for ch in layout]
    return [
        AffineMap.from_exprs(len(loops), window),
        AffineMap.from_exprs(len(loops), [dim["k" + ch] for ch in spatial]),
        AffineMap.from_exprs(len(loops), [dim["o" + ch] if ch in _SPATIAL else dim[ch] for ch in layout]),
    ]


def generic_maps(op: Operation) -> list[AffineMap]:
    """The `indexing_maps` attribute of a `linalg.generic` (or of a named op that has one)."""
    maps = op.attributes.get("indexing_maps")
    if not isinstance(maps, ArrayAttr):
        raise fail(op, "requires 'indexing_maps'")
    return [m.map for m in maps.elements if isinstance(m, AffineMapAttr)]


def _matmul_maps(op: Operation) -> list[AffineMap]:
    if "indexing_maps" in op.attributes:  # a matmul with explicit (e.g. transposing) maps
        return generic_maps(op)
    return _contraction_maps(*MATMULS[op.name])


def indexing_maps(op: Operation) -> Optional[list[AffineMap]]:
    """The maps of a structured op by its definition (None for the copies:
    fill, transpose, broadcast, pack ...)."""
    definition = OPS.get(op.name)
    return definition.indexing_maps(op) if definition is not None and definition.indexing_maps is not None else None


def is_depthwise(name: str) -> bool:
    return name in CONVS and _conv_letters(name)[0]


def is_contraction(name: str) -> bool:
    """The named ops that multiply and add (matmuls, convolutions)."""
    return name in MATMULS or name in CONVS


# --- the generic form: the body a named op's name implies ------------------------------------------
# MLIR's generic form writes a named op with the region its custom form
# leaves implicit (what `linalg.generic` with the op's maps would hold), e.g.
#     linalg.matmul:   ^bb0(%a: A, %b: B, %c: C): %0 = cast(%a) * cast(%b); %1 = %c + %0; linalg.yield %1
#     pooling max:     ^bb0(%in: I, %k: K, %out: O): linalg.yield max(%out, cast(%in))
#     fill, copy:      ^bb0(%in: I, %out: O): linalg.yield cast(%in)
# where cast is linalg's signed cast to the output's element type; plus
# matmul's and batch_matmul's default `indexing_maps` property.  MLIR's own
# print adds `linalg.memoized_indexing_maps` to the other contractions,
# convolutions and poolings: a cache of the maps of the op's name and
# attributes that MLIR reads back as the op's maps; convopt leaves it out
# (its loop order is MLIR's choice: mmt4d's differs from convopt's, and a
# wrong cache would change the op) and drops it when reading.

_EXPLICIT_MAPS = (MATMUL, BATCH_MATMUL)
"""The named ops whose indexing maps are a property (default: the op's)."""

_COMBINE = {
    # kind -> (float op, signed integer op): out = op(out, x)
    "mul_add": (arith.ADDF, arith.ADDI), "sum": (arith.ADDF, arith.ADDI),
    "max": (arith.MAXIMUMF, arith.MAXSI), "min": (arith.MINIMUMF, arith.MINSI),
}


def _cast(block: Block, v: Value, to: Type) -> Value:
    """linalg's signed cast of a scalar to `to` (none when the types agree)."""
    if v.type == to:
        return v
    return block.append(Operation(arith.cast_name(v.type, to), [v], [to])).results[0]


def _combine(block: Block, kind: str, out: Value, x: Value) -> Value:
    f, i = _COMBINE[kind]
    return block.append(Operation(f if isinstance(out.type, FloatType) else i, [out, x], [out.type])).results[0]


def _body(op: Operation) -> Region:
    """The region of a named op (see above)."""
    types = [_element(v.type) for v in op.operands]
    block = Block(types)
    out_t = types[-1]
    if op.name in MATMULS or op.name in CONVS:
        a, b = (_cast(block, x, out_t) for x in block.args[:2])
        mul = arith.MULF if isinstance(out_t, FloatType) else arith.MULI
        product = block.append(Operation(mul, [a, b], [out_t])).results[0]
        result = _combine(block, "mul_add", block.args[-1], product)
    elif op.name in POOLINGS:
        result = _combine(block, POOLINGS[op.name][1], block.args[-1], _cast(block, block.args[0], out_t))
    elif op.name in (TRANSPOSE, BROADCAST):
        result = block.args[0]
    else:  # fill, copy
        result = _cast(block, block.args[0], out_t)
    block.append(Operation(YIELD, [result]))
    return Region([block])


def _spell_named(op: Operation) -> Spelled:
    props: dict[str, Attribute] = {}
    dropped: tuple[str, ...] = ()
    if op.name in _EXPLICIT_MAPS and "indexing_maps" not in op.attributes:
        props["indexing_maps"] = maps_attr(tuple(_contraction_maps(*MATMULS[op.name])))
    for name in TRAILING_ATTRS.get(op.name, ()):  # transpose, broadcast: one input, one init, i64 arrays
        dropped = ("operandSegmentSizes",)
        value = op.attributes.get(name)
        if isinstance(value, ArrayAttr):
            props[name] = DenseArrayAttr(i64, tuple(e.value for e in value.elements if isinstance(e, IntegerAttr)))
    return Spelled(props, [] if op.regions else [_body(op)], {}, dropped)


MEMOIZED_MAPS = "linalg.memoized_indexing_maps"


def _same_maps(a: Attribute, b: Sequence[AffineMap]) -> bool:
    """Whether the maps of attribute a are b, up to how their sums are written."""
    if not isinstance(a, ArrayAttr) or len(a.elements) != len(b):
        return False
    for m, n in zip(a.elements, b):
        if not isinstance(m, AffineMapAttr) or m.map.num_dims != n.num_dims or len(m.map.results) != len(n.results):
            return False
        if any(_linear(x) != _linear(y) or _linear(x) is None for x, y in zip(m.map.results, n.results)):
            return False
    return True


def _read_named(op: Operation) -> None:
    """A named op read in the generic form: its body must be the one its
    name implies (then dropped, as the custom form has none); default
    indexing maps and MLIR's cache of them are dropped."""
    if op.name in TRAILING_ATTRS and segment_sizes(op) is None and len(op.operands) == 2:
        op.properties = {**(op.properties or {}), "operandSegmentSizes": DenseArrayAttr(i32, (1, 1))}
    if op.name in _EXPLICIT_MAPS and "indexing_maps" in op.attributes:
        if _same_maps(op.attributes["indexing_maps"], _contraction_maps(*MATMULS[op.name])):
            del op.attributes["indexing_maps"]
    op.attributes.pop(MEMOIZED_MAPS, None)
    if op.regions:
        want = _body(op).blocks[0]
        got = op.regions[0].blocks[0] if len(op.regions) == 1 and len(op.regions[0].blocks) == 1 else None
        shape = lambda b: ([a.type for a in b.args], [(o.name, [r.type for r in o.results]) for o in b.ops])  # noqa: E731
        if got is None or shape(got) != shape(want):
            raise fail(op, "has a body other than the one its name implies; write it as a 'linalg.generic'")
        op.drop_regions()


def _spell_generic(op: Operation) -> Spelled:
    """linalg.generic's iterator types, written `#linalg.iterator_type<parallel>` in the generic form."""
    iters = op.attributes.get("iterator_types")
    if not isinstance(iters, ArrayAttr):
        return Spelled()
    return Spelled({"iterator_types": _iterator_types_generic(iters)})


@functools.lru_cache(maxsize=256)
def _iterator_types_generic(iters: ArrayAttr) -> ArrayAttr:
    return ArrayAttr(tuple(OpaqueAttr(f"#linalg.iterator_type<{e.value}>") if isinstance(e, StringAttr) else e for e in iters.elements))


_ITERATOR_TYPE = re.compile(r"#linalg\.iterator_type<(parallel|reduction)>")


def _read_generic(op: Operation) -> None:
    iters = op.attributes.get("iterator_types")
    if isinstance(iters, ArrayAttr):
        found = [_ITERATOR_TYPE.fullmatch(e.text) if isinstance(e, OpaqueAttr) else None for e in iters.elements]
        if any(found):
            op.attributes["iterator_types"] = ArrayAttr(tuple(StringAttr(m.group(1)) if m else e for m, e in zip(found, iters.elements)))


# --- the definitions ------------------------------------------------------------------------------

def _structured(
    name: str, verify: Optional[Callable[[Operation], None]] = None, hint: Optional[str] = None,
    maps: Optional[Callable[[Operation], list[AffineMap]]] = None, inherent: tuple[str, ...] = (), named: bool = True,
) -> OpDef:
    """A structured op: ins and outs as operand segments; a named one (all
    but linalg.generic) has the body its name implies."""
    return OpDef(
        name, segments=("inputs", "outputs"), print=_print_structured, fits=_fits_structured, verify=verify,
        result_name=(lambda op: hint) if hint else None, block_arg_names=_block_arg_names, pure=True, indexing_maps=maps,
        optional_attrs=inherent, spell_out=_spell_named if named else None, read_generic=_read_named if named else None,
    )


def _conv_names() -> list[str]:
    names = []
    for nd in (1, 2, 3):
        dims = set(_SPATIAL[-nd:])
        fits = [lay for lay in CONV_LAYOUTS + DEPTHWISE_LAYOUTS if set(lay) & set(_SPATIAL) in (set(), dims)]
        names += [f"linalg.conv_{nd}d{lay}" for lay in fits if lay in CONV_LAYOUTS]
        names += [f"linalg.depthwise_conv_{nd}d{lay}" for lay in fits if lay in DEPTHWISE_LAYOUTS]
    return names


CONVS = frozenset(_conv_names())

ELEMENTWISE = tuple(
    f"linalg.{n}" for n in (
        "exp log abs ceil floor negf reciprocal round sqrt rsqrt square tanh erf "
        "add sub mul div div_unsigned max min powf select"
    ).split()
)
"""The elementwise named ops (identity maps), defined with the structured
form and no checks of their own."""

OPS: dict[str, OpDef] = {
    GENERIC: dataclasses.replace(
        _structured(GENERIC, _verify_generic, maps=generic_maps, inherent=LEADING_ATTRS, named=False),
        spell_out=_spell_generic, read_generic=_read_generic,
    ),
    **{n: _structured(n, _verify_named) for n in (FILL, COPY)},
    **{n: _structured(n, _verify_named, maps=_matmul_maps, inherent=("indexing_maps", "cast")) for n in MATMULS},
    **{n: _structured(n, _verify_named, maps=conv_maps, inherent=("strides", "dilations")) for n in sorted(CONVS)},
    **{n: _structured(n, _verify_named, maps=pooling_maps, inherent=("strides", "dilations")) for n in POOLINGS},
    TRANSPOSE: _structured(TRANSPOSE, _verify_named, "transposed", inherent=("permutation",)),
    BROADCAST: _structured(BROADCAST, hint="broadcasted", inherent=("dimensions",)),
    **{n: _structured(n, named=False) for n in ELEMENTWISE},
    PACK: OpDef(PACK, segments=("source", "dest", "padding_value", "inner_tiles"), pure=True),
    UNPACK: OpDef(UNPACK, operand_names=("source", "dest"), pure=True),
    YIELD: OpDef(YIELD, print=print_terminator, colon_types=terminator_types, verify=_verify_yield, terminator=True, functional_types=False),
    INDEX: OpDef(
        INDEX, attrs=("dim",), print=_print_index, fits=lambda op: isinstance(op.attributes["dim"], IntegerAttr) and len(op.results) >= 1,
        parse=_parse_index, pure=True,
    ),
}


def default(name: str) -> Optional[OpDef]:
    """None: an op of linalg that convopt does not define is unregistered;
    it prints in the generic form and the verifier refuses it (MLIR:
    "unregistered operation ... found in dialect ('linalg')")."""
    return None


# --- builders -------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=4096)
def maps_attr(maps: tuple[AffineMap, ...]) -> ArrayAttr:
    return ArrayAttr(tuple(AffineMapAttr(m) for m in maps))


@functools.lru_cache(maxsize=256)
def iterators_attr(iterators: tuple[str, ...]) -> ArrayAttr:
    return ArrayAttr(tuple(StringAttr(i) for i in iterators))


def named(b: BuilderAPI, name: str, ins: Sequence[Value], outs: Sequence[Value], attributes: Optional[dict[str, Attribute]] = None) -> Operation:
    """A named structured op (fill, matmul, conv_*, transpose, ...): results of the outs' types."""
    assert name in OPS and name != GENERIC, f"{name} is not a named linalg op"
    return build_segmented(b, name, [ins, outs], [v.type for v in outs], attributes or {})


def generic(b: BuilderAPI, ins: Sequence[Value], outs: Sequence[Value], maps: Sequence[AffineMap], iterators: Sequence[str], body: Block) -> Operation:
    """`linalg.generic` over the loops `iterators`, operand j read at maps[j](loop point);
    body takes the operands' elements and ends with linalg.yield of the outputs'."""
    attrs = {"indexing_maps": maps_attr(tuple(maps)), "iterator_types": iterators_attr(tuple(iterators))}
    return build_segmented(b, GENERIC, [ins, outs], [v.type for v in outs], attrs, [Region([body])])


def yield_(b: BuilderAPI, values: Sequence[Value]) -> Operation:
    return b.create(YIELD, values)


@functools.lru_cache(maxsize=64)
def _dim_attr(dim: int) -> IntegerAttr:
    return IntegerAttr(dim, i64)


def index(b: BuilderAPI, dim: int) -> Value:
    """`linalg.index dim`: the current position along loop dim."""
    return b.create(INDEX, [], [index_type], {"dim": _dim_attr(dim)}).results[0]


def pack(
    b: BuilderAPI, source: Value, dest: Value, padding: Optional[Value], inner_dims_pos: tuple[int, ...], outer_dims_perm: tuple[int, ...],
    inner_tiles: tuple[int, ...],
) -> Value:
    """source tiled into dest: dest[outer..., tile...] = source[outer * tile + tile position]
    for the dims inner_dims_pos (padded with `padding` where the tiles do not divide them)."""
    props: dict[str, Attribute] = {
        "inner_dims_pos": DenseArrayAttr(i64, inner_dims_pos), "operandSegmentSizes": DenseArrayAttr(i32, (1, 1, int(padding is not None), 0)),
        "outer_dims_perm": DenseArrayAttr(i64, outer_dims_perm), "static_inner_tiles": DenseArrayAttr(i64, inner_tiles),
    }
    operands = [source, dest] + ([padding] if padding is not None else [])
    return b.create(PACK, operands, [dest.type], properties=props).results[0]


def unpack(b: BuilderAPI, source: Value, dest: Value, inner_dims_pos: tuple[int, ...], outer_dims_perm: tuple[int, ...], inner_tiles: tuple[int, ...]) -> Value:
    """The inverse of pack: dest = source's tiles put back in place (cut to dest's sizes)."""
    props: dict[str, Attribute] = {
        "inner_dims_pos": DenseArrayAttr(i64, inner_dims_pos), "outer_dims_perm": DenseArrayAttr(i64, outer_dims_perm),
        "static_inner_tiles": DenseArrayAttr(i64, inner_tiles),
    }
    return b.create(UNPACK, [source, dest], [dest.type], properties=props).results[0]
