"""convopt-lsp: a Language Server (stdio) for `.mlir` files on pygls,
built on convopt's own parser, verifier and passes.

    convopt-lsp            # or: python -m convopt.lsp

- diagnostics (parse and verify errors, the CLI's text) on open and, debounced,
  on every change (`server.py`);
- go to definition, find references (SSA values, block labels and arguments,
  `#map` / `!type` aliases) and document symbols (`func.func`), from a lexical
  index that also works while the text does not parse (`index.py`, `navigation.py`);
- hover on a `torch.aten.convolution_backward`: `--remarks`' decision and
  `--stats`' multiply-adds; the commands and code actions "show lowered IR"
  (`convopt.showLoweredIR`) and "apply lowered IR" (`convopt.applyLoweredIR`)
  (`lowering.py`).

pygls is imported only here, never by `convopt` itself.
"""

from __future__ import annotations

from typing import Optional


def create_server():  # -> ConvoptServer (pygls is imported on call)
    from . import lowering, navigation, server

    ls = server.ConvoptServer()
    server.register(ls)
    navigation.register(ls)
    lowering.register(ls)
    return ls


def entry(argv: Optional[list[str]] = None) -> None:
    """Console-script entry point: serve LSP on stdin/stdout."""
    import argparse

    from .. import __version__

    parser = argparse.ArgumentParser(prog="convopt-lsp", description="Language server for .mlir files (convopt's diagnostics, navigation, conv-backward hover and lowering), on stdin/stdout.")
    parser.add_argument("--version", action="version", version=f"convopt-lsp {__version__}")
    parser.add_argument("--stdio", action="store_true", help="serve on stdin/stdout (the default and only transport; accepted because clients pass it)")
    parser.parse_args(argv)
    create_server().start_io()
