"""The two-colour variant over HTTP: two people, each holding two colours through one key.

Red and yellow are the first person's, green and blue the second's (`Api.new_two_colour_game`).
"""

from __future__ import annotations

import random
import uuid

import pytest

import engine
from tests.server.conftest import assert_problem, table_snapshot
from tests.server.helpers import MAX_MOVES, play_random_game, replay_record

COLOURS = ["red", "yellow", "green", "blue"]
FIRST, SECOND = COLOURS[:2], COLOURS[2:]


def pending_colours(api, game_id) -> set[str]:
    return {p["player"] for p in api.get(f"/api/games/{game_id}").get_json()["pending"]}


def test_a_whole_two_colour_game_ends_as_the_engine_says(api):
    game_id, keys = api.new_two_colour_game(COLOURS)
    acted_as = []

    def after_move(colour, move, body):
        # The answer to a move shows the board as the colour that moved.
        assert body["view"]["viewer"] == colour
        acted_as.append(colour)

    played = play_random_game(api, game_id, keys, random.Random(31), after_move)
    assert set(acted_as) == set(COLOURS)

    record = api.get(f"/api/games/{game_id}/record").get_json()
    assert [m["player"] for m in record["moves"]] == acted_as
    replayed = replay_record(record)
    assert engine.is_over(replayed)
    public = engine.view(replayed, None)
    for key in (keys["red"], keys["green"], None):
        final = api.get(f"/api/games/{game_id}", key).get_json()
        assert final["status"] == "finished" and final["seq"] == played
        assert final["teams"] == public["teams"]
        assert final["winners"] == engine.winners(replayed)
        assert {c: final["players"][c]["score"] for c in COLOURS} == engine.scores(replayed)
    assert [t["colours"] for t in public["teams"]] == [FIRST, SECOND]
    assert record["scores"] == engine.scores(replayed)


@pytest.mark.parametrize(
    ("holders", "options", "words"),
    [
        # One email twice outside the variant: refused as before.
        ("ABCA", {}, "an email is given twice"),
        ("AAB", {}, "an email is given twice"),
        # Two-colour: the pairs are seats 1+2 and 3+4, each one person, not the same one.
        ("ABAB", {"variant": "two_colour"}, "pairs them differently"),
        ("AABC", {"variant": "two_colour"}, "pairs them differently"),
        ("ABBA", {"variant": "two_colour"}, "pairs them differently"),
        ("AAAA", {"variant": "two_colour"}, "pairs them differently"),
        ("AAB", {"variant": "two_colour"}, "exactly 4 seats"),
    ],
)
def test_a_player_may_hold_two_seats_only_as_a_two_colour_pair(app, api, holders, options, words):
    tag = uuid.uuid4().hex[:8]
    emails = {h: f"{h.lower()}-{tag}@example.org" for h in set(holders)}
    keys = {h: api.register(email) for h, email in emails.items()}
    body = {
        "title": "Refused",
        "seats": [
            {"email": emails[h], "colour": c}
            for h, c in zip(holders, COLOURS + ["brown"], strict=False)
        ],
        "options": options,
    }
    before = table_snapshot(app)
    response = api.client.post("/api/games", json=body, headers=api.auth(keys["A"]))
    problem = assert_problem(response, 422)
    assert words in problem["detail"], problem
    assert table_snapshot(app) == before


def test_the_summary_lists_both_colours_and_says_whose_turn_it_is(api):
    game_id, keys = api.new_two_colour_game(COLOURS)
    to_move = pending_colours(api, game_id)
    for own in (FIRST, SECOND):
        (summary,) = api.get("/api/games", keys[own[0]]).get_json()["games"]
        assert summary["colours"] == own
        assert summary["colour"] is None
        assert summary["admin"] == (own == FIRST)
        assert summary["your_turn"] == bool(to_move & set(own))
        assert [s["colour"] for s in summary["seats"]] == COLOURS


def test_without_a_colour_a_person_sees_and_plays_their_pending_colour(app, api):
    game_id, keys = api.new_two_colour_game(COLOURS)
    (mover,) = pending_colours(api, game_id)  # power cards go one at a time
    own = FIRST if mover in FIRST else SECOND
    other = SECOND if own is FIRST else FIRST
    key, other_key = keys[mover], keys[other[0]]

    assert api.get(f"/api/games/{game_id}", key).get_json()["viewer"] == mover
    legal = api.get(f"/api/games/{game_id}/legal-moves", key).get_json()
    assert legal["colour"] == mover and legal["moves"]
    # Neither of the other person's colours is pending: they see as their first colour, and
    # a move without a colour is refused, asking which.
    assert api.get(f"/api/games/{game_id}", other_key).get_json()["viewer"] == other[0]
    before = table_snapshot(app)
    problem = assert_problem(api.post_moves(game_id, other_key, [legal["moves"][0]], 0), 422)
    assert "neither" in problem["detail"] and '"colour"' in problem["detail"]
    assert table_snapshot(app) == before
    # Asking for a colour shows that colour's own hand, and only its own.
    for colour in own:
        view = api.get(f"/api/games/{game_id}?colour={colour}", key).get_json()
        assert view["viewer"] == colour
        assert [c for c, p in view["players"].items() if "hand" in p] == [colour]

    response = api.post_moves(game_id, key, [legal["moves"][0]], 0)
    assert response.status_code == 201, response.get_json()
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert [e["player"] for e in log] == [mover]


def test_no_one_may_see_or_act_as_a_colour_that_is_not_theirs(app, api):
    game_id, keys = api.new_two_colour_game(COLOURS)
    stranger = api.register(f"stranger-{uuid.uuid4().hex[:8]}@example.org")
    first, second = keys["red"], keys["green"]
    before = table_snapshot(app)
    for key, colour in [
        (first, "green"),
        (first, "blue"),
        (second, "red"),
        (second, "yellow"),
        (stranger, "red"),
        (None, "red"),
    ]:
        paths = [
            f"/api/games/{game_id}?colour={colour}",
            f"/api/games/{game_id}/states/0?colour={colour}",
        ]
        if key:
            paths.append(f"/api/games/{game_id}/legal-moves?colour={colour}")
        for path in paths:
            assert_problem(api.get(path, key), 403)
        if key:
            # A move for the opponent's colour, legal for that colour or not, is refused.
            legal_for_them = engine.legal_moves(engine.new_game(COLOURS, seed=0), colour)
            move = legal_for_them[0] if legal_for_them else {"type": "end_turn"}
            problem = assert_problem(api.post_moves(game_id, key, [move], 0, colour=colour), 403)
            if key in (first, second):
                assert colour in problem["detail"]
    assert table_snapshot(app) == before


def test_a_person_with_both_colours_pending_must_say_which(app, api):
    """Play until one person has both colours to act at once (a secret pick), then a move
    without `colour` is refused and one with it is played as that colour."""
    game_id, keys = api.new_two_colour_game(COLOURS, options={"rounds": 6})
    rng = random.Random(7)
    for _ in range(MAX_MOVES):
        view = api.get(f"/api/games/{game_id}").get_json()
        assert view["status"] == "active", "no state with both colours of a person pending"
        to_move = {p["player"] for p in view["pending"]}
        both = next((own for own in (FIRST, SECOND) if set(own) <= to_move), None)
        if both:
            break
        colour = rng.choice(sorted(to_move))
        legal = api.get(
            f"/api/games/{game_id}/legal-moves?colour={colour}", keys[colour]
        ).get_json()
        # Lean towards the Castillo, so that a secret pick comes soon.
        to_castillo = [m for m in legal["moves"] if m.get("to") == "castillo"]
        move = rng.choice(to_castillo or legal["moves"])
        response = api.post_moves(game_id, keys[colour], [move], view["seq"], colour=colour)
        assert response.status_code == 201, response.get_json()
    key, seq = keys[both[0]], view["seq"]
    # Without `?colour=`, the first of the two in seat order.
    assert api.get(f"/api/games/{game_id}", key).get_json()["viewer"] == both[0]
    assert api.get(f"/api/games/{game_id}/legal-moves", key).get_json()["colour"] == both[0]
    second = api.get(f"/api/games/{game_id}/legal-moves?colour={both[1]}", key).get_json()
    assert second["colour"] == both[1]
    before = table_snapshot(app)
    problem = assert_problem(api.post_moves(game_id, key, second["moves"][:1], seq), 422)
    assert "both" in problem["detail"]
    assert table_snapshot(app) == before
    response = api.post_moves(game_id, key, second["moves"][:1], seq, colour=both[1])
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["view"]["viewer"] == both[1]
    log = api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]
    assert log[-1]["player"] == both[1] and log[-1]["move"] == second["moves"][0]


def test_giving_a_seat_of_a_pair_hands_over_the_person_s_both_colours(api):
    game_id, keys = api.new_two_colour_game(COLOURS)
    newcomer_email = f"newcomer-{uuid.uuid4().hex[:8]}@example.org"
    newcomer = api.register(newcomer_email)
    response = api.client.put(
        f"/api/games/{game_id}/seats/green",
        json={"email": newcomer_email},
        headers=api.auth(keys["red"]),
    )
    assert response.status_code == 200, response.get_json()
    (summary,) = api.get("/api/games", newcomer).get_json()["games"]
    assert summary["colours"] == SECOND
    assert api.get("/api/games", keys["green"]).get_json()["games"] == []
    # The first person cannot take the second pair too: one person holds one pair.
    response = api.client.put(
        f"/api/games/{game_id}/seats/blue",
        json={"email": api_email(api, keys["red"])},
        headers=api.auth(keys["red"]),
    )
    assert_problem(response, 409)


def api_email(api, key) -> str:
    return next(email for email, k in api.keys.items() if k == key)
