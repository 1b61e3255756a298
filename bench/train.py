"""Training loops through `torch.compile(model, backend="convopt")` next to
eager PyTorch, Inductor (`torch.compile` default) and iree-turbine's
`turbine_cpu` backend.

    python -m bench.train [--models digits_cnn,resnet18,...] [--rounds 10] [--threads 1]

Per model: the first step's time of each compiled variant (Dynamo, AOTAutograd
and the compiler: cold; for convopt also with its on-disk cache warm, in a
fresh Dynamo, "cached"), then the time of one training step (forward, loss,
backward, SGD update) of each variant in interleaved rounds
(bench/timing.interleaved_samples: every round calls every variant once,
starting one later each round), reported as the median over the rounds and
the ratio to eager, Inductor and turbine as the median and quartiles of the
per-round ratios.  A variant that fails to build is reported with its first
error line.  Then the per-call overhead on a tiny model in inference:
the compiled model's call minus the IREE function's own invoke (prepared
argument lists), split into convopt's runtime wrapper (inputs imported,
results through DLPack) and Dynamo + AOTAutograd, and the wrapper with its
inputs copied (what the import saves).

Models: "digits_cnn" (test/dynamo/training.py, batch 64) and any of
test/models/model_zoo.py (their loss: the mean square of the output).
torch and IREE run on --threads threads each.  The machines here are shared:
the others' CPU share during the timed rounds is recorded
(bench/load.OthersBusy) and printed.  Results: bench/results/train.<host>.txt
and .json (<host>: bench/host.py's tag); every table names the host CPU.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

import torch
import torch.nn as nn

from bench import host
from bench.load import OthersBusy, paused
from bench.stats import median, quartiles
from bench.testsupport import load
from bench.timing import best_per_call, interleaved_samples

HERE = Path(__file__).resolve().parent

VARIANTS = ("eager", "inductor", "convopt", "convopt task", "turbine")


def model_and_batch(name: str) -> tuple[nn.Module, list[torch.Tensor]]:
    if name == "digits_cnn":
        training = load("training")
        torch.manual_seed(0)
        return training.DigitsCNN(), [training.digits()[0][:64]]
    spec = load("model_zoo").MODELS[name]
    torch.manual_seed(0)
    return spec.model(), [torch.randn(*s) for s in spec.inputs]


def loss_of(out: Any) -> torch.Tensor:
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return sum(o.float().square().mean() for o in outs if isinstance(o, torch.Tensor))  # type: ignore[return-value]


def make_step(model: nn.Module, compile: Callable[[nn.Module], Callable], batch: list[torch.Tensor]) -> Callable[[], float]:
    model = copy.deepcopy(model)
    fn = compile(model)
    opt = torch.optim.SGD(model.parameters(), lr=1e-4)

    def step() -> float:
        opt.zero_grad(set_to_none=True)
        loss = loss_of(fn(*batch))
        loss.backward()
        opt.step()
        return loss.item()

    return step


def compilers(cache_dir: str) -> dict[str, Callable[[nn.Module], Callable]]:
    import convopt.dynamo as cd

    return {
        "eager": lambda m: m,
        "inductor": lambda m: torch.compile(m),
        "convopt": lambda m: torch.compile(m, backend=cd.backend, options={"cache_dir": cache_dir}),
        "convopt task": lambda m: torch.compile(m, backend=cd.backend, options={"cache_dir": cache_dir, "driver": "local-task"}),
        "turbine": lambda m: torch.compile(m, backend="turbine_cpu"),
    }


def first_error(e: BaseException, stderr: str) -> str:
    """The exception's first line and the first `error:` line the compiler
    printed on the process's stderr (iree-turbine's JIT prints its diagnostics there)."""
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    head = f"{type(e).__name__}: {lines[0][:200] if lines else ''}"
    printed = [line.strip() for line in stderr.splitlines() if "error:" in line]
    return f"{head} ({printed[0][:200]})" if printed else head


def first_step(step: Callable[[], float]) -> tuple[float, float, str]:
    """(loss, seconds, what was printed on fd 2) of the first call."""
    with tempfile.TemporaryFile(mode="w+") as err:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(err.fileno(), 2)
        try:
            start = time.perf_counter()
            try:
                loss = step()
            except Exception as e:
                e.add_note(_read(err))
                raise
            return loss, time.perf_counter() - start, _read(err)
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _read(f) -> str:
    f.flush()
    f.seek(0)
    return f.read()


def run_model(name: str, rounds: int) -> dict:
    model, batch = model_and_batch(name)
    row: dict[str, Any] = {"model": name, "batch": [list(t.shape) for t in batch], "first_step_s": {}, "errors": {}}
    steps: dict[str, Callable[[], float]] = {}
    losses: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache_dir:
        comp = compilers(cache_dir)
        for variant in VARIANTS:
            torch._dynamo.reset()
            try:
                step = make_step(model, comp[variant], batch)
                losses[variant], row["first_step_s"][variant], _ = first_step(step)
                steps[variant] = step
            except Exception as e:  # a backend that cannot build this model: reported, not fatal
                row["errors"][variant] = first_error(e, "".join(getattr(e, "__notes__", [])))
        if "convopt" in steps:  # the same graphs in a fresh Dynamo: every module from the cache
            from convopt.dynamo.compile import COUNTS

            torch._dynamo.reset()
            before = COUNTS["iree_compile"]
            again = make_step(model, comp["convopt"], batch)
            start = time.perf_counter()
            again()
            row["first_step_s"]["convopt cached"] = time.perf_counter() - start
            row["cached_compiles"] = COUNTS["iree_compile"] - before
        row["first_loss"] = losses
        stats: dict = {}
        with paused():  # $CONVOPT_BENCH_PAUSE_CWD's processes stopped while the steps are timed
            probe = OthersBusy().start()
            samples = interleaved_samples(steps, rounds, stats=stats)
            row["others_busy"] = probe.value()
    row["samples_ms"] = {k: [1e3 * s for s in v] for k, v in samples.items()}
    row["median_ms"] = {k: median(v) for k, v in row["samples_ms"].items()}
    row["ratios"] = {}
    for ours in ("convopt", "convopt task"):
        for base in ("eager", "inductor", "turbine"):
            if ours in samples and base in samples:
                q1, med, q3 = quartiles([a / b for a, b in zip(samples[ours], samples[base])])
                row["ratios"][f"{ours}/{base}"] = (med, q1, q3)
    return row


def tiny_compiled():
    """(model, input, compiled model, its runtime.Module): a tiny conv net in
    inference through the convopt backend on local-sync (no thread wake-ups
    in the times), the module recorded as the backend makes it."""
    import convopt.dynamo as cd
    from convopt.dynamo import runtime

    made: list = []
    init = runtime.Module.__init__

    def recording_init(self, *a, **k):
        init(self, *a, **k)
        made.append(self)

    runtime.Module.__init__ = recording_init  # type: ignore[method-assign]
    try:
        torch._dynamo.reset()
        torch.manual_seed(0)
        model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU()).eval()
        x = torch.randn(1, 3, 8, 8)
        compiled = torch.compile(model, backend=cd.backend, options={"driver": "local-sync"})
        with torch.no_grad():
            compiled(x)
    finally:
        runtime.Module.__init__ = init  # type: ignore[method-assign]
    return model, x, compiled, made[-1]


def overhead(repeats: int = 200) -> dict:
    """Per-call overhead on a tiny model in inference (one graph), in us."""
    import iree.runtime as rt

    import convopt.dynamo as cd
    from convopt.dynamo import runtime

    model, x, compiled, module = tiny_compiled()
    params = [p.detach() for p in model.parameters()]
    args = [*params, x]  # AOTAutograd's order: parameters, then the input
    held: list = []
    arg_list = rt.VmVariantList(len(args))
    for a in args:
        arg_list.push_ref(module._buffer_view(a, held))

    def invoke():
        module.context.invoke(module.main, arg_list, rt.VmVariantList(1))

    def wrapper():
        module(args)

    def call():
        with torch.no_grad():
            compiled(x)

    def eager():
        with torch.no_grad():
            model(x)

    from torch.fx.experimental.proxy_tensor import make_fx

    big = torch.randn(64, 256, 64)  # 4 MiB, of which the graph reads one element: the input import against a copy
    big_call = cd.compile_graph(make_fx(lambda t: (t[:1, :1, :1] + 1,))(big), [big], cd.Options(driver="local-sync"))

    def big_copied():
        align, runtime._ALIGN = runtime._ALIGN, 1 << 62  # never aligned: the input copied in
        try:
            big_call([big])
        finally:
            runtime._ALIGN = align

    with paused():
        result = best_per_call({"invoke_us": invoke, "wrapper_us": wrapper, "call_us": call, "eager_us": eager}, repeats)
        result.update(best_per_call({"read_4MiB_imported_us": lambda: big_call([big]), "read_4MiB_copied_us": big_copied}, 20))
    result["overhead_us"] = result["call_us"] - result["invoke_us"]
    result["wrapper_overhead_us"] = result["wrapper_us"] - result["invoke_us"]
    result["dynamo_aot_us"] = result["call_us"] - result["wrapper_us"]
    return result


def report(rows: list[dict], ovh: dict, meta: dict) -> str:
    out = [
        f"bench/train.py: training steps through torch.compile backends on {meta['cpu']}",
        f"commit {meta['commit']}, torch {meta['torch']}, {meta['threads']} thread(s) for torch and IREE, {meta['rounds']} interleaved rounds per model;",
        "a shared machine (2 cores, other workers): 'others' is their CPU share during the timed rounds.",
        "",
        "per-step median (ms); ratios: median [quartiles] of the per-round ratios; 'convopt task': the local-task driver (IREE's worker threads; the default is local-sync)",
        f"{'model':<22}{'eager':>9}{'Inductor':>9}{'convopt':>9}{'task':>9}{'turbine':>9}  {'others':>6}",
    ]
    for r in rows:
        med = r["median_ms"]
        cells = "".join(f"{med[v]:>9.2f}" if v in med else f"{'fails':>9}" for v in VARIANTS)
        out.append(f"{r['model']:<22}{cells}  {100 * r['others_busy']:>5.0f}%")
    out.append("")
    for r in rows:
        for ours in ("convopt", "convopt task"):
            parts = [f"/{base} {q[0]:.2f} [{q[1]:.2f}-{q[2]:.2f}]" for base in ("eager", "inductor", "turbine") if (q := r["ratios"].get(f"{ours}/{base}"))]
            out.append(f"  {r['model']}, {ours}: " + ", ".join(parts))
    out += ["", "first step (s): Dynamo + AOTAutograd + the compiler; 'convopt task' and 'convopt cached': a fresh Dynamo, modules from the disk cache 'convopt' filled"]
    for r in rows:
        fs = ", ".join(f"{k} {v:.1f}" for k, v in r["first_step_s"].items())
        out.append(f"  {r['model']}: {fs} (IREE compiles on the cached run: {r.get('cached_compiles', '-')})")
    errors = [(r["model"], v, e) for r in rows for v, e in r["errors"].items()]
    if errors:
        out += ["", "failures (first error line):"] + [f"  {m} {v}: {e}" for m, v, e in errors]
    out += [
        "",
        f"per-call overhead, tiny conv net (1x3x8x8, inference, local-sync driver; the fastest of 20 interleaved rounds of 200 calls), on {meta['cpu']}:",
        f"  IREE invoke alone {ovh['invoke_us']:.1f} us; convopt's runtime wrapper {ovh['wrapper_us']:.1f} us (+{ovh['wrapper_overhead_us']:.1f}: "
        f"inputs imported, results through DLPack); the compiled model's call {ovh['call_us']:.1f} us (+{ovh['dynamo_aot_us']:.1f} Dynamo guards and AOTAutograd);",
        f"  backend overhead per call {ovh['overhead_us']:.1f} us; eager PyTorch's whole call {ovh['eager_us']:.1f} us",
        f"  a graph reading one element of a 4 MiB input: {ovh['read_4MiB_imported_us']:.0f} us with the input imported, {ovh['read_4MiB_copied_us']:.0f} us copied in",
    ]
    return "\n".join(out) + "\n"


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="digits_cnn,resnet18,mobilenet_v2_slice,c3d,densenet_small", help="comma-separated (test/models/model_zoo.py's names, and digits_cnn)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="torch's and IREE's threads (default: the CPUs)")
    parser.add_argument("--out", default="", help="the results' path without .txt/.json (default: bench/results/train.<host>)")
    args = parser.parse_args(argv)
    import iree.runtime as rt

    rt.flags.parse_flags(f"--task_topology_max_group_count={args.threads}")
    torch.set_num_threads(args.threads)
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", tempfile.mkdtemp(prefix="inductor-"))  # Inductor's first step cold too
    where = host.meta()
    meta = {**where, "cpu": where["machine"]["model"], "torch": torch.__version__, "threads": args.threads, "rounds": args.rounds}
    out = args.out or str(HERE / "results" / f"train.{where['host_tag']}")
    rows = []
    for name in args.models.split(","):
        print(f"{name} ...", file=sys.stderr, flush=True)
        rows.append(run_model(name, args.rounds))
    ovh = overhead()
    text = report(rows, ovh, meta)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out + ".txt").write_text(text)
    Path(out + ".json").write_text(json.dumps({"meta": meta, "rows": rows, "overhead": ovh}, indent=1) + "\n")
    print(text)


if __name__ == "__main__":
    main()
