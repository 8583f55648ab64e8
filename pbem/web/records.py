"""Records on the pages: a player's page (`/players/<id>`: rating and its history drawn as a
chart, reliability, games, the action cards they choose), the standings (`/ratings`), and
what is shown beside a name elsewhere (a game's seats, the games that need players). Thin:
`pbem.game.ratings` reads them; nothing private (an address, a key, notes, orders) is read."""

from __future__ import annotations

import hashlib
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypedDict

from flask import current_app, render_template, request, url_for
from jinja2 import Template
from markupsafe import Markup

from pbem.errors import NotFound
from pbem.game import ratings
from pbem.game.ratings import CardStat, CurrentGame, Drawn, DrawnAs, FinishedGame, Rating
from pbem.kept import app_drawn
from pbem.languages import (
    TRANSLATIONS_DIR,
    _,
    day_text,
    ngettext,
    number_text,
    number_writer,
    rendering_locale,
    share_text,
)
from pbem.play import apart, records
from pbem.web.beside import beside, signed
from pbem.web.frame import framed
from pbem.web.links import SITES_KEPT, id_links, link
from pbem.web.new_game import BOT_LEVEL_WORDS
from pbem.web.routes import bp, current_player
from pbem.words import card_title, colour_name, status_word

CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN, CHART_LEFT = 560, 200, 24, 48


def _page_arg() -> int:
    raw = request.args.get("page", "1")
    if not raw.isdigit() or not 1 <= int(raw) <= ratings.LAST_PAGE:
        raise NotFound(_("There is no page %(page)r of this list; pages count from 1.", page=raw))
    return int(raw)


class RatingChart(TypedDict):
    """The shown rating after each rated game, as `rating_chart` draws it (its own units)."""

    width: int
    height: int
    left: int
    right: int
    points: str  # the polyline's
    dots: str  # a path of a dot at each point (none past 40): zero-length round-capped lines
    ticks: list[tuple[str, float]]  # each label and its height
    first: str
    last: str


def rating_chart(values: list[float]) -> RatingChart | None:
    """The rating's history (the shown rating at each point, the oldest first) as a line to
    draw on the server (None with fewer than two points): the oldest on the left, a grid
    line at each whole step of 5."""
    if len(values) < 2:
        return None
    low, high = min(values + [0.0]), max(values + [5.0])
    step = 5 * max(1, int((high - low) // 20) + 1)
    low, high = step * (low // step), step * -(-high // step)
    inner_w = CHART_WIDTH - CHART_LEFT - CHART_MARGIN
    inner_h = CHART_HEIGHT - 2 * CHART_MARGIN
    left, bottom, span, last = CHART_LEFT, CHART_HEIGHT - CHART_MARGIN, high - low, len(values) - 1
    # Each point as `x,y` to a tenth (a hundred of them: formatted inline, with no call each).
    points = [
        f"{left + inner_w * i / last:.1f},{bottom - inner_h * (v - low) / span:.1f}"
        for i, v in enumerate(values)
    ]
    ticks, tick = [], low
    while tick <= high:
        ticks.append((number_text(tick, 0), round(bottom - inner_h * (tick - low) / span, 1)))
        tick += step
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": CHART_LEFT,
        "right": CHART_WIDTH - CHART_MARGIN,
        "points": " ".join(points),
        "dots": " ".join(f"M{point}h0" for point in points) if len(points) <= 40 else "",
        "ticks": ticks,
        "first": number_text(values[0]),
        "last": number_text(values[-1]),
    }


@bp.get("/players/<int:player_id>")
def player_page(player_id: int) -> str:
    """A player's record: rating and its history, reliability, games, cards chosen. The
    first page's record as drawn (chart, finished games, cards) is read kept, or drawn and
    kept, for the reader's language: a finished game makes it stale. Its whole body is kept
    beside it while what else it shows (name, rating, reliability, games going) is as read."""
    page = _page_arg()
    drawn_as = DrawnAs(rendering_locale(), _drawing(request.script_root)) if page == 1 else None
    found = ratings.player_page(player_id, page=page, drawn_as=drawn_as)
    record, going, kept = found["record"], found["games"]["current"], found["kept"]
    body_of = _body_of(record, going)
    if kept is not None and kept.body is not None and kept.body_of == body_of:
        return _framed(record["name"], kept.body, _keep_apart(record))
    drawn = None
    if kept is not None and drawn_as is not None:  # the body is stale: the drawing is not
        drawn = ratings.drawn_record(player_id, drawn_as, found["record_seq"])
        if drawn is None:  # drawn again since (after a game ended): all of it read anew
            found = ratings.player_page(player_id, page=page)
            record, going = found["record"], found["games"]["current"]
            body_of = _body_of(record, going)
    if drawn is None:
        drawn = _drawn_record(player_id, page, found)
    body = _player_body(record, going, drawn)
    if drawn_as is not None:
        records.keep_drawn_record(
            player_id, drawn_as, found["record_seq"], drawn._replace(body=body, body_of=body_of)
        )
    return _framed(record["name"], body, _keep_apart(record))


def _body_of(record: ratings.PlayerRecord, going: list[CurrentGame]) -> str:
    """A digest of what a player's page shows besides their drawn record: the page's body
    is kept by it, and read only with the drawing it was drawn with, which names the
    templates, code, catalogs and links' root (and only in its language)."""
    shown = (
        *(record["id"], record["name"], record["bot"], record["decisions"]),
        *(record["reliability"], *record["rating"].values()),
        *((game["id"], game["title"], game["status"], *game["colours"]) for game in going),
    )
    return hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()


def _player_body(record: ratings.PlayerRecord, going: list[CurrentGame], drawn: Drawn) -> str:
    """A player's page's body: their record, the games they are in now, and what `drawn`
    holds (the rating's chart, their finished games and cards)."""
    game_link = id_links("web.game", "game_id")
    # Drawn straight from its template: it needs none of the context every page's frame is
    # given (Flask's render_template gathers it for each template drawn).
    return _template(_BODY_TEMPLATE).render(
        record=record,
        shown=beside(record["id"], None if record["bot"] else record["rating"], None),
        rated_games=_rated_games_text(record["rating"]),
        reliability=(
            share_text(record["reliability"]) if record["reliability"] is not None else None
        ),
        decisions=ngettext(
            "of their last %(num)d decision",
            "of their last %(num)d decisions",
            record["decisions"],
        ),
        current=_current_rows(going, game_link),
        drawn=Drawn(Markup(drawn.chart), Markup(drawn.games)),
        ratings_href=link("web.ratings_page"),
    )


def _rated_games_text(rating: Rating) -> str:
    """How many rated games a rating is over, and whether it is provisional yet."""
    games = rating["games"]
    if games == 0:
        return _("(no rated game yet)")
    if rating["provisional"]:
        return ngettext(
            "(provisional: %(num)d rated game)", "(provisional: %(num)d rated games)", games
        )
    return ngettext("(%(num)d rated game)", "(%(num)d rated games)", games)


class CurrentRow(NamedTuple):
    """A game the player is in now, each part as written."""

    id: int
    href: str
    title: str
    held: str  # its status and the colours they hold in it: "active: red, blue"


def _current_rows(going: list[CurrentGame], game_link: Callable[[int], str]) -> list[CurrentRow]:
    return [
        CurrentRow(
            game["id"],
            game_link(game["id"]),
            game["title"],
            f"{status_word(game['status'])}: {', '.join(map(colour_name, game['colours']))}",
        )
        for game in going
    ]


def _template(name: str) -> Template:
    return current_app.jinja_env.get_template(name)


#: The templates a drawn record is drawn from, and the page's body around it (`_drawing`
#: names them all).
_DRAWN_TEMPLATES = ("web/player_chart.html", "web/player_games.html")
_BODY_TEMPLATE = "web/player.html"


def _drawn_record(player_id: int, page: int, found: ratings.PlayerPage) -> Drawn:
    """The record's parts `found` holds, drawn: the rating's chart, a page of finished games
    and the cards chosen. Nothing in them depends on the reader but their language."""
    played = found["games"]
    chart = _template(_DRAWN_TEMPLATES[0]).render(chart=rating_chart(found["history"]))
    games = _template(_DRAWN_TEMPLATES[1]).render(
        finished=_finished_rows(played["finished"], id_links("web.game", "game_id")),
        cards=_card_rows(found["cards"]),
        more=url_for("web.player_page", player_id=player_id, page=page + 1)
        if played["more"]
        else None,
    )
    return Drawn(chart, games)


#: The modules whose code draws a record: what they write (numbers, dates, changes, card
#: titles, links) is part of the drawing's name.
_DRAWN_BY = (__name__, "pbem.web.beside", "pbem.web.links", "pbem.languages", card_title.__module__)


def _drawing(script_root: str) -> str:
    """What names a drawn record's drawing: its templates, the code that draws it, the
    catalogs and where its links point (the app's script root). A drawing kept under
    another name (another release, a catalog updated) is drawn again. Computed once per
    worker (per root) unless templates are reloaded as they change."""
    if current_app.jinja_env.auto_reload:
        return _drawing_now(script_root)
    kept = app_drawn("pbem_drawing", SITES_KEPT, in_language=False)
    named: str = kept.get(script_root, lambda: _drawing_now(script_root))
    return named


def _drawing_now(script_root: str) -> str:
    environment = current_app.jinja_env
    loader = environment.loader
    assert loader is not None
    named = hashlib.sha256(script_root.encode())
    for name in (*_DRAWN_TEMPLATES, _BODY_TEMPLATE):
        named.update(loader.get_source(environment, name)[0].encode())
    for module in _DRAWN_BY:
        named.update(Path(inspect.getfile(sys.modules[module])).read_bytes())
    for catalog in sorted(TRANSLATIONS_DIR.glob("*/LC_MESSAGES/*.mo")):
        named.update(catalog.read_bytes())
    return named.hexdigest()


class FinishedRow(NamedTuple):
    """A row of a player's finished games, each cell as written."""

    id: int
    href: str
    title: str
    ended: str | None  # ISO 8601
    ended_text: str | None
    place: str
    bot_finished: bool
    score: int
    rated: bool
    change: str  # +1.2
    change_data: str  # the change to 3 decimals, for scripts
    after: str


class CardRow(NamedTuple):
    card: str
    title: str
    plays: int
    average_text: str


# The tables' rows are written here and handed over as named tuples: twenty rows calling
# back into Python from the template, or looking up a dict's keys as attributes first,
# cost more than the rest of the page.
def _finished_rows(
    finished: list[FinishedGame], game_link: Callable[[int], str]
) -> list[FinishedRow]:
    number = number_writer()
    return [
        FinishedRow(
            id=game["id"],
            href=game_link(game["id"]),
            title=game["title"],
            ended=game["ended"],
            ended_text=day_text(game["ended"]) if game["ended"] else None,
            place=_("%(place)s of %(players)s", place=game["rank"], players=game["players"]),
            bot_finished=game["bot_finished"],
            score=game["score"],
            rated=game["rated"],
            change=signed(number(game["rating_change"], 1), game["rating_change"]),
            change_data=f"{game['rating_change']:.3f}",
            after=number(game["ordinal"], 1),
        )
        for game in finished
    ]


def _card_rows(cards: list[CardStat]) -> list[CardRow]:
    number = number_writer()
    return [
        CardRow(stat["card"], card_title(stat["card"]), stat["plays"], number(stat["average"], 1))
        for stat in cards
    ]


#: The standings' filters: everyone's rated games, or games of this many players.
STANDINGS_FILTERS = ("", "2", "3", "4", "5")


@bp.get("/ratings")
def ratings_page() -> str:
    """The people with enough rated games, the best shown rating first."""
    page = _page_arg()
    players = request.args.get("players", "")
    if players not in STANDINGS_FILTERS:
        raise NotFound(
            _(
                "There are no standings for %(players)r players: choose 2, 3, 4 or 5.",
                players=players,
            )
        )
    # Kept per language too: the page's words and numbers are in the reader's.
    kept = app_drawn("pbem_standings", ratings.STANDINGS_KEPT)
    key = (request.script_root, players, page, ratings.standings_version())
    body: str = kept.get(key, lambda: _standings(players, page))
    return _framed(_("Ratings"), body)


def _standings(players: str, page: int) -> str:
    """A page of the standings (of games of `players` players, if given), drawn."""
    found = ratings.standings(int(players) if players else None, page=page)
    player_link = id_links("web.player_page", "player_id")
    rows = [
        {
            **row,
            "href": player_link(row["id"]),
            "rating_text": number_text(row["rating"]["ordinal"]),
        }
        for row in found["players"]
    ]
    return render_template(
        "web/ratings.html",
        rows=rows,
        bots=house_bot_rows(),
        players=players,
        filters=[
            (value, url_for("web.ratings_page", players=value or None))
            for value in STANDINGS_FILTERS
        ],
        least=ratings.PROVISIONAL_BELOW,
        more=url_for("web.ratings_page", players=players or None, page=page + 1)
        if found["more"]
        else None,
    )


class HouseBotRow(NamedTuple):
    level: str
    name: str  # as the new-game form names the level
    rating_text: str
    games: int


def house_bot_rows() -> list[HouseBotRow]:
    """The house bot levels' ratings as the standings' page shows them, under the people's
    and apart from them: a level's name as people choose it when they make a game."""
    return [
        HouseBotRow(
            bot["level"],
            _(BOT_LEVEL_WORDS[bot["level"]]) if bot["level"] in BOT_LEVEL_WORDS else bot["level"],
            number_text(bot["rating"]["ordinal"]),
            bot["rating"]["games"],
        )
        for bot in ratings.house_bot_ratings()
    ]


def _framed(title: str, body: str, aside: Callable[[str | None], str] | None = None) -> str:
    """`body` in the reader's frame (drawn once per reader and kept), and after it what
    `aside` draws for this reader alone (with the session's CSRF token)."""
    return framed(
        "web/framed.html",
        title,
        lambda token: Markup(body + (aside(token) if aside else "")),
        current_player(),
    )


def _keep_apart(record: ratings.PlayerRecord) -> Callable[[str | None], str] | None:
    """Under another person's page, for a signed-in reader: block or unblock them, and
    report their name. A kept body is everyone's: this is drawn per reader."""
    me = current_player()
    if me is None or me.id == record["id"] or record["bot"]:
        return None
    blocking = apart.blocks(me.id, record["id"])
    here = url_for("web.player_page", player_id=record["id"])
    report = url_for("web.report", kind="name", id=record["id"], next=here)
    return lambda token: render_template(
        "web/_keep_apart.html",
        record=record,
        blocking=blocking,
        token=token,
        report=report,
        here=here,
    )
