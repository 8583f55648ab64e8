"""A Russian reader is shown the notation and the mail commands in Russian words
(`engine.notation.WRITTEN`, `pbem.words.moves.COMMANDS_WRITTEN`); a reply in those words plays
as the English one does, and English words keep working for them and everyone."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.store.models import Player
from tests.server.mail_helpers import body_text
from tests.server.mailin_helpers import moves_listed, moves_under, reply
from tests.server.test_mail_in import inbound, latest_with_moves, start, to_move
from tests.server.test_mail_out import deliver

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free

RUSSIAN_MOVES = "Ваши ходы сейчас"


def russian_moves(text: str) -> list[str]:
    """The moves a Russian mail lists under "Ваши ходы сейчас", each without its gloss."""
    return moves_under(text, (RUSSIAN_MOVES,))


def in_russian(mail_app, smtp, mail, email):
    """Switch the seat's holder to Russian with the Russian command, and ask for the moves:
    the answer, in Russian, lists them."""
    result = inbound(mail_app, reply(mail, "язык ru", sender=email))
    assert result.outcome == "answered", result
    with mail_app.app_context():
        player = db.session.execute(sa.select(Player).where(Player.email == email)).scalar_one()
        assert player.preferences["language"] == "ru"
        db.session.remove()
    result = inbound(mail_app, reply(mail, "ходы", sender=email))
    assert result.outcome == "answered", result
    deliver(mail_app)
    return body_text(smtp.inbox.to(email)[-1])


def test_a_russian_reply_plays_the_move_the_english_line_plays(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    (colour,) = to_move(mail_api, game_id)
    mail = latest_with_moves(smtp, seats[colour])
    english = moves_listed(mail)
    text = in_russian(mail_app, smtp, mail, seats[colour])
    russian = russian_moves(text)
    # The same moves, in the same order, each in Russian words.
    assert len(russian) == len(english) > 1
    assert all(re.search(r"[а-я]", line) and not re.search(r"[a-z]", line) for line in russian)
    result = inbound(mail_app, reply(mail, russian[-1], sender=seats[colour]))
    assert result.outcome == "played", result
    assert result.played == [english[-1]]
    deliver(mail_app)
    answer = body_text(smtp.inbox.to(seats[colour])[-1])
    # The answer says what was played in the reader's words (the game's first move: a power
    # card, `сила 13`, "карта силы 13").
    assert english[-1].startswith("power ")
    played = answer.split("Сыграно:\n", 1)[1].split("\n\n", 1)[0]
    assert played.strip() == f"карта силы {english[-1].split()[-1]}", played


def test_english_lines_keep_playing_for_a_russian_reader(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    (colour,) = to_move(mail_api, game_id)
    mail = latest_with_moves(smtp, seats[colour])
    english = moves_listed(mail)
    in_russian(mail_app, smtp, mail, seats[colour])
    result = inbound(mail_app, reply(mail, english[0], sender=seats[colour]))
    assert result.outcome == "played" and result.played == [english[0]], result


def test_russian_commands_do_what_the_english_ones_do(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    (colour,) = to_move(mail_api, game_id)
    mail = latest_with_moves(smtp, seats[colour])
    email = seats[colour]
    in_russian(mail_app, smtp, mail, email)
    result = inbound(mail_app, reply(mail, "доска\nжурнал", sender=email))
    deliver(mail_app)
    text = body_text(smtp.inbox.to(email)[-1])
    assert result.outcome == "answered" and result.reason == "board, log", result
    assert "Кастильо" in text and "Этот раунд на данный момент:" in text
    assert "(ходов пока нет)" in text
    result = inbound(mail_app, reply(mail, "помощь", sender=email))
    deliver(mail_app)
    help_text = body_text(smtp.inbox.to(email)[-1])
    # The help names the commands and the notation in the words the door reads.
    for words in ("ходы", "доска", "стоп", "вето разрешить", "сила 9", "поставить Арагон"):
        assert words in help_text, words
    result = inbound(mail_app, reply(mail, "вето разрешить", sender=email))
    assert result.outcome == "answered" and result.reason == "veto", result
    result = inbound(mail_app, reply(mail, "стоп", sender=email))
    assert result.outcome == "answered" and result.reason == "stop", result
    with mail_app.app_context():
        player = db.session.execute(sa.select(Player).where(Player.email == email)).scalar_one()
        assert game_id in player.preferences["muted_games"]
        db.session.remove()
