"""`convopt-calibrate`: measure the cost model's constants on this machine.

    convopt-calibrate -o host.json          # then: convopt --lower-conv-bwd --cost-profile=host.json ...
    convopt-calibrate --install             # into the cache, where --device=host finds it

Times the calibration kernels (kernels.py) in every candidate form with
IREE for this CPU (measure.py), fits the constants of the cost model on
them (fit.py: the CPU class's profile as the prior) and writes a cost
profile (../lowering/kernel/calibrated.py) naming the CPU model and
flags, the IREE version, the threads and the constants.  It needs IREE's
compiler and runtime (`pip install 'convopt[calibrate]'`) and numpy;
plain `convopt` imports none of this.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import sys
import time
from typing import Any, Optional

import click

from .. import __version__


def _fail(message: str) -> None:
    click.echo(f"convopt-calibrate: error: {message}", err=True)
    sys.exit(1)


def _need_iree() -> None:
    try:
        import iree.compiler  # noqa: F401
        import iree.runtime  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        _fail(f"needs IREE's compiler and runtime and numpy ({e.name} is not installed): pip install 'convopt[calibrate]'")


def picks_within(rows: list, costs: Any, allowed: Any = lambda r: True) -> tuple[int, int]:
    """(kernels whose predicted-cheapest allowed candidate is within 10% of
    the fastest measured, kernels): the choice as registry.choose makes it
    (Costs.total), judged on the measured times."""
    from ..lowering.kernel.cost import Work

    by: dict[str, list] = {}
    for r in rows:
        by.setdefault(r.kernel, []).append(r)
    good = 0
    for cands in by.values():
        mine = [r for r in cands if allowed(r)] or cands
        pick = min(mine, key=lambda r: costs.total(Work(*r.work)))
        good += pick.seconds <= 1.10 * min(r.seconds for r in cands)
    return good, len(by)


def calibrate(kernels: Any, timer: Any, progress: Any = lambda s: None) -> dict:
    """The profile file's content for this machine, from the kernels timed
    by timer (measure.Timer)."""
    from ..lowering.kernel import calibrated
    from ..lowering.kernel.cost import FIELDS, Costs
    from ..lowering.kernel.device import PROFILES, flags_device, read_host_flags
    from ..lowering.kernel.packed import miscompiled_tiles, read_host_tiles
    from .fit import fit, relative_errors
    from .measure import measure

    flags = read_host_flags()
    cls = flags_device(flags)
    prior_costs = PROFILES[cls].costs
    host_tiles = read_host_tiles()
    tiles = [t for t in host_tiles if t not in miscompiled_tiles(host_tiles, flags) and t.element == "f32"]
    rows, right = measure(kernels, timer, cls.value, sorted(flags), dataclasses.asdict(prior_costs), [t.element for t in tiles], progress)
    if not rows:
        raise click.ClickException("no kernel could be timed")
    prior = [getattr(prior_costs, f) or (prior_costs.matmul if f == "packed" else 0.0) for f in FIELDS]
    theta = fit([r.work for r in rows], [r.seconds for r in rows], prior)
    errors = relative_errors([r.work for r in rows], [r.seconds for r in rows], theta)
    packed = [t.element for t in tiles] if right and any(r.label.endswith("+packed") for r in rows) else []
    costs = {**{f: float(v) for f, v in zip(FIELDS, theta)}, "build": prior_costs.build, "peel_build": prior_costs.peel_build}
    fitted, total = picks_within(rows, Costs(**costs))
    class_ok, _ = picks_within(rows, prior_costs, lambda r: not r.label.endswith("+packed"))
    import numpy as np

    return {
        "format": calibrated.FORMAT, "version": calibrated.VERSION,
        "cpu": {"model": calibrated.host_cpu_model(), "class": cls.value, "flags": sorted(flags & calibrated.READ_FLAGS)},
        "iree": {"version": calibrated.iree_version(), "target_cpu": getattr(timer, "target_cpu", "host")},
        "threads": getattr(timer, "threads", 0), "convopt": __version__,
        "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "costs": costs, "packed": packed,
        "fit": {"candidates": len(rows), "kernels": total, "call_ns": float(theta[-1]), "median_rel_err": float(np.median(errors)),
                "p90_rel_err": float(np.percentile(errors, 90)), "picks_within_10pct": fitted, "class_picks_within_10pct": class_ok,
                "packed_tiles_right": right},
        "kernels": [{"kernel": r.kernel, "candidate": r.label, "variant": r.variant, "ms": r.seconds * 1e3} for r in rows],
    }


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-o", "--output", "output", metavar="FILE", default=None, help="Write the cost profile to FILE (for --cost-profile=FILE).")
@click.option("--install", is_flag=True, help="Write it into the cache (CONVOPT_CACHE_DIR, else ~/.cache/convopt), keyed by CPU model and IREE version, where --device=host finds it.")
@click.option("--quick", is_flag=True, help="Time 2 kernels instead of 24 (a smoke run: the constants they do not exercise stay the CPU class's).")
@click.option("--threads", type=click.IntRange(min=1), default=None, help="IREE runtime worker threads while timing (default: the CPUs of this machine).")
@click.option("--repeats", type=click.IntRange(min=1), default=10, show_default=True, help="Timed rounds per candidate (the least is kept).")
@click.option("--target-cpu", default="host", show_default=True, help="iree-compile's --iree-llvmcpu-target-cpu for the timed kernels.")
@click.version_option(__version__, "--version", prog_name="convopt-calibrate")
def main(output: Optional[str], install: bool, quick: bool, threads: Optional[int], repeats: int, target_cpu: str) -> None:
    """Measure the form cost model's constants on this machine with IREE
    and write a cost profile for `convopt --cost-profile=FILE`."""
    from ..lowering.kernel import calibrated
    from .kernels import KERNELS, QUICK

    if not output and not install:
        _fail("say where the profile goes: -o FILE, or --install")
    _need_iree()
    from .measure import IreeTimer

    start = time.monotonic()
    kernels = QUICK if quick else KERNELS
    click.echo(f"convopt-calibrate: timing {len(kernels)} kernels with IREE {calibrated.iree_version()} on {calibrated.host_cpu_model() or 'this CPU'}", err=True)
    timer = IreeTimer(threads or os.cpu_count() or 1, repeats, target_cpu)
    data = calibrate(kernels, timer, lambda line: click.echo(f"  {line}", err=True))
    data["fit"]["seconds"] = round(time.monotonic() - start, 1)
    text = json.dumps(data, indent=1) + "\n"
    for path in [p for p in (output, calibrated.cache_path(data["cpu"]["model"], data["iree"]["version"]) if install else None) if p]:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
        click.echo(f"convopt-calibrate: wrote {path}", err=True)
    fit = data["fit"]
    click.echo(f"convopt-calibrate: {fit['candidates']} candidates of {fit['kernels']} kernels in {fit['seconds']} s; |predicted/measured - 1| median "
               f"{fit['median_rel_err']:.2f}; the pick within 10% of the fastest on {fit['picks_within_10pct']}/{fit['kernels']} kernels "
               f"({fit['class_picks_within_10pct']} with the {data['cpu']['class']} class profile); packed tiles: {', '.join(data['packed']) or 'none'}", err=True)


def entry() -> None:
    """Console-script entry point."""
    main.main(args=sys.argv[1:], prog_name="convopt-calibrate", standalone_mode=True)
