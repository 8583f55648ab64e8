"""Every refusal the engine can raise has a row in `pbem.words.refusals.ROWS`.

The engine's modules are read (not run) for their refusals: the calls of `IllegalMove`, of
its subclasses (`NotationError`) and of a name bound to one of them (`kind = NotationError
if ... else IllegalMove`). Each call's message is written out with sample values in its
f-string parts: a sentence a helper returns (`waiting_for`, a card's `end_refusal`,
the notation's `_not_understood`) is followed into that helper, a part taken from a table
(`_STEP_HINTS[...]`) takes each of its values, and the notation's clause for a line it
could not read (`miss.message`) takes each clause `_read_slots` appends. Every message, and
every sentence nested in it, must then be read by a row, so a refusal added to the engine
without one fails here rather than reaching a German mail in English.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import engine
from pbem.words import refusals

ENGINE = Path(engine.__file__).parent
#: A refusal the table reads, for a part that is another refusal.
KNOWN = "It is not your turn: waiting for red to take their turn."

#: Sample values of the f-string parts that are not followed into the engine's source, by
#: the part's source text (or (module, text) where a module means something else by it).
SAMPLES: dict[str | tuple[str, str], list[str]] = {
    "error.message": [KNOWN],
    "' and '.join(MOBILE_SCOREBOARDS)": ["8/4/0 and 4/0/0"],
    "', '.join(allowed)": ["galicia, aragon, castillo"],
    "', '.join(board.colours)": ["red, blue, green"],
    "', '.join(sorted(NEIGHBOURS[king]))": ["aragon, catalonia"],
    "', '.join(sorted(NEIGHBOURS[board.king]))": ["aragon, catalonia"],
    "', '.join(cards)": ["eviction (stack 4), king_rages (stack 2)"],
    "' and '.join((w['player'] for w in waiting))": ["red", "red and blue"],
    "doing": ["place caballeros"],
    "verbs(action.planning_moves)": ['"king", "special"', "none"],
    "', '.join(sorted([*form.required, *form.optional])) or 'none'": ["count, region", "none"],
    "', '.join(sorted(FORMS))": ["end_turn, place"],
    "' and '.join(dict.fromkeys(uncovered))": [
        "the next round's action cards and the other players' secret picks"
    ],
    "_quote(moves[index])": ['{"to": "aragon", "type": "place"}'],
    "board.count(player, PROVINCE)": ["2"],
    "board.king": ["old_castile"],
    "king": ["old_castile"],
    "home": ["seville"],
    "region": ["old_castile"],
    "ctx.data['region']": ["old_castile"],
    "ctx.data.get('region')": ["old_castile"],
    "place": ["castillo"],
    "source": ["court", "valencia"],
    "move['region']": ["aragon"],
    "card": ["eviction"],
    "action.card": ["intrigue_four_any"],
    "self.card": ["eviction"],
    "turn['card']": ["court_two"],
    "colour": ["red"],
    "current": ["blue"],
    ("cards/pieces.py", "other"): ["4/0/0"],
    "other": ["blue"],
    "ctx.actor": ["green"],
    "ctx.data['option']": ["court_two"],
    "move['option']": ["court_three"],
    "kind": ["place"],
    ("cards/pieces.py", "name"): ["8/4/0"],
    "name": ["to"],
    "limit": ["3"],
    "self.number": ["2"],
    "self.quotas['any']": ["4"],
    "turn['draw_limit']": ["4"],
    "turn['place_limit']": ["5"],
    "steps": ["3"],
    "move['card']": ["9"],
    "value": ["9"],
    "player": ["pink"],
    "showing[0]": ["2"],
    "showing[1]": ["3"],
    "stack": ["1"],
    "s": ["4"],
    "c": ["eviction"],
    "type(move).__name__": ["list"],
    "index + 1": ["2"],
    "len(moves)": ["3"],
    "number": ["1"],
    "ended": ["1"],
    # engine.notation: the player's line and words, and the lists of lines and names
    ("notation.py", "text"): ["place g"],
    "text.strip()": ["take 3; card king"],
    "part.strip()": ["powr 9"],
    "words[0]": ["powr"],
    "move['type']": ["fly"],
    "notation.verb": ["take", "take from"],
    "_example(type_)": ["take 3", "move red seville>castillo"],
    "_or(sorted(names))": ["galicia or granada", "catalonia, new_castile or old_castile"],
    "_or(close, quote=True)": ['"power"', '"castillo", "card" or "choose"'],
    "_or(lines, quote=True)": ['"take 3" or "take 2"', '"a", "b" or "c"'],
    "_or(shown, quote=True)": ['"skip", "special" or "stop"', '"a", "b" or ...'],
    "_or([shown[c] for c in close], quote=True)": ['"power 9"', '"power 9" or "power 8"'],
    "', '.join(verbs)": ["allow, card, castillo"],
    "', '.join((format_move(m) for m in legal))": ["take 5, move red seville>castillo"],
}
#: Parts that are each of the clauses appended to a list elsewhere in their module: the
#: notation's reason for a way of reading a line that failed, as `_read_slots` writes it.
CLAUSES: dict[tuple[str, str], str] = {("notation.py", "miss.message"): "misses"}


@dataclass(frozen=True)
class Module:
    name: str  # its path in engine/, as SAMPLES names it
    tree: ast.Module
    parents: dict[ast.AST, ast.AST]


class Unreadable(Exception):
    """A part of a message the test has no sample for and cannot follow."""


def _modules() -> list[Module]:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        found.append(Module(path.relative_to(ENGINE).as_posix(), tree, parents))
    return found


MODULES = _modules()
Function = ast.FunctionDef | ast.AsyncFunctionDef


def _enclosing(module: Module, node: ast.AST) -> Function | None:
    while node in module.parents:
        node = module.parents[node]
        if isinstance(node, Function):
            return node
    return None


def _own_nodes(function: Function) -> Iterator[ast.AST]:
    """The function's nodes, but not those of functions defined inside it."""
    todo = list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, Function | ast.Lambda | ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))


def _functions(name: str, method: bool) -> Iterator[tuple[Module, Function]]:
    """The module-level functions called `name`, or the methods if `method`."""
    for module in MODULES:
        for node in ast.walk(module.tree):
            if (
                isinstance(node, Function)
                and node.name == name
                and isinstance(module.parents[node], ast.ClassDef) == method
            ):
                yield module, node


class Writer:
    """Writes out the messages an expression of the engine can be, with sample parts."""

    def __init__(self) -> None:
        self.busy: set[ast.AST] = set()  # what is being written out, not to follow again

    def messages(self, node: ast.expr, module: Module, where: Function | None) -> list[str]:
        text = ast.unparse(node)
        sample = SAMPLES.get((module.name, text), SAMPLES.get(text))
        if sample is not None:
            return sample
        if (module.name, text) in CLAUSES:
            return self.appended(module, CLAUSES[module.name, text])
        if isinstance(node, ast.Constant):
            return [node.value] if isinstance(node.value, str) else []
        if isinstance(node, ast.JoinedStr):
            return self.joined(node, module, where)
        if isinstance(node, ast.IfExp | ast.BoolOp):
            branches = [node.body, node.orelse] if isinstance(node, ast.IfExp) else node.values
            return [m for b in branches for m in self.messages(b, module, where)]
        if isinstance(node, ast.Name):
            return self.assigned(node, module, where)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = (self.messages(n, module, where) for n in (node.left, node.right))
            return [a + b for a in left for b in right]
        if isinstance(node, ast.Subscript):
            return self.table(node.value, module, where, text)
        if isinstance(node, ast.Call):
            return self.called(node, module, where, text)
        raise Unreadable(f"{module.name}: no sample for {text}")

    def joined(self, node: ast.JoinedStr, module: Module, where: Function | None) -> list[str]:
        parts: list[list[str]] = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append([str(value.value)])
                continue
            assert isinstance(value, ast.FormattedValue)
            found = self.messages(value.value, module, where)
            parts.append([repr(f) if value.conversion == ord("r") else f for f in found])
        # Each part's every sample once, the others at their first: enough to see each shape.
        out = ["".join(p[0] for p in parts)]
        for i, part in enumerate(parts):
            for other in part[1:]:
                out.append("".join(other if j == i else p[0] for j, p in enumerate(parts)))
        return out

    def assigned(self, use: ast.Name, module: Module, where: Function | None) -> list[str]:
        """A local name: what the assignments that may reach `use` make it (the last one
        before it, and earlier ones while that one is under a condition `use` is not)."""
        scope = _own_nodes(where) if where is not None else iter(module.tree.body)
        before = sorted(
            (
                node
                for node in scope
                if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == use.id for t in node.targets)
                and node.lineno <= use.lineno
                and node not in self.busy
            ),
            key=lambda node: node.lineno,
        )
        around = set()
        node: ast.AST = use
        while node in module.parents:
            node = module.parents[node]
            around.add(node)
        reaching = []
        for assign in reversed(before):
            reaching.append(assign)
            if module.parents[assign] in around:
                break
        if not reaching:
            raise Unreadable(f"{module.name}: no sample for {use.id}")
        out = []
        for assign in reaching:
            self.busy.add(assign)
            try:
                out += self.messages(assign.value, module, where)
            finally:
                self.busy.discard(assign)
        return out

    def appended(self, module: Module, name: str) -> list[str]:
        """The last items of the tuples appended to the list `name` anywhere in `module`."""
        out = []
        for call in ast.walk(module.tree):
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == "append"
                and getattr(call.func.value, "id", None) == name
                and call.args
                and isinstance(call.args[0], ast.Tuple)
            ):
                clause = call.args[0].elts[-1]
                out += self.messages(clause, module, _enclosing(module, call))
        if not out:
            raise Unreadable(f"{module.name}: nothing is appended to {name}")
        return out

    def table(self, node: ast.expr, module: Module, where: Function | None, text: str) -> list[str]:
        """A look-up in a dict written out in the source: each of its values."""
        if isinstance(node, ast.Name):
            scopes = [module.tree.body] + ([list(_own_nodes(where))] if where else [])
            named = node.id
            for scope in scopes:
                for stmt in scope:
                    target = stmt.target if isinstance(stmt, ast.AnnAssign) else None
                    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                        target = stmt.targets[0]
                    if isinstance(target, ast.Name) and target.id == named:
                        node = stmt.value  # type: ignore[attr-defined]
        if isinstance(node, ast.Dict):
            return [m for v in node.values for m in self.messages(v, module, where)]
        raise Unreadable(f"{module.name}: no sample for {text}")

    def called(
        self, node: ast.Call, module: Module, where: Function | None, text: str
    ) -> list[str]:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "get":
            return self.table(func.value, module, where, text)
        if isinstance(func, ast.Attribute) and func.attr == "format":
            return self.templates(node, func.value, module, where, text)
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        functions = list(_functions(name, method=isinstance(func, ast.Attribute)))
        out = []
        for defined_in, function in functions:
            if function in self.busy:
                continue
            self.busy.add(function)
            try:
                for ret in _own_nodes(function):
                    if isinstance(ret, ast.Return) and ret.value is not None:
                        out += self.messages(ret.value, defined_in, function)
            finally:
                self.busy.discard(function)
        if not functions:
            raise Unreadable(f"{module.name}: no sample for {text}")
        return out

    def templates(
        self, node: ast.Call, template: ast.expr, module: Module, where: Function | None, text: str
    ) -> list[str]:
        """`empty.format(region=...)`, `empty` a parameter: the texts the callers pass."""
        if not isinstance(template, ast.Name) or where is None:
            raise Unreadable(f"{module.name}: no sample for {text}")
        params = [a.arg for a in where.args.args]
        index = params.index(template.id)
        fills = {k.arg: self.messages(k.value, module, where)[0] for k in node.keywords if k.arg}
        out = []
        for caller in MODULES:
            for call in ast.walk(caller.tree):
                if not isinstance(call, ast.Call) or getattr(call.func, "id", None) != where.name:
                    continue
                given = [k.value for k in call.keywords if k.arg == template.id]
                given += call.args[index : index + 1]
                for arg in given:
                    out += [t.format(**fills) for t in self.messages(arg, caller, None)]
        return out


def _refusal_classes() -> set[str]:
    """IllegalMove and its subclasses in the engine (`NotationError`), by name."""
    found = {"IllegalMove"}
    grown = True
    while grown:
        grown = False
        for module in MODULES:
            for node in ast.walk(module.tree):
                if (
                    isinstance(node, ast.ClassDef)
                    and node.name not in found
                    and any(_called_name(base) in found for base in node.bases)
                ):
                    found.add(node.name)
                    grown = True
    return found


def _called_name(node: ast.expr) -> str | None:
    """`IllegalMove` for `IllegalMove` and `engine.IllegalMove`."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


REFUSAL_CLASSES = _refusal_classes()


def _is_refusal_class(node: ast.expr, module: Module, where: Function | None) -> bool:
    """Whether `node`, a called name, is a refusal class or a name bound only to such (the
    branches of `kind = NotationError if ... else IllegalMove`)."""
    if _called_name(node) in REFUSAL_CLASSES:
        return True
    if not isinstance(node, ast.Name):
        return False
    scope = _own_nodes(where) if where is not None else iter(module.tree.body)
    bound = [
        assign.value
        for assign in scope
        if isinstance(assign, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == node.id for t in assign.targets)
    ]

    def a_class(value: ast.expr) -> bool:
        if isinstance(value, ast.IfExp):
            return a_class(value.body) and a_class(value.orelse)
        return _called_name(value) in REFUSAL_CLASSES

    return bool(bound) and all(a_class(value) for value in bound)


def _raised() -> list[tuple[str, int, list[str]]]:
    """Each refusal the engine makes (`IllegalMove(...)`, `NotationError(...)`, `kind(...)`):
    its module, line and the messages it can be."""
    out = []
    for module in MODULES:
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.Call):
                continue
            where = _enclosing(module, node)
            if _is_refusal_class(node.func, module, where):
                messages = Writer().messages(node.args[0], module, where)
                out.append((module.name, node.lineno, messages))
    return out


RAISED = _raised()
COMPILED = [re.compile(pattern, re.S) for pattern, _ in refusals.ROWS]


def _unread(message: str) -> list[str]:
    """The message, or the sentences nested in it, that no row reads."""
    for pattern in COMPILED:
        found = pattern.fullmatch(message)
        if found is None:
            continue
        nested = [v for k, v in found.groupdict().items() if k in refusals._NESTED]
        return [u for value in nested for u in _unread(value)]
    return [message]


def test_the_engine_is_read_whole():
    # Every site is found and written out; a new form of message fails in _raised above.
    assert len(RAISED) >= 100
    assert all(messages for _, _, messages in RAISED)


def test_the_notations_refusals_are_read():
    # NotationError's calls, and `kind(...)` in parse_moves, are refusals too: each of the
    # ways the notation refuses a line is among the sites read.
    assert "NotationError" in REFUSAL_CLASSES
    said = [m for module, _, messages in RAISED if module == "notation.py" for m in messages]
    for words in (
        "An empty line is not a move.",
        "holds several moves",
        ": write more of it.",
        "is not a move (did you mean",
        "is not a move (a move starts with",
        "is not a region or the castillo.",
        "is not a number.",
        "could be galicia or granada: write more of the name.",
        'a "take" line is written like "take 3".',
        " Did you mean ",
        " You may: ",
        "could not be played: it comes after a move",
        'Line 1 ("powr 9"): ',
    ):
        assert any(words in m for m in said), words


def test_every_refusal_raised_is_read():
    # A raise of anything but a built-in exception is of a class this file reads: a new
    # way of refusing (another subclass, a name holding one) cannot slip past the walk.
    for module in MODULES:
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
                continue
            name = _called_name(node.exc.func)
            if name is None or name in dir(builtins):
                continue
            where = _enclosing(module, node)
            assert _is_refusal_class(node.exc.func, module, where), (
                f"engine/{module.name}:{node.lineno}: raises {name}(...), which this test "
                "does not read"
            )


@pytest.mark.parametrize(
    ("module", "line", "messages"), RAISED, ids=[f"{m}:{line}" for m, line, _ in RAISED]
)
def test_every_refusal_has_a_row(module, line, messages):
    unread = [u for message in messages for u in _unread(message)]
    assert not unread, f"engine/{module}:{line}: no row of pbem.words.refusals reads {unread}"


def test_a_row_for_each_doing_of_turn_for():
    # `turn_for(..., doing)` and `_acting(..., doing)` put the caller's words in a refusal:
    # each is a part the table translates, or has rows of its own.
    said = set()
    for module in MODULES:
        for call in ast.walk(module.tree):
            name = getattr(getattr(call, "func", None), "id", None)
            if isinstance(call, ast.Call) and name in ("turn_for", "_acting"):
                doing = call.args[-1]
                if isinstance(doing, ast.Constant):
                    said.add(doing.value)
    assert len(said) >= 8
    for doing in said:
        for message in (
            f"You cannot {doing} now: waiting for red to take their turn.",
            f'You cannot {doing} at this point of your turn: choose an action card ("card").',
        ):
            row = next(p for p in COMPILED if p.fullmatch(message))
            assert doing in refusals._DOINGS or "doing" not in row.groupindex, message


def test_the_rows_are_sound():
    for pattern, text in refusals.ROWS:
        compiled = re.compile(pattern)
        named = set(compiled.groupindex)
        assert set(re.findall(r"%\((\w+)\)s", text)) == named, pattern
