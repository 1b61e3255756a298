"""bench/ab: convopt as committed at git REF against the working tree, on
whole training steps, IREE only (no PyTorch in the process: its OpenMP
threads spin after each call and slow whatever runs next).

For each model of test/models, the README recipe (convopt --lower-conv-bwd
--lower-pool-bwd --lower-forward-convs, then iree-compile) with both
convopts; each module is checked against PyTorch's float64 gradients, then
the two are timed in alternation (--rounds rounds of one call each, the
order swapped every round: bench/timing.py; other processes paused as
bench/load.py does).
Prints per model each median, the median of the per-round ratios
(tree / REF) with its quartiles, and the dispatch count of each module;
with --builds B, each module is built B times (the two alternated) and the
build's CPU seconds (convopt's lowering chain + iree-compile, user +
system) are printed too: the median of each, and their ratio.

    python -m bench.ab --ref HEAD [--models c3d,video_block] [--rounds 41] [--builds 3] [--target-cpu host]
                          [--flags=--device=host]

--flags adds convopt flags to the tree's command only: with --ref HEAD, it
times a flag against the default on the same code.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench import models as bm
from bench.stats import median, quartiles
from bench.timing import interleaved_samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--models", default="", help="comma-separated (default: every model)")
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--builds", type=int, default=1, help="builds per module, alternated; > 1 prints build CPU seconds")
    parser.add_argument("--target-cpu", default="host")
    parser.add_argument("--flags", default="", help="extra convopt flags for the tree's module only (space-separated)")
    args = parser.parse_args()
    bm.IREE_FLAGS[-1] = f"--iree-llvmcpu-target-cpu={args.target_cpu}"
    baseline = bm.add_baseline(args.ref)
    pair = {"tree": bm.VARIANTS["convopt fwd + IREE"][0], args.ref: bm.VARIANTS[baseline][0]}
    if args.flags:
        prog, flags, source = bm.STAGES[pair["tree"]]
        pair["tree"] = f"{pair['tree']} {args.flags}"
        bm.STAGES[pair["tree"]] = (prog, (*flags, *args.flags.split()), source)
    names = [n for n in args.models.split(",") if n] or list(bm.MODELS)
    print(f"model                 tree ms  {args.ref:>8s} ms  tree/{args.ref} [quartiles]   linalg ops tree/{args.ref}   max rel err")
    with tempfile.TemporaryDirectory(prefix="convopt-ab-") as tmp:
        for name in names:
            spec = bm.MODELS[name]
            work = Path(tmp) / name
            work.mkdir()
            args_t = spec.arguments(spec.run_batch)
            ref = [r.detach().contiguous().numpy() for r in spec.reference(args_t)]
            inputs = [a.detach().contiguous().numpy() for a in args_t]
            stages = bm.Stages(bm.MODELS_DIR / spec.file, work)
            fns, errs, disp = {}, {}, {}
            build: dict[str, list[float]] = {k: [] for k in pair}
            for i in range(args.builds):
                for key in list(pair) if i % 2 == 0 else list(pair)[::-1]:
                    vmfb = work / f"{bm.slug(key)}.vmfb"
                    compile_cpu = bm.iree_compile(stages.get(pair[key]), "torch", vmfb, work)[1]
                    build[key].append(stages.chain_time(pair[key], cpu=True) + compile_cpu)
            for key, stage in pair.items():
                vmfb = work / f"{bm.slug(key)}.vmfb"
                fns[key], errs[key] = bm.load_iree(vmfb, inputs, ref, args.threads)
                disp[key] = stages.get(stage).read_text().count("linalg.")
            times = interleaved_samples(fns, args.rounds)
            ratios = [a / b for a, b in zip(times["tree"], times[args.ref])]
            lo, mid, hi = quartiles(ratios)
            print(f"{name:20s} {median(times['tree']) * 1e3:8.2f} {median(times[args.ref]) * 1e3:11.2f}   {mid:5.2f} [{lo:.2f}-{hi:.2f}]"
                  f"   linalg ops {disp['tree']}/{disp[args.ref]}   {errs['tree']:.1e} / {errs[args.ref]:.1e}", flush=True)
            if args.builds > 1:
                tb, rb = median(build["tree"]), median(build[args.ref])
                print(f"{'':20s} build CPU s {tb:6.2f} {rb:11.2f}   {tb / rb:5.2f}   (each: {' '.join(f'{x:.1f}' for x in build['tree'])} / {' '.join(f'{x:.1f}' for x in build[args.ref])})", flush=True)


if __name__ == "__main__":
    main()
