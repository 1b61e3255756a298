"""`--mlir-timing`: wall time per pass and for parsing, verifying and
printing, reported in mlir-opt's layout (its default "tree" display):

    ===-------------------------------------------------------------------------===
                             ... Execution time report ...
    ===-------------------------------------------------------------------------===
      Total Execution Time: 0.0123 seconds

      ----Wall Time----  ----Name----
        0.0040 ( 32.5%)  Parser
        0.0061 ( 49.6%)  'func.func' Pipeline
        0.0050 ( 40.7%)    convopt-conv-bwd-to-linalg
        ...
        0.0123 (100.0%)  Total

Timers are a tree of named nodes; entering a name twice under the same
parent adds to the same node (every function's run of a pass is one row),
in the order the names were first entered.  Rest = Total - the top rows.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

RULE = "===" + "-" * 73 + "==="
TITLE = "... Execution time report ..."


@dataclass
class TimeNode:
    """One row: a name, its wall seconds, its rows nested by name."""

    name: str
    wall: float = 0.0
    children: dict[str, TimeNode] = field(default_factory=dict)

    def child(self, name: str) -> TimeNode:
        node = self.children.get(name)
        if node is None:
            node = self.children[name] = TimeNode(name)
        return node

    def merge(self, other: TimeNode) -> None:
        """Add other's times (a worker's tree) to this node, row by row."""
        self.wall += other.wall
        for name, node in other.children.items():
            self.child(name).merge(node)


class Timing:
    """The timers of one run; `with timing.scope("Parser"): ...` times a row
    nested in the scope that is open."""

    enabled = True

    def __init__(self) -> None:
        self.root = TimeNode("Total")
        self._open = [self.root]
        self._start = time.perf_counter()
        self.notes: list[str] = []  # lines after the table (the route the driver took, and why)

    @contextlib.contextmanager
    def scope(self, name: str) -> Iterator[None]:
        node = self._open[-1].child(name)
        self._open.append(node)
        start = time.perf_counter()
        try:
            yield
        finally:
            node.wall += time.perf_counter() - start
            self._open.pop()

    def note(self, text: str) -> None:
        """A line printed after the table."""
        self.notes.append(text)

    def add(self, tree: TimeNode) -> None:
        """Merge a tree measured elsewhere (a worker process) into the open scope."""
        for node in tree.children.values():
            self._open[-1].child(node.name).merge(node)

    def report(self) -> str:
        """The report, Total being the time since this Timing was made."""
        total = time.perf_counter() - self._start
        lines = [RULE, " " * ((80 - len(TITLE)) // 2) + TITLE, RULE, f"  Total Execution Time: {total:.4f} seconds", "", "  ----Wall Time----  ----Name----"]
        rows: list[tuple[float, str]] = []
        _rows(self.root, 0, rows)
        rest = total - sum(n.wall for n in self.root.children.values())
        rows += [(rest, "Rest"), (total, "Total")]
        lines += [f"  {wall:8.4f} ({100 * wall / total if total else 0.0:5.1f}%)  {name}" for wall, name in rows]
        lines += [""] + [f"  {note}" for note in self.notes] if self.notes else []
        return "\n".join(lines) + "\n"


def _rows(node: TimeNode, depth: int, out: list[tuple[float, str]]) -> None:
    for child in node.children.values():
        out.append((child.wall, "  " * depth + child.name))
        _rows(child, depth + 1, out)


class NoTiming(Timing):
    """Timing switched off: scopes cost one call and record nothing."""

    enabled = False

    def __init__(self) -> None:
        super().__init__()

    def scope(self, name: str) -> contextlib.AbstractContextManager[None]:  # type: ignore[override]
        return contextlib.nullcontext()

    def add(self, tree: TimeNode) -> None:
        return None

    def note(self, text: str) -> None:
        return None


NO_TIMING = NoTiming()
