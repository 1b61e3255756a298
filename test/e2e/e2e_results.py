"""What each e2e case measured (errors, MAC counts), written by the tests
(`record`) into a results folder shared by the pytest-xdist workers, and
read back by conftest.py's summary.  A module of its own: the folders of
tests that run in one session each have a conftest.py, and `conftest` names
only one of them."""

from __future__ import annotations

import json
import math
import os

RESULTS = os.path.join(os.path.dirname(__file__), ".results")


def record(entry: dict) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(os.path.join(RESULTS, f"{worker}.jsonl"), "a") as f:
        f.write(json.dumps(entry) + "\n")


def load() -> list[dict]:
    entries = []
    if os.path.isdir(RESULTS):
        for name in sorted(os.listdir(RESULTS)):
            with open(os.path.join(RESULTS, name)) as f:
                entries += [json.loads(line) for line in f if line.strip()]
    return entries


def summarize(entries: list[dict]) -> dict[str, dict]:
    out = {}
    for path in sorted({e["path"] for e in entries}):
        rows = [e for e in entries if e["path"] == path and e["executed"] > 0]
        effs = [e["useful"] / e["executed"] for e in rows]
        if not effs:
            continue
        worst = min(rows, key=lambda e: e["useful"] / e["executed"])
        out[path] = {
            "cases": len([e for e in entries if e["path"] == path]),
            "geomean": math.exp(sum(math.log(x) for x in effs) / len(effs)),
            "min": min(effs),
            "worst": worst["name"],
            "max_error": max((max(e["errors"]) if e["errors"] else 0.0) for e in entries if e["path"] == path),
        }
    return out
