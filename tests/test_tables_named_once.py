"""Every table is named once, in `pbem.store.tables`: above `store`, a statement is written
on `tables.games`, never on a module's own alias of `Game.__table__` (so a grep for a
table's name finds every statement on it). This test reads every module of `pbem` outside
`store` (nested functions too) and names each place that reaches a model's `__table__`."""

from __future__ import annotations

import ast

import pytest

from tests.test_layers import Module, modules, parsed


def tables_reached(source: str) -> list[int]:
    """The lines of `source` that read a model's `__table__`."""
    return sorted(
        node.lineno
        for node in ast.walk(parsed(source))
        if isinstance(node, ast.Attribute) and node.attr == "__table__"
    )


def modules_above_the_store() -> list[Module]:
    """`pbem`'s modules outside `store` (the layering test's reading of the tree, made once)."""
    return [
        module
        for name, module in sorted(modules(("pbem",)).items())
        if not name.startswith(("pbem.store", "pbem.migrations"))
    ]


@pytest.mark.parametrize("module", modules_above_the_store(), ids=lambda m: m.path)
def test_no_module_above_the_store_names_a_table_itself(module: Module) -> None:
    lines = tables_reached(module.source)
    assert not lines, f"{module.path}: a table named at lines {lines}: use pbem.store.tables"


@pytest.mark.parametrize(
    "source",
    [
        "_games = Game.__table__\n",
        "def f():\n    seats = models.Seat.__table__\n    return seats\n",
        "statement = insert(Notification.__table__)\n",
    ],
)
def test_the_test_catches_a_table_named_outside_the_store(source: str) -> None:
    assert tables_reached(source)


def test_every_model_has_its_table_in_the_store_s_list() -> None:
    """`pbem.store.tables` names every table the models define, under the table's own name."""
    from pbem.extensions import db
    from pbem.store import tables

    named = {name: table for name, table in vars(tables).items() if hasattr(table, "c")}
    assert {t.name: t for t in named.values()} == dict(db.metadata.tables)
    assert all(name == table.name for name, table in named.items())
