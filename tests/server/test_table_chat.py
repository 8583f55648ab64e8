"""Talk at the table through the API: a seat writes, the game's seats read, the others are
mailed (the writer is not); plain text, escaped in mail; length, emptiness, pace and who
may write are refused with a sentence, changing nothing. And a player's private notes."""

from __future__ import annotations

import os
from contextlib import nullcontext
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from pbem import create_app
from pbem.clock import set_now
from pbem.extensions import db
from pbem.play import notes, talk
from tests.server.conftest import assert_problem, own_schema, table_snapshot
from tests.server.mail_helpers import body_html, body_text
from tests.server.test_mail_in import start
from tests.server.test_mail_out import deliver

HOSTILE = 'Good luck <b>all</b> & "friends" <script>alert(1)</script>'
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _write(api, game_id, key, text, **extra):
    return api.client.post(
        f"/api/games/{game_id}/messages", json={"text": text, **extra}, headers=api.auth(key)
    )


def _read(api, game_id, key, query=""):
    return api.get(f"/api/games/{game_id}/messages{query}", key)


def _said_to(smtp, address) -> list:
    return [m for m in smtp.inbox.to(address) if str(m["Subject"]).endswith(" says")]


def test_a_seat_writes_and_the_others_are_mailed_as_text(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    response = _write(mail_api, game_id, keys["red"], f"  {HOSTILE}\r\nsecond line  ")
    assert response.status_code == 201, response.get_json()
    written = response.get_json()
    assert {k: written[k] for k in ("seq", "colour", "name", "text", "source")} == {
        "seq": 0,
        "colour": "red",
        "name": "Red",
        "text": f"{HOSTILE}\nsecond line",
        "source": "api",
    }
    for reader in ("red", "blue", "green"):
        read = _read(mail_api, game_id, keys[reader]).get_json()
        assert read == {"messages": [written], "more": False}
    deliver(mail_app)
    assert _said_to(smtp, seats["red"]) == []  # not the writer
    for colour in ("blue", "green"):
        (mail,) = _said_to(smtp, seats[colour])
        assert str(mail["Subject"]).endswith("Red (red) says")
        assert f"  {HOSTILE}\n  second line" in body_text(mail)
        html = body_html(mail)
        assert "<script>" not in html and "<b>all</b>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "&lt;b&gt;all&lt;/b&gt;" in html


#: Words to the table with characters of direction: an override left open (U+202E, which
#: turns what follows it around) and an isolate left open (U+2066).
TURNING = "gg \u202eniw I\nsee \u2066you"


def test_words_with_characters_of_direction_are_kept_as_written_and_mailed_isolated(
    mail_app, mail_api, smtp
):
    game_id, keys, seats = start(mail_app, mail_api)
    written = _write(mail_api, game_id, keys["red"], TURNING)
    assert written.status_code == 201, written.get_json()
    assert written.get_json()["text"] == TURNING  # the writer's words, as written
    assert _read(mail_api, game_id, keys["blue"]).get_json()["messages"][0]["text"] == TURNING
    with mail_app.app_context():
        kept = db.session.execute(sa.text("SELECT text FROM table_talk")).scalar_one()
        db.session.remove()
    assert kept == TURNING
    deliver(mail_app)
    (mail,) = _said_to(smtp, seats["blue"])
    text = body_text(mail)
    # The text part: each line that opens something closes it (U+202C, U+2069) inside an
    # isolate of its own (U+2068 ... U+2069), so the mail's next words read as written.
    assert "  \u2068gg \u202eniw I\u202c\u2069\n  \u2068see \u2066you\u2069\u2069\n" in text
    assert "Answer in your own reply" in text.split("\u2066you")[1]
    # The HTML part: the message's paragraph takes its own direction, each line isolated as
    # in the text part (by characters: a tag beside a word reads as obfuscation to spam
    # filters).
    html = body_html(mail)
    lines = "\u2068gg \u202eniw I\u202c\u2069<br>\u2068see \u2066you\u2069\u2069"
    assert f'<p style="margin: 0.3em 0;" dir="auto">{lines}</p>' in html


def test_words_from_a_mail_are_read_with_the_others(app, api):
    game_id, keys = api.new_game(["red", "blue"])
    _write(api, game_id, keys["blue"], "from the API")
    with app.app_context():
        talk.say(
            db.session.connection(),
            game_id=game_id,
            title="T",
            colour="red",
            player_id=_player_id(app, "red", game_id),
            lines=["from a mail"],
            seq=0,
        )
        db.session.commit()
    read = _read(api, game_id, keys["red"]).get_json()["messages"]
    assert [(m["colour"], m["text"], m["source"]) for m in read] == [
        ("blue", "from the API", "api"),
        ("red", "from a mail", "email"),
    ]


def _player_id(app, colour, game_id) -> int:
    with app.app_context():
        found = db.session.execute(
            sa.text("SELECT player_id FROM seats WHERE game_id = :g AND colour = :c"),
            {"g": game_id, "c": colour},
        ).scalar_one()
        db.session.remove()
    return int(found)


def test_reading_comes_in_pages_after_an_id(api):
    game_id, keys = api.new_game(["red", "blue"])
    ids = [_write(api, game_id, keys["red"], f"word {n}").get_json()["id"] for n in range(5)]
    first = _read(api, game_id, keys["blue"], "?limit=2").get_json()
    assert [m["id"] for m in first["messages"]] == ids[:2] and first["more"] is True
    rest = _read(api, game_id, keys["blue"], f"?after={ids[1]}&limit=3").get_json()
    assert [m["text"] for m in rest["messages"]] == ["word 2", "word 3", "word 4"]
    assert rest["more"] is False
    assert_problem(_read(api, game_id, keys["blue"], "?limit=0"), 422)


def test_only_a_seat_reads_or_writes_and_only_as_its_own_colour(app, api):
    game_id, keys = api.new_game(["red", "blue"])
    stranger = api.register("stranger@example.org")
    before = table_snapshot(app)
    refused = assert_problem(_write(api, game_id, stranger, "let me in"), 403)
    assert "no seat" in refused["detail"]
    assert "no seat" in assert_problem(_read(api, game_id, stranger), 403)["detail"]
    assert_problem(_write(api, game_id, None, "who am I"), 401)
    assert_problem(_read(api, game_id, None), 401)
    as_blue = assert_problem(_write(api, game_id, keys["red"], "I am blue", colour="blue"), 403)
    assert "not blue" in as_blue["detail"]
    assert_problem(_write(api, 10**6, keys["red"], "nowhere"), 404)
    assert table_snapshot(app) == before


def test_a_person_holding_two_colours_names_the_one_that_writes(app, api):
    game_id, keys = api.new_two_colour_game(["red", "blue", "green", "yellow"])
    before = table_snapshot(app)
    unnamed = assert_problem(_write(api, game_id, keys["red"], "hello"), 422)
    assert '"colour"' in unnamed["detail"] and "red and blue" in unnamed["detail"]
    assert_problem(_write(api, game_id, keys["red"], "hello", colour="green"), 403)
    assert table_snapshot(app) == before
    written = _write(api, game_id, keys["red"], "hello", colour="blue").get_json()
    assert (written["colour"], written["name"]) == ("blue", "First")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "1 to 500 characters"),
        (" \n\t ", "empty"),
        ("x" * (talk.LONGEST + 1), "1 to 500 characters"),
        ("a\x00b", "control characters"),
        ("\n".join(["line"] * (talk.MOST_LINES + 1)), "lines"),
        (17, "Not a valid string"),
    ],
    ids=["empty", "blank", "too-long", "nul", "too-many-lines", "not-text"],
)
def test_a_message_that_cannot_be_kept_is_refused_and_changes_nothing(app, api, text, says):
    game_id, keys = api.new_game(["red", "blue"])
    before = table_snapshot(app)
    assert says in assert_problem(_write(api, game_id, keys["red"], text), 422)["detail"]
    assert table_snapshot(app) == before


def test_a_message_of_the_longest_length_is_kept_whole(api):
    game_id, keys = api.new_game(["red", "blue"])
    text = "é" * talk.LONGEST
    assert _write(api, game_id, keys["red"], text).get_json()["text"] == text


def test_too_many_messages_in_a_minute_wait_their_turn(app, api):
    set_now(app, T0)
    game_id, keys = api.new_game(["red", "blue"])
    for n in range(talk.MOST_PER_WINDOW):
        set_now(app, T0 + timedelta(seconds=n))
        assert _write(api, game_id, keys["red"], f"word {n}").status_code == 201
    set_now(app, T0 + timedelta(seconds=30))
    before = table_snapshot(app)
    response = _write(api, game_id, keys["red"], "one more")
    refused = assert_problem(response, 429)
    assert response.headers["Retry-After"] == "30"
    assert "in 30 seconds" in refused["detail"]
    assert table_snapshot(app) == before
    # Another seat is not held up; and the writer again once the first has aged out.
    assert _write(api, game_id, keys["blue"], "my turn").status_code == 201
    set_now(app, T0 + timedelta(seconds=60))
    assert _write(api, game_id, keys["red"], "one more").status_code == 201


def test_an_aborted_games_table_is_closed_a_finished_ones_open(app, api):
    game_id, keys = api.new_game(["red", "blue"])
    with app.app_context():
        db.session.execute(
            sa.text("UPDATE games SET status = 'finished' WHERE id = :g"), {"g": game_id}
        )
        db.session.commit()
    assert _write(api, game_id, keys["blue"], "well played").status_code == 201
    other_id, other_keys = api.new_game(["red", "blue"])
    assert (
        api.client.post(
            f"/api/games/{other_id}/abort", headers=api.auth(other_keys["red"])
        ).status_code
        == 200
    )
    before = table_snapshot(app)
    closed = assert_problem(_write(api, other_id, other_keys["blue"], "hello?"), 409)
    assert "aborted" in closed["detail"]
    assert table_snapshot(app) == before
    assert _read(api, other_id, other_keys["blue"]).get_json()["messages"] == []


# --- notes ------------------------------------------------------------------------------


def _notes(api, game_id, key):
    return api.get(f"/api/games/{game_id}/notes", key)


def _keep(api, game_id, key, text):
    return api.client.put(f"/api/games/{game_id}/notes", json={"text": text}, headers=api.auth(key))


def test_notes_are_kept_for_their_writer_alone(app, api):
    set_now(app, T0)
    game_id, keys = api.new_game(["red", "blue"])
    assert _notes(api, game_id, keys["red"]).get_json() == {"text": "", "updated_at": None}
    kept = _keep(api, game_id, keys["red"], "Blue bluffs <b>often</b>\r\nwatch Castilla")
    assert kept.status_code == 200
    mine = {"text": "Blue bluffs <b>often</b>\nwatch Castilla", "updated_at": T0.isoformat()}
    assert kept.get_json() == mine
    assert _notes(api, game_id, keys["red"]).get_json() == mine
    assert _notes(api, game_id, keys["blue"]).get_json() == {"text": "", "updated_at": None}
    stranger = api.register("nosy@example.org")
    assert "no seat" in assert_problem(_notes(api, game_id, stranger), 403)["detail"]
    assert_problem(_notes(api, game_id, None), 401)
    # Each game its own notes; an empty text clears them.
    other_id, _ = api.new_game(["red", "blue"])
    assert "Castilla" not in _notes(api, other_id, keys["red"]).get_data(as_text=True)
    assert _keep(api, game_id, keys["red"], "   ").get_json()["text"] == ""
    assert _notes(api, game_id, keys["red"]).get_json()["updated_at"] is None


def test_notes_past_their_size_are_refused_and_change_nothing(app, api):
    game_id, keys = api.new_game(["red", "blue"])
    _keep(api, game_id, keys["red"], "first thoughts")
    before = table_snapshot(app)
    refused = assert_problem(_keep(api, game_id, keys["red"], "x" * (notes.LONGEST + 1)), 422)
    assert "10000 characters" in refused["detail"]
    assert_problem(_keep(api, game_id, keys["red"], "a\x00b"), 422)
    assert table_snapshot(app) == before
    assert _notes(api, game_id, keys["red"]).get_json()["text"] == "first thoughts"
    longest = "y" * notes.LONGEST
    assert _keep(api, game_id, keys["red"], longest).get_json()["text"] == longest


def test_the_notes_table_migrates_down_and_up(tmp_path):
    base = os.environ.get("TEST_DATABASE_URL")
    place = own_schema(base, "pbem_notes_") if base else nullcontext(f"sqlite:///{tmp_path}/n.db")
    with place as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "migration-test"})
        with app.app_context():

            def tables() -> set[str]:
                with db.engine.connect() as connection:
                    return set(sa.inspect(connection).get_table_names())

            upgrade()
            assert {"notes", "table_talk"} <= tables()
            downgrade(revision="c2f8a4d6e9b1")  # the sign-in links, before the notes
            assert "notes" not in tables() and {"table_talk", "sign_in_links"} <= tables()
            upgrade()
            assert "notes" in tables()
            db.engine.dispose()
