"""bench/results: bench/RESULTS.md, the page of the latest results, written
from the result files of bench/results/ (never edit it by hand).

A result file is named <benchmark>.<host>.<ext> (bench/host.py's tag; the
files of benchmarks that measure no host, GPU builds and the cost fit, have
no host part).  The page answers "how fast, against what, on which CPU":
the model suite on the host of the newest suite run (its CPU, the commit
and the date), the training loops, the calibrated cost model and its A/B
on that host, one line per earlier host's suite run, and a list of every
other result file with its host, commit and date.  A file's commit and date
are its own record (host.meta, since issue 40) or else the entry of
bench/results/provenance.json.

    python -m bench.results            # write bench/RESULTS.md
    python -m bench.results --check    # exit 1 when bench/RESULTS.md is not what the files give
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from bench.stats import geomean

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PAGE = HERE / "RESULTS.md"
SUITE = "models.suite"
VERSUS = (("PyTorch", "PyTorch eager"), ("Inductor", "Inductor"), ("IREE torch input", "IREE's own"))
"""The suite table's columns: the recipe's time over each of these variants'."""

ABOUT = {
    "ab-calibrated": "the calibrated cost profile against the class profile, whole steps (bench/ab.py)",
    "ab-competes": "channels-last priced where the measured gate kept it out (channels_last.competes) against main before it, whole steps (bench/ab.py)",
    "ab-dryrun": "the im2col work from a dry run of its emitter (costs re-fitted) against main before it, whole steps (bench/ab.py)",
    "calibrate": "convopt-calibrate's profile of this host (24 kernels)",
    "costfit": "the cost model fitted on forms.avx512/avx2 (bench/costfit.py)",
    "costfit-validate": "this tree's picks on the forms tables the fit never read (bench/costfit.py --validate RUN)",
    "costfit.before": "the former thresholds' picks: costfit's 'before' column",
    "dispatches": "IREE dispatches per model step, raw import and convopt (bench/dispatches.py)",
    "dry-dispatches": "per kernel: the dispatches the cost model counts for im2col against IREE's (bench/dry_dispatches.py)",
    "emitted": "per layer: convopt's IR, torch-mlir's and PyTorch (bench/emitted.py)",
    "forms": "per kernel: every form, and auto's pick (bench/forms.py; forms.CLASS: the zen4 host timing IREE code for CLASS)",
    "forms-heldout": "auto's pick on kernels the cost fit never saw (bench/forms.py, bench/costfit.py --heldout)",
    "forms-joint": "bench/forms.py --joint: both gradients in one op",
    "forms-peel": "bench/forms.py, peel=auto against peel=never",
    "gpu": "GPU builds, compile-only (bench/gpu.py)",
    "lsp": "convopt-lsp's answer times (bench/lsp.py)",
    "mma": "matrix-core share of GPU builds, compile-only (bench/mma.py)",
    "models.misses": "the suite's misses, dispatch by dispatch (bench/models.py --profile)",
    "models.suite": "whole training steps, the model suite (bench/models.py)",
    "pool": "pooling backward per op against PyTorch (bench/pool.py)",
    "tool": "convopt's own speed and memory against torch-mlir-opt (bench/tool.py)",
    "train": "training loops through torch.compile (bench/train.py)",
}
"""benchmark (or its prefix before '-') -> what its files hold."""


CLASSES = ("avx2", "avx512")
"""Tags of bench/forms.py's files: the code's CPU class (forms.<class>.json)."""


@dataclass(frozen=True)
class Run:
    """One run's files: bench/results/<benchmark>[.<host>].<ext>."""

    stem: str
    exts: tuple[str, ...]
    host: str

    @property
    def benchmark(self) -> str:
        return self.stem.removesuffix(f".{self.host}") if self.host else self.stem

    def path(self, ext: str) -> Path:
        return RESULTS / f"{self.stem}.{ext}"

    def data(self) -> Optional[dict]:
        """The JSON file's object (a list of rows becomes {"rows": list})."""
        if "json" not in self.exts:
            return None
        data = json.loads(self.path("json").read_text())
        return data if isinstance(data, dict) else {"rows": data}


def runs(prov: dict) -> list[Run]:
    """Every run in bench/results/ (not the archive), by stem; a stem's last
    part is its host where it is a host tag (provenance.json's, a file's own
    record's, or a class of CLASSES)."""
    exts: dict[str, list[str]] = {}
    for p in sorted(RESULTS.iterdir()):
        if p.is_file() and p.name != "provenance.json" and p.suffix in (".json", ".txt", ".png"):
            exts.setdefault(p.stem, []).append(p.suffix[1:])
    out = []
    for stem, e in sorted(exts.items()):
        tag = stem.rsplit(".", 1)[1] if "." in stem else ""
        run = Run(stem, tuple(e), tag)
        own = (run.data() or {}).get("host_tag")
        out.append(run if tag in prov["hosts"] or tag in CLASSES or tag == own else Run(stem, tuple(e), ""))
    return out


def provenance() -> dict:
    return json.loads((RESULTS / "provenance.json").read_text())


def record(run: Run, prov: dict) -> dict:
    """{commit, date, machine} of a run: its own record, else provenance.json's."""
    data = run.data() or {}
    own = data.get("meta", data)  # bench/train.py keeps its record under "meta"
    entry = prov["runs"].get(run.stem, {})
    machine = own.get("machine") or prov["hosts"].get(run.host)
    return {"commit": own.get("commit") or entry.get("commit", "?"), "date": own.get("date") or entry.get("date", "?"), "machine": machine}


def describe_host(tag: str, machine: Optional[dict]) -> str:
    """'AMD EPYC, family 26, avx512, 2 CPUs (Zen 5: ...)'."""
    if not machine:
        return f"host '{tag}' (not described)"
    parts = [machine.get("model") or "model name not recorded", f"family {machine['family']}" if machine.get("family") else "",
             machine.get("class", ""), f"{machine['cpus']} CPUs" if machine.get("cpus") else ""]
    about = machine.get("about")
    return ", ".join(p for p in parts if p) + (f" ({about})" if about else "")


def cell(r: Optional[list]) -> str:
    """A ratio [median, q1, q3], bold above 1 (convopt slower)."""
    if not r:
        return "-"
    med = f"**{r[0]:.2f}**" if r[0] > 1 else f"{r[0]:.2f}"
    return f"{med} [{r[1]:.2f}-{r[2]:.2f}]"


def recipe_of(data: dict) -> str:
    """The variant a suite run reports as README's recipe (bench/models.RECIPE)."""
    return "convopt calibrated + IREE" if data.get("cost_profile") else "convopt fwd + IREE"


def suite_geomeans(data: dict) -> dict[str, Optional[float]]:
    """Geometric mean over the models of each VERSUS ratio's median and of the build ratio."""
    recipes = [row["summary"].get("recipe") or {} for row in data["rows"]]
    out: dict[str, Optional[float]] = {}
    for ref, _ in VERSUS:
        meds = [r[ref][0] for r in recipes if r.get(ref)]
        out[ref] = geomean(meds) if meds else None
    builds = [r["build_over_raw"] for r in recipes if r.get("build_over_raw")]
    out["build"] = geomean(builds) if builds else None
    return out


def suite_table(data: dict) -> list[str]:
    """The recipe's time per model, and its ratios to each VERSUS variant."""
    recipe = recipe_of(data)
    lines = ["| model | recipe ms | " + " | ".join(f"/ {label}" for _, label in VERSUS) + " | build / raw import's (CPU s) |",
             "| --- | --- | " + " | ".join("---" for _ in VERSUS) + " | --- |"]
    for row in data["rows"]:
        rec = row["summary"].get("recipe") or {}
        ms = row["times_ms"].get(recipe)
        build = rec.get("build_over_raw")
        lines.append(f"| {row['model']} | {'-' if ms is None else f'{ms:.2f}'} | " + " | ".join(cell(rec.get(ref)) for ref, _ in VERSUS)
                     + f" | {'-' if build is None else f'{build:.2f}'} |")
    geo = suite_geomeans(data)
    nums = ["-" if geo[k] is None else f"{geo[k]:.2f}" for k in [ref for ref, _ in VERSUS] + ["build"]]
    lines.append("| geometric mean | | " + " | ".join(nums) + " |")
    return lines


def suite_section(run: Run, prov: dict) -> list[str]:
    data = run.data()
    assert data is not None, run.stem
    rec = record(run, prov)
    return [
        f"## On {describe_host(run.host, rec['machine'])}: host `{run.host}`", "",
        f"Whole training steps (forward and backward) of the model suite (test/models), IREE llvm-cpu "
        f"`--iree-llvmcpu-target-cpu={data.get('target_cpu', 'host')}`, {data['threads']} threads: README's recipe "
        f"({recipe_of(data)}) against each alternative, median [quartiles] of the per-round time ratios of "
        f"{data['repeats']} interleaved rounds (< 1: convopt faster; bold: slower).  "
        f"`results/{run.stem}.json`, commit {rec['commit']}, {rec['date']}.", "",
        *suite_table(data), "",
    ]


def train_section(run: Run, prov: dict) -> list[str]:
    data = run.data()
    assert data is not None, run.stem
    rec, meta = record(run, prov), data.get("meta", {})
    lines = [f"Training loops through `torch.compile` (`results/{run.stem}.json`, commit {rec['commit']}, {rec['date']}, "
             f"{meta.get('threads', '?')} threads): per-step median ms, and convopt's per-round ratios.", "",
             "| model | eager | Inductor | convopt | convopt / eager | convopt / Inductor |", "| --- | --- | --- | --- | --- | --- |"]
    for row in data["rows"]:
        med, ratios = row.get("median_ms", {}), row.get("ratios", {})
        ms = [f"{med[k]:.2f}" if k in med else "fails" for k in ("eager", "inductor", "convopt")]
        lines.append(f"| {row['model']} | " + " | ".join(ms) + f" | {cell(ratios.get('convopt/eager'))} | {cell(ratios.get('convopt/inductor'))} |")
    return lines + [""]


def calibration_lines(newest: str, by_stem: dict[str, Run], prov: dict) -> list[str]:
    """The calibrated profile's fit, its held-out check and its A/B, where this host has them."""
    lines = []
    cal = by_stem.get(f"calibrate.{newest}")
    if cal and (data := cal.data()):
        fit, rec = data.get("fit", {}), record(cal, prov)
        lines.append(f"- Calibration (`results/{cal.stem}.json`, {rec['date']}): the calibrated pick within 10% of the fastest on "
                     f"{fit.get('picks_within_10pct', '?')}/{fit.get('kernels', '?')} of its kernels (the class profile "
                     f"{fit.get('class_picks_within_10pct', '?')}/{fit.get('kernels', '?')}).")
    held = by_stem.get(f"forms-heldout.{newest}")
    if held and "txt" in held.exts:
        total = next((line for line in held.path("txt").read_text().splitlines() if line.startswith("| **all**")), "")
        cols = [c.strip() for c in total.strip("|").split("|")]
        if len(cols) >= 8:
            lines.append(f"- Held out (`results/{held.stem}.txt`, {record(held, prov)['date']}): on {cols[1]} kernels the fit never saw, "
                         f"auto within 10% of the fastest candidate on {cols[5]} calibrated, {cols[2]} with the class profile.")
    ab = by_stem.get(f"ab-calibrated.{newest}")
    if ab and "txt" in ab.exts:
        text = ab.path("txt").read_text().strip().splitlines()
        lines += [f"- A/B, calibrated against the class profile (`results/{ab.stem}.txt`, {record(ab, prov)['date']}):", "", "```", *text, "```"]
    return lines + ([""] if lines else [])


def earlier_suites(suites: list[Run], prov: dict) -> list[str]:
    """One line per earlier host's suite run: the geometric means."""
    lines = ["## Earlier hosts: the model suite", "",
             "| host | CPU | commit, date | / PyTorch | / Inductor | / IREE's own | build / raw |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for run in suites:
        data, rec = run.data(), record(run, prov)
        assert data is not None, run.stem
        geo = suite_geomeans(data)
        nums = ["-" if geo[k] is None else f"{geo[k]:.2f}" for k in ("PyTorch", "Inductor", "IREE torch input", "build")]
        lines.append(f"| {run.host} | {describe_host(run.host, rec['machine'])} | {rec['commit']}, {rec['date']} | " + " | ".join(nums) + " |")
    return lines + ["", "Geometric means over the models of the recipe's median ratios (`results/models.suite.<host>.*`).", ""]


def about(benchmark: str) -> str:
    return ABOUT.get(benchmark) or ABOUT.get(benchmark.split("-")[0], "")


def others(rest: list[Run], prov: dict) -> list[str]:
    lines = ["## Every other result file", "", "| files | host | commit, date | what |", "| --- | --- | --- | --- |"]
    for run in rest:
        rec = record(run, prov)
        lines.append(f"| `{run.stem}.{{{','.join(run.exts)}}}` | {run.host or '-'} | {rec['commit']}, {rec['date']} | {about(run.benchmark)} |")
    return lines + ["", "Older runs of a benchmark on the same host: `results/archive/`; what each measured and why: `notes/`."]


def page() -> str:
    """RESULTS.md's text."""
    prov = provenance()
    all_runs = runs(prov)
    by_stem = {r.stem: r for r in all_runs}
    suites = sorted((r for r in all_runs if r.benchmark == SUITE), key=lambda r: record(r, prov)["date"], reverse=True)
    newest = suites[0]
    lines = ["# How fast convopt is, against what, on which CPU", "",
             "Written by `python -m bench.results` from the latest result file of each benchmark in `bench/results/`",
             "(how to run each: `bench/README.md`); do not edit by hand.", ""]
    lines += suite_section(newest, prov)
    train = by_stem.get(f"train.{newest.host}")
    lines += train_section(train, prov) if train else []
    lines += calibration_lines(newest.host, by_stem, prov)
    misses = by_stem.get(f"models.misses.{newest.host}")
    if misses:
        lines += [f"Where the models above 1.0x lose, dispatch by dispatch: `results/{misses.stem}.txt` ({record(misses, prov)['date']}).", ""]
    lines += earlier_suites(suites[1:], prov)
    shown = {newest.stem, *(f"{b}.{newest.host}" for b in ("train", "calibrate", "forms-heldout", "ab-calibrated", "models.misses"))}
    lines += others([r for r in all_runs if r.stem not in shown and r not in suites], prov)
    return "\n".join(lines) + "\n"


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when bench/RESULTS.md differs from what the files give")
    args = parser.parse_args(argv)
    text = page()
    if args.check:
        if not PAGE.exists() or PAGE.read_text() != text:
            print("bench/RESULTS.md is out of date: run `python -m bench.results`", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text)
    print(f"wrote {PAGE} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
