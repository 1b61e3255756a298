"""Raw torch-mlir text to an IREE module: convopt as the README's recipe
runs it (`--lower-conv-bwd --lower-pool-bwd --lower-forward-convs`), then
iree-compile in-process with `--iree-input-type=torch`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from . import cache
from .options import Options

COUNTS = {"iree_compile": 0, "cache_hits": 0}
"""Process-wide counters: modules compiled by IREE, and modules read from the cache."""

_OP = re.compile(r"'((?:torch|aten|prims|linalg|tensor|func|arith)\.[\w.]+)'")
_OPERATOR = re.compile(r'"torch\.operator"\(.*?name = "([\w.]+)"')


class BuildError(Exception):
    """convopt or IREE could not build a graph; `.op` names the op when the message does."""

    def __init__(self, stage: str, message: str):
        self.stage = stage
        self.message = message
        found = _OPERATOR.search(message) or _OP.search(message)
        self.op = found.group(1) if found else None
        super().__init__(f"{stage}: {message}")

    def short(self) -> str:
        """The message up to the op's printed form (which can be very long)."""
        return self.message.split(": %")[0].split(' that was explicitly marked illegal')[0]


@dataclass(frozen=True)
class Built:
    vmfb: bytes
    key: str
    cached: bool


def build(mlir: str, options: Options) -> Built:
    """The module for `mlir` (a raw import), from the cache or compiled."""
    k = cache.key(mlir, options)
    vmfb = cache.load(options, k)
    if vmfb is not None:
        COUNTS["cache_hits"] += 1
        return Built(vmfb, k, True)
    vmfb = iree_compile(lower(mlir, options), options)
    cache.store(options, k, vmfb)
    return Built(vmfb, k, False)


def lower(mlir: str, options: Options) -> str:
    """`convopt --lower-conv-bwd --lower-pool-bwd --lower-forward-convs [--device] [--cost-profile]`."""
    from .. import api
    from ..diagnostics import ConvoptError

    extra: dict[str, Any] = {"cost_profile": options.cost_profile} if options.cost_profile else {}
    try:
        return api.lower(mlir, pool_bwd=True, forward_convs=True, device=options.convopt_device, name="<dynamo graph>", **extra)
    except ConvoptError as e:
        raise BuildError("convopt", "\n".join(e.diagnostics) or str(e)) from None


def iree_compile(text: str, options: Options) -> bytes:
    from iree.compiler import tools

    COUNTS["iree_compile"] += 1
    try:
        return bytes(tools.compile_str(text, input_type="torch", extra_args=options.compile_flags()))
    except tools.CompilerToolError as e:
        raise BuildError("iree-compile", _first_error(str(e))) from None


def _first_error(stderr: str) -> str:
    """The first `error:` line of iree-compile's output, or its first line."""
    lines = stderr.splitlines()
    for line in lines:
        if "error:" in line:
            return line.strip()
    return lines[0] if lines else stderr


__all__ = ["COUNTS", "BuildError", "Built", "build", "iree_compile", "lower"]
