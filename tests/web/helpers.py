"""Helpers for the page tests: signing a client in to a seat through its mail link, reading
pages and their move form."""

from __future__ import annotations

from urllib.parse import urlsplit

from pbem.extensions import db
from pbem.store.models import Seat
from tests.web.html import Node, parse


def seat_player(app, game_id: int, colour: str) -> int:
    with app.app_context():
        query = db.select(Seat.player_id).where(Seat.game_id == game_id, Seat.colour == colour)
        player_id = db.session.execute(query).scalar_one()
        db.session.remove()
    return player_id


def seat_link_for(app, game_id: int, colour: str) -> str:
    """The seat's sign-in link, as a mail would carry it."""
    from pbem.web.signin import seat_link

    player_id = seat_player(app, game_id, colour)
    with app.test_request_context():
        return seat_link(game_id, colour, player_id)


def sign_in_seat(app, client, game_id: int, colour: str):
    """Sign the test client in through the seat's link, as a person does: open it (it asks),
    then press its button; returns the button's redirect response."""
    return follow_seat_link(client, seat_link_for(app, game_id, colour))


def follow_seat_link(client, link: str):
    """Open a seat's link (its path: mails' links point at PBEM_BASE_URL, not the test
    client's host) and press its Sign in button (signed in as another player: its "continue
    as" button); the button's response, a redirect."""
    path = urlsplit(link).path
    asked = client.get(path)
    assert asked.status_code == 200, asked.get_data(as_text=True)
    doc = parse(asked.get_data(as_text=True))
    form = doc.find("form", cls="seat-sign-in") or doc.find("form", cls="account-choice")
    fields = {"csrf_token": form.find("input", name="csrf_token").get("value")}
    if "account-choice" in form.classes:
        fields["account"] = "theirs"
    response = client.post(path, data=fields)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response


def gone(element) -> bool:
    """Whether `element` left the page (its page was replaced). Asked while the next page
    loads, chromedriver may answer "stale element" or, in a race, "node does not belong to
    the document": both say it is gone."""
    from selenium.common.exceptions import WebDriverException

    try:
        element.is_enabled()
    except WebDriverException:  # StaleElementReferenceException is one
        return True
    return False


def open_seat_link(browser, app, game_id: int, colour: str) -> None:
    """Open the seat's link in the browser and press its Sign in button (signed in as that
    player already, the link goes straight on to the board; as another player, it asks
    whose account to go on with: theirs)."""
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(seat_link_for(app, game_id, colour))
    buttons = browser.find_elements(
        "css selector", "form.seat-sign-in button, form.account-choice button.continue-as-them"
    )
    if buttons:
        buttons[0].click()
        WebDriverWait(browser, 10).until(lambda b: gone(buttons[0]))
        WebDriverWait(browser, 10).until(
            lambda b: b.execute_script("return document.readyState") == "complete"
        )


def page(client, path: str, status: int = 200) -> Node:
    response = client.get(path)
    assert response.status_code == status, (path, response.get_data(as_text=True)[:2000])
    return parse(response.get_data(as_text=True))


def move_form(doc: Node) -> dict[str, str]:
    """The fields a move is posted to `/games/<id>/moves` with, from the page: its seq and
    colour as the move form holds them, and the session's CSRF token. (Every decision on
    the page is planned first, a GET without the token, and played by Confirm's form with
    them; these tests post one move straight to the route.)"""
    form = doc.find("form", cls="moves")
    assert form is not None, "the page offers no moves"
    hidden = {i.get("name"): i.get("value") for i in form.find_all("input", type="hidden")}
    if form.get("method") != "get":
        return hidden
    token = doc.find("input", name="csrf_token")  # the sign-out form's, in the header
    assert token is not None, "signed out: no CSRF token on the page"
    fields = {"csrf_token": token.get("value"), "expected_seq": hidden["seq"]}
    if "colour" in hidden:
        fields["colour"] = hidden["colour"]
    return fields


def offered_moves(doc: Node) -> list[str]:
    """The JSON of every move the page offers, as its buttons carry it."""
    form = doc.find("form", cls="moves")
    return [b.get("value") for b in form.find_all("button", name="move")] if form else []


def game_with_an_intrigue(api, rng, clickable: bool = False) -> tuple[int, dict, str, list[dict]]:
    """A game played at random until a seat may move caballeros between places (an
    intrigue under way): its id, keys, that seat's colour and those moves; with `clickable`,
    only those leaving places it may not also place a caballero in (a click on such a
    place on the map places one)."""
    for _ in range(20):
        game_id, keys = api.new_game(["red", "blue", "green"])
        for _ in range(300):
            view = api.get(f"/api/games/{game_id}").get_json()
            if view["status"] != "active":
                break
            colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
            legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
            placing = {m.get("to") for m in legal["moves"] if m["type"] == "place"}
            shifts = [
                m
                for m in legal["moves"]
                if m["type"] == "move_caballero" and not (clickable and m["from"] in placing)
            ]
            if shifts:
                return game_id, keys, colour, shifts
            api.post_moves(game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"])
    raise AssertionError("no intrigue came up in 20 games")


def to_a_turn(api, game_id: int, keys: dict) -> str:
    """Play the round's power cards through the API (each seat its highest) until a seat
    has its turn; that seat's colour."""
    for _ in range(10):
        view = api.get(f"/api/games/{game_id}").get_json()
        decision = view["pending"][0]
        if decision["kind"] == "turn":
            return decision["player"]
        colour = decision["player"]
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        card = max((m for m in legal["moves"]), key=lambda m: m.get("card", 0))
        assert api.post_moves(game_id, keys[colour], [card], legal["seq"]).status_code == 201
    raise AssertionError("no turn came")


def queued_mails(
    app, kind: str, *, game_id: int | None = None, recipient: str | None = None
) -> list[tuple[str, str]]:
    """(recipient, message as sent, RFC 822) of each mail of `kind` in the outbox, oldest
    first, for one game and/or one address: the mail sink the page tests read."""
    from pbem.notify.sender import compose_queued
    from pbem.store.models import Notification

    query = db.select(Notification.recipient, Notification.message).where(Notification.kind == kind)
    if game_id is not None:
        query = query.where(Notification.game_id == game_id)
    if recipient is not None:
        query = query.where(Notification.recipient == recipient)
    with app.app_context():
        compose_queued()  # as the sender does before sending (the mails a move causes)
        rows = [(r, m) for r, m in db.session.execute(query.order_by(Notification.id))]
        db.session.remove()
    return rows


def text_part(message: str) -> str:
    """A queued mail's text part as a person reads it ("" for a decision mail that waits as
    a payload: the sender composes it)."""
    from email import message_from_string, policy

    if not message:
        return ""
    body = message_from_string(message, policy=policy.default).get_body(preferencelist=("plain",))
    return body.get_content() if body is not None else ""


def games_to_look_at(api) -> tuple[int, dict, int, dict, int]:
    """A three-player game 30 random moves in and a finished six-round one, for the tests
    that look at every page: their ids and keys, and the finished game's red player's id."""
    import random

    from tests.server.helpers import play_random_game, step_randomly

    colours = ["red", "blue", "green"]
    game_id, keys = api.new_game(colours)
    step_randomly(api, game_id, keys, random.Random(2), 30)
    finished_id, finished_keys = api.new_game(colours, options={"rounds": 6})
    play_random_game(api, finished_id, finished_keys, random.Random(3))
    player_id = api.get("/api/players/me", finished_keys["red"]).get_json()["id"]
    return game_id, keys, finished_id, finished_keys, player_id
