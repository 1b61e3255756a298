"""Collects what each e2e case measured (errors, MAC counts) in a results
directory shared by the pytest-xdist workers, prints the summary, and fails
the session when the suite misses a bound that spans cases (the geometric
mean of the direct lowering's MAC efficiency)."""

from __future__ import annotations

import os
import shutil

from e2e_results import RESULTS, load, summarize

CACHE = os.path.join(os.path.dirname(__file__), ".cache")
GEOMEAN_BOUND = 0.9


def pytest_configure(config):
    """The session's compile cache (harness.COMPILE_CACHE), empty at the
    start: set before the xdist workers start, so they inherit it."""
    if not hasattr(config, "workerinput"):  # the controller
        shutil.rmtree(CACHE, ignore_errors=True)
        os.environ.setdefault("CONVOPT_E2E_CACHE", CACHE)


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput"):  # the controller
        shutil.rmtree(RESULTS, ignore_errors=True)
        os.makedirs(RESULTS, exist_ok=True)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if hasattr(config, "workerinput"):
        return
    stats = summarize(load())
    if not stats:
        return
    terminalreporter.section("convopt e2e: MAC efficiency (useful / executed multiply-adds)")
    for path, s in stats.items():
        terminalreporter.write_line(
            f"{path:>11}: {s['cases']} cases, geomean {s['geomean']:.3f}, min {s['min']:.3f} ({s['worst']}), max relative error {s['max_error']:.2e}"
        )


def pytest_sessionfinish(session, exitstatus):
    if hasattr(session.config, "workerinput"):
        return
    direct = summarize(load()).get("direct")
    if direct is not None and direct["cases"] >= 20 and direct["geomean"] < GEOMEAN_BOUND:
        session.config.get_terminal_writer().line(f"FAILED: direct lowering MAC-efficiency geomean {direct['geomean']:.3f} < {GEOMEAN_BOUND}", red=True)
        session.exitstatus = 1
