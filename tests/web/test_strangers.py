"""Nobody can make the server mail people who never asked: caps a day on the games a player
makes, the invitations a player sends and an address receives; "never invite me again" in
every invitation; and titles and seat names that a mail program would show as a link are
refused, while the organiser's words are shown quoted as theirs."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest

from pbem.clock import set_now
from pbem.extensions import db
from pbem.store.models import Notification, SuppressedAddress
from tests.server.conftest import assert_problem, table_snapshot
from tests.web.helpers import queued_mails, text_part
from tests.web.html import parse
from tests.web.test_new_game import form, sign_in_with_key
from tests.web.test_sign_in_by_mail import ask, csrf, link_in, mails_to

#: The clock for these tests: early in a UTC day, so each test's counts share one window.
MORNING = datetime(2026, 11, 3, 8, 0, tzinfo=UTC)


@pytest.fixture
def clock(app):
    set_now(app, MORNING)
    yield app
    set_now(app, None)


def make_game(api, key: str, *others: str, title: str = "Friday game", **extra):
    """POST /api/games: the key's holder (`me@...` style: its email is `api.keys`' key)
    in red, `others` by email, the rest house bots."""
    own = next(email for email, k in api.keys.items() if k == key)
    seats = [{"email": own, "colour": "red"}]
    colours = iter(["blue", "green", "yellow", "purple"])
    seats += [{"email": email, "colour": next(colours)} for email in others]
    while len(seats) < 3:
        seats.append({"bot": True, "colour": next(colours)})
    body = {"title": title, "seats": seats, **extra}
    return api.client.post("/api/games", json=body, headers=api.auth(key))


def outbox_count(app) -> int:
    with app.app_context():
        count = db.session.execute(db.select(db.func.count()).select_from(Notification)).scalar()
        db.session.remove()
    return int(count or 0)


def test_thirty_games_in_a_row_get_the_cap_and_then_429_with_nothing_queued(app, api, clock):
    key = api.register("maker@example.org", "Maker")
    answers = []
    for number in range(30):
        before = table_snapshot(app) if number >= 10 else None
        answer = make_game(api, key, f"stranger-{number}@example.org")
        answers.append(answer.status_code)
        if answer.status_code == 429:
            body = assert_problem(answer, 429)
            assert "as many games today" in body["detail"]
            # Until midnight UTC: the day's window ends then.
            assert int(answer.headers["Retry-After"]) == 16 * 3600
            assert table_snapshot(app) == before
    assert answers == [201] * 10 + [429] * 20
    assert len(queued_mails(app, "welcome", recipient="stranger-9@example.org")) == 1
    assert not queued_mails(app, "welcome", recipient="stranger-10@example.org")
    # The next day the player may make games again.
    set_now(app, MORNING + timedelta(days=1))
    assert make_game(api, key, "stranger-10@example.org").status_code == 201


def test_a_stranger_invited_by_five_players_gets_at_most_three_invitations(app, api, clock):
    answers = []
    for number in range(5):
        key = api.register(f"player-{number}@example.org", f"Player {number}")
        answer = make_game(api, key, "target@example.org", forming=True)
        answers.append(answer.status_code)
    assert answers == [201, 201, 201, 429, 429]
    refused = make_game(api, key, "target@example.org", forming=True)
    assert "target@example.org" in assert_problem(refused, 429)["detail"]
    assert len(queued_mails(app, "invitation", recipient="target@example.org")) == 3
    # An address with an account is no stranger: it may be invited as often as friends like.
    api.register("friend@example.org", "Friend")
    for _number in range(5):
        assert make_game(api, key, "friend@example.org", forming=True).status_code == 201


def test_one_player_sends_at_most_the_days_invitations_to_strangers(app, api, clock):
    app.config["PBEM_INVITATIONS_PER_DAY"] = 5
    key = api.register("host@example.org", "Host")
    api.register("known@example.org", "Known")
    assert make_game(api, key, "a@example.org", "b@example.org").status_code == 201
    assert make_game(api, key, "c@example.org", "d@example.org").status_code == 201
    before = table_snapshot(app)
    # Two more strangers would make 6: refused whole, the one that fits included.
    refused = make_game(api, key, "e@example.org", "f@example.org")
    assert "invitations one player may send" in assert_problem(refused, 429)["detail"]
    assert int(refused.headers["Retry-After"]) > 0
    assert table_snapshot(app) == before
    # Players with an account are not counted.
    assert make_game(api, key, "known@example.org", "e@example.org").status_code == 201
    # Handing a seat to a stranger counts too.
    game = make_game(api, key, "known@example.org").get_json()["id"]
    before = table_snapshot(app)
    given = api.client.put(
        f"/api/games/{game}/seats/blue", json={"email": "g@example.org"}, headers=api.auth(key)
    )
    assert_problem(given, 429)
    assert table_snapshot(app) == before
    set_now(app, MORNING + timedelta(days=1))
    given = api.client.put(
        f"/api/games/{game}/seats/blue", json={"email": "g@example.org"}, headers=api.auth(key)
    )
    assert given.status_code == 200, given.get_json()


def never_link(message: str) -> str:
    found = re.search(r"https?://\S+/never-invite/\S+", text_part(message))
    assert found, text_part(message)
    return urlsplit(found[0]).path


def test_the_invitation_quotes_the_organisers_words_and_offers_never_again(app, api, clock):
    key = api.register("ana@example.org", "Ana")
    made = make_game(api, key, "bea@example.org", title="Sunday league", forming=True)
    assert made.status_code == 201
    ((_, message),) = queued_mails(app, "invitation", recipient="bea@example.org")
    text = text_part(message)
    assert "“Ana” invites you" in text and "they called “Sunday league”" in text
    assert "not this server's" in text
    link = never_link(message)
    from email import message_from_string, policy

    mail = message_from_string(message, policy=policy.default)
    assert mail["Subject"] == "[El Grande] “Ana” invites you to a game called “Sunday league”"
    html = mail.get_body(preferencelist=("html",)).get_content()
    # The organiser's words, each isolated: a character of direction in them turns nothing
    # of the sentence around them.
    assert "“<bdi>Ana</bdi>”" in html and "“<bdi>Sunday league</bdi>”" in html and link in html
    # A game begun at once invites by its first mail: it carries the link too, but the
    # organiser's own does not.
    made = make_game(api, key, "cy@example.org", title="At once")
    ((_, welcome),) = queued_mails(app, "welcome", recipient="cy@example.org")
    assert never_link(welcome)
    game = made.get_json()["id"]
    ((_, own),) = queued_mails(app, "welcome", game_id=game, recipient="ana@example.org")
    assert "/never-invite/" not in own


def suppressed(app) -> list[str]:
    with app.app_context():
        emails = db.session.execute(db.select(SuppressedAddress.email)).scalars().all()
        db.session.remove()
    return list(emails)


def test_a_stranger_who_says_never_again_is_invited_by_nobody(app, api, client, clock):
    key = api.register("ana@example.org", "Ana")
    make_game(api, key, "Bea@Example.org", forming=True)
    ((_, message),) = queued_mails(app, "invitation", recipient="bea@example.org")
    link = never_link(message)
    # The link's page asks: a mail scanner's GET changes nothing.
    before = table_snapshot(app)
    page = client.get(link)
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "no-store"
    assert page.headers["Referrer-Policy"] == "no-referrer"
    doc = parse(page.get_data(as_text=True))
    assert "bea@example.org" in doc.find("main").text
    assert table_snapshot(app) == before
    # The form needs the site's CSRF token.
    assert client.post(link, data={}).status_code == 400
    assert suppressed(app) == []
    token = doc.find("input", name="csrf_token").get("value")
    done = client.post(link, data={"csrf_token": token})
    assert done.status_code == 200 and done.headers["Cache-Control"] == "no-store"
    said = parse(done.get_data(as_text=True)).find("main").text
    assert "nobody can invite bea@example.org" in said and "sign in" in said
    assert client.post(link, data={"csrf_token": token}).status_code == 200  # again: harmless
    assert suppressed(app) == ["bea@example.org"]
    # From anyone, by any path: a new game, a seat given, the web form.
    other = api.register("cy@example.org", "Cy")
    game = make_game(api, other, "dee@example.org").get_json()["id"]
    before = table_snapshot(app)
    refused = make_game(api, other, "BEA@example.org", forming=True)
    detail = assert_problem(refused, 422)["detail"]
    assert "bea@example.org" in detail and "blue" in detail and "never" in detail
    given = api.client.put(
        f"/api/games/{game}/seats/blue", json={"email": "bea@example.org"}, headers=api.auth(other)
    )
    assert "bea@example.org" in assert_problem(given, 422)["detail"]
    web = api.client.application.test_client()
    token = sign_in_with_key(web, other)
    answer = web.post("/games/new", data=form(token, **{"email-1": "bea@example.org"}))
    assert answer.status_code == 422
    assert "never to be invited" in parse(answer.get_data(as_text=True)).find("p", cls="error").text
    assert table_snapshot(app) == before
    # Signing in with the address by a mailed link shows it is hers: she may be invited again.
    ask(client, "bea@example.org")
    (mail,) = mails_to(app, "bea@example.org")
    signed = client.post(
        link_in(mail), data={"csrf_token": csrf(client, link_in(mail)), "name": "Bea"}
    )
    assert signed.status_code == 303
    assert suppressed(app) == []
    assert make_game(api, other, "bea@example.org").status_code == 201


def test_a_forged_never_invite_link_is_refused(client):
    assert client.get("/never-invite/not-a-token").status_code == 404


LINKS = [
    "Your account is locked: click https://evil.test/unlock",
    "evil.test/unlock",
    "Pay at paypal.com",
    "see www.example",
    "mailto:me",
    "write to me@example.org",
    "пример.рф",
    "paypal\uff0ecom",
    "10.0.0.1/x",
    "ftp://files",
]
PLAIN = ["Sunday league", "St. Louis 2.0", "e.g. for fun", "Round 1: go", "Ivo M.", "Ana & Bea"]


@pytest.mark.parametrize("title", LINKS)
def test_a_title_with_a_link_is_refused_at_the_api(app, api, clock, title):
    key = api.register("ana@example.org", "Ana")
    before = table_snapshot(app)
    refused = make_game(api, key, "bea@example.org", title=title, forming=True)
    assert "would show as a link" in assert_problem(refused, 422)["detail"]
    seats = [
        {"email": "ana@example.org", "colour": "red"},
        {"email": "bea@example.org", "colour": "blue", "name": title},
        {"bot": True, "colour": "green"},
    ]
    named = api.client.post(
        "/api/games", json={"title": "Fine", "seats": seats}, headers=api.auth(key)
    )
    detail = assert_problem(named, 422)["detail"]
    assert "seat 2" in detail and "would show as a link" in detail
    assert table_snapshot(app) == before


@pytest.mark.parametrize("title", PLAIN)
def test_plain_words_are_titles_and_names(api, clock, title):
    key = api.register("ana@example.org", "Ana")
    seats = [
        {"email": "ana@example.org", "colour": "red"},
        {"email": "bea@example.org", "colour": "blue", "name": title},
        {"bot": True, "colour": "green"},
    ]
    made = api.client.post(
        "/api/games", json={"title": title, "seats": seats}, headers=api.auth(key)
    )
    assert made.status_code == 201, made.get_json()


@pytest.mark.parametrize(
    "fields",
    [{"title": "Play at evil.test/unlock"}, {"name-1": "Bea (https://evil.test)"}],
)
def test_the_new_game_form_refuses_links_and_says_why(app, api, client, clock, fields):
    key = api.register("ana@example.org", "Ana")
    token = sign_in_with_key(client, key)
    before = table_snapshot(app)
    answer = client.post("/games/new", data=form(token, **fields))
    assert answer.status_code == 422
    error = parse(answer.get_data(as_text=True)).find("p", cls="error").text
    assert "would show as a link" in error
    assert table_snapshot(app) == before


def test_the_new_game_form_says_when_the_days_games_are_made(app, api, client, clock):
    app.config["PBEM_GAMES_PER_DAY"] = 1
    key = api.register("ana@example.org", "Ana")
    token = sign_in_with_key(client, key)
    assert client.post("/games/new", data=form(token)).status_code == 303
    before = table_snapshot(app)
    answer = client.post("/games/new", data=form(token, **{"email-1": "other@example.org"}))
    assert answer.status_code == 429 and int(answer.headers["Retry-After"]) > 0
    assert "as many games today" in parse(answer.get_data(as_text=True)).find("p", cls="error").text
    assert table_snapshot(app) == before
    assert outbox_count(app) > 0
