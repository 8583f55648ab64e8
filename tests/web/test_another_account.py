"""A link mailed to one address, opened where another account is signed in (Carol's mail
forwarded to Bob): every door such a link opens says whose it is and asks, on its GET and on
the POST that would act, and nothing changes (Bob stays signed in, nothing is spent or
accepted) until he answers. "Stay" changes nothing; "continue" signs him out of his own
account, into hers, and does what the link does. A link for his own account, and any link
opened signed out, work as before (their own tests)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest

from pbem import tokens
from pbem.extensions import db
from pbem.game.players import claim_token
from pbem.play import accounts
from pbem.store.models import Player, Seat, SignInLink
from pbem.web.another_account import hidden_address
from tests.server.conftest import table_snapshot
from tests.web.helpers import page, seat_player
from tests.web.html import parse
from tests.web.test_me_page import change_link, email_of, me_form, player_id_of
from tests.web.test_new_game import sign_in_with_key


@dataclass
class Bob:
    """Bob, signed in in the test client's browser."""

    client: object
    email: str
    key: str


@dataclass
class Link:
    """Carol's link as her mail carried it: its path, the address it went to, the name its
    page gives her ("" for an address with no player yet), her id (None: none yet), and
    whether what it does is done."""

    path: str
    email: str
    name: str
    player_id: int | None
    done: Callable[[], bool]


def tag() -> str:
    return uuid.uuid4().hex[:8]


def game(api, organiser_key: str, seats: dict[str, str], forming: bool = False) -> int:
    body = {
        "title": f"Table {tag()}",
        "seats": [{"colour": c, "email": e} for c, e in seats.items()],
        "forming": forming,
    }
    made = api.client.post("/api/games", json=body, headers=api.auth(organiser_key))
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"]


def accept_path(app, game_id: int, colour: str) -> str:
    """The path of the link an invitation to `colour`'s seat carries."""
    player_id = seat_player(app, game_id, colour)
    with app.app_context():
        return f"/games/{game_id}/accept/{tokens.accept_token(game_id, colour, player_id)}"


def row(app, model, row_id: int, read: Callable):
    with app.app_context():
        found = read(db.session.get_one(model, row_id))
        db.session.remove()
    return found


def a_seat_link(app, api, bob: Bob) -> Link:
    """Carol's link to her blue seat of Bob's game (it spends nothing: what it does is to
    sign in, checked by every test)."""
    from pbem.web.signin import seat_link

    carol = f"carol-{tag()}@example.org"
    api.register(carol, "Carol")
    game_id = game(api, bob.key, {"red": bob.email, "blue": carol})
    player_id = seat_player(app, game_id, "blue")
    with app.test_request_context():
        path = urlsplit(seat_link(game_id, "blue", player_id)).path
    return Link(path, carol, "Carol", player_id, lambda: False)


def an_invitation(app, api, bob: Bob) -> Link:
    """Carol's invitation to Bob's forming game, accepted by its link."""
    carol = f"carol-{tag()}@example.org"
    api.register(carol, "Carol")
    game_id = game(api, bob.key, {"red": bob.email, "blue": carol}, forming=True)
    player_id = seat_player(app, game_id, "blue")
    path = accept_path(app, game_id, "blue")
    with app.app_context():
        query = db.select(Seat.id).where(Seat.game_id == game_id, Seat.colour == "blue")
        seat_id = db.session.execute(query).scalar_one()
        db.session.remove()
    accepted = lambda: row(app, Seat, seat_id, lambda s: s.accepted_at is not None)  # noqa: E731
    return Link(path, carol, "Carol", player_id, accepted)


def a_sign_in_link(app, api, bob: Bob, known: bool = True) -> Link:
    """A sign-in link mailed to Carol's address (`known`: she plays here; else following it
    makes her account, and asks her name first)."""
    carol = f"carol-{tag()}@example.org"
    if known:
        api.register(carol, "Carol")
    made: list[str] = []
    with app.test_request_context():
        # A client of its own: the hourly limits of the test client's address are not spent.
        accounts.mail_sign_in_link(carol, f"test-{tag()}", None, lambda t: made.append(t) or t)
        db.session.commit()
        query = db.select(SignInLink.id).where(SignInLink.email == carol)
        link_id = db.session.execute(query).scalar_one()
        db.session.remove()
    spent = lambda: row(app, SignInLink, link_id, lambda s: s.used_at is not None)  # noqa: E731
    player_id = player_id_of(app, carol) if known else None
    return Link(f"/sign-in/link/{made[0]}", carol, "Carol" if known else "", player_id, spent)


def a_claim_link(app, api, bob: Bob) -> Link:
    """The link to claim a key that Carol's first mail carried: Bob seated her address in
    his game before she had an account."""
    carol = f"carol-{tag()}@example.org"
    game(api, bob.key, {"red": bob.email, "blue": carol})
    player_id = player_id_of(app, carol)
    token = row(app, Player, player_id, claim_token)
    claimed = lambda: row(app, Player, player_id, lambda p: p.api_key_hash is not None)  # noqa: E731
    name = carol.split("@")[0]  # an invited address's name, until its player chooses one
    return Link(f"/mail/claim/{token}", carol, name, player_id, claimed)


def an_address_change(app, api, bob: Bob) -> Link:
    """The link mailed to Carol's new address, asked for on her page."""
    old, new = f"carol-{tag()}@example.org", f"carol-{tag()}@new.example.org"
    carol = app.test_client()
    sign_in_with_key(carol, api.register(old, "Carol"))
    asked = carol.post("/me", data={"csrf_token": me_form(carol), "action": "email", "email": new})
    assert asked.status_code == 303
    player_id = player_id_of(app, old)
    changed = lambda: email_of(app, player_id) == new  # noqa: E731
    return Link(change_link(app, new), old, "Carol", player_id, changed)


def a_sign_in_link_for_a_new_address(app, api, bob: Bob) -> Link:
    return a_sign_in_link(app, api, bob, known=False)


#: Every door a link mailed to one address opens that signs its player in or acts for them.
DOORS = {
    "seat": a_seat_link,
    "invitation": an_invitation,
    "sign-in": a_sign_in_link,
    "sign-in-new": a_sign_in_link_for_a_new_address,
    "claim": a_claim_link,
    "address": an_address_change,
}


@pytest.fixture
def bob(api, client) -> Bob:
    email = f"bob-{tag()}@example.org"
    key = api.register(email, "Bob")
    sign_in_with_key(client, key)
    return Bob(client, email, key)


def signed_in_as(client) -> str | None:
    me = page(client, "/").find("a", cls="me")
    return me.text if me is not None else None


def csrf_of(answer) -> str:
    return parse(answer.get_data(as_text=True)).find("input", name="csrf_token").get("value")


def assert_asks(answer, link: Link, bob: Bob) -> None:
    """The question: whose link it is (her address partly hidden), who is signed in, and
    the two choices, posted back to the link itself."""
    assert answer.status_code == 200, answer.get_data(as_text=True)[:2000]
    text = answer.get_data(as_text=True)
    doc = parse(text)
    said = " ".join(doc.find("p", cls="whose-link").text.split())
    hidden = hidden_address(link.email)
    them = f"{link.name} ({hidden})" if link.name else hidden
    you = f"Bob ({hidden_address(bob.email)})"
    assert said == f"This link is for {them} — you are signed in as {you}.", said
    assert link.email not in text  # her whole address is not handed on
    form = doc.find("form", cls="account-choice")
    assert form.get("action") is None and form.get("method") == "post"
    choices = {b.get("value"): " ".join(b.text.split()) for b in form.find_all("button")}
    assert choices == {
        "mine": "Stay signed in as Bob",
        "theirs": f"Sign out and continue as {link.name or hidden}",
    }


def test_an_address_is_partly_hidden():
    assert hidden_address("carol@example.org") == "c•••@example.org"
    assert hidden_address("c@example.org") == "c•••@example.org"
    assert hidden_address("no address") == "•••"


@pytest.mark.parametrize("door", DOORS)
def test_a_link_for_another_account_asks_and_changes_nothing_until_answered(app, api, bob, door):
    link = DOORS[door](app, api, bob)
    before = table_snapshot(app)
    asked = bob.client.get(link.path)
    assert_asks(asked, link, bob)
    token = csrf_of(asked)
    # The link's own form, posted anyway (a page opened before, another tab): it asks again.
    assert_asks(bob.client.post(link.path, data={"csrf_token": token, "name": "Cy"}), link, bob)
    # An answer from another site's form is refused: the token is the session's own.
    forged = bob.client.post(link.path, data={"csrf_token": "forged", "account": "theirs"})
    assert forged.status_code == 400
    assert table_snapshot(app) == before and not link.done()
    assert signed_in_as(bob.client) == "Bob"
    # "Stay": nothing changes, and the reader is back at their own games.
    stayed = bob.client.post(link.path, data={"csrf_token": token, "account": "mine"})
    assert stayed.status_code == 303 and stayed.location == "/"
    said = page(bob.client, "/").find("p", cls="flash").text
    assert said == "You are still signed in as Bob: the link changed nothing."
    assert table_snapshot(app) == before and not link.done()
    assert signed_in_as(bob.client) == "Bob"
    # And the link still works for its player.
    assert bob.client.get(link.path).status_code == 200


@pytest.mark.parametrize("door", DOORS)
def test_continuing_signs_out_of_ones_own_account_and_does_what_the_link_does(app, api, bob, door):
    link = DOORS[door](app, api, bob)
    own_cookie = bob.client.get_cookie("session").value
    token = csrf_of(bob.client.get(link.path))
    went = bob.client.post(link.path, data={"csrf_token": token, "account": "theirs"})
    if link.player_id is None:
        # The link makes an account: signed out of Bob's, its page asks her name first.
        assert went.status_code == 200 and signed_in_as(bob.client) is None
        assert parse(went.get_data(as_text=True)).find("input", name="name") is not None
        assert not link.done()
        named = bob.client.post(link.path, data={"csrf_token": csrf_of(went), "name": "Carol"})
        assert named.status_code == 303, named.get_data(as_text=True)[:2000]
        link.player_id, link.name = player_id_of(app, link.email), "Carol"
    else:
        assert went.status_code in (200, 303), went.get_data(as_text=True)[:2000]
    assert link.done() or door == "seat"
    assert signed_in_as(bob.client) == link.name
    with bob.client.session_transaction() as session:
        assert session["player_id"] == link.player_id
    # Bob's own session is ended, not just left: a copy of its cookie is signed out.
    copy = app.test_client()
    copy.set_cookie("session", own_cookie)
    assert signed_in_as(copy) is None


def test_a_seat_link_goes_on_to_its_board(app, api, bob):
    link = a_seat_link(app, api, bob)
    token = csrf_of(bob.client.get(link.path))
    went = bob.client.post(link.path, data={"csrf_token": token, "account": "theirs"})
    assert went.status_code == 303 and re.search(r"/games/\d+\?colour=blue$", went.location)


def test_a_link_for_ones_own_account_asks_nothing(app, api, bob):
    """Bob's own invitation, opened where he is signed in: its page, as before."""
    carol = f"carol-{tag()}@example.org"
    game_id = game(api, api.register(carol, "Carol"), {"red": carol, "blue": bob.email}, True)
    path = accept_path(app, game_id, "blue")
    asked = parse(bob.client.get(path).get_data(as_text=True))
    assert asked.find("form", cls="account-choice") is None
    assert "Accept the blue seat" in asked.find("main").text
    done = bob.client.post(path, data={"csrf_token": csrf_of(bob.client.get(path))})
    assert done.status_code == 303 and signed_in_as(bob.client) == "Bob"
