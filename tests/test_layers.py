"""The house keeps its floors: every import of `engine/` and `pbem/`, inside functions too,
goes down README's layering table (or stays within one package), and no modules import one
another in a circle. The table in README.md is the rule; this test reads it."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "pbem")


@dataclass(frozen=True)
class Row:
    members: tuple[str, ...]  # the packages and modules of the row
    alias: str | None  # a name the table gives the row as a whole (`pbem.ground`)
    may_import: tuple[str, ...]


def table() -> list[Row]:
    """README's layering table: one row per package (or group of modules)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[1].startswith("`"):
            continue
        names = re.findall(r"`([a-z_.]+)`", cells[1])
        alias = re.search(r"together: `([a-z_.]+)`", cells[1])
        members = tuple(n for n in names if not alias or n != alias.group(1))
        rows.append(
            Row(
                members,
                alias.group(1) if alias else None,
                tuple(re.findall(r"`([a-z_.]+)`", cells[3])),
            )
        )
    return rows


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """Every module of ours that `name` imports, anywhere in it, with the line."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target, node.lineno


def _row_of(module: str, rows: list[Row]) -> Row | None:
    best, length = None, -1
    for row in rows:
        for member in row.members:
            if (module == member or module.startswith(member + ".")) and len(member) > length:
                best, length = row, len(member)
    return best


def _reachable(row: Row, rows: list[Row]) -> set[str]:
    """The members of every row `row` may import, and theirs in turn."""
    by_name = {n: r for r in rows for n in (*r.members, *([r.alias] if r.alias else []))}
    seen: set[int] = set()
    allowed: set[str] = set()
    todo = [by_name[n] for n in row.may_import if n in by_name]
    while todo:
        below = todo.pop()
        if id(below) in seen:
            continue
        seen.add(id(below))
        allowed.update(below.members)
        todo.extend(by_name[n] for n in below.may_import if n in by_name)
    return allowed


def test_the_table_names_every_module() -> None:
    rows = table()
    assert len(rows) >= 10, "README's Layout table was not found or lost rows"
    unplaced = [m for m in modules() if _row_of(m, rows) is None]
    assert unplaced == [], f"modules in no row of README's layering table: {unplaced}"


def test_every_import_goes_down_the_table() -> None:
    rows, known = table(), modules()
    wrong = []
    for name, path in known.items():
        row = _row_of(name, rows)
        assert row is not None
        allowed = _reachable(row, rows)
        for target, line in imports(name, path, known):
            target_row = _row_of(target, rows)
            # Within a row (one package, or the modules the table groups) anything goes;
            # circles are caught by their own test.
            if target_row is row or (target_row and set(target_row.members) & allowed):
                continue
            wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert wrong == [], "imports against README's layering table:\n" + "\n".join(wrong)


def test_no_module_imports_itself_round_a_circle() -> None:
    known = modules()
    graph = {name: {t for t, _ in imports(name, path, known)} for name, path in known.items()}
    circles = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in graph:
        if node not in index:
            visit(node)
    assert circles == [], f"import circles: {circles}"


def test_the_engine_imports_only_the_standard_library() -> None:
    outside = []
    for name, path in modules().items():
        if not name.startswith("engine"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            outside += [
                f"{name}: {r}" for r in roots if r != "engine" and r not in sys.stdlib_module_names
            ]
    assert outside == []


@pytest.mark.parametrize("source", ["import pbem.web.board", "from ..game import states"])
def test_the_walk_sees_imports_inside_functions_and_relative_ones(source: str, tmp_path) -> None:
    """The walk itself: an import inside a function, or relative, is an arrow too."""
    known = {
        "pbem.api.auth": tmp_path / "auth.py",
        "pbem.web.board": Path(),
        "pbem.game.states": Path(),
    }
    (tmp_path / "auth.py").write_text(f"def f():\n    {source}\n", encoding="utf-8")
    found = [t for t, _ in imports("pbem.api.auth", tmp_path / "auth.py", known)]
    assert found == [source.split()[1] if source.startswith("import") else "pbem.game.states"]


def test_no_function_is_over_80_lines() -> None:
    """A function one can read on a screen: from its `def` to its last line, 80 at most."""
    long = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > 80:
                    long.append(f"{name}.{node.name}: {lines} lines")
    assert long == []
