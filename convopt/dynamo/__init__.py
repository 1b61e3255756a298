"""`torch.compile(model, backend="convopt")`: PyTorch training through convopt and IREE.

    import torch
    model = torch.compile(model, backend="convopt", options={"target_cpu": "host"})

Each graph Dynamo captures goes through AOTAutograd (forward and backward
graphs, functionalized: BatchNorm's running statistics come back as outputs
and AOTAutograd writes them into the buffers), torch-mlir's FX importer (the
raw import: `aten.convolution_backward` and the pooling backward ops reach
convopt), `convopt.lower` as the README's recipe runs it, IREE's compiler (in
process) and IREE's runtime.  Compiled modules are kept on disk
(`cache.py`).  A graph that cannot be built (or whose module fails when
called) runs in eager PyTorch after one
warning naming the op (`fallback=False`: `BackendError`).  The options are
the fields of `Options` (`options.py`).

The backend is registered under the name "convopt" through the
`torch_dynamo_backends` entry point (pyproject.toml); `register()` does the
same by hand where the package is not installed.

Importing `convopt` does not import this module; this module imports torch,
and IREE and torch-mlir only when the first graph is compiled.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, Optional

import torch
from torch import fx

from .options import Options


class BackendError(RuntimeError):
    """A graph could not be built and `fallback` is off."""


_warned: set[str] = set()


def backend(gm: fx.GraphModule, example_inputs: list, options: Optional[dict[str, Any]] = None) -> Callable:
    """The Dynamo backend: `torch.compile(model, backend=backend, options={...})`."""
    from torch._dynamo.backends.common import aot_autograd

    opts = Options.from_dict(options)
    compiler = functools.partial(compile_graph, options=opts)
    return aot_autograd(fw_compiler=compiler, bw_compiler=compiler, decompositions=decompositions())(gm, example_inputs)


@functools.lru_cache(maxsize=1)
def decompositions() -> dict:
    """PyTorch's core ATen decompositions and BatchNorm's: BatchNorm, forward
    and backward, becomes arithmetic IREE builds, while convolution_backward
    and the pooling backward ops (core ATen ops) stay whole for convopt."""
    from torch._decomp import core_aten_decompositions, get_decompositions

    aten = torch.ops.aten
    batch_norm = [aten._native_batch_norm_legit_functional, aten._native_batch_norm_legit, aten._native_batch_norm_legit_no_training, aten.native_batch_norm]
    table = {**core_aten_decompositions(), **get_decompositions(batch_norm), aten.squeeze.dims: _squeeze_dims}
    table.pop(aten.squeeze.dim, None)  # PyTorch's goes to squeeze.dims
    return table


def _squeeze_dims(x: torch.Tensor, dims: list[int]) -> torch.Tensor:
    """aten.squeeze.dims (BatchNorm's decomposition uses it; torch-mlir has no
    such op) as one aten.squeeze.dim per dim, the last first."""
    for d in sorted((d % max(x.dim(), 1) for d in dims), reverse=True):
        x = torch.ops.aten.squeeze.dim(x, d)
    return x


def register(name: str = "convopt") -> None:
    """Register the backend with Dynamo under `name` (what the entry point does when installed)."""
    from torch._dynamo import list_backends, register_backend

    if name not in list_backends(exclude_tags=()):
        register_backend(compiler_fn=backend, name=name)


def compile_graph(gm: fx.GraphModule, example_inputs: list, options: Options) -> Callable:
    """One AOTAutograd graph (forward, backward or inference) compiled by
    convopt and IREE; a boxed function (it takes the argument list)."""
    from . import compile as build
    from .importer import UnsupportedGraph, import_raw, tensor_outputs

    try:
        stripped, outputs = tensor_outputs(gm)
        mlir = import_raw(stripped)
        built = build.build(mlir, options)
        from .runtime import Module

        module = Module(built.vmfb, options.runtime_driver)
    except (UnsupportedGraph, build.BuildError) as e:
        return _eager(gm, options, _describe(e))
    except Exception as e:  # torch-mlir's importer raises many kinds; none may stop the training
        return _eager(gm, options, f"{type(e).__name__}: {e}".splitlines()[0])

    eager: list[Callable] = []  # set once the module failed at run time

    def call(args: list) -> list:
        if eager:
            return eager[0](args)
        try:
            return outputs.rebuild(module(args), args)
        except (RuntimeError, ValueError, IndexError, TypeError) as e:  # IREE's runtime errors; the graph's own are eager's too
            eager.append(_eager(gm, options, f"IREE's runtime failed on the graph: {str(e).splitlines()[0]}"))
            return eager[0](args)

    call._boxed_call = True  # type: ignore[attr-defined]
    return call


def _describe(e: Exception) -> str:
    from .compile import BuildError

    if isinstance(e, BuildError):
        where = f"op {e.op}" if e.op else "the graph"
        return f"{e.stage} cannot build {where} ({e.short()})"
    return str(e)


def _eager(gm: fx.GraphModule, options: Options, reason: str) -> Callable:
    """The graph as eager PyTorch, after one warning per reason (or BackendError)."""
    if not options.fallback:
        raise BackendError(f"convopt backend: {reason}")
    if reason not in _warned:
        _warned.add(reason)
        warnings.warn(f"convopt backend: {reason}; this graph runs in eager PyTorch", stacklevel=2)

    def call(args: list) -> Any:
        return gm(*args)

    call._boxed_call = True  # type: ignore[attr-defined]
    return call


__all__ = ["BackendError", "Options", "backend", "compile_graph", "register"]
