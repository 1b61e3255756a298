"""bench/max_pool_fwd: max_pool2d_with_indices (forward) through IREE
(llvm-cpu, local-task), convopt --lower-pool-bwd against torch-mlir's
lowering (the raw import given to iree-compile --iree-input-type=torch),
on shapes where both build.  Each output is first checked against
PyTorch (values and indices exactly); then `--rounds` interleaved rounds
(the order rotated each round, after a warm-up call: bench/timing.py); reported: the best
and the median over the rounds in ms and the ratio convopt / torch-mlir of
the bests, with the spread of the per-round ratios (min-max).

    python -m bench.max_pool_fwd [--rounds 20] [--threads 1]
"""

from __future__ import annotations

import argparse

import numpy as np

from bench.emitted import timed_module
from bench.stats import median
from bench.testsupport import load
from bench.timing import time_rounds

harness = load("harness")
ph = load("pool_harness")

SHAPES = [
    ph.M("resnet_stem_2x64x32x32_k3s2p1", spatial=32, kernel=3, stride=2, padding=1, batch=2, channels=64),
    ph.M("resnet_stem_4x64x56x56_k3s2p1", spatial=56, kernel=3, stride=2, padding=1, batch=4, channels=64),
    ph.M("vgg_4x128x28x28_k2s2", spatial=28, kernel=2, stride=2, batch=4, channels=128),
]


def run(cfg: ph.MaxPoolFwdConfig, rounds: int, threads: int) -> str:
    text = ph.max_pool_ir(cfg)
    x = ph.max_pool_input(cfg)
    expected = ph.max_pool_reference(cfg, x)
    calls = {}
    for name, ir in (("convopt", ph.lower(text)), ("torch-mlir", text)):
        fn, to_device = timed_module(ir, threads)
        arg = to_device(harness.to_device(x, cfg.dtype))
        ph.compare_max_pool(cfg, [np.asarray(r.to_host()) for r in fn(arg)], expected)
        calls[name] = (lambda fn=fn, arg=arg: fn(arg))
    times, _ = time_rounds(calls, rounds)
    ratios = [a / b for a, b in zip(times["convopt"], times["torch-mlir"])]
    best = {k: min(v) for k, v in times.items()}
    return (f"{cfg.name:32} convopt best {best['convopt']:.3f} ms (median {median(times['convopt']):.3f})  "
            f"torch-mlir best {best['torch-mlir']:.3f} ms (median {median(times['torch-mlir']):.3f})  "
            f"ratio of bests {best['convopt'] / best['torch-mlir']:.2f} (per round {min(ratios):.2f}-{max(ratios):.2f}, median {median(ratios):.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    for cfg in SHAPES:
        print(run(cfg, args.rounds, args.threads), flush=True)


if __name__ == "__main__":
    main()
