"""Making a game on the web (`/games/new`): no curl. The game is the API's own (the same
`create_game`), begins at once, and mails each friend their invitation."""

from __future__ import annotations

import pytest

from pbem.extensions import db
from pbem.store.models import Game, Notification
from tests.server.conftest import table_snapshot
from tests.server.test_bad_input import UNKEEPABLE
from tests.web.helpers import queued_mails, text_part
from tests.web.html import parse


def sign_in_with_key(client, key: str) -> str:
    """Sign the client in with its key; the session's CSRF token."""
    doc = parse(client.get("/sign-in").get_data(as_text=True))
    token = doc.find("input", name="csrf_token").get("value")
    assert client.post("/sign-in", data={"csrf_token": token, "api_key": key}).status_code == 303
    # Signing in starts a new session, with a token of its own.
    doc = parse(client.get("/games/new").get_data(as_text=True))
    return doc.find("input", name="csrf_token").get("value")


def form(token: str, **fields) -> dict:
    base = {
        "csrf_token": token,
        "title": "Sunday league",
        "colour-0": "red",
        "who-1": "friend",
        "colour-1": "blue",
        "email-1": "bea@example.org",
        "who-2": "bot",
        "colour-2": "green",
        "who-3": "",
        "who-4": "",
        "rounds": "6",
        "pace": "brisk",
        "weekends": "off",
    }
    return {**base, **fields}


def test_a_signed_in_player_makes_a_game_for_a_friend_and_a_bot(app, api, client):
    key = api.register("ada@example.org", "Ada")
    assert client.get("/games/new").status_code == 303  # signed out: sign in first
    token = sign_in_with_key(client, key)
    page = parse(client.get("/games/new").get_data(as_text=True))
    assert page.find("main").find("form").find("input", name="title") is not None
    answer = client.post("/games/new", data=form(token))
    assert answer.status_code == 303
    game_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    view = api.get(f"/api/games/{game_id}", key).get_json()
    assert view["title"] == "Sunday league" and view["rounds_total"] == 6
    summary = next(g for g in api.get("/api/games", key).get_json()["games"] if g["id"] == game_id)
    assert [(s["colour"], s["name"], s["bot"], s["invited"]) for s in summary["seats"]] == [
        ("red", "Ada", False, False),
        ("blue", "bea", False, True),
        ("green", "Bot 1", True, False),  # a house bot has no key, but was invited by no one
    ]
    with app.app_context():
        timing = db.session.get_one(Game, game_id).timing
        assert timing["turn_hours"] == 24 and timing["quiet_days"] == ["sat", "sun"]
        db.session.remove()
    with app.app_context():
        sent = db.session.execute(
            db.select(Notification.kind).where(
                Notification.game_id == game_id, Notification.recipient == "bea@example.org"
            )
        ).scalars()
        assert "welcome" in set(sent)
        db.session.remove()
    board = parse(client.get(answer.headers["Location"]).get_data(as_text=True))
    assert "has begun" in board.find("p", cls="flash").text
    assert "bea@example.org" in board.find("p", cls="flash").text
    assert "You play" in board.find("div", cls="game-head").text


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"who-1": "", "who-2": ""}, "3 to 5 seats"),
        ({"email-1": ""}, "give their email address"),
        ({"colour-1": "red"}, "a colour is given twice"),
        ({"title": " "}, "Give the game a title"),
        ({"email-1": "ada@example.org"}, "an email is given twice"),
    ],
)
def test_a_form_that_makes_no_game_says_what_to_mend_and_keeps_what_was_typed(
    app, api, client, fields, says
):
    key = api.register("cy@example.org", "Cy")
    token = sign_in_with_key(client, key)
    # Ada's own email, for the "given twice" case: the form's own seat is Cy's.
    fields = {k: v.replace("ada@", "cy@") for k, v in fields.items()}
    before = table_snapshot(app)
    answer = client.post("/games/new", data=form(token, **fields))
    assert answer.status_code == 422
    page = parse(answer.get_data(as_text=True))
    assert says in page.find("p", cls="error").text
    assert page.find("input", name="title").get("value") == form(token, **fields)["title"]
    # "Wait for everyone" was left unchecked: it stays so (a GET checks it by default).
    assert "checked" not in page.find("input", name="forming").attrs
    assert table_snapshot(app) == before


def test_the_form_needs_its_csrf_token(app, api, client):
    key = api.register("dee@example.org", "Dee")
    token = sign_in_with_key(client, key)
    data = form(token)
    data.pop("csrf_token")
    before = table_snapshot(app)
    assert client.post("/games/new", data=data).status_code == 400
    assert table_snapshot(app) == before


def test_a_friends_seat_may_be_given_the_name_the_table_knows_them_by(app, api, client):
    key = api.register("eve@example.org", "Eve")
    api.register("fay@example.org", "Fay")
    token = sign_in_with_key(client, key)
    fresh = parse(client.get("/games/new").get_data(as_text=True))
    assert "checked" in fresh.find("input", name="forming").attrs
    fields = {
        "email-1": "gus@example.org",
        "name-1": "  Gustavo ",
        "who-2": "friend",
        "email-2": "fay@example.org",
        "name-2": "Not Fay",  # she plays here already: her own name stays
        "forming": "yes",
    }
    answer = client.post("/games/new", data=form(token, **fields))
    assert answer.status_code == 303
    game_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    summary = next(g for g in api.get("/api/games", key).get_json()["games"] if g["id"] == game_id)
    assert [s["name"] for s in summary["seats"]] == ["Eve", "Gustavo", "Fay"]
    # The invitation shows the table by those names.
    (invitation,) = queued_mails(app, "invitation", game_id=game_id, recipient="gus@example.org")
    assert "Gustavo" in text_part(invitation[1]) and "Not Fay" not in text_part(invitation[1])


def test_the_api_names_a_newcomers_seat_too(app, api):
    key = api.register("hal@example.org", "Hal")
    seats = [
        {"email": "hal@example.org", "colour": "red"},
        {"email": "ivo@example.org", "colour": "blue", "name": "Ivo M."},
        {"bot": True, "colour": "green"},
    ]
    made = api.client.post(
        "/api/games", json={"title": "Named", "seats": seats}, headers=api.auth(key)
    )
    assert made.status_code == 201, made.get_json()
    names = [s["name"] for s in made.get_json()["seats"]]
    assert names[:2] == ["Hal", "Ivo M."]
    too_long = {**seats[1], "name": "x" * 101}
    refused = api.client.post(
        "/api/games",
        json={"title": "Named", "seats": [seats[0], too_long, seats[2]]},
        headers=api.auth(key),
    )
    assert refused.status_code == 422 and "name" in refused.get_data(as_text=True)


def test_a_time_bank_game_made_on_the_form(app, api, client):
    key = api.register("ada@example.org", "Ada")
    token = sign_in_with_key(client, key)
    page = parse(client.get("/games/new").get_data(as_text=True))
    # Offered beside the presets, with 5 days / 1 day / 10 days filled in.
    assert page.find("input", name="pace", value="bank") is not None
    defaults = {
        n: page.find("input", name=n).get("value")
        for n in ("bank_days", "increment_days", "cap_days")
    }
    assert defaults == {"bank_days": "5", "increment_days": "1", "cap_days": "10"}
    answer = client.post(
        "/games/new",
        data=form(token, pace="bank", bank_days="3", increment_days="1", cap_days="7"),
    )
    assert answer.status_code == 303
    game_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        timing = db.session.get_one(Game, game_id).timing
        db.session.remove()
    assert timing["clock"] == {"bank_hours": 72, "increment_hours": 24, "cap_hours": 168}
    assert timing["quiet_days"] == ["sat", "sun"]  # weekends off still stop the clock
    view = api.get(f"/api/games/{game_id}", key).get_json()
    assert {c: s["bank_seconds"] for c, s in view["clock"].items()} == {
        "red": 72 * 3600,
        "blue": 72 * 3600,
        "green": 72 * 3600,
    }


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"increment_days": "8", "cap_days": "7"}, "days added per answer cannot be more"),
        ({"bank_days": "9", "cap_days": "7"}, "cannot start with more days"),
        ({"bank_days": "0"}, "give whole days from 1 to 60"),
        ({"cap_days": "ten"}, "give whole days from 1 to 60"),
    ],
)
def test_an_unsound_time_bank_on_the_form_says_what_to_mend(app, api, client, fields, says):
    key = api.register("cy@example.org", "Cy")
    token = sign_in_with_key(client, key)
    answer = client.post("/games/new", data=form(token, pace="bank", **fields))
    assert answer.status_code == 422
    page = parse(answer.get_data(as_text=True))
    assert says in page.find("p", cls="error").text
    assert "checked" in page.find("input", name="pace", value="bank").attrs


@pytest.mark.parametrize("bad", UNKEEPABLE.values(), ids=UNKEEPABLE)
@pytest.mark.parametrize("field", ["title", "name-1", "name-2"])
def test_a_title_or_seat_name_that_cannot_be_kept_is_refused_and_changes_nothing(
    app, api, client, field, bad
):
    typed, says, _code = bad
    key = api.register("jo@example.org", "Jo")
    token = sign_in_with_key(client, key)
    fields = {"who-2": "friend", "email-2": "kit@example.org", field: typed}
    before = table_snapshot(app)
    answer = client.post("/games/new", data=form(token, **fields))
    assert answer.status_code == 422
    page = parse(answer.get_data(as_text=True))
    said = page.find("p", cls="error").text
    if field == "title":
        assert f"This title {says}" in said
    else:  # the seat named as the form numbers it, and its colour
        seat, colour = ("2", "blue") if field == "name-1" else ("3", "green")
        assert f"The name given to seat {seat} ({colour}) is refused: This name {says}" in said
    # The form again, with what was typed in it.
    assert page.find("input", name="email-2").get("value") == "kit@example.org"
    assert table_snapshot(app) == before
