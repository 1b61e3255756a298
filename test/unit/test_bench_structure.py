"""bench/ as code a newcomer can change (its import circles:
test_structure.py): no sys.path manipulation in bench/ (its modules import one another as the
package `bench` and the test suite's helpers through bench/testsupport.py),
the results page and the how-to short, and the page up to date with the
result files (`python -m bench.results --check`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_bench_does_not_touch_sys_path() -> None:
    """No `sys.path` in bench/'s code (a string naming it is fine)."""
    offenders = []
    for path in sorted((ROOT / "bench").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name) and node.value.id == "sys":
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def test_bench_is_one_package() -> None:
    """Every script is a module of the package; no top-level `import models`
    style import of a sibling remains."""
    siblings = {p.stem for p in (ROOT / "bench").glob("*.py")} - {"__init__"}
    plain = []
    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            plain += [f"{path.name}: {n}" for n in names if n.split(".")[0] in siblings]
    assert (ROOT / "bench" / "__init__.py").is_file()
    assert plain == []


@pytest.mark.parametrize(("page", "limit"), [("RESULTS.md", 150), ("README.md", 400)])
def test_pages_are_short(page: str, limit: int) -> None:
    lines = (ROOT / "bench" / page).read_text().splitlines()
    assert 20 < len(lines) < limit


def test_results_page_is_up_to_date() -> None:
    from bench import results

    assert results.page() == results.PAGE.read_text(), "bench/RESULTS.md is stale: run `python -m bench.results`"
    assert results.main(["--check"]) == 0


def test_results_page_names_host_commit_and_date() -> None:
    from bench import results

    text = results.PAGE.read_text()
    head = "\n".join(text.splitlines()[:12])
    assert "family" in head and "commit" in head and "20" in head  # the host's CPU family, the commit, the date
    prov = results.provenance()
    assert all(results.record(r, prov)["date"] != "?" for r in results.runs(prov)), "a result file has no date: add it to provenance.json"
