"""The page's notice of the moves its seat just played says what they did: a region named
under Score chosen region is scored, with its breakdown; a secret pick that was the last
says where the caballeros it sent back came from; a notice too long for the session's
cookie is cut short (the breakdown stays under "Since your last move")."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import engine
from pbem import create_app, words
from pbem.play.batch import Outcome
from pbem.web import pages
from tests.engine.helpers import acting

NAMES = {"red": "Ann", "blue": "Bob", "green": "Cid"}
GAME = SimpleNamespace(
    seats=[SimpleNamespace(colour=c, player=SimpleNamespace(name=n)) for c, n in NAMES.items()]
)


@pytest.fixture(scope="module")
def app():
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})


def played(state: engine.State, colour: str, moves: list[engine.Move]) -> Outcome:
    """An outcome as `submit` makes it: the moves as log entries with their events, and the
    card in play before them."""
    card = words.card_in_play(engine.view(state, colour))
    entries: list[engine.LogEntry] = []
    for move in moves:
        state, events = engine.apply(state, colour, move)
        entries.append({"seq": len(entries) + 1, "player": colour, "move": move, "events": events})
    view = engine.view(state, colour)
    return Outcome(1, 1, colour, len(entries), [], view, entries=entries, card_before=card)


def test_a_region_scored_is_said_with_its_breakdown(app):
    state = acting(engine.new_game(["red", "blue", "green"], seed=5), "red", "score_chosen_region")
    home = state.grandes["blue"]  # two of blue's caballeros are there: it scores
    with app.test_request_context():
        notice = pages.played_notice(
            played(state, "red", [{"type": "special_region", "region": home}]), GAME
        )
        place = words.place_name(home)
    assert notice.startswith(f"Played: score {place}. {place} scored: Bob (blue) ")


def test_the_last_secret_pick_says_what_it_sent_back(app):
    state = acting(
        engine.new_game(["red", "blue", "green"], seed=5), "red", "secret_two_from_region"
    )
    state, _events = engine.apply(state, "red", {"type": "target", "player": "blue"})
    home = {c: state.grandes[c] for c in ("blue", "green")}
    state, _events = engine.apply(state, "blue", {"type": "secret_pick", "region": home["blue"]})
    with app.test_request_context():
        notice = pages.played_notice(
            played(state, "green", [{"type": "secret_pick", "region": home["green"]}]), GAME
        )
        place = words.place_name(home["green"])
    assert notice.startswith(
        f"Played: send 2 of your caballeros from {place} back to the province."
    )
    assert f"2 of your caballeros went from {place} to the province." in notice
    assert "Bob (blue)'s caballeros went from " in notice


def test_a_long_notice_is_cut_short(app):
    entry = {
        "seq": 1,
        "player": "red",
        "move": {"type": "do_special"},
        "events": [
            {"type": "score", "player": c, "points": 5, "place": p, "reason": "rank"}
            for p in engine.data.REGIONS
            for c in ("red", "blue", "green")
        ],
    }
    outcome = Outcome(1, 1, "red", 1, [], {}, entries=[entry], card_before="score_first_places")
    with app.test_request_context():
        notice = pages.played_notice(outcome, GAME)
    assert notice.startswith("Played: score every region's sole first place. Galicia scored: ")
    assert notice.endswith(" …") and len(notice) < pages.NOTICE_MOST + 100
