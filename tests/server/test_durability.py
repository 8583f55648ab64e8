"""A delivered mail's mark commits without waiting for the disk on PostgreSQL (one fsync a
mail made sending three times slower), for its own transaction only: the next one waits
again, as every move's does. SQLite has no such setting, and nothing is asked of it."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.store.durability import commit_unflushed


def test_only_the_transaction_asked_commits_unflushed(app):
    with app.app_context():
        connection = db.session.connection()
        if connection.dialect.name != "postgresql":
            pytest.skip("PostgreSQL's setting: SQLite has none")
        commit_unflushed(connection)
        assert db.session.execute(sa.text("SHOW synchronous_commit")).scalar() == "off"
        db.session.commit()
        assert db.session.execute(sa.text("SHOW synchronous_commit")).scalar() == "on"
        db.session.remove()
