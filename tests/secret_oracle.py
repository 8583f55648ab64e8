"""What is secret, and from whom, derived from the rules' own record of a game (the engine
state's hands, its pick maps while a pick is still missing, the plan step that takes a card
back), never from the server's or the engine's visibility code under test; and games played
in the engine alone, leaning towards the moves that open secrets, with the moments worth
reading marked.

The engine's observer is tested against it at every step of those games
(tests/engine/test_observer.py); each door's rendering at the marked moments, the game
written into the server as `pbem import` writes one (tests/server/positions.py), so that no
test plays a whole game through the service to reach a secret.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import engine

#: Beside the moments a secret is open, every this many steps is read too.
EVERY = 5

Prefer = Callable[[list[dict]], list[dict]]


def walk(obj, path=()) -> Iterator[tuple[tuple, dict]]:
    """Every (path, dict) in a JSON document."""
    if isinstance(obj, dict):
        yield path, obj
        for key, value in obj.items():
            yield from walk(value, (*path, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            yield from walk(value, (*path, index))


def open_pick_maps(state) -> dict[str, dict]:
    """The rules' pick maps still missing a pick, by phase: the Castillo disks at general
    scoring, and the secret disks of a special action collecting its inputs."""
    maps = {}
    if state.phase == "castillo_pick":
        maps["castillo"] = state.picks
    if state.special is not None and state.special.get("picks"):
        maps["special"] = state.special["picks"]
    return {phase: m for phase, m in maps.items() if None in m.values()}


def cards_taken_back(state) -> Counter:
    """(colour, card) of every power card taken back into a hand, or planned to be."""
    frame = state.special or {}
    planned = Counter(
        (step["colour"], step["card"])
        for step in frame.get("steps", [])
        if step.get("do") == "power_card_return" and "card" in step
    )
    done = Counter((c, k) for c, cards in state.returned_cards.items() for k in cards)
    return planned | done


def engine_colours() -> frozenset[str]:
    return frozenset(("red", "yellow", "green", "blue", "brown"))


class Secrets:
    """What is secret right now, and from whom."""

    def __init__(self, seed: int):
        self.seed = seed
        # (phase, colour, seq of the pick, region)
        self.open_picks: list[tuple[str, str, int, str]] = []
        self.returns: list[tuple[str, int, int]] = []  # (colour, seq of the move, card)

    def after(self, colour: str, seq: int, before, after) -> None:
        """Note the move `colour` just played (now at `seq`), from the states around it."""
        maps = open_pick_maps(after)
        # A phase whose every pick is in is revealed (one move may close one phase and open
        # another: the last secret pick of a round's last turn, then the Castillo's).
        self.open_picks = [p for p in self.open_picks if p[0] in maps]
        for phase, picks in maps.items():
            if picks.get(colour) is not None:
                self.open_picks.append((phase, colour, seq, picks[colour]))
        for owner, card in cards_taken_back(after) - cards_taken_back(before):
            self.returns.append((owner, seq, card))

    def check(self, document, viewer: frozenset[str], where: str) -> None:
        """`viewer`: the colours the reader holds (none for a stranger or nobody)."""
        if self.seed > 10**9:  # a chosen small seed's digits turn up anywhere
            assert str(self.seed) not in json.dumps(document), f"{where}: the seed leaked"
        picks_by_seq = {(c, s): r for _, c, s, r in self.open_picks if c not in viewer}
        returns_by_seq = {(c, s): k for c, s, k in self.returns if c not in viewer}
        for path, node in walk(document):
            for private in ("hand", "returned_cards"):
                if private in node:
                    assert len(path) >= 2 and path[-2] == "players" and path[-1] in viewer, (
                        f"{where}: {set(viewer)} sees {private} at {path}"
                    )
            # A pick shown as {colour: {"region": ...}}: only the viewer's own.
            for colour, value in node.items():
                if isinstance(value, dict) and "region" in value and colour not in viewer:
                    assert colour not in engine_colours(), (where, viewer, path, node)
            # A plan step taking a card back names the card to its player only.
            if node.get("do") == "power_card_return" and node.get("colour") not in viewer:
                assert "card" not in node, (where, viewer, path, node)
            # Log entries: another's open pick or returned card shows only its move type.
            if isinstance(node.get("move"), dict) and "seq" in node:
                key = (node.get("player"), node["seq"])
                if key in picks_by_seq or key in returns_by_seq:
                    assert node["move"] == {"type": node["move"]["type"]}, (where, viewer, node)
                    assert node.get("hidden") is True, (where, viewer, node)
                # Nor do the events of an open pick carry its region.
                if key in picks_by_seq:
                    for event in node.get("events", []):
                        assert picks_by_seq[key] not in event.values(), (where, viewer, node)


def to_castillo(moves):
    """Lean towards the Castillo, so that several players have a secret pick to make."""
    return [m for m in moves if m.get("to") == "castillo"]


def take_a_card_back(moves):
    """Lean towards taking power_card_return and carrying it out."""
    return [
        m
        for m in moves
        if m.get("card") == "power_card_return"
        or m["type"] in ("return_power_card", "do_special", "take_caballeros")
    ]


def seed_with_face_up(card: str, colours: list[str]) -> int:
    return next(s for s in range(1000) if card in engine.new_game(colours, seed=s).face_up.values())


def people_of(colours: list[str], two_colour: bool) -> list[frozenset[str]]:
    """The colours each person holds: one each, or pairs in the two-colour variant (the
    first person 0 and 1, the second 2 and 3)."""
    if two_colour:
        return [frozenset(colours[:2]), frozenset(colours[2:])]
    return [frozenset([c]) for c in colours]


@dataclass
class Moment:
    """A step of an engine game: after `seq` moves, what was secret then, and why it is
    worth reading ("pick": another's secret pick in while others' are missing, "return": a
    card taken back, "steps": every `EVERY` steps, "end")."""

    seq: int
    secrets: Secrets
    state: engine.State
    kinds: set[str] = field(default_factory=set)


@dataclass
class EngineGame:
    """A game played in the engine: its setup, its log as (colour, move), and its moments."""

    colours: list[str]
    seed: int
    options: dict
    two_colour: bool
    log: list[tuple[str, dict]] = field(default_factory=list)
    events: list[list[dict]] = field(default_factory=list)  # each move's, as applied
    moments: list[Moment] = field(default_factory=list)

    def entries(self, upto: int) -> list[dict]:
        """The log's first `upto` entries as the engine's observer takes them."""
        return [
            {"seq": seq, "player": colour, "move": move, "events": events}
            for seq, ((colour, move), events) in enumerate(
                zip(self.log[:upto], self.events[:upto], strict=True), start=1
            )
        ]

    @property
    def over(self) -> bool:
        return engine.is_over(self.moments[-1].state)

    def first(self, kind: str, where: Callable[[Moment], bool] = lambda m: True) -> Moment:
        """The first moment of `kind` (and `where`)."""
        found = next((m for m in self.moments if kind in m.kinds and where(m)), None)
        assert found is not None, f"the game never reached a moment of kind {kind!r}"
        return found


def play_in_engine(
    colours: list[str],
    seed: int,
    rng: random.Random,
    prefer: Prefer,
    *,
    options: dict | None = None,
    lean: float = 0.5,
    stop: Callable[[EngineGame], bool] | None = None,
) -> EngineGame:
    """Play a game in the engine to its end (or `stop`): a random pending colour plays a
    random legal move, leaning to `prefer(moves)` a `lean` of the time; every step is a
    moment, tagged with what makes it worth reading."""
    options = dict(options or {})
    game = EngineGame(colours, seed, options, options.get("variant") == "two_colour")
    state = engine.new_game(colours, seed=seed, options=options)
    secrets = Secrets(seed)
    game.moments.append(Moment(0, copy.deepcopy(secrets), state, {"steps"}))
    while not engine.is_over(state) and not (stop and stop(game)):
        colour = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
        moves = engine.legal_moves(state, colour)
        preferred = prefer(moves)
        move = rng.choice(preferred if preferred and rng.random() < lean else moves)
        after, events = engine.apply(state, colour, move)
        game.log.append((colour, move))
        game.events.append(list(events))
        seq = len(game.log)
        returns = len(secrets.returns)
        secrets.after(colour, seq, state, after)
        kinds = {"steps"} if seq % EVERY == 0 else set()
        if any(pick[2] == seq for pick in secrets.open_picks):
            kinds.add("pick")
        if len(secrets.returns) > returns:
            kinds.add("return")
        if engine.is_over(after):
            kinds.add("end")
        game.moments.append(Moment(seq, copy.deepcopy(secrets), after, kinds))
        state = after
    return game
