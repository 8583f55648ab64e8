"""Property test: random games played to the end keep every invariant: the cheap ones
(caballeros, cards, a legal move for whoever is pending) after every move, and the costly
ones (the JSON round trip, `apply` leaving its input as it was, every reader's view keeping
the secrets) after every `SAMPLED`-th, which still checks them on some 30,000 states."""

import json
from collections import Counter

import pytest

import engine
from engine.bots import RandomBot
from engine.data import CABALLEROS_PER_COLOUR, CARD_STACKS, COLOURS
from engine.rng import Rng
from engine.scoring import scoreboard

GAMES = 150
TWO_COLOUR_GAMES = 20
#: The games the golden digests were recorded for (tests/engine/test_golden.py).
RECORDED_GAMES = (300, 30)
#: The costly invariants are checked after every this many moves (a different phase of the
#: moves each game, so that no kind of step is always skipped).
SAMPLED = 4


def check_invariants(before: engine.State, state: engine.State, costly: bool) -> None:
    for colour in state.colours:
        here = state.caballeros[colour]
        assert sum(here.values()) == CABALLEROS_PER_COLOUR, (colour, here)
        assert min(here.values()) >= 0, (colour, here)
    if before.king == state.king:
        for colour in state.colours:
            assert before.caballeros[colour][state.king] == state.caballeros[colour][state.king]
    # The 44 drawn action cards are all somewhere: decks, face up, in hand for the turn
    # under way, laid aside, or kept as a Veto.
    turn = state.turn or {}
    in_turn = int(turn.get("card") not in (None, "king") and not turn.get("card_kept"))
    cards = (
        sum(len(d) for d in state.action_decks.values())
        + in_turn
        + sum(1 for s, c in state.face_up.items() if c and s != 5)
        + len(state.action_discards)
        + len(state.vetoes)
    )
    assert cards == 44, cards
    for waiting in engine.pending(state):
        assert engine.legal_moves(state, waiting["player"]), waiting
    if not costly:
        return
    data = engine.to_dict(state)
    # As the server reads a stored state: JSON just decoded, taken without a copy.
    assert engine.from_dict(json.loads(json.dumps(data)), copy=False) == state
    for viewer in [*state.colours, None]:
        check_view_keeps_secrets(state, engine.view(state, viewer), viewer)


def check_view_keeps_secrets(state: engine.State, view: dict, viewer: str | None) -> None:
    for colour, seen in view["players"].items():
        assert ("hand" in seen) == (colour == viewer), (viewer, colour)
        assert ("returned_cards" in seen) == (colour == viewer), (viewer, colour)
    special = view["special"] or {}
    for picks in (view.get("castillo_pick", {}), special.get("picks", {})):
        for colour, pick in picks.items():
            assert ("region" in pick) == (colour == viewer)
    window = view["veto"]["window"] or {}
    for step in [*special.get("plan", []), *window.get("plan", [])]:
        if step["do"] == "power_card_return":
            assert ("card" in step) == (step["colour"] == viewer)
    text = json.dumps(view)
    assert '"seed"' not in text and '"action_decks"' not in text


def game_setups(games: int = GAMES, two_colour_games: int = TWO_COLOUR_GAMES):
    """Every player count, 9 and 6 rounds, then the two-colour variant: `games` and
    `two_colour_games` of them, the same first ones whatever the counts but the two-colour
    games' colours (drawn after the others')."""
    rng = Rng(2024)
    for n in range(games):
        players = 2 + n % 4
        colours = rng.shuffled(COLOURS)[:players]
        yield colours, n, {"rounds": 9 if n % 3 else 6}
    for n in range(games, games + two_colour_games):
        yield rng.shuffled(COLOURS)[:4], n, {"variant": "two_colour"}


def test_random_games_keep_every_invariant():
    rng = Rng(99)
    finished = 0
    specials: Counter = Counter()
    vetoed = 0
    self_vetoed = 0  # the acting player's own Veto (Italian rules, 4 b)
    for colours, seed, options in game_setups():
        bot = RandomBot(seed)
        first = engine.new_game(colours, seed=seed, options=options)
        state = first
        log = []
        entries: list[engine.LogEntry] = []
        while not engine.is_over(state):
            waiting = engine.pending(state)
            player = waiting[rng.below(len(waiting))]["player"]
            move = bot.choose(state, player)
            before = state
            costly = (len(log) + seed) % SAMPLED == 0
            snapshot = engine.to_dict(before) if costly else None
            state, events = engine.apply(state, player, move)
            if costly:
                assert engine.to_dict(before) == snapshot  # apply never mutates its input
            for event in events:
                if event["type"] == "special_action":
                    specials[event["card"]] += 1
                    vetoed += event["vetoed_from"] is not None
                if event["type"] == "veto_played" and before.special["window"]["kind"] == "action":
                    self_vetoed += event["player"] == before.special["player"]
            log.append((player, move))
            entries.append({"seq": len(log), "player": player, "move": move, "events": events})
            check_invariants(before, state, costly)
        assert engine.pending(state) == []
        assert sorted(engine.scores(state)) == sorted(colours)
        if seed % 10 == 0:
            check_log_shows_moves_whole_or_as_their_type(entries, colours)
        if options.get("variant") == "two_colour":
            teams = engine.view(state, None)["teams"]
            best = max(t["score"] for t in teams)
            assert {c for t in teams if t["score"] == best for c in t["colours"]} >= set(
                engine.winners(state)
            )
        # Replaying the log from new_game gives the same state, at the end and midway.
        cut = rng.below(len(log) + 1)
        replay = engine.new_game(colours, seed=seed, options=options)
        for i, (player, move) in enumerate(log):
            if i == cut:
                midway = replay
            replay, _ = engine.apply(replay, player, move)
        assert replay == state
        if cut < len(log):
            again = first
            for player, move in log[:cut]:
                again, _ = engine.apply(again, player, move)
            assert again == midway
        finished += 1
    assert finished == GAMES + TWO_COLOUR_GAMES
    # Every card type was played with its special action at least 5 times.
    assert set(specials) == set(CARD_STACKS), set(CARD_STACKS) - set(specials)
    assert min(specials.values()) >= 5, specials.most_common()[-3:]
    assert vetoed >= 5
    assert 1 <= self_vetoed < vetoed, (self_vetoed, vetoed)


def check_log_shows_moves_whole_or_as_their_type(entries: list, colours: list[str]) -> None:
    """What the pages rely on to keep a drawn log entry by (game, seq, hidden): a reader
    sees a stored move either whole or, marked hidden, as its type alone; and a move a
    reader sees whole at some length of the log is whole at every later length."""
    for viewers in [set(), *({c} for c in colours)]:
        for upto in (len(entries) // 3, len(entries)):
            shown_log = engine.visible_log(entries[:upto], viewers)
            for stored, shown in zip(entries[:upto], shown_log, strict=True):
                if shown.get("hidden"):
                    assert shown["hidden"] is True
                    assert shown["move"] == {"type": stored["move"]["type"]}
                else:
                    assert shown["move"] == stored["move"]
        whole = engine.visible_log(entries, viewers)
        for early in engine.visible_log(entries[: len(entries) // 3], viewers):
            if not early.get("hidden"):
                assert not whole[early["seq"] - 1].get("hidden"), (viewers, early["seq"])


def test_a_state_copies_what_it_is_made_from_unless_told_not_to():
    state = engine.new_game(["red", "blue", "green"], seed=4)
    data = json.loads(json.dumps(engine.to_dict(state)))
    copied = engine.from_dict(data)
    data["caballeros"]["red"]["court"] += 1
    assert copied == state  # the default copies: the caller may go on using `data`
    taken = engine.from_dict(data, copy=False)
    assert taken.caballeros["red"]["court"] == state.caballeros["red"]["court"] + 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_default_moves_alone_finish_a_game(players):
    state = engine.new_game(list(COLOURS[:players]), seed=players)
    steps = 0
    while not engine.is_over(state):
        player = engine.pending(state)[0]["player"]
        move = engine.default_move(state, player)
        assert move in engine.legal_moves(state, player)
        state, _ = engine.apply(state, player, move)
        steps += 1
    assert steps < 2000 and engine.winners(state)


@pytest.mark.parametrize("seed", [3, 11, 23])
def test_a_timed_out_turn_places_what_its_card_lets_it_place(seed):
    """A turn played by default moves takes its caballeros, chooses a card, and places as
    many as that card and the court allow beside the king: each where the player is not
    first alone yet if there is such a place, of those the highest first value."""
    state = engine.new_game(["red", "blue", "green"], seed=seed)
    while engine.pending(state)[0]["kind"] != "turn":
        player = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, player, engine.default_move(state, player))
    player = engine.pending(state)[0]["player"]
    placed: list[str] = []
    allowed = None
    while any(p["player"] == player for p in engine.pending(state)):
        move = engine.default_move(state, player)
        if move["type"] == "place":
            if allowed is None:
                allowed = min(state.turn["place_limit"], state.count(player, "court"))
            places = [m["to"] for m in engine.legal_moves(state, player) if m["type"] == "place"]
            open_places = [p for p in places if not _first_alone(state, player, p)] or places
            assert move["to"] in open_places
            assert scoreboard(state, move["to"])[0] == max(
                scoreboard(state, p)[0] for p in open_places
            )
            placed.append(move["to"])
        state, _ = engine.apply(state, player, move)
    assert placed and len(placed) == allowed


def _first_alone(state, player: str, place: str) -> bool:
    here = state.in_place(place)
    mine = here.get(player, 0)
    return mine > 0 and all(mine > n for c, n in here.items() if c != player)


GAME_IN_A_PROCESS = """
import hashlib, json, engine
from engine.driver import play_random_game
state, log = play_random_game(["red", "blue", "green", "yellow", "brown"], seed=77, bot_seed=5)
print(hashlib.sha256(json.dumps([engine.to_dict(state), log], sort_keys=True).encode()).hexdigest())
"""


def test_same_seed_same_game_in_processes_with_other_hash_seeds():
    """Nothing in the engine may depend on string hashing (set order) or the machine."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    digests = set()
    for hash_seed in ("1", "2", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(root)}
        out = subprocess.run(
            [sys.executable, "-c", GAME_IN_A_PROCESS],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            cwd=root,
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1, digests
