"""The table on the game page: a seat writes to it with a form that works without
JavaScript (CSRF-protected), every seat's page shows the words beside the log as text, the
others are mailed; a seat's notes are kept from the page and shown to nobody else. The
public and a stranger see neither; no kept part of a page holds either."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email import message_from_string, policy

import sqlalchemy as sa

from pbem.clock import set_now
from pbem.extensions import db
from pbem.notify import sender
from pbem.play import notes, talk
from pbem.web import pages
from tests.server.conftest import table_snapshot
from tests.web.helpers import page, sign_in_seat
from tests.web.html import Node, parse

HOSTILE = 'Hola <b>amigos</b> & "all" <script>alert(1)</script>'
NOTE = "NOTE-2231: blue keeps the 13 for the last round"
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _seated(app, api, colours=("red", "blue", "green")):
    """A game and a signed-in client for each seat."""
    game_id, keys = api.new_game(list(colours))
    clients = {}
    for colour in colours:
        clients[colour] = app.test_client()
        sign_in_seat(app, clients[colour], game_id, colour)
    return game_id, keys, clients


def _form(doc: Node, action_end: str) -> dict[str, str]:
    form = next(f for f in doc.find_all("form") if (f.get("action") or "").endswith(action_end))
    return {i.get("name"): i.get("value") for i in form.find_all("input", type="hidden")}


def _say(client, game_id, text, **extra):
    fields = _form(page(client, f"/games/{game_id}"), f"/games/{game_id}/messages")
    return client.post(f"/games/{game_id}/messages", data={**fields, "text": text, **extra})


def _words(doc: Node) -> list[tuple[str, str, str]]:
    side = doc.find("section", cls="table-talk")
    return [
        (li.get("data-colour"), li.find("span", cls="who").text, li.find("span", cls="words").text)
        for li in side.find_all("li", data_message=True)
    ]


def _outbox(app, kind: str) -> list[tuple[str, str]]:
    with app.app_context():
        sender.compose_queued()  # as the sender does before sending
        rows = db.session.execute(
            sa.text("SELECT recipient, message FROM outbox WHERE kind = :k ORDER BY id"),
            {"k": kind},
        ).all()
        db.session.remove()
    return [tuple(r) for r in rows]


def test_a_seat_writes_from_the_page_and_every_seat_sees_it_as_text(app, api):
    game_id, keys, clients = _seated(app, api)
    answer = _say(clients["red"], game_id, HOSTILE)
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/games/{game_id}#table-talk")
    for colour in ("red", "blue", "green"):
        response = clients[colour].get(f"/games/{game_id}")
        html = response.get_data(as_text=True)
        assert "<script>alert" not in html and "<b>amigos</b>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        doc = parse(html)
        assert _words(doc) == [("red", "Red", HOSTILE)]
        (item,) = doc.find("section", cls="table-talk").find_all("li", data_message=True)
        assert item.get("data-message").isdigit()
    # Mailed to the other two seats, not the writer; as text in both parts.
    mails = _outbox(app, "table_talk")
    emails = api.client.get("/api/games", headers=api.auth(keys["red"])).get_json()
    assert emails  # (the game exists for red)
    assert len(mails) == 2 and all("red-" not in recipient for recipient, _ in mails)
    for _, raw in mails:
        mail = message_from_string(raw, policy=policy.default)
        html = mail.get_body(("html",)).get_content()
        assert "&lt;script&gt;" in html and "<script>" not in html
        assert HOSTILE in mail.get_body(("plain",)).get_content()


#: Words with characters of direction left open: U+202E (turns what follows around) and
#: U+2066 (an isolate).
TURNING = "\u202enoitceriD my way \u2066and yours"


def test_words_with_characters_of_direction_are_kept_and_shown_isolated(app, api):
    game_id, keys, clients = _seated(app, api)
    assert _say(clients["red"], game_id, TURNING).status_code == 303
    _say(clients["blue"], game_id, "and after it, mine")
    doc = page(clients["green"], f"/games/{game_id}")
    assert _words(doc) == [("red", "Red", TURNING), ("blue", "Blue", "and after it, mine")]
    for item in doc.find("section", cls="table-talk").find_all("li", data_message=True):
        # Each line's words and its writer's name take their own direction, apart from
        # everything around them: the U+202E turns nothing of the next line or the name.
        assert item.find("span", cls="words").get("dir") == "auto"
        assert item.find("span", cls="who").get("dir") == "auto"
    # The mail that passes it on carries it isolated in both parts.
    to_green = [m for r, m in _outbox(app, "table_talk") if r.startswith("green-")]
    mail = message_from_string(to_green[0], policy=policy.default)  # red's, written first
    text = mail.get_body(("plain",)).get_content()
    assert f"\u2068{TURNING}\u2069\u202c\u2069" in text
    assert f"\u2068{TURNING}\u2069\u202c\u2069" in mail.get_body(("html",)).get_content()


def test_the_public_and_a_stranger_see_no_table_and_cannot_write(app, api):
    game_id, keys, clients = _seated(app, api)
    _say(clients["red"], game_id, "only for the players")
    anyone = app.test_client()
    html = anyone.get(f"/games/{game_id}").get_data(as_text=True)
    assert "only for the players" not in html and "table-side" not in html
    stranger_key = api.register("page-stranger@example.org", "Stranger")
    stranger = app.test_client()
    token = page(stranger, "/sign-in").find("input", name="csrf_token").get("value")
    stranger.post("/sign-in", data={"csrf_token": token, "api_key": stranger_key})
    html = stranger.get(f"/games/{game_id}").get_data(as_text=True)
    assert "only for the players" not in html and "table-side" not in html
    before = table_snapshot(app)
    # The session's token, from the sign-out form of the page's header.
    token = page(stranger, f"/games/{game_id}").find("input", name="csrf_token").get("value")
    refused = stranger.post(
        f"/games/{game_id}/messages", data={"csrf_token": token, "text": "me too"}
    )
    assert refused.status_code == 403 and "no seat" in refused.get_data(as_text=True)
    signed_out = anyone.post(f"/games/{game_id}/messages", data={"text": "hello"})
    assert signed_out.status_code == 400  # no session, no token
    assert table_snapshot(app) == before


def test_a_form_without_its_token_is_refused_and_changes_nothing(app, api):
    game_id, keys, clients = _seated(app, api)
    before = table_snapshot(app)
    response = clients["red"].post(f"/games/{game_id}/messages", data={"text": "forged"})
    assert response.status_code == 400 and "security token" in response.get_data(as_text=True)
    response = clients["red"].post(f"/games/{game_id}/notes", data={"text": "forged"})
    assert response.status_code == 400
    assert table_snapshot(app) == before


def test_a_refused_message_is_said_why_and_given_back(app, api):
    game_id, keys, clients = _seated(app, api)
    before = table_snapshot(app)
    blank = _say(clients["red"], game_id, "   ")
    assert blank.status_code == 422 and "empty" in blank.get_data(as_text=True)
    long = "x" * (talk.LONGEST + 1)
    refused = _say(clients["red"], game_id, long)
    assert refused.status_code == 422
    doc = parse(refused.get_data(as_text=True))
    assert "at most 500" in doc.find("p", cls="error").text
    assert doc.find("textarea", name="text", id="talk-text").text == long
    assert table_snapshot(app) == before


def test_the_page_keeps_the_pace_of_the_table(app, api):
    set_now(app, T0)
    game_id, keys, clients = _seated(app, api, ("red", "blue"))
    for n in range(talk.MOST_PER_WINDOW):
        assert _say(clients["red"], game_id, f"word {n}").status_code == 303
    set_now(app, T0 + timedelta(seconds=20))
    before = table_snapshot(app)
    refused = _say(clients["red"], game_id, "and another")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "40"
    assert "in 40 seconds" in refused.get_data(as_text=True)
    assert table_snapshot(app) == before


def test_a_person_holding_two_colours_writes_as_the_one_chosen(app, api):
    game_id, keys = api.new_two_colour_game(["red", "blue", "green", "yellow"])
    client = app.test_client()
    sign_in_seat(app, client, game_id, "red")
    doc = page(client, f"/games/{game_id}")
    options = [o.get("value") for o in doc.find("select", name="colour").find_all("option")]
    assert options == ["red", "blue"]
    assert _say(client, game_id, "blue speaks", colour="blue").status_code == 303
    assert _say(client, game_id, "green?", colour="green").status_code == 403
    assert _words(page(client, f"/games/{game_id}")) == [("blue", "First", "blue speaks")]


def test_the_poll_tells_a_seat_of_new_words_and_no_one_else(app, api):
    game_id, keys, clients = _seated(app, api, ("red", "blue"))
    poll = f"/games/{game_id}/seq"
    first = clients["blue"].get(poll)
    assert first.get_json() == {"seq": 0, "status": "active", "talk": None}
    etag = first.headers["ETag"]
    assert clients["blue"].get(poll, headers={"If-None-Match": etag}).status_code == 304
    _say(clients["red"], game_id, "your move")
    told = clients["blue"].get(poll, headers={"If-None-Match": etag})
    assert told.status_code == 200 and told.headers["ETag"] != etag
    last = _words(page(clients["blue"], f"/games/{game_id}"))
    assert last and told.get_json()["talk"] is not None
    assert app.test_client().get(poll).get_json()["talk"] is None  # the public: no hint


def test_notes_are_kept_from_the_page_and_shown_to_their_writer_alone(app, api):
    game_id, keys, clients = _seated(app, api)
    fields = _form(page(clients["blue"], f"/games/{game_id}"), f"/games/{game_id}/notes")
    saved = clients["blue"].post(f"/games/{game_id}/notes", data={**fields, "text": NOTE})
    assert saved.status_code == 303 and saved.headers["Location"].endswith("#notes")
    doc = page(clients["blue"], f"/games/{game_id}")
    assert doc.find("textarea", id="notes-text").text == NOTE
    assert "Your notes are saved." in doc.text
    for colour in ("red", "green"):
        html = clients[colour].get(f"/games/{game_id}").get_data(as_text=True)
        assert "NOTE-2231" not in html
    assert "NOTE-2231" not in app.test_client().get(f"/games/{game_id}").get_data(as_text=True)
    # Nothing a worker keeps of a page holds them.
    kept = [repr(part) for part in pages._PAGES._entries.values()]
    assert kept and not any("NOTE-2231" in part for part in kept)
    assert all("NOTE-2231" not in message for _, message in _outbox(app, "table_talk"))


def test_notes_past_their_size_are_refused_and_given_back(app, api):
    game_id, keys, clients = _seated(app, api, ("red", "blue"))
    fields = _form(page(clients["red"], f"/games/{game_id}"), f"/games/{game_id}/notes")
    clients["red"].post(f"/games/{game_id}/notes", data={**fields, "text": "short"})
    before = table_snapshot(app)
    long = "n" * (notes.LONGEST + 1)
    refused = clients["red"].post(f"/games/{game_id}/notes", data={**fields, "text": long})
    assert refused.status_code == 422
    doc = parse(refused.get_data(as_text=True))
    assert "at most 10000" in doc.find("p", cls="error").text
    assert doc.find("textarea", id="notes-text").text == long
    assert table_snapshot(app) == before


def test_words_to_the_table_say_when_on_the_page_in_the_mail_and_in_a_digest(app, api):
    """A game lasts weeks: each word to the table says when it was said, on the page (in
    UTC, the zone named, and as a <time> the page's script writes in the reader's zone),
    in the mail that passes it on and in a digest's part, in the reader's language."""
    game_id, keys, clients = _seated(app, api)
    said_prefs = api.client.put(
        "/api/players/me/preferences",
        json={"digest_hours": 24, "language": "de"},
        headers=api.auth(keys["green"]),
    )
    assert said_prefs.status_code == 200
    set_now(app, T0 + timedelta(days=3, hours=6, minutes=5))
    try:
        assert _say(clients["red"], game_id, "Buenos días").status_code == 303
    finally:
        set_now(app, None)
    doc = page(clients["blue"], f"/games/{game_id}")
    (item,) = doc.find("section", cls="table-talk").find_all("li", data_message=True)
    when = item.find("time", cls="said")
    assert when.get("datetime") == when.get("data-local") == "2026-12-04T18:05:00+00:00"
    assert when.text == "Fri, Dec 4, 18:05 UTC"
    with app.app_context():
        sender.compose_queued()
        rows = db.session.execute(
            sa.text("SELECT status, message FROM outbox WHERE kind = 'table_talk' ORDER BY id")
        ).all()
        db.session.remove()
    parts = {status: message for status, message in rows}
    mail = message_from_string(parts["queued"], policy=policy.default)  # blue's, at once
    text = " ".join(mail.get_body(("plain",)).get_content().split())
    assert 'wrote to the table in "' in text and "on Fri, Dec 4, 2026, 18:05 UTC:" in text
    assert "on Fri, Dec 4, 2026, 18:05 UTC:" in mail.get_body(("html",)).get_content()
    # Green's words wait for their digest, in German: its part says when too.
    assert "am Fr., 4. Dez. 2026, 18:05 UTC an den Tisch" in " ".join(parts["digest"].split())
