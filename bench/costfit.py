"""bench/costfit: fit the form cost model of each CPU class on bench/forms.py's
measurements, and validate it by leaving one model family out.  Measures
nothing: it reads bench/results/forms*.json (every kernel alone, every form,
IREE for this AVX-512 host and for znver2) and lowers each kernel once to
get its request.

The model (convopt/lowering/kernel/cost.py): a candidate's time is
sum_f work.f * costs.f over the fields of `Work` (multiply-adds per form,
matmul result elements, copied bytes, dispatches), linear in the constants
`costs`.  Per class they are fitted by non-negative least squares on the
relative error, sum over (kernel, candidate) of (predicted / measured - 1)^2,
over every measured candidate whose IR differs from the others'
(`same_as`):

    generic peel=auto    generic_work, peel auto         (variant `pieces`)
    generic peel=never   generic_work, peel never
    im2col peel=auto     im2col_work, peel auto          (variant `pieces`)
    im2col peel=never    im2col_work, peel never         (variant `padded`)
    named peel=auto      named_work (its variant), where channels-last fits
    auto compact         generic_work of generic_form.compact (variant `compact`)

Leave one family out: a kernel's family is the test/models model it came
from, or its bench/layers.json name up to the first '-' (resnet, resnext,
mobilenet, ...).  For each family the constants are refitted without its
kernels, and each of its kernels is chosen as registry.choose chooses (the
least `Costs.total`, build cost included, among the measured candidates);
the pick's measured time over the best measured candidate's is reported,
the target being <= 1.10.  "before" is the pick of the former thresholds
(results/costfit.before.json, written by `--picks` on the commit before the
cost model was fitted); "now" the pick of the profile in this tree.

    python -m bench.costfit            # writes results/costfit.txt and .json
    python -m bench.costfit --picks F  # only this tree's picks per kernel, to F
    python -m bench.costfit --heldout bench/results/forms-heldout.avx2.json
                                       # fit nothing: auto as measured there against the best

--heldout validates the profiles as they are on bench/forms.py tables the
fit never read (other models, a later commit, a quieter machine): per
family, how often each measured `auto D` candidate is within 10% of the
fastest candidate measured, the worst and the geometric mean of auto /
fastest, and the kernels it misses.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
from typing import NamedTuple, Optional

import numpy as np

from bench import host
from bench.stats import geomean
from convopt.calibrate.fit import fit as calibration_fit  # the same fit convopt-calibrate runs, without a prior

HERE = os.path.dirname(os.path.abspath(__file__))

CLASSES = ("avx512", "avx2")
RUNS = ("forms", "forms-peel")
LABELS = ("generic peel=auto", "generic peel=never", "im2col peel=auto", "im2col peel=never", "named peel=auto", "auto compact")
BUILD_SECONDS_PER_DISPATCH = 0.12
"""IREE's build CPU seconds per dispatch: (convopt's build - the raw
import's) / (convopt's dispatches - the raw import's) over the models of
bench/README.md's final runs, median 0.12 s (0.08 resnext - 0.15 audio)."""
BUILD_RUNS = 100_000
"""The runs (training steps) a build is amortized over: a policy, not a
measurement; the build cost of a dispatch between forms is BUILD_SECONDS_PER_DISPATCH / BUILD_RUNS."""
PEEL_BUILD_RUNS = 30_000
"""The same between the variants of one form (Costs.peel_build): measured on
whole steps, see convopt/lowering/kernel/cost.py Costs."""


class Row(NamedTuple):
    """One measured candidate of one kernel."""

    cls: str
    kernel: str  # "run:layer gradient"
    family: str
    label: str
    variant: str  # form/variant
    work: tuple[float, ...]
    ms: float


def family(layer: str) -> str:
    """The test/models model of a kernel, or its layers.json group."""
    return layer.split(":")[0] if ":" in layer else layer.split("-")[0]


def request_of(layer_name: str, layer: dict, dtype: str):
    """The one KernelRequest the lowering of this one-gradient layer makes
    (registry.choose spied on; --device=cpu)."""
    from bench import emitted
    from bench.testsupport import load
    from convopt.lowering.forms import registry

    harness = load("harness")

    seen = []
    original = registry.choose

    def spy(req):
        seen.append(req)
        return original(req)

    registry.choose = spy
    try:
        harness.lower(harness.torch_ir(emitted.config(layer_name, layer, dtype)), ("--lower-conv-bwd",))
    finally:
        registry.choose = original
    assert len(seen) == 1, (layer_name, len(seen))
    return seen[0]


def with_choices(req, **changes):
    """req with other choices, its emission decided again (tiles.decide)."""
    from convopt.lowering.kernel.tiles import decide

    return decide(dataclasses.replace(req, choices=dataclasses.replace(req.choices, **changes)))


def candidate(label: str, req):
    """(variant, request, Work) of a measured candidate, or None where that
    candidate emitted another form's IR."""
    from convopt.lowering.forms.channels_last import channels_last_fits
    from convopt.lowering.forms.generic_form import compact, generic_work
    from convopt.lowering.forms.matmul_forms import im2col_fits, im2col_work
    from convopt.lowering.forms.named_form import named_variants
    from convopt.lowering.kernel.request import Peel

    peel = Peel.NEVER if label.endswith("never") else Peel.AUTO
    r = with_choices(req, peel=peel)
    if label.startswith("generic"):
        return f"generic/{peel}", r, generic_work(r)
    if label.startswith("im2col"):
        return (f"im2col/{peel}", r, im2col_work(r)) if im2col_fits(r) else None
    if label.startswith("named"):
        return ("named", r, named_variants(r)[0].work) if channels_last_fits(r.kind, r.roles, r.rels) else None
    one_op = compact(req)
    return ("generic/compact", one_op, generic_work(one_op)) if one_op is not None else None


def load(results: str, runs: tuple[str, ...] = RUNS) -> tuple[list[Row], dict]:
    """Every distinct measured candidate of every kernel of these runs,
    both classes; and per (class, kernel) its entry and request."""
    from convopt.lowering.kernel.cost import FIELDS

    rows: list[Row] = []
    kernels: dict = {}
    requests: dict = {}
    for run in runs:
        for cls in CLASSES:
            path = os.path.join(results, f"{run}.{cls}.json")
            if not os.path.exists(path):
                continue
            with open(path) as f:
                entries = json.load(f)["kernels"]
            for e in entries:
                key = f"{run}:{e['layer']} {e['gradient']}"
                shape_key = json.dumps([e["shape"], e["gradient"], e["dtype"]], sort_keys=True)
                if shape_key not in requests:
                    requests[shape_key] = request_of(e["layer"], e["shape"], e["dtype"])
                req = requests[shape_key]
                kernels[(cls, key)] = (e, req)
                kept: set[str] = set()
                for label in LABELS:
                    ms = e["times_ms"].get(label)
                    same = e["same_as"].get(label)
                    if ms is None or (same in kept):
                        continue
                    got = candidate(label, req)
                    if got is None:
                        continue
                    variant, _, work = got
                    kept.add(label)
                    rows.append(Row(cls, key, family(e["layer"]), label, variant, tuple(getattr(work, f) for f in FIELDS), ms))
    return rows, kernels


def fit(rows: list[Row]) -> np.ndarray:
    """ns per unit of each Work field, fitted on the relative error, with
    a constant per kernel run (the module call, the same for every
    candidate of a kernel: fitted, then left out, as it decides nothing);
    returns the Work costs, then the constant."""
    return calibration_fit([r.work for r in rows], [r.ms * 1e-3 for r in rows])


def costs_of(theta: np.ndarray):
    from convopt.lowering.kernel.cost import FIELDS, Costs

    return Costs(**{f: float(v) for f, v in zip(FIELDS, theta[: len(FIELDS)])}, build=BUILD_SECONDS_PER_DISPATCH * 1e9 / BUILD_RUNS,
                 peel_build=BUILD_SECONDS_PER_DISPATCH * 1e9 / PEEL_BUILD_RUNS)


def auto_rows(rows: list[Row], req, cls: str) -> list[Row]:
    """The rows that are variants auto considers on the class's profile:
    not `generic peel=never` (no variant of auto), and only forms that
    are candidates there (FormDef.candidate)."""
    from convopt.lowering.forms import registry
    from convopt.lowering.kernel.device import PROFILES, Device

    r = with_choices(req, device=PROFILES[Device(cls)])
    return [x for x in rows if x.label != "generic peel=never" and registry.form(x.variant.split("/")[0]).candidate(r)]


def pick(rows: list[Row], costs) -> Row:
    """The row registry.choose would take: least estimated total."""
    from convopt.lowering.kernel.cost import Work

    return min(rows, key=lambda r: costs.total(Work(*r.work)))


def quality(rows: list[Row], theta: np.ndarray) -> dict:
    """Median and 90th percentile of |predicted / measured - 1|."""
    pred = np.array([(*r.work, 1.0) for r in rows]) @ theta
    err = np.abs(pred / np.array([r.ms * 1e6 for r in rows]) - 1)
    return {"rows": len(rows), "median_rel_err": float(np.median(err)), "p90_rel_err": float(np.percentile(err, 90))}


def by_kernel(rows: list[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for r in rows:
        out.setdefault(r.kernel, []).append(r)
    return out


def current_picks(kernels: dict, device: str = "") -> dict[str, str]:
    """This tree's choice per (class, kernel), as a candidate label, on the
    class's profile (or on `device`'s: cpu, the default)."""
    from convopt.lowering.forms import registry
    from convopt.lowering.kernel.device import PROFILES, Device

    out = {}
    for (cls, key), (_, req) in kernels.items():
        got = registry.choose(with_choices(req, device=PROFILES[Device(device or cls)]))
        label = {"named": "named peel=auto", "compact": "auto compact", "padded": "im2col peel=never"}.get(got.variant.name)
        if label is None:
            label = f"{got.form.name} peel={got.variant.req.choices.peel}"
        out[f"{cls} {key}"] = label
    return out


def stats(vals: list) -> str:
    """worst and geometric mean of the ratios present."""
    v = [x for x in vals if x]
    return f"{max(v):6.2f} {geomean(v):7.3f}" if v else f"{'-':>6} {'-':>7}"


def measured(e: dict, label: Optional[str]) -> Optional[float]:
    if label is None:
        return None
    ms = e["times_ms"].get(label)
    if ms is None and label == "auto compact":
        return None
    return ms


def validate(results: str, run: str) -> str:
    """This tree's pick (the class profiles and cpu's) on the kernels of
    the tables `run`.CLASS.json, which the fit never read: per family the
    kernels picked within 10% of the fastest form auto considers (LABELS),
    the worst and the geometric mean of pick / fastest; then each miss."""
    _, kernels = load(results, (run,))
    lines = []
    for device in ("", "cpu"):
        chosen = current_picks(kernels, device)
        for cls in CLASSES:
            fams: dict[str, list[float]] = {}
            misses = []
            for (c, key), (e, _) in kernels.items():
                label = chosen.get(f"{c} {key}")
                t, best = measured(e, label), min((e["times_ms"][x] for x in LABELS if e["times_ms"].get(x)), default=None)
                if c != cls or t is None or best is None:
                    continue
                fams.setdefault(family(e["layer"]), []).append(t / best)
                if t / best > 1.10:
                    misses.append(f"     {key[:58]:58} {label} {t / best:.2f}x")
            every = [x for v in fams.values() for x in v]
            lines.append(f"== {run}.{cls}, the {device or cls} profile's pick: {sum(x <= 1.10 for x in every)}/{len(every)} within 10%, {stats(every)} (worst, geomean)")
            lines += [f"   {fam:22} {sum(x <= 1.10 for x in v):>3}/{len(v):<3} {stats(v)}" for fam, v in sorted(fams.items())] + misses
    return "\n".join(lines)


def heldout(paths: list[str]) -> str:
    """The --heldout tables (markdown): per family and measured auto device,
    kernels within 10% of the fastest measured candidate, the worst and the
    geometric mean of auto / fastest; the same against the fastest of the
    forms auto considers (all but `taps`, registry.py); then each miss."""
    fams: dict[str, list[tuple[str, dict[str, float], dict[str, float], str]]] = {}
    devices: list[str] = []
    for path in paths:
        with open(path) as f:
            for e in json.load(f)["kernels"]:
                ok = {c: t for c, t in e["times_ms"].items() if t}
                autos = {c[5:]: t for c, t in ok.items() if c.startswith("auto ")}
                devices += [d for d in autos if d not in devices]
                best = min(ok.values())
                best_auto = min(t for c, t in ok.items() if not c.startswith("taps "))
                fams.setdefault(family(e["layer"]), []).append((
                    f"{e['layer']} {e['gradient']}", {d: t / best for d, t in autos.items()}, {d: t / best_auto for d, t in autos.items()}, e["fastest"]))

    def cells(ratios: list[float]) -> str:
        return f"{sum(r <= 1.10 for r in ratios)}/{len(ratios)} | {max(ratios):.2f} | {geomean(ratios):.3f}"

    lines = []
    for title, which in (("against the fastest candidate measured", 1), ("against the fastest of the forms auto considers (not taps)", 2)):
        lines += [f"auto / fastest, {title}:", "",
                  "| family | kernels | " + " | ".join(f"auto {d} <= 1.10 | worst | geomean" for d in devices) + " |",
                  "| --- | --- | " + " | ".join("--- | --- | ---" for _ in devices) + " |"]
        every: dict[str, list[float]] = {d: [] for d in devices}
        for fam, ks in fams.items():
            row = []
            for d in devices:
                rs = [k[which][d] for k in ks if d in k[which]]
                every[d] += rs
                row.append(cells(rs))
            lines.append(f"| {fam} | {len(ks)} | " + " | ".join(row) + " |")
        lines += [f"| **all** | {sum(map(len, fams.values()))} | " + " | ".join(cells(every[d]) for d in devices) + " |", ""]
    for ks in fams.values():
        for name, q, qa, fastest in ks:
            if any(r > 1.10 for r in q.values()):
                lines.append(f"miss {name}: " + " ".join(f"{d} {r:.2f}" for d, r in q.items())
                             + f" (of auto's forms: {' '.join(f'{r:.2f}' for r in qa.values())}); fastest {fastest}")
    return "\n".join(lines)


def lofo_table(cls: str, mine: list[Row], families: list[str], kernels: dict, picks: dict[str, dict]) -> list[dict]:
    """Per held-out family, each of its kernels: the best measured candidate,
    the pick of the costs fitted without the family (LOFO), and the measured
    ratio to the best of the picks in `picks` (before, now, cpu)."""
    table = []
    for fam in families:
        held = [r for r in mine if r.family == fam]
        costs = costs_of(fit([r for r in mine if r.family != fam]))
        for key, cands in sorted(by_kernel(held).items()):
            best = min(cands, key=lambda r: r.ms)
            e, req = kernels[(cls, key)]
            got = pick(auto_rows(cands, req, cls), costs)
            entry = {"family": fam, "kernel": key, "useful_macs": e["useful_macs"], "best": best.label, "best_ms": best.ms,
                     "lofo_pick": got.label, "lofo_ratio": got.ms / best.ms}
            for name, chosen in picks.items():
                t = measured(e, chosen.get(f"{cls} {key}"))
                entry[f"{name}_pick"], entry[f"{name}_ratio"] = chosen.get(f"{cls} {key}"), t / best.ms if t else None
            table.append(entry)
    return table


def family_lines(table: list[dict], families: list[str]) -> list[str]:
    """The LOFO summary per family and over all, and the kernels it misses."""
    lines = []
    lines.append(f"   {'family':22} {'kernels':>7} {'LOFO <=1.10':>11} {'worst':>6} {'geomean':>7} | {'before worst':>12} {'geomean':>7} | {'now worst':>9} {'geomean':>7} | {'cpu worst':>9} {'geomean':>7}")
    for fam in families:
        t = [x for x in table if x["family"] == fam]
        lo = [x["lofo_ratio"] for x in t]
        ok = sum(1 for x in lo if x <= 1.10)
        lines.append(f"   {fam:22} {len(t):>7} {ok:>7}/{len(t):<3} {stats(lo)} | {stats([x['before_ratio'] for x in t]):>20} | {stats([x['now_ratio'] for x in t]):>17} | {stats([x['cpu_ratio'] for x in t]):>17}")
    every = [x for x in table]
    ok = sum(1 for x in every if x["lofo_ratio"] <= 1.10)
    lines.append(f"   {'all':22} {len(every):>7} {ok:>7}/{len(every):<3} {stats([x['lofo_ratio'] for x in every])} | "
                 f"{stats([x['before_ratio'] for x in every]):>20} | {stats([x['now_ratio'] for x in every]):>17} | {stats([x['cpu_ratio'] for x in every]):>17}")
    lines.append("   held-out kernels picked more than 10% slower than the best measured form:")
    for x in table:
        if x["lofo_ratio"] > 1.10:
            lines.append(f"     {x['kernel'][:58]:58} {x['useful_macs']:>10} best {x['best']:18} {x['best_ms']:.3f} ms; LOFO {x['lofo_pick']} {x['lofo_ratio']:.2f}x; before {x['before_ratio'] or 0:.2f}x; now {x['now_pick']} {x['now_ratio'] or 0:.2f}x")
    lines.append("   kernels the class's profile now picks measured > 5% slower than the former thresholds' pick:")
    for x in table:
        if x["now_ratio"] and x["before_ratio"] and x["now_ratio"] > 1.05 * x["before_ratio"]:
            lines.append(f"     {x['kernel'][:58]:58} {x['useful_macs']:>10} before {x['before_pick']} {x['before_ratio']:.2f}x; now {x['now_pick']} {x['now_ratio']:.2f}x (of the best)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", default=os.path.join(HERE, "results"))
    parser.add_argument("--picks", default="", help="only write this tree's pick per kernel to this file")
    parser.add_argument("--validate", default="", metavar="RUN", help="fit nothing: this tree's picks on the tables RUN.CLASS.json (e.g. forms-zen5) against their fastest form")
    parser.add_argument("--heldout", nargs="+", metavar="JSON", help="fit nothing: auto's measured time against the fastest, per family, in these forms.py tables")
    args = parser.parse_args()
    if args.validate:
        text = validate(args.results, args.validate)
        print(text)
        with open(os.path.join(args.results, f"costfit-validate.{args.validate}.txt"), "w") as f:
            f.write(text + "\n")
        return
    if args.heldout:
        print(heldout(args.heldout))
        return
    rows, kernels = load(args.results)
    if args.picks:
        with open(args.picks, "w") as f:
            json.dump(current_picks(kernels), f, indent=1, sort_keys=True)
        return
    from convopt.lowering.kernel.cost import FIELDS

    before_path = os.path.join(args.results, "costfit.before.json")
    before = json.load(open(before_path)) if os.path.exists(before_path) else {}
    now = current_picks(kernels)
    cpu = current_picks(kernels, "cpu")
    where = host.meta()  # measures nothing on this host: its commit and date only
    out: dict = {"commit": where["commit"], "date": where["date"], "fields": list(FIELDS), "build_ns_per_dispatch": BUILD_SECONDS_PER_DISPATCH * 1e9 / BUILD_RUNS, "classes": {}}
    lines = []
    for cls in CLASSES:
        mine = [r for r in rows if r.cls == cls]
        theta = fit(mine)
        q = quality(mine, theta)
        lines.append(f"== {cls}: {q['rows']} candidates of {len(by_kernel(mine))} kernels; |predicted/measured - 1| median {q['median_rel_err']:.2f}, p90 {q['p90_rel_err']:.2f}")
        lines.append("   costs (ns per unit): " + ", ".join(f"{f}={v:.4g}" for f, v in zip((*FIELDS, "call"), theta)))
        families = sorted({r.family for r in mine})
        table = lofo_table(cls, mine, families, kernels, {"before": before, "now": now, "cpu": cpu})
        out["classes"][cls] = {"costs": dict(zip((*FIELDS, "call"), map(float, theta))), "quality": q, "kernels": table}
        lines += family_lines(table, families)
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(args.results, "costfit.txt"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(args.results, "costfit.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
