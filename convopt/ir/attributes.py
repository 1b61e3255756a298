"""Attributes and locations: frozen values printed in MLIR form.

Attribute printing that needs context (aliases such as `#map`) goes through
the printer; `str()` of an attribute gives its inline form.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from typing import Optional

from .affine import AffineMap
from .types import FloatType, IndexType, IntegerType, Type, f64, i64


class Attribute:
    __slots__ = ()


@dataclass(frozen=True)
class IntegerAttr(Attribute):
    """`3 : i32`; the i64 type is implied when printed without a type, and an
    i1 integer is `true` / `false` (MLIR's bool attribute)."""

    value: int
    type: Type = i64

    def __str__(self) -> str:
        if isinstance(self.type, IntegerType) and self.type.width == 1 and not self.type.signedness:
            return "true" if self.value else "false"
        if self.type == i64:
            return str(self.value)
        return f"{self.value} : {self.type}"


@dataclass(frozen=True)
class FloatAttr(Attribute):
    """`1.000000e+00 : f32`; f64 is implied when printed without a type."""

    value: float
    type: Type = f64

    def __str__(self) -> str:
        text = format_float(self.value, self.type)
        return text if self.type == f64 else f"{text} : {self.type}"


@dataclass(frozen=True)
class StringAttr(Attribute):
    value: str

    def __str__(self) -> str:
        return quote_string(self.value)


@dataclass(frozen=True)
class UnitAttr(Attribute):
    def __str__(self) -> str:
        return "unit"


def _cached_hash(obj: object, fields: tuple) -> int:
    """The dataclass hash of obj's fields, computed once (for attributes
    that are deep: arrays, dictionaries, affine maps)."""
    try:
        return obj._hash  # type: ignore[attr-defined,no-any-return]
    except AttributeError:
        h = hash(fields)
        object.__setattr__(obj, "_hash", h)
        return h


@dataclass(frozen=True)
class ArrayAttr(Attribute):
    elements: tuple[Attribute, ...]

    def __hash__(self) -> int:
        return _cached_hash(self, (self.elements,))

    def __str__(self) -> str:
        return "[" + ", ".join(map(str, self.elements)) + "]"


@dataclass(frozen=True)
class DictAttr(Attribute):
    entries: tuple[tuple[str, Attribute], ...]

    def __hash__(self) -> int:
        return _cached_hash(self, (self.entries,))

    def get(self, name: str) -> Optional[Attribute]:
        for key, value in self.entries:
            if key == name:
                return value
        return None

    def __str__(self) -> str:
        return "{" + ", ".join(format_entry(k, v) for k, v in self.entries) + "}"


@dataclass(frozen=True)
class TypeAttr(Attribute):
    type: Type

    def __str__(self) -> str:
        return str(self.type)


@dataclass(frozen=True)
class AffineMapAttr(Attribute):
    map: AffineMap

    def __hash__(self) -> int:
        return _cached_hash(self, (self.map,))

    def __str__(self) -> str:
        return f"affine_map<{self.map}>"


@dataclass(frozen=True)
class DenseAttr(Attribute):
    """`dense<...> : type`; the body is kept as the nested list of literal
    texts (or one hex string) it was written with."""

    body: object  # str literal, nested tuples of str literals, or None (`dense<>`)
    type: Type

    def __str__(self) -> str:
        return f"dense<{_dense_body(self.body)}> : {self.type}"

    @staticmethod
    def splat(literal: str, type: Type) -> DenseAttr:
        return DenseAttr(literal, type)


def _dense_body(body: object) -> str:
    if body is None:
        return ""
    if isinstance(body, tuple):
        return "[" + ", ".join(_dense_body(b) for b in body) + "]"
    return str(body)


@dataclass(frozen=True)
class DenseResourceAttr(Attribute):
    handle: str
    type: Type

    def __str__(self) -> str:
        return f"dense_resource<{self.handle}> : {self.type}"


DYNAMIC_INDEX = -(2**63)
"""MLIR's ShapedType::kDynamic: an entry of a static offset/size array
(`static_offsets = array<i64: 0, -9223372036854775808>`) given by the next
dynamic operand instead."""


@dataclass(frozen=True)
class DenseArrayAttr(Attribute):
    """`array<i64: 1, 2>`."""

    element_type: Type
    values: tuple

    def __hash__(self) -> int:
        return _cached_hash(self, (self.element_type, self.values))

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.element_type}>"
        vals = ", ".join(_array_literal(v, self.element_type) for v in self.values)
        return f"array<{self.element_type}: {vals}>"


def _array_literal(v: object, t: Type) -> str:
    if isinstance(t, IntegerType) and t.width == 1:
        return "true" if v else "false"
    if isinstance(v, float):
        return format_float(v, t)
    return str(v)


@dataclass(frozen=True)
class SymbolRefAttr(Attribute):
    root: str
    nested: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "::".join("@" + symbol_name(n) for n in (self.root, *self.nested))


@dataclass(frozen=True)
class OpaqueAttr(Attribute):
    """A dialect attribute convopt keeps as text: `#arith.fastmath<fast>`."""

    text: str

    def __str__(self) -> str:
        return self.text


# --- locations ---------------------------------------------------------------

class Location(Attribute):
    __slots__ = ()

    def __str__(self) -> str:
        return f"loc({self.inner()})"

    def inner(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class UnknownLoc(Location):
    def inner(self) -> str:
        return "unknown"


@dataclass(frozen=True)
class FileLineColLoc(Location):
    filename: str
    line: int
    col: int
    end: Optional[tuple[Optional[int], int]] = None  # (end line or None, end col)

    def inner(self) -> str:
        text = f"{quote_string(self.filename)}:{self.line}:{self.col}"
        if self.end is not None:
            end_line, end_col = self.end
            text += f" to {end_line}:{end_col}" if end_line is not None else f" to :{end_col}"
        return text


@dataclass(frozen=True)
class NameLoc(Location):
    name: str
    child: Optional[Location] = None

    def inner(self) -> str:
        if self.child is None:
            return quote_string(self.name)
        return f"{quote_string(self.name)}({self.child.inner()})"


@dataclass(frozen=True)
class CallSiteLoc(Location):
    callee: Location
    caller: Location

    def inner(self) -> str:
        return f"callsite({self.callee.inner()} at {self.caller.inner()})"


@dataclass(frozen=True)
class FusedLoc(Location):
    locations: tuple[Location, ...]
    metadata: Optional[Attribute] = None

    def inner(self) -> str:
        meta = f"<{self.metadata}>" if self.metadata is not None else ""
        return f"fused{meta}[" + ", ".join(l.inner() for l in self.locations) + "]"


# --- helpers -----------------------------------------------------------------

_BARE_KEY_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")


_BARE_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def is_bare_identifier(name: str) -> bool:
    return _BARE_IDENTIFIER.fullmatch(name) is not None


def format_entry(name: str, value: Attribute) -> str:
    key = name if is_bare_identifier(name) else quote_string(name)
    if isinstance(value, UnitAttr):
        return key
    return f"{key} = {value}"


def symbol_name(name: str) -> str:
    return name if is_bare_identifier(name) or (name and all(c in _BARE_KEY_CHARS or c == "-" for c in name) and not name[0].isdigit()) else quote_string(name)


_PLAIN_STRING = re.compile(r'[ !#-\[\]-~]*')
"""Printable ASCII other than `"` and `\\`: quoted as it is."""


def quote_string(value: str) -> str:
    """MLIR string literal: printable ASCII as is, `\\` doubled, `"` and
    everything else as `\\XX` hex bytes (as mlir-opt prints it)."""
    if _PLAIN_STRING.fullmatch(value):
        return '"' + value + '"'
    out = ['"']
    for byte in value.encode("utf-8"):
        ch = chr(byte)
        if ch == "\\":
            out.append("\\\\")
        elif 0x20 <= byte < 0x7F and ch != '"':
            out.append(ch)
        else:
            out.append("\\%02X" % byte)
    out.append('"')
    return "".join(out)


def _round_to(value: float, t: Type) -> float:
    """Round a Python float to the precision of float type t."""
    if not isinstance(t, FloatType) or t.name == "f64":
        return value
    if t.name == "f32":
        return struct.unpack("f", struct.pack("f", value))[0]
    if t.name == "f16":
        try:
            return struct.unpack("e", struct.pack("e", value))[0]
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    if t.name == "bf16":
        bits = struct.unpack("I", struct.pack("f", value))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return struct.unpack("f", struct.pack("I", bits))[0]
    return value


_SIG_DIGITS = {"f16": 5, "bf16": 4, "f32": 8, "f64": 17}


def format_float(value: float, t: Type = f64) -> str:
    """Print a float as mlir-opt does: `%.6e` when that reads back exactly,
    otherwise all significant digits; NaN and infinities in hex."""
    if math.isnan(value) or math.isinf(value):
        return float_hex(value, t)
    short = "%.6e" % value
    if _round_to(float(short), t) == value:
        return short
    digits = _SIG_DIGITS.get(getattr(t, "name", "f64"), 17)
    text = "%.*g" % (digits, value)
    if "e" in text:
        mant, exp = text.split("e")
        if "." in mant:
            mant = mant.rstrip("0").rstrip(".")
            if "." not in mant:
                mant += ".0"
        else:
            mant += ".0"
        return f"{mant}E{int(exp):+d}"
    if "." in text:
        text = text.rstrip("0")
        if text.endswith("."):
            text += "0"
    else:
        text += ".0"
    return text


def float_hex(value: float, t: Type) -> str:
    name = getattr(t, "name", "f64")
    if name == "f64":
        return "0x%016X" % struct.unpack("Q", struct.pack("d", value))[0]
    if name == "f32":
        return "0x%08X" % struct.unpack("I", struct.pack("f", value))[0]
    if name == "f16":
        return "0x%04X" % struct.unpack("H", struct.pack("e", value))[0]
    if name == "bf16":
        return "0x%04X" % (struct.unpack("I", struct.pack("f", value))[0] >> 16)
    return repr(value)


def float_from_hex(text: str, t: Type) -> float:
    bits = int(text, 16)
    name = getattr(t, "name", "f64")
    if name == "f32":
        return struct.unpack("f", struct.pack("I", bits & 0xFFFFFFFF))[0]
    if name == "f16":
        return struct.unpack("e", struct.pack("H", bits & 0xFFFF))[0]
    if name == "bf16":
        return struct.unpack("f", struct.pack("I", (bits & 0xFFFF) << 16))[0]
    return struct.unpack("d", struct.pack("Q", bits & 0xFFFFFFFFFFFFFFFF))[0]


def index_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, IndexType())
