"""What convopt knows about op names, in one place: which custom form an op
is written in, which ops are terminators, which are free of side effects.
"""

from __future__ import annotations

from .ir.core import Operation
from .ir.types import TORCH_BOOL, TORCH_DEVICE, TORCH_FLOAT, TORCH_INT, TORCH_NONE, TORCH_STR, Type

DYNAMIC_INDEX = -(2**63)
"""MLIR's ShapedType::kDynamic, used in static offset/size arrays."""

_ARITH_FLOAT = "addf subf mulf divf remf maximumf minimumf maxnumf minnumf negf".split()
_ARITH_INT = "addi subi muli divsi divui ceildivsi floordivsi remsi remui maxsi minsi maxui minui andi ori xori shli shrsi shrui".split()
_MATH = "sqrt rsqrt exp exp2 log log2 tanh absf absi fma ceil floor round erf sin cos powf".split()

SAME_TYPE_OPS = frozenset(
    [f"arith.{n}" for n in _ARITH_FLOAT + _ARITH_INT] + [f"math.{n}" for n in _MATH]
)
"""Ops written `op %a, %b : T` whose operands and result all have type T."""

CAST_OPS = frozenset(
    f"arith.{n}" for n in "extf truncf extsi extui trunci sitofp uitofp fptosi fptoui index_cast index_castui bitcast".split()
) | {"tensor.cast", "torch.tensor_static_info_cast", "torch.derefine"}
"""Ops written `op %a : A to B`."""

TERMINATOR_OPS = frozenset({"func.return", "linalg.yield", "tensor.yield", "scf.yield"})

CMPI_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF_PREDICATES = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]

TORCH_CONSTANT_TYPES: dict[str, Type] = {
    "torch.constant.int": TORCH_INT,
    "torch.constant.float": TORCH_FLOAT,
    "torch.constant.bool": TORCH_BOOL,
    "torch.constant.none": TORCH_NONE,
    "torch.constant.str": TORCH_STR,
    "torch.constant.device": TORCH_DEVICE,
}

_PURE_PREFIXES = ("arith.", "math.", "tensor.", "linalg.", "torch.constant.", "torch_c.")
_PURE_NAMES = frozenset({"torch.prim.ListConstruct", "torch.vtensor.literal", "torch.aten.size.int", "torch.tensor_static_info_cast"})


def has_extra_properties(op: Operation) -> bool:
    """Properties other than operandSegmentSizes (read from a generic form
    `<{...}>`): convopt keeps the inherent attributes of the ops it models in
    the attribute dictionary, so its custom printers and verifiers do not
    know them."""
    return bool(op.properties) and any(k != "operandSegmentSizes" for k in op.properties)  # type: ignore[union-attr]


def is_pure(name: str) -> bool:
    """True for ops that can be erased once their results are unused."""
    return name in _PURE_NAMES or (name.startswith(_PURE_PREFIXES) and name not in TERMINATOR_OPS)


LINALG_LEADING_ATTRS = ("indexing_maps", "iterator_types", "doc", "library_call")
"""linalg.generic attributes printed in its leading dictionary; the rest go in
`attrs = {...}`."""

LINALG_TRAILING_ATTRS = {"linalg.transpose": ("permutation",), "linalg.broadcast": ("dimensions",)}
"""linalg named ops whose attributes are written after outs(...)."""
