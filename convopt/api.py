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

import inspect
import re
from collections.abc import Iterable
from enum import Enum
from typing import Any, Optional, Union

from .diagnostics import ConvoptError
from .driver import Options, decode, run_text
from .pass_options import Leaf, build, checked, keywords
from .pipelines import PipelineOptions, default_pipeline

_OP_NAME = re.compile(r"^[A-Za-z_][\w.]*$")

Input = Union[str, bytes, Any]
"""Module text, UTF-8 bytes, or an object with `.operation.get_asm()` (a
`torch_mlir.ir.Module`) or `.get_asm()` (an `Operation`)."""

KEYWORDS = keywords(PipelineOptions)
"""The keywords of `lower` -> the pass options they set (pass_options.Leaf):
the keywords made from the pass options' fields."""

DECOMPOSE_KEYWORDS = {k: leaf for k, leaf in KEYWORDS.items() if leaf.path[0] == "decompose"}
"""The keywords of `decompose`: the options of the decomposition."""


def lower(module: Input, *, name: str = "<input>", torch_mlir_stages: bool = False, **options: Any) -> str:
    """Lower every `torch.aten.convolution_backward` to linalg, directly where
    `target` (or `backend_legal_ops`) takes the op, else through the
    decomposition; the text `convopt --lower-conv-bwd` prints.

    The keywords are the command line's flags (`conv_form` is
    `--conv-form`), listed below.  `backend_legal_ops`: op names (a list, or
    one comma-separated string); None keeps the target's, an empty list
    decomposes every op.  `torch_mlir_stages=True` (needs the `torch_mlir`
    package) reads a raw FX import and returns pure linalg: torch-mlir's
    frontend stage, convopt, torch-mlir's linalg stage.  `cost_profile`: a
    file written by convopt-calibrate (a ValueError where it is no profile,
    a warning where it was measured on another CPU or IREE).  `name` is the
    file name in diagnostics."""
    record = options_record("lower", options, KEYWORDS, lower_conv_bwd=True)
    return run_text(_text(module, name), Options(pipeline=default_pipeline(record), torch_mlir_stages=torch_mlir_stages), name)


def decompose(module: Input, *, name: str = "<input>", **options: Any) -> str:
    """Decompose `torch.aten.convolution_backward` into `aten.convolution`,
    `aten.sum.dim_IntList` and shape ops (torch in, torch out): every op,
    unless `target` or `backend_legal_ops` make it legal; the text
    `convopt --decompose-conv-bwd` prints."""
    record = options_record("decompose", options, DECOMPOSE_KEYWORDS, decompose_conv_bwd=True)
    return run_text(_text(module, name), Options(pipeline=default_pipeline(record)), name)


def options_record(function: str, options: dict[str, Any], allowed: dict[str, Leaf], record: type[PipelineOptions] = PipelineOptions,
                   **switches: bool) -> PipelineOptions:
    """The record of a function's keywords, `allowed` (keywords()); a
    TypeError for one it does not take, a ValueError for a value that is no choice."""
    values: dict[tuple[str, ...], Any] = {(name,): on for name, on in switches.items()}
    for keyword, value in options.items():
        if keyword not in allowed:
            raise TypeError(f"{function}() got an unexpected keyword argument '{keyword}'")
        value = _FRONT.get(keyword, lambda v: v)(value)
        if value is not None:
            values[allowed[keyword].path] = checked(keyword, allowed[keyword], value)
    return build(record, values)


def _document(function: Any, allowed: dict[str, Leaf]) -> None:
    """Give function the signature of its keywords (for help() and
    inspect.signature) and a line per keyword in its docstring."""
    signature = inspect.signature(function)
    params = list(signature.parameters.values())[:-1]  # **options
    params += [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=_plain(leaf.field.default)) for k, leaf in allowed.items()]
    function.__signature__ = signature.replace(parameters=params)
    lines = [f"    {k} (--{leaf.flag}): {leaf.field.metadata['doc']}" for k, leaf in allowed.items()]
    if function.__doc__:  # None under python -OO
        function.__doc__ += "\n\n    Keywords:\n\n" + "\n".join(lines) + "\n"


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


def _plain(value: Any) -> Any:
    """A default as the API user writes it: an enum's spelling."""
    return value.value if isinstance(value, Enum) else value


_FRONT = {"backend_legal_ops": _legal_ops, "cost_profile": _cost_profile}
"""The keywords whose values the API takes in more ways than the option's
type (a list or a string of op names; a profile path, made absolute)."""

_document(lower, KEYWORDS)
_document(decompose, DECOMPOSE_KEYWORDS)

__all__ = ["ConvoptError", "decompose", "lower"]
