"""House bots: a game against bots, made with `{"colour": ..., "bot": true}` seats."""

from __future__ import annotations

import sqlalchemy as sa

from pbem.extensions import db
from pbem.schedule.sweep import sweep
from pbem.store.models import Notification, Player
from tests.server.conftest import assert_problem, table_snapshot


def new_bot_game(api, colours=("red", "blue", "green"), options=None, level=None):
    """A game of one person (the first colour) against bots (of `level`, else the default:
    the strong one, whose search is timed, so its moves vary with the machine's load)."""
    key = api.register("human@example.org", "Human")
    seats = [{"email": "human@example.org", "colour": colours[0]}]
    bot = {"bot": True, "level": level} if level else {"bot": True}
    seats += [{"colour": c, **bot} for c in colours[1:]]
    response = api.client.post(
        "/api/games",
        json={"title": "Against bots", "seats": seats, "options": options or {}},
        headers=api.auth(key),
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json(), key


def pending(api, game_id):
    return [p["player"] for p in api.get(f"/api/games/{game_id}").get_json()["pending"]]


def test_bot_seats_play_by_themselves_and_get_no_mail(app, api):
    game, key = new_bot_game(api, options={"first_player": "red"})
    assert [(s["colour"], s["name"], s["bot"]) for s in game["seats"]] == [
        ("red", "Human", False),
        ("blue", "Bot 1", True),
        ("green", "Bot 2", True),
    ]
    assert pending(api, game["id"]) == ["red"]
    moves = api.get(f"/api/games/{game['id']}/legal-moves", key).get_json()["moves"]
    assert api.post_moves(game["id"], key, [moves[0]], 0).status_code == 201
    with app.app_context():
        # Blue's power card hands the next decision to green, and so on: one sweep plays
        # every bot decision until the human's turn comes.
        lines = sweep()
        recipients = set(db.session.execute(sa.select(Notification.recipient)).scalars())
    played_for = [line.rpartition(" for ")[2] for line in lines]
    assert played_for[:2] == ["blue", "green"] and set(played_for) == {"blue", "green"}
    assert all("the bot played" in line for line in lines)
    assert pending(api, game["id"]) == ["red"]
    assert recipients == {"human@example.org"}


def test_a_game_of_bots_alone_is_played_to_its_end_by_sweeps(app, api):
    key = api.register("admin@example.org", "Admin")
    seats = [{"email": "admin@example.org", "colour": "red"}]
    seats += [{"colour": c, "bot": True} for c in ("blue", "green")]
    body = {"title": "Bots", "seats": seats, "options": {"rounds": 6}}
    game = api.client.post("/api/games", json=body, headers=api.auth(key)).get_json()
    # The admin lets a bot play their seat too: then nobody waits for a person.
    assert (
        api.client.put(
            f"/api/games/{game['id']}/seats/red/bot", json={"bot": True}, headers=api.auth(key)
        ).status_code
        == 200
    )
    for _ in range(20):
        with app.app_context():
            sweep()
        view = api.get(f"/api/games/{game['id']}").get_json()
        if view["status"] == "finished":
            break
    assert view["status"] == "finished" and view["winners"] and view["seq"] > 100


def test_no_one_can_register_or_reset_a_key_as_a_house_bot(app, api):
    new_bot_game(api)
    before = table_snapshot(app)
    for email in ("bot-1@bots.invalid", "BOT-2@Bots.Invalid", "someone@else.invalid"):
        response = api.client.post("/api/players", json={"email": email, "name": "Mallory"})
        assert "cannot receive mail" in assert_problem(response, 422)["detail"]
    # No mail reaches .invalid: the address is refused, as any that is none would be.
    response = api.client.post("/api/players/key-reset", json={"email": "bot-1@bots.invalid"})
    assert "cannot receive mail" in assert_problem(response, 422)["errors"]["email"][0]
    assert table_snapshot(app) == before
    with app.app_context():
        bot = db.session.execute(sa.select(Player).where(Player.email == "bot-1@bots.invalid"))
        assert bot.scalar_one().api_key_hash is None


def test_a_seat_is_an_email_or_a_bot_and_no_invalid_address(app, api):
    key = api.register("human@example.org", "Human")
    before = table_snapshot(app)
    for seat, words in [
        ({"colour": "blue"}, "either an email or"),
        ({"colour": "blue", "email": "b@example.org", "bot": True}, "either an email or"),
        ({"colour": "blue", "bot": False}, "either an email or"),
        ({"colour": "blue", "email": "bot-1@bots.invalid"}, "cannot receive mail"),
    ]:
        body = {
            "title": "T",
            "seats": [{"email": "human@example.org", "colour": "red"}, seat],
        }
        response = api.client.post("/api/games", json=body, headers=api.auth(key))
        problem = response.get_json()
        assert response.status_code == 422, problem
        assert words in str(problem), problem
    assert table_snapshot(app) == before


def test_the_admin_gives_a_bots_seat_to_a_person_who_then_plays_it(app, api):
    game, key = new_bot_game(api, options={"first_player": "blue"})
    friend = api.register("friend@example.org", "Friend")
    response = api.client.put(
        f"/api/games/{game['id']}/seats/blue",
        json={"email": "friend@example.org"},
        headers=api.auth(key),
    )
    assert response.status_code == 200, response.get_json()
    blue = next(s for s in response.get_json()["seats"] if s["colour"] == "blue")
    assert (blue["name"], blue["bot"]) == ("Friend", False)
    with app.app_context():
        assert sweep() == []  # blue's power card now waits for the friend
    assert pending(api, game["id"]) == ["blue"]
    moves = api.get(f"/api/games/{game['id']}/legal-moves", friend).get_json()["moves"]
    assert api.post_moves(game["id"], friend, [moves[0]], 0).status_code == 201


def test_two_colour_game_against_a_bot_pair(app, api):
    key = api.register("human@example.org", "Human")
    seats = [{"email": "human@example.org", "colour": c} for c in ("red", "blue")]
    seats += [{"colour": c, "bot": True} for c in ("green", "yellow")]
    body = {"title": "Pair", "seats": seats, "options": {"variant": "two_colour"}}
    response = api.client.post("/api/games", json=body, headers=api.auth(key))
    assert response.status_code == 201, response.get_json()
    names = [(s["colour"], s["name"]) for s in response.get_json()["seats"]]
    assert names[2:] == [("green", "Bot 2"), ("yellow", "Bot 2")]
