"""A tournament among people who keep apart, or one kept away, never stalls: a block made
before the entry that fills it, or during a round, seats the two at different tables
wherever a swap allows and never refuses the entry, the round's last move or the sweep
(nor tells a third entrant of it); a suspended entrant is skipped from the next round; and
a round whose opening fails for any reason is logged and tried again, the move that ended
the round before it standing."""

from __future__ import annotations

import logging
from datetime import timedelta

import sqlalchemy as sa

from pbem.extensions import db
from pbem.play import moderation
from tests.server.test_ratings import people, play_out
from tests.server.test_tournaments import _enter, _game_ids, _make, _shown, sweep_later


def _id(app, email: str) -> int:
    with app.app_context():
        found = db.session.execute(sa.text("SELECT id FROM players WHERE email = :e"), {"e": email})
        player_id = found.scalar_one()
        db.session.remove()
    return player_id


def _block(api, app, email: str, other: str) -> None:
    blocked = api.client.put(
        f"/api/players/me/blocks/{_id(app, other)}", headers=api.auth(api.keys[email])
    )
    assert blocked.status_code == 200, blocked.get_json()


def _tables(api, tid: int, number: int) -> list[set[int]]:
    (shown,) = [r for r in _shown(api, tid)["rounds"] if r["number"] == number]
    return [set(table["players"]) for table in shown["tables"]]


def _status(app, game_id: int) -> str:
    with app.app_context():
        found = db.session.execute(
            sa.text("SELECT status FROM games WHERE id = :g"), {"g": game_id}
        )
        status = found.scalar_one()
        db.session.remove()
    return status


def test_a_block_before_the_filling_entry_neither_refuses_it_nor_tells_the_third(app, api):
    organiser, ann, bob, cy = people(api, 4)
    tid = _make(api, api.keys[organiser], table_size=3, rounds=2, entry={"most": 3})
    _block(api, app, ann, bob)
    for email in (ann, bob):
        assert _enter(api, tid, api.keys[email]).status_code == 200
    filled = _enter(api, tid, api.keys[cy])
    assert filled.status_code == 200, filled.get_json()  # it was refused, naming the two
    assert "seat" not in str(filled.get_json())
    # Three entrants, one table: no swap parts the two, and the round opens with them at it.
    assert _shown(api, tid)["status"] == "running"
    assert _tables(api, tid, 1) == [{_id(app, e) for e in (ann, bob, cy)}]


def test_a_block_during_a_round_neither_refuses_its_last_move_nor_seats_the_two_together(app, api):
    organiser, *entrants = people(api, 7)
    tid = _make(api, api.keys[organiser], table_size=3, rounds=2, entry={"most": 6})
    for email in entrants[:6]:
        _enter(api, tid, api.keys[email])
    ann, bob = entrants[0], entrants[1]
    _block(api, app, ann, bob)
    for game_id in _game_ids(app, tid, 1):
        play_out(app, game_id, seed=game_id)  # the last move of each stands
        assert _status(app, game_id) == "finished"
    round_two = _tables(api, tid, 2)
    assert len(round_two) == 2
    assert not any({_id(app, ann), _id(app, bob)} <= table for table in round_two)


def test_a_round_due_with_a_block_under_way_opens_at_the_sweep(app, api):
    organiser, ann, bob, cy = people(api, 4)
    tid = _make(api, api.keys[organiser], table_size=3, rounds=2, entry={"most": 3}, round_days=2)
    for email in (ann, bob, cy):
        _enter(api, tid, api.keys[email])
    _block(api, app, ann, bob)
    lines = sweep_later(app, timedelta(days=2, minutes=1))  # it raised, stopping every
    # game's timeouts with it
    assert f"tournament {tid}: round 2" in lines
    assert len(_game_ids(app, tid, 2)) == 1


def test_a_suspended_entrant_is_skipped_from_the_next_round(app, api):
    organiser, *entrants = people(api, 7)
    tid = _make(api, api.keys[organiser], table_size=3, rounds=2, entry={"most": 6})
    for email in entrants[:6]:
        _enter(api, tid, api.keys[email])
    first, second = _game_ids(app, tid, 1)
    play_out(app, first, seed=3)
    # One who played the finished table (a seat still in play would go to the house bot,
    # and its holder be skipped for that).
    (played,) = [t for t in _shown(api, tid)["rounds"][0]["tables"] if t["game_id"] == first]
    suspended = played["players"][0]
    with app.app_context():
        moderation.act(suspended, "suspend", moderator="test", reason="rude", days=7)
        db.session.commit()
        db.session.remove()
    play_out(app, second, seed=4)  # its last move opened round 2
    shown = _shown(api, tid)
    (entry,) = [s for s in shown["standings"] if s["player_id"] == suspended]
    assert entry["skipped"] == "suspended"
    seated = set().union(*_tables(api, tid, 2))
    assert suspended not in seated and len(seated) == 5


def test_a_round_that_fails_to_open_is_logged_and_tried_again(app, api, monkeypatch, caplog):
    from pbem import draws

    organiser, ann, bob, cy = people(api, 4)
    tid = _make(api, api.keys[organiser], table_size=3, rounds=2, entry={"most": 3})
    for email in (ann, bob, cy):
        _enter(api, tid, api.keys[email])
    (game_id,) = _game_ids(app, tid, 1)
    real = draws.draw_round

    def broken(*args, **kwargs):
        raise RuntimeError("a bug met in a draw")

    monkeypatch.setattr(draws, "draw_round", broken)
    with caplog.at_level(logging.ERROR, logger="pbem"):
        play_out(app, game_id, seed=5)
    assert _status(app, game_id) == "finished"  # the round's last move stands
    assert any("round 2 did not open" in r.getMessage() for r in caplog.records)
    assert _game_ids(app, tid, 2) == []
    monkeypatch.setattr(draws, "draw_round", real)
    lines = sweep_later(app, timedelta(hours=1, minutes=1))
    assert f"tournament {tid}: round 2" in lines and len(_game_ids(app, tid, 2)) == 1
