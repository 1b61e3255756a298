#!/usr/bin/env python3
"""Regenerate the real torch-mlir test inputs in ``test/inputs/``.

Every ``*.mlir`` file next to this script is produced the way a user gets
torch-dialect IR containing ``torch.aten.convolution_backward``:

1. A small ``nn.Module`` is built with ``torch.manual_seed(0)``.
2. A pure function ``fwd_bwd(*inputs, *params, *buffers, *grad_outs)`` runs
   the module through ``torch.func.functional_call`` inside
   ``torch.func.vjp`` and returns the vector-Jacobian products (gradients of
   the inputs and of all parameters) followed by the updated buffers
   (BatchNorm running statistics).  All weights, biases and buffers are
   *function arguments*, so no large ``torch.vtensor.literal`` ends up in
   the IR.  (Exporting a forward that calls ``torch.autograd.grad`` fails in
   torch 2.13, hence ``vjp``.)
3. ``fwd_bwd`` is traced with ``torch.fx.experimental.proxy_tensor.make_fx``
   (``tracing_mode="symbolic"`` for the dynamic-batch case), the resulting
   GraphModule is wrapped in an ``nn.Module`` and handed to
   ``torch_mlir.fx.export_and_import`` (default RAW output, default
   decomposition table, which keeps ``aten.convolution_backward`` but
   decomposes e.g. ``native_batch_norm_backward``).
4. The module is printed (``str(module)``, or with ``enable_debug_info=True``
   for ``debuginfo.mlir``) and post-processed so that the output is
   deterministic: absolute paths in locations are made relative
   (``site-packages/...`` and ``test/inputs/generate.py``), the per-process
   ``<eval_with_key>.N`` counter of FX-generated code is normalised, and a
   trailing newline is ensured.

Files written:
  resnet_basic_block.mlir   conv3x3/s2-BN-ReLU-conv3x3-BN + 1x1/s2 conv-BN
                            shortcut, add, ReLU; grads of x, all params.
  depthwise_separable.mlir  depthwise 3x3 (groups=C) - BN - ReLU - 1x1 conv.
  conv_transpose.mlir       ConvTranspose2d(stride 2, pad 1, out_pad 1, bias).
  dynamic_batch.mlir        Conv2d(bias, s1, p1) with a dynamic batch dim,
                            imported with import_symbolic_shape_expressions
                            (torch.symbolic_int / torch.bind_symbolic_shape).
  conv1d_conv3d.mlir        Conv1d(stride 2, dilation 2) and Conv3d(groups 2)
                            in one forward (two outputs, two grad_outs).
  debuginfo.mlir            small Conv2d(bias)+ReLU printed with loc(...) info.
                            Its locations name torch's proxy_tensor.py and
                            the line of Wrapper.forward in this script, so
                            editing this file (or upgrading torch) changes it.

Usage (from the repository root):
    .venv/bin/python test/inputs/generate.py [OUTPUT_DIR]
OUTPUT_DIR defaults to the directory containing this script.
"""

import copy
import os
import re
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_mlir.fx as tm_fx
from torch.fx.experimental.proxy_tensor import make_fx

HERE = os.path.dirname(os.path.abspath(__file__))


# --------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------


class ResNetBasicBlock(nn.Module):
    def __init__(self, cin=4, cout=8, stride=2):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down_conv = nn.Conv2d(cin, cout, 1, stride=stride, bias=False)
        self.down_bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = out + self.down_bn(self.down_conv(x))
        return F.relu(out)


class DepthwiseSeparable(nn.Module):
    def __init__(self, c=8, cout=16):
        super().__init__()
        self.dw = nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False)
        self.bn = nn.BatchNorm2d(c)
        self.pw = nn.Conv2d(c, cout, 1, bias=False)

    def forward(self, x):
        return self.pw(F.relu(self.bn(self.dw(x))))


class ConvTransposeModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(
            8, 4, 3, stride=2, padding=1, output_padding=1, bias=True
        )

    def forward(self, x):
        return self.up(x)


class SimpleConv(nn.Module):
    def __init__(self, relu=False):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, stride=1, padding=1, bias=True)
        self.relu = relu

    def forward(self, x):
        y = self.conv(x)
        return F.relu(y) if self.relu else y


class Conv1dConv3d(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(4, 8, 3, stride=2, dilation=2, bias=False)
        self.c3 = nn.Conv3d(4, 8, 3, padding=1, groups=2, bias=False)

    def forward(self, x1, x3):
        return self.c1(x1), self.c3(x3)


# --------------------------------------------------------------------------
# Forward + backward construction, tracing and import
# --------------------------------------------------------------------------


def make_fwd_bwd(model, n_inputs, n_outputs):
    """Return fwd_bwd(*inputs, *params, *buffers, *grad_outs).

    Results: (grad of each input, grad of each parameter, updated buffers).
    Buffers are cloned inside the differentiated function (BatchNorm mutates
    them in place in training mode) and returned as auxiliary outputs.
    """
    pnames = [n for n, _ in model.named_parameters()]
    bnames = [n for n, _ in model.named_buffers()]
    n_p, n_b = len(pnames), len(bnames)

    def fwd_bwd(*args):
        inputs = args[:n_inputs]
        params = args[n_inputs : n_inputs + n_p]
        buffers = args[n_inputs + n_p : n_inputs + n_p + n_b]
        grad_outs = args[n_inputs + n_p + n_b :]
        assert len(grad_outs) == n_outputs

        def f(inputs, params):
            new_buffers = tuple(b.clone() for b in buffers)
            state = dict(zip(pnames, params))
            state.update(zip(bnames, new_buffers))
            out = torch.func.functional_call(model, state, tuple(inputs))
            return out, new_buffers

        _out, vjp_fn, new_buffers = torch.func.vjp(
            f, tuple(inputs), tuple(params), has_aux=True
        )
        cot = grad_outs[0] if n_outputs == 1 else tuple(grad_outs)
        g_inputs, g_params = vjp_fn(cot)
        return (*g_inputs, *g_params, *new_buffers)

    return fwd_bwd


class Wrapper(nn.Module):
    """nn.Module whose forward calls the traced fwd_bwd GraphModule."""

    def __init__(self, gm):
        super().__init__()
        self.gm = gm

    def forward(self, *args):
        return tuple(self.gm(*args))


def build(model, inputs, *, dynamic=None, symbolic=False):
    """Trace model's forward+backward and import it with torch-mlir.

    grad_outs (the cotangents) get the shapes of the model's outputs, which
    are obtained by running a copy of the model once.

    dynamic: optional per-argument list of {dim: torch.export.Dim} (or None)
    for the flat argument list (inputs, params, buffers, grad_outs).
    """
    model.train()
    params = [p.detach().clone() for _, p in model.named_parameters()]
    buffers = [b.detach().clone() for _, b in model.named_buffers()]
    with torch.no_grad():
        outs = copy.deepcopy(model)(*inputs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    grad_outs = [torch.randn(o.shape) for o in outs]
    args = (*inputs, *params, *buffers, *grad_outs)
    fwd_bwd = make_fwd_bwd(model, len(inputs), len(grad_outs))
    gm = make_fx(fwd_bwd, tracing_mode="symbolic" if dynamic else "real")(*args)
    kwargs = {}
    if dynamic is not None:
        assert len(dynamic) == len(args)
        kwargs["dynamic_shapes"] = {"args": tuple(dynamic)}
    return tm_fx.export_and_import(
        Wrapper(gm),
        *args,
        import_symbolic_shape_expressions=symbolic,
        **kwargs,
    )


# --------------------------------------------------------------------------
# Determinism post-processing
# --------------------------------------------------------------------------

_SITE_RE = re.compile(r'"[^"]*?/site-packages/')
_EVAL_KEY_RE = re.compile(r"<eval_with_key>\.\d+")


def normalise(text):
    script_dir = HERE.rstrip("/") + "/"
    repo_root = os.path.dirname(os.path.dirname(HERE)).rstrip("/") + "/"
    text = _SITE_RE.sub('"site-packages/', text)
    text = text.replace(script_dir, "test/inputs/")
    text = text.replace(repo_root, "")
    text = _EVAL_KEY_RE.sub("<eval_with_key>.0", text)
    # Guard: no absolute path of this machine may remain.
    for bad in (repo_root, os.path.expanduser("~") + "/", sys.prefix + "/"):
        if len(bad) > 1 and bad in text:
            raise RuntimeError(f"machine path {bad!r} left in output")
    return text.rstrip("\n") + "\n"


def write(out_dir, name, module, debug_info=False):
    if debug_info:
        text = module.operation.get_asm(enable_debug_info=True)
    else:
        text = str(module)
    path = os.path.join(out_dir, name)
    with open(path, "w") as f:
        f.write(normalise(text))
    print(f"wrote {path}")


class PoolOps(nn.Module):
    """pool_ops.mlir (not in the list above: debuginfo.mlir names a line
    of Wrapper, so new cases go below it): max_pool2d/3d_with_indices and their backward,
    avg_pool2d_backward (ceil_mode, count_include_pad=False) and
    avg_pool3d_backward (divisor_override)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1, bias=False)

    def forward(self, x, x3):
        y = F.max_pool2d(self.conv(x), 3, stride=2, padding=1)
        y = F.avg_pool2d(y, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
        z = F.max_pool3d(x3, 2, stride=2)
        z = F.avg_pool3d(z, 2, stride=1, padding=1, divisor_override=3)
        return y, z


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------


def main(out_dir):
    Dim = torch.export.Dim

    torch.manual_seed(0)
    m = ResNetBasicBlock()
    write(out_dir, "resnet_basic_block.mlir",
          build(m, [torch.randn(2, 4, 16, 16)]))

    torch.manual_seed(0)
    m = DepthwiseSeparable()
    write(out_dir, "depthwise_separable.mlir",
          build(m, [torch.randn(2, 8, 8, 8)]))

    torch.manual_seed(0)
    m = ConvTransposeModel()
    write(out_dir, "conv_transpose.mlir",
          build(m, [torch.randn(2, 8, 8, 8)]))

    torch.manual_seed(0)
    m = SimpleConv()
    batch = Dim("batch", min=1, max=1024)
    # args: x, conv.weight, conv.bias, grad_out
    dyn = [{0: batch}, None, None, {0: batch}]
    write(out_dir, "dynamic_batch.mlir",
          build(m, [torch.randn(2, 4, 8, 8)],
                dynamic=dyn, symbolic=True))

    torch.manual_seed(0)
    m = Conv1dConv3d()
    write(out_dir, "conv1d_conv3d.mlir",
          build(m, [torch.randn(2, 4, 16), torch.randn(2, 4, 8, 8, 8)]))

    torch.manual_seed(0)
    m = SimpleConv(relu=True)
    write(out_dir, "debuginfo.mlir",
          build(m, [torch.randn(2, 4, 8, 8)]),
          debug_info=True)

    torch.manual_seed(0)
    m = PoolOps()
    write(out_dir, "pool_ops.mlir",
          build(m, [torch.randn(2, 3, 8, 8), torch.randn(1, 2, 4, 6, 6)]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else HERE)
