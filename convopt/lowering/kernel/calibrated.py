"""A cost profile measured on one machine: what `convopt-calibrate` writes
and `--cost-profile=FILE` (or `--device=host` with a calibration in the
user's cache) makes the form choice read.

The file is JSON:

    {"format": "convopt-cost-profile", "version": 1,
     "cpu": {"model": "AMD EPYC ...", "class": "avx512", "flags": ["avx2", "avx512f", ...]},
     "iree": {"version": "3.13.0", "target_cpu": "host"}, "threads": 2,
     "costs": {"generic": 0.08, ..., "packed": 0.006, "build": 1200.0, "peel_build": 4000.0},
     "packed": ["f32"],            # element types whose mmt4d tiles were measured right here
     "fit": {...}, "kernels": [...]}   # what it was fitted on (read by nobody here)

`apply` turns it into the DeviceProfile the kernel passes choose by: the
capabilities of the CPU class it was measured on (or of an explicit
`--device=avx2|avx512`), its `costs`, and the packed tiles it measured
(packed.py: those of its class's flags, less any that IREE miscompiles
for the device class asked for).  The choice is a function of the file:
the same file gives the same bytes on any machine; a file measured on
another CPU model or IREE version gets a warning (`mismatch`), not
another choice.  Nothing here imports numpy or IREE.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
from dataclasses import dataclass
from typing import Optional

from .cost import Costs
from .device import PROFILES, Device, DeviceProfile, flags_device, read_host_flags
from .packed import AVX512_TILES, miscompiled_tiles

FORMAT = "convopt-cost-profile"
VERSION = 1
CLASS_FLAGS = {Device.AVX2: frozenset({"avx2", "fma"}), Device.AVX512: frozenset({"avx2", "fma", "avx512f", "avx512_bf16"})}
READ_FLAGS = frozenset({"avx2", "fma", "avx512f", "avx512_bf16", "avx512bw", "avx512vl", "avx512_vnni", "amx_tile", "amx_bf16", "amx_int8"})
"""The CPU flags a profile keeps: those the classes and the packed tiles
read (device.py, packed.py), and the AMX ones that tell Intel hosts apart."""
"""The CPU flags a device class stands for, where a profile is applied to
another class than its own (the tiles IREE miscompiles there are dropped)."""


@dataclass(frozen=True)
class CostProfile:
    """One calibration: where it was measured and what it measured."""

    path: str
    cpu_model: str
    cpu_class: Device
    cpu_flags: frozenset[str]
    iree_version: str
    target_cpu: str
    threads: int
    costs: Costs
    packed: tuple[str, ...] = ()


def _field(data: dict, path: str, *keys: str) -> object:
    value: object = data
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            raise ValueError(f"{path}: not a convopt cost profile: '{'.'.join(keys)}' is missing")
        value = value[key]
    return value


def parse(text: str, path: str = "<profile>") -> CostProfile:
    """The CostProfile of a file's text; a ValueError naming the file and
    what is wrong with it."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError(f"{path}: not a convopt cost profile: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a convopt cost profile (no \"format\": \"{FORMAT}\"): write one with convopt-calibrate")
    if data.get("version") != VERSION:
        raise ValueError(f"{path}: cost profile version {data.get('version')!r}, this convopt reads version {VERSION}: calibrate again")
    costs = _field(data, path, "costs")
    known = {f.name for f in dataclasses.fields(Costs)}
    assert isinstance(costs, dict)
    bad = sorted(k for k, v in costs.items() if k not in known or not isinstance(v, (int, float)) or not v >= 0 or v == float("inf"))
    if bad:
        raise ValueError(f"{path}: cost profile: unknown or invalid costs: {', '.join(bad)}")
    cls = str(_field(data, path, "cpu", "class"))
    if cls not in (Device.CPU.value, Device.AVX2.value, Device.AVX512.value):
        raise ValueError(f"{path}: cost profile: cpu class must be cpu, avx2 or avx512, not '{cls}'")
    packed = _field(data, path, "packed")
    if not isinstance(packed, list) or any(e not in {t.element for t in AVX512_TILES} for e in packed):
        raise ValueError(f"{path}: cost profile: 'packed' must list element types of {', '.join(t.element for t in AVX512_TILES)}")
    return CostProfile(
        path=path, cpu_model=str(_field(data, path, "cpu", "model")), cpu_class=Device(cls),
        cpu_flags=frozenset(map(str, _field(data, path, "cpu", "flags"))),  # type: ignore[call-overload]
        iree_version=str(_field(data, path, "iree", "version")), target_cpu=str(_field(data, path, "iree", "target_cpu")),
        threads=int(_field(data, path, "threads")), costs=Costs(**{k: float(v) for k, v in costs.items()}), packed=tuple(packed),  # type: ignore[call-overload]
    )


@functools.lru_cache(maxsize=8)
def _load(path: str, mtime: float) -> CostProfile:
    with open(path, encoding="utf-8") as f:
        return parse(f.read(), path)


def load(path: str) -> CostProfile:
    """The profile in the file at path, read once per modification (a
    ValueError where it cannot be read or is no profile)."""
    try:
        return _load(path, os.stat(path).st_mtime)
    except OSError as e:
        raise ValueError(f"{path}: cannot read the cost profile: {e.strerror}") from None


def apply(cp: CostProfile, device: Device) -> DeviceProfile:
    """The profile the form choice reads under `--cost-profile` for a
    `--device` class: cpu and host stand for the class the file was
    measured on; avx2 and avx512 keep their own capabilities; gpu is a
    ValueError (a CPU calibration prices no GPU form).  Packed tiles: the
    file's element types, less those IREE miscompiles for the class."""
    if device == Device.GPU:
        raise ValueError("a cost profile is a CPU calibration: it does not apply to device=gpu")
    cls = cp.cpu_class if device in (Device.CPU, Device.HOST) else device
    flags = cp.cpu_flags if cls == cp.cpu_class else CLASS_FLAGS.get(cls, frozenset())
    tiles = tuple(t for t in AVX512_TILES if t.element in cp.packed)
    tiles = tuple(t for t in tiles if t not in miscompiled_tiles(tiles, flags))
    return dataclasses.replace(PROFILES[cls], costs=cp.costs, packed_tiles=tiles)


def host_cpu_model(path: str = "/proc/cpuinfo") -> str:
    """This machine's CPU model name (its first `model name` line), '' where
    unknown."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep and key.strip() == "model name":
                    return value.strip()
    except OSError:
        pass
    return ""


def iree_version() -> str:
    """The installed IREE compiler's version ('' when it is not installed)."""
    from importlib import metadata

    try:
        return metadata.version("iree-base-compiler")
    except metadata.PackageNotFoundError:
        return ""


def mismatch(cp: CostProfile) -> Optional[str]:
    """Why the profile may not describe this machine (another CPU model or
    IREE version), or None."""
    here_model, here_iree = host_cpu_model(), iree_version()
    diffs = []
    if cp.cpu_model != here_model:
        diffs.append(f"CPU '{cp.cpu_model}' (this machine: '{here_model or 'unknown'}')")
    if here_iree and cp.iree_version != here_iree:
        diffs.append(f"IREE {cp.iree_version} (installed: {here_iree})")
    if not diffs:
        return None
    return f"the cost profile was calibrated for {' and '.join(diffs)}: its choices may not be the fastest here; run convopt-calibrate on this machine"


def resolve(path: str) -> tuple[str, Optional[str]]:
    """A `--cost-profile` path as the pass option takes it (absolute) and
    the mismatch warning, if any; a ValueError where the file is no
    profile or the path cannot go into pipeline text (spaces, braces)."""
    if any(c.isspace() or c in "{}" for c in path):
        raise ValueError(f"'{path}': a path with spaces or braces cannot go into a pass pipeline; rename or link the file")
    return os.path.abspath(path), mismatch(load(path))


def cache_dir() -> str:
    """Where `convopt-calibrate --install` keeps calibrations:
    $CONVOPT_CACHE_DIR/calibration, else $XDG_CACHE_HOME/convopt/calibration
    (~/.cache/convopt/calibration)."""
    base = os.environ.get("CONVOPT_CACHE_DIR") or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "convopt")
    return os.path.join(base, "calibration")


def cache_path(cpu_model: str, iree: str) -> str:
    """The cached calibration of a CPU model and IREE version."""
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", f"{cpu_model or 'unknown-cpu'}-iree-{iree or 'none'}").strip("-")
    return os.path.join(cache_dir(), f"{slug}.json")


def host_profile() -> DeviceProfile:
    """`--device=host`: this machine's calibration from the cache where
    `convopt-calibrate --install` wrote one for its CPU model and the
    installed IREE, else the class profile of its CPU flags."""
    path = cache_path(host_cpu_model(), iree_version())
    if os.path.exists(path):
        return apply(load(path), Device.HOST)
    return PROFILES[flags_device(read_host_flags())]
