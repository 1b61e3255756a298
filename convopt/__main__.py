"""`python -m convopt`: the `convopt` command line."""

from .cli import entry

if __name__ == "__main__":
    entry()
