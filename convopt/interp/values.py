"""Runtime values of the interpreter and how IR types and attributes map to them.

A tensor is a numpy array whose dtype is its element type; a scalar is a
numpy scalar (0-d value) of its type:

    f16 -> float16   bf16 -> ml_dtypes.bfloat16   f32 -> float32   f64 -> float64
    i1 -> bool       iN/siN -> intN   uiN -> uintN   index -> int64

Signless integers are held signed; the unsigned ops (divui, cmpi ult, ...)
reinterpret them.  Every op's results are converted to the numpy type of the
IR type it declares, so arithmetic happens in the precision the IR states
(an f16 `arith.addf` rounds to f16; one in f32 after `arith.extf` does not).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Optional

import numpy as np

from ..ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseAttr,
    DenseResourceAttr,
    FloatAttr,
    IntegerAttr,
    float_from_hex,
)
from ..ir.types import DialectType, FloatType, IndexType, IntegerType, RankedTensorType, Type, ValueTensorType, VectorType, builtin_element_type

_FLOATS = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
_ML_DTYPES = {"bf16": "bfloat16", "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2"}


class TypeNotSupported(Exception):
    """An IR type the interpreter has no numpy counterpart for."""


def element_type(t: Type) -> Type:
    """The element type of a tensor/vector type, or t itself."""
    if isinstance(t, (RankedTensorType, VectorType)):
        return t.element_type
    if isinstance(t, ValueTensorType):
        if t.dtype is None:
            raise TypeNotSupported(f"'{t}' has no dtype")
        return builtin_element_type(t.dtype)
    return t


def np_dtype(t: Type) -> np.dtype:
    """The numpy dtype of a scalar IR type (or of a tensor type's elements)."""
    t = element_type(t)
    if isinstance(t, FloatType):
        if t.name in _FLOATS:
            return np.dtype(_FLOATS[t.name])
        if t.name in _ML_DTYPES:
            import ml_dtypes

            return np.dtype(getattr(ml_dtypes, _ML_DTYPES[t.name]))
    elif isinstance(t, IndexType):
        return np.dtype(np.int64)
    elif isinstance(t, IntegerType):
        if t.width == 1:
            return np.dtype(np.bool_)
        if t.width in (8, 16, 32, 64):
            return np.dtype(f"{'u' if t.signedness == 'u' else ''}int{t.width}")
    raise TypeNotSupported(f"type '{t}' is not supported by the interpreter")


def is_float_dtype(dtype: np.dtype) -> bool:
    """True for numpy's floats and ml_dtypes' (bfloat16, float8...)."""
    return dtype.kind == "f" or dtype.name.startswith(("bfloat", "float"))


def unsigned(dtype: np.dtype) -> np.dtype:
    """The unsigned integer dtype of the same width (bool stays bool)."""
    if dtype == np.bool_:
        return dtype
    return np.dtype(f"uint{dtype.itemsize * 8}")


def shape_of(t: Type) -> tuple:
    """The static shape of a tensor type (None for dynamic dims), () for a scalar."""
    if isinstance(t, RankedTensorType):
        return t.shape
    if isinstance(t, ValueTensorType):
        if t.shape is None:
            raise TypeNotSupported(f"'{t}' has no known rank")
        return t.shape
    if isinstance(t, VectorType):
        return t.shape
    return ()


def is_tensor(t: Type) -> bool:
    return isinstance(t, (RankedTensorType, ValueTensorType, VectorType))


def convert(value: Any, t: Type) -> Any:
    """value as the runtime value of type t: an array of t's element dtype
    for a tensor type, a numpy scalar otherwise (no copy when it already is);
    torch's scalars, lists and none (`!torch.int`, ...) are Python values."""
    if isinstance(t, DialectType) and t.dialect == "torch":
        return value
    dtype = np_dtype(t)
    if is_tensor(t):
        return np.asarray(value).astype(dtype, copy=False)
    arr = np.asarray(value)
    if arr.dtype != dtype:
        arr = arr.astype(dtype)
    return arr.reshape(())[()]


# --- attributes ---------------------------------------------------------------------------------

def int_list(attr: Attribute | None) -> list[int]:
    """Integers of `array<i64: 1, 2>`, `[1, 2]` or `dense<[1, 2]> : vector<2xi64>`."""
    if attr is None:
        return []
    if isinstance(attr, DenseArrayAttr):
        return [int(v) for v in attr.values]
    if isinstance(attr, ArrayAttr):
        return [int(e.value) for e in attr.elements if isinstance(e, IntegerAttr)]
    if isinstance(attr, DenseAttr):
        return [int(v) for v in dense_values(attr).reshape(-1)]
    raise TypeNotSupported(f"expected a list of integers, got '{attr}'")


def _literal(text: str, t: Type) -> Any:
    text = text.strip()
    if isinstance(t, FloatType):
        neg = text.startswith("-")
        body = text[1:] if neg else text
        if body.lower().startswith("0x"):
            value = float_from_hex(body, t)
            return -value if neg else value
        return float(text)
    if text in ("true", "false"):
        return text == "true"
    return int(text, 0)


def dense_values(attr: DenseAttr) -> np.ndarray:
    """The array a `dense<...>` attribute denotes: a splat, nested literals or
    one hex string of the raw little-endian bytes."""
    t = attr.type
    shape = tuple(shape_of(t))
    if any(d is None for d in shape):
        raise TypeNotSupported(f"dense attribute of dynamic type '{t}'")
    dtype = np_dtype(t)
    elem = element_type(t)
    body = attr.body
    if body is None:
        return np.zeros(shape, dtype)
    if isinstance(body, str) and body.startswith('"'):
        raw = bytes.fromhex(body.strip('"')[2:])
        if dtype == np.bool_:
            flat = np.frombuffer(raw, np.uint8).astype(np.bool_)
        else:
            flat = np.frombuffer(raw, dtype)
        size = int(np.prod(shape, dtype=np.int64))
        if flat.size == 1:
            return np.full(shape, flat[0], dtype)
        if flat.size != size:
            raise TypeNotSupported(f"dense hex data holds {flat.size} elements, type '{t}' needs {size}")
        return flat.reshape(shape).copy()
    if isinstance(body, str):
        return np.full(shape, _literal(body, elem)).astype(dtype)

    def build(b: object) -> object:
        return [build(x) for x in b] if isinstance(b, tuple) else _literal(str(b), elem)

    values = np.array(build(body), dtype=object)
    if values.shape != shape:
        raise TypeNotSupported(f"dense literal of shape {values.shape} for type '{t}'")
    return np.array(values.astype(np.float64 if isinstance(elem, FloatType) else object)).astype(dtype)


def constant_value(attr: Attribute, t: Type, resources: Optional[dict[str, bytes]] = None) -> Any:
    """The runtime value of an `arith.constant`'s value attribute (a
    `dense_resource` from `resources`: handle -> blob, `resource_blobs`)."""
    if isinstance(attr, (IntegerAttr, FloatAttr)):
        return convert(attr.value, t)
    if isinstance(attr, DenseAttr):
        return dense_values(attr)
    if isinstance(attr, DenseResourceAttr) and resources is not None and attr.handle in resources:
        dtype = np_dtype(t)
        data = np.frombuffer(resources[attr.handle], dtype=np.uint8 if dtype == np.bool_ else dtype)
        shape = shape_of(t)
        if data.size != int(np.prod(shape, dtype=np.int64)):
            raise TypeNotSupported(f"resource '{attr.handle}' holds {data.size} elements of {dtype}, not the {shape} of '{t}'")
        return data.astype(dtype).reshape(shape)
    raise TypeNotSupported(f"constant value '{attr}' is not supported by the interpreter")


_BLOB = re.compile(r'([A-Za-z_][\w.$-]*)\s*:\s*"0x([0-9A-Fa-f]*)"')


def resource_blobs(metadata: Sequence[str]) -> dict[str, bytes]:
    """The blobs of the `{-# dialect_resources: {builtin: {NAME: "0x..."}} #-}`
    sections of a file, by name, without their leading 4-byte alignment."""
    blobs = {}
    for section in metadata:
        for name, hex_data in _BLOB.findall(section):
            blobs[name] = bytes.fromhex(hex_data)[4:]
    return blobs
