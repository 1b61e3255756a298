"""torch: constants, literals, symbolic shapes, torch.operator, and every
other op in torch-mlir's uniform form `op %a, %b {attrs} : A, B -> R`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple, Optional

from ..ir.attributes import FloatAttr, IntegerAttr, StringAttr, format_float
from ..ir.core import Operation
from ..ir.types import (
    TORCH_BOOL,
    TORCH_DEVICE,
    TORCH_FLOAT,
    TORCH_INT,
    TORCH_NONE,
    TORCH_STR,
    FunctionType,
    IntegerType,
    RankedTensorType,
    Type,
    UnrankedTensorType,
    ValueTensorType,
    torch_type,
)
from .base import OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, cast_op, fail, rest

# --- the uniform form ----------------------------------------------------------------------------

def print_uniform(p: PrinterAPI, op: Operation) -> str:
    """torch-mlir's default form: `op %a, %b {attrs} : A, B -> R`."""
    text = op.name
    if op.operands:
        text += " " + p.values(op.operands)
    text += p.attr_dict(op.attributes)
    if not op.operands and not op.results:
        return text  # no types to print (a `:` with nothing after it would not parse)
    text += " : "
    if op.operands:
        text += p.types(v.type for v in op.operands)
    if op.operands and op.results:
        text += " -> "
    if op.results:
        text += p.types(r.type for r in op.results)
    return text


def _print_functional(p: PrinterAPI, op: Operation) -> str:
    """`op %a, %b : (A, B) -> R`."""
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(op.attributes)} : {fn}"


def _no_regions(op: Operation) -> bool:
    return not op.regions


def uniform_types(r: ResolverAPI, syn: OpSyntaxAPI, lhs: list[Type]) -> tuple[list[Type], list[Type]]:
    """`op %a : A` without `->`: only for ops without results or operands."""
    if sum(count for _, count, _ in syn.results) == 0 or not syn.operands:
        return r.uniform_types(syn, lhs)
    raise r.fail(f"expected '->' and the result types of '{syn.name}'", syn.token)


def uniform(name: str, **fields) -> OpDef:
    fields.setdefault("print", print_uniform)
    return OpDef(name, fits=_no_regions, colon_types=uniform_types, **fields)


# --- constants ------------------------------------------------------------------------------------

def _print_constant(p: PrinterAPI, op: Operation) -> str:
    value = op.attributes.get("value")
    others = rest(op, "value")
    if value is None:
        return op.name + p.attr_dict(others)
    if isinstance(value, FloatAttr):
        literal = format_float(value.value, value.type)
    elif isinstance(value, IntegerAttr) and op.name.endswith(".bool"):
        literal = "true" if value.value else "false"
    elif isinstance(value, IntegerAttr):
        literal = str(value.value)
    else:
        literal = str(value)
    return f"{op.name} {literal}{p.attr_dict(others)}"


def _float_name(value: float) -> str:
    import math

    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    mant, exp = ("%.5e" % value).split("e")
    return f"{mant}0e{exp.replace('+', '')}"


def _constant_name(op: Operation) -> str:
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


def _constant(kind: str, t: Type) -> OpDef:
    name = f"torch.constant.{kind}"

    def parse(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
        return Operation(syn.name, [], [t], syn.attributes)

    return OpDef(name, print=_print_constant, parse=parse, result_name=_constant_name, pure=True, optional_attrs=("value",))


# --- literals, symbolic shapes, torch.operator ------------------------------------------------------

def _verify_literal(op: Operation) -> None:
    """The result type is the literal's: `tensor<2xi64>` -> `!torch.vtensor<[2],si64>`
    (signless integers wider than i1 read as signed), as torch-mlir infers it."""
    literal = getattr(op.attributes.get("value"), "type", None)
    if isinstance(literal, UnrankedTensorType):
        raise fail(op, f"expects a ranked tensor literal, not '{literal}'")
    if not isinstance(literal, RankedTensorType):
        return
    dtype = literal.element_type
    if isinstance(dtype, IntegerType) and dtype.signedness == "" and dtype.width > 1:
        dtype = IntegerType(dtype.width, "s")
    inferred = ValueTensorType(literal.shape, dtype)
    if op.results[0].type != inferred:
        raise fail(op, f"inferred type(s) '{inferred}' are incompatible with return type(s) of operation '{op.results[0].type}'")


def _print_literal(p: PrinterAPI, op: Operation) -> str:
    return f"torch.vtensor.literal({p.attr(op.attributes['value'])}){p.attr_dict(rest(op, 'value'))} : {op.results[0].type}"


def _print_symbolic_int(p: PrinterAPI, op: Operation) -> str:
    return f"torch.symbolic_int {op.attributes['symbol_name']}{p.attr_dict(rest(op, 'symbol_name'))} : {op.results[0].type}"


def _parse_typed(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    """Ops whose rule gives the result types and attributes (no operands)."""
    return Operation(syn.name, [], syn.result_types or [], syn.attributes)


def _print_bind_shape(p: PrinterAPI, op: Operation) -> str:
    shape = op.attributes["shape_expressions"]
    src = op.operands[0]
    return f"torch.bind_symbolic_shape {p.value(src)}, [{p.values(op.operands[1:])}], {shape}{p.attr_dict(rest(op, 'shape_expressions'))} : {src.type}"


def _parse_bind_shape(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    types: list[Optional[Type]] = [syn.operand_types[0], *[torch_type("int")] * (len(syn.operands) - 1)]
    ops = r.operands(syn, syn.operands, types)
    return Operation(syn.name, ops, [], syn.attributes)


def _print_operator(p: PrinterAPI, op: Operation) -> str:
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    text = f"torch.operator {op.attributes['name']}({p.values(op.operands)}){p.attr_dict(rest(op, 'name'))} : {fn}"
    if op.regions:
        text += " (" + ", ".join(p.region(r) for r in op.regions) + ")"
    return text


def _parse_operator(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    ops = r.operands(syn, syn.operands, list(syn.operand_types))
    return Operation(syn.name, ops, syn.result_types or [], syn.attributes, r.regions(syn))


def _has_result(op: Operation) -> bool:
    return len(op.results) >= 1


# --- the op names and operands convopt builds and matches ---------------------------------------

CONVOLUTION_BACKWARD = "torch.aten.convolution_backward"
CONVOLUTION = "torch.aten.convolution"
SLICE_TENSOR = "torch.aten.slice.Tensor"
PERMUTE = "torch.aten.permute"
UNFLATTEN = "torch.aten.unflatten.int"
FLATTEN = "torch.aten.flatten.using_ints"
SUM_DIM = "torch.aten.sum.dim_IntList"
SIZE_INT = "torch.aten.size.int"
ZEROS = "torch.aten.zeros"
LIST_CONSTRUCT = "torch.prim.ListConstruct"
TUPLE_CONSTRUCT = "torch.prim.TupleConstruct"
STATIC_INFO_CAST = "torch.tensor_static_info_cast"
DEREFINE = "torch.derefine"
CONSTANT_INT = "torch.constant.int"
CONSTANT_FLOAT = "torch.constant.float"
CONSTANT_BOOL = "torch.constant.bool"
CONSTANT_NONE = "torch.constant.none"
CONSTANT_STR = "torch.constant.str"
CONSTANT_DEVICE = "torch.constant.device"
LITERAL = "torch.vtensor.literal"
SYMBOLIC_INT = "torch.symbolic_int"
BIND_SYMBOLIC_SHAPE = "torch.bind_symbolic_shape"
OPERATOR = "torch.operator"
AVG_POOL2D_BACKWARD = "torch.aten.avg_pool2d_backward"
AVG_POOL3D_BACKWARD = "torch.aten.avg_pool3d_backward"
MAX_POOL3D_WITH_INDICES_BACKWARD = "torch.aten.max_pool3d_with_indices_backward"
MAX_POOL1D_VALUES = "torch.aten.max_pool1d"
MAX_POOL2D_VALUES = "torch.aten.max_pool2d"
MAX_POOL3D_VALUES = "torch.aten.max_pool3d"
MAX_POOL1D_WITH_INDICES = "torch.aten.max_pool1d_with_indices"

# The other aten ops convopt-run runs (convopt/interp/torch_ops.py), in the uniform form.
ADD_TENSOR = "torch.aten.add.Tensor"
SUB_TENSOR = "torch.aten.sub.Tensor"
MUL_TENSOR = "torch.aten.mul.Tensor"
ADD_SCALAR = "torch.aten.add.Scalar"
MUL_SCALAR = "torch.aten.mul.Scalar"
DIV_SCALAR = "torch.aten.div.Scalar"
LE_SCALAR = "torch.aten.le.Scalar"
GE_SCALAR = "torch.aten.ge.Scalar"
BITWISE_OR = "torch.aten.bitwise_or.Tensor"
WHERE_SELF = "torch.aten.where.self"
SCALAR_TENSOR = "torch.aten.scalar_tensor"
CLONE = "torch.aten.clone"
RELU = "torch.aten.relu"
RSQRT = "torch.aten.rsqrt"
EXP = "torch.aten.exp"
NEG = "torch.aten.neg"
ERF = "torch.aten.erf"
GELU = "torch.aten.gelu"
HARDTANH = "torch.aten.hardtanh"
UNSQUEEZE = "torch.aten.unsqueeze"
PRIMS_SQUEEZE = "torch.prims.squeeze"
VIEW = "torch.aten.view"
EXPAND = "torch.aten.expand"
MEAN_DIM = "torch.aten.mean.dim"
MM = "torch.aten.mm"
MUL_INT = "torch.aten.mul.int"
DIV_INT = "torch.aten.div.int"
DIV_FLOAT = "torch.aten.div.float"
SUB_FLOAT = "torch.aten.sub.float"
VAR_MEAN_CORRECTION = "torch.aten.var_mean.correction"
CAT = "torch.aten.cat"
INDEX_TENSOR = "torch.aten.index.Tensor"
MAX_POOL2D = "torch.aten.max_pool2d_with_indices"
MAX_POOL2D_BACKWARD = "torch.aten.max_pool2d_with_indices_backward"
MAX_POOL3D = "torch.aten.max_pool3d_with_indices"
AVG_POOL1D = "torch.aten.avg_pool1d"
AVG_POOL2D = "torch.aten.avg_pool2d"
AVG_POOL3D = "torch.aten.avg_pool3d"
TANH = "torch.aten.tanh"
SIGMOID = "torch.aten.sigmoid"
FULL_LIKE = "torch.aten.full_like"
EMPTY_LIKE = "torch.aten.empty_like"
SPLIT_WITH_SIZES = "torch.aten.split_with_sizes"
LIST_UNPACK = "torch.prim.ListUnpack"
NUM_TO_TENSOR = "torch.prim.NumToTensor.Scalar"

# --- the window (pooling) ops: operands and the checks of their window parameters ---------------


class Reduce(str, Enum):
    """What a pooling window computes."""

    AVG = "avg"
    MAX = "max"


class IntList(NamedTuple):
    """A window parameter given as a constant list of 1 or rank ints (one
    value is repeated): every value >= least; `empty`: the operand whose
    values an empty list stands for; `half_kernel`: each value at most half
    of kernel_size's (PyTorch's "pad should be at most half of kernel size")."""

    least: int
    empty: str = ""
    half_kernel: bool = False


class Flag(NamedTuple):
    """A window parameter given as a constant bool."""


class NonZeroInt(NamedTuple):
    """An optional window parameter: torch.constant.none, or a constant int
    other than 0."""


WINDOW_PARAMS: dict[str, IntList | Flag | NonZeroInt] = {
    "kernel_size": IntList(least=1),
    "stride": IntList(least=1, empty="kernel_size"),
    "padding": IntList(least=0, half_kernel=True),
    "dilation": IntList(least=1),
    "ceil_mode": Flag(),
    "count_include_pad": Flag(),
    "divisor_override": NonZeroInt(),
}
"""The window parameters of the pooling ops and their checks (PyTorch's
pooling shape checks), in the order the ops take them; the lowering's
validator (lowering/patterns/window.py) reads them by these names."""


@dataclass(frozen=True)
class WindowOp:
    """A pooling op as torch declares it: its spatial rank, what its window
    computes, forward or backward, whether it returns (forward) or takes
    (backward) the argmax indices, and whether PyTorch wants the input at
    least as large as the kernel (avg_pool3d's check_input_size)."""

    rank: int
    reduce: Reduce
    backward: bool
    indices: bool = False
    input_covers_kernel: bool = False

    @property
    def operand_names(self) -> tuple[str, ...]:
        """torch's signature: (grad_output,) self, the window parameters
        (dilation for max pooling, the divisor's for average), (indices)."""
        window = tuple(name for name in WINDOW_PARAMS if name not in _NOT_FOR[self.reduce])
        return (*(("grad_output",) if self.backward else ()), "self", *window, *(("indices",) if self.backward and self.indices else ()))

    @property
    def window_params(self) -> tuple[str, ...]:
        """The operands that are window parameters (WINDOW_PARAMS' keys)."""
        return tuple(name for name in self.operand_names if name in WINDOW_PARAMS)


_NOT_FOR = {Reduce.MAX: ("count_include_pad", "divisor_override"), Reduce.AVG: ("dilation",)}
"""The window parameters a pooling op of each kind does not take."""


WINDOW_OPS: dict[str, WindowOp] = {
    AVG_POOL2D_BACKWARD: WindowOp(2, Reduce.AVG, backward=True),
    AVG_POOL3D_BACKWARD: WindowOp(3, Reduce.AVG, backward=True, input_covers_kernel=True),
    MAX_POOL2D_BACKWARD: WindowOp(2, Reduce.MAX, backward=True, indices=True),
    MAX_POOL3D_WITH_INDICES_BACKWARD: WindowOp(3, Reduce.MAX, backward=True, indices=True),
    MAX_POOL1D_VALUES: WindowOp(1, Reduce.MAX, backward=False),
    MAX_POOL2D_VALUES: WindowOp(2, Reduce.MAX, backward=False),
    MAX_POOL3D_VALUES: WindowOp(3, Reduce.MAX, backward=False),
    MAX_POOL1D_WITH_INDICES: WindowOp(1, Reduce.MAX, backward=False, indices=True),
    MAX_POOL2D: WindowOp(2, Reduce.MAX, backward=False, indices=True),
    MAX_POOL3D: WindowOp(3, Reduce.MAX, backward=False, indices=True),
}
"""The pooling ops convopt reads, each declared once: its operands are
named from it (`args(op).kernel_size`) and its window parameters checked
as WINDOW_PARAMS says.  Adding a pooling variant: its entry here."""


def window(op: Operation) -> WindowOp:
    """The declaration of a pooling op."""
    return WINDOW_OPS[op.name]


_CONV_ARGS = ("stride", "padding", "dilation", "transposed", "output_padding", "groups")
_ATEN = {
    CONVOLUTION_BACKWARD: ("grad_output", "input", "weight", "bias_sizes", *_CONV_ARGS, "output_mask"),
    CONVOLUTION: ("input", "weight", "bias", *_CONV_ARGS),
    SLICE_TENSOR: ("self", "dim", "start", "end", "step"),
    PERMUTE: ("self", "dims"),
    UNFLATTEN: ("self", "dim", "sizes"),
    FLATTEN: ("self", "start_dim", "end_dim"),
    SUM_DIM: ("self", "dim", "keepdim", "dtype"),
    ZEROS: ("size", "dtype", "layout", "device", "pin_memory"),
    **{name: op.operand_names for name, op in WINDOW_OPS.items()},
}
"""The aten ops convopt builds or lowers, with their operands' names
(torch's signatures): `OPS[SLICE_TENSOR].args(op).step`."""

OPS: dict[str, OpDef] = {
    **{d.name: d for d in (_constant(k, t) for k, t in (
        ("int", TORCH_INT), ("float", TORCH_FLOAT), ("bool", TORCH_BOOL), ("none", TORCH_NONE), ("str", TORCH_STR), ("device", TORCH_DEVICE),
    ))},
    LITERAL: OpDef(
        LITERAL, attrs=("value",), print=_print_literal, fits=_has_result, parse=_parse_typed, verify=_verify_literal, pure=True,
    ),
    SYMBOLIC_INT: OpDef(
        SYMBOLIC_INT, attrs=("symbol_name",), optional_attrs=("min_val", "max_val"), print=_print_symbolic_int, fits=_has_result, parse=_parse_typed,
    ),
    BIND_SYMBOLIC_SHAPE: OpDef(
        BIND_SYMBOLIC_SHAPE, attrs=("shape_expressions",), print=_print_bind_shape, fits=lambda op: len(op.operands) >= 1,
        parse=_parse_bind_shape, inline_maps=True,
    ),
    OPERATOR: OpDef(OPERATOR, attrs=("name",), print=_print_operator, parse=_parse_operator),
    LIST_CONSTRUCT: uniform(LIST_CONSTRUCT, results=1, print=_print_functional, pure=True),
    TUPLE_CONSTRUCT: uniform(TUPLE_CONSTRUCT, print=_print_functional),
    SIZE_INT: uniform(SIZE_INT, operand_names=("self", "dim"), pure=True),
    STATIC_INFO_CAST: cast_op(STATIC_INFO_CAST, colon_types=uniform_types, operand_names=("operand",), pure=True),
    DEREFINE: cast_op(DEREFINE, colon_types=uniform_types),
    **{name: uniform(name, operand_names=args) for name, args in _ATEN.items()},
}


def args(op: Operation) -> Any:
    """op's operands by name (`args(op).step` of an aten.slice.Tensor), for
    the ops that list them (their torch signature)."""
    return OPS[op.name].args(op)


def default(name: str) -> OpDef:
    """Every other torch op, in the uniform form (built by no one)."""
    return uniform(name, pure=name.startswith("torch.constant."), registered=False)
