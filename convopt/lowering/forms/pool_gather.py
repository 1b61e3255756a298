"""The form "gather" of the window kernel UNPOOL (pooling.py): max_pool2d's
backward as one gather over the input positions.

    grad_input[n, c, h, w] = sum over the windows (oh, ow) that cover (h, w)
                             and whose argmax indices[n, c, oh, ow] is h * W + w
                             of grad_output[n, c, oh, ow]

One linalg.generic over the input positions and the at most
ceil(K/S) x ceil(K/S) windows covering each (oh = (h + P) div S - i, for
i < ceil(K/S), kept where 0 <= oh < OH and h + P - S * oh < K), reading
grad_output and indices with tensor.extract, adding in grad_output's
element type.  IREE's own lowering (a scatter) fails to build on its GPU
backends at --iree-opt-level=O3, the first flag of iree-turbine's
backward-convolution set (test/gpu/repro/maxpool_bwd_o3.mlir); the gather
builds there (repro/maxpool_bwd_gather_o3.mlir).  It fits the static
batched 2-D op with dilation 1 and ceil_mode false, the form built there;
a candidate of the profiles whose target builds no max_pool_scatter (device.Builds).

Work (cost.Work): generic_depthwise = n*c*H*W*prod(ceil(K/S)), dispatch = 1.
"""

from __future__ import annotations

import math

from ...dialects import arith, linalg, tensor
from ...ir.affine import AffineMap, d
from ...ir.builder import Builder
from ...ir.core import Value
from ..kernel.cost import Work
from ..kernel.emit import Emitter
from ..kernel.request import KernelStats
from .pooling import UnpoolRequest, WindowKind, add_term, index_equals
from .registry import FormDef, Variant, register


def gather_fits(req: UnpoolRequest) -> bool:
    """The static batched 2-D op with dilation 1 and no ceil_mode."""
    static = all(isinstance(x, int) for x in req.lead) and all(isinstance(r.Ns, int) and isinstance(r.Nb, int) for r in req.rels)
    return len(req.rels) == 2 and static and req.batched and not req.ceil_mode and all(r.D == 1 for r in req.rels)


def gather_candidate(req: UnpoolRequest) -> bool:
    return not req.choices.device.builds.max_pool_scatter and gather_fits(req)


def window_taps(req: UnpoolRequest) -> list[int]:
    """ceil(K/S) per dim: the windows that can cover one position."""
    return [-(-r.k // r.S) for r in req.rels]


def static_sizes(req: UnpoolRequest) -> tuple[list[int], list[int], list[int]]:
    """[n, c], grad_output's [OH, OW] and the input's [H, W] of a request the gather fits."""
    sizes = [*req.lead, *(r.Ns for r in req.rels), *(r.Nb for r in req.rels)]
    assert all(isinstance(x, int) for x in sizes)
    return sizes[:2], sizes[2:4], sizes[4:]  # type: ignore[return-value]


def gather_variants(req: UnpoolRequest) -> list[Variant]:
    lead, _, inputs = static_sizes(req)
    iterations = math.prod(lead) * math.prod(inputs) * math.prod(window_taps(req))
    return [Variant("gather", req, Work(generic_depthwise=iterations, dispatch=1))]  # type: ignore[arg-type]


def emit_gather(em: Emitter, req: UnpoolRequest, stats: KernelStats) -> Value:
    """grad_input [n, c, H, W] in grad_output's element type."""
    g, ix = req.ins
    (n, c), (oh_n, ow_n), (h_n, w_n) = static_sizes(req)
    kernel, stride, padding = [r.k for r in req.rels], [r.S for r in req.rels], [r.P for r in req.rels]
    taps = window_taps(req)
    element = req.dtype
    out = em.zeros([n, c, h_n, w_n], element)
    window = em.empty(taps, element)  # gives the window loops their extents
    consts = {v: em.index(v) for v in {0, 1, h_n, w_n, *kernel, *stride, *padding, oh_n - 1, ow_n - 1}}
    zero = em.float(0.0, element)

    def body(b: Builder, args: list[Value]) -> list[Value]:
        pos = [linalg.index(b, i) for i in range(6)]
        ok = None
        at = []
        for dim, (p, q, size) in enumerate(((pos[2], pos[4], oh_n), (pos[3], pos[5], ow_n))):
            shifted = arith.same_type(b, arith.ADDI, p, consts[padding[dim]])
            first = arith.same_type(b, arith.DIVUI, shifted, consts[stride[dim]])  # the last window starting at or before p
            o = arith.same_type(b, arith.SUBI, first, q)
            start = arith.same_type(b, arith.MULI, o, consts[stride[dim]])
            offset = arith.same_type(b, arith.SUBI, shifted, start)
            checks = [
                arith.cmpi(b, "uge", first, q),  # o >= 0
                arith.cmpi(b, "ule", o, consts[size - 1]),  # o < O
                arith.cmpi(b, "ult", offset, consts[kernel[dim]]),  # the window covers p
            ]
            for check in checks:
                ok = check if ok is None else arith.same_type(b, arith.ANDI, ok, check)
            at.append(o)
        assert ok is not None
        at = [arith.select(b, ok, o, consts[0]) for o in at]
        read = [pos[0], pos[1], *at]
        value = tensor.extract(b, g, read)
        argmax = tensor.extract(b, ix, read)
        flat = add_term(b, add_term(b, None, pos[2], consts[w_n]), pos[3], None)  # h * W + w
        take = arith.same_type(b, arith.ANDI, ok, index_equals(b, argmax, flat))
        return [arith.same_type(b, arith.ADDF, args[1], arith.select(b, take, value, zero))]

    maps = [AffineMap.from_exprs(6, [d(4), d(5)]), AffineMap.from_exprs(6, [d(0), d(1), d(2), d(3)])]
    iterators = ["parallel"] * 4 + ["reduction"] * 2
    stats.add(int(gather_variants(req)[0].work.generic_depthwise))
    return em.generic([window], [out], maps, iterators, body)[0]


GATHER = register(FormDef(
    name="gather", kinds=frozenset({WindowKind.UNPOOL}), fits=gather_fits, candidate=gather_candidate,  # type: ignore[arg-type]
    variants=gather_variants, emit=emit_gather, priority=50,  # type: ignore[arg-type]
))
