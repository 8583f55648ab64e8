"""A game's log as its page lists it (the entries, a scoring's breakdown under the move
that set it off), the score chart, and a finished game's final scoring."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, TypedDict

from markupsafe import Markup

import engine
from pbem import words
from pbem.game import history
from pbem.game.ratings import GameResult
from pbem.kept import Drawn
from pbem.languages import number_text
from pbem.web.beside import signed
from pbem.web.board import (
    Chip,
    NamedChip,
    colour_chip,
)
from pbem.words.moves import notation

#: The log's entries, by all they show and the link they carry: a page after a move shows
#: mostly the entries the page before it showed.
_LOG_ENTRIES = Drawn(4096)


class LogRow(Chip):
    """A log entry as `log_entry` draws it."""

    seq: int
    name: str
    text: str
    notation: str | None  # what a player writes in a mail for it; None: hidden
    hidden: bool
    shown: bool  # the position shown is after this move
    after: bool  # a move after the position shown
    new_round: bool
    scoring: list[str]  # the scorings it set off, in words (`scoring_of`)


def log_row(
    entry: engine.ShownLogEntry,
    names: dict[str, str],
    shown: int,
    starts: Collection[int],
    card: str | None = None,
) -> LogRow:
    """A log entry (as `engine.visible_log` shows it) as `log_entry` draws it; `starts` are
    the seqs of the moves that started a round (`history.Record.starts`); `card`: the
    action card whose special action its move answered (`words.cards_of`)."""
    return {
        "seq": entry["seq"],
        **colour_chip(entry["player"]),
        "name": names.get(entry["player"], entry["player"]),
        "text": words.entry_words(entry, card, own=False),
        # What a player writes in a mail for it (a hidden move has none to show).
        "notation": None if entry.get("hidden") else notation(entry["move"]),
        "hidden": bool(entry.get("hidden")),
        "shown": entry["seq"] == shown,
        "after": entry["seq"] > shown,
        "new_round": entry["seq"] in starts,
        "scoring": scoring_of(entry, names),
    }


def scoring_of(entry: engine.ShownLogEntry, names: dict[str, str]) -> list[str]:
    """The scorings a move set off, in words (`pbem.words`, as the mails say them): a
    line per place with ranks and bonuses, after where the Castillo's caballeros went."""
    if not history.scored(entry):
        return []
    events = entry.get("events") or []
    shown = [e for e in events if e.get("type") in ("score", "castillo_revealed")]
    return words.event_lines(shown, names, None)


def log_html(
    parts: Any,
    game: Any,
    entries: Sequence[engine.ShownLogEntry],
    names: dict[str, str],
    shown: int,
    starts: Collection[int],
    whole_game: bool,
    links: dict[str, str],
) -> Markup:
    """The log of `game`'s `entries` (as `engine.visible_log` shows them to the reader),
    each entry drawn once per worker by all its drawing is made of. A page after a move
    mostly shows entries drawn before.

    An entry is named by the game (id and seed) and its seq, which fix the stored entry for
    good (the log is append-only), and by whether it is hidden: `engine.visible_log` shows a
    move either whole or, hidden, as its type alone. Then by the mover's name, where it
    stands from the seq shown, and the links; an entry that scored, by every player's name
    (its scoring's lines name them all)."""
    drawn: list[Markup] = []
    # The card each move answered, read from the stretch shown: a round's log holds the
    # card each of its turns chose.
    for entry, card in zip(entries, words.cards_of(entries), strict=True):
        seq = entry["seq"]
        key = (
            game.id,
            game.seed,
            seq,
            bool(entry.get("hidden")),
            names.get(entry["player"]),
            seq == shown,
            seq > shown,
            links["at"],
            tuple(names.items()) if history.scored(entry) else None,
            card,
        )

        def draw(entry: engine.ShownLogEntry = entry, card: str | None = card) -> Markup:
            row = log_row(entry, names, shown, starts, card)
            drawn_row: Markup = parts.log_entry(row, links)
            return drawn_row

        drawn.append(_LOG_ENTRIES.get(key, draw))
    # Each entry was drawn by an autoescaping template: the whole is markup as it stands.
    log: Markup = parts.log(Markup("".join(drawn)), whole_game)
    return log


#: The score chart's size, in its own units (it scales to the page's width), and the room
#: on its right for each line's letter and final score.
CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN, CHART_LABELS = 560, 220, 30, 50


class ChartLine(Chip):
    points: str  # the polyline's
    end: tuple[float, float]  # where the colour's letter goes
    final: int


class Chart(TypedDict):
    """Each colour's score round by round, as `score_chart` draws it (its own units)."""

    width: int
    height: int
    margin: int
    right: int
    rounds: list[tuple[int, float]]
    ticks: list[tuple[int, float]]
    lines: list[ChartLine]


def score_chart(entries: Sequence[engine.ShownLogEntry], colours: Sequence[str]) -> Chart:
    """Each colour's score round by round (`words.scores_by_round`), as lines to draw: a
    polyline and, at its end, the colour's letter (colours alone would not tell every reader
    red from green)."""
    rounds = words.scores_by_round(entries, colours)
    top = max([max(r.values(), default=0) for r in rounds] + [10])
    inner_w = CHART_WIDTH - CHART_MARGIN - CHART_LABELS
    inner_h = CHART_HEIGHT - 2 * CHART_MARGIN

    def x(i: int) -> float:
        return CHART_MARGIN + inner_w * i / max(len(rounds) - 1, 1)

    def y(score: int) -> float:
        return CHART_HEIGHT - CHART_MARGIN - inner_h * score / top

    lines: list[ChartLine] = [
        {
            **colour_chip(c),
            "points": " ".join(f"{x(i):.1f},{y(r[c]):.1f}" for i, r in enumerate(rounds)),
            "end": (x(len(rounds) - 1), y(rounds[-1][c])),
            "final": rounds[-1][c],
        }
        for c in colours
    ]
    ticks = [(t, y(t)) for t in range(0, top + 1, max(10, (top // 4) // 10 * 10 or 10))]
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "margin": CHART_MARGIN,
        "right": CHART_WIDTH - CHART_LABELS,
        "rounds": [(i, x(i)) for i in range(len(rounds))],
        "ticks": ticks,
        "lines": lines,
    }


class RatingShown(TypedDict):
    """A person's rating change in a finished game, as its final scoring writes it."""

    player_id: int
    rated: bool
    change: str  # signed, in the reader's numbers
    after: str


class FinalRow(NamedChip):
    score: int
    winner: bool
    rating: RatingShown | None  # a person's (None: a house bot's seat, or not yet rated)


class TeamShown(TypedDict):
    players: list[NamedChip]
    score: int
    winner: bool


class FinalScoring(TypedDict):
    rows: list[FinalRow]
    teams: list[TeamShown]  # a two-colour game's: each person's two colours
    chart: Chart | None


def _rating_shown(result: GameResult | None) -> RatingShown | None:
    if result is None:
        return None
    change = result["rating_change"]
    return {
        "player_id": result["player_id"],
        "rated": result["rated"],
        "change": signed(number_text(change), change),
        "after": number_text(result["ordinal"]),
    }


def final_scoring(
    view: engine.View,
    names: dict[str, str],
    entries: Sequence[engine.ShownLogEntry] = (),
    results: Mapping[str, GameResult] | None = None,
) -> FinalScoring | None:
    """The scores, winners and (two-colour game) each person's score, once the game is over,
    with the score chart over its rounds (`entries`: the whole log, with its events) and
    each person's rating change (`results`, by colour)."""
    if view.get("phase") != "over":
        return None
    results = results or {}
    winners = set(view.get("winners", []))
    rows: list[FinalRow] = sorted(
        (
            {
                **colour_chip(c),
                "name": names.get(c, c),
                "score": view["players"][c]["score"],
                "winner": c in winners,
                "rating": _rating_shown(results.get(c)),
            }
            for c in view["colours"]
        ),
        key=lambda r: -r["score"],
    )
    teams: list[TeamShown] = [
        {
            "players": [{**colour_chip(c), "name": names.get(c, c)} for c in team["colours"]],
            "score": team["score"],
            "winner": any(c in winners for c in team["colours"]),
        }
        for team in view.get("teams", [])
    ]
    chart = score_chart(entries, view["colours"]) if entries else None
    return {"rows": rows, "teams": teams, "chart": chart}
