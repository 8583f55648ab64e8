"""Words per card: every step of every action card that asks its player (or the others) for
a region, a colour or an option, and every card's action done in one move, is said on the
page and in the step's mail as what it does under that card, in English and in German.

The verbs are the rule books' (the English Hans im Glück text of each card, and its German
card text), not the code's: a region named scores under Score chosen region ("gewertet"),
empties under the intrigues ("umsetzen"), sends caballeros back under the decays ("in die
Provinz zurückschicken"); before, one wording ("take caballeros out of") served them all.
"""

from __future__ import annotations

import json
import random
import re

import pytest

import engine
from engine.data import CARD_STACKS
from pbem import create_app
from pbem.languages import in_language
from pbem.notify import compose
from pbem.notify.compose import Recipient
from pbem.web import pages
from pbem.words.card_moves import SPECIAL_KINDS, card_in_play
from tests.engine.helpers import acting
from tests.server.mail_helpers import body_text
from tests.web.html import parse

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free

#: What each card asks said with, from the rule books: (English, German), each a pattern
#: every move of the card's steps must match where it is offered. Written from the card
#: texts: "Move any 4 Caballeros" / "beliebig umsetzen"; "send ... back to the provinces" /
#: "in die Provinz zurückschicken"; "Special Scoring" / "wird gewertet"; "Move the king into
#: a neighboring region" / "Rücken Sie den König in eine Nachbarregion"; and so on.
VERBS: dict[str, tuple[str, str]] = {
    # "Take all of your own Caballeros out of a region and distribute them ... You may
    # return a subset to their original region."
    "intrigue_own_region": (r"\bmove\b|\bback in\b", r"umsetzen|zurück nach"),
    "intrigue_court_two": (r"\bfrom court\b", r"\bvom Hof\b"),
    "intrigue_court_two_or_own_region": (
        r"\bcourt\b|\bmove\b|\bback in\b|\bregion\b",
        r"\bHof\b|umsetzen|zurück nach|Region",
    ),
    "intrigue_five_from_region": (r"\bmove\b", r"umsetzen"),
    "intrigue_three_foreign": (r"\bmove\b", r"umsetzen"),
    "intrigue_three_any": (r"\bmove\b", r"umsetzen"),
    "intrigue_two_own_two_foreign": (r"\bmove\b", r"umsetzen"),
    "intrigue_four_own": (r"\bmove\b", r"umsetzen"),
    "intrigue_four_any": (r"\bmove\b", r"umsetzen"),
    # "If you have selected the veto card, you put the card before yourself on the table."
    "veto": (r"\bkeep the Veto\b", r"Veto\w* behalten"),
    "decay_all_court": (r"\bwhole court back to the province\b", r"ganzen Hof .*zurückschicken"),
    "decay_three_court": (r"\bsend 3 from .*court back\b", r"3 .*vom Hof .*zurückschicken"),
    "king_rages": (r"\bsend .*back to the province\b", r"in die Provinz zurückschicken"),
    "one_from_each_opponent": (r"\bsend .*back to the province\b", r"Provinz zurückschicken"),
    "secret_two_from_region": (r"\bsend 2 .*back to the province\b", r"2 .*zurückschicken"),
    "secret_all_from_region": (r"\bsend all .*back to the province\b", r"alle .*zurückschicken"),
    "score_chosen_region": (r"\bscore\b", r"\bwerten\b"),
    # The value groups: "All 4 regions are scored" / "Es werden alle 4er-Regionen gewertet".
    "score_four_regions": (r"\bscore .*\b4\b", r"(?=.*\bwerten\b).*\b4\b"),
    "score_five_regions": (r"\bscore .*\b5\b", r"(?=.*\bwerten\b).*\b5\b"),
    "score_six_seven_regions": (r"\bscore .*\b6 or 7\b", r"(?=.*\bwerten\b).*\b6 oder 7\b"),
    "score_castillo": (r"\bscore the Castillo\b", r"Castillo werten"),
    "score_first_places": (r"\bscore .*first place\b", r"ersten Platz werten"),
    "score_most_caballeros": (r"\bscore .*\bmost\b", r"(?=.*\bwerten\b).*\bmeisten\b"),
    "score_fewest_caballeros": (r"\bscore .*\bfewest\b", r"(?=.*\bwerten\b).*\bwenigsten\b"),
    "mobile_scoreboard": (r"\bmove the .*scoreboard\b", r"Wertungstafel .*versetzen"),
    "royal_adviser": (r"\bmove the king .*neighbouring\b", r"König in die Nachbarregion .*rücken"),
    # "Your opponents must move all of their Caballeros out of this region and move them
    # secretly to a different region" / "entfernen und sie geheim ... umsetzen".
    "eviction": (r"\bmove\b", r"umsetzen"),
    "grande": (r"\bmove your grande\b", r"Grande .*versetzen"),
    "power_card_return": (r"\btake back power card\b", r"Machtkarte .*zurück"),
    "court_two": (r"\bfrom the province to court\b", r"aus der Provinz an den Hof holen"),
    "secret_scoring": (r"\bscore\b", r"\bwerten\b|\bgewertet\b"),
    "king": (r"\bput the king in\b", r"König nach .* setzen"),
    # General scoring: "Each player chooses a region they want to move their Caballeros
    # from the Castillo to."
    "castillo_pick": (r"\bCastillo caballeros to\b", r"aus dem Castillo nach"),
}
LANGUAGES = {"en": 0, "de": 1}
#: The moves that answer what a step asks (a Veto window's answers and an early end ask
#: nothing of a region, a colour or an option).
ASKING = (SPECIAL_KINDS - {"end_special", "skip_special", "allow", "veto"}) | {"castillo_pick"}
#: The cards whose opponents are named (`target`) only in the two-colour variant.
EVERY_OPPONENT = ("king_rages", "secret_scoring", "one_from_each_opponent")
NAMES = {"red": "Ann", "blue": "Bob", "green": "Cid", "yellow": "Dee"}


@pytest.fixture(scope="module")
def app():
    """The app the pages and mails are drawn by: no database (nothing here is stored)."""
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "PBEM_BASE_URL": "https://pbem.example",
        }
    )


def steps(state: engine.State, most: int = 40):
    """(state, player, its asking moves) at each step of the special action under way, the
    first asking move played each time, until nothing more is asked (each kind of step once
    for each player: an intrigue's fourth move says what its first did)."""
    seen = set()
    for _ in range(most):
        asked = [
            (
                p["player"],
                [m for m in engine.legal_moves(state, p["player"]) if m["type"] in ASKING],
            )
            for p in engine.pending(state)
        ]
        asked = [(player, moves) for player, moves in asked if moves]
        if not asked:
            return
        player, moves = asked[0]
        kinds = (player, frozenset(m["type"] for m in moves))
        if kinds not in seen:
            seen.add(kinds)
            yield state, player, moves
        state, _events = engine.apply(state, player, moves[0])


def page_words(app, state: engine.State, player: str, language: str) -> dict[str, str]:
    """The page's words for each asking move offered (a button's text, or its title where
    the button is short: a move between places), by the move's JSON."""
    view = engine.view(state, player)
    with app.test_request_context(), in_language(language):
        offered = pages.choices(engine.legal_moves(state, player), card_in_play(view))
        offered["guide"] = []
        parts = app.jinja_env.get_template("web/_game_parts.html").module
        html = str(parts.moves(offered, player, None))
    said = {}
    for button in parse(html).find_all("button", name="move"):
        move = json.loads(button.get("value") or "{}")
        if move.get("type") in ASKING:
            said[json.dumps(move, sort_keys=True)] = button.get("title") or button.text.strip()
    return said


def mail_words(app, state: engine.State, player: str, language: str) -> list[str]:
    """The decision mail's glosses of its asking moves: its list of moves is the legal
    moves in order, each a line of the notation, and an asking one glossed after a "#"
    ("region aragon  # score Aragon"); the glosses in the order of the moves."""
    decision = next(p for p in engine.pending(state) if p["player"] == player)
    recipient = Recipient(7, "reader@example.org", "Reader", player, language=language)
    with app.app_context():
        mail = compose.decision_mail(
            recipient, game_id=7, title="Cards", state=state, decision=decision, seq=12, names=NAMES
        )
    head = "Your moves now" if language == "en" else "Deine Züge jetzt"
    listed = body_text(mail).split(head)[-1].split("\n")[1:]
    lines = [line.strip() for line in listed[: listed.index("")]]
    legal = engine.legal_moves(state, player)
    assert len(lines) == len(legal), (lines, legal)
    glosses = []
    for line, move in zip(lines, legal, strict=True):
        if move["type"] in ASKING:
            assert "  # " in line, line  # the notation, then what it does
            glosses.append(line.split("  # ", 1)[1])
    return glosses


def check_step(app, card: str, state: engine.State, player: str, moves: list) -> None:
    for language, index in LANGUAGES.items():
        verb = re.compile(VERBS[card][index])
        page = page_words(app, state, player, language)
        assert len(page) == len({json.dumps(m, sort_keys=True) for m in moves}), (card, page)
        wrong = {move: said for move, said in page.items() if not verb.search(said)}
        assert not wrong, (card, language, "page", wrong)
        mail = mail_words(app, state, player, language)
        assert len(mail) == len(moves), (card, language, mail)
        wrong_lines = [said for said in mail if not verb.search(said)]
        assert not wrong_lines, (card, language, "mail", wrong_lines)


@pytest.mark.parametrize("card", sorted(CARD_STACKS))
def test_each_cards_steps_say_its_effect_on_the_page_and_in_a_mail(app, card):
    state = acting(engine.new_game(["red", "blue", "green"], seed=5), "red", card)
    checked = 0
    for at, player, moves in steps(state):
        check_step(app, card, at, player, moves)
        checked += 1
    assert checked, card  # every card asks something, or is done in one move
    if card in EVERY_OPPONENT:  # in the two-colour variant it names the colour it hits
        two = engine.new_game(
            ["red", "blue", "green", "yellow"], seed=5, options={"variant": "two_colour"}
        )
        named = 0
        for at, player, moves in steps(acting(two, "red", card)):
            check_step(app, card, at, player, moves)
            named += any(m["type"] in ("target", "remove_caballero") for m in moves)
        assert named, card


def test_a_castillo_pick_says_where_the_castillo_caballeros_go(app):
    rng = random.Random(2)
    state = engine.new_game(["red", "blue", "green"], seed=2, options={"rounds": 6})
    while not any(p["kind"] == "castillo_pick" for p in engine.pending(state)):
        assert not engine.is_over(state), "no Castillo pick in a whole game"
        player = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
        legal = engine.legal_moves(state, player)
        # Into the Castillo where it may: a general scoring then asks its pick.
        into = [m for m in legal if m.get("to") == "castillo"]
        state, _events = engine.apply(state, player, (into or [rng.choice(legal)])[0])
    picker = next(p["player"] for p in engine.pending(state) if p["kind"] == "castillo_pick")
    moves = engine.legal_moves(state, picker)
    assert moves and all(m["type"] == "castillo_pick" for m in moves)
    check_step(app, "castillo_pick", state, picker, moves)
