"""Choosing a language: a player's own choice (API, `/me`, `language it` by mail), else the
browser's for pages, else the game's for mails, else English; each mail in its recipient's
language, so one game can write in several."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.store.models import Player
from tests.server.mail_helpers import body_html, body_text
from tests.server.mailin_helpers import reply
from tests.server.test_mail_in import inbound, latest_with_moves, start, to_move
from tests.server.test_mail_out import deliver
from tests.web.html import parse
from tests.web.test_new_game import sign_in_with_key

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([a-z]+)"', html)
    assert found is not None, html[:200]
    return found[1]


def language_of_player(app, email: str) -> str | None:
    with app.app_context():
        player = db.session.execute(sa.select(Player).where(Player.email == email)).scalar_one()
        chosen = (player.preferences or {}).get("language")
        db.session.remove()
    return chosen


def test_pages_follow_the_browser_then_the_readers_choice(app, client):
    assert html_lang(client.get("/rules").get_data(as_text=True)) == "en"
    german = {"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}
    assert html_lang(client.get("/rules", headers=german).get_data(as_text=True)) == "de"
    unknown = {"Accept-Language": "ja"}
    assert html_lang(client.get("/rules", headers=unknown).get_data(as_text=True)) == "en"
    # The links at a page's foot choose for the session, and come back to the page.
    page = parse(client.get("/rules").get_data(as_text=True))
    links = {a.get("lang"): a.get("href") for a in page.find("nav", cls="languages").find_all("a")}
    assert set(links) == {"en", "de", "fr", "it", "es", "ru"}
    back = client.get(links["fr"], headers={"Referer": "http://localhost/rules"})
    assert back.status_code == 303 and back.headers["Location"] == "/rules"
    assert html_lang(client.get("/rules", headers=german).get_data(as_text=True)) == "fr"
    # Off-site referrers are not followed back; an unknown language is a 404.
    away = client.get(links["it"], headers={"Referer": "https://evil.test/x"})
    assert away.headers["Location"] == "/"
    assert client.get("/language/xx").status_code == 404
    assert client.get("/language/DE").status_code == 404


def test_a_players_choice_is_kept_for_mails_and_pages(app, api, client):
    key = api.register(f"lia-{uuid.uuid4().hex[:6]}@example.org", "Lia")
    token = sign_in_with_key(client, key)
    chosen = client.post("/me", data={"csrf_token": token, "action": "language", "language": "it"})
    assert chosen.status_code == 303
    assert api.get("/api/players/me/preferences", key).get_json()["language"] == "it"
    assert html_lang(client.get("/me").get_data(as_text=True)) == "it"
    # A new session (another device) starts in it too.
    other = app.test_client()
    sign_in_with_key(other, key)
    assert html_lang(other.get("/rules").get_data(as_text=True)) == "it"
    # Back to "each game's": pages follow the browser again.
    client.post("/me", data={"csrf_token": token, "action": "language", "language": ""})
    assert api.get("/api/players/me/preferences", key).get_json()["language"] is None
    assert html_lang(client.get("/rules").get_data(as_text=True)) == "en"
    # The API checks what it is given.
    put = api.client.put(
        "/api/players/me/preferences", json={"language": "xx"}, headers=api.auth(key)
    )
    assert put.status_code == 422 and "language" in put.get_data(as_text=True)


def test_mails_are_in_each_recipients_language_else_the_games(mail_app, mail_api, smtp):
    tag = uuid.uuid4().hex[:6]
    emails = {c: f"{c}-{tag}@example.org" for c in ("red", "blue", "green")}
    keys = {c: mail_api.register(e, c.title()) for c, e in emails.items()}
    put = mail_api.client.put(
        "/api/players/me/preferences", json={"language": "fr"}, headers=mail_api.auth(keys["blue"])
    )
    assert put.status_code == 200
    body = {
        "title": f"Partie {tag}",
        "seats": [{"email": e, "colour": c} for c, e in emails.items()],
        "language": "de",
    }
    made = mail_api.client.post("/api/games", json=body, headers=mail_api.auth(keys["red"]))
    assert made.status_code == 201, made.get_json()
    deliver(mail_app)
    langs = {c: {html_lang(body_html(m)) for m in smtp.inbox.to(e)} for c, e in emails.items()}
    assert langs == {"red": {"de"}, "blue": {"fr"}, "green": {"de"}}
    refused = mail_api.client.post(
        "/api/games", json={**body, "language": "tlh"}, headers=mail_api.auth(keys["red"])
    )
    assert refused.status_code == 422


def test_a_reply_chooses_the_language_of_what_comes_next(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    (colour,) = to_move(mail_api, game_id)
    email = seats[colour]
    mail = latest_with_moves(smtp, email)
    result = inbound(mail_app, reply(mail, "language klingon", sender=email))
    deliver(mail_app)
    assert result.outcome == "answered"
    said = body_text(smtp.inbox.to(email)[-1])
    assert "en (English)" in said and "ru (Русский)" in said
    assert language_of_player(mail_app, email) is None
    inbound(mail_app, reply(mail, "language Español", sender=email))
    deliver(mail_app)
    assert language_of_player(mail_app, email) == "es"
    assert html_lang(body_html(smtp.inbox.to(email)[-1])) == "es"


def test_moments_are_written_by_babel_in_each_language(app):
    from pbem.languages import in_language, moment_text

    moment = datetime(2026, 11, 28, 6, 28, tzinfo=UTC)
    written = {}
    with app.app_context():
        for code in ("en", "de", "fr", "it", "es", "ru"):
            with in_language(code):
                written[code] = moment_text(moment, year=True)
        with in_language("de"):
            naive_iso = moment_text("2026-11-28T06:28:00")  # SQLite's moments have no zone
    assert written["en"] == "Sat, Nov 28, 2026, 06:28 UTC"
    assert written["de"].startswith("Sa., 28. Nov. 2026")
    assert written["fr"].startswith("sam. 28 nov. 2026")
    assert written["ru"].startswith("сб, 28 нояб. 2026")
    assert all(w.endswith(", 06:28 UTC") or w.endswith(" 6:28 UTC") for w in written.values())
    assert naive_iso == "Sa., 28. Nov., 06:28 UTC"


def test_a_templates_underscore_is_jinjas_own_in_one_call(app):
    """A template's `_("...")` (the pages', the board's and the mails' environments) gives
    what Jinja's newstyle gettext gives: translated, escaped where the template escapes,
    `%%` written `%`, and any placeholder filled, one called `text` too."""
    import jinja2

    from pbem.languages import in_language, install_in
    from pbem.web.board import environment

    source = (
        '{{ _("Sign in") }}|{{ _("50%% of %(text)s", text=word) }}|{{ _("%(num)s <b>", num=n) }}'
    )
    jinjas = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    ours = jinja2.Environment(autoescape=True)
    install_in(ours)
    with app.app_context(), in_language("de"):
        from pbem.languages import translations

        jinjas.install_gettext_callables(  # type: ignore[attr-defined]
            translations().ugettext, translations().ungettext, newstyle=True
        )
        values = {"word": "<i>", "n": 3}
        expected = jinjas.from_string(source).render(values)
        # The text itself is the template's own markup; what fills it is escaped.
        assert expected == "Anmelden|50% of &lt;i&gt;|3 <b>"
        for env in (ours, environment(), app.jinja_env):
            assert env.from_string(source).render(values) == expected


def test_a_queued_deadline_is_written_in_its_recipients_language(app):
    from pbem.languages import in_language
    from pbem.notify.compose import deadline_text, when

    kept = when(datetime(2026, 11, 28, 6, 28, tzinfo=UTC))
    with app.app_context():
        with in_language("ru"):
            written = deadline_text(kept) or ""
            assert " ".join(written.split()) == "сб, 28 нояб. 2026 г., 06:28 UTC"
        # Queued by a version that wrote it at once: kept as it was written.
        assert deadline_text("Sat 28 Nov 2026, 06:28 UTC") == "Sat 28 Nov 2026, 06:28 UTC"
        assert deadline_text(None) is None


def test_cyrillic_travels_as_base64_and_latin_text_as_quoted_printable():
    from pbem.notify.compose import transfer_encoding

    assert transfer_encoding("Ваш ход. Сыграйте карту силы, Кабальеро ждут.") == "base64"
    assert transfer_encoding("Du bist am Zug. Wähle eine Aktionskarte.") == "quoted-printable"
    assert transfer_encoding("Tu turno: elige una carta de acción.") == "quoted-printable"
    # Markup around a few Cyrillic words stays readable in quoted-printable.
    assert transfer_encoding(f'<p style="{"x" * 400}">Ваш ход</p>') == "quoted-printable"


def test_a_notice_waits_as_words_and_is_written_in_each_readers_language(mail_app, mail_api, smtp):
    """A notice (here: the organiser puts a deadline off) is queued as data, with no text of
    any language in its row, and each reader gets it in theirs: the colour's name, the
    hours and the moment as their language writes them."""
    import json

    from pbem.store.models import Notification

    tag = uuid.uuid4().hex[:6]
    emails = {c: f"{c}-{tag}@example.org" for c in ("red", "blue", "green")}
    keys = {c: mail_api.register(e, c.title()) for c, e in emails.items()}
    for colour, language in (("blue", "de"), ("green", "ru")):
        put = mail_api.client.put(
            "/api/players/me/preferences",
            json={"language": language},
            headers=mail_api.auth(keys[colour]),
        )
        assert put.status_code == 200
    body = {"title": f"Game {tag}", "seats": [{"email": e, "colour": c} for c, e in emails.items()]}
    made = mail_api.client.post("/api/games", json=body, headers=mail_api.auth(keys["red"]))
    game_id = made.get_json()["id"]
    view = mail_api.client.get(f"/api/games/{game_id}").get_json()
    pending = view["pending"][0]["player"]
    client = mail_app.test_client()
    sign_in_with_key(client, keys["red"])
    page = parse(client.get(f"/games/{game_id}/organise").get_data(as_text=True))
    token = page.find("input", name="csrf_token").get("value")
    form = {"csrf_token": token, "action": "extend", "colour": pending, "hours": "24"}
    assert client.post(f"/games/{game_id}/organise", data=form).status_code == 303
    with mail_app.app_context():
        rows = db.session.execute(
            sa.select(Notification.message, Notification.payload).where(
                Notification.kind == "notice", Notification.game_id == game_id
            )
        ).all()
    assert len(rows) == 3 and all(message == "" for message, _ in rows)  # the sender composes
    kept = json.dumps([payload for _, payload in rows])
    assert "more time for %(colour)s" in kept and "UTC" not in kept
    deliver(mail_app)

    def notice_to(colour: str) -> tuple[str, str]:
        (mail,) = [m for m in smtp.inbox.to(emails[colour]) if "24" in body_text(m)]
        return str(mail["Subject"]), " ".join(body_text(mail).split())

    english, german, russian = notice_to("red"), notice_to("blue"), notice_to("green")
    names = {"de": {"red": "rot", "blue": "blau", "green": "grün"}}
    assert english[0].endswith(f"more time for {pending}")
    assert "gave " + pending + " 24 hours more: due " in english[1] and "UTC" in english[1]
    assert names["de"][pending] in german[0].lower() and names["de"][pending] in german[1].lower()
    assert "24" in german[1] and "UTC" in german[1] and "hours" not in german[1]
    assert re.search("[а-я]", russian[0]) and re.search("[а-я]", russian[1]) and "UTC" in russian[1]
