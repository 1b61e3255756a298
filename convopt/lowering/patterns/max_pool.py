"""aten.max_pool2d_with_indices_backward as a gather (device profile
`gather_max_pool`, the gpu class; convopt-torch-to-linalg, i.e. with
--lower-forward-convs).

    grad_input[n, c, h, w] = sum over the windows (oh, ow) that cover (h, w)
                             and whose argmax indices[n, c, oh, ow] is h * W + w
                             of grad_output[n, c, oh, ow]

One linalg.generic over the input positions and the at most
ceil(K/S) x ceil(K/S) windows covering each (oh = (h + P) div S - i, for
i < ceil(K/S), kept where 0 <= oh < OH and h + P - S * oh < K), reading
grad_output and indices with tensor.extract.  IREE's own lowering (a
scatter) fails to build on its GPU backends at --iree-opt-level=O3, the
first flag of iree-turbine's backward-convolution set
(test/gpu/repro/maxpool_bwd_o3.mlir); the gather builds there.  Only the
static 4-D form with dilation 1 and ceil_mode false is lowered; any other
is left to the backend.
"""

from __future__ import annotations

from typing import Optional

from ...dialects import arith, linalg, tensor, torch
from ...ir.affine import AffineMap, d
from ...ir.builder import Builder
from ...ir.core import Operation, Value
from ...ir.types import FloatType, ValueTensorType, i64, vtensor
from ...rewrite import RewritePattern, Rewriter
from .conv_spec import builtin_operand, check_i64, constant_bool, constant_list, emitter_before, torch_result, window_extent

MAX_POOL2D_BACKWARD = "torch.aten.max_pool2d_with_indices_backward"


def _static(t: object, rank: int) -> Optional[list[int]]:
    if not isinstance(t, ValueTensorType) or t.shape is None or len(t.shape) != rank or any(s is None or s < 0 for s in t.shape):
        return None
    return list(t.shape)  # type: ignore[arg-type]


def _pair(v: Value) -> Optional[list[int]]:
    xs = constant_list(v)
    if xs is None or len(xs) not in (1, 2):
        return None
    return xs * 2 if len(xs) == 1 else xs


class LowerMaxPool2dBackward(RewritePattern):
    """The gather form of max_pool2d_with_indices_backward (module docstring)."""

    root = torch.default(MAX_POOL2D_BACKWARD)

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        if len(op.operands) != 8:
            return False
        grad, source, kernel_v, stride_v, padding_v, dilation_v, ceil_v, indices = op.operands
        kernel, padding, dilation = _pair(kernel_v), _pair(padding_v), _pair(dilation_v)
        stride = kernel if constant_list(stride_v) == [] else _pair(stride_v)
        g_shape, x_shape, i_shape = _static(grad.type, 4), _static(source.type, 4), _static(indices.type, 4)
        gt = grad.type
        if None in (kernel, stride, padding, dilation, g_shape, x_shape) or i_shape != g_shape or constant_bool(ceil_v) is not False:
            return False
        if dilation != [1, 1] or not isinstance(gt, ValueTensorType) or not isinstance(gt.dtype, FloatType):
            return False
        assert kernel and stride and padding and g_shape and x_shape
        if min(kernel + stride) < 1 or min(padding) < 0:
            return False  # PyTorch rejects it: left to the backend's verifier
        check_i64(op, (vtensor(source.type), gt), [window_extent(stride[i], 1, kernel[i], padding[i], (x_shape[2 + i], g_shape[2 + i])) for i in range(2)])
        (n, c, oh_n, ow_n), (_, _, h_n, w_n) = g_shape, x_shape
        taps = [-(-k // s) for k, s in zip(kernel, stride)]
        em = emitter_before(op)
        g = builtin_operand(em, grad)
        ix = builtin_operand(em, indices)
        element = gt.dtype
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
            flat = arith.same_type(b, arith.ADDI, arith.same_type(b, arith.MULI, pos[2], consts[w_n]), pos[3])
            hit = arith.cmpi(b, "eq", argmax, arith.convert(b, arith.INDEX_CAST, flat, i64))
            take = arith.same_type(b, arith.ANDI, ok, hit)
            return [arith.same_type(b, arith.ADDF, args[1], arith.select(b, take, value, zero))]

        maps = [AffineMap.from_exprs(6, [d(4), d(5)]), AffineMap.from_exprs(6, [d(0), d(1), d(2), d(3)])]
        iterators = ["parallel"] * 4 + ["reduction"] * 2
        result = em.generic([window], [out], maps, iterators, body)[0]
        rewriter.replace_op(op, [torch_result(em, result, op.results[0])])
        return True

