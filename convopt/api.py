"""convopt's Python API: the command line's `--lower-conv-bwd` and
`--decompose-conv-bwd` as functions from module text (or a torch-mlir
module) to module text.

    import convopt

    text = convopt.lower(open("raw.mlir").read())                   # == convopt --lower-conv-bwd raw.mlir
    text = convopt.lower(module, torch_mlir_stages=True)           # a torch_mlir.ir.Module from the FX importer
    text = convopt.decompose(text, backend_legal_ops=[])           # == convopt --decompose-conv-bwd --backend-legal-ops=

On failure they raise `convopt.ConvoptError`; its `.diagnostics` are the
lines the command line prints on stderr.  Both run `convopt.driver.run_text`,
the function behind the command line, so they return its bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Optional, Union

from .diagnostics import ConvoptError
from .driver import Options, decode, run_text
from .lowering.forms import registry as forms
from .pipelines import OPT_LEVELS, default_pipeline

TARGETS = ("linalg", "rocmlir")
MATMUL_TILES = ("none", "avx512", "host")
DEVICES = ("cpu", "avx2", "avx512", "gpu", "host")
_OP_NAME = re.compile(r"^[A-Za-z_][\w.]*$")

Input = Union[str, bytes, Any]
"""Module text, UTF-8 bytes, or an object with `.operation.get_asm()` (a
`torch_mlir.ir.Module`) or `.get_asm()` (an `Operation`)."""


def lower(
    module: Input,
    *,
    target: str = "linalg",
    backend_legal_ops: Union[None, str, Iterable[str]] = None,
    conv_form: str = "auto",
    matmul_tiles: str = "none",
    device: str = "cpu",
    torch_boundary: bool = False,
    torch_mlir_stages: bool = False,
    name: str = "<input>",
    forward_convs: bool = False,
    pool_bwd: bool = False,
    cost_profile: Optional[str] = None,
    opt_level: str = "O2",
) -> str:
    """Lower every `torch.aten.convolution_backward` to linalg, directly where
    `target` (or `backend_legal_ops`) takes the op, else through the
    decomposition; the text `convopt --lower-conv-bwd` prints.

    `backend_legal_ops`: op names (a list, or one comma-separated string);
    None keeps the target's, an empty list decomposes every op.
    `torch_mlir_stages=True` (needs the `torch_mlir` package) reads a raw FX
    import and returns pure linalg: torch-mlir's frontend stage, convopt,
    torch-mlir's linalg stage.  `matmul_tiles` (`--matmul-tiles`): "none"
    (plain linalg.matmul), "avx512" or "host" (CPU-specific linalg.mmt4d
    tiles for large bf16/f32 matmuls).  `device` (`--device`): the class of
    machine the IR is built for, "cpu" (any x86-64 CPU), "avx2", "avx512",
    "gpu" or "host".  `conv_form` (`--conv-form`): "auto" or the name of a
    registered form (convopt/lowering/forms/registry.py: "generic", "named",
    "im2col").  `forward_convs=True` (`--lower-forward-convs`) also lowers
    the graph's own aten.convolution ops through convopt's forms.
    `pool_bwd=True` (`--lower-pool-bwd`) also lowers the average-pooling
    backward ops (avg_pool1d/2d/3d_backward) through the same kernels.
    `cost_profile` (`--cost-profile`): a file written by convopt-calibrate;
    forms are chosen by the costs measured there (a ValueError where it is
    no profile, a warning where it was measured on another CPU or IREE).
    `opt_level` (`--opt-level`): "O0"-"O3", how much IREE's build time
    weighs in the form choice (O2, the default: a dispatch's build
    amortized over 10^5 runs).  `name` is the file name in diagnostics."""
    _check_choice("target", target, TARGETS)
    _check_choice("opt_level", opt_level, OPT_LEVELS)
    _check_choice("conv_form", conv_form, forms.names())
    _check_choice("matmul_tiles", matmul_tiles, MATMUL_TILES)
    _check_choice("device", device, DEVICES)
    pipeline = default_pipeline(True, False, target, _legal_ops(backend_legal_ops), torch_boundary, None if conv_form == "auto" else conv_form, matmul_tiles, device, forward_convs, pool_bwd,
                                cost_profile=_cost_profile(cost_profile), opt_level=opt_level)
    return run_text(_text(module, name), Options(pipeline=pipeline, torch_mlir_stages=torch_mlir_stages), name)


def decompose(
    module: Input,
    *,
    target: Optional[str] = None,
    backend_legal_ops: Union[None, str, Iterable[str]] = None,
    name: str = "<input>",
) -> str:
    """Decompose `torch.aten.convolution_backward` into `aten.convolution`,
    `aten.sum.dim_IntList` and shape ops (torch in, torch out): every op,
    unless `target` or `backend_legal_ops` make it legal; the text
    `convopt --decompose-conv-bwd` prints."""
    if target is not None:
        _check_choice("target", target, TARGETS)
    pipeline = default_pipeline(False, True, target, _legal_ops(backend_legal_ops), False, None)
    return run_text(_text(module, name), Options(pipeline=pipeline), name)


def _cost_profile(path: Optional[str]) -> Optional[str]:
    """The profile file as the pass option takes it; a warning
    (warnings.warn) where it was measured on another CPU or IREE."""
    if not path:
        return None
    import warnings

    from .lowering.kernel import calibrated

    absolute, why = calibrated.resolve(str(path))
    if why:
        warnings.warn(f"{path}: {why}", stacklevel=3)
    return absolute


def _text(module: Input, name: str) -> str:
    if isinstance(module, str):
        return module
    if isinstance(module, (bytes, bytearray)):
        return decode(name, bytes(module))
    operation = getattr(module, "operation", module)
    get_asm = getattr(operation, "get_asm", None)
    if get_asm is None:
        raise TypeError(f"expected module text, bytes or an MLIR module (with .operation.get_asm()), got {type(module).__name__}")
    return str(get_asm())


def _legal_ops(ops: Union[None, str, Iterable[str]]) -> Optional[str]:
    if ops is None:
        return None
    names = [n.strip() for n in ops.split(",")] if isinstance(ops, str) else [str(n).strip() for n in ops]
    names = [n for n in names if n]
    for n in names:
        if not _OP_NAME.match(n):
            raise ValueError(f"backend_legal_ops: '{n}' is not a torch op name (e.g. 'aten.convolution_backward')")
    return ",".join(names)


def _check_choice(what: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(choices)}, not {value!r}")


__all__ = ["ConvoptError", "decompose", "lower"]
