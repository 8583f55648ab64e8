"""Doors an attacker's review found open, closed: table talk of invisible characters at
every door, the talk limit under concurrency, webhook hosts refused when set by the same
check as when sent, address-change links spent by any change of address, and mail links
never taken from the request's Host header."""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.notify import sender, webhooks
from pbem.play import settings, talk
from pbem.store.models import Notification
from tests.server.conftest import assert_problem, table_snapshot
from tests.server.mailin_helpers import reply
from tests.server.test_mail_in import inbound, latest_with_moves, start, to_move

INVISIBLE = [
    "\u200b",  # zero-width space
    "\u200c\u200d",  # zero-width non-joiner and joiner
    "\u2060\ufeff",  # word joiner, byte-order mark
    " \u00a0\u200b\u3000 ",  # spaces of other widths, and none
    "\u202e\u200f",  # direction marks
    "\u3164",  # Hangul filler
    "\u2800",  # blank Braille pattern
    "\u0301",  # a combining accent on nothing
]


def _write(api, game_id, key, text):
    return api.client.post(
        f"/api/games/{game_id}/messages", json={"text": text}, headers=api.auth(key)
    )


@pytest.mark.parametrize("text", INVISIBLE)
def test_invisible_words_to_the_table_are_refused_by_the_api(app, api, text):
    game_id, keys = api.new_game(["red", "blue"])
    before = table_snapshot(app)
    refused = assert_problem(_write(api, game_id, keys["red"], text), 422)
    assert "only invisible characters" in refused["detail"]
    assert table_snapshot(app) == before
    # Visible words with them are fine.
    assert _write(api, game_id, keys["red"], f"hi{text}").status_code == 201


def test_the_talk_limit_holds_for_messages_sent_at_once(app, api, monkeypatch):
    game_id, keys = api.new_game(["red", "blue"])
    # Each message takes a while between its check and its commit, so that all of them
    # have been checked before any commits: the count must still hold.
    real = talk.game_mails.table_talk

    def slow(*args, **kwargs):
        time.sleep(0.05)
        return real(*args, **kwargs)

    monkeypatch.setattr(talk.game_mails, "table_talk", slow)
    barrier = threading.Barrier(16)
    codes: list[int] = []

    def send(number: int) -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post(
            f"/api/games/{game_id}/messages",
            json={"text": f"word {number}"},
            headers=api.auth(keys["red"]),
        )
        codes.append(response.status_code)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(codes) == [201] * talk.MOST_PER_WINDOW + [429] * (16 - talk.MOST_PER_WINDOW)
    with app.app_context():
        kept = db.session.execute(
            sa.text("SELECT count(*) FROM table_talk WHERE game_id = :g"), {"g": game_id}
        ).scalar_one()
        db.session.remove()
    assert kept == talk.MOST_PER_WINDOW


def test_an_invisible_line_in_a_reply_is_refused_and_passed_on_to_no_one(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    before = table_snapshot(mail_app)
    result = inbound(mail_app, reply(mail, "\u200b\u200d\n\u3164", sender=seats[colour]))
    assert (result.outcome, result.reason) == ("refused", "invisible")
    with mail_app.app_context():
        talked = db.session.execute(sa.text("SELECT count(*) FROM table_talk")).scalar_one()
        sender.compose_queued()  # as the sender composes the answer before it sends it
        answer = db.session.execute(
            sa.select(Notification.message).order_by(Notification.id.desc()).limit(1)
        ).scalar_one()
        db.session.remove()
    assert talked == 0
    assert before["games"] == table_snapshot(mail_app)["games"]
    assert "only invisible characters" in " ".join((answer or "").split()) or answer is None


HOSTS = [
    "localhost.",
    "LOCALHOST",
    "localhost..",
    "127.1",
    "127.0.0.1.",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "0.0.0.0",
    "0",
    "2130706433",
    "0x7f000001",
    "printer.local.",
    "\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54",  # full-width "localhost"
    "localhost.localdomain",
    "169.254.169.254",
    "[fe80::1]",
]


@pytest.mark.parametrize("host", HOSTS)
def test_a_webhook_to_this_machine_is_refused_when_it_is_set(app, api, host):
    game_id, keys = api.new_game(["red", "blue"])
    url = f"https://{host}/hook"
    before = table_snapshot(app)
    response = api.client.put(
        "/api/players/me/preferences",
        json={"webhooks": [{"game_id": game_id, "url": url}]},
        headers=api.auth(keys["red"]),
    )
    # Refused by the schema (not a URL it reads) or by the host check: either way, said.
    detail = assert_problem(response, 422)["detail"]
    assert "public addresses" in detail or "Not a valid URL" in detail
    assert table_snapshot(app) == before
    # The very check the sender makes before it posts.
    with pytest.raises(webhooks.WebhookRefused):
        webhooks.post(url, "{}", {})


def test_the_set_time_check_is_the_send_time_one(app, api, monkeypatch):
    game_id, keys = api.new_game(["red", "blue"])
    asked: list[str] = []

    def refusal(url, config, door=webhooks.WEBHOOK):
        asked.append(url)
        return f"{door.noun} go only to public addresses; refused here."

    monkeypatch.setattr(webhooks, "refusal", refusal)
    response = api.client.put(
        "/api/players/me/preferences",
        json={"webhooks": [{"game_id": game_id, "url": "https://hooks.example.org/x"}]},
        headers=api.auth(keys["red"]),
    )
    assert_problem(response, 422)
    assert asked == ["https://hooks.example.org/x"]
    assert settings.webhooks is webhooks
    with pytest.raises(webhooks.WebhookRefused):
        webhooks.post("https://hooks.example.org/y", "{}", {})
    assert asked[-1] == "https://hooks.example.org/y"
    # A browser's push endpoint goes through the same check, with its own settings.
    point = "BA" + "A" * 85  # the form the schema wants; the check refuses before the keys
    subscription = {"endpoint": "https://push.example.org/z", "keys": {"p256dh": point}}
    subscription["keys"]["auth"] = "A" * 22
    response = api.client.post(
        "/api/players/me/push-subscriptions", json=subscription, headers=api.auth(keys["red"])
    )
    assert "Push notifications go only" in assert_problem(response, 422)["detail"]
    assert asked[-1] == "https://push.example.org/z"


def test_a_games_mails_queued_in_a_request_never_link_to_its_host(app, api):
    app.config.pop("PBEM_BASE_URL", None)
    game_id, keys = api.new_game(["red", "blue"])
    evil = {**api.auth(keys["red"]), "Host": "evil.test"}
    written = api.client.post(
        f"/api/games/{game_id}/messages", json={"text": "hello"}, headers=evil
    )
    assert written.status_code == 201
    # The sender composes them (each pass); even composed in such a request, not its host.
    with app.test_request_context("/", headers={"Host": "evil.test"}):
        sender.compose_queued()
        db.session.remove()
    with app.app_context():
        mails = (
            db.session.execute(
                sa.select(Notification.message).where(Notification.game_id == game_id)
            )
            .scalars()
            .all()
        )
        db.session.remove()
    composed = [m for m in mails if m]
    assert composed and all("evil.test" not in m for m in composed)
    assert any("http://127.0.0.1:5000/games/" in m for m in composed)
