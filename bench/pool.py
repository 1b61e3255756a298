"""bench/pool: average-pooling backward per op, convopt --lower-pool-bwd
(compiled by IREE, llvm-cpu) against PyTorch's CPU kernel
(torch.ops.aten.avg_pool2d_backward / avg_pool3d_backward), and, with
--max-pool, torch-mlir's lowering of max_pool2d_with_indices_backward
against PyTorch's.

The layers are the pooling layers of the nets people train (DenseNet-121's
transitions, Inception-v3's 3x3 stride-1 pool branches, ResNet-D's
downsampling, a 3-D video pool) at batch --batch.  Every call is checked
against PyTorch, then all are timed in interleaved rounds (one call of
each per round, the order rotated each round, after a warm-up round) with
the processes of $CONVOPT_BENCH_PAUSE_CWD stopped (load.paused); reported:
the median over the rounds and the spread (min-max) in ms, and the ratio of
the medians to PyTorch (bench/timing.py).  Writes DIR/pool.<host>.json
(maxpool.<host>.json with --max-pool; <host>: bench/host.py's tag).

    python -m bench.pool [--rounds 15] [--threads 2] [--batch 4] [--layers a,b] [--max-pool] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os

from bench import host
from bench.emitted import timed_module
from bench.testsupport import load
from bench.timing import report, summary, time_rounds

HERE = os.path.dirname(os.path.abspath(__file__))
harness = load("harness")
ph = load("pool_harness")


def layers(batch: int) -> dict[str, ph.PoolConfig]:
    """name -> configuration (batch `batch`)."""
    return {
        "densenet_t1_128x56": ph.P("densenet_t1_128x56", batch=batch, channels=128, spatial=56),
        "densenet_t2_256x28": ph.P("densenet_t2_256x28", batch=batch, channels=256, spatial=28),
        "densenet_t3_512x14": ph.P("densenet_t3_512x14", batch=batch, channels=512, spatial=14),
        "inception_192x35_k3s1p1": ph.P("inception_192x35_k3s1p1", batch=batch, channels=192, spatial=35, kernel=3, stride=1, padding=1),
        "inception_768x17_k3s1p1": ph.P("inception_768x17_k3s1p1", batch=batch, channels=768, spatial=17, kernel=3, stride=1, padding=1),
        "resnetd_256x56_ceil_exclude": ph.P("resnetd_256x56_ceil_exclude", batch=batch, channels=256, spatial=55, ceil_mode=True, count_include_pad=False),
        "k3s2p1_ceil_exclude_96x33": ph.P("k3s2p1_ceil_exclude_96x33", batch=batch, channels=96, spatial=33, kernel=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
        "video_3d_64x8x28": ph.P("video_3d_64x8x28", nd=3, batch=batch, channels=64, spatial=(8, 28, 28), kernel=(1, 2, 2)),
        "densenet_t2_256x28_bf16": ph.P("densenet_t2_256x28_bf16", batch=batch, channels=256, spatial=28, dtype="bf16"),
    }


def pytorch_call(cfg: ph.PoolConfig, go, x):
    import torch

    _, kernel, stride, padding = cfg.params()
    tdt = getattr(torch, harness.TORCH_DTYPES[cfg.dtype])
    g, i = (torch.from_numpy(a).to(tdt) for a in (go, x))
    fn = torch.ops.aten.avg_pool2d_backward if cfg.rank == 2 else torch.ops.aten.avg_pool3d_backward
    args = (list(kernel), list(stride) if cfg.stride else [], list(padding), cfg.ceil_mode, cfg.count_include_pad, cfg.divisor_override)
    return lambda: fn(g, i, *args)


VARIANTS = {"convopt": ("--lower-pool-bwd",), "convopt gpu": ("--lower-pool-bwd", "--device=gpu")}
"""--variants: the convopt flags each variant lowers with (gpu: the GPU
profile's forms, whose scatter interleaves its phases by one op)."""


def run_avg(cfg: ph.PoolConfig, rounds: int, threads: int, variants: dict[str, tuple[str, ...]]) -> dict:
    import numpy as np
    import torch

    torch.set_num_threads(threads)
    go, x = ph.inputs(cfg)
    ref = ph.reference(cfg, go, x)
    calls, errors = {}, {}
    for name, flags in variants.items():
        fn, to_device = timed_module(ph.lower(ph.torch_ir(cfg), flags), threads)
        args = [to_device(harness.to_device(a, cfg.dtype)) for a in (go, x)]
        errors[name] = ph.compare(cfg, np.asarray(fn(*args).to_host()).astype(np.float64), ref)
        calls[name] = lambda fn=fn, args=args: fn(*args)
    calls["PyTorch"] = pytorch_call(cfg, go, x)
    times, busy = time_rounds(calls, rounds)
    return summary(cfg.name, cfg.dtype, times, busy, errors)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--layers", default="")
    ap.add_argument("--variants", default="convopt", help=f"comma-separated, of {', '.join(VARIANTS)}")
    ap.add_argument("--max-pool", action="store_true", help="time torch-mlir's max_pool2d_with_indices_backward instead (maxpool_study.py)")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    a = ap.parse_args()
    if a.max_pool:
        from bench.maxpool_study import bench_rows

        rows = bench_rows(a.rounds, a.threads, a.batch)
        tag = "maxpool"
    else:
        chosen = layers(a.batch)
        names = [n for n in a.layers.split(",") if n] or list(chosen)
        rows = []
        for n in names:
            rows.append(run_avg(chosen[n], a.rounds, a.threads, {v: VARIANTS[v] for v in a.variants.split(",")}))
            print("\n".join(report(rows[-1:]).splitlines()[1:]), flush=True)
        tag = "pool"
    print(report(rows))
    os.makedirs(a.out, exist_ok=True)
    where = host.meta()
    with open(os.path.join(a.out, f"{tag}.{where['host_tag']}.json"), "w") as f:
        json.dump({**where, "rounds": a.rounds, "threads": a.threads, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
