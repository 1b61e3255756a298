"""`OpDef`: everything convopt knows about one op, in one record.

A definition names the op and declares its structure (fixed operand and
result counts, operand segments, the inherent attributes its custom form
needs), and carries the hooks the rest of convopt calls by looking the op up
(`convopt.dialects.lookup`):

- `parse`: the syntax node of the op's custom-form grammar rule -> Operation
  (the rule is in `parser/mlir.lark`; the hook is named by the rule's form);
- `colon_types`: for the uniform custom form `op %a, %b : T...`, how the types
  after `:` (without `->`) map to operand and result types;
- `print`: the custom form; printed only when `fits(op)` says the op's
  structure is the one the definition declares (else the generic form);
- `verify`: per-op checks, after the declared arity;
- `result_name`: the name hint of the first result (`%c0`, `%padded`);
- `block_arg_names`: names of the entry-block arguments of its region;
- `pure`, `terminator`, `isolated` (from above), `inline_maps` (affine maps
  printed in place rather than as `#map` aliases);
- for MLIR's generic form (`--mlir-print-op-generic`): `inherent` (the
  attributes MLIR keeps as the op's properties, printed in `<{...}>` and read
  back from there into the attribute dictionary, where convopt keeps them),
  `spell_out` (what the custom form leaves implicit: a named linalg op's
  body, its default indexing maps) and `read_generic` (its inverse, on an op
  read from the generic form).

In the spirit of MLIR's ODS and xDSL's IRDL op classes, but as plain data:
an op is still an `Operation` with a name.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional, Protocol

from ..diagnostics import ConvoptError, Diagnostic, position_of
from ..ir.affine import AffineMap
from ..ir.attributes import Attribute, DenseArrayAttr, Location
from ..ir.core import Operation, Region, Value
from ..ir.types import RankedTensorType, Type, i32

# --- what the hooks see of the parser and the printer -------------------------------------------
# The dialects never import the parser or the printer (which import the
# dialects): a hook is handed them and sees them through these Protocols,
# as MLIR's ODS hooks see OpAsmParser/OpAsmPrinter.


class OpSyntaxAPI(Protocol):
    """One parsed op before resolution (`convopt.parser.syntax.OpSyntax`)."""

    form: str
    name: str
    token: Any
    operands: list[Any]
    operand_types: list[Type]
    result_types: Optional[list[Type]]
    attributes: dict[str, Attribute]
    regions: list[Any]
    extra: dict[str, Any]
    results: list[tuple[str, int, int]]


class ResolverAPI(Protocol):
    """Syntax -> IR (`convopt.parser.resolve.Resolver`)."""

    def fail(self, message: str, token: Any, note: Any = None) -> ConvoptError: ...
    def operands(self, syn: Any, uses: Any, types: Any) -> list[Value]: ...
    def regions(self, syn: Any, isolated: bool = False) -> list[Region]: ...
    def build_region(self, blocks: Any, isolated: bool, entry_args: Any = None) -> Region: ...
    def spread(self, syn: Any, types: list[Type], count: int) -> list[Type]: ...
    def uniform_types(self, syn: Any, lhs: list[Type]) -> tuple[list[Type], list[Type]]: ...
    def mixed(self, syn: Any, items: list, start_index: int) -> tuple[tuple[int, ...], list[Value]]: ...


class PrinterAPI(Protocol):
    """IR -> text (`convopt.printer.Printer`)."""

    def value(self, v: Value) -> str: ...
    def values(self, vs: Iterable[Value]) -> str: ...
    def types(self, ts: Iterable[Type]) -> str: ...
    def attr(self, a: Attribute) -> str: ...
    def attr_dict(self, attrs: dict[str, Attribute], elided: Iterable[str] = (), leading_space: bool = True) -> str: ...
    def loc(self, loc: Optional[Location], pos: object = None) -> str: ...
    def region(self, region: Region, print_entry_args: bool = True, print_empty_block: bool = False) -> str: ...


class BuilderAPI(Protocol):
    """Creates ops at an insertion point (`convopt.ir.builder.Builder`,
    which refuses names no definition registers)."""

    def create(
        self,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attributes: Optional[Mapping[str, Attribute]] = None,
        regions: Sequence[Region] = (),
        properties: Optional[dict[str, Attribute]] = None,
    ) -> Operation: ...



PrintHook = Callable[[PrinterAPI, Operation], str]
ParseHook = Callable[[ResolverAPI, OpSyntaxAPI], Operation]
ColonTypes = Callable[[ResolverAPI, OpSyntaxAPI, list[Type]], tuple[Sequence[Optional[Type]], list[Type]]]


@dataclass(frozen=True)
class Spelled:
    """What MLIR's generic form of an op spells out that its custom form
    implies: properties to add or replace, the regions of an op whose custom
    form has none, discardable attributes MLIR's printer adds, and the
    properties convopt keeps that MLIR's op does not have (`dropped`)."""

    properties: Mapping[str, Attribute] = field(default_factory=dict)
    regions: Sequence[Region] = ()
    attributes: Mapping[str, Attribute] = field(default_factory=dict)
    dropped: tuple[str, ...] = ()


class VerifyError(ConvoptError):
    pass


def fail(op: Operation, message: str) -> VerifyError:
    return VerifyError(Diagnostic("error", f"'{op.name}' op {message}", position_of(op)))


I64_MAX = 2**63 - 1


def fits_i64(op: Operation, what: str, values: Sequence[Optional[int]]) -> None:
    """Static sizes and offsets must fit i64 (-2^63 <= v <= 2^63-1), as
    MLIR's do: parsed ones always do, a lowering's computed ones (products
    of sizes: a collapse_shape's merged dims) may not.  A located
    `unsupported:` error at the op (a lowered op has the position of the op
    it was lowered from)."""
    for v in values:
        if v is not None and not -I64_MAX - 1 <= v <= I64_MAX:
            raise VerifyError(Diagnostic("error", f"unsupported: {what} {v} in '{op.name}', over i64 (2^63-1)", position_of(op)))


def has_extra_properties(op: Operation) -> bool:
    """Properties other than operandSegmentSizes (read from a generic form
    `<{...}>`): convopt keeps the inherent attributes of the ops it models in
    the attribute dictionary, so its custom printers and verifiers do not
    know them."""
    props = op.properties
    return bool(props) and (len(props) > 1 or "operandSegmentSizes" not in props)  # type: ignore[arg-type,operator]


def segment_sizes(op: Operation) -> Optional[tuple[int, ...]]:
    props = op.properties
    if not props:
        return None
    seg = props.get("operandSegmentSizes")
    return tuple(seg.values) if isinstance(seg, DenseArrayAttr) else None


def segments(op: Operation) -> list[list[Value]]:
    """The operands split by operandSegmentSizes."""
    out, i = [], 0
    operands = op._operands
    for n in segment_sizes(op) or ():
        out.append(operands[i : i + n])
        i += n
    return out


@functools.lru_cache(maxsize=256)
def _segment_sizes_attr(sizes: tuple[int, ...]) -> DenseArrayAttr:
    return DenseArrayAttr(i32, sizes)


def segment_properties(*sizes: int) -> dict[str, Attribute]:
    """The properties of an op with operand segments of these sizes (the
    attribute shared: the lowerings make the same few many times)."""
    return {"operandSegmentSizes": _segment_sizes_attr(sizes)}


def build_segmented(
    b: BuilderAPI, name: str, groups: Sequence[Sequence[Value]], result_types: Sequence[Type],
    attributes: Optional[Mapping[str, Attribute]] = None, regions: Sequence[Region] = (),
) -> Operation:
    """An op whose operands come in named groups (operandSegmentSizes)."""
    operands: list[Value] = []
    sizes = []
    for g in groups:
        operands += g
        sizes.append(len(g))
    return b.create(name, operands, result_types, attributes, regions, {"operandSegmentSizes": _segment_sizes_attr(tuple(sizes))})


def check_arity(op: Operation, operands: Optional[int], results: Optional[int]) -> None:
    if operands is not None and len(op.operands) != operands:
        raise fail(op, f"expected {operands} operands, but found {len(op.operands)}")
    if results is not None and len(op.results) != results:
        raise fail(op, f"expected {results} results, but found {len(op.results)}")


def ranked(op: Operation, t: Type, what: str) -> RankedTensorType:
    if not isinstance(t, RankedTensorType):
        raise fail(op, f"expects {what} to be a ranked tensor, found '{t}'")
    return t


def rest(op: Operation, *elided: str) -> dict:
    """The attributes a custom form prints in its trailing `{...}`."""
    return {k: v for k, v in op.attributes.items() if k not in elided}


@dataclass(frozen=True)
class OpDef:
    name: str
    operands: Optional[int] = None  # a fixed operand count, checked by the verifier
    results: Optional[int] = None  # a fixed result count, checked by the verifier
    segments: tuple[str, ...] = ()  # operand groups given by operandSegmentSizes
    attrs: tuple[str, ...] = ()  # inherent attributes the custom form needs
    print: Optional[PrintHook] = None
    fits: Optional[Callable[[Operation], bool]] = None
    parse: Optional[ParseHook] = None
    colon_types: Optional[ColonTypes] = None
    verify: Optional[Callable[[Operation], None]] = None
    result_name: Optional[Callable[[Operation], str]] = None
    block_arg_names: Optional[Callable[[Operation, int], Optional[Sequence[str]]]] = None  # (op, number of entry args)
    pure: bool = False
    terminator: bool = False
    isolated: bool = False
    inline_maps: bool = False
    functional_types: bool = True  # the uniform custom form also takes `: (A, B) -> R`
    rejects_properties: bool = True  # a verified op refuses properties other than segment sizes
    operand_names: tuple[str, ...] = ()  # the operands by position, read through `args(op)`
    indexing_maps: Optional[Callable[[Operation], list[AffineMap]]] = None  # a structured op's loops -> operand indices
    registered: bool = True  # False: the definition of an op its dialect does not list (built by no one)
    optional_attrs: tuple[str, ...] = ()  # inherent attributes beyond `attrs` the op may have (fastmath, sym_visibility ...)
    spell_out: Optional[Callable[[Operation], Spelled]] = None  # the generic form's implicit parts
    read_generic: Optional[Callable[[Operation], None]] = None  # drops them again from an op read in the generic form
    _adaptor: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.operand_names:
            object.__setattr__(self, "_adaptor", namedtuple("Operands", self.operand_names))  # type: ignore[misc]

    def args(self, op: Operation) -> Any:
        """op's operands by name (torch-mlir's OpAdaptor):
        `SLICE_TENSOR.args(op).step` for the operand named step."""
        assert op.name == self.name and self._adaptor is not None, f"{self.name} has no operand names"
        if len(op._operands) != len(self.operand_names):
            raise fail(op, f"expected {len(self.operand_names)} operands ({', '.join(self.operand_names)}), but found {len(op._operands)}")
        return self._adaptor(*op._operands)

    def group(self, op: Operation, name: str) -> list[Value]:
        """The operands of segment `name` (`OPS[EXTRACT_SLICE].group(op, "offsets")`)."""
        return segments(op)[self.segments.index(name)]

    @property
    def inherent(self) -> tuple[str, ...]:
        """The attributes MLIR keeps as this op's properties (`<{...}>` in
        the generic form); an attribute not listed goes in the trailing
        dictionary, where MLIR takes an inherent one too."""
        return self.attrs + self.optional_attrs

    @property
    def verified(self) -> bool:
        return self.verify is not None or self.operands is not None or self.results is not None

    def fits_custom_form(self, op: Operation) -> bool:
        """True when op has the structure this definition declares, so its
        custom form can be printed (and read back to the same op)."""
        if self.print is None or has_extra_properties(op):
            return False
        n_operands = len(op._operands)
        if (self.operands is not None and n_operands != self.operands) or (self.results is not None and len(op.results) != self.results):
            return False
        attributes = op.attributes
        for a in self.attrs:
            if a not in attributes:
                return False
        if self.segments:
            sizes = segment_sizes(op)
            if sizes is None or len(sizes) != len(self.segments) or sum(sizes) != n_operands:
                return False
        return self.fits is None or self.fits(op)

    def verify_op(self, op: Operation) -> None:
        if not self.verified:
            return
        if self.rejects_properties and has_extra_properties(op):
            raise fail(op, "unsupported: generic form with properties '<{...}>'; write this op in its custom form")
        check_arity(op, self.operands, self.results)
        if self.verify is not None:
            self.verify(op)


def family(names: Sequence[str], **fields: Any) -> dict[str, OpDef]:
    """Alike ops (e.g. the binary arith ops): one definition each, same hooks."""
    return {n: OpDef(n, **fields) for n in names}


def print_cast(p: PrinterAPI, op: Operation) -> str:
    """`op %a : A to B`."""
    return f"{op.name} {p.value(op.operands[0])}{p.attr_dict(op.attributes)} : {op.operands[0].type} to {op.results[0].type}"


def cast_op(name: str, **fields: Any) -> OpDef:
    """An op written `op %a : A to B` (one operand, one result)."""
    return OpDef(name, operands=1, results=1, print=print_cast, rejects_properties=False, **fields)
