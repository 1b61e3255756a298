"""bench/dry_dispatches: the dispatches the cost model counts for a matmul-form
kernel (a dry run of its emitter, convopt/lowering/kernel/dry.py) against
the dispatches IREE forms for it.

For every kernel of bench/results/forms.avx512.json (each gradient of each
layer alone) and peel auto and never, the kernel is lowered with
--conv-form=im2col; the variant registry.choose picked is dry-run and
counted (dry.counted), and the lowered module goes through `iree-compile
--compile-to=flow` (flow.executable count, minus the one every
one-gradient module has besides its kernel).  Prints per kernel both
counts and, at the end, how many agree (docs/decisions.md, dry_work).
Deterministic: it times nothing.

    python -m bench.dry_dispatches [--limit N] [--target-cpu znver4]

Writes bench/results/dry-dispatches.txt and .json (--out: the .txt's path).
"""

from __future__ import annotations

import argparse
import collections
import json
import tempfile
from pathlib import Path

from bench import emitted, host
from bench.dispatches import flow_executables
from bench.testsupport import load

HERE = Path(__file__).resolve().parent
MODULE_GLUE = 1
"""flow executables of a one-gradient module besides its kernel's."""


def picked_variant(text: str, flags: tuple[str, ...]):
    """(the lowered text, the variant request registry.choose picked)."""
    from convopt.lowering.forms import registry

    picks = []
    with registry.observing(lambda req, pick: picks.append(pick)):
        lowered = emitted.convopt_lower(text, flags)
    assert len(picks) == 1, f"{len(picks)} kernels"
    return lowered, picks[0]


def kernels(limit: int) -> list[tuple[str, str, dict, str]]:
    """(layer, gradient, shape, dtype) of each distinct kernel of forms.avx512.json."""
    entries = json.loads((HERE / "results" / "forms.avx512.json").read_text())["kernels"]
    seen, out = set(), []
    for e in entries:
        key = json.dumps([e["shape"], e["gradient"], e["dtype"]], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append((e["layer"], e["gradient"], e["shape"], e["dtype"]))
    return out[:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=10**9)
    parser.add_argument("--target-cpu", default="znver4")
    parser.add_argument("--out", default=str(HERE / "results" / "dry-dispatches.txt"))
    args = parser.parse_args()
    from convopt.lowering.forms.matmul_forms import emit_im2col
    from convopt.lowering.kernel.dry import counted, dry_run

    harness = load("harness")
    where = host.meta()
    lines = [f"# commit {where['commit']}, {where['date']}; IREE target {args.target_cpu}",
             "# layer gradient peel variant: IREE's dispatches (flow executables - 1), the dry run's"]
    agree, off, rows = 0, collections.Counter(), []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for layer, gradient, shape, dtype in kernels(args.limit):
            for peel in ("auto", "never"):
                flags = ("--lower-conv-bwd", "--conv-form=im2col", f"--peel={peel}")
                text, pick = picked_variant(harness.torch_ir(emitted.config(layer, shape, dtype)), flags)
                if pick.form.name != "im2col":
                    continue
                src = work / "kernel.mlir"
                src.write_text(text)
                flow = flow_executables(src, args.target_cpu, work)
                if flow is None:
                    continue
                iree, dry = flow - MODULE_GLUE, int(counted(dry_run(emit_im2col, pick.variant.req)).dispatch)
                agree += iree == dry
                off[dry - iree] += 1
                lines.append(f"{layer} {gradient} {peel} {pick.variant.name}: {iree} {dry}")
                rows.append({"layer": layer, "gradient": gradient, "peel": peel, "variant": pick.variant.name, "iree": iree, "dry": dry})
                print(lines[-1], flush=True)
    total = sum(off.values())
    lines.append(f"# {agree} of {total} equal; dry - IREE: {dict(sorted(off.items()))}")
    print(lines[-1])
    Path(args.out).write_text("\n".join(lines) + "\n")
    record = {"commit": where["commit"], "date": where["date"], "target_cpu": args.target_cpu, "equal": agree, "kernels": rows}
    Path(args.out).with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
