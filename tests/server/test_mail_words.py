"""Every mail in its reader's words: the "orders played" mail in its recipient's language
whoever's move set the orders off, colours named in the reader's language (talk subjects,
the board's table), and one word for "game" per language in pages and mails."""

from __future__ import annotations

import re

import pytest

from tests.server.every_mail import mails
from tests.server.mail_helpers import body_text, header
from tests.server.test_mail_in import start
from tests.server.test_mail_out import deliver

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free


def speaking(mail_api, key, language):
    answer = mail_api.client.put(
        "/api/players/me/preferences", json={"language": language}, headers=mail_api.auth(key)
    )
    assert answer.status_code == 200, answer.get_json()


def test_orders_mail_is_in_its_recipients_language_not_the_movers(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api, options={"rounds": 6, "first_player": "red"})
    speaking(mail_api, keys["red"], "de")
    speaking(mail_api, keys["green"], "ru")
    for colour, cards in (("blue", [11]), ("green", [12])):
        orders = mail_api.client.put(
            f"/api/games/{game_id}/seats/{colour}/orders",
            json={"power_cards": cards},
            headers=mail_api.auth(keys[colour]),
        )
        assert orders.status_code == 200, orders.get_json()
    # Red, who reads German, plays: blue's and green's orders play in red's request.
    moved = mail_api.client.post(
        f"/api/games/{game_id}/moves",
        json={"moves": [{"type": "play_power_card", "card": 13}], "expected_seq": 0},
        headers={**mail_api.auth(keys["red"]), "Accept-Language": "de"},
    )
    assert moved.status_code == 201, moved.get_json()
    deliver(mail_app)
    (blue,) = [m for m in smtp.inbox.to(seats["blue"]) if "power 11" in header(m, "Subject")]
    assert header(blue, "Subject").endswith("your orders played power 11")
    text = body_text(blue)
    assert "Your orders played power card 11 for you." in text
    assert "The game is at move" in text and not re.search(r"[äöüß]|Befehl|Auftr", text)
    # A Russian reader is shown the notation in Russian words (engine.notation.WRITTEN).
    (green,) = [m for m in smtp.inbox.to(seats["green"]) if "сила 12" in header(m, "Subject")]
    assert re.search(r"[а-я]", body_text(green)) and "Your orders" not in body_text(green)


def test_talk_subjects_name_the_colour_in_the_readers_language(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    speaking(mail_api, keys["blue"], "de")
    speaking(mail_api, keys["green"], "ru")
    written = mail_api.client.post(
        f"/api/games/{game_id}/messages", json={"text": "Hola"}, headers=mail_api.auth(keys["red"])
    )
    assert written.status_code == 201, written.get_json()
    deliver(mail_app)
    blue = smtp.inbox.to(seats["blue"])[-1]
    green = smtp.inbox.to(seats["green"])[-1]
    assert header(blue, "Subject").endswith("(Rot) sagt")
    assert "(красный)" in header(green, "Subject") and "red" not in header(green, "Subject")


def test_the_boards_table_names_colours_in_the_readers_language(mail_app):
    with mail_app.app_context():
        decision = dict(mails("ru"))["decision turn"]
    table = body_text(decision).split("\n")
    head = next(line for line in table if "красный" in line)
    assert all(name in head for name in ("синий", "зелёный", "жёлтый"))
    assert not re.search(r"\b(red|blue|green|yellow)\b", "\n".join(table[:40]))


def test_the_html_boards_table_names_the_grandes_colours_in_the_readers_language(mail_app):
    with mail_app.app_context():
        decision = dict(mails("de"))["decision turn"]
    html = next(p for p in decision.walk() if p.get_content_type() == "text/html").get_content()
    table = html[html.index("<table") : html.rindex("</table>")]
    notes = re.findall(r"Grande ([^<;]+)", table)
    assert notes, table
    assert not any(re.search(r"\b(red|blue|green|yellow|brown)\b", n) for n in notes), notes
    assert any(re.search(r"\b(Rot|Blau|Grün|Gelb|Braun)\b", n) for n in notes), notes


def test_one_word_for_game_in_german_and_russian_mails(mail_app):
    other = {
        "de": re.compile(r"\bPartie"),
        # A game played is "партия"; "игра" stays for play itself and for El Grande's rules.
        "ru": re.compile(r"(?<!нотации )\b[Ии]гр(а|ы|е|у|ой)\b(?! ответами)"),
    }
    for language, pattern in other.items():
        with mail_app.app_context():
            for kind, mail in mails(language):
                text = header(mail, "Subject") + body_text(mail)
                assert not pattern.search(text), (language, kind, pattern.search(text)[0])


def test_a_russian_refusal_has_no_english_sentence(mail_app, mail_api, smtp):
    from tests.server.test_orders_mail import command

    game_id, keys, seats = start(mail_app, mail_api, options={"rounds": 6, "first_player": "red"})
    speaking(mail_api, keys["green"], "ru")
    result, text = command(mail_app, smtp, seats, "green", "power 13")
    assert result.outcome == "refused", result
    refusal = next(line for line in text.splitlines() if line.startswith("Ничего не сыграно"))
    assert refusal == (
        "Ничего не сыграно: Строка 1 («power 13»): Сейчас не ваша очередь играть карту силы: "
        "ждём, пока красный сыграет карту силы."
    )
    # Nothing English in the whole answer but the notation and the game's own names.
    english = re.findall(r"\b(?:the|is|not|your|waiting|for|to|Line|card)\b", text)
    assert not english, english
