"""A game forms before it begins: invitations with accept and decline links, open seats in
the list of games that need players, no deadlines until every seat is taken and accepted,
the organiser's "start now", and cancellation when it never fills."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from pbem.clock import set_now
from pbem.extensions import db
from pbem.schedule.sweep import sweep
from pbem.store.models import Game
from tests.server.conftest import table_snapshot
from tests.web.helpers import page, queued_mails, text_part
from tests.web.html import parse
from tests.web.test_new_game import form, sign_in_with_key


def mails(app, game_id: int, kind: str) -> list[tuple[str, str]]:
    """(recipient, text part) of each mail of `kind` the game queued."""
    return [(r, text_part(m)) for r, m in queued_mails(app, kind, game_id=game_id)]


def forming_game(app, api, client, **fields) -> tuple[int, str]:
    """Ada's forming game: Bea invited (blue), an open seat (yellow), a bot (green)."""
    key = api.register(f"ada-{len(fields)}-{id(fields)}@example.org", "Ada")
    token = sign_in_with_key(client, key)
    data = form(token, **{"who-3": "open", "colour-3": "yellow", "forming": "yes", **fields})
    answer = client.post("/games/new", data=data)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    return int(answer.headers["Location"].rsplit("/", 1)[1]), key


def test_a_game_forms_fills_and_begins(app, api, client):
    game_id, key = forming_game(app, api, client)
    view = api.get(f"/api/games/{game_id}", key).get_json()
    assert view["status"] == "forming" and view["deadlines"] == []
    assert "is forming" in page(client, f"/games/{game_id}").find("p", cls="flash").text
    # Bea is invited (no thread to reply to: the game has not begun); nobody has a decision.
    ((to, text),) = mails(app, game_id, "invitation")
    assert to == "bea@example.org"
    assert "“Ada” invites you" in text and "Reply above" not in text
    assert "yellow: open: anyone may join" in text
    assert mails(app, game_id, "decision") == [] and mails(app, game_id, "welcome") == []
    # Its panel waits on the seats, not on a power card nobody is asked for yet.
    waiting = page(client, f"/games/{game_id}").find("section", cls="pending")
    said = " ".join(waiting.text.split())
    assert "accepting the invitation" in said and "open seat: anyone may join" in said, said
    assert "power card" not in said, said
    # Moves wait: the game has not begun.
    legal = api.post_moves(game_id, key, [{"type": "play_power_card", "card": 13}], 0)
    assert legal.status_code == 409 and "forming" in legal.get_json()["detail"]

    # Cy finds it among the games that need players, and joins the open seat.
    cy = app.test_client()
    cy_key = api.register("cy@example.org", "Cy")
    cy_token = sign_in_with_key(cy, cy_key)
    listed = page(cy, "/games/open").find("tr", data_game=str(game_id))
    assert "Join as yellow" in listed.text
    joined = cy.post(f"/games/{game_id}/join", data={"csrf_token": cy_token, "colour": "yellow"})
    assert joined.status_code == 303
    assert page(cy, "/games/open").find("tr", data_game=str(game_id)) is None
    assert any("Cy has joined" in text for _, text in mails(app, game_id, "notice"))
    assert api.get(f"/api/games/{game_id}", key).get_json()["status"] == "forming"

    # Bea accepts from her mail: the last seat, so the game begins.
    link = urlsplit(re.search(r"Accept the seat: (\S+)", text)[1]).path
    bea = app.test_client()
    asks = parse(bea.get(link).get_data(as_text=True))
    assert "Accept the blue seat" in asks.find("main").text
    assert api.get(f"/api/games/{game_id}", key).get_json()["status"] == "forming"  # GET asks
    token = asks.find("input", name="csrf_token").get("value")
    assert bea.post(link, data={"csrf_token": token}).status_code == 303
    view = api.get(f"/api/games/{game_id}", key).get_json()
    assert view["status"] == "active" and view["deadlines"]
    welcomed = dict(mails(app, game_id, "welcome"))
    assert {"bea@example.org", "cy@example.org"} <= set(welcomed)
    assert "has begun" in page(bea, f"/games/{game_id}").find("p", cls="flash").text
    # Bea accepted on the web, signed in: her first mail offers no key and no decline, and
    # its link signs her in to her seat.
    welcome = welcomed["bea@example.org"]
    assert "API key" not in welcome and "Decline" not in welcome, welcome
    assert re.search(rf"/games/{game_id}/sign-in/\S+", welcome), welcome
    # Her invitation's link, opened again now that the game has begun, leads to her seat.
    again = app.test_client().get(link)
    assert again.status_code == 303
    assert f"/games/{game_id}/sign-in/" in again.headers["Location"]
    asked = parse(app.test_client().get(again.headers["Location"]).get_data(as_text=True))
    assert "blue" in asked.find("main").text.lower()
    # Someone else's link to her seat cannot be made from it: a stranger's is refused.
    forged = link.rsplit("/", 1)[0] + "/forged"
    assert app.test_client().get(forged).status_code == 404


def test_the_organiser_starts_early_and_open_seats_go_to_bots(app, api, client):
    game_id, key = forming_game(app, api, client, title="Early start")
    doc = page(client, f"/games/{game_id}")
    box = doc.find("section", cls="forming")
    assert "invited, not yet accepted" in box.text and "anyone may join" in box.text
    token = box.find("input", name="csrf_token").get("value")
    other = app.test_client()
    api.register("dan@example.org", "Dan")
    refused = other.post(f"/games/{game_id}/start", data={"csrf_token": "x"})
    assert refused.status_code in (400, 403)
    assert client.post(f"/games/{game_id}/start", data={"csrf_token": token}).status_code == 303
    summary = next(g for g in api.get("/api/games", key).get_json()["games"] if g["id"] == game_id)
    assert summary["status"] == "active"
    yellow = next(s for s in summary["seats"] if s["colour"] == "yellow")
    assert yellow["bot"] is True


def test_a_declined_seat_opens_and_an_unfilled_game_is_cancelled(app, api, client):
    game_id, key = forming_game(app, api, client, title="Never fills")
    ((_, text),) = mails(app, game_id, "invitation")
    decline = urlsplit(re.search(r"Decline it \(the seat opens for someone else\): (\S+)", text)[1])
    assert client.post(decline.path).status_code == 200
    listed = page(client, "/games/open").find("tr", data_game=str(game_id))
    assert "Join as blue" in listed.text and "Join as yellow" in listed.text
    # Two weeks on, still forming: the sweep cancels it, and the table is told.
    set_now(app, datetime.now(UTC) + timedelta(days=15))
    try:
        with app.app_context():
            said = sweep()
            db.session.remove()
    finally:
        set_now(app, None)
    assert any(f"game {game_id}: cancelled" in line for line in said)
    with app.app_context():
        assert db.session.get_one(Game, game_id).status == "cancelled"
        db.session.remove()
    assert any("is cancelled" in t for _, t in mails(app, game_id, "notice"))
    assert page(client, "/games/open").find("tr", data_game=str(game_id)) is None


def test_an_open_seat_needs_a_forming_game_and_a_seat_is_joined_once(app, api, client):
    key = api.register("eve@example.org", "Eve")
    token = sign_in_with_key(client, key)
    before = table_snapshot(app)
    data = form(token, **{"who-3": "open", "colour-3": "yellow"})
    data.pop("forming", None)
    # An open seat makes the game form, asked or not.
    answer = client.post("/games/new", data=data)
    assert answer.status_code == 303
    game_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert api.get(f"/api/games/{game_id}", key).get_json()["status"] == "forming"
    assert table_snapshot(app) != before
    # The organiser holds a seat already; a seat that is not open cannot be joined.
    own = client.post(f"/games/{game_id}/join", data={"csrf_token": token, "colour": "yellow"})
    assert own.status_code == 409 and "already hold a seat" in own.get_data(as_text=True)
    taken = client.post(f"/games/{game_id}/join", data={"csrf_token": token, "colour": "blue"})
    assert taken.status_code == 409 and "not open" in taken.get_data(as_text=True)


def test_the_games_that_need_players_and_an_invitation_isolate_names_and_titles(app, api, client):
    # A name and a title as kept before they were held to `pbem.texts`' rule: a U+202E in
    # each would turn the words after it around, were it not isolated.
    old_name, old_title = "Ada \u202eadA", "Cup \u202epuC"
    game_id, _key = forming_game(app, api, client)
    with app.app_context():
        game = db.session.get_one(Game, game_id)
        game.title = old_title
        game.creator.name = old_name
        db.session.commit()
        db.session.remove()
    listed = page(app.test_client(), "/games/open").find("tr", data_game=str(game_id))
    title = listed.find("td", cls="title")
    assert [b.text for b in title.find_all("bdi")] == [old_title, old_name]  # and "by ..."
    assert old_name in [b.text for b in listed.find("td", cls="players").find_all("bdi")]
    ((_, text),) = mails(app, game_id, "invitation")
    link = urlsplit(re.search(r"Accept the seat: (\S+)", text)[1]).path
    asks = parse(app.test_client().get(link).get_data(as_text=True)).find("main")
    shown = [b.text for b in asks.find_all("bdi")]
    assert shown[:2] == [old_title, old_name]  # its heading, and who invites
    assert {old_name, "bea", "open"} <= set(shown[2:])  # each seat's holder, as named
