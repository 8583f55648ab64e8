"""`/me` beyond the name and the key: a new address, confirmed by a link mailed to it; webhooks
for a game one plays in; how often mail comes; and signing out of every session at once. And
what no name may hold, refused on `/me` as at every door."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest

from pbem.extensions import db
from pbem.store.models import Player
from tests.server.conftest import table_snapshot
from tests.server.test_bad_input import UNKEEPABLE
from tests.web.helpers import queued_mails, sign_in_seat, text_part
from tests.web.html import parse
from tests.web.test_new_game import sign_in_with_key
from tests.web.test_sign_in_by_mail import Clock


@pytest.fixture
def clock(app):
    from pbem.clock import set_now

    yield Clock(app)
    set_now(app, None)


def email_of(app, player_id: int) -> str:
    with app.app_context():
        email = db.session.get_one(Player, player_id).email
        db.session.remove()
    return email


def player_id_of(app, email: str) -> int:
    with app.app_context():
        query = db.select(Player.id).where(Player.email == email)
        found = db.session.execute(query).scalar_one()
        db.session.remove()
    return found


def me_form(client) -> str:
    page = parse(client.get("/me").get_data(as_text=True))
    return page.find("input", name="csrf_token").get("value")


def change_link(app, email: str) -> str:
    """The path of the newest address-change link mailed to `email`, from its text part."""
    mails = [message for _, message in queued_mails(app, "email_change", recipient=email)]
    assert mails, f"no address-change mail to {email}"
    found = re.search(r"https?://\S+/me/email/\S+", text_part(mails[-1]))
    assert found is not None
    return urlsplit(found[0]).path


def test_a_new_address_is_the_players_only_once_its_mailed_link_is_followed(
    app, api, client, clock
):
    key = api.register("tess@example.org", "Tess")
    me = player_id_of(app, "tess@example.org")
    token = sign_in_with_key(client, key)
    answer = client.post("/me", data={"csrf_token": token, "action": "email", "email": "T@New.org"})
    assert answer.status_code == 303
    said = parse(client.get("/me").get_data(as_text=True)).find("p", cls="flash").text
    assert "A link went to t@new.org" in said and "still goes to tess@example.org" in said
    assert email_of(app, me) == "tess@example.org"  # nothing changes before the link
    link = change_link(app, "t@new.org")

    # Opening the link (a mail scanner may, from anywhere) only asks.
    stranger = app.test_client()
    before = table_snapshot(app)
    asked = parse(stranger.get(link).get_data(as_text=True))
    assert "make t@new.org your address here" in asked.find("form").text.replace("\n", " ")
    assert table_snapshot(app) == before
    csrf = asked.find("input", name="csrf_token").get("value")
    done = stranger.post(link, data={"csrf_token": csrf})
    assert done.status_code == 303
    assert email_of(app, me) == "t@new.org"
    # The old address is told, so a change its owner did not make shows.
    (notice,) = [m for _, m in queued_mails(app, "email_changed", recipient="tess@example.org")]
    assert "is now t@new.org" in text_part(notice)
    # Spent: the link works no more.
    again = stranger.get(link)
    assert again.status_code == 403 and "has done its work" in again.get_data(as_text=True)
    # The API key is the same player's, under the new address.
    assert api.get("/api/players/me/preferences", key).status_code == 200


def test_an_address_change_refused_changes_nothing(app, api, client, clock):
    key = api.register("uma@example.org", "Uma")
    api.register("vic@example.org", "Vic")
    me = player_id_of(app, "uma@example.org")
    token = sign_in_with_key(client, key)
    for bad, said in [
        ("not an address", "has no spaces"),
        ("uma@example.org", "is your address already"),
        ("bot@example.invalid", "No mail reaches"),
    ]:
        before = table_snapshot(app)
        answer = client.post("/me", data={"csrf_token": token, "action": "email", "email": bad})
        assert answer.status_code == 422 and said in answer.get_data(as_text=True)
        assert table_snapshot(app) == before
    # Another player's address: the link goes out (the page says nothing of who plays
    # here), and following it is refused, telling only the holder of that mailbox.
    client.post("/me", data={"csrf_token": token, "action": "email", "email": "vic@example.org"})
    link = change_link(app, "vic@example.org")
    csrf = parse(client.get(link).get_data(as_text=True)).find("input", name="csrf_token")
    refused = client.post(link, data={"csrf_token": csrf.get("value")})
    assert refused.status_code == 422
    assert "already the address of another player" in refused.get_data(as_text=True)
    assert email_of(app, me) == "uma@example.org"
    # A link past its day, or altered, changes nothing either.
    client.post("/me", data={"csrf_token": token, "action": "email", "email": "uma@later.org"})
    late = change_link(app, "uma@later.org")
    clock(timedelta(hours=25))
    assert "has expired" in client.get(late).get_data(as_text=True)
    clock(timedelta(0))
    forged = late[:-3] + ("aaa" if not late.endswith("aaa") else "bbb")
    assert client.get(forged).status_code == 403
    assert email_of(app, me) == "uma@example.org"


def test_address_change_links_are_limited_per_hour(app, api, client, clock):
    key = api.register("wes@example.org", "Wes")
    token = sign_in_with_key(client, key)
    for number in range(3):
        data = {"csrf_token": token, "action": "email", "email": f"wes{number}@new.org"}
        assert client.post("/me", data=data).status_code == 303
    data = {"csrf_token": token, "action": "email", "email": "wes9@new.org"}
    refused = client.post("/me", data=data)
    assert refused.status_code == 429 and "try again later" in refused.get_data(as_text=True)
    assert queued_mails(app, "email_change", recipient="wes9@new.org") == []
    clock(timedelta(hours=1, minutes=1))
    assert client.post("/me", data=data).status_code == 303


def test_signing_out_everywhere_ends_every_session_of_the_player(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    phone = app.test_client()
    sign_in_seat(app, phone, game_id, "red")  # by the mail's link, on another device
    token = sign_in_with_key(client, keys["red"])
    board = parse(phone.get(f"/games/{game_id}").get_data(as_text=True))
    assert "You play" in board.find("div", cls="game-head").text
    talk = {"csrf_token": me_form(phone), "text": "hola"}
    assert phone.post(f"/games/{game_id}/messages", data=talk).status_code == 303
    assert phone.get(f"/games/{game_id}/seq").get_json()["talk"] is not None

    answer = client.post("/me", data={"csrf_token": token, "action": "sign_out_everywhere"})
    assert answer.status_code == 303
    assert "signed out everywhere" in client.get("/").get_data(as_text=True)
    assert client.get("/me").status_code == 303  # this one too

    # The phone's cookie is still signed, but its session is over: every read says so.
    assert parse(phone.get("/").get_data(as_text=True)).find("a", cls="me") is None
    board = parse(phone.get(f"/games/{game_id}").get_data(as_text=True))
    assert "You play" not in board.find("div", cls="game-head").text
    assert phone.get(f"/games/{game_id}/seq").get_json()["talk"] is None
    assert phone.get("/me").status_code == 303
    refused = phone.post(f"/games/{game_id}/messages", data={**talk, "text": "otra vez"})
    assert refused.status_code == 403
    # The API key is no session: it still works. Signing in again starts a good session.
    assert api.get("/api/players/me/preferences", keys["red"]).status_code == 200
    sign_in_seat(app, phone, game_id, "red")
    board = parse(phone.get(f"/games/{game_id}").get_data(as_text=True))
    assert "You play" in board.find("div", cls="game-head").text


def test_webhooks_are_added_for_ones_own_games_and_removed(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    other_id, _ = api.new_game(["red", "blue", "green"])
    token = sign_in_with_key(client, keys["red"])
    page = parse(client.get("/me").get_data(as_text=True))
    offered = [o.get("value") for o in page.find("select", name="game").find_all("option")]
    assert str(game_id) in offered and str(other_id) not in offered
    hook = {"csrf_token": token, "action": "webhook", "game": str(game_id)}
    url = "https://chat.example.org/api/webhooks/1/abc"
    assert client.post("/me", data={**hook, "url": url, "format": "slack"}).status_code == 303
    (kept,) = api.get("/api/players/me/preferences", keys["red"]).get_json()["webhooks"]
    assert kept == {"game_id": game_id, "url": url, "format": "slack"}
    shown = parse(client.get("/me").get_data(as_text=True)).find("li", data_webhook="0")
    assert url in shown.text and "Slack" in shown.text

    for data, said in [
        ({**hook, "game": str(other_id), "url": url}, "You have no seat in game"),
        ({**hook, "url": "https://127.0.0.1/hook"}, "127.0.0.1"),
        ({**hook, "url": "javascript:alert(1)"}, "starting https://"),
    ]:
        before = table_snapshot(app)
        answer = client.post("/me", data=data)
        assert answer.status_code == 422 and said in answer.get_data(as_text=True), data
        assert table_snapshot(app) == before

    remove = {"csrf_token": token, "action": "webhook_remove", "webhook": "0"}
    assert client.post("/me", data=remove).status_code == 303
    assert api.get("/api/players/me/preferences", keys["red"]).get_json()["webhooks"] == []
    assert client.post("/me", data=remove).status_code == 422  # gone already


def test_mail_may_come_gathered_into_a_digest(app, api, client):
    key = api.register("xia@example.org", "Xia")
    token = sign_in_with_key(client, key)
    data = {"csrf_token": token, "action": "mail", "mail": ["decision"], "digest_hours": "12"}
    assert client.post("/me", data=data).status_code == 303
    assert api.get("/api/players/me/preferences", key).get_json()["digest_hours"] == 12
    page = parse(client.get("/me").get_data(as_text=True))
    assert "selected" in page.find("option", value="12").attrs
    # An hour count the page does not offer is taken as "each at once".
    assert client.post("/me", data={**data, "digest_hours": "5"}).status_code == 303
    assert api.get("/api/players/me/preferences", key).get_json()["digest_hours"] == 0


@pytest.mark.parametrize("bad", UNKEEPABLE.values(), ids=UNKEEPABLE)
def test_a_name_that_cannot_be_kept_is_refused_on_me_and_changes_nothing(app, api, client, bad):
    typed, says, _code = bad
    key = api.register("ida@example.org", "Ida")
    token = sign_in_with_key(client, key)
    before = table_snapshot(app)
    answer = client.post("/me", data={"csrf_token": token, "action": "name", "name": typed})
    assert answer.status_code == 422
    page = parse(answer.get_data(as_text=True))
    assert f"This name {says}" in page.find("p", cls="error").text
    # The page again, its name form with it, the name as it was.
    assert page.find("input", name="name").get("value") == "Ida"
    assert table_snapshot(app) == before


@pytest.mark.parametrize(
    "url", ["https://chat.example.org/hook\x00", "https://chat\x00.example.org/"]
)
def test_a_nul_in_a_webhooks_url_is_refused_on_me_and_changes_nothing(app, api, client, url):
    # The host's look-up once failed on a NUL: a 500.
    game_id, keys = api.new_game(["red", "blue", "green"])
    token = sign_in_with_key(client, keys["red"])
    before = table_snapshot(app)
    hook = {"csrf_token": token, "action": "webhook", "game": str(game_id), "url": url}
    answer = client.post("/me", data=hook)
    assert answer.status_code == 422
    said = parse(answer.get_data(as_text=True)).find("p", cls="error").text
    assert "This webhook URL holds a control or invisible character" in said
    assert table_snapshot(app) == before
