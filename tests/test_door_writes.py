"""Every change of stored state goes through `pbem.play`: the doors (`api`, `web`, `mailin`,
`schedule`) call its functions, whose units of work end in `pbem.play.unit` (a request's with
the request), never by the door's hand; and they never touch the session, a connection or a
write statement themselves, never set an attribute of what may be a stored object (only of
their own objects: `DOORS_OWN`), and take from
`pbem.store` only what reads nothing (`FROM_THE_STORE`). This test reads the doors' source
(every function, nested ones too) and names each place that does; the tests at the end show
it the kinds of code it must catch."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOORS = ("api", "web", "mailin", "schedule")

#: Methods of a session or a connection that run SQL or end a transaction.
SESSION_CALLS = {
    "execute",
    "executemany",
    "scalar",
    "scalars",
    "commit",
    "rollback",
    "flush",
    "connection",
    "add_all",
    "refresh",
    "get_one",
    "begin",
    "begin_nested",
    "remove",
}
#: Methods whose name alone is too common to forbid; forbidden on a session or connection.
ON_A_SESSION = {"add", "delete", "merge", "get", "query"}
#: Names that build a write statement or reach the session.
FORBIDDEN_IMPORTS = {
    ("sqlalchemy", "insert"),
    ("sqlalchemy", "update"),
    ("sqlalchemy", "delete"),
    ("pbem.extensions", "db"),
}


#: What a door may take from `pbem.store`: the tables' classes (as types: querying them
#: needs a session, which no door has), constants and types, and what says the database is
#: away; never a function that writes.
FROM_THE_STORE = {
    ("pbem.store", "outage"),
    ("pbem.store.outage", "is_outage"),
    ("pbem.store.queries", "MAX_ID"),
    ("pbem.store.queries", "ReaderParams"),
    ("pbem.store.health", "HealthReport"),
    ("pbem.store.health", "report"),
    ("pbem.store.health", "database_answers"),
    ("pbem.store.models", "*"),
}
#: The names a door's own objects go by, whose attributes it may set: itself, Flask's `g`,
#: the app (at its making), a response, the signed cookie, a validation error, the mail it
#: reads (`SeatMail`, `reading.Inbound`). A row of the database is none of these.
DOORS_OWN = {"self", "g", "app", "response", "worker", "session", "refusal", "mail", "inbound"}


def _from_the_store(module: str, name: str) -> bool:
    return (module, name) in FROM_THE_STORE or (
        module == "pbem.store.models" and ("pbem.store.models", "*") in FROM_THE_STORE
    )


def _attribute_offences(node: ast.AST, where: str) -> Iterator[str]:
    """Attributes set on what is not the door's own (`DOORS_OWN`), or by `setattr`."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        targets = [node.target]
    for target in targets:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                owner = ast.unparse(sub.value).split(".")[0].split("[")[0]
                if owner not in DOORS_OWN:
                    yield f"{where}: sets {ast.unparse(sub)}, which may be a stored object's"
    called = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    if called and node.func.id in ("setattr", "delattr"):
        yield f"{where}: calls {node.func.id}(), which may change a stored object"


def _store_offences(node: ast.AST, where: str) -> Iterator[str]:
    """What a door takes from `pbem.store` beyond what reads nothing."""
    if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pbem.store"):
        for alias in node.names:
            if not _from_the_store(node.module or "", alias.name):
                yield f"{where}: takes {alias.name} from {node.module}: ask pbem.play"
    elif isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.startswith("pbem.store"):
                yield f"{where}: imports {alias.name}: ask pbem.play"
    elif (
        # `Game.query`: a table's class (a URL's parts have a `query` too).
        isinstance(node, ast.Attribute)
        and node.attr == "query"
        and isinstance(node.value, ast.Name)
        and node.value.id[:1].isupper()
    ):
        yield f"{where}: reads {ast.unparse(node)}, a table's own query"


def _receiver(node: ast.expr) -> str:
    """`db.session` for `db.session.execute`, `connection` for `connection.execute`."""
    return ast.unparse(node).lower()


def offences(source: str, path: str = "<test>") -> Iterator[str]:
    """Each place in `source` where a door would write (or read) around `pbem.play`."""
    tree = ast.parse(source)
    cookie = _flask_session(tree)
    for node in ast.walk(tree):
        where = f"{path}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if (node.module, alias.name) in FORBIDDEN_IMPORTS:
                    yield f"{where}: imports {alias.name} from {node.module}"
        elif isinstance(node, ast.Attribute) and node.attr == "session":
            if isinstance(node.value, ast.Name) and node.value.id == "db":
                yield f"{where}: uses db.session"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name, receiver = node.func.attr, _receiver(node.func.value)
            if _runs_sql(name, receiver, cookie):
                yield f"{where}: calls {receiver}.{name}()"
        yield from _attribute_offences(node, where)
        yield from _store_offences(node, where)


def _runs_sql(name: str, receiver: str, cookie: str | None) -> bool:
    if name in SESSION_CALLS:
        return not _harmless(name, receiver)
    on_a_session = "session" in receiver or "connection" in receiver
    return name in ON_A_SESSION and receiver != cookie and on_a_session


def _flask_session(tree: ast.Module) -> str | None:
    """The name Flask's signed cookie goes by here (`from flask import session`), which is
    no database session."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "flask":
            for alias in node.names:
                if alias.name == "session":
                    return (alias.asname or alias.name).lower()
    return None


def _harmless(name: str, receiver: str) -> bool:
    # No door ends a transaction by hand: a request's ends with it, a mail's with its
    # record (`pbem.play.unit`). Only a listener's thread hands its session back
    # (`unit.release()`); a regex's or a string's methods share no names with these.
    return receiver == "unit" and name == "release"


def door_files() -> list[Path]:
    return sorted(p for door in DOORS for p in (ROOT / "pbem" / door).rglob("*.py"))


@pytest.mark.parametrize("path", door_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_doors_write_only_through_play(path: Path) -> None:
    found = list(offences(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()))
    assert not found, "a door writes or reads around pbem.play:\n" + "\n".join(found)


# The test of the test: each kind of code it exists to catch.
@pytest.mark.parametrize(
    "source",
    [
        "from pbem.extensions import db\n",
        "def f():\n    db.session.add(x)\n",
        "def f():\n    def g():\n        connection.execute(stmt)\n",
        "from sqlalchemy import update\n",
        "def f(session):\n    session.delete(row)\n",
        "def f():\n    get_connection().execute(q)\n",
        "def f(s):\n    s.commit()\n",
        # A transaction ended by hand, even through `pbem.play.unit`.
        "from pbem.play import unit\ndef f():\n    unit.commit()\n",
        "from pbem.play import unit\ndef f():\n    unit.rollback()\n",
        # An attribute set on a stored object, and committed: what the ORM would write.
        "def f(game_id):\n    game = games.get_game(game_id)\n    game.title = 'x'\n"
        "    unit.commit()\n",
        "def f(seat):\n    seat.bot += 1\n",
        "def f(player):\n    setattr(player, 'name', 'x')\n",
        # A write of the store's own, called from a door.
        "from pbem.store import limits\ndef f(c):\n    limits.take(c, 'k', 1, w, m)\n",
        "from pbem.store.queries import append_batch\n",
        "import pbem.store.queries\n",
        "def f():\n    Game.query.filter_by(id=1).delete()\n",
    ],
)
def test_the_test_catches_a_write_around_play(source: str) -> None:
    assert list(offences(source))


def test_the_test_lets_the_doors_own_words_through() -> None:
    source = (
        "from flask import session\n"
        "from pbem.play import unit\n"
        "def f(form, seats):\n"
        "    with unit.undone_on_error():\n        seats.get('red')\n    form.add('x')\n"
        "    session.get('csrf')\n    unit.release()\n"
    )
    assert not list(offences(source))
