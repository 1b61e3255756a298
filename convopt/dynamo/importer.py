"""An AOTAutograd graph to torch-mlir's raw import, with the graph's outputs
made importable.

AOTAutograd's graphs return None where a gradient does not exist (an input
that needs none) and, with dynamic shapes, Python ints for the sizes the
backward graph needs.  None cannot be a result of the compiled module
(iree-turbine's backend stops at `!torch.none`), so it is taken out of the
graph's output before the import and put back after each call by
`Outputs.rebuild`; so is a size that is one of the arguments' sizes (read
from their shapes).  A size computed from them (`s0 // 2`) stays a result
of the module, an i64."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Optional

import torch
from torch import fx


@dataclass(frozen=True)
class Outputs:
    """Where the compiled module's results go in the graph's output tuple.

    kinds[i] is "result" (the next result of the module), "none" or
    "value" (filled by values[i](args))."""

    kinds: tuple[str, ...]
    values: tuple[Any, ...]

    def rebuild(self, results: list, args: list) -> list:
        out: list = []
        it = iter(results)
        for kind, value in zip(self.kinds, self.values):
            if kind == "result":
                out.append(next(it))
            elif kind == "none":
                out.append(None)
            else:
                out.append(value(args))
        return out


class UnsupportedGraph(Exception):
    """A graph this backend does not import (the message says what)."""


def tensor_outputs(gm: fx.GraphModule) -> tuple[fx.GraphModule, Outputs]:
    """A copy of `gm` returning only its tensor outputs, and where the others go."""
    graph = fx.Graph()
    env: dict[fx.Node, fx.Node] = {}
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    kinds: list[str] = []
    values: list[Any] = []
    for node in gm.graph.nodes:
        if node.op != "output":
            env[node] = graph.node_copy(node, lambda n: env[n])
            continue
        (result,) = node.args
        flat = list(result) if isinstance(result, (tuple, list)) else [result]
        kept = []
        for r in flat:
            if r is None:
                kinds.append("none")
                values.append(None)
            elif isinstance(r, fx.Node) and isinstance(r.meta.get("val"), torch.Tensor):
                kinds.append("result")
                values.append(None)
                kept.append(env[r])
            else:
                value = _size_from_args(r, placeholders)
                kinds.append("value" if value is not None else "result")
                values.append(value)
                if value is None:
                    kept.append(env[r])
        graph.output(tuple(kept))
    graph.lint()
    return fx.GraphModule(gm, graph), Outputs(tuple(kinds), tuple(values))


def _size_from_args(r: Any, placeholders: list[fx.Node]) -> Optional[Callable[[list], Any]]:
    """A function of the call's arguments computing a non-tensor output: a
    constant, a placeholder that is an int, or a symbolic size equal to one
    of an argument's sizes (found through the placeholders' example values);
    None for a size the graph computes (the module returns it)."""
    if not isinstance(r, fx.Node):
        return _constant(r)
    val = r.meta.get("val")
    if r.op == "placeholder":
        return _argument(placeholders.index(r))
    if isinstance(val, (int, float, bool)):
        return _constant(val)
    if isinstance(val, torch.SymInt):
        expr = val.node.expr
        for i, p in enumerate(placeholders):
            pv = p.meta.get("val")
            if isinstance(pv, torch.SymInt) and pv.node.expr == expr:
                return _argument(i)
            if isinstance(pv, torch.Tensor):
                for d, size in enumerate(pv.shape):
                    if isinstance(size, torch.SymInt) and size.node.expr == expr:
                        return _size(i, d)
        return None
    raise UnsupportedGraph(f"output {r.name} ({r.target}) is neither a tensor, None nor a size")


def _constant(value: Any) -> Callable[[list], Any]:
    return lambda args: value


def _argument(i: int) -> Callable[[list], Any]:
    return lambda args: args[i]


def _size(i: int, d: int) -> Callable[[list], Any]:
    return lambda args: args[i].shape[d]


def import_raw(gm: fx.GraphModule) -> str:
    """torch-mlir's raw import of a (stateless) graph: `aten.convolution_backward`
    and the pooling backward ops stay for convopt.  The function is `main`."""
    from torch_mlir import fx as torch_mlir_fx

    module = torch_mlir_fx.stateless_fx_import(gm, output_type="raw", model_name="main")
    return str(module)


__all__ = ["Outputs", "UnsupportedGraph", "import_raw", "tensor_outputs"]
