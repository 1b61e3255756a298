"""convopt: lowers torch-mlir's `aten.convolution_backward` to linalg.

    import convopt
    text = convopt.lower(open("raw.mlir").read())   # what `convopt --lower-conv-bwd raw.mlir` prints

`lower`, `decompose` (convopt/api.py) and `ConvoptError` are imported on
first use, so `import convopt` (and the command line) stays cheap.
"""

from __future__ import annotations

__version__ = "0.1.0"

_LAZY = {"lower": "convopt.api", "decompose": "convopt.api", "ConvoptError": "convopt.diagnostics"}

__all__ = ["ConvoptError", "__version__", "decompose", "lower"]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'convopt' has no attribute '{name}'")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
