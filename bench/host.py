"""The CPU a result is measured on: its description (lscpu's model name and
family, convopt's device class) and its tag in result file names
(bench/results/<benchmark>.<tag>.<ext>).

The tag is $CONVOPT_BENCH_HOST where set, else the AMD core generation the
family names (family 23: zen2, 25: zen4 with AVX-512 and zen3 without, 26:
zen5), else the vendor and convopt's device class (intel-avx512); a run for
an IREE target CPU other than the host's appends it (zen4-znver2: AVX2 code
timed on a Zen 4).
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path

ENV = "CONVOPT_BENCH_HOST"
AMD_FAMILIES = {23: "zen2", 25: "zen3", 26: "zen5"}
ROOT = Path(__file__).resolve().parent.parent


def _cpuinfo(path: str = "/proc/cpuinfo") -> dict[str, str]:
    """The first processor's `key: value` lines."""
    info: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break
                key, sep, value = line.partition(":")
                if sep:
                    info.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return info


def cpu(path: str = "/proc/cpuinfo") -> dict:
    """{model, family, vendor, class, cpus}: lscpu's model name and family,
    and convopt's device class of this machine."""
    from convopt.lowering.kernel.device import read_host_device

    info = _cpuinfo(path)
    family = info.get("cpu family", "")
    return {
        "model": info.get("model name") or platform.processor() or "unknown CPU",
        "family": int(family) if family.isdigit() else None,
        "vendor": info.get("vendor_id", ""),
        "class": read_host_device(path).value,
        "cpus": os.cpu_count(),
    }


def tag(target_cpu: str = "host", info: dict | None = None) -> str:
    """The host's tag in result file names (module docstring)."""
    name = os.environ.get(ENV, "")
    if not name:
        info = info or cpu()
        if info["vendor"] == "AuthenticAMD" and info["family"] in AMD_FAMILIES:
            name = "zen4" if info["family"] == 25 and info["class"] == "avx512" else AMD_FAMILIES[info["family"]]
        else:
            name = f"{'intel-' if info['vendor'] == 'GenuineIntel' else ''}{info['class']}"
    return name if target_cpu in ("", "host") else f"{name}-{target_cpu}"


def line(info: dict | None = None) -> str:
    """'host: MODEL (CLASS, N CPUs)': the line a result's table starts with."""
    info = info or cpu()
    return f"host: {info['model']} ({info['class']}, {info['cpus']} CPUs)"


def commit() -> str:
    """The checkout's short commit ('' outside git), '+' when it has changes."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""

    head = git("rev-parse", "--short", "HEAD")
    return head + ("+" if head and git("status", "--porcelain", "--untracked-files=no") else "")


def meta(target_cpu: str = "host") -> dict:
    """What every result file records of where and when it was measured."""
    info = cpu()
    return {"machine": info, "host_tag": tag(target_cpu, info), "commit": commit(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")}
