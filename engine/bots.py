"""Bots: choosers among legal moves."""

from __future__ import annotations

from typing import Any

import engine
from engine.data import (
    CASTILLO,
    COURT,
    HOME_BONUS,
    KING_BONUS,
    MOBILE_SCOREBOARDS,
    NEIGHBOURS,
    PLACES,
    POWER_CARDS,
    PROVINCE,
    REGIONS,
    SCOREBOARDS,
)
from engine.rng import Rng


class RandomBot:
    """Picks uniformly among the legal moves, from its own seed (not the game's)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: engine.State, player: str) -> dict[str, Any]:
        moves = engine.legal_moves(state, player)
        if not moves:
            raise ValueError(f"{player} has no legal move now")
        return self.rng.choice(moves)


def play_random_game(
    colours: list[str], seed: int, options: dict[str, Any] | None = None, bot_seed: int = 0
) -> tuple[engine.State, list[tuple[str, dict[str, Any]]]]:
    """Play a whole game with random bots; return the final state and the move log."""
    bot = RandomBot(bot_seed)
    state = engine.new_game(colours, seed=seed, options=options)
    log: list[tuple[str, dict[str, Any]]] = []
    while not engine.is_over(state):
        player = engine.pending(state)[0]["player"]
        move = bot.choose(state, player)
        state, _ = engine.apply(state, player, move)
        log.append((player, move))
    return state, log


# ---------------------------------------------------------------------------------------
# The greedy bot

#: Evaluation weights (points). A caballero in court is a future placement; one on the
#: board (outside the castillo) a little more, so placing never looks worse than keeping.
W_COURT = 0.2
W_BOARD = 0.3
W_CASTILLO = 0.6  # scored with the castillo, then moved where its owner likes
W_MARGIN = 0.35  # per caballero of lead (up to 2) where first: a lead that survives a move
W_VETO = 2.5  # a kept Veto card
W_HAND = 1.5  # a power card in hand (power_card_return)
#: What a special action whose effect comes only from others' answers (returns, secret
#: picks) is worth to its player when planned: the plan's steps do not exist yet.
DEFERRED_BONUS: dict[str, float] = {
    "king_rages": 3.0,
    "secret_two_from_region": 2.0,
    "secret_all_from_region": 3.0,
    "eviction": 2.5,
    "secret_scoring": 2.0,
}
#: Rough worth of each card's special action when choosing a power card (scoring cards are
#: valued on the board instead).
CARD_WORTH: dict[str, float] = {
    "intrigue_own_region": 1.5,
    "intrigue_court_two": 2.0,
    "intrigue_court_two_or_own_region": 2.0,
    "intrigue_five_from_region": 3.0,
    "intrigue_three_foreign": 2.5,
    "intrigue_three_any": 2.5,
    "intrigue_two_own_two_foreign": 3.0,
    "intrigue_four_own": 2.0,
    "intrigue_four_any": 3.0,
    "veto": 2.0,
    "decay_all_court": 2.5,
    "decay_three_court": 2.0,
    "king_rages": 3.0,
    "one_from_each_opponent": 1.5,
    "secret_two_from_region": 2.0,
    "secret_all_from_region": 3.0,
    "mobile_scoreboard": 1.5,
    "royal_adviser": 2.0,
    "eviction": 2.0,
    "grande": 1.0,
    "power_card_return": 2.0,
    "court_two": 1.0,
    "secret_scoring": 2.0,
    "king": 4.0,
}
EPS = 1e-6
_PLACES_ALL = PLACES


class Model:
    """The board as one seat's view shows it, as plain counts the bot can change cheaply.

    Built only from `engine.view(state, player)`: never from the state itself.
    """

    __slots__ = (
        "colours",
        "me",
        "mine",
        "others",
        "king",
        "grandes",
        "counts",
        "boards",
        "scores",
        "court",
        "province",
        "vetoes",
        "hand",
        "mobile",
    )

    def copy(self) -> Model:
        m = Model.__new__(Model)
        m.colours, m.me, m.mine, m.others = self.colours, self.me, self.mine, self.others
        m.king, m.grandes = self.king, dict(self.grandes)
        m.counts = {p: dict(c) for p, c in self.counts.items()}
        m.boards, m.mobile = self.boards, dict(self.mobile)
        m.scores, m.court = dict(self.scores), dict(self.court)
        m.province, m.vetoes, m.hand = dict(self.province), dict(self.vetoes), self.hand
        return m

    @classmethod
    def of(cls, seen: dict[str, Any], me: str, project: bool = True) -> Model:
        m = cls.__new__(cls)
        m.colours = list(seen["colours"])
        m.me = me
        team = [me]
        for result in seen.get("teams") or ():
            if me in result["colours"]:
                team = list(result["colours"])
        m.mine = team
        m.others = [c for c in m.colours if c not in team]
        m.king = seen["king"]
        players = seen["players"]
        m.grandes = {c: players[c]["grande"] for c in m.colours}
        m.counts = {r: dict(seen["regions"][r]["caballeros"]) for r in REGIONS}
        m.counts[CASTILLO] = dict(seen["castillo"]["caballeros"])
        m.mobile = dict(seen["mobile_scoreboards"])
        m.boards = SCOREBOARDS
        m.scores = {c: float(players[c]["score"]) for c in m.colours}
        m.court = {c: players[c]["court"] for c in m.colours}
        m.province = {c: players[c]["province"] for c in m.colours}
        m.vetoes = {c: 0 for c in m.colours}
        for holder in seen["veto"]["holders"]:
            m.vetoes[holder["player"]] += 1
        m.hand = len(players[me].get("hand", ()))
        special = seen.get("special")
        if special and project:
            for step in special["plan"]:
                m.step(step)
        return m

    # -- changes -------------------------------------------------------------------------
    def scoreboard(self, place: str) -> tuple[int, int, int]:
        for name, where in self.mobile.items():
            if where == place:
                return MOBILE_SCOREBOARDS[name]
        return self.boards[place]

    def move(self, colour: str, source: str, target: str, n: int = 1) -> None:
        for where, delta in ((source, -n), (target, n)):
            if where == COURT:
                self.court[colour] += delta
            elif where == PROVINCE:
                self.province[colour] += delta
            else:
                here = self.counts[where]
                left = here.get(colour, 0) + delta
                if left:
                    here[colour] = left
                else:
                    here.pop(colour, None)

    def step(self, step: dict[str, Any]) -> None:
        """Carry out one public plan step (as `engine.steps` would)."""
        do = step["do"]
        if do == "move":
            for part in step["caballeros"]:
                self.move(part["colour"], part["from"], part["to"], part["count"])
        elif do == "award":
            for award in step["awards"]:
                self.scores[award["player"]] += award["points"]
        elif do == "mobile_scoreboard":
            self.mobile[step["scoreboard"]] = step["to"]
        elif do == "king":
            self.king = step["to"]
        elif do == "grande":
            self.grandes[step["colour"]] = step["to"]
        elif do == "keep_veto":
            self.vetoes[step["colour"]] += 1
        elif do == "power_card_return" and step["colour"] == self.me:
            self.hand += 1

    # -- reading -------------------------------------------------------------------------
    def awards(self, place: str, only_first: bool = False) -> dict[str, float]:
        """Points per colour for scoring `place` now (ranks, ties, king's and home bonuses)."""
        counts = self.counts[place]
        out: dict[str, float] = {}
        if not counts:
            return out
        values = self.scoreboard(place)
        usable = {2: 1, 3: 2}.get(len(self.colours), 3)
        by_count: dict[int, list[str]] = {}
        for colour, n in counts.items():
            by_count.setdefault(n, []).append(colour)
        position = 1
        for n in sorted(by_count, reverse=True):
            group = by_count[n]
            rank = position if len(group) == 1 else position + 1
            if only_first and rank != 1:
                break
            points = values[rank - 1] if rank <= usable else 0
            for colour in group:
                out[colour] = points
            if rank == 1 and place != CASTILLO:
                (first,) = group
                if place == self.king:
                    out[first] += KING_BONUS
                if self.grandes[first] == place:
                    out[first] += HOME_BONUS
            position += 1 if len(group) == 1 else 2
        return out

    def place_terms(self, place: str) -> dict[str, float]:
        """What `place` adds to each colour's projected score."""
        out = self.awards(place)
        counts = self.counts[place]
        if len(counts) >= 1:
            ordered = sorted(counts.values(), reverse=True)
            lead = ordered[0] - (ordered[1] if len(ordered) > 1 else 0)
            if lead > 0:
                first = next(c for c, n in counts.items() if n == ordered[0])
                out[first] = out.get(first, 0) + W_MARGIN * min(lead, 2)
        weight = W_CASTILLO if place == CASTILLO else W_BOARD
        for colour, n in counts.items():
            out[colour] = out.get(colour, 0) + weight * n
        return out

    def projected(self) -> dict[str, float]:
        """Each colour's score if every place were scored now, plus small terms."""
        totals = {
            c: self.scores[c] + W_COURT * self.court[c] + W_VETO * self.vetoes[c]
            for c in self.colours
        }
        for place in _PLACES_ALL:
            for colour, points in self.place_terms(place).items():
                totals[colour] += points
        return totals

    def value(self, totals: dict[str, float] | None = None) -> float:
        """The bot's evaluation: its side's projected score against its opponents'."""
        totals = totals if totals is not None else self.projected()
        mine = sum(totals[c] for c in self.mine) / len(self.mine)
        theirs = [totals[c] for c in self.others]
        if not theirs:
            return mine + W_HAND * self.hand
        return mine - 0.7 * max(theirs) - 0.3 * sum(theirs) / len(theirs) + W_HAND * self.hand

    def place_gain(self, place: str, colour: str, delta: int) -> float:
        """How `value` changes when `colour` gains `delta` caballeros in `place` alone."""
        before = self.place_terms(place)
        here = self.counts[place]
        old = here.get(colour, 0)
        if old + delta:
            here[colour] = old + delta
        else:
            here.pop(colour, None)
        after = self.place_terms(place)
        if old:
            here[colour] = old
        else:
            here.pop(colour, None)
        return _side_delta(self, before, after)


def _side_delta(m: Model, before: dict[str, float], after: dict[str, float]) -> float:
    """A separable approximation of `value`'s change when one place's terms change."""
    d = {c: after.get(c, 0) - before.get(c, 0) for c in m.colours}
    mine = sum(d[c] for c in m.mine) / len(m.mine)
    theirs = [d[c] for c in m.others]
    if not theirs:
        return mine
    return mine - 0.5 * max(theirs) - 0.5 * sum(theirs) / len(theirs)


def placement_plan(m: Model, k: int) -> tuple[float, dict[str, int]]:
    """The best spread of up to `k` caballeros from court next to the king or into the
    castillo, by a knapsack over per-place gains: (gain, caballeros per place)."""
    k = min(k, m.court[m.me])
    if k <= 0:
        return 0.0, {}
    targets = sorted(NEIGHBOURS[m.king]) + [CASTILLO]
    table = [[m.place_gain(t, m.me, j) if j else 0.0 for j in range(k + 1)] for t in targets]
    # best[used] = (gain, allocation) over the targets seen so far.
    best: list[tuple[float, tuple[int, ...]]] = [(0.0, ())] * (k + 1)
    best = [(0.0, ())] + [(-1e9, ())] * k
    for row in table:
        nxt: list[tuple[float, tuple[int, ...]]] = [(-1e9, ())] * (k + 1)
        for used, (gain, alloc) in enumerate(best):
            if gain <= -1e9:
                continue
            for j in range(k - used + 1):
                g = gain + row[j]
                if g > nxt[used + j][0] + EPS:
                    nxt[used + j] = (g, (*alloc, j))
        best = nxt
    gain, alloc = max(best, key=lambda b: b[0])
    return gain, {t: j for t, j in zip(targets, alloc, strict=False) if j}


def _placements_left(seen: dict[str, Any], me: str) -> int:
    """How many caballeros `me` may still place this turn, from what the view shows."""
    turn = seen.get("turn")
    if not turn or turn["player"] != me or turn["step"] not in ("act", "choose_card", "draw"):
        return 0
    court = seen["players"][me]["court"]
    if turn["step"] != "act":
        return court  # judged once the card is known
    left = turn["place_limit"] - turn["placed"]
    if turn["can_place"]:
        return min(left, court)
    if turn["special"] == "under_way" and turn["placed"] == 0:
        return min(left, court)  # placement may follow the special action
    return 0


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
    def choose(self, state: engine.State, player: str) -> dict[str, Any]:
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
            return max(moves, key=lambda m: m.get("count", -1))
        if "castillo_pick" in kinds or "secret_pick" in kinds:
            return self._secret_pick(seen, player, moves)
        if "return_caballero" in kinds:
            return self._king_rages_return(seen, player, moves)
        if "allow" in kinds:
            return self._window(seen, player, moves)
        if "choose_card" in kinds:
            return self._choose_card(state, seen, player, moves)
        return self._turn_move(state, seen, player, moves, deep=True)[0]

    def _best(self, moves: list[dict[str, Any]], values: list[float]) -> dict[str, Any]:
        """The move of highest value; ties broken by the bot's own generator."""
        top = max(values)
        tied = [m for m, v in zip(moves, values, strict=True) if v >= top - EPS]
        return tied[0] if len(tied) == 1 else self.rng.choice(tied)

    # -- lookahead ---------------------------------------------------------------------
    def _after(self, state: engine.State, player: str, move: dict[str, Any]):
        """The state after `move` and the model of its view, or None if the result would
        show something hidden (others' secret picks, a revealed pick outcome)."""
        nxt, events = engine.apply(state, player, move)
        if any(e.get("type") in ("castillo_revealed", "secret_picks_revealed") for e in events):
            return nxt, None
        seen = engine.view(nxt, player)
        return nxt, seen

    def _score_seen(self, seen: dict[str, Any], player: str) -> float:
        m = Model.of(seen, player)
        value = m.value()
        special = seen.get("special")
        if special and special["player"] == player and special["stage"] != "planning":
            value += DEFERRED_BONUS.get(special["card"], 0.0) if not special["plan"] else 0.0
        left = _placements_left(seen, player)
        if left:
            value += placement_plan(m, left)[0]
        return value

    def _turn_move(
        self,
        state: engine.State,
        seen: dict[str, Any],
        player: str,
        moves: list[dict[str, Any]],
        deep: bool,
    ) -> tuple[dict[str, Any], float]:
        """One step of the bot's own turn: placing, planning its special action, ending."""
        base = Model.of(seen, player)
        v0 = base.value()
        left = _placements_left(seen, player)
        pot, alloc = placement_plan(base, left) if left else (0.0, {})
        turn = seen.get("turn") or {}
        special_open = turn.get("special") == "open"
        values: list[float] = []
        best_special = 0.0
        pending_places: list[int] = []
        for i, move in enumerate(moves):
            kind = move["type"]
            if kind == "place":
                values.append(0.0)
                pending_places.append(i)
                continue
            if kind == "end_turn":
                values.append(v0 - EPS)
                continue
            if kind == "skip_special":
                values.append(v0 + pot)
                continue
            if kind == "move_caballero":
                m = base.copy()
                m.move(move["colour"], move["from"], move["to"])
                value = m.value() + (placement_plan(m, left)[0] if left else 0.0)
            elif kind == "special_place":
                m = base.copy()
                m.move(player, COURT, move["to"])
                value = m.value()
            elif kind == "remove_caballero":
                m = base.copy()
                m.move(move["colour"], move["region"], PROVINCE)
                value = m.value() + pot
            else:
                nxt, after = self._after(state, player, move)
                if after is None:
                    value = v0
                elif (
                    deep
                    and kind in ("special_option", "special_region")
                    and _mine_to_plan(after, player)
                ):
                    value = self._rollout(nxt, player)
                else:
                    value = self._score_seen(after, player)
            if kind == "return_power_card":
                value += 0.05 * move["card"]  # the higher card back
            if kind == "end_special":
                value += EPS  # stop an "up to" card rather than move for nothing
            values.append(value)
            if special_open:
                best_special = max(best_special, value - v0 - pot)
        if pending_places:
            # Placing first and the card's action after (a scoring then counts them) is
            # worth the best spread of the placements plus the best first special move.
            target = max(alloc, key=lambda t: (alloc[t], t)) if alloc else None
            for i in pending_places:
                to = moves[i]["to"]
                if to == target:
                    values[i] = v0 + pot + best_special + 2 * EPS
                else:
                    m = base.copy()
                    m.move(player, COURT, to)
                    gain = base.place_gain(to, player, 1) + placement_plan(m, left - 1)[0]
                    values[i] = v0 + gain + best_special
        choice = self._best(moves, values)
        return choice, max(values)

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
        self, seen: dict[str, Any], me: str, moves: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The power card for the action card the bot wants: the chance of getting each
        face-up card (from the cards already played and those others may still hold), the
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
        return self._best(moves, values)

    def _card_worth(self, m: Model, card: str, stack: int, court: int) -> float:
        """What an action card is worth to the bot now: its placements and its action."""
        trial = m.copy()
        trial.court[m.me] = court
        gain, alloc = placement_plan(trial, stack)
        for place, n in alloc.items():
            trial.move(m.me, COURT, place, n)
        scored = _scored_places(trial, card)
        if scored is None:
            return gain + CARD_WORTH.get(card, 1.0)
        return gain + max(0.0, _awards_gain(trial, scored, card == "score_first_places"))

    # -- secret choices ----------------------------------------------------------------
    def _secret_pick(
        self, seen: dict[str, Any], me: str, moves: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """Castillo and secret-disk picks, judged on the board alone (others' picks unknown)."""
        m = Model.of(seen, me, project=False)
        card = "castillo" if moves[0]["type"] == "castillo_pick" else seen["special"]["card"]
        values = []
        for move in moves:
            region = move["region"]
            trial = m.copy()
            if card == "castillo":
                trial.move(me, CASTILLO, region, m.counts[CASTILLO].get(me, 0))
            elif card in ("secret_two_from_region", "secret_all_from_region"):
                have = m.counts[region].get(me, 0)
                n = min(2, have) if card == "secret_two_from_region" else have
                trial.move(me, region, PROVINCE, n)
            elif card == "eviction":
                source = seen["special"]["choices"]["region"]
                trial.move(me, source, region, m.counts[source].get(me, 0))
            elif card == "secret_scoring":
                for colour, points in trial.awards(region).items():
                    trial.scores[colour] += points
            values.append(trial.value())
        return self._best(moves, values)

    def _king_rages_return(
        self, seen: dict[str, Any], me: str, moves: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """Return the caballero that costs least (those already returned counted)."""
        m = Model.of(seen, me)
        returns = (seen["special"]["choices"].get("returns") or {}).get(me, {})
        for source, n in returns.items():
            m.move(me, source, PROVINCE, n)
        values = []
        for move in moves:
            trial = m.copy()
            trial.move(me, move["from"], PROVINCE)
            values.append(trial.value())
        return self._best(moves, values)

    def _window(self, seen: dict[str, Any], me: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
        """Veto when stopping the plan (from its best step) gains more than the card is worth."""
        window = seen["veto"]["window"]
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
                values.append(value_of(move["from_step"], True) - EPS)
        return self._best(moves, values)

    # -- the action card ---------------------------------------------------------------
    def _choose_card(
        self, state: engine.State, seen: dict[str, Any], me: str, moves: list[dict[str, Any]]
    ) -> dict[str, Any]:
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


def _mine_to_plan(seen: dict[str, Any], me: str) -> bool:
    special = seen.get("special")
    return bool(special and special["player"] == me and special["stage"] == "planning")


def _scored_places(m: Model, card: str) -> list[str] | None:
    """The places a scoring card would score now (None: not a scoring card)."""
    groups = {
        "score_four_regions": (4,),
        "score_five_regions": (5,),
        "score_six_seven_regions": (6, 7),
    }
    if card in groups:
        return [r for r in REGIONS if m.scoreboard(r)[0] in groups[card]]
    if card == "score_castillo":
        return [CASTILLO]
    if card == "score_first_places":
        return list(REGIONS)
    if card in ("score_most_caballeros", "score_fewest_caballeros"):
        totals = {r: sum(m.counts[r].values()) for r in REGIONS if m.counts[r]}
        if not totals:
            return []
        pick = max if card == "score_most_caballeros" else min
        aim = pick(totals.values())
        return [r for r, n in totals.items() if n == aim]
    if card == "score_chosen_region":
        return max(([p] for p in _PLACES_ALL), key=lambda p: _awards_gain(m, p, False))
    return None


def _awards_gain(m: Model, places: list[str], only_first: bool) -> float:
    """How much scoring `places` now helps the bot's side against its opponents."""
    gained = dict.fromkeys(m.colours, 0.0)
    for place in places:
        for colour, points in m.awards(place, only_first).items():
            gained[colour] += points
    mine = sum(gained[c] for c in m.mine) / len(m.mine)
    theirs = [gained[c] for c in m.others] or [0.0]
    return mine - 0.7 * max(theirs) - 0.3 * sum(theirs) / len(theirs)
