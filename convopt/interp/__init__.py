"""A reference interpreter for the IR convopt emits (func, arith, math,
tensor, linalg, torch_c casts), executed with numpy.

    from convopt.interp import run
    results = run(module, "main", [grad_output, input, weight])

It is slow next to compiled code but needs no compiler: the fast test tier
checks every kernel, form and piece against PyTorch with it, and
`convopt-run` runs a function of a `.mlir` file on `.npy`/`.npz` inputs.
The normal `convopt` command never imports it (nor numpy).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from ..ir.core import Operation
from . import linalg, scalar, tensor, torch_ops  # noqa: F401  (register their handlers)
from .core import HANDLERS, InterpError, Interpreter

__all__ = ["HANDLERS", "InterpError", "Interpreter", "run", "run_text"]


def run(module: Operation, entry: str, args: Sequence[Any], resources: Optional[dict[str, bytes]] = None) -> list:
    """The results of function `entry` of module on args (numpy arrays or
    scalars, converted to the argument types); `resources`: the blobs of
    its dense_resource constants."""
    return Interpreter(module, resources).call(entry, args)


def run_text(text: str, entry: str, args: Sequence[Any], name: str = "<interp>") -> list:
    """Parse and verify MLIR text with convopt's parser, then run `entry`."""
    from ..diagnostics import SourceFile
    from ..parser import parse
    from ..verifier import verify
    from .values import resource_blobs

    parsed = parse(SourceFile(name, text))
    verify(parsed.module)
    return run(parsed.module, entry, args, resource_blobs(parsed.metadata))
