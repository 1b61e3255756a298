#!/usr/bin/env python3
"""Regenerate the real-model backward graphs in ``test/models/``.

Each model of ``model_zoo.MODELS`` becomes ``<name>.mlir`` the way a user
gets torch-dialect IR of a training step's backward pass:

1. ``spec.model()`` builds the eager module (seeded, training mode,
   channels-last when the spec says so) and ``spec.arguments()`` its seeded
   argument list (inputs, params, buffers, grad_outs).
2. A pure function ``fwd_bwd(*inputs, *params, *buffers, *grad_outs)`` runs
   the module through ``torch.func.functional_call`` inside
   ``torch.func.vjp`` with respect to the parameters (and the inputs, for
   the models with ``input_grad``; the data batch of a whole network is not
   differentiated) and returns the gradients followed by the updated
   buffers (BatchNorm's running statistics: the buffers are cloned inside
   the differentiated function, which BatchNorm updates in place, and
   returned as auxiliary outputs).  Weights, biases and buffers are
   function *arguments*, so no ``torch.vtensor.literal`` carries them.
3. ``fwd_bwd`` is traced with ``make_fx`` (``tracing_mode="symbolic"`` for
   the dynamic-batch model, whose inputs and grad_outs then get a
   ``torch.export.Dim`` batch), wrapped in an ``nn.Module`` and imported
   with ``torch_mlir.fx.export_and_import(..., output_type="raw")``
   (default decomposition table: ``aten.convolution_backward`` stays, the
   normalisations' backward ops are decomposed), with
   ``import_symbolic_shape_expressions=True`` for the dynamic model (its
   file has ``torch.symbolic_int`` / ``torch.bind_symbolic_shape``).
4. ``str(module)`` (no locations) is written with a trailing newline.
   Nothing in it depends on the machine or the process, so generation is
   reproducible byte for byte (``--check`` verifies the files on disk).

Usage (from the repository root):
    .venv/bin/python test/models/generate.py [--check] [--dtype f32|bf16|f16] [-o DIR] [NAME ...]
(--dtype bf16/f16: the whole step traced in that dtype, written as
<name>.<dtype>.mlir; bench/lowp/ holds the bf16 steps of four models.)
NAME defaults to every model; DIR to the directory of this script.
"""

from __future__ import annotations

import argparse
import os
import sys

import torch
import torch.nn as nn
from torch.fx.experimental.proxy_tensor import make_fx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from model_zoo import MODELS, ModelSpec  # noqa: E402


def make_fwd_bwd(spec: ModelSpec, model: nn.Module):
    """fwd_bwd(*inputs, *params, *buffers, *grad_outs) ->
    (*grad_inputs if spec.input_grad, *grad_params, *new_buffers)."""
    pnames = [n for n, _ in model.named_parameters()]
    bnames = [n for n, _ in model.named_buffers()]
    n_in, n_p, n_b, n_o = spec.counts()

    def fwd_bwd(*args):
        inputs = tuple(args[:n_in])
        params = tuple(args[n_in:n_in + n_p])
        buffers = args[n_in + n_p:n_in + n_p + n_b]
        grad_outs = args[n_in + n_p + n_b:]
        assert len(grad_outs) == n_o

        def run(inputs, params):
            new_buffers = tuple(b.clone() for b in buffers)
            state = dict(zip(pnames, params))
            state.update(zip(bnames, new_buffers))
            return torch.func.functional_call(model, state, inputs), new_buffers

        cot = grad_outs[0] if n_o == 1 else tuple(grad_outs)
        if spec.input_grad:
            _, vjp_fn, new_buffers = torch.func.vjp(run, inputs, params, has_aux=True)
            g_inputs, g_params = vjp_fn(cot)
        else:
            _, vjp_fn, new_buffers = torch.func.vjp(lambda p: run(inputs, p), params, has_aux=True)
            (g_params,) = vjp_fn(cot)
            g_inputs = ()
        return (*g_inputs, *g_params, *new_buffers)

    return fwd_bwd


class Wrapper(nn.Module):
    """nn.Module whose forward calls the traced fwd_bwd GraphModule."""

    def __init__(self, gm):
        super().__init__()
        self.gm = gm

    def forward(self, *args):
        return tuple(self.gm(*args))


def build(spec: ModelSpec, dtype: torch.dtype = torch.float32):
    """Trace spec's backward step and import it with torch-mlir (raw); in
    another dtype the whole step is traced in it (module, inputs,
    grad_outs), as a user who casts the model runs it."""
    import torch_mlir.fx as tm_fx

    model = spec.model().to(dtype)
    args = [a.to(dtype) if a.is_floating_point() else a for a in spec.arguments()]
    gm = make_fx(make_fwd_bwd(spec, model), tracing_mode="symbolic" if spec.dynamic_batch else "real")(*args)
    kwargs = {}
    if spec.dynamic_batch:
        n_in, n_p, n_b, n_o = spec.counts()
        batch = torch.export.Dim("batch", min=1, max=1024)
        dyn = [{0: batch}] * n_in + [None] * (n_p + n_b) + [{0: batch}] * n_o
        kwargs["dynamic_shapes"] = {"args": tuple(dyn)}
    return tm_fx.export_and_import(
        Wrapper(gm), *args, output_type="raw", import_symbolic_shape_expressions=spec.dynamic_batch, **kwargs,
    )


DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}


def render(spec: ModelSpec, dtype: str = "f32") -> str:
    return str(build(spec, DTYPES[dtype])).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="models to generate (default: all)")
    ap.add_argument("-o", "--out-dir", default=HERE)
    ap.add_argument("--check", action="store_true", help="compare with the files on disk instead of writing")
    ap.add_argument("--dtype", default="f32", choices=sorted(DTYPES), help="trace the step in this dtype; other than f32 the file is <name>.<dtype>.mlir")
    ns = ap.parse_args(argv)
    unknown = [n for n in ns.names if n not in MODELS]
    if unknown:
        ap.error(f"unknown model(s) {unknown}; known: {sorted(MODELS)}")
    stale = []
    for name in ns.names or list(MODELS):
        spec = MODELS[name]
        text = render(spec, ns.dtype)
        path = os.path.join(ns.out_dir, spec.file if ns.dtype == "f32" else f"{spec.name}.{ns.dtype}.mlir")
        if ns.check:
            with open(path) as f:
                same = f.read() == text
            print(f"{'ok   ' if same else 'STALE'} {path}")
            if not same:
                stale.append(path)
        else:
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {path} ({len(text.encode())} bytes, {text.count('torch.aten.convolution_backward ')} convolution_backward)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
