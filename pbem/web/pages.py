"""What each page shows, built from `pbem.game` (views, legal moves, the log): the routes
only read the request and render.

Nothing here decides what is secret: the board and panel are drawn from `engine.view` for the
viewer, the log comes through `engine.visible_log`, the choices from `engine.legal_moves` for
the signed-in seat.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict, cast

from flask import current_app, request, url_for
from markupsafe import Markup

import engine
from engine.data import ACTION_STACKS, COLOURS, POWER_CARDS
from pbem import words
from pbem.errors import NotFound
from pbem.game import history, ratings, table
from pbem.game.games import (
    earliest_deadlines,
    games_of,
    get_game,
    page_rows,
    pending_deadlines,
    seats_of,
)
from pbem.game.ratings import GameResult
from pbem.game.states import current_state
from pbem.game.views import GameView, view_of_seats
from pbem.kept import Drawn
from pbem.languages import _, current_language, number_text
from pbem.play.batch import Outcome
from pbem.play.notes import LONGEST as LONGEST_NOTES
from pbem.play.talk import LONGEST as LONGEST_WORDS
from pbem.play.talk import OPEN_STATUSES
from pbem.store.models import Game, Seat
from pbem.web.beside import Beside, beside, signed
from pbem.web.board import (
    PLACES,
    Chip,
    NamedChip,
    board_in_words,
    board_svg,
    colour_chip,
    moment_shown,
    panel_html,
)
from pbem.web.links import link
from pbem.web.signin import Reader, SignedIn
from pbem.web.wording import card_text, colour_name
from pbem.words import place_name
from pbem.words.moves import move_text, moves_text, notation, notation_line

# --- the list of games -------------------------------------------------------------------


class GameRow(TypedDict):
    """A game as the lists show it (`game_row`); `your_games` adds when it began to wait
    and the earliest deadline of whoever it waits on."""

    id: int
    title: str
    status: str
    round_number: int
    rounds_total: int
    players: list[NamedChip]
    to_move: list[NamedChip]
    your_turn: bool
    since: NotRequired[str]
    deadline: NotRequired[str | None]


class GameLists(TypedDict):
    your_games: dict[str, list[GameRow]]
    in_play: list[GameRow]
    finished: list[GameRow]


def game_row(game: Game, player: SignedIn | None = None) -> GameRow:
    """A game as the lists show it: title, players, status, round, who must act."""
    names = {s.colour: s.player.name for s in game.seats}
    state = current_state(game.id, game.seed, game.seq)
    to_move = sorted({p["player"] for p in game.pending or []}) if game.status == "active" else []
    own = [s.colour for s in seats_of(game, player)]
    return {
        "id": game.id,
        "title": game.title,
        "status": game.status,
        "round_number": state.round_index + 1,
        "rounds_total": len(state.chart),
        "players": [{**colour_chip(c), "name": n} for c, n in names.items()],
        "to_move": [{**colour_chip(c), "name": names[c]} for c in to_move],
        "your_turn": any(c in to_move for c in own),
    }


def index_context(player: SignedIn | None) -> GameLists:
    return {
        "your_games": your_games(player) if player else {},
        "in_play": [game_row(g, player) for g in history.recent_games("active")],
        "finished": [game_row(g, player) for g in history.recent_games("finished", limit=10)],
    }


def your_games(player: SignedIn) -> dict[str, list[GameRow]]:
    """A player's games as correspondence sites list them: those waiting on you first
    (the longest waiting first), then those waiting on others, then the ones over; each
    waiting game with since when, and the earliest deadline of whoever it waits on."""
    games = games_of(player)
    active = [g.id for g in games if g.status == "active"]
    due = earliest_deadlines(active)
    groups: dict[str, list[GameRow]] = {"you": [], "others": [], "forming": [], "over": []}
    for game in sorted(games, key=lambda g: g.updated_at):
        row = game_row(game, player)
        if game.status == "forming":
            groups["forming"].append(row)
            continue
        if game.status != "active":
            groups["over"].append(row)
            continue
        row["since"] = game.updated_at.isoformat()
        waits = [due[game.id, p["colour"]] for p in row["to_move"] if (game.id, p["colour"]) in due]
        row["deadline"] = min(waits).isoformat() if waits else None
        groups["you" if row["your_turn"] else "others"].append(row)
    groups["over"].reverse()  # the latest over first
    return groups


# --- stepping through a game ---------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """Where the replay controls lead from `seq` (None: already there)."""

    seq: int
    last: int
    round_start: int  # the start of the round `seq` is in
    round_end: int  # the start of the next round, or the last seq
    start: int | None
    previous_round: int | None
    previous_move: int | None
    next_move: int | None
    next_round: int | None
    now: int | None


def replay(seq: int, last: int, starts: Sequence[int]) -> Replay:
    """Start, previous/next round, previous/next move, now, from `seq` of `last`, where
    `starts` are the seqs at which rounds start (sorted, 0 first)."""
    later = starts[bisect_right(starts, seq) :]
    current = bisect_right(starts, seq) - 1
    round_start = starts[current]
    # The round before this one, whose moves the log then lists (from the first round:
    # the start of the game).
    previous_round = starts[current - 1] if current >= 1 else (0 if seq > 0 else None)
    round_end = later[0] if later else last

    def unless_here(target: int) -> int | None:
        return None if target == seq else target

    return Replay(
        seq=seq,
        last=last,
        round_start=round_start,
        round_end=min(round_end, last),
        start=unless_here(0),
        previous_round=previous_round,
        previous_move=seq - 1 if seq > 0 else None,
        next_move=seq + 1 if seq < last else None,
        next_round=later[0] if later and later[0] <= last else unless_here(last),
        now=unless_here(last),
    )


class CardShown(TypedDict):
    card: str
    title: str
    copies: int
    text: str


class StackShown(TypedDict):
    number: int
    cards: list[CardShown]


class RulesShown(TypedDict):
    power_cards: list[tuple[int, int]]  # each power card and its caballeros
    stacks: list[StackShown]


def rules_context() -> RulesShown:
    """The power cards' allowances and each stack's cards with what they do."""
    stacks: list[StackShown] = [
        {
            "number": stack,
            "cards": [
                {
                    "card": card,
                    "title": words.card_title(card),
                    "copies": copies,
                    "text": _sentence(card_text(card)),
                }
                for card, copies in cards
            ],
        }
        for stack, cards in sorted(ACTION_STACKS.items())
    ]
    return {"power_cards": sorted(POWER_CARDS.items()), "stacks": stacks}


def _sentence(text: str) -> str:
    """`text` begun with a capital (in English as the rules page always wrote it: the rest
    in lower case)."""
    return text.capitalize() if current_language() == "en" else text[:1].upper() + text[1:]


# --- the board page ------------------------------------------------------------------------


#: Rendered boards and panels by (game, seed, seq, viewer, names): a past position never
#: changes, so each is drawn once per worker and then served from memory.
_RENDERED = Drawn(512)
#: The board pages' parts (`BoardPage`), by everything they show (see `board_page`).
_PAGES = Drawn(256)
#: The log's entries, by all they show and the link they carry: a page after a move shows
#: mostly the entries the page before it showed.
_LOG_ENTRIES = Drawn(4096)


def board_and_panel(
    game: Any,
    view: GameView,
    names: dict[str, str],
    deadlines: Mapping[str, str] | None = None,
) -> tuple[Markup, Markup, Markup]:
    """The board, the board in words and the side panel, for `view`."""
    deadlines = deadlines or {}
    if game.status == "forming":
        # Never kept: its seats are accepted and joined with no move made.
        seats = get_game(game.id).seats
        # A forming game's waits stand for the engine's: each seat accepting or open.
        view = cast(GameView, {**view, "pending": _forming_waits(seats)})
        names = {**names, **{s.colour: _("open seat") for s in seats if s.open}}
        return _drawn(view, names, deadlines)
    key = (
        game.id,
        game.seed,
        view["seq"],
        view["viewer"],
        tuple(names.items()),
        tuple(sorted(deadlines.items())),
    )
    drawn: tuple[Markup, Markup, Markup] = _RENDERED.get(
        key, lambda: _drawn(view, names, deadlines)
    )
    return drawn


def _drawn(
    view: GameView, names: Mapping[str, str], deadlines: Mapping[str, str]
) -> tuple[Markup, Markup, Markup]:
    return board_svg(view), board_in_words(view), panel_html(view, names, deadlines)


class Choice(TypedDict):
    """One legal move as a button: the move itself (JSON) and its words."""

    json: str
    text: str
    card: NotRequired[int]  # a power card's
    takes: NotRequired[int]  # the caballeros a power card takes to the court
    short: NotRequired[str]  # a move between places, named by where it goes


class PlaceChoices(TypedDict):
    place: str
    name: str
    moves: list[Choice]


class Choices(TypedDict):
    """The seat's legal moves as the page offers them, and what the decision needs said."""

    power: list[Choice]
    cards: list[Choice]
    places: list[PlaceChoices]
    shifts: list[PlaceChoices]
    other: list[Choice]
    guide: NotRequired[list[str]]
    example: NotRequired[str]  # one of these moves as a mail writes it, to type


def choices(moves: Sequence[Mapping[str, Any]], card: str | None = None) -> Choices:
    """The seat's legal moves as the page offers them: power cards, action cards, moves
    aimed at one place (clickable on the board), moves between places, and the rest; each
    in words, as what it does under `card`, the action card in play (`words.card_in_play`)."""
    power: list[Choice] = []
    cards: list[Choice] = []
    other: list[Choice] = []
    by_place: dict[str, list[Choice]] = {}
    by_source: dict[str, list[Choice]] = {}
    for move in moves:
        choice: Choice = {
            "json": json.dumps(move, separators=(",", ":")),
            "text": move_text(move, card),
        }
        target = move.get("to", move.get("region"))
        if move["type"] == "play_power_card":
            takes = POWER_CARDS[move["card"]]
            power.append({**choice, "card": move["card"], "takes": takes})
        elif move["type"] == "choose_card":
            cards.append(choice)
        elif "from" in move and "to" in move:
            # From one place to another: grouped by where they leave (a card that moves any
            # colour offers a hundred and more), each group opened from the map or its own.
            to = place_name(str(move["to"]))
            short = (
                _("%(colour)s to %(place)s", colour=colour_name(str(move["colour"])), place=to)
                if move.get("colour")
                else _("to %(place)s", place=to)
            )
            by_source.setdefault(str(move["from"]), []).append({**choice, "short": short})
        elif isinstance(target, str) and target in PLACES:
            by_place.setdefault(target, []).append(choice)
        else:
            other.append(choice)
    places: list[PlaceChoices] = [
        {"place": p, "name": place_name(p), "moves": by_place[p]} for p in PLACES if p in by_place
    ]
    shifts: list[PlaceChoices] = [
        {"place": p, "name": place_name(p), "moves": moves_from}
        for p, moves_from in sorted(by_source.items(), key=lambda item: _place_order(item[0]))
    ]
    offered: Choices = {
        "power": power,
        "cards": cards,
        "places": places,
        "shifts": shifts,
        "other": other,
    }
    if moves:
        offered["example"] = notation_line(cast(engine.Move, dict(moves[0])))
    return offered


def _place_order(place: str) -> int:
    return PLACES.index(place) if place in PLACES else len(PLACES)


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
    entry: Mapping[str, Any],
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


def scoring_of(entry: Mapping[str, Any], names: dict[str, str]) -> list[str]:
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
    entries: Sequence[Mapping[str, Any]],
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

        def draw(entry: Mapping[str, Any] = entry, card: str | None = card) -> Markup:
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


def score_chart(entries: Sequence[Mapping[str, Any]], colours: Sequence[str]) -> Chart:
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
    view: Mapping[str, Any],
    names: dict[str, str],
    entries: Sequence[Mapping[str, Any]] = (),
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


@dataclass(frozen=True)
class BoardPage:
    """The parts of a board page that are the same for everyone who sees it alike (the same
    seats, colour and seq), drawn once per worker. The route puts them in `web/_game_body.html`
    with what belongs to the request (an error, the CSRF token), in the reader's frame
    (`frame.framed`: the header, flash messages)."""

    game_id: int
    seed: int
    title: str
    shown: int
    colour_field: str | None  # the colour a person holding two acts as, sent with a move
    play_url: str  # where the move form posts
    head: Markup  # title, seats, replay controls
    final: Markup  # the final scoring, once the game is over
    moves: Markup | None  # the move buttons, or None when none are offered
    #: The seat whose orders in advance the reader may give here (their own, in play now).
    orders_seat: str | None
    board: Markup
    board_words: Markup  # the board as a table of words (`board.board_in_words`)
    panel: Markup
    log: Markup
    #: For a seat, the others' moves since its last one (`_since`).
    since: Markup = Markup("")
    #: The seat's decision is a turn: its moves are planned (dry runs, `plan_url`) and
    #: played together once confirmed, rather than each played as it is clicked.
    plans: bool = False
    plan_url: str = ""
    plan: PlanShown | None = None  # a turn being planned, not played yet
    typed_example: str = ""  # a move offered, as a mail writes it: the typed field's hint
    own: tuple[str, ...] = ()  # the reader's colours in the game (none: not a seat)
    holders: tuple[tuple[str, str], ...] = ()  # each seat's colour and holder's name, as read
    status: str = "active"  # the game's
    creator_id: int = 0  # who made the game, and organises it


@dataclass(frozen=True)
class Preview:
    """A turn planned on the page and not played yet: the moves a dry run played (`shown`),
    the seat's view and the state after them (secrets included: for the seat's legal moves
    only), and a last move that would reveal hidden information (`reveals`), which is not
    previewed but played unseen with the others once confirmed."""

    shown: list[engine.Move]
    view: GameView | None  # None: nothing previewed yet (the game as it is)
    state: engine.State | None
    reveals: engine.Move | None = None


@dataclass(frozen=True)
class PlanShown:
    """A planned turn as the page shows it: each step in words, what Confirm plays, and the
    links that take the last step back or start again."""

    steps: list[str]
    planned_json: str  # the previewed moves, sent with the next one chosen
    confirm_json: str  # every move Confirm plays (with the one that reveals, if any)
    confirm_count: int
    reveals: str | None  # the move played unseen, in words
    undo_url: str
    restart_url: str
    turn: bool = True  # a turn's steps; else one decision's choice (a power card, a pick)


def board_page(
    game_id: int, reader: Reader, seq: int | None = None, colour: str | None = None
) -> tuple[BoardPage, SignedIn | None]:
    """The board page at `seq` (None: now), as `colour` (one of the player's; None: their
    pending one), or the public view for anyone without a seat; and the signed-in player
    (None if nobody, or the reader's session is no longer good), for the page's header.

    One query reads the game, its seats and the player's name; the parts are then drawn
    only if this worker has not drawn them for the same key: the game (id, seed, seq,
    status, title), who holds each seat, which of them the player holds, the seq shown and
    the colour asked for. The key names all a page is drawn from, so a hit shows exactly
    what drawing it again would (and a request refused, e.g. for another's colour, is
    refused before anything is kept).
    """
    game, player, names, own = _read_game(game_id, reader)
    shown = game.seq if seq is None else seq
    # Each pending seat's deadline, for the game as it is now (a vacation moves one without
    # a move, so they are part of what the page is kept by).
    deadlines: tuple[tuple[str, str], ...] = ()
    if shown == game.seq:
        rows_due = pending_deadlines(game.id)
        deadlines = tuple((d.colour, d.due_at.isoformat()) for d in rows_due)
    key = (
        game.id,
        game.seed,
        game.seq,
        game.status,
        game.title,
        tuple(names.items()),
        tuple(own),
        shown,
        colour,
        request.script_root,  # the links in the parts
        deadlines,
    )
    if game.status == "forming":  # its seats change with no move made: never kept
        return _draw_board_page(game, names, own, shown, colour, dict(deadlines)), player
    page = _PAGES.get(
        key, lambda: _draw_board_page(game, names, own, shown, colour, dict(deadlines))
    )
    return page, player


def _read_game(
    game_id: int, reader: Reader
) -> tuple[Any, SignedIn | None, dict[str, str], list[str]]:
    """The game's row, the signed-in player (None if not a player, or their session is no
    longer good), each seat's name, and the colours the player holds: one query."""
    rows = page_rows(game_id, reader.params)
    if not rows:
        raise NotFound(_("There is no game %(game)s; GET /api/games lists yours.", game=game_id))
    game = rows[0]
    player = None
    if reader.player_id is not None and game.player_name is not None:
        player = SignedIn(id=reader.player_id, name=game.player_name)
    seats = [r for r in rows if r.seat_colour is not None]
    names = {r.seat_colour: r.seat_name for r in seats}
    own = [r.seat_colour for r in seats if player is not None and r.seat_player == player.id]
    return game, player, names, own


def plan_page(
    game_id: int, reader: Reader, colour: str | None, preview: Preview
) -> tuple[BoardPage, SignedIn | None]:
    """The board page of a turn being planned: the board as the seat would see it after the
    previewed moves, the moves it may add, and the plan with Undo and Confirm. Drawn for
    this request alone: a planned position is nobody's to keep (it may never be played)."""
    game, player, names, own = _read_game(game_id, reader)
    return _draw_board_page(game, names, own, game.seq, colour, {}, preview), player


#: Stands for the seq in the link to a seq, built once for the links to every seq.
_SEQ_SLOT = "__seq__"


def _draw_board_page(
    game: Any,
    names: dict[str, str],
    own: list[str],
    shown: int,
    colour: str | None,
    deadlines: dict[str, str],
    preview: Preview | None = None,
) -> BoardPage:
    view = view_of_seats(game, own, shown, colour)
    viewer = view["viewer"]
    card_now = words.card_in_play(view)  # the card a plan's first move answers
    in_turn = _in_turn(view)  # a turn's plan has steps; another decision's, its one choice
    if preview is not None and preview.view is not None:
        view = preview.view  # the seat's own view of the planned position
    record = history.record(game.id, game.seed, game.seq)
    steps = replay(shown, game.seq, record.starts)
    over = view.get("phase") == "over"
    entries = _entries(game, own, over, steps, record)
    # A person holding two colours names the one they act as, as with the API.
    colour_field = viewer if len(own) > 1 else None
    offered, plans = None, False
    if own and game.status == "active" and shown == game.seq:
        assert viewer is not None  # `own` is not empty: one of its colours
        offered, plans = _offered(game, view, viewer, names, preview)
    if preview is None:
        board, in_words, panel = board_and_panel(game, view, names, deadlines)
    else:  # never kept: a planned position may never be played
        board, in_words, panel = _drawn(view, names, {})
    # Rated in the game's ending transaction: a page of its last seq finds the results.
    results = ratings.game_results(game.id) if over else {}
    final = final_scoring(view, names, entries if over else (), results)
    # A template's module: its macros are known only at run time.
    parts: Any = current_app.jinja_env.get_template("web/_game_parts.html").module
    links = {
        "now": link("web.game", game_id=game.id, colour=colour_field),
        "at": link("web.game", game_id=game.id, seq=_SEQ_SLOT, colour=colour_field),
        "slot": _SEQ_SLOT,
        "poll": link("web.game_seq", game_id=game.id),
        "poll_ms": str(int(float(current_app.config["PBEM_PAGE_POLL_SECONDS"]) * 1000)),
    }
    return BoardPage(
        game_id=game.id,
        seed=game.seed,
        title=game.title,
        shown=shown,
        colour_field=colour_field,
        play_url=link("web.play", game_id=game.id),
        head=parts.head(
            game=game,
            own=[{**colour_chip(c), "name": names.get(c, c)} for c in own],
            viewer=viewer,
            shown=shown,
            current=shown == game.seq,
            replay=steps,
            links=links,
        ),
        final=parts.final_scoring(final) if final else Markup(""),
        moves=parts.moves(offered, viewer, colour_field) if offered is not None else None,
        orders_seat=viewer if own and game.status == "active" and shown == game.seq else None,
        since=_since(parts, game, record, own, viewer, names, links, card_now)
        if shown == game.seq
        else Markup(""),
        board=board,
        board_words=in_words,
        panel=panel,
        log=log_html(
            parts, game, entries, names, shown, frozenset(record.starts), final is not None, links
        ),
        plans=plans,
        plan_url=link("web.plan", game_id=game.id),
        typed_example=offered.get("example", "") if offered else "",
        plan=plan_shown(game.id, game.seq, preview, colour_field, card_now, in_turn)
        if preview
        else None,
        own=tuple(own),
        holders=tuple(sorted(names.items())),
        status=game.status,
        creator_id=game.creator_id,
    )


def _in_turn(view: GameView) -> bool:
    """Whether the viewer's decision now is a turn."""
    return any(p["kind"] == "turn" for p in view["pending"] if p["player"] == view["viewer"])


def _since(
    parts: Any,
    game: Any,
    record: history.Record,
    own: list[str],
    viewer: str | None,
    names: dict[str, str],
    links: Mapping[str, str],
    card_now: str | None,
) -> Markup:
    """For a seat, what the others did since its last move, as its next mail tells it
    (`words.story`, scorings with their breakdowns in place; led by a scoring its own last
    moves set off, `history.since_last_decision`), and a link to step through it from its
    first move. `card_now`: the action card in play now, which moves of a special action
    still under way answer."""
    if viewer is None or viewer not in own or game.status not in ("active", "finished"):
        return Markup("")
    entries = history.new_to_seat(game.id, record, viewer)
    if not entries:
        return Markup("")
    story = words.story(engine.visible_log(entries, set(own)), names, viewer, after=card_now)
    first = links["at"].replace(links["slot"], str(entries[0]["seq"]))
    since: Markup = parts.since(story, first)
    return since


def _entries(
    game: Any, own: list[str], over: bool, steps: Replay, record: history.Record
) -> list[engine.ShownLogEntry]:
    """The log a page shows: a finished game's whole record; otherwise the round being
    looked at, from the move that started it."""
    if over:
        return history.log_between(game.id, own, 0, game.seq, events=True)
    if steps.round_start == record.starts[-1]:
        # The round being played: kept by the worker.
        return record.last_round_log(own, events=True)
    start = max(steps.round_start - 1, 0)
    return history.log_between(game.id, own, start, steps.round_end, events=True)


def _offered(
    game: Any,
    view: Mapping[str, Any],
    viewer: str,
    names: dict[str, str],
    preview: Preview | None,
) -> tuple[Choices | None, bool]:
    """The seat's choices now (or after a planned turn's moves), with what the decision
    needs said; and whether its moves are planned before they are played (a turn)."""
    if preview is not None and preview.reveals is not None:
        return None, True  # only Confirm or Undo: what follows it is not known yet
    state = current_state(game.id, game.seed, game.seq)
    if preview is not None and preview.state is not None:
        state = preview.state
    offered = choices(engine.legal_moves(state, viewer), words.card_in_play(view))
    decision = next((p for p in view["pending"] if p["player"] == viewer), None)
    # What the decision needs said, as its mail says it.
    offered["guide"] = words.guide(view, viewer, decision, names) if decision else []
    if preview is not None:
        left = any(moves for group, moves in offered.items() if group not in ("guide", "example"))
        return (offered if left else None), True
    # Every decision is chosen, shown as chosen, then confirmed: none is played by one tap.
    return offered, decision is not None


#: Where a page of a turn being planned opens: at the turn, where its reader was.
TURN_ANCHOR = "your-turn"


def plan_shown(
    game_id: int,
    seq: int,
    preview: Preview,
    colour_field: str | None,
    card: str | None = None,
    turn: bool = True,
) -> PlanShown:
    """The plan box's contents: the previewed steps (in words, as what each does under the
    card in play, `card`, or the one the plan chooses), what Confirm plays, and where Undo
    (the last step back) and Start again lead."""
    shown = preview.shown
    confirm = shown + ([preview.reveals] if preview.reveals is not None else [])
    # Undo takes back the move that reveals if there is one, else the last previewed one.
    kept = shown if preview.reveals is not None else shown[:-1]
    restart = url_for("web.game", game_id=game_id, colour=colour_field, _anchor=TURN_ANCHOR)
    undo = restart
    if kept:
        undo = url_for(
            "web.plan",
            game_id=game_id,
            seq=seq,
            planned=_json(kept),
            colour=colour_field,
            _anchor=TURN_ANCHOR,
        )
    return PlanShown(
        steps=moves_text(shown, card),
        planned_json=_json(shown),
        confirm_json=_json(confirm),
        confirm_count=len(confirm),
        reveals=moves_text(confirm, card)[-1] if preview.reveals is not None else None,
        undo_url=undo,
        restart_url=restart,
        turn=turn,
    )


#: The most characters a page's notice of the moves just played gives to what they did: it
#: rides in the session's cookie, and the breakdown of a scoring they set off is under
#: "Since your last move" anyway (`history.since_last_decision`).
NOTICE_MOST = 600


def played_notice(outcome: Outcome, game: Any) -> str:
    """What the page says of the moves its seat just played: each in words, as what it did
    under the card that asked it, then what it did (points per place scored, caballeros
    sent back or moved, picks revealed), cut short past `NOTICE_MOST` characters."""
    names = {seat.colour: seat.player.name for seat in game.seats}
    said = words.played(outcome.entries, names, outcome.colour, before=outcome.card_before)
    notice = _("Played: %(moves)s.", moves="; ".join(move for move, _effects in said))
    effects = " ".join(effect for _move, done in said for effect in done)
    if len(effects) > NOTICE_MOST:
        effects = effects[: effects.rfind(" ", 0, NOTICE_MOST)] + " …"
    return f"{notice} {effects}".strip()


def _json(moves: Sequence[Mapping[str, Any]]) -> str:
    return json.dumps(list(moves), separators=(",", ":"))


# --- the table beside the board: talk and notes, drawn per request --------------------------

#: The words to the table a page shows: the latest (the API reads them all).
TALK_SHOWN = 100


class TalkShown(NamedChip):
    id: int
    text: str
    seq: int
    said: dict[str, str]  # when (`board.moment_shown`): a game lasts weeks
    report: str | None  # the page reporting it (None: the reader's own words)


class MutableSeat(Chip):
    muted: bool  # whether the reader muted its words


@dataclass(frozen=True)
class TableShown:
    """What a seat's page shows beside the log, read for this request alone (it changes
    without a move, and the notes are the reader's own): never part of a kept `BoardPage`."""

    messages: list[TalkShown]
    more: bool  # older words than these are at the table
    colours: list[Chip]  # the reader's colours (a select when they hold two)
    writes_as: str  # the colour the form writes as unless another is chosen
    open: bool  # whether the game's table takes words (see talk.OPEN_STATUSES)
    notes: str
    talk_url: str
    notes_url: str
    seats: list[MutableSeat] = field(default_factory=list)  # the others' seats
    mute_url: str = ""
    report_title: str = ""
    draft: str = ""  # a message refused, given back to be mended
    longest: int = LONGEST_WORDS
    notes_longest: int = LONGEST_NOTES


def table_shown(
    page: BoardPage, player_id: int | None, talk: str = "", notes: str | None = None
) -> TableShown | None:
    """The table's talk and the reader's notes, for a reader holding a seat (None else:
    the public and other readers see neither); `talk` and `notes`: what a refused form
    held, shown again in place of what is kept."""
    if player_id is None or not page.own:
        return None
    read = table.talk_and_notes(page.game_id, player_id, TALK_SHOWN + 1)
    found, kept = read.talk, read.notes
    here = link("web.game", game_id=page.game_id, colour=page.colour_field, _anchor="table-talk")
    messages: list[TalkShown] = [
        {
            **colour_chip(m.colour),
            "id": m.id,
            "name": m.name,
            "text": m.text,
            "seq": m.seq,
            "said": moment_shown(m.created_at),
            "report": None
            if m.colour in page.own
            else link("web.report", kind="talk", id=m.id, next=here),
        }
        for m in found[-TALK_SHOWN:]
    ]
    # In the order of the colours (the engine's), whichever seat each holds.
    others = [c for c in COLOURS if c in dict(page.holders) and c not in page.own]
    return TableShown(
        messages=messages,
        more=len(found) > TALK_SHOWN,
        colours=[colour_chip(c) for c in page.own],
        writes_as=page.colour_field or page.own[0],
        open=page.status in OPEN_STATUSES,
        notes=kept if notes is None else notes,
        talk_url=link("web.write_to_table", game_id=page.game_id),
        notes_url=link("web.keep_notes", game_id=page.game_id),
        draft=talk,
        seats=[{**colour_chip(c), "muted": c in read.muted} for c in others],
        mute_url=link("web.mute_seat", game_id=page.game_id),
        report_title=link("web.report", kind="title", id=page.game_id, next=here),
    )


def _forming_waits(seats: Sequence[Seat]) -> list[dict[str, str]]:
    """What a forming game waits on, in the panel's place for decisions: nothing is asked in
    the game until it begins, only that its seats be taken and accepted."""
    return [
        {"player": s.colour, "kind": "open_seat" if s.open else "accept"}
        for s in seats
        if s.open or s.accepted_at is None
    ]


class FormingSeat(NamedChip):
    open: bool
    bot: bool
    accepted: bool
    record: Beside  # its holder's rating and reliability (nothing for an open or bot seat)


def seated_people(games: Sequence[Game]) -> list[int]:
    """The people holding seats of `games` (no open seat, no house bot)."""
    return sorted({s.player_id for g in games for s in g.seats if not s.open and not s.bot})


def forming_seats(
    game: Game, shown: Mapping[int, ratings.BesideName] | None = None
) -> list[FormingSeat]:
    """Each seat of a forming game: who holds it, with their record (`shown`, if read for
    several games at once), and whether they accepted or it is open."""
    if shown is None:
        shown = ratings.beside_names(seated_people([game]))
    return [
        {
            **colour_chip(s.colour),
            "name": _("open") if s.open else s.player.name,
            "open": s.open,
            "bot": s.bot,
            "accepted": s.accepted_at is not None,
            "record": beside(
                s.player_id, shown[s.player_id]["rating"], shown[s.player_id]["reliability"]
            )
            if s.player_id in shown
            else beside(None, None, None),
        }
        for s in game.seats
    ]
