"""The greedy bot: sensible moves from what its seat may see, one move deep."""

from __future__ import annotations

import engine
from engine.bots.model import (
    CARD_WORTH,
    DEFERRED_BONUS,
    EPS,
    Model,
    awards_gain,
    placement_plan,
    placements_left,
    scored_places,
)
from engine.data import CASTILLO, COURT, POWER_CARDS, PROVINCE
from engine.rng import Rng
from engine.types import Move, SpecialView, View


class GreedyBot:
    """Plays sensibly on what its seat may see: majorities next to the king, scoring where
    it leads, power cards by the action card it wants; one-move lookahead elsewhere.

    It reads the game only through the facade: `engine.view(state, player)` (also of the
    states its lookahead reaches with `engine.apply`), `engine.legal_moves` and
    `engine.reveals_hidden`; never another player's hand or secret pick, nor the decks.
    Ties are broken by its own seeded generator.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    # -- the entry point ---------------------------------------------------------------
    def choose(self, state: engine.State, player: str) -> Move:
        moves = engine.legal_moves(state, player)
        if not moves:
            raise ValueError(f"{player} has no legal move now")
        if len(moves) == 1:
            return moves[0]
        seen = engine.view(state, player)
        kinds = {m["type"] for m in moves}
        if "play_power_card" in kinds:
            return self._power_card(seen, player, moves)
        if "take_caballeros" in kinds:
            return max(moves, key=_count)
        if "castillo_pick" in kinds or "secret_pick" in kinds:
            return self._secret_pick(seen, player, moves)
        if "return_caballero" in kinds:
            return self._king_rages_return(seen, player, moves)
        if "allow" in kinds:
            return self._window(seen, player, moves)
        if "choose_card" in kinds:
            return self._choose_card(state, seen, player, moves)
        return self._turn_move(state, seen, player, moves, deep=True)[0]

    def _best(self, moves: list[Move], values: list[float]) -> Move:
        """The move of highest value; ties broken by the bot's own generator."""
        top = max(values)
        tied = [m for m, v in zip(moves, values, strict=True) if v >= top - EPS]
        return tied[0] if len(tied) == 1 else self.rng.choice(tied)

    # -- lookahead ---------------------------------------------------------------------
    def _after(
        self, state: engine.State, player: str, move: Move
    ) -> tuple[engine.State, View | None]:
        """The state after `move` and the model of its view, or None if the result would
        show something hidden (others' secret picks, a revealed pick outcome)."""
        nxt, events = engine.apply(state, player, move)
        if any(e.get("type") in ("castillo_revealed", "secret_picks_revealed") for e in events):
            return nxt, None
        seen = engine.view(nxt, player)
        return nxt, seen

    def _score_seen(self, seen: View, player: str) -> float:
        m = Model.of(seen, player)
        value = m.value()
        special = seen.get("special")
        if special and special["player"] == player and special["stage"] != "planning":
            value += DEFERRED_BONUS.get(special["card"], 0.0) if not special["plan"] else 0.0
        left = placements_left(seen, player)
        if left:
            value += placement_plan(m, left)[0]
        return value

    def _turn_move(
        self,
        state: engine.State,
        seen: View,
        player: str,
        moves: list[Move],
        deep: bool,
    ) -> tuple[Move, float]:
        """One step of the bot's own turn: placing, planning its special action, ending."""
        base = Model.of(seen, player)
        v0 = base.value()
        left = placements_left(seen, player)
        pot, alloc = placement_plan(base, left) if left else (0.0, {})
        turn = seen["turn"]
        special_open = turn is not None and turn["special"] == "open"
        values: list[float] = []
        best_special = 0.0
        pending_places: list[tuple[int, str]] = []  # (index, where to) of each place move
        for i, move in enumerate(moves):
            if move["type"] == "place":
                values.append(0.0)
                pending_places.append((i, move["to"]))
                continue
            if move["type"] == "end_turn":
                values.append(v0 - EPS)
                continue
            if move["type"] == "skip_special":
                values.append(v0 + pot)
                continue
            value = self._special_move_value(state, base, v0, pot, left, player, move, deep)
            values.append(value)
            if special_open:
                best_special = max(best_special, value - v0 - pot)
        if pending_places:
            # Placing first and the card's action after (a scoring then counts them) is
            # worth the best spread of the placements plus the best first special move.
            target = max(alloc, key=lambda t: (alloc[t], t)) if alloc else None
            for i, to in pending_places:
                if to == target:
                    values[i] = v0 + pot + best_special + 2 * EPS
                else:
                    m = base.copy()
                    m.move(player, COURT, to)
                    gain = base.place_gain(to, player, 1) + placement_plan(m, left - 1)[0]
                    values[i] = v0 + gain + best_special
        choice = self._best(moves, values)
        return choice, max(values)

    def _special_move_value(
        self,
        state: engine.State,
        base: Model,
        v0: float,
        pot: float,
        left: int,
        player: str,
        move: Move,
        deep: bool,
    ) -> float:
        """The value of a move of the bot's special action (planning or ending it)."""
        if move["type"] == "move_caballero":
            m = base.copy()
            m.move(move["colour"], move["from"], move["to"])
            value = m.value() + (placement_plan(m, left)[0] if left else 0.0)
        elif move["type"] == "special_place":
            m = base.copy()
            m.move(player, COURT, move["to"])
            value = m.value()
        elif move["type"] == "remove_caballero":
            m = base.copy()
            m.move(move["colour"], move["region"], PROVINCE)
            value = m.value() + pot
        else:
            nxt, after = self._after(state, player, move)
            if after is None:
                value = v0
            elif (
                deep
                and move["type"] in ("special_option", "special_region")
                and _mine_to_plan(after, player)
            ):
                value = self._rollout(nxt, player)
            else:
                value = self._score_seen(after, player)
        if move["type"] == "return_power_card":
            value += 0.05 * move["card"]  # the higher card back
        if move["type"] == "end_special":
            value += EPS  # stop an "up to" card rather than move for nothing
        return value

    def _rollout(self, state: engine.State, player: str, limit: int = 40) -> float:
        """Play the bot's own moves greedily (one step deep) while it is its turn to act,
        and value where that leads."""
        seen = engine.view(state, player)
        for _ in range(limit):
            waiting = seen["pending"]
            if not waiting or waiting[0]["player"] != player or waiting[0]["kind"] != "turn":
                break
            moves = engine.legal_moves(state, player)
            if not moves or any(m["type"] == "choose_card" for m in moves):
                break
            move, _ = self._turn_move(state, seen, player, moves, deep=False)
            state, seen_after = self._after(state, player, move)
            if seen_after is None:
                break
            seen = seen_after
        return self._score_seen(seen, player)

    # -- power cards -------------------------------------------------------------------
    def _power_card(
        self, seen: View, me: str, moves: list[Move]
    ) -> Move:
        return self._best(moves, self.power_card_values(seen, me, moves))

    def power_card_values(self, seen: View, me: str, moves: list[Move]) -> list[float]:
        """What each power card is worth now: the chance of getting each face-up action
        card (from the cards already played and those others may still hold), the
        caballeros it brings to court, less what playing a high card early costs."""
        m = Model.of(seen, me)
        players = seen["players"]
        played_now = {c: p["power_card"] for c, p in players.items() if p["power_card"]}
        used_now = set(played_now.values())
        yet = [c for c in m.colours if c != me and c not in played_now]
        rounds_left = seen["rounds_total"] - seen["round_number"] + 1
        court, province = m.court[me], m.province[me]
        worth_cache: dict[tuple[str, int, int], float] = {}

        def worth(card: str, stack: int, court_then: int) -> float:
            key = (card, stack, min(stack, court_then))
            if key not in worth_cache:
                worth_cache[key] = self._card_worth(m, card, stack, court_then)
            return worth_cache[key]

        values = []
        for move in moves:
            assert move["type"] == "play_power_card"  # the only moves of the moment
            v = move["card"]
            drawn = min(POWER_CARDS[v], province)
            court_then = court + drawn
            cards = sorted(
                (worth(f["card"], f["stack"], court_then) for f in seen["action_cards"]["face_up"]),
                reverse=True,
            )
            # How many choose before: those who played higher, and the chance of each
            # player still to play holding (and playing) a higher card.
            ahead = [1.0] + [0.0] * len(m.colours)
            surely = sum(1 for x in played_now.values() if x > v)
            for colour in yet:
                possible = [
                    x
                    for x in range(1, 14)
                    if x not in players[colour]["power_cards_played"]
                    and x not in used_now
                    and x != v
                ]
                p = sum(1 for x in possible if x > v) / len(possible) if possible else 0.0
                ahead = [
                    ahead[j] * (1 - p) + (ahead[j - 1] * p if j else 0.0) for j in range(len(ahead))
                ]
            expected = sum(
                prob * (cards[surely + j] if surely + j < len(cards) else 0.0)
                for j, prob in enumerate(ahead)
            )
            room = max(0, 12 - court)
            bring = 0.6 * min(drawn, room) + 0.15 * max(0, drawn - room)
            cost = 0.35 * v * (rounds_left - 1) / 8
            values.append(expected + bring - cost)
        return values

    def _card_worth(self, m: Model, card: str, stack: int, court: int) -> float:
        """What an action card is worth to the bot now: its placements and its action."""
        trial = m.copy()
        trial.court[m.me] = court
        gain, alloc = placement_plan(trial, stack)
        for place, n in alloc.items():
            trial.move(m.me, COURT, place, n)
        scored = scored_places(trial, card)
        if scored is None:
            return gain + CARD_WORTH.get(card, 1.0)
        return gain + max(0.0, awards_gain(trial, scored, card == "score_first_places"))

    # -- secret choices ----------------------------------------------------------------
    def _secret_pick(
        self, seen: View, me: str, moves: list[Move]
    ) -> Move:
        """Castillo and secret-disk picks, judged on the board alone (others' picks unknown)."""
        m = Model.of(seen, me, project=False)
        card = "castillo" if moves[0]["type"] == "castillo_pick" else _special(seen)["card"]
        values = []
        for move in moves:
            assert move["type"] == "castillo_pick" or move["type"] == "secret_pick"
            region = move["region"]
            trial = m.copy()
            if card == "castillo":
                trial.move(me, CASTILLO, region, m.counts[CASTILLO].get(me, 0))
            elif card in ("secret_two_from_region", "secret_all_from_region"):
                have = m.counts[region].get(me, 0)
                n = min(2, have) if card == "secret_two_from_region" else have
                trial.move(me, region, PROVINCE, n)
            elif card == "eviction":
                source = _special(seen)["choices"]["region"]
                trial.move(me, source, region, m.counts[source].get(me, 0))
            elif card == "secret_scoring":
                for colour, points in trial.awards(region).items():
                    trial.scores[colour] += points
            values.append(trial.value())
        return self._best(moves, values)

    def _king_rages_return(
        self, seen: View, me: str, moves: list[Move]
    ) -> Move:
        """Return the caballero that costs least (those already returned counted)."""
        m = Model.of(seen, me)
        returns = (_special(seen)["choices"].get("returns") or {}).get(me, {})
        for source, n in returns.items():
            m.move(me, source, PROVINCE, n)
        values = []
        for move in moves:
            assert move["type"] == "return_caballero"  # the only moves of the moment
            trial = m.copy()
            trial.move(me, move["from"], PROVINCE)
            values.append(trial.value())
        return self._best(moves, values)

    def _window(self, seen: View, me: str, moves: list[Move]) -> Move:
        """Veto when stopping the plan (from its best step) gains more than the card is worth."""
        window = seen["veto"]["window"]
        assert window is not None  # the bot answers it
        steps = [s for s in window["plan"]]
        base = Model.of(seen, me, project=False)

        def value_of(k: int | None, spend: bool) -> float:
            m = base.copy()
            for step in steps if k is None else steps[: k - 1]:
                m.step(step)
            if spend:
                m.vetoes[me] = max(0, m.vetoes[me] - 1)
            return m.value()

        values = []
        counter = window.get("kind") == "counter"
        for move in moves:
            if counter:
                # Allowing lets the first veto stand; vetoing it lets the whole plan go ahead.
                if move["type"] == "allow":
                    values.append(value_of(window["from_step"], False))
                else:
                    values.append(value_of(None, True) - EPS)
            elif move["type"] == "allow" or window["player"] in base.mine:
                values.append(value_of(None, False) + (EPS if move["type"] == "allow" else 0))
            else:
                assert move["type"] == "veto"
                values.append(value_of(move["from_step"], True) - EPS)
        return self._best(moves, values)

    # -- the action card ---------------------------------------------------------------
    def _choose_card(
        self, state: engine.State, seen: View, me: str, moves: list[Move]
    ) -> Move:
        """Each face-up card played out greedily (placements and special action)."""
        values = []
        for move in moves:
            if move["type"] != "choose_card":
                nxt, after = self._after(state, me, move)
                values.append(self._score_seen(after, me) if after else -1e9)
                continue
            nxt, after = self._after(state, me, move)
            values.append(self._rollout(nxt, me) if after else -1e9)
        return self._best(moves, values)


def _count(move: Move) -> int:
    """How many caballeros a move takes to court (-1 for a move that takes none)."""
    return move["count"] if move["type"] == "take_caballeros" else -1


def _special(seen: View) -> SpecialView:
    """The special action under way, which the bot is asked about."""
    special = seen["special"]
    assert special is not None
    return special


def _mine_to_plan(seen: View, me: str) -> bool:
    special = seen.get("special")
    return bool(special and special["player"] == me and special["stage"] == "planning")
