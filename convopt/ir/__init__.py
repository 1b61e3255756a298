"""convopt's IR: one data model for every dialect it reads and writes."""

from .affine import AffineBinary, AffineConst, AffineDim, AffineExpr, AffineMap, AffineSym, d, s
from .attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    CallSiteLoc,
    DenseArrayAttr,
    DenseAttr,
    DenseResourceAttr,
    DictAttr,
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
)
from .builder import Builder
from .core import Block, BlockArgument, IRError, Operation, OpResult, Region, Value, new_module
from .types import (
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
)

__all__ = [name for name in dir() if not name.startswith("_")]
