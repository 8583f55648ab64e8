"""The greedy bot's model of the game: the board as one seat's view shows it, and its
evaluation (a projected score per colour, weighed into one value for the bot's side).
"""

from __future__ import annotations

from engine.data import (
    CASTILLO,
    COURT,
    HOME_BONUS,
    KING_BONUS,
    MOBILE_SCOREBOARDS,
    NEIGHBOURS,
    PLACES,
    PROVINCE,
    REGIONS,
    SCOREBOARDS,
)
from engine.types import Step, View

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
    colours: list[str]
    me: str
    mine: list[str]  # the colours of the bot's side (two in the two-colour variant)
    others: list[str]
    king: str
    grandes: dict[str, str]
    counts: dict[str, dict[str, int]]  # place -> colour -> caballeros, colours with none left out
    boards: dict[str, tuple[int, int, int]]
    scores: dict[str, float]
    court: dict[str, int]
    province: dict[str, int]
    vetoes: dict[str, int]
    hand: int
    mobile: dict[str, str | None]

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
    def of(cls, seen: View, me: str, project: bool = True) -> Model:
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

    def step(self, step: Step) -> None:
        """Carry out one public plan step (as `engine.steps` would)."""
        if step["do"] == "move":
            for part in step["caballeros"]:
                self.move(part["colour"], part["from"], part["to"], part["count"])
        elif step["do"] == "award":
            for award in step["awards"]:
                self.scores[award["player"]] += award["points"]
        elif step["do"] == "mobile_scoreboard":
            self.mobile[step["scoreboard"]] = step["to"]
        elif step["do"] == "king":
            self.king = step["to"]
        elif step["do"] == "grande":
            self.grandes[step["colour"]] = step["to"]
        elif step["do"] == "keep_veto":
            self.vetoes[step["colour"]] += 1
        elif step["do"] == "power_card_return" and step["colour"] == self.me:
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
    none: tuple[int, ...] = ()
    best = [(0.0, none)] + [(-1e9, none)] * k
    for row in table:
        nxt = [(-1e9, none)] * (k + 1)
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


def placements_left(seen: View, me: str) -> int:
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


def scored_places(m: Model, card: str) -> list[str] | None:
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
        return max(([p] for p in _PLACES_ALL), key=lambda p: awards_gain(m, p, False))
    return None


def awards_gain(m: Model, places: list[str], only_first: bool) -> float:
    """How much scoring `places` now helps the bot's side against its opponents."""
    gained = dict.fromkeys(m.colours, 0.0)
    for place in places:
        for colour, points in m.awards(place, only_first).items():
            gained[colour] += points
    mine = sum(gained[c] for c in m.mine) / len(m.mine)
    theirs = [gained[c] for c in m.others] or [0.0]
    return mine - 0.7 * max(theirs) - 0.3 * sum(theirs) / len(theirs)
