"""Words to the table: a reply's lines that read as no move, and are close to none, are
passed on to the other players and kept in the game's record, beside the moves played; a
line a "did you mean" would answer is still refused, and a refused reply passes nothing on."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.notify import addresses
from tests.server.mail_helpers import body_text
from tests.server.mailin_helpers import moves_listed, reply
from tests.server.test_mail_in import inbound, latest_with_moves, seq_of, start, to_move
from tests.server.test_mail_out import deliver


def _talk(app) -> list[tuple[str, str, int]]:
    with app.app_context():
        rows = db.session.execute(
            sa.text("SELECT colour, text, seq FROM table_talk ORDER BY id")
        ).all()
        db.session.remove()
    return [tuple(r) for r in rows]


def _said(smtp, seats, colour) -> list[str]:
    """The "... says" mails each other seat got, as text."""
    return [
        body_text(m)
        for other, address in seats.items()
        if other != colour
        for m in smtp.inbox.to(address)
        if str(m["Subject"]).endswith(" says")
    ]


@pytest.mark.parametrize("words_first", [True, False], ids=["words-first", "move-first"])
def test_a_move_and_words_to_the_table_in_one_reply(mail_app, mail_api, smtp, words_first):
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    move = moves_listed(mail)[0]
    lines = ["Good luck everyone!", move] if words_first else [move, "Good luck everyone!"]
    result = inbound(mail_app, reply(mail, "\n".join(lines), sender=seats[colour]))
    assert result.outcome == "played" and result.played == [move]
    assert seq_of(mail_api, game_id) == 1
    assert _talk(mail_app) == [(colour, "Good luck everyone!", 1)]
    deliver(mail_app)
    said = _said(smtp, seats, colour)
    assert len(said) == len(seats) - 1
    assert all("Good luck everyone!" in text and f"({colour})" in text for text in said)
    answer = body_text(smtp.inbox.to(seats[colour])[-1])
    assert move.startswith("power ")  # the game's first move, said in words
    assert f"Played:\n  power card {move.split()[-1]}\n" in answer
    assert 'Passed on to the other players: "Good luck everyone!"' in answer


def test_words_alone_are_passed_on_and_the_decision_stays_open(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    result = inbound(mail_app, reply(mail, "Sorry, I am thinking.", sender=seats[colour]))
    assert result.outcome == "answered"
    assert seq_of(mail_api, game_id) == 0
    assert _talk(mail_app) == [(colour, "Sorry, I am thinking.", 0)]
    deliver(mail_app)
    answer = body_text(smtp.inbox.to(seats[colour])[-1])
    assert 'Passed on to the other players: "Sorry, I am thinking."' in answer
    assert "Play a power card" in answer  # and what is still theirs to decide


def test_words_with_characters_of_direction_are_kept_and_passed_on_isolated(
    mail_app, mail_api, smtp
):
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    # An override left open (U+202E) and an isolate left open (U+2066), on two lines.
    lines = ["Good \u202eluck all", "\u2066see you"]
    result = inbound(mail_app, reply(mail, "\n".join(lines), sender=seats[colour]))
    assert result.outcome == "answered"
    assert _talk(mail_app) == [(colour, line, 0) for line in lines]  # kept as written
    deliver(mail_app)
    said = _said(smtp, seats, colour)
    assert len(said) == len(seats) - 1
    for text in said:
        # Each line closed and isolated: what it opened reaches no word after it.
        assert "  \u2068Good \u202eluck all\u202c\u2069\n" in text
        assert "  \u2068\u2066see you\u2069\u2069\n" in text


@pytest.mark.parametrize("typo", ["powr 5", "plcae aragon", "pwer 9"])
def test_a_mistyped_move_is_refused_not_passed_on(mail_app, mail_api, smtp, typo):
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    body = f"Good luck everyone!\n{typo}"
    result = inbound(mail_app, reply(mail, body, sender=seats[colour]))
    assert result.outcome == "refused"
    assert seq_of(mail_api, game_id) == 0 and _talk(mail_app) == []
    deliver(mail_app)
    assert _said(smtp, seats, colour) == []
    answer = body_text(smtp.inbox.to(seats[colour])[-1])
    assert "Nothing was played" in answer and "did you mean" in answer.lower()


def test_a_reply_to_words_goes_back_to_the_table(mail_app, mail_api, smtp):
    """The relayed mail is in the reader's own thread: answering it passes their words on."""
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    inbound(mail_app, reply(mail, "Who is in?", sender=seats[colour]))
    deliver(mail_app)
    other = next(c for c in seats if c != colour)
    relayed = next(m for m in smtp.inbox.to(seats[other]) if str(m["Subject"]).endswith(" says"))
    with mail_app.app_context():
        assert str(relayed["Reply-To"]) == addresses.seat_address(game_id, other)
    result = inbound(mail_app, reply(relayed, "Me, gladly.", sender=seats[other]))
    assert result.outcome == "answered"
    assert _talk(mail_app)[-1] == (other, "Me, gladly.", 0)


def test_house_bots_are_not_written_to(mail_app, mail_api, smtp):
    from tests.server.test_bot_seats import new_bot_game

    game, _ = new_bot_game(mail_api, options={"first_player": "red"})
    deliver(mail_app)
    mail = latest_with_moves(smtp, "human@example.org")
    move = moves_listed(mail)[0]
    result = inbound(mail_app, reply(mail, f"{move}\nGood luck, bots!", sender="human@example.org"))
    assert result.outcome == "played"
    assert [text for _, text, _ in _talk(mail_app)] == ["Good luck, bots!"]
    with mail_app.app_context():
        written = db.session.execute(sa.text("SELECT recipient FROM outbox")).scalars().all()
        db.session.remove()
    assert written and all(address == "human@example.org" for address in written)


def test_words_and_a_bare_stop_end_the_games_mail_and_pass_the_words_on(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    result = inbound(mail_app, reply(mail, "Thanks all, I must leave.\nstop", sender=seats[colour]))
    assert result.outcome == "answered" and seq_of(mail_api, game_id) == 0
    assert [text for _, text, _ in _talk(mail_app)] == ["Thanks all, I must leave."]
    deliver(mail_app)
    answer = body_text(smtp.inbox.to(seats[colour])[-1])
    assert "No more mail from this game" in answer and "Passed on" in answer
