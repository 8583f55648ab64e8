"""The story since your last move: every decision mail begins with what the others did
since that seat last moved, in order, with their names, as the seat may see it, each move in
words as what it did under the card that asked it (the card read from the whole log, as the
mail could not: it tells a stretch of it). Played over random games through the API; the
mails are read as they were sent."""

from __future__ import annotations

import random

import pytest

import engine
from pbem import words
from pbem.game.history import STORY_MOST
from pbem.notify import addresses
from tests.server.mail_helpers import body_text
from tests.server.test_mail_out import addresses_of, deliver

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free


def _story(text: str) -> str:
    """The story part of a decision mail, its lines joined with single spaces."""
    if "Since your last move:" not in text:
        return ""
    part = text.split("Since your last move:\n", 1)[1].split("\n\n", 1)[0]
    return " ".join(part.split())


def _play_randomly(api, game_id, keys, rng) -> None:
    for _ in range(3000):
        view = api.get(f"/api/games/{game_id}").get_json()
        if view["status"] != "active":
            return
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        played = api.post_moves(game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"])
        assert played.status_code == 201, played.get_json()
    raise AssertionError("the game did not end")


def _replayed(record: dict) -> list[engine.LogEntry]:
    """A finished game's record with each move's events, played again from its seed."""
    state = engine.new_game(record["colours"], seed=record["seed"], options=record["options"])
    entries: list[engine.LogEntry] = []
    for move in record["moves"]:
        state, events = engine.apply(state, move["player"], move["move"])
        entries.append({**move, "events": events})
    return entries


@pytest.mark.parametrize("colours", [["red", "blue", "green"], ["red", "blue", "green", "yellow"]])
def test_every_move_of_others_since_a_seats_last_move_is_in_its_next_decision_mail(
    mail_app, mail_api, smtp, colours
):
    game_id, keys = mail_api.new_game(colours, options={"rounds": 6})
    _play_randomly(mail_api, game_id, keys, random.Random(len(colours)))
    while deliver(mail_app).sent:
        pass
    record = _replayed(mail_api.get(f"/api/games/{game_id}/record").get_json())
    cards = dict(zip((e["seq"] for e in record), words.cards_of(record), strict=True))
    names = {colour: colour.title() for colour in colours}
    checked = 0
    for colour, email in addresses_of(mail_app, game_id):
        for mail in smtp.inbox.to(email):
            text = body_text(mail)
            if "A whole answer in one reply" not in text:
                continue  # not a decision mail
            with mail_app.app_context():
                _, _, seq = addresses.read_message_id(str(mail["Message-ID"]))
            last = max((e["seq"] for e in record[:seq] if e["player"] == colour), default=0)
            since = record[max(last, seq - STORY_MOST) : seq]
            story = _story(text)
            assert bool(story) == bool(since), (colour, seq, text)
            at = 0
            for entry in engine.visible_log(since, {colour}):
                assert entry["player"] != colour
                with mail_app.app_context():
                    said = words.entry_words(entry, cards[entry["seq"]], own=False)
                found = story.find(said, at)
                assert found >= 0, (colour, seq, entry, said, story[at:])
                at = found + 1
            for other in {e["player"] for e in since}:
                assert f"{names[other]} ({other}):" in story
            checked += 1
    # At the least, a power card and a turn for each seat in each of the six rounds (the
    # game's seed is its own, so more varies).
    assert checked >= 2 * len(colours) * 6
