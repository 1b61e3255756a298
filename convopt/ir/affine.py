"""Affine expressions and maps, as small frozen values.

Expressions are built with Python operators (`d(0) * 2 + d(1) - 1`) and keep
MLIR's canonical shape while being built: constants fold, a constant operand
of `+` or `*` moves to the right, `x * 1` and `x + 0` disappear.  They print
the way mlir-opt prints them (`d0 + d1 * 2`, `d0 - d1 * 2`, `d0 floordiv 2`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional, Union

ExprLike = Union["AffineExpr", int]


class AffineExpr:
    __slots__ = ()

    # -- construction -----------------------------------------------------------
    def __add__(self, other: ExprLike) -> AffineExpr:
        return _add(self, _wrap(other))

    def __radd__(self, other: ExprLike) -> AffineExpr:
        return _add(_wrap(other), self)

    def __sub__(self, other: ExprLike) -> AffineExpr:
        return _add(self, _mul(_wrap(other), AffineConst(-1)))

    def __rsub__(self, other: ExprLike) -> AffineExpr:
        return _add(_wrap(other), _mul(self, AffineConst(-1)))

    def __mul__(self, other: ExprLike) -> AffineExpr:
        return _mul(self, _wrap(other))

    def __rmul__(self, other: ExprLike) -> AffineExpr:
        return _mul(_wrap(other), self)

    def __neg__(self) -> AffineExpr:
        return _mul(self, AffineConst(-1))

    def floordiv(self, other: ExprLike) -> AffineExpr:
        return _binary("floordiv", self, _wrap(other))

    def ceildiv(self, other: ExprLike) -> AffineExpr:
        return _binary("ceildiv", self, _wrap(other))

    def mod(self, other: ExprLike) -> AffineExpr:
        return _binary("mod", self, _wrap(other))

    # -- queries ----------------------------------------------------------------
    def eval(self, dims: list[int] | tuple[int, ...], syms: list[int] | tuple[int, ...] = ()) -> int:
        raise NotImplementedError

    def linear(self) -> Optional[tuple[dict[tuple[str, int], int], int]]:
        """{("d"|"s", pos): coefficient}, constant -- or None if not linear."""
        raise NotImplementedError

    def __str__(self) -> str:
        return _print(self, strong=False)


@dataclass(frozen=True, eq=True)
class AffineDim(AffineExpr):
    pos: int

    def eval(self, dims, syms=()):
        return dims[self.pos]

    def linear(self):
        return {("d", self.pos): 1}, 0


@dataclass(frozen=True, eq=True)
class AffineSym(AffineExpr):
    pos: int

    def eval(self, dims, syms=()):
        return syms[self.pos]

    def linear(self):
        return {("s", self.pos): 1}, 0


@dataclass(frozen=True, eq=True)
class AffineConst(AffineExpr):
    value: int

    def eval(self, dims, syms=()):
        return self.value

    def linear(self):
        return {}, self.value


@dataclass(frozen=True, eq=True)
class AffineBinary(AffineExpr):
    kind: str  # "add", "mul", "floordiv", "ceildiv", "mod"
    lhs: AffineExpr
    rhs: AffineExpr

    def eval(self, dims, syms=()):
        a, b = self.lhs.eval(dims, syms), self.rhs.eval(dims, syms)
        if self.kind == "add":
            return a + b
        if self.kind == "mul":
            return a * b
        if self.kind == "floordiv":
            return a // b
        if self.kind == "ceildiv":
            return -((-a) // b)
        return a % b

    def linear(self):
        left, right = self.lhs.linear(), self.rhs.linear()
        if left is None or right is None:
            return None
        if self.kind == "add":
            coeffs = dict(left[0])
            for k, v in right[0].items():
                coeffs[k] = coeffs.get(k, 0) + v
            return coeffs, left[1] + right[1]
        if self.kind == "mul":
            if not right[0]:
                return {k: v * right[1] for k, v in left[0].items()}, left[1] * right[1]
            if not left[0]:
                return {k: v * left[1] for k, v in right[0].items()}, left[1] * right[1]
        return None


def d(pos: int) -> AffineDim:
    return AffineDim(pos)


def s(pos: int) -> AffineSym:
    return AffineSym(pos)


def _wrap(x: ExprLike) -> AffineExpr:
    return AffineConst(x) if isinstance(x, int) else x


def _add(a: AffineExpr, b: AffineExpr) -> AffineExpr:
    if isinstance(a, AffineConst) and isinstance(b, AffineConst):
        return AffineConst(a.value + b.value)
    if isinstance(a, AffineConst):
        a, b = b, a
    if isinstance(b, AffineConst):
        if b.value == 0:
            return a
        # (x + c1) + c2 -> x + (c1 + c2)
        if isinstance(a, AffineBinary) and a.kind == "add" and isinstance(a.rhs, AffineConst):
            return _add(a.lhs, AffineConst(a.rhs.value + b.value))
    elif isinstance(a, AffineBinary) and a.kind == "add" and isinstance(a.rhs, AffineConst):
        # keep the constant last: (x + c) + y -> (x + y) + c
        return _add(_add(a.lhs, b), a.rhs)
    return AffineBinary("add", a, b)


def _mul(a: AffineExpr, b: AffineExpr) -> AffineExpr:
    if isinstance(a, AffineConst) and isinstance(b, AffineConst):
        return AffineConst(a.value * b.value)
    if isinstance(a, AffineConst):
        a, b = b, a
    if isinstance(b, AffineConst):
        if b.value == 1:
            return a
        if b.value == 0:
            return AffineConst(0)
        if isinstance(a, AffineBinary) and a.kind == "mul" and isinstance(a.rhs, AffineConst):
            return _mul(a.lhs, AffineConst(a.rhs.value * b.value))
    return AffineBinary("mul", a, b)


def _binary(kind: str, a: AffineExpr, b: AffineExpr) -> AffineExpr:
    if isinstance(a, AffineConst) and isinstance(b, AffineConst) and b.value != 0:
        return AffineConst(AffineBinary(kind, a, b).eval((), ()))
    if isinstance(b, AffineConst) and b.value == 1 and kind != "mod":
        return a
    return AffineBinary(kind, a, b)


def _print(e: AffineExpr, strong: bool) -> str:
    if isinstance(e, AffineDim):
        return f"d{e.pos}"
    if isinstance(e, AffineSym):
        return f"s{e.pos}"
    if isinstance(e, AffineConst):
        return str(e.value)
    assert isinstance(e, AffineBinary)
    if e.kind != "add":  # binds tightly: parenthesized inside another operator, as mlir-opt does
        if e.kind == "mul" and isinstance(e.rhs, AffineConst) and e.rhs.value == -1:
            text = "-" + _print(e.lhs, True)
        else:
            op = "*" if e.kind == "mul" else e.kind
            text = f"{_print(e.lhs, True)} {op} {_print(e.rhs, True)}"
        return f"({text})" if strong else text
    # add: print `a - b` for a negative right operand, as mlir-opt does.
    lhs = _print(e.lhs, False)
    rhs = e.rhs
    if isinstance(rhs, AffineConst) and rhs.value < 0:
        text = f"{lhs} - {-rhs.value}"
    elif isinstance(rhs, AffineBinary) and rhs.kind == "mul" and isinstance(rhs.rhs, AffineConst) and rhs.rhs.value < 0:
        factor = -rhs.rhs.value
        if factor == 1:  # `a - b`: b needs parentheses only if it is a sum
            term = _print(rhs.lhs, isinstance(rhs.lhs, AffineBinary) and rhs.lhs.kind == "add")
        else:
            term = f"{_print(rhs.lhs, True)} * {factor}"
        text = f"{lhs} - {term}"
    else:
        text = f"{lhs} + {_print(rhs, False)}"
    return f"({text})" if strong else text


@dataclass(frozen=True)
class AffineMap:
    """`(d0, d1)[s0] -> (d0, d1 + s0)`."""

    num_dims: int
    num_symbols: int
    results: tuple[AffineExpr, ...]

    @staticmethod
    def from_exprs(num_dims: int, results: Sequence[ExprLike], num_symbols: int = 0) -> AffineMap:
        return AffineMap(num_dims, num_symbols, tuple(_wrap(r) for r in results))

    @staticmethod
    def identity(n: int) -> AffineMap:
        return AffineMap(n, 0, tuple(AffineDim(i) for i in range(n)))

    def __hash__(self) -> int:
        # the dataclass hash, kept: maps are dict keys (aliases, verifier and cleanup caches)
        try:
            return self._hash  # type: ignore[attr-defined,no-any-return]
        except AttributeError:
            h = hash((self.num_dims, self.num_symbols, self.results))
            object.__setattr__(self, "_hash", h)
            return h

    def eval(self, dims, syms=()) -> tuple[int, ...]:
        return tuple(r.eval(dims, syms) for r in self.results)

    def is_projected_permutation(self) -> bool:
        seen = set()
        for r in self.results:
            if not isinstance(r, AffineDim) or r.pos in seen:
                return False
            seen.add(r.pos)
        return True

    def __str__(self) -> str:
        dims = ", ".join(f"d{i}" for i in range(self.num_dims))
        syms = ""
        if self.num_symbols:
            syms = "[" + ", ".join(f"s{i}" for i in range(self.num_symbols)) + "]"
        return f"({dims}){syms} -> (" + ", ".join(str(r) for r in self.results) + ")"
