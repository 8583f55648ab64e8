"""Tournaments through the API: made, entered (full, closed, invited only), started by their
organiser or when full; a whole Swiss tournament of 12 played through the API (its people
by their keys, the house bot by the sweep) with one entrant timing out, every round opening
on its own and the standings equal to points computed here from
the games' final scores; a round opened at its deadline with a game still going."""

from __future__ import annotations

import random
from datetime import timedelta
from email import message_from_string, policy

import sqlalchemy as sa

import engine
from pbem.clock import now, set_now
from pbem.extensions import db
from pbem.game.states import current_state
from pbem.schedule.sweep import sweep
from pbem.store import tables
from pbem.store.models import Game
from tests.server.conftest import assert_problem
from tests.server.test_ratings import people, play_out
from tests.web.helpers import queued_mails


def _make(api, key, **asked):
    body = {"title": "Winter open", "format": "swiss", "table_size": 4, "rounds": 3, **asked}
    made = api.client.post("/api/tournaments", json=body, headers=api.auth(key))
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"]


def _enter(api, tournament_id, key):
    return api.client.post(f"/api/tournaments/{tournament_id}/entries", headers=api.auth(key))


def _shown(api, tournament_id):
    found = api.get(f"/api/tournaments/{tournament_id}")
    assert found.status_code == 200, found.get_json()
    return found.get_json()


def test_made_entered_until_full_and_refused_with_a_reason(app, api):
    organiser, *players = people(api, 6)
    key = api.keys[organiser]
    bad = api.client.post(
        "/api/tournaments", json={"title": "X", "table_size": 6}, headers=api.auth(key)
    )
    assert bad.status_code == 422
    link = api.client.post(
        "/api/tournaments", json={"title": "See evil.example"}, headers=api.auth(key)
    )
    assert assert_problem(link, 422)["code"] == "title-with-link"
    tid = _make(api, key, entry={"most": 4, "invited": players[:4] + [organiser]})
    shown = _shown(api, tid)
    assert (shown["status"], shown["entrants"], shown["standings"]) == ("open", 0, [])
    assert "invited" not in shown["entry"]  # addresses are nobody's business
    outsider = assert_problem(_enter(api, tid, api.keys[players[4]]), 403)
    assert outsider["code"] == "tournament-invited-only"
    for n, email in enumerate(players[:3], start=1):
        assert _enter(api, tid, api.keys[email]).get_json() == {"entrants": n}
    again = assert_problem(_enter(api, tid, api.keys[players[0]]), 409)
    assert again["code"] == "entered-already"
    # The fourth fills it, and it starts: one table of four, each told of the draw.
    assert _enter(api, tid, api.keys[players[3]]).get_json() == {"entrants": 4}
    shown = _shown(api, tid)
    assert shown["status"] == "running" and shown["round"] == 1
    (table,) = shown["rounds"][0]["tables"]
    assert sorted(table["players"]) == sorted(s["player_id"] for s in shown["standings"])
    draws = [
        message_from_string(m, policy=policy.default)
        for _, m in queued_mails(app, "notice", game_id=table["game_id"])
    ]
    assert len(draws) == 4 and all("round 1 drawn" in str(m["Subject"]) for m in draws)
    said = draws[0].get_body(preferencelist=("plain",)).get_content()
    assert "you play at table 1" in said and "In seat order" not in said
    closed = assert_problem(_enter(api, tid, api.keys[organiser]), 409)
    assert closed["code"] == "tournament-closed"


def test_only_its_organiser_starts_it_and_not_with_fewer_than_three(app, api):
    organiser, a, b, c = people(api, 4)
    tid = _make(api, api.keys[organiser])
    _enter(api, tid, api.keys[a])
    _enter(api, tid, api.keys[b])
    start = f"/api/tournaments/{tid}/start"
    other = assert_problem(api.client.post(start, headers=api.auth(api.keys[a])), 403)
    assert other["code"] == "not-the-organiser-to-start"
    few = assert_problem(api.client.post(start, headers=api.auth(api.keys[organiser])), 409)
    assert few["code"] == "too-few-entrants"
    _enter(api, tid, api.keys[c])
    started = api.client.post(start, headers=api.auth(api.keys[organiser]))
    assert started.status_code == 200 and started.get_json()["status"] == "running"


def _game_ids(app, tournament_id, round_number):
    with app.app_context():
        found = db.session.execute(
            sa.text(
                "SELECT game_id FROM tournament_tables WHERE tournament_id = :t AND round = :r"
            ),
            {"t": tournament_id, "r": round_number},
        ).scalars()
        ids = sorted(found)
        db.session.remove()
    return ids


def _seat_of(app, game_id, player_id):
    with app.app_context():
        colour = db.session.execute(
            sa.text("SELECT colour FROM seats WHERE game_id = :g AND player_id = :p"),
            {"g": game_id, "p": player_id},
        ).scalar()
        db.session.remove()
    return colour


def _seats_bot(app, game_id) -> dict[str, tuple[bool, int]]:
    with app.app_context():
        rows = db.session.execute(
            sa.text("SELECT colour, bot, timeouts FROM seats WHERE game_id = :g"), {"g": game_id}
        ).all()
        db.session.remove()
    return {colour: (bool(bot), timeouts) for colour, bot, timeouts in rows}


def _play_until_pending(app, api, game_id, colour) -> None:
    """The others play (random legal moves, by their keys over the API) until `colour` must
    act."""
    rng, keys = random.Random(7), _keys_of_seats(app, api, game_id)
    while True:
        game = api.get(f"/api/games/{game_id}").get_json()
        pending = [p["player"] for p in game["pending"]]
        if colour in pending:
            return
        _random_move(api, game_id, keys[pending[0]], rng)


def _random_move(api, game_id: int, key: str, rng: random.Random) -> None:
    """One of the moves `legal-moves` offers the key's seat, played by the key."""
    legal = api.get(f"/api/games/{game_id}/legal-moves", key).get_json()
    moved = api.post_moves(game_id, key, [rng.choice(legal["moves"])], legal["seq"])
    assert moved.status_code == 201, moved.get_json()


def _keys_of_seats(app, api, game_id: int) -> dict[str, str]:
    """Each seat a person holds, and its holder's key."""
    with app.app_context():
        found = db.session.execute(
            sa.text(
                "SELECT s.colour, p.email FROM seats s JOIN players p ON p.id = s.player_id "
                "WHERE s.game_id = :g AND NOT s.bot"
            ),
            {"g": game_id},
        )
        keys = {colour: api.keys[email] for colour, email in found}
        db.session.remove()
    return keys


def _deadline_passes(app, game_id, colour) -> None:
    """The seat's deadline is past (its row's times as the sweep reads them)."""
    deadlines = tables.deadlines
    with app.app_context():
        past = now() - timedelta(minutes=1)
        db.session.execute(
            sa.update(deadlines)
            .where(deadlines.c.game_id == game_id, deadlines.c.colour == colour)
            .values(due_at=past, next_at=past)
        )
        db.session.commit()
        db.session.remove()


def _final_scores(app, game_id) -> list[int]:
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = current_state(game_id, game.seed, game.seq)
        colours = list(game.colours)
        db.session.remove()
    assert engine.is_over(state)
    scores = engine.scores(state)
    return [scores[c] for c in colours]


def _points_by_hand(scores: list[int]) -> list[float]:
    """A point for each player finished ahead of, half for a tie: computed apart."""
    return [
        sum(1.0 if mine > other else 0.5 if mine == other else 0.0 for other in scores) - 0.5
        for mine in scores
    ]


def _play_by_api(app, api, game_id: int, seed: int) -> None:
    """Play the game to its end as its people and the house would: each person's seat by
    their key over the API (a random legal move of those `legal-moves` offers), a seat the
    house bot holds by the scheduler's sweep."""
    rng, keys = random.Random(seed), _keys_of_seats(app, api, game_id)
    for _ in range(2000):
        game = api.get(f"/api/games/{game_id}").get_json()
        if game["status"] != "active":
            return
        mover = game["pending"][0]["player"]
        if mover not in keys:  # the house bot's seat: the sweep plays it
            with app.app_context():
                sweep()
                db.session.remove()
            continue
        _random_move(api, game_id, keys[mover], rng)
    raise AssertionError(f"game {game_id} did not end")


def test_a_swiss_of_twelve_plays_three_rounds_on_its_own_one_entrant_timing_out(app, api):
    organiser, *entrants = people(api, 13)
    key = api.keys[organiser]
    timing = {"bot_after_timeouts": 1, "takeover_bot": "greedy"}
    tid = _make(api, key, options={"rounds": 6}, timing=timing, entry={"most": 12})
    for email in entrants:
        assert _enter(api, tid, api.keys[email]).status_code == 200
    shown = _shown(api, tid)
    ids = {s["name"]: s["player_id"] for s in shown["standings"]}
    assert shown["status"] == "running" and len(shown["rounds"][0]["tables"]) == 3
    silent = ids[entrants[0].split("@")[0]]
    for round_number in (1, 2, 3):
        games = _game_ids(app, tid, round_number)
        assert len(games) == 3, (round_number, games)
        for n, game_id in enumerate(games):
            colour = _seat_of(app, game_id, silent)
            if colour is not None and round_number == 1:
                # The silent entrant never answers: their deadline passes, and the sweep
                # hands the seat to the house bot, which plays it from then on.
                _play_until_pending(app, api, game_id, colour)
                _deadline_passes(app, game_id, colour)
                with app.app_context():
                    sweep()
                    db.session.remove()
                assert _seats_bot(app, game_id)[colour] == (True, 1)
            # Everyone else plays by the API; the house bot plays the silent seat.
            _play_by_api(app, api, game_id, seed=round_number * 10 + n)
        # The round's last game ended: the next round is drawn without anyone asking.
        after = _shown(api, tid)
        assert after["round"] == min(round_number + 1, 3) or after["status"] == "finished"
    shown = _shown(api, tid)
    assert shown["status"] == "finished"
    standing = {s["player_id"]: s for s in shown["standings"]}
    assert standing[silent]["skipped"] == "timeout"
    assert standing[silent]["games"] == 1  # drawn in round 1 only
    assert all(silent not in t["players"] for r in shown["rounds"][1:] for t in r["tables"])
    # The standings, computed apart from the server's own numbers.
    by_hand: dict[int, float] = {}
    for round_shown in shown["rounds"]:
        for table in round_shown["tables"]:
            points = _points_by_hand(_final_scores(app, table["game_id"]))
            for player, got in zip(table["players"], points, strict=True):
                by_hand[player] = by_hand.get(player, 0.0) + got
    assert {p: s["points"] for p, s in standing.items()} == {
        p: by_hand.get(p, 0.0) for p in standing
    }
    order = [s["player_id"] for s in shown["standings"] if not s["skipped"]]
    assert [by_hand[p] for p in order] == sorted((by_hand[p] for p in order), reverse=True)
    assert shown["standings"][-1]["player_id"] == silent  # skipped: below everyone


def test_a_round_opens_at_its_deadline_whatever_is_still_played(app, api):
    organiser, *entrants = people(api, 7)
    tid = _make(api, api.keys[organiser], table_size=3, rounds=2, round_days=2)
    for email in entrants[:6]:
        _enter(api, tid, api.keys[email])
    api.client.post(f"/api/tournaments/{tid}/start", headers=api.auth(api.keys[organiser]))
    first, second = _game_ids(app, tid, 1)
    play_out(app, first, seed=3)
    assert _game_ids(app, tid, 2) == []  # one table is still playing
    lines = sweep_later(app, timedelta(days=2, minutes=1))
    assert f"tournament {tid}: round 2" in lines
    assert len(_game_ids(app, tid, 2)) == 2
    # The game still going counts when it ends.
    play_out(app, second, seed=4)
    shown = _shown(api, tid)
    assert all(s["games"] >= 1 for s in shown["standings"])
    assert sum(t["points"] is not None for t in shown["rounds"][0]["tables"]) == 2


def sweep_later(app, later: timedelta) -> list[str]:
    """The scheduler's sweep as it runs `later` from now; its lines."""
    set_now(app, now() + later)
    try:
        with app.app_context():
            lines = sweep()
            db.session.remove()
    finally:
        set_now(app, None)
    return lines


def _play_round(app, tid, round_number, seed):
    for n, game_id in enumerate(_game_ids(app, tid, round_number)):
        play_out(app, game_id, seed=seed + n)


def test_groups_keep_their_pools_and_heats_end_in_one_final(app, api):
    organiser, *entrants = people(api, 10)
    key = api.keys[organiser]
    groups = _make(api, key, format="groups", table_size=3, rounds=3, entry={"most": 6})
    for email in entrants[:6]:
        _enter(api, groups, api.keys[email])
    for round_number in (1, 2, 3):
        _play_round(app, groups, round_number, seed=round_number * 7)
    shown = _shown(api, groups)
    assert shown["status"] == "finished"
    pools = [sorted(t["players"]) for t in shown["rounds"][0]["tables"]]
    for later_round in shown["rounds"][1:]:
        assert sorted(sorted(t["players"]) for t in later_round["tables"]) == sorted(pools)
    # Each member held each seat once over the pool's three games.
    for pool in pools:
        for player in pool:
            seats = [
                t["players"].index(player)
                for r in shown["rounds"]
                for t in r["tables"]
                if player in t["players"]
            ]
            assert sorted(seats) == [0, 1, 2]
    heats = _make(api, key, format="heats", table_size=3, rounds=2, entry={"most": 9})
    for email in entrants[:9]:
        _enter(api, heats, api.keys[email])
    _play_round(app, heats, 1, seed=50)
    _play_round(app, heats, 2, seed=60)
    shown = _shown(api, heats)
    assert [len(r["tables"]) for r in shown["rounds"]] == [3, 1]
    (final,) = shown["rounds"][1]["tables"]
    top = [s["player_id"] for s in shown["standings"][:3]]
    assert sorted(top) == sorted(final["players"])  # the finalists rank first


def test_a_group_left_too_small_sits_the_round_out_and_the_page_says_so(app, api):
    organiser, *entrants = people(api, 7)
    tid = _make(api, api.keys[organiser], format="groups", table_size=3, rounds=2)
    for email in entrants[:6]:
        _enter(api, tid, api.keys[email])
    api.client.post(f"/api/tournaments/{tid}/start", headers=api.auth(api.keys[organiser]))
    first = _shown(api, tid)["rounds"][0]
    pool = first["tables"][0]["players"]
    assert first["byes"] == []
    names = {s["player_id"]: s["name"] for s in _shown(api, tid)["standings"]}
    leaver = next(e for e in entrants if _player_of(app, e) == pool[0])
    left = api.client.delete(
        f"/api/tournaments/{tid}/entries/me", headers=api.auth(api.keys[leaver])
    )
    assert left.status_code in (200, 204), left.get_json()
    _play_round(app, tid, 1, seed=11)
    second = _shown(api, tid)["rounds"][1]
    # The pool of the one who left has two players: no game, and both sit it out, said.
    assert sorted(second["byes"]) == sorted(pool[1:])
    assert [sorted(t["players"]) for t in second["tables"]] == [
        sorted(first["tables"][1]["players"])
    ]
    page = app.test_client().get(f"/tournaments/{tid}").get_data(as_text=True)
    said = " ".join(page.split())
    assert "Sitting this round out: " in said
    assert all(names[p] in said.split("Sitting this round out: ")[1][:200] for p in pool[1:])


def _player_of(app, email: str) -> int:
    with app.app_context():
        found = db.session.execute(sa.text("SELECT id FROM players WHERE email = :e"), {"e": email})
        player_id = found.scalar_one()
        db.session.remove()
    return player_id
