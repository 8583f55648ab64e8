"""Learn to play (`/learn`): signed out it leads to signing in and back; its button makes,
with the form's token only, a game that teaches the signed-in player against two house bots,
begun at once and opened on its board; the home page links to it signed in or out."""

from __future__ import annotations

from pbem.extensions import db
from pbem.store.models import Game
from tests.web.helpers import page, sign_in_seat


def _games(app) -> list[Game]:
    with app.app_context():
        games = db.session.scalars(db.select(Game).order_by(Game.id)).all()
        out = [(g.id, g.options, g.status, [(s.colour, s.bot) for s in g.seats]) for g in games]
        db.session.remove()
    return out


def test_learn_to_play_makes_a_game_that_teaches_for_the_signed_in_player(app, api):
    visitor = app.test_client()
    assert page(visitor, "/").find("a", cls="learn-link").get("href") == "/learn"
    asked = visitor.get("/learn")
    assert asked.status_code == 303 and asked.headers["Location"].endswith("/sign-in?next=/learn")

    game_id, _keys = api.new_game(["red", "blue", "green"])
    client = app.test_client()
    sign_in_seat(app, client, game_id, "red")
    doc = page(client, "/learn")
    assert "six rounds against two house bots" in doc.find("main").text
    before = _games(app)
    assert client.post("/learn").status_code == 400  # no token: refused, nothing made
    assert _games(app) == before
    token = doc.find("form", action="/learn").find("input", name="csrf_token").get("value")
    made = client.post("/learn", data={"csrf_token": token})
    assert made.status_code == 303
    (new,) = [g for g in _games(app) if g not in before]
    new_id, options, status, seats = new
    assert made.headers["Location"].endswith(f"/games/{new_id}")
    assert options == {"rounds": 6, "learn": True, "hints": True} and status == "active"
    assert seats == [("red", False), ("blue", True), ("green", True)]
    board = page(client, f"/games/{new_id}")
    assert board.find("h1").text == "Learning El Grande"
