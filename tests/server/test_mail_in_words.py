"""Every answer in a person's words: no internal identifier (a move's API type, an
exception's class, None) in any answer to a mail command or refusal, nor in any mail's
Message-ID; a King-rages return played in part says how many are still owed; and the
hourly limit of answers never keeps help from a player who plays a lot."""

from __future__ import annotations

import random
import re
import uuid

import pytest

from engine.data import CARD_STACKS
from engine.moves import VERBS
from engine.notation import NOTATION
from pbem.mailin.reading import COMMAND_WORDS
from tests.server.mail_helpers import body_html, body_text
from tests.server.mailin_helpers import fresh_mail, moves_listed, reply
from tests.server.test_mail_in import (
    inbound,
    latest_with_moves,
    play_until,
    refusal_case,
    seq_of,
    start,
    to_move,
)
from tests.server.test_mail_in_unreadable import deep_mime, headers_of
from tests.server.test_mail_out import deliver

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free

#: Words a person never reads: the API's move types and pending kinds that are not also
#: the notation's names of cards (`card king_rages`), exception classes, None.
KINDS = {"power_card", "turn", "castillo_pick", "secret_pick", "king_rages", "veto_window"}
INTERNAL = sorted(
    n for n in (set(NOTATION) | KINDS) - set(CARD_STACKS) - set(VERBS.values()) if "_" in n
)
FORBIDDEN = re.compile(
    r"\b(" + "|".join(INTERNAL) + r")\b|\b\w+Error\b|\bNone\b|\bLookupError\b|\bKeyError\b"
)

#: A line for each verb of the notation, with fields of the right kinds.
FIELDS = {
    "number": "3",
    "region": "galicia",
    "place": "aragon",
    "card": "king",
    "colour": "blue",
    "location": "court",
    "scoreboard": "8/4/0",
    "option": "court_two",
}
VERB_LINES = [
    " ".join([n.verb, *(FIELDS[s.kind] for s in n.slots if not s.optional)])
    for n in NOTATION.values()
]
COMMAND_LINES = [
    "moves",
    "board",
    "log",
    "away 2030-12-20 2031-01-03",
    "away tomorrow",
    "bot",
    "back",
    "key",
    "help",
    "plan 13 11",
    "plan eleven",
    "plan 99",
    "veto allow",
    "veto ask",
    "language xx",
    "language",
    "powr 5",
    "stop mails",
    "mute blue",
    "unmute blue",
    "report blue rude",
    "hint",
]
assert {line.split()[0] for line in COMMAND_LINES} >= set(COMMAND_WORDS)


def answers_since(smtp, count: int):
    return [m for _, m in smtp.inbox.messages[count:]]


def internal_words(mail) -> list[str]:
    text = "\n".join([str(mail["Subject"]), body_text(mail), body_html(mail)])
    return [m[0] for m in FORBIDDEN.finditer(text)]


def test_no_internal_identifier_in_any_answer(mail_app, mail_api, smtp):
    mail_app.config["MAIL_ANSWERS_PER_HOUR"] = 10_000  # every one answered
    game_id, keys, seats = start(mail_app, mail_api)
    before = len(smtp.inbox.messages)
    for turn in range(2):  # the power cards, then (one played) a turn's first step
        (colour,) = to_move(mail_api, game_id)
        other = next(c for c in seats if c != colour)
        mail = latest_with_moves(smtp, seats[colour])
        for line in VERB_LINES + COMMAND_LINES:
            for who in (colour, other):  # the one to move, and one who is not
                address = _address(mail_app, game_id, who)
                inbound(mail_app, fresh_mail(seats[who], address, line))
        for kind in ("text/plain; charset=x-no-such-charset", "text/plain; charset=utf-16"):
            inbound(mail_app, headers_of(mail, seats[colour], kind) + b"power 3\r\n")
        inbound(mail_app, deep_mime(mail, seats[colour], "power 3"))
        if turn == 0:  # the power cards left to play, by mail: a turn begins
            while view(mail_api, game_id)["phase"] == "power_cards":
                (colour,) = to_move(mail_api, game_id)
                address = _address(mail_app, game_id, colour)
                for line in ("power 13", "power 12", "power 11", "power 10"):
                    if inbound(mail_app, fresh_mail(seats[colour], address, line)).played:
                        break
            deliver(mail_app)
    assert view(mail_api, game_id)["phase"] == "turn"
    deliver(mail_app)
    answers = answers_since(smtp, before)
    assert len(answers) > 150
    # The refusals met on the way name moves as the notation writes them.
    said = "\n".join(body_text(m) for m in answers)
    assert 'Nothing asks for "pick" now' in said and '("card")' in said
    found = {word for mail in answers for word in internal_words(mail)}
    assert found == set(), found


def view(mail_api, game_id):
    return mail_api.get(f"/api/games/{game_id}").get_json()


@pytest.mark.parametrize("name", ["forged_from", "unknown_charset", "broken_mime", "stale"])
def test_no_internal_identifier_in_a_refusal(mail_app, mail_api, smtp, name):
    raw, recipient, answered_to = refusal_case(name, mail_app, mail_api, smtp)
    before = len(smtp.inbox.messages)
    assert inbound(mail_app, raw, recipient).answered
    deliver(mail_app)
    mails = answers_since(smtp, before)
    assert any(answered_to in str(m["To"]) for m in mails)
    assert [w for m in mails for w in internal_words(m)] == []


def test_no_message_id_names_none(mail_app, mail_api, smtp):
    tag = uuid.uuid4().hex[:8]
    client = mail_api.client
    # A sign-up link, a key by mail, an invitation, the help: mails of no game's thread.
    assert client.post("/api/players", json={"email": f"new-{tag}@example.org", "name": "New"})
    admin = mail_api.register(f"admin-{tag}@example.org", "Admin")
    body = {
        "title": f"Forming {tag}",
        "seats": [
            {"email": f"admin-{tag}@example.org", "colour": "red"},
            {"email": f"friend-{tag}@example.org", "colour": "blue"},
        ],
        "forming": True,
    }
    assert client.post("/api/games", json=body, headers=mail_api.auth(admin)).status_code == 201
    assert client.post("/api/players/key-reset", json={"email": f"admin-{tag}@example.org"})
    inbound(mail_app, fresh_mail(f"asker-{tag}@example.org", "play@pbem.example", "help"))
    game_id, keys, seats = start(mail_app, mail_api)
    deliver(mail_app)
    ids = [str(m["Message-ID"]) for _, m in smtp.inbox.messages]
    assert len(ids) >= 7
    assert [i for i in ids if "None" in i or "none" in i.lower().split("@")[0]] == []


def test_help_is_answered_after_sixty_played_replies_in_the_hour(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api, colours=("red", "blue"))
    played = {colour: 0 for colour in seats}
    while min(played.values()) <= int(mail_app.config["MAIL_ANSWERS_PER_HOUR"]):
        (colour,) = to_move(mail_api, game_id)
        legal = mail_api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        line = next(m for m in _lines(legal["moves"]) if not m.startswith(("done", "skip")))
        result = inbound(
            mail_app, fresh_mail(seats[colour], _address(mail_app, game_id, colour), line)
        )
        assert result.outcome == "played" and result.answered, result
        played[colour] += 1
    assert sum(played.values()) >= 60
    for colour, email in seats.items():
        # Help by a reply to the seat's address, and by a mail to the plain address.
        asked = inbound(mail_app, fresh_mail(email, _address(mail_app, game_id, colour), "help"))
        assert (asked.outcome, asked.answered) == ("answered", True)
        plain = inbound(mail_app, fresh_mail(email, "play@pbem.example", "help"))
        assert (plain.outcome, plain.answered) == ("help", True)
    # The loop protection still holds for help and refusals.
    mail_app.config["MAIL_ANSWERS_PER_HOUR"] = 3
    email = seats["red"]
    answered = [
        inbound(mail_app, fresh_mail(email, "play@pbem.example", "help")).answered for _ in range(4)
    ]
    assert answered == [True, False, False, False]
    # And for a seat: its one help this hour counts, the played replies do not.
    blue = _address(mail_app, game_id, "blue")
    answered = [
        inbound(mail_app, fresh_mail(seats["blue"], blue, "help")).answered for _ in range(4)
    ]
    assert answered == [True, True, False, False]


def _lines(moves) -> list[str]:
    from engine import format_move

    return [format_move(m) for m in moves]


def _address(mail_app, game_id, colour) -> str:
    from pbem.notify import addresses

    with mail_app.app_context():
        return addresses.seat_address(game_id, colour)


def test_a_partial_king_rages_return_says_how_many_are_still_owed(
    mail_app, mail_api, smtp, monkeypatch
):
    # A deal and a play (found by the engine alone) that reach a King-rages return at once.
    monkeypatch.setattr("pbem.play.lifecycle.secrets.randbits", lambda bits: 13)
    game_id, keys, seats = start(mail_app, mail_api)
    view = play_until(
        mail_api,
        game_id,
        keys,
        random.Random(13),
        lambda v: any(p["kind"] == "king_rages" for p in v["pending"]),
    )
    (colour,) = [p["player"] for p in view["pending"]]
    deliver(mail_app)
    mail = latest_with_moves(smtp, seats[colour])
    line = next(m for m in moves_listed(mail) if m.startswith("return"))
    result = inbound(mail_app, reply(mail, line, sender=seats[colour]))
    assert result.outcome == "played" and result.played == [line]
    deliver(mail_app)
    text = body_text(smtp.inbox.to(seats[colour])[-1])
    assert "King rages: return 2 more caballeros of yours to the province." in text
    assert seq_of(mail_api, game_id) == result.seq


def test_an_order_played_at_once_is_said_once(mail_app, mail_api, smtp):
    """`plan` sent while the seat is asked for its power card plays it at once: the answer
    says so, and does not then say that no power card is ordered."""
    game_id, keys, seats = start(mail_app, mail_api)
    (colour,) = to_move(mail_api, game_id)
    before = len(smtp.inbox.messages)
    address = _address(mail_app, game_id, colour)
    assert inbound(mail_app, fresh_mail(seats[colour], address, "plan 12 11")).answered
    deliver(mail_app)
    (answer,) = [m for m in answers_since(smtp, before) if seats[colour] in str(m["To"])]
    text = " ".join(body_text(answer).split())
    assert "Your orders played power card 12 for you." in text, text
    assert "No power cards ordered" not in text, text
