"""The pages: the list of games, a game's board (now or at any seq), playing a move from it,
and signing in and out. Thin: `pages` builds what is shown, `pbem.game` does the rest."""

from __future__ import annotations

from typing import Any, TypedDict, cast

import sqlalchemy.exc
from flask import (
    Blueprint,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

import engine
from pbem import words
from pbem.errors import Forbidden, Invalid, NotFound, ServiceError, TooMany
from pbem.game import advice, lessons, players
from pbem.game.games import get_game, seq_and_status
from pbem.game.players import hash_api_key, player_by_key_hash
from pbem.game.seating import Actor
from pbem.headers import no_referrer
from pbem.languages import _, current_language
from pbem.paths import TEMPLATES_DIR
from pbem.play import notes, orders, talk
from pbem.play.batch import Plan, submit
from pbem.store import outage
from pbem.store.queries import MAX_ID
from pbem.web import another_account, beside, game_lists, pages, rules_page, signin, table_side
from pbem.web.beside import FormingSeat, banks_shown, seats_shown
from pbem.web.board import colour_chip
from pbem.web.csrf import check_csrf, csrf_token
from pbem.web.frame import framed
from pbem.web.links import link, own_path, site
from pbem.web.status import status_of
from pbem.web.wording import colour_name

bp = Blueprint(
    "web",
    __name__,
    template_folder=str(TEMPLATES_DIR),
    static_folder="static",
    static_url_path="/web/static",
)
bp.before_request(check_csrf)


@bp.app_context_processor
def _page_globals() -> dict[str, Any]:
    return {"csrf_token": csrf_token, "signed_in": current_player, "site": site()}


def current_player() -> signin.SignedIn | None:
    """The signed-in player (looked up once per request)."""
    if "web_player" not in g:
        g.web_player = signin.signed_in_player()
    player: signin.SignedIn | None = g.web_player
    return player


def forming_seats(page: pages.BoardPage) -> list[FormingSeat] | None:
    """A forming game's seats, who accepted and which are open (read for this request: an
    acceptance changes no seq, so it is no part of the kept page); None for any other."""
    if page.status != "forming":
        return None
    return beside.forming_seats(get_game(page.game_id))


def organises(page: pages.BoardPage, player: signin.SignedIn | None) -> bool:
    """Whether the reader made the game, and so may organise it (a link on its page)."""
    return player is not None and player.id == page.creator_id


def _seq_arg() -> int | None:
    raw = request.args.get("seq")
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or int(raw) > MAX_ID:
        raise NotFound(_("There is no state %(seq)r; seq is a move number.", seq=raw))
    return int(raw)


def colour_arg() -> str | None:
    # A form only comes with a POST (reading `request.form` on a GET parses for nothing).
    form = request.form if request.method == "POST" else {}
    return request.args.get("colour") or form.get("colour") or None


def _board(
    game_id: int, status: int = 200, error: str | None = None, typed: str = "", **drafts: str
) -> tuple[str, int]:
    """The board page; `typed` (a move typed in notation) and `drafts` (`talk`, `notes`):
    what a refused form held, given back."""
    page, player = pages.board_page(game_id, signin.session_reader(), _seq_arg(), colour_arg())
    player_id = player.id if player is not None else None
    g.web_player = player  # read with the game: the header needs no query of its own
    # Read for this request, never kept with the page's parts (see table_side.TableShown).
    table = table_side.table_shown(page, player.id if player else None, **drafts)
    # A template's module: its macros are known only at run time.
    parts: Any = current_app.jinja_env.get_template("web/_game_body.html").module
    # Read per request, never kept with the page's parts: they are the seat's secret.
    mine = _orders_form(page) if player_id is not None else None
    shown_advice = _advice_shown(page)
    html = framed(
        "web/game.html",
        page.title,
        lambda token: parts.body(
            page,
            error,
            token,
            table,
            organises(page, player),
            forming_seats(page),
            mine,
            seats_shown(game_id, page.records) if page.status != "forming" else (),
            banks_shown(game_id) if page.status == "active" else {},
            typed,
            shown_advice,
        ),
        player,
    )
    return html, status


def _advice_shown(page: pages.BoardPage) -> dict[str, Any]:
    """The hint for the seat whose decision the page offers (in a game that allows them),
    the lessons its decision teaches (in a game that teaches), and a finished game's
    review: read per request, never kept with the page's parts."""
    shown: dict[str, Any] = {"hint": None, "review": None, "lessons": []}
    seat = page.orders_seat
    if seat is not None and (page.moves is not None or page.plan is not None):
        # Read only in a game that has them: the board page of any other reads nothing more.
        if page.hints:
            shown["hint"] = advice.hint_panel(page.game_id, page.seed, seat, page.shown)
        if page.teaches:
            names = dict(page.holders)
            shown["lessons"] = lessons.lesson_panel(page.game_id, seat, page.shown, names)
    if page.status == "finished":
        review = advice.review_panel(page.game_id)
        names = dict(page.holders)
        for seat in review["seats"] if review else []:
            seat.update(letter=colour_chip(seat["colour"])["letter"], name=names[seat["colour"]])
        shown["review"] = review
    return shown


class OrdersForm(TypedDict):
    """The form of a seat's orders in advance, filled with what they are now."""

    colour: str
    url: str
    power_cards: str  # the numbers, best first, as typed
    veto: str
    lines: list[str]  # what the orders do, in words


def _orders_form(page: pages.BoardPage) -> OrdersForm | None:
    """The orders form of the page's seat, for a signed-in reader whose seat it is: the
    page's seats were read with the reader's session (`orders_seat` is one of their own)."""
    seat = page.orders_seat
    if seat is None:
        return None
    # A page has an orders seat at the game's current position only: `shown` is its seq.
    given = orders.read_own_seat(page.game_id, page.seed, page.shown, seat)
    return {
        "colour": seat,
        "url": link("web.give_orders", game_id=page.game_id),
        "power_cards": " ".join(map(str, given.power_cards)),
        "veto": given.veto,
        "lines": words.orders_lines(given.power_cards, given.veto == "allow"),
    }


@bp.post("/games/<int:game_id>/orders")
def give_orders(game_id: int) -> ResponseReturnValue:
    """The seat's orders in advance from the page's form, as the API and `plan` give them."""
    player = current_player()
    if player is None:
        raise Forbidden(_("Sign in (with your seat's link or your API key) to give orders."))
    colour = colour_arg()
    text = request.form.get("power_cards", "").replace(",", " ").split()
    if not all(card.isdigit() and len(card) <= 2 for card in text):
        return _board(game_id, 422, _("Power cards are numbers from 1 to 13, e.g. 13 11 9."))
    veto = request.form.get("veto") or None
    if veto not in (None, "allow", "ask"):
        return _board(game_id, 422, _('The Veto answer is "allow" or "ask".'))
    try:
        given = orders.give(
            Actor.by_player(player.id, colour),
            game_id,
            colour,
            power_cards=[int(card) for card in text],
            veto=veto,
        )
    except ServiceError as error:
        if isinstance(error, NotFound):
            raise
        return _board(game_id, status_of(error), error.detail)
    for line in words.orders_answer(given.played, given.power_cards, given.veto == "allow"):
        flash(line)
    return redirect(url_for("web.game", game_id=game_id, colour=colour), code=303)


@bp.get("/")
def index() -> str:
    return render_template("web/index.html", **game_lists.index_context(current_player()))


@bp.get("/games/<int:game_id>/seq")
def game_seq(game_id: int) -> Response:
    """What an open page polls to follow the game: its seq and status, public to anyone,
    with an ETag, so a poll while nothing moved is a 304 from one indexed read."""
    row = None
    if game_id <= MAX_ID:  # past it the database would refuse the number, not find no game
        reader = signin.session_reader()
        row = seq_and_status(game_id, reader.params)
    if row is None:
        raise NotFound(_("There is no game %(id)s.", id=game_id))
    etag = f"{game_id}-{row.seq}-{row.status}-{row.talk or 0}"  # nothing here needs quoting
    headers = {
        "ETag": f'"{etag}"',
        "Cache-Control": "no-cache",
        "Vary": "Cookie",  # the talk is a seat's to see
    }
    # What an open page asks every few seconds is mostly this: nothing moved, no body. Its
    # headers are written as they go out, not parsed and quoted again by the response.
    if etag in request.if_none_match:
        return Response(status=304, headers=headers)
    # `talk`: the last word to the table, for a seat's reader only (null for anyone else).
    answer = jsonify({"seq": row.seq, "status": row.status, "talk": row.talk})
    answer.headers.update(headers)
    return answer


@bp.get("/rules")
def rules() -> str:
    """The rules in short: a round, scoring, and every action card in the mails' words."""
    return render_template("web/rules.html", **rules_page.rules_context())


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for /favicon.ico whatever the page links: the icon is an SVG."""
    icon = bp.send_static_file("favicon.svg")
    icon.headers["Cache-Control"] = "public, max-age=86400"
    return icon


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: "Add to home screen" opens the list of games, as an app of its
    own (with the service worker `install.js` registers on every page)."""
    icons = [
        {
            "src": url_for("web.static", filename=f"icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "any",
        }
        for size in (192, 512)
    ]
    icons.append(
        {
            "src": url_for("web.static", filename="favicon.svg"),
            "sizes": "any",
            "type": "image/svg+xml",
        }
    )
    body = {
        "name": "El Grande",
        "short_name": "El Grande",
        "description": _("El Grande, played over days: by mail, on this page or by API."),
        "lang": current_language(),
        "start_url": url_for("web.index"),
        "scope": url_for("web.index"),
        "display": "standalone",
        "background_color": "#f4f1ea",
        "theme_color": "#8b1e1e",
        "icons": icons,
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> tuple[str, int]:
    return _board(game_id)


@bp.post("/games/<int:game_id>/moves")
def play(game_id: int) -> ResponseReturnValue:
    """A move from the page's choices (`move`), or a planned turn confirmed (`moves`),
    through the same `submit` as every other door."""
    player = current_player()
    if player is None:
        raise Forbidden(_("Sign in (with your seat's link or your API key) to play."))
    try:
        expected_seq = int(request.form.get("expected_seq", ""))
    except ValueError:
        raise Invalid(_("This form is missing the game's seq; reload the page.")) from None
    moves = _moves_field(request.form, "moves") if "moves" in request.form else []
    moves += _moves_field(request.form, "move")
    colour = colour_arg()
    try:
        typed = _typed_field(request.form)
        outcome = submit(
            Actor.by_player(player.id),
            game_id,
            expected_seq,
            moves if typed is None else _typed_after(moves, typed),
            source="web",
            colour=colour,
        )
    except ServiceError as error:
        if isinstance(error, NotFound):
            raise
        # The board as it is now, with the reason: the same sentence the API would give.
        return _board(game_id, status_of(error), error.detail, typed=_typed_draft(request.form))
    flash(pages.played_notice(outcome, get_game(game_id)))
    return redirect(url_for("web.game", game_id=game_id, colour=colour), code=303)


@bp.get("/games/<int:game_id>/plan")
def plan(game_id: int) -> ResponseReturnValue:
    """A turn planned before it is played: the moves planned so far (`planned`) and the one
    just chosen (`move`), played as a dry run through `submit` (nothing is written) and shown
    as the board would be, with Undo and Confirm. A GET: planning changes nothing."""
    player = current_player()
    if player is None:
        raise Forbidden(_("Sign in (with your seat's link or your API key) to plan a turn."))
    seq = request.args.get("seq", "")
    if not seq.isdigit() or int(seq) > MAX_ID:
        raise Invalid(
            _("This plan is missing the game's seq; go back to the game and start again.")
        )
    planned = _moves_field(request.args, "planned") + _moves_field(request.args, "move")
    colour = colour_arg()
    if not planned and "typed" not in request.args:  # everything undone: the turn as it is
        return redirect(url_for("web.game", game_id=game_id, colour=colour), code=303)
    actor = Actor.by_player(player.id)
    refused: ServiceError | None = None  # a typed move refused, shown on the plan as it stood
    try:
        try:
            typed = _typed_field(request.args)
            # Typed moves are read against the game the planned ones leave, in the dry run.
            moves = planned if typed is None else _typed_after(planned, typed)
            preview = _preview(actor, game_id, int(seq), moves, colour)
        except ServiceError as error:
            if "typed" not in request.args or isinstance(error, NotFound) or not planned:
                raise
            refused = error
            preview = _preview(actor, game_id, int(seq), planned, colour)
    except ServiceError as error:
        if isinstance(error, NotFound):
            raise
        return _board(game_id, status_of(error), error.detail, typed=_typed_draft(request.args))
    page, signed_in = pages.plan_page(game_id, signin.session_reader(), colour, preview)
    g.web_player = signed_in
    table = table_side.table_shown(page, player.id)
    parts: Any = current_app.jinja_env.get_template("web/_game_body.html").module
    why, draft = (refused.detail, _typed_draft(request.args)) if refused else (None, "")
    body = framed(
        "web/game.html",
        page.title,
        lambda token: parts.body(page, why, token, table, organises(page, player), typed=draft),
        player,
    )
    return body, status_of(refused) if refused else 200


def _preview(
    actor: Actor, game_id: int, seq: int, moves: list[engine.Move] | Plan, colour: str | None
) -> pages.Preview:
    """What a plan shows: a dry run of its moves (or of what a `Plan` reads, typed moves);
    when the last would reveal hidden information (new cards, others' picks), the ones
    before it, with that last one to be played unseen once confirmed (as the API's dry run
    never shows such a result)."""
    outcome = submit(actor, game_id, seq, moves, source="web", colour=colour, dry_run=True)
    if outcome.withheld is None:
        return pages.Preview(shown=outcome.moves, view=outcome.view, state=outcome.after)
    *before, last = outcome.moves
    if not before:
        return pages.Preview(shown=[], view=None, state=None, reveals=last)
    earlier = submit(actor, game_id, seq, before, source="web", colour=colour, dry_run=True)
    if earlier.withheld is not None:
        raise Invalid(
            _(
                "Only the last move of a plan may reveal hidden information; go back to the "
                "game and plan the turn again."
            )
        )
    return pages.Preview(shown=before, view=earlier.view, state=earlier.after, reveals=last)


def _moves_field(values: Any, name: str) -> list[engine.Move]:
    """A form's or query's field holding a move (a JSON object) or moves (a list of them),
    read by the API's reader (the same refusals: duplicate keys, huge numbers, deep
    nesting); absent: none."""
    raw = values.get(name)
    if raw is None:
        return []
    try:
        value = current_app.json.loads(raw)
    except ValueError:
        raise Invalid(
            _("This form's %(field)s is not JSON; reload the page and try again.", field=name)
        ) from None
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(item, dict) for item in items):
        raise Invalid(_("A move is a JSON object; reload the page and choose again."))
    # Objects: the engine checks each is a move.
    return [cast(engine.Move, item) for item in items]


#: The most characters a typed move may hold (a whole turn is a few dozen).
TYPED_LONGEST = 500


def _typed_field(values: Any) -> str | None:
    """The moves typed in notation (`typed`), or None when the form has no such field."""
    raw = values.get("typed")
    if raw is None:
        return None
    text = str(raw).strip()
    if not text:
        raise Invalid(_("Type a move first (for example as your mails write it), or choose one."))
    if len(text) > TYPED_LONGEST:
        raise Invalid(
            _(
                "That is more than %(count)s characters: type one turn at a time.",
                count=TYPED_LONGEST,
            )
        )
    return text


def _typed_draft(values: Any) -> str:
    """What a refused typed move held, given back to mend (cut to what the field holds)."""
    return str(values.get("typed", ""))[:TYPED_LONGEST]


def _typed_after(before: list[engine.Move], text: str) -> Plan:
    """`before`, then the moves `text` writes in notation, each read as a mail's reply is
    (`engine.parse_moves`: its "did you mean" for a line it cannot read) against the game
    the moves before it leave."""

    def moves(state: engine.State, colour: str) -> list[engine.Move]:
        after = state
        for move in before:
            after, events = engine.apply(after, colour, move)
            if engine.reveals_hidden(events):
                # What follows it is not known yet: a line read against it (its "did you
                # mean", its "you may") would show the cards or picks it uncovers.
                raise Invalid(
                    _(
                        "The plan's last move reveals new information: confirm it, then "
                        "type what comes next."
                    )
                )
        return [*before, *engine.parse_moves(text, after, colour)]

    return moves


@bp.post("/games/<int:game_id>/messages")
def write_to_table(game_id: int) -> ResponseReturnValue:
    """Words to the table from the page's form, through the same `talk.write` as the API's."""
    player = current_player()
    if player is None:
        raise Forbidden(_("Sign in (with your seat's link or your API key) to write to the table."))
    text, colour = request.form.get("text", ""), colour_arg()
    try:
        talk.write(Actor.by_player(player.id), game_id, text, colour=colour, source="web")
    except ServiceError as error:
        if isinstance(error, NotFound):
            raise
        # The board with the reason, and the words given back to be mended.
        html, status = _board(game_id, status_of(error), error.detail, talk=text)
        wait = {"Retry-After": str(error.retry_after)} if isinstance(error, TooMany) else {}
        return html, status, wait
    where = url_for("web.game", game_id=game_id, colour=colour, _anchor="table-talk")
    return redirect(where, code=303)


@bp.post("/games/<int:game_id>/notes")
def keep_notes(game_id: int) -> ResponseReturnValue:
    """The reader's private notes on the game, saved from the page's form."""
    player = current_player()
    if player is None:
        raise Forbidden(_("Sign in (with your seat's link or your API key) to keep notes."))
    text = request.form.get("text", "")
    try:
        notes.keep(Actor.by_player(player.id), game_id, text)
    except ServiceError as error:
        if isinstance(error, NotFound):
            raise
        return _board(game_id, status_of(error), error.detail, notes=text)
    flash(_("Your notes are saved."))
    where = url_for("web.game", game_id=game_id, colour=colour_arg(), _anchor="notes")
    return redirect(where, code=303)


@bp.route("/games/<int:game_id>/sign-in/<token>", methods=["GET", "POST"])
def seat_sign_in(game_id: int, token: str) -> ResponseReturnValue:
    """A seat's link from a mail. GET only asks (mail scanners follow links, and another
    site could sign a visitor in to a seat of its choosing), unless the reader is that very
    player already; the button POSTs (with the CSRF token), which signs in. Signed in as
    someone else, it asks first whose account to go on with (`another_account`)."""
    no_referrer()
    seat = signin.read_seat_link_token(token, game_id)
    board = url_for("web.game", game_id=game_id, colour=seat.colour)
    signed = current_player()
    game = get_game(game_id)
    what = _(
        "The link opens their %(colour)s seat of “%(title)s”.",
        colour=colour_name(seat.colour),
        title=game.title,
    )
    asked = another_account.asked(signed, seat.player_id, what)
    if asked is not None:
        return asked
    if request.method == "GET":
        if signed is not None and signed.id == seat.player_id:
            return redirect(board, code=303)
        player = players.player(seat.player_id)
        return render_template(
            "web/seat_sign_in.html", game=game, colour=seat.colour, name=player.name
        )
    signin.sign_in(seat.player_id)
    return redirect(board, code=303)


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> ResponseReturnValue:
    """Sign in by pasting an API key."""
    no_referrer()
    next_page = own_path(request.values.get("next"))
    if request.method == "GET":
        return render_template("web/sign_in.html", next=next_page, error=None)
    key = request.form.get("api_key", "").strip()
    player = player_by_key_hash(hash_api_key(key)) if key else None
    if player is None:
        error = _(
            "This API key is not known; check it (it starts with pbem_), or use the sign-in "
            "link from a mail."
        )
        return render_template("web/sign_in.html", next=next_page, error=error), 403
    signin.sign_in(player.id)
    flash(_("Signed in as %(name)s.", name=player.name))
    return redirect(next_page or url_for("web.index"), code=303)


@bp.post("/sign-out")
def sign_out() -> Response:
    signin.sign_out()
    return redirect(url_for("web.index"), code=303)


@bp.errorhandler(ServiceError)
def _service_error(error: ServiceError) -> tuple[str, int]:
    return render_template("web/error.html", message=error.detail), status_of(error)


@bp.errorhandler(sqlalchemy.exc.DBAPIError)
@bp.errorhandler(sqlalchemy.exc.TimeoutError)
def _database_error(error: Exception) -> ResponseReturnValue:
    """The database gone for a moment: a page that says so, and when to try again."""
    # The page is drawn without the database: the request's session is spent.
    outage.start_afresh()
    g.web_player = None  # the header must not ask the database who is signed in
    if not outage.is_outage(error):
        current_app.logger.exception("unexpected error")
        message = _("The server failed on this request; nothing was changed. Please report it.")
        return render_template("web/error.html", message=message), 500
    current_app.logger.warning("database unavailable: %s", str(error).splitlines()[0])
    page = render_template("web/error.html", message=outage.UNAVAILABLE)
    return page, 503, {"Retry-After": str(outage.RETRY_AFTER_SECONDS)}


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException) -> tuple[str, int]:
    return render_template("web/error.html", message=error.description), error.code or 500
