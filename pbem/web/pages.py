"""What the board page shows, built from `pbem.game` (views, legal moves, the log): its parts
drawn once per worker for everyone who sees it alike (`BoardPage`), stepping through a game,
a turn being planned, the notice of the moves just played. The routes only read the request
and render. Beside it: the lists of games (`game_lists`), the log and the final scoring
(`game_log`), the rules' figures (`rules_page`), the table's talk and notes (`table_side`),
seats with their records (`beside`).

Nothing here decides what is secret: the board and panel are drawn from `engine.view` for the
viewer, the log comes through `engine.visible_log`, the choices from `engine.legal_moves` for
the signed-in seat.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NotRequired, TypedDict, cast

from flask import current_app, request, url_for
from markupsafe import Markup

import engine
from engine.data import POWER_CARDS
from pbem import words
from pbem.errors import NotFound
from pbem.game import history, ratings
from pbem.game.games import (
    get_game,
    page_rows,
    pending_deadlines,
)
from pbem.game.states import current_state, hints_allowed, teaches
from pbem.game.views import GameView, view_of_seats
from pbem.kept import Drawn
from pbem.languages import _
from pbem.play.batch import Outcome
from pbem.store.models import Seat
from pbem.web.beside import SeatRead, SeatsRead
from pbem.web.board import (
    PLACES,
    board_in_words,
    board_svg,
    colour_chip,
    panel_html,
)
from pbem.web.game_log import final_scoring, log_html
from pbem.web.links import link
from pbem.web.signin import Reader, SignedIn
from pbem.web.wording import colour_name
from pbem.words import place_name
from pbem.words.moves import move_text, moves_text, notation_line

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


# --- the board page ------------------------------------------------------------------------


#: Rendered boards and panels by (game, seed, seq, viewer, names): a past position never
#: changes, so each is drawn once per worker and then served from memory.
_RENDERED = Drawn(512)
#: The board pages' parts (`BoardPage`), by everything they show (see `board_page`).
_PAGES = Drawn(256)


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
    #: What each seat's record beside its name is drawn from, as this request read it (never
    #: kept with the page: see `SeatsRead`).
    records: SeatsRead = ()
    status: str = "active"  # the game's
    creator_id: int = 0  # who made the game, and organises it
    hints: bool = False  # its players may ask for hints (`states.hints_allowed`)
    teaches: bool = False  # it teaches (`states.teaches`): a decision's lessons are shown


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
    game, player, names, own, records = _read_game(game_id, reader)
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
    return replace(page, records=records), player


def _read_game(
    game_id: int, reader: Reader
) -> tuple[Any, SignedIn | None, dict[str, str], list[str], SeatsRead]:
    """The game's row, the signed-in player (None if not a player, or their session is no
    longer good), each seat's name, the colours the player holds, and what the seats'
    records are drawn from: one query."""
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
    records = tuple(
        SeatRead(
            r.seat_colour,
            r.seat_player,
            r.seat_name,
            r.seat_open,
            r.seat_decided,
            r.seat_mu,
            r.seat_sigma,
            r.seat_rated,
        )
        for r in seats
    )
    return game, player, names, own, records


def plan_page(
    game_id: int, reader: Reader, colour: str | None, preview: Preview
) -> tuple[BoardPage, SignedIn | None]:
    """The board page of a turn being planned: the board as the seat would see it after the
    previewed moves, the moves it may add, and the plan with Undo and Confirm. Drawn for
    this request alone: a planned position is nobody's to keep (it may never be played)."""
    game, player, names, own, records = _read_game(game_id, reader)
    drawn = _draw_board_page(game, names, own, game.seq, colour, {}, preview)
    return replace(drawn, records=records), player


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
    links = _links(game.id, colour_field)
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
        hints=hints_allowed(game.options),
        teaches=teaches(game.options),
    )


def _links(game_id: int, colour_field: str | None) -> dict[str, str]:
    """The board page's links: now, a seq (its slot filled per entry), the poll."""
    return {
        "now": link("web.game", game_id=game_id, colour=colour_field),
        "at": link("web.game", game_id=game_id, seq=_SEQ_SLOT, colour=colour_field),
        "slot": _SEQ_SLOT,
        "poll": link("web.game_seq", game_id=game_id),
        "poll_ms": str(int(float(current_app.config["PBEM_PAGE_POLL_SECONDS"]) * 1000)),
    }


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
    view: engine.View,
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


def _forming_waits(seats: Sequence[Seat]) -> list[dict[str, str]]:
    """What a forming game waits on, in the panel's place for decisions: nothing is asked in
    the game until it begins, only that its seats be taken and accepted."""
    return [
        {"player": s.colour, "kind": "open_seat" if s.open else "accept"}
        for s in seats
        if s.open or s.accepted_at is None
    ]
