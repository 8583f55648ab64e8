"""The game in words (`pbem.words`): scoring breakdowns as the rule books score ties,
points by source that add up to the score, and worked examples that answer a decision whole."""

from __future__ import annotations

import random

import pytest

import engine
from engine import names
from pbem import words

NAMES = {"red": "Ann", "blue": "Bob", "green": "Cid", "yellow": "Dee"}


def _score(player: str, points: int, reason: str = "rank", place: str = "aragon") -> dict:
    return {"type": "score", "player": player, "points": points, "place": place, "reason": reason}


def test_a_breakdown_names_ranks_ties_and_bonuses():
    # The rule books' 4,3,3,2 on 4/3/1: 4, then the two tied for 2nd score 3rd's 1.
    events = [
        _score("red", 4),
        _score("red", 2, "king_bonus"),
        _score("red", 2, "home_bonus"),
        _score("blue", 1),
        _score("green", 1),
        _score("yellow", 5, place="castillo"),
    ]
    assert words.scoring_lines(events, NAMES, "blue") == [
        "Aragon scored: Ann (red) 4 (1st) +2 king's bonus +2 home bonus; you 1 (tied for 2nd); "
        "Cid (green) 1 (tied for 2nd).",
        "Castillo scored: Dee (yellow) 5 (1st).",
    ]


def _random_log(colours: list[str], seed: int) -> tuple[engine.State, list[engine.LogEntry]]:
    rng = random.Random(seed)
    state = engine.new_game(colours, seed=seed, options={"rounds": 6})
    log: list[engine.LogEntry] = []
    while not engine.is_over(state):
        colour = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
        move = rng.choice(engine.legal_moves(state, colour))
        state, events = engine.apply(state, colour, move)
        log.append({"seq": len(log) + 1, "player": colour, "move": move, "events": events})
    return state, log


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_points_by_source_add_up_to_each_score(seed):
    colours = ["red", "blue", "green", "yellow"][: 2 + seed % 3]
    state, log = _random_log(colours, seed)
    totals = words.points_by_source(log)
    for colour, score in engine.scores(state).items():
        assert sum(totals.get(colour, {}).values()) == score
    assert any(t["general scorings"] for t in totals.values())


@pytest.mark.parametrize("seed", [4, 5])
def test_a_worked_example_answers_the_decision_whole(seed):
    """Played as written, every example is legal and leaves the seat no part of the decision
    it answered (or stops where something is revealed, or at its length)."""
    rng = random.Random(seed)
    state = engine.new_game(["red", "blue", "green", "yellow"], seed=seed, options={"rounds": 6})
    examples = 0
    while not engine.is_over(state):
        colour = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
        asked = next(p for p in engine.pending(state) if p["player"] == colour)
        lines = words.worked_example(state, colour)
        assert lines
        moves = engine.parse_moves("\n".join(lines), state, colour)
        revealed = False
        for move in moves:
            state, events = engine.apply(state, colour, move)
            revealed = revealed or engine.reveals_hidden(events)
        now = [p for p in engine.pending(state) if p["player"] == colour]
        still = any(p["kind"] == asked["kind"] == "turn" for p in now)
        assert not still or revealed or len(lines) == words.EXAMPLE_MOST, (asked, lines)
        examples += 1
    assert examples > 40


def test_the_story_says_moves_in_words_with_names_and_what_they_did():
    entries = [
        {
            "seq": 0,
            "player": "red",
            "move": {"type": "choose_card", "card": "king", "stack": 5},
            "events": [{"type": "card_chosen", "player": "red", "card": "king", "stack": 5}],
        },
        {
            "seq": 1,
            "player": "red",
            "move": {"type": "move_king", "to": "galicia"},
            "events": [
                {"type": "king_moved", "to": "galicia"},
                {"type": "turn_ended", "player": "red"},
            ],
        },
        {"seq": 2, "player": "blue", "move": {"type": "secret_pick"}, "events": [], "hidden": True},
        {
            "seq": 3,
            "player": "blue",
            "move": {
                "type": "move_caballero",
                "colour": "green",
                "from": "aragon",
                "to": "castillo",
            },
            "events": [
                {
                    "type": "caballeros_moved",
                    "player": "blue",
                    "count": 1,
                    "from": "aragon",
                    "to": "castillo",
                },
                {
                    "type": "caballeros_moved",
                    "player": "green",
                    "count": 2,
                    "from": "aragon",
                    "to": "province",
                },
            ],
        },
    ]
    assert words.story(entries, NAMES, "green") == [
        "Ann (red): choose King (stack 5); put the king in Galicia",
        "  The king moved to Galicia.",
        "Bob (blue): secret disk (secret); move green from Aragon to Castillo",
        "  2 of your caballeros went from Aragon to the province.",
        "  1 of Bob (blue)'s caballeros went from Aragon to the Castillo.",
    ]


def test_a_veto_window_says_its_plan_in_numbered_steps():
    from tests.engine.helpers import acting

    five = ["red", "yellow", "green", "blue", "brown"]
    state = acting(engine.new_game(five, seed=3), "green", "king", vetoes=("blue",))
    legal = engine.legal_moves(state, "green")
    king = next(m for m in legal if m["type"] == "move_king")
    state, _ = engine.apply(state, "green", king)
    window = next(p for p in engine.view(state, "blue")["pending"] if p["player"] == "blue")
    assert window["kind"] == "veto_window"
    lines = words.guide(engine.view(state, "blue"), "blue", window, {"green": "Greta"})
    assert lines[0] == "Greta (green) plays King."
    steps = [line for line in lines if line[:1].isdigit()]
    assert steps == [f"1. the king to {words.place_name(king['to'])}"]
    assert '"veto 1" stops all of it' in lines[-1]


def test_a_plan_step_of_a_scoring_says_its_points():
    """A place's scoring is planned in steps by rank, so a step names points, not ranks."""
    step = {
        "do": "award",
        "place": "valencia",
        "awards": [
            {"player": "red", "points": 3, "reason": "rank"},
            {"player": "blue", "points": 3, "reason": "rank"},
            {"player": "blue", "points": 2, "reason": "king_bonus"},
        ],
    }
    assert words.plan_step(step, NAMES, "red") == (
        "Valencia scores: you +3, Bob (blue) +3, Bob (blue) +2 (king's bonus)"
    )


def test_a_secret_pick_names_who_plays_the_card_that_asks_it():
    names = {"red": "Ann", "blue": "Bob", "green": "Cid", "yellow": "Dee"}
    checked = 0
    for seed in range(20):
        if checked >= 5:
            break
        checked += _check_picks(seed, names)
    assert checked


def _check_picks(seed: int, names: dict[str, str]) -> int:
    rng = random.Random(seed)
    state = engine.new_game(["red", "blue", "green", "yellow"], seed=seed)
    checked = 0
    while not engine.is_over(state) and checked < 5:
        for pick in [p for p in engine.pending(state) if p["kind"] == "secret_pick"]:
            view = engine.view(state, pick["player"])
            acting = view["special"]["player"]
            first = words.guide(view, pick["player"], pick, names)[0]
            if acting == pick["player"]:
                assert first.startswith("You play "), first
            else:
                assert first.startswith(f"{names[acting]} ({acting}) plays "), first
            assert words.card_title(view["special"]["card"]) in first
            checked += 1
        colour = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
        state, _ = engine.apply(state, colour, rng.choice(engine.legal_moves(state, colour)))
    return checked


def test_an_intrigue_under_way_counts_the_moves_it_has_left():
    """From the first caballero moved to the last, the turn's guide says how many of the
    card's moves are left (its quota), one fewer with each move; the end stops it."""
    from engine.data import INTRIGUE_QUOTAS

    rng = random.Random(6)
    seen = set()
    for seed in range(60):
        state = engine.new_game(["red", "blue", "green"], seed=seed)
        while not engine.is_over(state):
            player = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
            legal = engine.legal_moves(state, player)
            moving = [m for m in legal if m["type"] == "move_caballero"]
            if not moving:
                state, _ = engine.apply(state, player, rng.choice(legal))
                continue
            card = engine.view(state, player)["turn"]["card"]
            allowed = sum(INTRIGUE_QUOTAS[card].values())
            for moved in range(1, allowed + 1):
                state, _ = engine.apply(state, player, moving[0])
                view = engine.view(state, player)
                decision = next(p for p in engine.pending(state) if p["player"] == player)
                if decision["kind"] != "turn" or view["turn"]["special"] != "under_way":
                    break  # the last move ended the action (or opened a Veto window)
                line = f"{allowed - moved} of {allowed} caballero moves left"
                assert any(g.startswith(line) for g in words.guide(view, player, decision))
                seen.add(card)
                moving = [
                    m for m in engine.legal_moves(state, player) if m["type"] == "move_caballero"
                ]
                if not moving:
                    break
            break
        if len(seen) >= 2:
            break
    assert len(seen) >= 2, seen


def test_the_english_names_are_the_ones_pages_and_mails_show():
    # engine.names holds every language's names; its English must not change what is shown.
    for place in engine.data.PLACES:
        assert words.place_name(place) == names.place_name(place)
    for card in engine.data.CARD_STACKS:
        assert words.card_title(card) == names.card_name(card)
