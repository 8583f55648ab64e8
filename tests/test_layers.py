"""The house keeps its floors: every top-level directory of Python is a package of the table
or one the wheel does not ship; every module of those packages is in exactly one row of
README's layering table; every import of it (inside functions too, and `importlib`'s or
`__import__`'s with a constant name) goes down the table (or stays within one row); no
import is worked out at run time (`importlib`, `__import__`, `pkgutil`, `runpy`, `exec`,
`eval`, `sys.modules`), but where `DYNAMIC` says why; and no modules import one another in
a circle. The table in README.md is the rule; this test reads it. The checks are functions
of given modules and rows, so the tests at the end can show them the holes they close."""

from __future__ import annotations

import ast
import fnmatch
import functools
import importlib.util
import re
import subprocess
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "pbem")
#: Top-level directories of Python the wheel does not ship, and why they are outside the
#: house: what runs beside the code, never imported by it.
OUTSIDE = {
    "tests": "the tests",
    "bench": "benchmarks that print figures",
    "deploy": "deployment's scripts (pbem-deliver.py imports the standard library alone)",
}
#: Dynamic imports allowed, by module and what it reaches for, with why: none imports a
#: module of ours by a name worked out at run time.
DYNAMIC = {
    ("pbem.web.records", "sys.modules"): "reads the source files of modules already imported",
    ("pbem.store.green", "sys.modules"): "asks whether gevent has patched the process",
}


@dataclass(frozen=True)
class Row:
    floor: str
    members: tuple[str, ...]  # the packages and modules of the row
    alias: str | None  # a name the table gives the row as a whole (`pbem.ground`)
    may_import: tuple[str, ...]


@dataclass(frozen=True)
class Module:
    name: str  # dotted: `pbem.web.board`; a package by its own name, not `.__init__`
    path: str  # as messages name it, from the repository's root
    source: str
    is_package: bool


def table(text: str | None = None) -> list[Row]:
    """README's layering table (or the one in `text`): one row per package or group."""
    if text is None:
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
                cells[0],
                members,
                alias.group(1) if alias else None,
                tuple(re.findall(r"`([a-z_.]+)`", cells[3])),
            )
        )
    return rows


def python_directories(root: Path = ROOT) -> set[str]:
    """The top-level directories holding Python: those git keeps (a checkout's build/ and
    .venv/ are not the house), else every one below `root`."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "*.py"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = [p.relative_to(root).as_posix() for p in root.rglob("*.py")]
    return {name.split("/")[0] for name in listed if "/" in name}


def shipped_patterns() -> list[str]:
    """What the wheel takes: pyproject's `[tool.setuptools.packages.find] include`."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r"\[tool\.setuptools\.packages\.find\]\s*include\s*=\s*\[([^]]*)\]", text)
    assert found, "pyproject.toml names no packages for the wheel"
    return re.findall(r'"([^"]+)"', found.group(1))


def outside_the_house(directories: Iterable[str], patterns: Iterable[str]) -> list[str]:
    """What is wrong with the top-level directories of Python: one the wheel would ship
    that is no package of the table, or one that is neither."""
    wrong = []
    for name in sorted(directories):
        ships = any(fnmatch.fnmatch(name, p) for p in patterns)
        if ships and name not in PACKAGES:
            wrong.append(f"{name}/ ships in the wheel but is no package of the table")
        elif not ships and name not in OUTSIDE:
            wrong.append(f"{name}/ holds Python outside the house: put it in a package")
    return wrong


@functools.cache
def parsed(source: str) -> ast.Module:
    """A module's tree, parsed once for every check that reads it."""
    return ast.parse(source)


def modules(packages: Iterable[str] = PACKAGES) -> dict[str, Module]:
    """Every module of the real tree (read once; a copy each call, for a test to add to)."""
    return dict(_modules(tuple(packages)))


@functools.cache
def _modules(packages: tuple[str, ...]) -> dict[str, Module]:
    found = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            found[name] = Module(
                name,
                path.relative_to(ROOT).as_posix(),
                path.read_text(encoding="utf-8"),
                path.name == "__init__.py",
            )
    return found


def _covers(member: str, module: str, members: Collection[str]) -> bool:
    """A name is its module, or a package with all inside it unless the table names
    something inside it too: so `pbem` is its `__init__` alone, and a new `pbem/x.py` is
    in no row rather than quietly on the top floor."""
    if module == member:
        return True
    inside = member + "."
    return module.startswith(inside) and not any(m.startswith(inside) for m in members)


def rows_of(module: str, rows: list[Row]) -> list[Row]:
    members = {m for row in rows for m in row.members}
    return [row for row in rows if any(_covers(m, module, members) for m in row.members)]


def unplaced(names: Iterable[str], rows: list[Row]) -> list[str]:
    """What is wrong with where the modules `names` stand in the table: none or two rows."""
    wrong = []
    for name in names:
        found = rows_of(name, rows)
        if not found:
            wrong.append(
                f"{name} is in no row: add it to README's Layout table (by its name, "
                "or inside a package a row names)"
            )
        elif len(found) > 1:
            floors = ", ".join(f"floor {r.floor} {r.members[0]}" for r in found)
            wrong.append(f"{name} is in {len(found)} rows ({floors}): keep it in one")
    return wrong


def _constant(node: ast.expr | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _importlib_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """What `importlib` and its `import_module` are called in a module (`as` included)."""
    packages, functions = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:  # `import importlib.util` binds `importlib` too
                if a.name == "importlib" or (a.name.startswith("importlib.") and not a.asname):
                    packages.add(a.asname or "importlib")
        elif isinstance(node, ast.ImportFrom) and node.module == "importlib" and not node.level:
            functions |= {a.asname or a.name for a in node.names if a.name == "import_module"}
    return packages, functions


def _called(
    call: ast.Call, importlib_names: tuple[set[str], set[str]], package: str
) -> tuple[str, tuple[str, ...]] | None:
    """The module an `import_module(...)` or `__import__(...)` call imports, when its
    name is a constant (a name worked out at run time is beyond a reading of the source)."""
    packages, functions = importlib_names
    func = call.func
    by_importlib = (isinstance(func, ast.Name) and func.id in functions) or (
        isinstance(func, ast.Attribute)
        and func.attr == "import_module"
        and isinstance(func.value, ast.Name)
        and func.value.id in packages
    )
    by_builtin = isinstance(func, ast.Name) and func.id == "__import__"
    name = _constant(_argument(call, 0, "name"))
    if not (by_importlib or by_builtin) or not isinstance(name, str):
        return None
    if by_builtin:
        level = _constant(_argument(call, 4, "level"))
        name = "." * level + name if isinstance(level, int) else name
        anchor: object = package  # `__import__` reads it from the caller's globals
        elts = getattr(_argument(call, 3, "fromlist"), "elts", [])
        names = tuple(n for n in map(_constant, elts) if isinstance(n, str))
    else:
        given = _argument(call, 1, "package")
        here = isinstance(given, ast.Name) and given.id == "__package__"
        anchor, names = (package if here else _constant(given)), ()
    if name.startswith("."):
        if not isinstance(anchor, str) or not anchor:
            return None  # relative to a package worked out at run time
        name = importlib.util.resolve_name(name, anchor)
    return name, names


def imported(tree: ast.AST, package: str) -> Iterator[tuple[str, tuple[str, ...], int]]:
    """Every import in `tree`, anywhere in it: the module (relative ones made absolute
    from `package`), the names taken from it, and the line."""
    importlib_names = _importlib_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, (), node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            yield base, tuple(a.name for a in node.names), node.lineno
        elif isinstance(node, ast.Call) and (found := _called(node, importlib_names, package)):
            yield found[0], found[1], node.lineno


@functools.cache
def _imported_by(source: str, package: str) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    return tuple(imported(parsed(source), package))


def imports(module: Module, known: Collection[str]) -> Iterator[tuple[str, int]]:
    """Every module of ours (of `known`) that `module` imports, with the line."""
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    for base, names, line in _imported_by(module.source, package):
        # `from pbem.web import board` imports the module `board`; `import name` its own
        targets = [f"{base}.{n}" if f"{base}.{n}" in known else base for n in names] or [base]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != module.name:
                yield target, line


#: Modules whose every use is an import worked out at run time.
_IMPORTERS = ("importlib", "pkgutil", "runpy")
#: Functions that import given a string, by whatever module or name they are reached.
_IMPORTING = {
    "__import__",
    "import_module",
    "resolve_name",
    "run_module",
    "run_path",
    "find_spec",
    "module_from_spec",
    "spec_from_file_location",
    "exec_module",
    "load_module",
}
#: The builtins that run a string as code (bare names: `re.compile` is another thing).
_RUNNING = {"exec", "eval", "compile"}


def dynamic_imports(module: Module) -> list[tuple[str, int]]:
    """Each place `module` may import or run code by a name worked out at run time: an
    importing module imported, a name that imports or runs a string, `sys.modules`."""
    return list(_dynamic_in(module.source))


@functools.cache
def _dynamic_in(source: str) -> tuple[tuple[str, int], ...]:
    found = []
    for node in ast.walk(parsed(source)):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names if a.name.startswith(_IMPORTERS)]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(_IMPORTERS):
            found.append((node.module or "", node.lineno))
        elif isinstance(node, ast.Name) and node.id in _IMPORTING | _RUNNING:
            found.append((node.id, node.lineno))
        elif isinstance(node, ast.Attribute):
            if node.attr in _IMPORTING:
                found.append((node.attr, node.lineno))
            elif node.attr == "modules" and ast.unparse(node.value) == "sys":
                found.append(("sys.modules", node.lineno))
    return tuple(found)


def unexplained_dynamic(mods: Mapping[str, Module]) -> list[str]:
    return [
        f"{module.path}:{line} imports by a name worked out at run time ({what}): import it "
        "by name, or say why in tests/test_layers.py's DYNAMIC"
        for module in mods.values()
        for what, line in dynamic_imports(module)
        if (module.name, what) not in DYNAMIC
    ]


def _reachable(row: Row, rows: list[Row]) -> set[Row]:
    """Every row `row` may import, and theirs in turn."""
    by_name = {n: r for r in rows for n in (*r.members, *([r.alias] if r.alias else []))}
    allowed: set[Row] = set()
    todo = [by_name[n] for n in row.may_import if n in by_name]
    while todo:
        below = todo.pop()
        if below not in allowed:
            allowed.add(below)
            todo.extend(by_name[n] for n in below.may_import if n in by_name)
    return allowed


def wrong_way(mods: Mapping[str, Module], rows: list[Row]) -> list[str]:
    """Every import of `mods` the table does not allow. Within a row (one package, or the
    modules the table groups) anything goes; circles are caught by their own check. A
    module in no row (or two) may import nothing of ours: `unplaced` says why."""
    wrong = []
    for module in mods.values():
        found = rows_of(module.name, rows)
        row = found[0] if len(found) == 1 else None
        allowed = _reachable(row, rows) if row else set()
        for target, line in imports(module, mods):
            target_rows = rows_of(target, rows)
            if row and len(target_rows) == 1 and target_rows[0] in {row, *allowed}:
                continue
            wrong.append(f"{module.path}:{line} imports {target}")
    return wrong


def circles(mods: Mapping[str, Module]) -> list[list[str]]:
    """The modules that import one another round a circle (Tarjan's strongly connected
    components of the import graph, more than one module each)."""
    graph = {name: {t for t, _ in imports(module, mods)} for name, module in mods.items()}
    found = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(node: str) -> None:
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
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_every_top_level_directory_of_python_is_a_package_of_the_table_or_outside() -> None:
    assert outside_the_house(python_directories(), shipped_patterns()) == []
    assert set(PACKAGES) <= python_directories()


def test_no_import_is_worked_out_at_run_time() -> None:
    wrong = unexplained_dynamic(modules())
    assert wrong == [], "\n".join(wrong)
    used = {(m.name, what) for m in modules().values() for what, _ in dynamic_imports(m)}
    assert set(DYNAMIC) <= used, f"DYNAMIC names uses gone: {sorted(set(DYNAMIC) - used)}"


def test_the_table_names_every_module() -> None:
    rows = table()
    assert len(rows) >= 10, "README's Layout table was not found or lost rows"
    wrong = unplaced(modules(), rows)
    assert wrong == [], "\n".join(wrong)


def test_every_import_goes_down_the_table() -> None:
    wrong = wrong_way(modules(), table())
    assert wrong == [], "imports against README's layering table:\n" + "\n".join(wrong)


def test_no_module_imports_itself_round_a_circle() -> None:
    assert circles(modules()) == []


def test_the_engine_imports_only_the_standard_library() -> None:
    outside = []
    for name, module in modules().items():
        if not name.startswith("engine"):
            continue
        package = name if module.is_package else name.rpartition(".")[0]
        for base, _, line in imported(parsed(module.source), package):
            root = base.split(".")[0]
            if root != "engine" and root not in sys.stdlib_module_names:
                outside.append(f"{module.path}:{line}: {base}")
    assert outside == []


@pytest.mark.parametrize(
    "source",
    [
        "import pbem.web.board",
        "from ..web import board",
        "from ..web.board import render",
        "import importlib\n    importlib.import_module('pbem.web.board')",
        "import importlib.util\n    importlib.import_module('pbem.web.board')",
        "import importlib as il\n    il.import_module('.board', 'pbem.web')",
        "import importlib\n    importlib.import_module(name='..web.board', package=__package__)",
        "from importlib import import_module\n    import_module('pbem.web.board')",
        "from importlib import import_module as load\n    load('pbem.web.board')",
        "__import__('pbem.web.board')",
        "__import__('pbem.web', fromlist=['board'])",
        "__import__('web.board', globals(), None, [], 2)",
    ],
)
def test_the_walk_sees_every_kind_of_import_inside_functions_too(source: str) -> None:
    """The walk itself: an import inside a function, relative, or by a call, is an arrow."""
    module = Module("pbem.api.auth", "pbem/api/auth.py", f"def f():\n    {source}\n", False)
    known = {"pbem.api.auth", "pbem.web", "pbem.web.board"}
    assert [t for t, _ in imports(module, known)] == ["pbem.web.board"]


def test_a_name_worked_out_at_run_time_is_not_read() -> None:
    """Beyond the walk, and said so: only a constant name is an arrow it can draw."""
    source = "import importlib\n\ndef f(name):\n    return importlib.import_module(name)\n"
    module = Module("pbem.store.x", "pbem/store/x.py", source, False)
    assert list(imports(module, {"pbem.store.x", "pbem.web.board"})) == []


STRAY = Module(
    "pbem.stray",
    "pbem/stray.py",
    "import pbem.api\nimport pbem.mailin\nimport pbem.web\n",
    False,
)


def test_a_new_module_beside_the_top_floor_is_in_no_row() -> None:
    """The hole closed: the top row's `pbem` once caught every module as a prefix, so this
    module passed both checks on the top floor; now `pbem` is its `__init__` alone."""
    rows, mods = table(), {**modules(), STRAY.name: STRAY}
    top, web = rows[0], next(r for r in rows if r.members == ("pbem.web",))
    assert rows_of("pbem", rows) == [top] and rows_of("pbem.web.board", rows) == [web]
    assert unplaced(mods, rows) == [
        "pbem.stray is in no row: add it to README's Layout table (by its name, "
        "or inside a package a row names)"
    ]
    assert wrong_way(mods, rows) == [
        "pbem/stray.py:1 imports pbem.api",
        "pbem/stray.py:2 imports pbem.mailin",
        "pbem/stray.py:3 imports pbem.web",
    ]


def test_a_module_in_two_rows_is_told_to_keep_to_one() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    doubled = text.replace("| `pbem.play` | every change", "| `pbem.play`, `pbem.web` | every")
    assert unplaced(["pbem.web.board"], table(doubled)) == [
        "pbem.web.board is in 2 rows (floor 7 pbem.web, floor 6 pbem.play): keep it in one"
    ]


@pytest.mark.parametrize(
    "call",
    [
        "importlib.import_module('pbem.web.board')",
        "importlib.import_module('..web.board', __package__)",
        "__import__('pbem.web.board')",
    ],
)
def test_the_store_importing_the_web_by_a_call_is_the_wrong_way(call: str) -> None:
    """The hole closed: only `import` statements were read, so this passed."""
    source = f"import importlib\n\n\ndef board():\n    return {call}\n"
    module = Module("pbem.store.stray", "pbem/store/stray.py", source, False)
    mods = {**modules(), module.name: module}
    assert wrong_way(mods, table()) == ["pbem/store/stray.py:5 imports pbem.web.board"]


def test_no_function_is_over_80_lines() -> None:
    """A function one can read on a screen: from its `def` to its last line, 80 at most."""
    long = []
    for name, module in modules().items():
        for node in ast.walk(parsed(module.source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > 80:
                    long.append(f"{name}.{node.name}: {lines} lines")
    assert long == []


@pytest.mark.parametrize(
    "source",
    [
        "import importlib\nload = importlib.import_module\nload('pbem.web.board')",
        "import importlib\nimportlib.__import__('pbem.web.board')",
        "import pkgutil\npkgutil.resolve_name('pbem.web.board:render')",
        "import sys\nboard = sys.modules['pbem.web.board']",
        "exec('import pbem.web.board')",
        "eval(\"__builtins__['__import__']('pbem.web.board')\")",
        "import runpy\nrunpy.run_module('pbem.web.board')",
    ],
)
def test_an_import_worked_out_at_run_time_is_refused(source: str) -> None:
    """The holes closed: each of these once passed the walk, which reads only a constant
    name given to `import_module` or `__import__` as written."""
    body = "".join(f"    {line}\n" for line in source.splitlines())
    module = Module("pbem.store.stray", "pbem/store/stray.py", f"def f():\n{body}", False)
    assert unexplained_dynamic({module.name: module}), source


def test_a_sibling_package_the_wheel_would_ship_is_refused() -> None:
    """The hole closed: only engine/ and pbem/ were read, so pbemx/ beside them, which the
    wheel's `pbem*` takes, passed every check."""
    directories = {*python_directories(), "pbemx", "scripts"}
    assert outside_the_house(directories, shipped_patterns()) == [
        "pbemx/ ships in the wheel but is no package of the table",
        "scripts/ holds Python outside the house: put it in a package",
    ]
