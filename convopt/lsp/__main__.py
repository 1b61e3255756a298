"""`python -m convopt.lsp`: the language server on stdin/stdout."""

from . import entry

if __name__ == "__main__":
    entry()
