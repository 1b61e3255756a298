"""Types: frozen, hashable values compared structurally, printed in MLIR form.

Builtin types (`f32`, `index`, `tensor<2x?xf32>`, function types) and dialect
types (`!torch.vtensor<[2,?],f32>`, `!torch.list<int>`) share one small model.
A dialect type is a name plus a tuple of parameters; torch's tensor types get
their own class because the lowering reads their shape and dtype.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

DYNAMIC = None
"""Marker for a dynamic (`?`) dimension in a shape tuple."""

Dim = Optional[int]


class Type:
    """Base class of every type.  The types are immutable; the ones printed
    most (tensors, dialect types) keep their text once it is made."""

    __slots__ = ()

    def __str__(self) -> str:  # pragma: no cover - overridden everywhere
        raise NotImplementedError


@dataclass(frozen=True)
class IntegerType(Type):
    """`i32` (signless), `si64` (signed), `ui8` (unsigned)."""

    width: int
    signedness: str = ""  # "", "s" or "u"

    def __str__(self) -> str:
        return f"{self.signedness}i{self.width}"


@dataclass(frozen=True)
class FloatType(Type):
    """`f16`, `bf16`, `f32`, `f64` and the other builtin float formats."""

    name: str

    @property
    def width(self) -> int:
        return FLOAT_WIDTHS.get(self.name, 8)

    def __str__(self) -> str:
        return self.name


FLOAT_WIDTHS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "tf32": 32, "f80": 80, "f128": 128}


@dataclass(frozen=True)
class IndexType(Type):
    def __str__(self) -> str:
        return "index"


@dataclass(frozen=True)
class NoneType(Type):
    """The builtin `none` type."""

    def __str__(self) -> str:
        return "none"


def _dims(shape: tuple[Dim, ...], sep: str) -> str:
    return sep.join("?" if d is None else str(d) for d in shape)


@dataclass(frozen=True)
class RankedTensorType(Type):
    """`tensor<2x?x8xf32>` with an optional encoding attribute."""

    shape: tuple[Dim, ...]
    element_type: Type
    encoding: object = None

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __hash__(self) -> int:
        try:
            return self._hash  # type: ignore[attr-defined,no-any-return]
        except AttributeError:
            h = hash((self.shape, self.element_type, self.encoding))
            object.__setattr__(self, "_hash", h)
            return h

    def __str__(self) -> str:
        try:
            return self._text  # type: ignore[attr-defined,no-any-return]
        except AttributeError:
            pass
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        enc = f", {self.encoding}" if self.encoding is not None else ""
        text = f"tensor<{dims}{self.element_type}{enc}>"
        object.__setattr__(self, "_text", text)
        return text


@dataclass(frozen=True)
class UnrankedTensorType(Type):
    element_type: Type

    def __str__(self) -> str:
        return f"tensor<*x{self.element_type}>"


@dataclass(frozen=True)
class VectorType(Type):
    shape: tuple[int, ...]
    element_type: Type

    def __str__(self) -> str:
        dims = "".join(f"{d}x" for d in self.shape)
        return f"vector<{dims}{self.element_type}>"


@dataclass(frozen=True)
class ComplexType(Type):
    element_type: Type

    def __str__(self) -> str:
        return f"complex<{self.element_type}>"


@dataclass(frozen=True)
class TupleType(Type):
    types: tuple[Type, ...]

    def __str__(self) -> str:
        return "tuple<" + ", ".join(map(str, self.types)) + ">"


@dataclass(frozen=True)
class FunctionType(Type):
    """`(i32, f32) -> f32`; results in parentheses unless there is exactly one
    result that is not itself a function type."""

    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def __str__(self) -> str:
        ins = "(" + ", ".join(map(str, self.inputs)) + ")"
        return f"{ins} -> {format_result_types(self.results)}"


def format_result_types(results: tuple[Type, ...]) -> str:
    if len(results) == 1 and not isinstance(results[0], FunctionType):
        return str(results[0])
    return "(" + ", ".join(map(str, results)) + ")"


# --- dialect types -----------------------------------------------------------

DialectParam = Union["Type", "ShapeParam", int, str]


@dataclass(frozen=True)
class ShapeParam:
    """A bracketed shape parameter of a dialect type: `[2,?,8]` (None = `?`)."""

    dims: tuple[Dim, ...]

    def __str__(self) -> str:
        return "[" + _dims(self.dims, ",") + "]"


@dataclass(frozen=True)
class Keyword:
    """A bare keyword parameter of a dialect type, such as `unk` or `*`."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class DialectType(Type):
    """`!dialect.name<params>`; inside a parameter list of the same dialect the
    nested type is written short (`!torch.list<int>`), as torch-mlir prints it."""

    dialect: str
    name: str
    params: tuple = ()

    def __str__(self) -> str:
        try:
            return self._text  # type: ignore[attr-defined,no-any-return]
        except AttributeError:
            pass
        text = "!" + self.dialect + "." + self.body()
        object.__setattr__(self, "_text", text)
        return text

    def body(self) -> str:
        if not self.params:
            return self.name
        return f"{self.name}<{', '.join(self._param(p) for p in self.params)}>"

    def _param(self, p: object) -> str:
        if isinstance(p, DialectType) and p.dialect == self.dialect:
            return p.body()
        if isinstance(p, str):
            return '"' + p + '"'
        return str(p)


@dataclass(frozen=True)
class ValueTensorType(DialectType):
    """torch-mlir's `!torch.vtensor<[2,?],f32>` (value semantics) or
    `!torch.tensor<...>`; shape None means unknown rank, dtype None unknown."""

    def __init__(self, shape: Optional[tuple[Dim, ...]], dtype: Optional[Type], value_semantics: bool = True):
        params: tuple = ()
        if dtype is not None or shape is not None:
            params = (ShapeParam(shape) if shape is not None else Keyword("*"), dtype if dtype is not None else Keyword("unk"))
        object.__setattr__(self, "dialect", "torch")
        object.__setattr__(self, "name", "vtensor" if value_semantics else "tensor")
        object.__setattr__(self, "params", params)

    @property
    def shape(self) -> Optional[tuple[Dim, ...]]:
        if self.params and isinstance(self.params[0], ShapeParam):
            return self.params[0].dims
        return None

    @property
    def dtype(self) -> Optional[Type]:
        if self.params and not isinstance(self.params[1], Keyword):
            return self.params[1]
        return None

    @property
    def rank(self) -> Optional[int]:
        shape = self.shape
        return None if shape is None else len(shape)

    def body(self) -> str:
        if not self.params:
            return self.name
        return f"{self.name}<{self.params[0]},{self.params[1]}>"


def torch_type(name: str, *params: object) -> DialectType:
    """`!torch.<name>` (e.g. torch_type("int"), torch_type("list", torch_type("int")))."""
    return DialectType("torch", name, tuple(params))


@dataclass(frozen=True)
class OpaqueType(Type):
    """A type convopt keeps as text (an unknown dialect's exotic syntax)."""

    text: str

    def __str__(self) -> str:
        return self.text


# --- common instances ---------------------------------------------------------

f16 = FloatType("f16")
bf16 = FloatType("bf16")
f32 = FloatType("f32")
f64 = FloatType("f64")
i1 = IntegerType(1)
i32 = IntegerType(32)
i64 = IntegerType(64)
index = IndexType()

TORCH_INT = torch_type("int")
TORCH_FLOAT = torch_type("float")
TORCH_BOOL = torch_type("bool")
TORCH_NONE = torch_type("none")
TORCH_STR = torch_type("str")
TORCH_DEVICE = torch_type("Device")
TORCH_INT_LIST = torch_type("list", TORCH_INT)
TORCH_BOOL_LIST = torch_type("list", TORCH_BOOL)


def is_float(t: Type) -> bool:
    return isinstance(t, FloatType)


def builtin_element_type(dtype: Type) -> Type:
    """The builtin (signless) element type torch_c uses for a torch dtype."""
    if isinstance(dtype, IntegerType) and dtype.width != 1:
        return IntegerType(dtype.width)
    return dtype


def builtin_tensor_type(t: ValueTensorType) -> RankedTensorType:
    """`!torch.vtensor<[2,?],f32>` -> `tensor<2x?xf32>`."""
    assert t.shape is not None and t.dtype is not None
    return RankedTensorType(tuple(t.shape), builtin_element_type(t.dtype))


def ranked(t: Type) -> RankedTensorType:
    """t as a ranked builtin tensor type (callers have checked it is one)."""
    if not isinstance(t, RankedTensorType):
        raise TypeError(f"expected a ranked tensor type, got '{t}'")
    return t


def vtensor(t: Type) -> ValueTensorType:
    """t as a torch value tensor type (callers have checked it is one)."""
    if not isinstance(t, ValueTensorType):
        raise TypeError(f"expected a !torch.vtensor type, got '{t}'")
    return t
