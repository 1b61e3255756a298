"""The shape of the code: no function in convopt/ over 60 lines, no import
cycle (imports inside functions and under TYPE_CHECKING included), and op
names spelt only by their definitions in convopt/dialects/."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "convopt"
MAX_LINES = 60


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


DIALECTS = ("builtin", "scf", "func", "arith", "math", "tensor", "linalg", "torch", "torch_c")
OP_NAME = re.compile(r"""["'](?:%s)\.[A-Za-z_][\w.]*["']""" % "|".join(DIALECTS))
"""A quoted op name: `"tensor.empty"`, `'linalg.generic'` (in code, strings and docstrings)."""
MAX_OP_NAME_LITERALS = 40


def op_name_literals(root: Path, skip: tuple[str, ...] = ("dialects",)) -> dict[str, list[str]]:
    """File (relative to root) -> the quoted op names in it, for every .py
    file under root outside the `skip` folders."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in skip:
            continue
        names = OP_NAME.findall(path.read_text())
        if names:
            found[str(rel)] = names
    return found


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST, type_checking: bool) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, also inside functions; those under
    `if TYPE_CHECKING:` only with type_checking."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        if not type_checking and isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return found


def import_graph(type_checking: bool = True) -> dict[str, set[str]]:
    """convopt module -> the convopt modules it imports, anywhere in its
    body (also under TYPE_CHECKING unless type_checking is False).
    `from p import x` counts as importing p.x when that is a module, else p."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in _imports(ast.parse(path.read_text()), type_checking):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
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


def test_no_long_function_in_lowering():
    assert long_functions(PACKAGE / "lowering") == []


def test_no_long_function_anywhere():
    assert long_functions(PACKAGE) == []


def test_no_import_cycle_anywhere_not_even_type_only():
    """TYPE_CHECKING imports included: the dialects see the parser and the
    printer through the Protocols of convopt.dialects.base, and the
    constants the parser needs live in convopt.ir."""
    assert cycles(import_graph()) == []


def test_no_import_cycle_in_lowering():
    """Not even through imports inside functions or under TYPE_CHECKING."""
    assert cycles(import_graph(), "convopt.lowering") == []


def test_no_runtime_import_cycle_in_lowering_and_rewrite():
    graph = import_graph(type_checking=False)
    assert [c for c in cycles(graph) if any(m.startswith(("convopt.lowering", "convopt.rewrite")) for m in c)] == []


def test_no_runtime_import_cycle_anywhere():
    """No module of convopt imports one that imports it back, directly or
    through others, at run time (module-level and function-level imports).
    Type-only imports under TYPE_CHECKING are left out: the op definitions'
    parse/print hooks are typed with the resolver and printer they are
    handed (like MLIR's OpAsmParser/OpAsmPrinter) without importing them."""
    assert cycles(import_graph(type_checking=False)) == []


def test_rewrite_layer_imports_no_lowering():
    graph = import_graph()
    assert not any(d.startswith("convopt.lowering") for d in graph["convopt.rewrite"])


def test_op_names_are_spelt_by_their_definitions():
    """Outside convopt/dialects/ an op is named by its definition's constant
    (`tensor.EMPTY`, `linalg.MATMUL`), not by a string; the few left are
    where importing the dialects would close an import circle (ir/)."""
    found = op_name_literals(PACKAGE)
    assert sum(len(v) for v in found.values()) <= MAX_OP_NAME_LITERALS, found
    empty = [f for f, names in op_name_literals(PACKAGE, skip=()).items() if any(n[1:-1] == "tensor.empty" for n in names)]
    assert len(empty) <= 2, empty


def test_checkers_see_op_name_literals(tmp_path):
    (tmp_path / "dialects").mkdir()
    (tmp_path / "dialects" / "t.py").write_text('EMPTY = "tensor.empty"\n')
    (tmp_path / "m.py").write_text("x = 'linalg.generic'\ny = \"tensor.empty\"\nz = tensor.EMPTY\nw = \"a.b\"\n")
    assert op_name_literals(tmp_path) == {"m.py": ["'linalg.generic'", '"tensor.empty"']}
    assert len(op_name_literals(tmp_path, skip=())) == 2


def test_checkers_see_cycles_and_long_functions(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    (tmp_path / "m.py").write_text("def f():\n" + "    x = 1\n" * 60)
    assert long_functions(tmp_path) == [f"{tmp_path.name}/m.py:1 f (61 lines)"]


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
