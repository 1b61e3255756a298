"""The form "taps" of the registry (registry.py): a weight kernel as one
batched matrix product per tap of its first spatial dim, read from views of
A and B, with no im2col copy:

    P_k[n, ca, cb] = sum_m A[n, ca, m] * B[n, cb, m + D*k - P]      m = (s_0, s_1, ...), s_0 in valid_s(rel_0, k)
    out[ca, cb, k, 1...] = sum_n P_k[n, ca, cb]

m runs over tap k's exact range of s_0 (no padding: every multiply-add is
useful) and the other spatial dims, contiguous in A and B (a slice whose
rows are contiguous) only when every other dim is the identity
(`identity_dim`: K = 1, S = 1, P = 0, Ns = Nb), and, with other dims, S = 1
along dim 0: 1-D convolutions (any stride), k x 1 2-D and k x 1 x 1 3-D
kernels, 1x1 ones (one tap).  Each product keeps the batch n as a parallel
dim (a batch matmul with B transposed, reduced over m only: IREE's CPU
codegen takes it as a contraction; with n reduced in the same op it ran 3x
slower than im2col on r2plus1d-3x1x1), and one op sums the batch and
stacks the taps into the weight's layout.

Against im2col (matmul_forms.py), which copies B once per tap into its
column matrix and A once transposed, this form moves no data before the
products: each product reads its slices of A and B in place, its spatial
dims kept as reduction dims (IREE collapses them; collapsed here, the
slices of a tensor computed in the same step became slow_memcpy
dispatches).  Forced only for now (taps_candidate); taps_work is its work
for when auto takes it.  Grouped kernels and dynamic sizes are left to
the other forms.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...dialects import arith, linalg
from ...ir.affine import AffineMap, d
from ...ir.builder import Builder
from ...ir.core import Value
from ..kernel.cost import Work
from ..kernel.emit import Emitter
from ..kernel.relation import Kind, Rel, reaching
from ..kernel.request import KernelRequest, KernelStats
from ..kernel.roles import from_roles, present, to_roles
from .generic_form import multiply_add
from .registry import FormDef, Variant, register

MAX_TAPS = 8
"""The most taps of dim 0 the form emits: the op that stacks the taps reads
one product per tap and selects by its index (a chain of K selects)."""


def identity_dim(r: Rel) -> bool:
    """A spatial dim that the kernel maps one to one: b = s over all of B."""
    return r.K == 1 and r.S == 1 and r.P == 0 and r.Ns == r.Nb


def taps_fits(req: KernelRequest) -> bool:
    """A static, ungrouped weight kernel whose dims after the first are
    identities (stride 1 along the first, unless it is the only one), with
    at most MAX_TAPS taps."""
    roles, rels = req.roles, req.rels
    if req.kind != Kind.WEIGHT or roles["g"] != 1 or not all(isinstance(roles[x], int) for x in ("n", "ca", "cb")):
        return False
    if not all(r.static for r in rels) or not 1 <= rels[0].k <= MAX_TAPS:
        return False
    return all(identity_dim(r) for r in rels[1:]) and (rels[0].S == 1 or len(rels) == 1)


def taps_candidate(req: KernelRequest) -> bool:
    """auto does not consider it yet (`--conv-form=taps` forces it): its
    kernels ran faster alone, whole steps did not (docs/decisions.md,
    taps_candidate)."""
    return False


def taps_work(req: KernelRequest) -> Work:
    """With R = prod of the other dims' sizes and T the taps reaching B:

        matmul multiply-adds = N*Ca*Cb * R * sum_k |valid_s(k)|     (exact)
        matmul ops = T, results = T*N*Ca*Cb
        copy = 4 * T*N*Ca*Cb  (the stacking op reads every product)
        dispatches = T + 1"""
    n, ca, cb = (req.roles[x] for x in ("n", "ca", "cb"))
    assert isinstance(n, int) and isinstance(ca, int) and isinstance(cb, int)
    rest = _rest(req.rels)
    taps = reaching(req.rels[0])
    positions = sum(len(s) for _, s in taps)
    products = len(taps) * n * ca * cb
    return Work(matmul=float(n * ca * cb * rest * positions), matmul_op=float(len(taps)), matmul_result=float(products),
                copy_byte=4.0 * products, dispatch=len(taps) + 1.0)


def taps_variants(req: KernelRequest) -> list[Variant]:
    return [Variant("taps", req, taps_work(req))]


def _rest(rels: Sequence[Rel]) -> int:
    """R: the positions of the dims after the first (identities, K = 1)."""
    return math.prod(r.Ns for r in rels[1:])  # type: ignore[misc]


def _view(em: Emitter, v: Value, lead: int, first: int, count: int, stride: int) -> Value:
    """v[lead..., first + stride*i, rest...] for i < count: a slice along
    the first spatial dim, whole along the others."""
    shape = em.shape(v)
    rank = len(shape)
    offsets = [0] * rank
    sizes = list(shape)
    strides = [1] * rank
    offsets[lead], sizes[lead], strides[lead] = first, count, stride
    return em.extract_slice(v, offsets, sizes, strides)


def emit_taps(em: Emitter, req: KernelRequest, stats: KernelStats) -> Value:
    """req (taps_fits) as one product per tap reaching B and one op that
    sums the batch and stacks the taps (see the module docstring)."""
    live = present(req.roles)
    first = req.rels[0]
    a = to_roles(em, req.ins[0], req.layouts[0], req.roles)
    b = to_roles(em, req.ins[1], req.layouts[1], req.roles)
    a_roles = [r for r in ("n", "ca") if r in live]
    b_roles = [r for r in ("n", "cb") if r in live]
    par: list[str] = [r for r in ("n", "ca", "cb") if r in live]
    loop = {r: i for i, r in enumerate(par)}
    m, nd = len(par), len(req.rels)
    spatial = [d(m + i) for i in range(nd)]
    maps = [AffineMap.from_exprs(m + nd, [d(loop[r]) for r in a_roles] + spatial),
            AffineMap.from_exprs(m + nd, [d(loop[r]) for r in b_roles] + spatial),
            AffineMap.from_exprs(m + nd, [d(i) for i in range(m)])]
    sizes = [req.roles[r] for r in par]
    rest = _rest(req.rels)
    products: dict[int, Value] = {}
    for k, s in reaching(first):
        a_k = _view(em, a, len(a_roles), s.start, len(s), 1)
        b_k = _view(em, b, len(b_roles), first.S * s.start + first.D * k - first.P, len(s), first.S)
        acc = em.zeros(sizes, req.acc_type)
        products[k] = em.generic([a_k, b_k], [acc], maps, ["parallel"] * m + ["reduction"] * nd,
                                 lambda bb, x: [multiply_add(bb, x[0], x[1], x[2], req.acc_type)])[0]
        executed = len(s) * rest
        for size in sizes:
            executed *= size  # type: ignore[operator]
        stats.add(executed)
    return from_roles(em, _stack(em, req, products, par), req.out_layout, req.roles)


def _stack(em: Emitter, req: KernelRequest, products: dict[int, Value], par: list[str]) -> Value:
    """out[ca, cb, k, 1...] = sum_n P_k[n, ca, cb] (0 for a tap reaching
    nothing): one linalg.generic over (ca, cb, k, n) selecting P_k by k."""
    first, acc_type = req.rels[0], req.acc_type
    out_roles = [r for r in par if r != "n"]
    loops = out_roles + ["k"] + (["n"] if "n" in par else [])
    at = {r: i for i, r in enumerate(loops)}
    taps = sorted(products)
    ins = [products[k] for k in taps]
    in_map = AffineMap.from_exprs(len(loops), [d(at[r]) for r in par])
    out_map = AffineMap.from_exprs(len(loops), [d(at[r]) for r in out_roles + ["k"]])
    out = em.zeros([req.roles[r] for r in out_roles] + [first.K], acc_type)
    if not products:  # no tap reaches B: the gradient is zero
        return _unit_spatial(em, req, out, len(out_roles))
    iterators = ["parallel"] * (len(out_roles) + 1) + (["reduction"] if "n" in par else [])

    last = len(taps) - 1 if len(taps) == first.k else len(taps)  # every tap present: the last one needs no test
    zero = em.float(0.0, acc_type) if last == len(taps) else None
    tap_index = [em.index(k) for k in taps[:last]]

    def body(bb: Builder, args: list[Value]) -> list[Value]:
        k = linalg.index(bb, at["k"])
        chosen = args[last] if zero is None else zero
        for j in range(last - 1, -1, -1):
            chosen = arith.select(bb, arith.cmpi(bb, "eq", k, tap_index[j]), args[j], chosen)
        return [arith.same_type(bb, arith.ADDF, args[-1], chosen)]

    stacked = em.generic(ins, [out], [in_map] * len(ins) + [out_map], iterators, body)[0]
    return _unit_spatial(em, req, stacked, len(out_roles))


def _unit_spatial(em: Emitter, req: KernelRequest, v: Value, lead: int) -> Value:
    """v[lead roles..., K] with the other spatial dims (size 1) appended."""
    units = len(req.rels) - 1
    if not units:
        return v
    groups = [[i] for i in range(lead)] + [list(range(lead, lead + 1 + units))]
    return em.expand(v, groups, em.shape(v) + [1] * units)


TAPS = register(FormDef(name="taps", kinds=frozenset({Kind.WEIGHT}), fits=taps_fits, candidate=taps_candidate, variants=taps_variants, emit=emit_taps, priority=30))
