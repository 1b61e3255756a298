"""The on-disk cache of compiled modules.

A module is stored as `<key>.vmfb` in the cache folder; the key is the
SHA-256 of everything its bytes depend on: the imported MLIR text, the
options that reach convopt or iree-compile (with the cost profile's
contents), the versions of torch, torch-mlir and IREE's compiler, and
convopt's own source (its version does not change while it is worked on).
A second run of the same script finds every module here and compiles nothing.
Writes go through a temporary file and a rename, so a reader never sees half
a module and two processes (DDP ranks) may write the same key."""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import tempfile
from pathlib import Path
from typing import Optional

from .options import Options

_PACKAGES = ("torch", "torch-mlir", "iree-base-compiler", "iree-base-runtime")


@functools.lru_cache(maxsize=1)
def versions() -> str:
    """The versions the compiled bytes depend on, and a hash of convopt's source."""
    parts = []
    for name in _PACKAGES:
        try:
            parts.append(f"{name}={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            parts.append(f"{name}=none")
    source = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for path in sorted(root.rglob("*.py")) + sorted(root.rglob("*.lark")):
        if "dynamo" not in path.relative_to(root).parts:
            source.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    parts.append(f"convopt-source={source.hexdigest()[:16]}")
    return ";".join(parts)


def key(mlir: str, options: Options) -> str:
    h = hashlib.sha256()
    h.update(versions().encode() + b"\0")
    h.update(repr(options.compile_flags()).encode() + b"\0" + options.convopt_device.encode() + b"\0")
    if options.cost_profile:
        h.update(Path(options.cost_profile).read_bytes())
    h.update(mlir.encode())
    return h.hexdigest()


def load(options: Options, k: str) -> Optional[bytes]:
    if not options.cache:
        return None
    try:
        return (options.cache_path() / f"{k}.vmfb").read_bytes()
    except OSError:
        return None


def store(options: Options, k: str, vmfb: bytes) -> None:
    if not options.cache:
        return
    folder = options.cache_path()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(vmfb)
        os.replace(tmp, folder / f"{k}.vmfb")
    except OSError:
        pass  # a read-only or full cache folder: the module is still used, only not kept


__all__ = ["key", "load", "store", "versions"]
