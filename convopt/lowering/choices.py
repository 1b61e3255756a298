"""The closed choices of convopt's options: one enum per choice, and beside
it the tuple of its spellings, the one list the command line's choices, the
Python API's checks, the passes' option types and the help texts read.

The forms are not here: they are an open set, the registry of
forms/registry.py (`registry.names()`).  This module imports nothing of
convopt: the command line reads it for `--help`.
"""

from __future__ import annotations

from enum import Enum


class Choice(str, Enum):
    """A named choice whose value is its spelling (formats as the value)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


def spellings(choice: type[Choice]) -> tuple[str, ...]:
    """The values of an enum of choices, in declaration order."""
    return tuple(c.value for c in choice)


class Target(Choice):
    """The backend capability profiles deciding legality per op (`--target`, patterns/legality.py)."""

    LINALG = "linalg"
    ROCMLIR = "rocmlir"


TARGETS = spellings(Target)


class Device(Choice):
    """The device classes of `--device` (kernel/device.py's docstring)."""

    CPU = "cpu"
    AVX2 = "avx2"
    AVX512 = "avx512"
    GPU = "gpu"
    HOST = "host"


DEVICES = spellings(Device)


class MatmulTiles(Choice):
    """The tiles of the packed matmul form (`--matmul-tiles`, kernel/packed.py)."""

    NONE = "none"  # plain linalg.matmul: CPU-neutral
    AVX512 = "avx512"  # packed.AVX512_TILES, measured on an AVX-512 host
    HOST = "host"  # the AVX512_TILES entries this machine's /proc/cpuinfo flags enable


MATMUL_TILES = spellings(MatmulTiles)


class Peel(Choice):
    """When to split borders off instead of zero padding (`peel`)."""

    AUTO = "auto"  # where padding would waste more than the device profile's costs.peel_waste
    ALWAYS = "always"
    NEVER = "never"


PEELS = spellings(Peel)


class OptLevel(Choice):
    """`--opt-level`, as iree-compile spells its levels (their build weights:
    patterns/options.BUILD_WEIGHTS)."""

    O0 = "O0"
    O1 = "O1"
    O2 = "O2"
    O3 = "O3"


OPT_LEVELS = spellings(OptLevel)
