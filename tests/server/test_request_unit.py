"""A request is one unit of work (`pbem.play.unit.end_request`, from the app's dispatch):
what its play functions wrote stays when the answer says it was done, and nothing stays when
it was refused (a 4xx answered by the view, or an error raised) or failed. No door commits
or rolls back by hand (`tests/test_door_writes.py`), so this is where each is decided."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from pbem import create_app
from pbem.errors import Invalid
from pbem.extensions import db
from pbem.store import tables
from pbem.store.counters import raise_counter


@pytest.fixture
def unit_app(database_url):
    """An app of its own, with routes that write a counter and then answer as asked."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})

    def written_then(answer: str):
        raise_counter(db.session.connection(), "unit-test")
        if answer == "raise":
            raise Invalid("refused after writing", code="unit-test")
        if answer == "crash":
            raise RuntimeError("a bug after writing")
        return {"done": True}, int(answer)

    app.add_url_rule("/unit-test/<answer>", "unit_test", written_then, methods=["POST", "GET"])
    with app.app_context():
        db.session.execute(sa.delete(tables.counters))
        db.session.commit()
    yield app
    with app.app_context():
        db.session.execute(sa.delete(tables.counters))
        db.session.commit()
        db.engine.dispose()


def counted(app) -> int:
    with app.app_context():
        value = db.session.execute(
            sa.select(tables.counters.c.value).where(tables.counters.c.name == "unit-test")
        ).scalar()
        db.session.remove()
    return value or 0


@pytest.mark.parametrize(
    ("method", "answer", "stays"),
    [
        ("POST", "200", True),
        ("POST", "303", True),
        ("GET", "200", True),  # a GET that writes (a hint asked) is a unit of work too
        ("POST", "422", False),
        ("POST", "409", False),
        ("POST", "raise", False),
        ("POST", "crash", False),
    ],
)
def test_a_request_keeps_what_it_wrote_only_when_it_was_done(unit_app, method, answer, stays):
    client = unit_app.test_client()
    before = counted(unit_app)
    response = client.open(f"/unit-test/{answer}", method=method)
    expected = {"raise": 422, "crash": 500}[answer] if not answer.isdigit() else int(answer)
    assert response.status_code == expected
    assert counted(unit_app) == before + (1 if stays else 0)
