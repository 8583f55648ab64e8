"""A player's view of a game (a bot's main read) costs a few statements, none through the
ORM, and its ETag lets a client poll for nothing: 304 while nothing it shows has changed,
and a new tag after a move, an absence, a deadline or a failed mail."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from pbem.clock import set_now
from pbem.extensions import db
from tests.server.test_deadlines import T0, first_pending, new_game


def _get(api, game_id, key=None, tag=None):
    headers = api.auth(key)
    if tag:
        headers["If-None-Match"] = tag
    return api.client.get(f"/api/games/{game_id}", headers=headers)


def _statements(app, call) -> list[str]:
    """The SQL each statement `call()` runs (through SQLAlchemy or on a driver's cursor)."""
    seen: list[str] = []
    with app.app_context():
        engine = db.engine

    def record(_conn, _cursor, statement, *_args):
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    raw: list[str] = []
    try:
        from pbem.store import prepared

        original = prepared.Prepared._arguments

        def counted(self, connection, params):
            raw.append(str(self.statement))
            return original(self, connection, params)

        prepared.Prepared._arguments = counted
        try:
            call()
        finally:
            prepared.Prepared._arguments = original
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    return seen + raw


def test_a_players_view_is_read_in_one_statement(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])  # red made it
    _get(api, game_id, keys["blue"])  # the state is cached from here on, as in a worker
    run = _statements(app, lambda: _get(api, game_id, keys["blue"]))
    # The caller, game and seats, the deadlines, who is away, the seats' time banks (none in
    # a game without them) and the mail that could not be sent (shown to the game's maker
    # only), in one UNION. Six, through the ORM, one after another, two stops ago; five
    # sent together, before.
    assert len(run) == 1, run
    assert run[0].count("UNION ALL") == 4 and "outbox" in run[0]
    # Without a key: the game and its seats, the deadlines, who is away, the banks.
    public = _statements(app, lambda: _get(api, game_id))
    assert len(public) == 1 and public[0].count("UNION ALL") == 3
    assert "outbox" not in public[0]


def test_an_unchanged_view_is_304_without_a_body_and_changes_with_a_move(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    first = _get(api, game_id, keys["red"])
    tag = first.headers["ETag"]
    assert tag and first.status_code == 200
    again = _get(api, game_id, keys["red"], tag)
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    # Another player's tag is another view's: it is no good for this one.
    other = _get(api, game_id, keys["blue"]).headers["ETag"]
    assert other != tag and _get(api, game_id, keys["red"], other).status_code == 200
    assert _get(api, game_id, None, tag).status_code == 200  # the public view is another
    colour = api.get(f"/api/games/{game_id}").json["pending"][0]["player"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).json
    api.post_moves(game_id, keys[colour], [legal["moves"][0]], legal["seq"])
    after = _get(api, game_id, keys["red"], tag)
    assert after.status_code == 200 and after.json["seq"] == 1
    assert after.headers["ETag"] != tag


def test_the_tag_changes_with_an_absence_and_its_deadline(mail_app, mail_api):
    game_id, keys = new_game(mail_api, mail_app, timing={"vacation_days": 3})
    colour = first_pending(mail_api, game_id)
    other = next(c for c in keys if c != colour)
    tag = _get(mail_api, game_id, keys[other]).headers["ETag"]
    mail_api.client.post(
        "/api/players/me/absences",
        json={
            "from": (T0 + timedelta(hours=24)).isoformat(),
            "until": (T0 + timedelta(hours=72)).isoformat(),
        },
        headers=mail_api.auth(keys[colour]),
    )
    pushed = _get(mail_api, game_id, keys[other], tag)
    assert pushed.status_code == 200  # the deadline moved: same seq, another view
    assert pushed.json["deadlines"][0]["due"] == (T0 + timedelta(hours=96)).isoformat()
    tag = pushed.headers["ETag"]
    assert _get(mail_api, game_id, keys[other], tag).status_code == 304
    set_now(mail_app, T0 + timedelta(hours=30))  # now they are away
    away = _get(mail_api, game_id, keys[other], tag)
    assert away.status_code == 200 and away.json["away"] == {
        colour: (T0 + timedelta(hours=72)).isoformat()
    }


def test_the_makers_tag_changes_when_a_mail_fails(mail_app, mail_api):
    game_id, keys = new_game(mail_api, mail_app)
    tag = _get(mail_api, game_id, keys["red"]).headers["ETag"]
    with mail_app.app_context():
        db.session.execute(
            sa.text("UPDATE outbox SET status = 'failed', last_error = 'refused' WHERE id = "
                    "(SELECT min(id) FROM outbox)")
        )  # fmt: skip
        db.session.commit()
    failed = _get(mail_api, game_id, keys["red"], tag)
    assert failed.status_code == 200 and failed.json["undelivered"][0]["error"] == "refused"


def test_a_view_asked_again_is_its_kept_body_and_each_reader_keeps_their_own(app, api, monkeypatch):
    from pbem.game import views

    game_id, keys = api.new_game(["red", "blue", "green"])  # red made it
    readers = {**keys, "public": None}
    first = {name: _get(api, game_id, key) for name, key in readers.items()}
    made: list[str | None] = []
    drawn = views.game_view

    def counted(state, viewer, **rest):
        made.append(viewer)
        return drawn(state, viewer, **rest)

    monkeypatch.setattr(views, "game_view", counted)
    again = {name: _get(api, game_id, key) for name, key in readers.items()}
    assert made == []  # nothing shown has changed: every body was kept, none made again
    for name, answer in again.items():
        assert answer.status_code == 200
        assert answer.data == first[name].data
        assert answer.headers["ETag"] == first[name].headers["ETag"]
        assert answer.json["viewer"] == (None if name == "public" else name)
    # Each seat's body is its own, kept apart: its hand shows to it alone.
    hands = {name: again[name].json["players"][name]["hand"] for name in keys}
    assert all(hands.values())
    for name in keys:
        for other in readers:
            if other != name:
                assert again[other].json["players"][name].get("hand") != hands[name]
    # A move makes new views: each is made once, then kept again.
    colour = again["red"].json["pending"][0]["player"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).json
    api.post_moves(game_id, keys[colour], [legal["moves"][0]], legal["seq"])
    after = [_get(api, game_id, keys["blue"]) for _ in range(2)]
    assert made == ["blue"]
    assert [a.json["seq"] for a in after] == [1, 1] and after[0].data == after[1].data
