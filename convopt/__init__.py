"""convopt: lowers torch-mlir's `aten.convolution_backward` to linalg."""

__version__ = "0.1.0"
