"""The backend's options: one frozen dataclass, the only place they are
declared.  `torch.compile(model, backend="convopt", options={...})` and
`convopt.dynamo.backend(gm, inputs, options={...})` take the same keys as
its fields; an unknown key or a bad value is a `ValueError` that names it
and the choices."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from ..lowering.choices import DEVICES

# IREE target backend -> the runtime driver that runs what it builds
DRIVERS = {"llvm-cpu": "local-sync", "rocm": "hip", "cuda": "cuda", "vulkan-spirv": "vulkan"}
_DRIVER_TARGETS = {**{d: t for t, d in DRIVERS.items()}, "local-task": "llvm-cpu"}


@dataclass(frozen=True)
class Options:
    """How each graph is built and run.

    target: IREE's `--iree-hal-target-backends` (llvm-cpu, rocm, cuda, vulkan-spirv).
    target_cpu: `--iree-llvmcpu-target-cpu` for llvm-cpu ("host": this machine).
    target_chip: the GPU chip (`--iree-hip-target` for rocm, `--iree-cuda-target` for cuda).
    device: convopt's `--device` (the class of machine the IR is built for); None:
        "cpu" for llvm-cpu, "gpu" for the GPU targets.
    cost_profile: a cost-profile file for convopt (`--cost-profile=FILE`); passed
        to `convopt.lower` only when set.
    iree_flags: extra iree-compile flags, appended last.
    fallback: run a graph that cannot be built in eager PyTorch after one warning
        (True), or raise `BackendError` (False).
    cache: keep compiled modules on disk ($CONVOPT_CACHE_DIR or ~/.cache/convopt).
    cache_dir: the cache folder, overriding the environment.
    driver: IREE's runtime driver; None: the target's.  For llvm-cpu that is
        "local-sync", which runs a CPU module in the calling thread (no worker
        wake-up per dispatch); "local-task" runs it on IREE's worker threads.
        Measured with bench/train.py, 2 threads, a quiet Zen 5 host, per-step
        time over eager's (15 rounds): local-sync 0.93 resnet18, 0.84
        mobilenet_v2_slice, 2.21 c3d, 1.31 densenet_small, 1.19 digits CNN;
        local-task 0.95, 0.88, 3.47, 1.38, 1.09: local-sync faster on 4 of 5.
    """

    target: str = "llvm-cpu"
    target_cpu: Optional[str] = "host"
    target_chip: Optional[str] = None
    device: Optional[str] = None
    cost_profile: Optional[str] = None
    iree_flags: tuple[str, ...] = ()
    fallback: bool = True
    cache: bool = True
    cache_dir: Optional[str] = None
    driver: Optional[str] = None

    def __post_init__(self) -> None:
        if self.target not in DRIVERS:
            raise ValueError(f"convopt backend: target must be one of {', '.join(DRIVERS)}, not {self.target!r}")
        if self.driver is not None and self.driver not in _DRIVER_TARGETS:
            raise ValueError(f"convopt backend: driver must be one of {', '.join(_DRIVER_TARGETS)}, not {self.driver!r}")
        if self.driver is not None and _DRIVER_TARGETS[self.driver] != self.target:
            raise ValueError(f"convopt backend: driver {self.driver!r} does not run target {self.target!r} modules")
        if self.device is not None and self.device not in DEVICES:
            raise ValueError(f"convopt backend: device must be one of {', '.join(DEVICES)}, not {self.device!r}")
        if isinstance(self.iree_flags, str) or not all(isinstance(f, str) for f in self.iree_flags):
            raise ValueError(f"convopt backend: iree_flags must be a list of strings, not {self.iree_flags!r}")
        object.__setattr__(self, "iree_flags", tuple(self.iree_flags))

    @classmethod
    def from_dict(cls, options: Optional[dict[str, Any]]) -> Options:
        """Options from `torch.compile`'s `options=` dict (None: the defaults)."""
        if options is None:
            return cls()
        if isinstance(options, Options):
            return options
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = [k for k in options if k not in names]
        if unknown:
            raise ValueError(f"convopt backend: unknown option {unknown[0]!r}; the options are {', '.join(names)}")
        return cls(**options)

    @property
    def runtime_driver(self) -> str:
        return self.driver or DRIVERS[self.target]

    @property
    def convopt_device(self) -> str:
        if self.device is not None:
            return self.device
        return "cpu" if self.target == "llvm-cpu" else "gpu"

    def compile_flags(self) -> list[str]:
        """iree-compile's flags for these options (after the input type)."""
        # f64 stays f64 (IREE demotes it to f32 by default; torch's results would not fit)
        flags = [f"--iree-hal-target-backends={self.target}", "--iree-input-demote-f64-to-f32=false"]
        if self.target == "llvm-cpu" and self.target_cpu:
            flags.append(f"--iree-llvmcpu-target-cpu={self.target_cpu}")
        if self.target_chip:
            chip_flag = {"rocm": "--iree-hip-target", "cuda": "--iree-cuda-target", "vulkan-spirv": "--iree-vulkan-target"}.get(self.target)
            if chip_flag is None:
                raise ValueError(f"convopt backend: target_chip does not apply to target {self.target!r}")
            flags.append(f"{chip_flag}={self.target_chip}")
        return flags + list(self.iree_flags)

    def cache_path(self) -> Path:
        folder = self.cache_dir or os.environ.get("CONVOPT_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "convopt")
        return Path(folder)


__all__ = ["DEVICES", "DRIVERS", "Options"]
