"""Hints and reviews on the page: the Hint button beside the decision in a game that allows
hints (and nowhere else), asked with the form's token, shown as being worked out, then as
the moves found; its part answers 202 until then. A finished game's page shows its review,
each flagged decision linking to the position before it."""

from __future__ import annotations

import pytest

from pbem.extensions import db
from pbem.play import advice
from tests.server.test_ratings import play_out
from tests.web.helpers import page, sign_in_seat
from tests.web.html import Node


def _seated(app, api, options):
    game_id, keys = api.new_game(["red", "blue", "green"], options=options)
    shown = api.get(f"/api/games/{game_id}", keys["red"]).get_json()
    pending = [p["player"] for p in shown["pending"]]
    clients = {}
    for colour in ("red", "blue", "green"):
        clients[colour] = app.test_client()
        sign_in_seat(app, clients[colour], game_id, colour)
    return game_id, clients, pending[0], next(c for c in clients if c not in pending)


def _hidden(doc: Node, action_end: str) -> dict[str, str]:
    form = next(f for f in doc.find_all("form") if (f.get("action") or "").endswith(action_end))
    return {i.get("name"): i.get("value") for i in form.find_all("input", type="hidden")}


@pytest.fixture
def quick(app):
    app.config.update(PBEM_HINT_PLAYOUTS=2, PBEM_REVIEW_PLAYOUTS=2)
    return app


def test_no_hint_button_in_a_game_without_hints(quick, api):
    game_id, clients, first, _other = _seated(quick, api, {"rounds": 6})
    doc = page(clients[first], f"/games/{game_id}")
    assert doc.find("section", cls="hint-box") is None
    refused = clients[first].get(f"/games/{game_id}/hint")
    assert refused.status_code == 409 and "does not allow hints" in refused.get_data(as_text=True)


def test_the_hint_button_asks_and_the_page_shows_the_moves_found(quick, api):
    game_id, clients, first, other = _seated(quick, api, {"rounds": 6, "hints": True})
    path = f"/games/{game_id}"
    # Only beside a decision that waits on the reader's seat.
    assert page(clients[other], path).find("section", cls="hint-box") is None
    doc = page(clients[first], path)
    box = doc.find("section", cls="hint-box")
    assert "Ask the strong bot for a hint" in box.text
    bare = clients[first].post(f"{path}/hint")
    assert bare.status_code == 400  # no token: refused, nothing asked
    asked = clients[first].post(f"{path}/hint", data=_hidden(doc, f"{path}/hint"))
    assert asked.status_code == 303 and asked.headers["Location"].endswith(f"{path}#hint")
    box = page(clients[first], path).find("section", cls="hint-box")
    assert box.get("data-hint") == f"{path}/hint" and "working it out" in box.text
    assert clients[first].get(f"{path}/hint").status_code == 202
    with quick.app_context():
        assert advice.answer_hints() == 1
        db.session.remove()
    part = clients[first].get(f"{path}/hint")
    assert part.status_code == 200 and "data-hint" not in part.get_data(as_text=True)
    box = page(clients[first], path).find("section", cls="hint-box")
    moves = [li.text for li in box.find("ol", cls="hint-moves").find_all("li")]
    assert len(moves) == 3 and moves[0].startswith("power card ")
    assert "the search's best" in moves[0] and "points less" in moves[1]
    assert "only what your seat sees" in box.text
    # Nobody else's page shows another seat's hint.
    assert page(clients[other], path).find("section", cls="hint-box") is None
    assert page(quick.test_client(), path).find("section", cls="hint-box") is None


def test_a_finished_games_page_shows_its_review(quick, api):
    game_id, clients, _first, _other = _seated(quick, api, {"rounds": 6})
    play_out(quick, game_id, seed=6)
    path = f"/games/{game_id}"
    review = page(clients["red"], path).find("section", cls="review")
    assert "reviewing this game" in review.text
    with quick.app_context():
        assert advice.review_one() == game_id
        db.session.remove()
    review = page(quick.test_client(), path).find("section", cls="review")
    assert "Where points were lost" in review.text
    assert [h.text.split()[-1] for h in review.find_all("h3")] == ["Red", "Blue", "Green"]
    links = [a.get("href") for a in review.find_all("a")]
    assert links and all(href.startswith(f"{path}?seq=") for href in links)
    for item in review.find_all("li"):
        assert item.text.startswith("Round ") and "points more" in item.text
