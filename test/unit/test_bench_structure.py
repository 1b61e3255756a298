"""bench/ and convopt/ as code a newcomer can change: no import circle in
either (imports read with ast, those inside functions included), no
sys.path manipulation in bench/ (its modules import one another as the
package `bench` and the test suite's helpers through bench/testsupport.py),
the results page and the how-to short, and the page up to date with the
result files (`python -m bench.results --check`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bench", "convopt")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of PACKAGES: dotted name -> file."""
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def imported(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that the file imports, anywhere in it (a
    `from pkg import name` counts as pkg.name where that is a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            out.update(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names)
    return {m for m in out if m in known and m != name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(path, name, known) for name, path in known.items()}


def test_circles_are_found() -> None:
    """The finder itself: a two-module circle and a self-standing chain."""
    assert circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_relative_and_from_imports_resolve(tmp_path: Path) -> None:
    known = {"bench.x": tmp_path / "x.py", "bench.y": tmp_path / "y.py", "bench": tmp_path / "__init__.py"}
    src = tmp_path / "x.py"
    src.write_text("from . import y\nfrom bench import y as z\nimport os\n\ndef f():\n    from bench.y import g\n")
    assert imported(src, "bench.x", known) == {"bench.y"}


def test_no_import_circle() -> None:
    graph = import_graph()
    assert "bench.models" in graph and "convopt.cli" in graph
    assert circles(graph) == []


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
