"""convopt.ir.affine: building, simplifying, printing and evaluating affine
expressions and maps, compared with how mlir-opt prints them."""

from __future__ import annotations

import pytest

from convopt.ir.affine import AffineBinary, AffineConst, AffineDim, AffineMap, d, s


@pytest.mark.parametrize(
    "expr, text",
    [
        (d(0) + d(1) * 2, "d0 + d1 * 2"),
        (d(0) - d(1) * 2, "d0 - d1 * 2"),
        (d(0) - d(1), "d0 - d1"),
        (d(0) - 1, "d0 - 1"),
        (-d(0), "-d0"),
        (3 - d(0), "-d0 + 3"),
        (d(0) + s(0) * 2, "d0 + s0 * 2"),
        (d(0) - d(1) * 2 + 1, "d0 - d1 * 2 + 1"),
        ((d(0) + 1).floordiv(2), "(d0 + 1) floordiv 2"),
        ((d(0) + d(1)).mod(4), "(d0 + d1) mod 4"),
        (d(0).ceildiv(2) + d(1).mod(3), "d0 ceildiv 2 + d1 mod 3"),
        ((d(0) + d(1)) * 2, "(d0 + d1) * 2"),
        (-(d(0) + d(1)), "-(d0 + d1)"),
        (d(0) - (d(1) + 1), "d0 - (d1 + 1)"),
        # tightly binding operators nest in parentheses, as mlir-opt prints them
        (d(0).floordiv(2) * 2, "(d0 floordiv 2) * 2"),
        (d(0) - d(1).floordiv(2), "d0 - d1 floordiv 2"),
        (d(0) - d(1).floordiv(2) * 3, "d0 - (d1 floordiv 2) * 3"),
        (d(0).mod(s(0) * 2), "d0 mod (s0 * 2)"),
        ((-d(0)).floordiv(2), "(-d0) floordiv 2"),
    ],
)
def test_prints_like_mlir(expr, text):
    assert str(expr) == text


def test_constants_fold():
    assert AffineConst(2) + 3 == AffineConst(5)
    assert str(d(0) * 2 * 3) == "d0 * 6"
    assert str(d(0) + 1 + 2) == "d0 + 3"
    assert str(d(0) + 1 - 1) == "d0"
    assert AffineConst(7).floordiv(2) == AffineConst(3)
    assert AffineConst(-7).floordiv(2) == AffineConst(-4)
    assert AffineConst(-7).ceildiv(2) == AffineConst(-3)
    assert AffineConst(-7).mod(3) == AffineConst(2)


def test_identities_disappear():
    assert d(0) + 0 == d(0)
    assert d(0) * 1 == d(0)
    assert d(0) * 0 == AffineConst(0)
    assert d(0).floordiv(1) == d(0)
    assert d(0).ceildiv(1) == d(0)


def test_constant_moves_right():
    e = 2 + d(0)
    assert isinstance(e, AffineBinary) and e.kind == "add"
    assert e.lhs == d(0) and e.rhs == AffineConst(2)
    assert str(2 * d(1)) == "d1 * 2"
    # a constant already on the right stays last when more terms are added
    assert str((d(0) + 1) + d(1)) == "d0 + d1 + 1"


def test_structural_equality_and_hashing():
    assert d(0) + d(1) * 2 == d(0) + 2 * d(1)
    assert len({d(0) + 1, 1 + d(0)}) == 1
    assert d(0) != s(0)


@pytest.mark.parametrize(
    "expr, dims, syms, value",
    [
        (d(0) + d(1) * 2, (3, 4), (), 11),
        (d(0) - d(1) * 2, (3, 4), (), -5),
        ((d(0) + 1).floordiv(2), (4,), (), 2),
        ((d(0) - 5).floordiv(2), (0,), (), -3),
        ((d(0) - 5).ceildiv(2), (0,), (), -2),
        ((d(0) - 5).mod(3), (0,), (), 1),
        (d(0) * s(0) + s(1), (2,), (5, 7), 17),
    ],
)
def test_eval(expr, dims, syms, value):
    assert expr.eval(dims, syms) == value


def test_linear_form():
    assert (d(0) * 2 - d(1) + 3).linear() == ({("d", 0): 2, ("d", 1): -1}, 3)
    assert d(0).floordiv(2).linear() is None


def test_map_print_and_eval():
    m = AffineMap.from_exprs(3, [d(0), d(1) + d(2) * 2, 5])
    assert str(m) == "(d0, d1, d2) -> (d0, d1 + d2 * 2, 5)"
    assert m.eval((1, 2, 3)) == (1, 8, 5)
    assert str(AffineMap(0, 1, (s(0), AffineConst(4)))) == "()[s0] -> (s0, 4)"
    assert str(AffineMap.identity(2)) == "(d0, d1) -> (d0, d1)"
    assert str(AffineMap.identity(0)) == "() -> ()"


def test_projected_permutation():
    assert AffineMap.from_exprs(3, [d(2), d(0)]).is_projected_permutation()
    assert not AffineMap.from_exprs(2, [d(0), d(0)]).is_projected_permutation()
    assert not AffineMap.from_exprs(2, [d(0) + d(1)]).is_projected_permutation()


def test_maps_are_values():
    a = AffineMap.from_exprs(2, [d(0) + 1, d(1)])
    b = AffineMap(2, 0, (AffineDim(0) + 1, AffineDim(1)))
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.num_dims = 3  # type: ignore[misc]
