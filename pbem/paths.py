"""Where the package keeps what ships beside its code."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent

#: Alembic's scripts ship inside the package, so a plain `pip install` can upgrade a database.
MIGRATIONS_DIR = str(_HERE / "migrations")

#: The mail and web templates. `pbem/templates` is a link to the top-level `templates/`, where
#: they are edited; through the link a wheel ships them as package data.
TEMPLATES_DIR = _HERE / "templates"
