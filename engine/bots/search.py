"""The search bot: determinized Monte Carlo search from what its seat may see.

Information-set search at the root (Cowling, Powley & Whitehouse 2012): each playout deals
one "world", a full state consistent with the bot's view (the others' hands and secret
picks, the order of the action decks sampled afresh), plays a candidate move in it and then
the rest of the round with a cheap greedy policy for every seat, and values where that
leads with the greedy bot's evaluation. Candidates share worlds (common random numbers)
and are narrowed by sequential halving, so a small budget still compares them fairly.
"""

from __future__ import annotations

import math
import time
from typing import TypedDict

import engine
from engine.bots.greedy import GreedyBot
from engine.bots.model import EPS, Model, placement_plan, placements_left
from engine.data import POWER_CARDS, REGIONS
from engine.rng import Rng
from engine.setup import TWO_COLOUR_DECKS
from engine.types import Move, View

#: Playouts per decision when neither a time nor a playout budget is given.
DEFAULT_PLAYOUTS = 60
#: Candidates searched at most: the greedy move and the best others by a one-move look.
MAX_CANDIDATES = 8
#: Decisions per playout at most (a round of five seats takes about a hundred).
PLAYOUT_LIMIT = 400
#: Points the greedy bot's own move is given: the search must beat it by more than noise.
PRIOR = 0.25
#: How much more of a time budget a power card and an action card get than other moves
#: (they are rarer, and decide the round's turn order and what each turn can do).
WEIGHTS = {"play_power_card": 3.0, "choose_card": 2.0}
#: What playing a power card costs in the rounds left (the greedy bot's figure, per round).
CARD_COST = 0.35 / 8


def _cpu() -> float:
    """The CPU time this thread has used: the clock a time budget runs on. A wall clock would
    give the bot fewer playouts exactly when the machine is busy."""
    return time.thread_time()


class Appraisal(TypedDict):
    """One move's worth to a seat, as the search found it."""

    move: Move
    value: float  # the mean of the bot's evaluation over the worlds it was played out in
    playouts: int  # how many worlds


class SearchBot:
    """Searches its legal moves over worlds consistent with what its seat may see.

    `seconds` bounds the time of one decision in CPU seconds of its thread (a power card or
    action card choice gets a few times more, a forced or trivial one none), so a busy
    machine makes it slower, never weaker; `playouts` bounds the playouts instead,
    which makes the bot deterministic for a seed. With neither, `DEFAULT_PLAYOUTS`.
    It reads the game as `GreedyBot` does: only its own view decides which worlds it deals,
    so nothing hidden from its seat can change its choice.
    """

    def __init__(self, seed: int = 0, seconds: float | None = None, playouts: int | None = None):
        self.seed = seed
        self.rng = Rng(seed)
        self.seconds = seconds
        self.playouts = playouts if playouts is not None or seconds else DEFAULT_PLAYOUTS
        self.greedy = GreedyBot(seed)

    # -- the entry point ---------------------------------------------------------------
    def choose(self, state: engine.State, player: str) -> Move:
        moves = engine.legal_moves(state, player)
        if not moves:
            raise ValueError(f"{player} has no legal move now")
        if len(moves) == 1:
            return moves[0]
        kinds = {m["type"] for m in moves}
        if "take_caballeros" in kinds:
            return self.greedy.choose(state, player)
        start = _cpu()
        prior = self.greedy.choose(state, player)
        seen = engine.view(state, player)
        worlds = _Worlds(state, seen, player, self.rng.next64())
        candidates = self._candidates(worlds, moves, prior)
        if len(candidates) == 1:
            return candidates[0]
        weight = max(WEIGHTS.get(k, 1.0) for k in kinds)
        deadline = None if self.seconds is None else start + self.seconds * weight
        budget = self.playouts
        return self._halving(worlds, candidates, prior, budget, deadline)

    # -- advice ------------------------------------------------------------------------
    def appraise(
        self, state: engine.State, player: str, also: Move | None = None
    ) -> list[Appraisal]:
        """What each candidate move is worth to `player`, best first: the candidates the
        search would weigh (and `also`, a move to weigh beside them), each played out in the
        same worlds, as many as the playout budget (`DEFAULT_PLAYOUTS` with a time budget),
        dealt from `player`'s view only. Unlike `choose`, no candidate is dropped on the way
        and the greedy move gets no head start: each value is the plain mean of its worlds,
        the bot's evaluation of where they led (its seat's projected points against the
        others', `Model.value`)."""
        moves = engine.legal_moves(state, player)
        if not moves:
            raise ValueError(f"{player} has no legal move now")
        if also is not None and also not in moves:
            raise ValueError(f"{also} is not a legal move of {player} now")
        prior = self.greedy.choose(state, player)
        worlds = _Worlds(state, engine.view(state, player), player, self.rng.next64())
        candidates = self._candidates(worlds, moves, prior)
        if also is not None and also not in candidates:
            candidates.append(also)
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        everyone = list(range(len(candidates)))
        for index in range(self.playouts or DEFAULT_PLAYOUTS):
            self._play_world(worlds, candidates, everyone, index, totals, counts)
        ranked = sorted(everyone, key=lambda i: (-totals[i] / counts[i], i))
        return [
            {"move": candidates[i], "value": totals[i] / counts[i], "playouts": counts[i]}
            for i in ranked
        ]

    # -- the candidates ----------------------------------------------------------------
    def _candidates(self, worlds: _Worlds, moves: list[Move], prior: Move) -> list[Move]:
        """The greedy move first, then the best others by the value one move ahead (in the
        first world, so what it shows is only what the bot may know)."""
        others = [m for m in moves if m != prior]
        if len(others) < MAX_CANDIDATES:
            return [prior, *others]
        if others[0]["type"] == "play_power_card":
            values = self.greedy.power_card_values(worlds.seen, worlds.me, others)
        else:
            world = worlds.get(0)
            values = [worlds.value(_after(world, worlds.me, m)) for m in others]
        ranked = sorted(range(len(others)), key=lambda i: -values[i])
        return [prior, *(others[i] for i in ranked[: MAX_CANDIDATES - 1])]

    # -- the search ----------------------------------------------------------------------
    def _halving(
        self,
        worlds: _Worlds,
        candidates: list[Move],
        prior: Move,
        budget: int | None,
        deadline: float | None,
    ) -> Move:
        """Sequential halving over shared worlds: each stage plays every surviving
        candidate in the same new worlds, then keeps the better half by mean value."""
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        alive = list(range(len(candidates)))
        stages = max(1, math.ceil(math.log2(len(candidates))))
        spent = 0
        next_world = 0
        if budget is None:
            # A time budget: estimate the playouts it allows from one world of each.
            t0 = _cpu()
            self._play_world(worlds, candidates, alive, next_world, totals, counts)
            next_world += 1
            spent = len(alive)
            each = (_cpu() - t0) / len(alive)
            left = 0.0 if deadline is None else deadline - _cpu()
            budget = spent + max(0, int(left / max(each, 1e-4)))
        for stage in range(stages):
            if len(alive) == 1:
                break
            share = (budget - spent) // (stages - stage)
            rounds = max(1, share // len(alive))
            for _ in range(rounds):
                if spent + len(alive) > budget and counts[alive[0]]:
                    break
                self._play_world(worlds, candidates, alive, next_world, totals, counts)
                next_world += 1
                spent += len(alive)
            alive.sort(key=lambda i: -_mean(totals, counts, i, candidates[i] == prior))
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        return candidates[alive[0]]

    def _play_world(
        self,
        worlds: _Worlds,
        candidates: list[Move],
        alive: list[int],
        index: int,
        totals: list[float],
        counts: list[int],
    ) -> None:
        """Play each surviving candidate in world `index`, with the same rollout seeds."""
        world = worlds.get(index)
        policy_seed = self.seed * 7919 + index
        for i in alive:
            state = _after(world, worlds.me, candidates[i])
            value = worlds.value(_playout(state, world.round_index, policy_seed))
            totals[i] += value
            counts[i] += 1


def _mean(totals: list[float], counts: list[int], i: int, is_prior: bool) -> float:
    if not counts[i]:
        return -math.inf
    return totals[i] / counts[i] + (PRIOR if is_prior else 0.0)


def _after(world: engine.State, me: str, move: Move) -> engine.State:
    state = world.copy()
    state.push(me, move)
    return state


def _playout(state: engine.State, round_index: int, seed: int) -> engine.State:
    """Play on with the cheap policy for every seat until the round ends (or the game)."""
    policy = Playout(seed)
    for _ in range(PLAYOUT_LIMIT):
        if state.phase == "over" or state.round_index != round_index:
            break
        player = engine.pending(state)[0]["player"]
        state.push(player, policy.choose(state, player))
    return state


#: Special-action moves the playout policy values at most in one step of a turn.
PLAYOUT_SPECIALS = 6
_ENDS = frozenset({"end_turn", "skip_special", "end_special"})
#: Decisions the playout policy leaves to the greedy bot: they are cheap already.
_GREEDY_KINDS = frozenset(
    {"play_power_card", "take_caballeros", "castillo_pick", "secret_pick", "return_caballero",
     "allow"}
)


class Playout(GreedyBot):
    """The greedy bot made cheaper for playouts: an action card by its worth on the board
    now (no playing out of each), and no playing out of special actions either."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        # The rest of the spread planned at a turn's first placement, by (round, player,
        # card, caballeros placed so far).
        self.queue: dict[tuple[int, str, str | None, int], list[str]] = {}

    def choose(self, state: engine.State, player: str) -> Move:
        moves = engine.legal_moves(state, player)
        if len(moves) == 1:
            return moves[0]
        kinds = {m["type"] for m in moves}
        if kinds & _GREEDY_KINDS:
            return super().choose(state, player)
        seen = engine.view(state, player)
        if "choose_card" in kinds:
            return self._cheap_card(seen, player, moves)
        return self._cheap_turn(state, seen, player, moves)

    def _cheap_turn(self, state: engine.State, seen: View, me: str, moves: list[Move]) -> Move:
        """The greedy bot's turn step, with only its best placement valued and at most a
        few of the special action's moves (drawn by the bot's generator)."""
        turn = seen["turn"]
        assert turn is not None  # a turn step
        key = (seen["round_number"], me, turn["card"], turn["placed"])
        queued = self.queue.get(key)
        if queued and turn["special"] != "under_way":
            # The spread planned at this turn's first placement, one caballero a move.
            step: Move | None = next(
                (m for m in moves if m["type"] == "place" and m["to"] == queued[0]), None
            )
            if step is not None:
                self.queue = {(*key[:3], key[3] + 1): queued[1:]}
                return step
        base = Model.of(seen, me)
        v0 = base.value()
        left = placements_left(seen, me)
        pot, alloc = placement_plan(base, left) if left else (0.0, {})
        target = max(alloc, key=lambda t: (alloc[t], t)) if alloc else None
        place: Move | None = next(
            (m for m in moves if m["type"] == "place" and m["to"] == target), None
        )
        if place is not None and alloc:
            order = sorted(alloc, key=lambda t: (-alloc[t], t))
            spread = [t for t in order for _ in range(alloc[t])]
            self.queue = {(*key[:3], key[3] + 1): spread[1:]}
        rest: list[Move] = [m for m in moves if m["type"] != "place"]
        if len(rest) > PLAYOUT_SPECIALS:
            ends = [m for m in rest if m["type"] in _ENDS]
            rest = ends + self.rng.shuffled([m for m in rest if m["type"] not in _ENDS])
            rest = rest[:PLAYOUT_SPECIALS]
        special_open = turn["special"] == "open"
        values: list[float] = []
        best_special = 0.0
        for move in rest:
            if move["type"] == "end_turn":
                values.append(v0 - EPS)
            elif move["type"] == "skip_special":
                values.append(v0 + pot)
            else:
                value = self._special_move_value(state, base, v0, pot, left, me, move, False)
                values.append(value)
                if special_open:
                    best_special = max(best_special, value - v0 - pot)
        if place is not None:
            rest.append(place)
            values.append(v0 + pot + best_special + 2 * EPS)
        if not rest:
            return moves[0]
        return self._best(rest, values)

    def _cheap_card(self, seen: View, me: str, moves: list[Move]) -> Move:
        m = Model.of(seen, me)
        stacks = {f["card"]: f["stack"] for f in seen["action_cards"]["face_up"]}
        values = []
        for move in moves:
            if move["type"] != "choose_card":
                values.append(-1e9)
                continue
            stack = move.get("stack") or stacks.get(move["card"], 1)
            values.append(self._card_worth(m, move["card"], stack, m.court[me]))
        return self._best(moves, values)


class _Worlds:
    """The worlds the bot deals for one decision: states consistent with its view.

    Everything hidden from `me` is dealt afresh from what the view shows, in an order that
    does not depend on the hidden values: the others' hands (their unplayed cards, and
    which played ones came back), their secret picks, the order of each action deck and
    the card in another's planned power card return.
    """

    def __init__(self, state: engine.State, seen: View, me: str, seed: int) -> None:
        self.state = state
        self.seen = seen
        self.me = me
        self.seed = seed
        self.cache: dict[int, engine.State] = {}
        self.rounds_total = seen["rounds_total"]

    def get(self, index: int) -> engine.State:
        if index not in self.cache:
            self.cache[index] = deal(self.state, self.seen, self.me, Rng(self.seed + index))
        return self.cache[index]

    def value(self, state: engine.State) -> float:
        """The bot's evaluation of where a playout ended, less the power card it played
        this round (worth more in the rounds left)."""
        me = self.me
        m = Model.of(engine.view(state, me), me)
        if state.phase == "over":
            return m.value({c: float(s) for c, s in state.scores.items()})
        # The playout stops before the next round's power cards: the last one is this round's.
        played = state.discards[me]
        rounds_left = self.rounds_total - self.seen["round_number"]
        return m.value() - (CARD_COST * played[-1] * rounds_left if played else 0.0)


def deal(state: engine.State, seen: View, me: str, rng: Rng) -> engine.State:
    """A state consistent with `me`'s view of `state`: what is hidden from `me` is dealt
    from `rng` and the view alone (public counts, sorted before any shuffle)."""
    world = state.copy()
    players = seen["players"]
    others = [c for c in seen["colours"] if c != me]
    for colour in others:
        hand, back = _deal_hand(world, colour, players[colour]["hand_size"], rng)
        world.hands[colour] = hand
        world.returned_cards[colour] = back
    world.action_decks = {s: rng.shuffled(sorted(d)) for s, d in sorted(world.action_decks.items())}
    _deal_picks(world, world.picks, others, rng)
    if world.special is not None:
        _deal_picks(world, world.special["picks"], others, rng)
        for step in world.special["steps"]:
            if step["do"] == "power_card_return" and step["colour"] != me:
                played = sorted(set(world.discards[step["colour"]]))
                step["card"] = rng.choice(played) if played else 1
    return world


def _deal_hand(
    world: engine.State, colour: str, size: int, rng: Rng
) -> tuple[list[int], list[int]]:
    """A hand of `size` cards for `colour`: every card never played, and played ones that
    came back (power_card_return) to make up the size; and which came back."""
    deck: list[int] = list(POWER_CARDS)
    for team in world.teams:
        if colour in team:
            deck = list(TWO_COLOUR_DECKS[team.index(colour)])
    played = set(world.discards[colour])
    never = [v for v in deck if v not in played]
    if len(never) >= size:
        return sorted(rng.shuffled(never)[:size]), []
    back = sorted(rng.shuffled(sorted(played))[: size - len(never)])
    return sorted(never + back), back


def _deal_picks(
    world: engine.State, picks: dict[str, str | None], others: list[str], rng: Rng
) -> None:
    """Deal each other seat that has picked a pick among those open to it."""
    made = [c for c in others if picks.get(c) is not None]
    for colour in made:
        picks[colour] = None
    for colour in made:
        regions = sorted(
            m["region"]
            for m in engine.legal_moves(world, colour)
            if m["type"] in ("castillo_pick", "secret_pick")
        )
        picks[colour] = rng.choice(regions) if regions else rng.choice(sorted(REGIONS))


__all__ = ["Appraisal", "Playout", "SearchBot", "deal"]
