"""The shape of the code: no function in convopt/, bench/ or test/ over 60 lines, no import
cycle (imports inside functions and under TYPE_CHECKING included), and op
names spelt only by their definitions in convopt/dialects/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from convopt.dialects.op_names import NAMES

PACKAGE = Path(__file__).resolve().parents[2] / "convopt"
MAX_LINES = 60
SHORT_FUNCTION_ROOTS = (PACKAGE, PACKAGE.parent / "bench", PACKAGE.parent / "test")
"""Where no function is over MAX_LINES: the package, the benchmarks, the tests."""


def long_functions(root: Path, limit: int = MAX_LINES) -> list[str]:
    """`file:line name (n lines)` of every function (def to end) over limit."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if n > limit:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({n} lines)")
    return found


OP_NAMES = frozenset(f"{dialect}.{op}" for dialect, ops in NAMES.items() for op in ops)
"""Every op name of the dialects convopt reads (convopt/dialects/op_names.py)."""
MAX_OP_NAME_LITERALS = 12
"""The op-name strings outside convopt/dialects/ today (func.func and
builtin.module in the driver, the IR core, the LSP and the pass manager,
...): the bound only goes down."""


def op_name_literals(root: Path, skip: tuple[str, ...] = ("dialects",)) -> dict[str, list[str]]:
    """File (relative to root) -> the string constants in it that are an op
    name (`"tensor.empty"`; not prose that mentions one), for every .py file
    under root outside the `skip` folders."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in skip:
            continue
        names = [n.value for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in OP_NAMES]
        if names:
            found[str(rel)] = names
    return found


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module of the package at root -> the modules of it that it imports,
    anywhere in its body (inside functions and under TYPE_CHECKING too).
    `from p import x` counts as importing p.x when that is a module, else p."""
    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    deps.add(target)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]], within: str = "") -> list[list[str]]:
    """One cycle (as a path) per strongly connected component of more than
    one module, among the modules whose names start with `within`."""
    nodes = sorted(n for n in graph if n.startswith(within))
    edges = {n: sorted(d for d in graph[n] if d.startswith(within)) for n in nodes}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(n: str) -> None:  # Tarjan's strongly connected components
        index[n] = low[n] = len(index)
        stack.append(n)
        for m in edges[n]:
            if m not in index:
                visit(m)
                low[n] = min(low[n], low[m])
            elif m in stack:
                low[n] = min(low[n], index[m])
        if low[n] == index[n]:
            component = []
            while True:
                m = stack.pop()
                component.append(m)
                if m == n:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for n in nodes:
        if n not in index:
            visit(n)
    return found


def test_no_long_function_anywhere():
    assert [f for root in SHORT_FUNCTION_ROOTS for f in long_functions(root)] == []


@pytest.mark.parametrize("package", ["convopt", "bench"])
def test_no_import_cycle(package):
    """Imports inside functions and under TYPE_CHECKING included: the dialects see the parser and the
    printer through the Protocols of convopt.dialects.base, and the
    constants the parser needs live in convopt.ir; bench's modules import
    one another as the package `bench`."""
    graph = import_graph(PACKAGE.parent / package)
    assert f"{package}.__init__" not in graph and len(graph) > 10
    assert cycles(graph) == []


def test_rewrite_layer_imports_no_lowering():
    graph = import_graph()
    assert not any(d.startswith("convopt.lowering") for d in graph["convopt.rewrite"])


def test_op_names_are_spelt_by_their_definitions():
    """Outside convopt/dialects/ an op is named by its definition's constant
    (`tensor.EMPTY`, `linalg.MATMUL`), not by a string; the few left are
    where importing the dialects would close an import circle (ir/)."""
    found = op_name_literals(PACKAGE)
    assert sum(len(v) for v in found.values()) <= MAX_OP_NAME_LITERALS, found
    empty = [f for f, names in op_name_literals(PACKAGE, skip=()).items() if "tensor.empty" in names]
    assert len(empty) <= 2, empty


def test_checkers_see_op_name_literals(tmp_path):
    (tmp_path / "dialects").mkdir()
    (tmp_path / "dialects" / "t.py").write_text('EMPTY = "tensor.empty"\n')
    (tmp_path / "m.py").write_text('"""Makes a tensor.empty."""\nx = \'linalg.generic\'\ny = f(name="tensor.empty")\nz = tensor.EMPTY\nw = "a.b"\n')
    assert op_name_literals(tmp_path) == {"m.py": ["linalg.generic", "tensor.empty"]}
    assert len(op_name_literals(tmp_path, skip=())) == 2


def test_checkers_see_cycles_and_long_functions(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    (tmp_path / "m.py").write_text("def f():\n" + "    x = 1\n" * 60)
    assert long_functions(tmp_path) == [f"{tmp_path.name}/m.py:1 f (61 lines)"]


def test_import_graph_sees_imports_in_functions_and_type_checking(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .b import g\n")
    (pkg / "a.py").write_text("def f():\n    from .sub import b\n")
    (pkg / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n")
    graph = import_graph(pkg)
    assert graph["pkg.a"] == {"pkg.sub.b"} and graph["pkg.sub.b"] == {"pkg.a"} and graph["pkg.sub"] == {"pkg.sub.b"}
    assert cycles(graph) == [["pkg.a", "pkg.sub.b"]]


def test_readme_layout_names_every_lowering_module():
    """convopt/lowering/ reads like README's Layout table: a row per folder
    naming each of its modules."""
    readme = (PACKAGE.parent / "README.md").read_text()
    layout = readme[readme.index("## Layout") :]
    rows = {line.split("|")[1].strip(): line for line in layout.splitlines() if line.startswith("| `convopt/lowering/")}
    folders = sorted(p for p in (PACKAGE / "lowering").iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert sorted(rows) == [f"`convopt/lowering/{p.name}/`" for p in folders]
    for folder in folders:
        row = rows[f"`convopt/lowering/{folder.name}/`"]
        assert [m.name for m in sorted(folder.glob("*.py")) if m.name != "__init__.py" and f"`{m.name}`" not in row] == []
