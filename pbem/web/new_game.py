"""Making a game on the web (`/games/new`): a title, the rounds, a pace (or a time bank),
and a seat for you and each friend (by email), house bot or open seat. The game is made by the same
`create_game` as the API's; it forms (invitations, no deadlines) until every seat is taken
and accepted, unless its maker asks it to begin at once."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from engine.bots import LEVELS
from engine.data import COLOURS
from pbem.addresses import kept_address
from pbem.errors import Invalid, TooMany
from pbem.game import players, ratings
from pbem.languages import LANGUAGES, N_, _, number_text
from pbem.play import lifecycle
from pbem.play.asked import JoinMinimums, SeatAsked
from pbem.timing.bank import DEFAULT_CLOCK, MOST_HOURS
from pbem.timing.policy import DEFAULT_TIMING
from pbem.web.routes import bp, current_player

#: The paces a game may be made with: how many hours each kind of decision may wait.
PACES: dict[str, tuple[str, dict[str, int]]] = {
    "brisk": (
        N_("Brisk: a day for a turn, half a day for the rest"),
        {"power_card_hours": 12, "turn_hours": 24, "pick_hours": 12, "veto_hours": 8},
    ),
    "standard": (
        N_("Standard: three days for a turn, two for a power card or a pick, one for a Veto"),
        {"power_card_hours": 48, "turn_hours": 72, "pick_hours": 48, "veto_hours": 24},
    ),
    "relaxed": (
        N_("Relaxed: five days for a turn, four for a power card or a pick, two for a Veto"),
        {"power_card_hours": 96, "turn_hours": 120, "pick_hours": 96, "veto_hours": 48},
    ),
}
#: The time bank's three numbers as the form asks them, in days: each field's name, what
#: it is called, and its default (`bank.DEFAULT_CLOCK`).
CLOCK_FIELDS = (
    ("bank_days", N_("Days in each bank at the start"), DEFAULT_CLOCK["bank_hours"] // 24),
    ("increment_days", N_("Days added per answer"), DEFAULT_CLOCK["increment_hours"] // 24),
    ("cap_days", N_("Days a bank may hold at most"), DEFAULT_CLOCK["cap_hours"] // 24),
)
#: Seats others may take: yours, then up to four more.
OTHER_SEATS = 4


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> ResponseReturnValue:
    """The form (GET), and the game it makes (POST), which opens on its board."""
    signed = current_player()
    if signed is None:
        return redirect(url_for("web.sign_in", next="/games/new"), code=303)
    if request.method == "GET":
        return _form(MultiDict(), None)
    form = request.form
    creator = players.player(signed.id)
    try:
        title, seats, options, timing = _read(form, creator.email)
        game = lifecycle.create_game(
            creator,
            title,
            seats,
            options=options,
            timing=timing,
            default_timing=current_app.config["PBEM_DEFAULT_TIMING"],
            forming=_forms(form, seats),
            language=form.get("language"),
            join=_join_minimums(form),
        )
    except (Invalid, TooMany) as error:
        wait = {"Retry-After": str(error.retry_after)} if isinstance(error, TooMany) else {}
        return _form(form, error.detail), error.status, wait
    invited = [s["email"] for s in seats[1:] if s.get("email")]
    sent = _("Invitations went to %(emails)s. ", emails=", ".join(invited)) if invited else ""
    if game.status == "forming":
        flash(
            _(
                "%(title)s is forming. %(sent)sIt begins once every seat is taken and accepted, "
                "or when you start it (open seats then go to house bots).",
                title=game.title,
                sent=sent,
            )
        )
    else:
        flash(
            _(
                "%(title)s has begun. %(sent)sEveryone gets a mail when a decision is theirs.",
                title=game.title,
                sent=sent,
            )
        )
    return redirect(url_for("web.game", game_id=game.id), code=303)


def _friends_address(form: MultiDict[str, str], number: int) -> str:
    """Seat `number`'s address as kept; a refusal names the seat as the form numbers it."""
    typed = form.get(f"email-{number}", "")
    if not typed.strip():
        raise Invalid(_("Seat %(seat)s is a friend's: give their email address.", seat=number + 1))
    try:
        return kept_address(typed)
    except Invalid as error:
        raise Invalid(
            _("Seat %(seat)s: %(problem)s", seat=number + 1, problem=error.detail)
        ) from None


def _read(
    form: MultiDict[str, str], own_email: str
) -> tuple[str, list[SeatAsked], dict[str, Any], dict[str, Any]]:
    """The game the form asks for, as `create_game` takes it; Invalid says what to mend."""
    title = form.get("title", "").strip()
    if not 1 <= len(title) <= 200:
        raise Invalid(_("Give the game a title (up to 200 characters): the mails name it."))
    seats: list[SeatAsked] = [{"email": own_email, "colour": form.get("colour-0", "")}]
    for number in range(1, OTHER_SEATS + 1):
        who = form.get(f"who-{number}", "").strip()
        colour = form.get(f"colour-{number}", "")
        if not who:
            continue
        if who == "bot":
            bot: SeatAsked = {"bot": True, "colour": colour}
            if form.get("bot_level") in LEVELS:
                bot["level"] = form["bot_level"]
            seats.append(bot)
        elif who == "open":
            seats.append({"open": True, "colour": colour})
        else:
            email, name = _friends_address(form, number), form.get(f"name-{number}")
            seats.append({"email": email, "colour": colour, "name": (name or "").strip()[:100]})
    if not 3 <= len(seats) <= 5:
        raise Invalid(
            _(
                "El Grande is played by 3 to 5 seats; this game has %(count)s: add a friend or "
                "a house bot.",
                count=len(seats),
            )
        )
    for number, seat in enumerate(seats):
        if seat["colour"] not in COLOURS:
            raise Invalid(_("Choose a colour for seat %(seat)s.", seat=number + 1))
    rounds = 6 if form.get("rounds") == "6" else 9
    if form.get("pace") == "bank":
        timing: dict[str, Any] = {"clock": _clock(form)}
    else:
        timing = dict(PACES.get(form.get("pace", "standard"), PACES["standard"])[1])
    if form.get("weekends") == "off":
        timing["quiet_days"] = ["sat", "sun"]
    options: dict[str, Any] = {"rounds": rounds}
    if form.get("hints") == "on":
        options["hints"] = True  # never rated (pbem.play.ratings)
    return title, seats, options, timing


#: How the form names each house bot's level.
BOT_LEVEL_WORDS = {
    "random": N_("random moves (for a first game)"),
    "greedy": N_("greedy: looks one move ahead"),
    "strong": N_("strong: searches what the others may hold and plays the best move"),
}

#: What the form offers to ask of a player joining an open seat: reliabilities (percent)
#: and shown ratings; anything else typed into the form asks nothing.
RELIABILITY_CHOICES = (50, 70, 80, 90)
RATING_CHOICES = (0, 5, 10, 15, 20)


def _levels() -> dict[str, str]:
    """Each house bot level as the form offers it: its words, and its rating from its rated
    games against people once it has one (`/ratings` shows them all)."""
    rated = {bot["level"]: bot["rating"] for bot in ratings.house_bot_ratings()}
    offered = {}
    for level, words in BOT_LEVEL_WORDS.items():
        if level not in LEVELS:
            continue
        rating = rated.get(level)
        offered[level] = (
            _("%(level)s (rated %(rating)s)", level=_(words), rating=number_text(rating["ordinal"]))
            if rating and rating["games"]
            else _(words)
        )
    return offered


def _clock(form: MultiDict[str, str]) -> dict[str, int]:
    """The time bank the form asks for, in the hours `timing.clock` keeps; Invalid says
    what to mend, as the API's refusal does."""
    days = {}
    most = MOST_HOURS // 24
    for name, label, default in CLOCK_FIELDS:
        typed = form.get(name, str(default)).strip()
        if not typed.isdigit() or not 1 <= int(typed) <= most:
            raise Invalid(
                _("%(field)s: give whole days from 1 to %(most)s.", field=_(label), most=most)
            )
        days[name] = int(typed)
    if days["increment_days"] > days["cap_days"]:
        raise Invalid(_("A time bank's days added per answer cannot be more than its most."))
    if days["bank_days"] > days["cap_days"]:
        raise Invalid(_("A time bank cannot start with more days than it may hold at most."))
    return {
        "bank_hours": days["bank_days"] * 24,
        "increment_hours": days["increment_days"] * 24,
        "cap_hours": days["cap_days"] * 24,
    }


def _join_minimums(form: MultiDict[str, str]) -> JoinMinimums:
    join: JoinMinimums = {}
    reliability, rating = form.get("min_reliability", ""), form.get("min_rating", "")
    if reliability.isdigit() and int(reliability) in RELIABILITY_CHOICES:
        join["min_reliability"] = int(reliability) / 100
    if rating.isdigit() and int(rating) in RATING_CHOICES:
        join["min_rating"] = float(rating)
    return join


def _forms(form: MultiDict[str, str], seats: list[SeatAsked]) -> bool:
    """Whether the game waits for its seats (asked, or needed by an open seat)."""
    return form.get("forming") == "yes" or any(seat.get("open") for seat in seats)


def _form(form: MultiDict[str, str], error: str | None) -> str:
    return render_template(
        "web/new_game.html",
        form=form,
        error=error,
        colours=COLOURS,
        paces={k: _(label) for k, (label, _timing) in PACES.items()},
        clock_fields=[(name, _(label), default) for name, label, default in CLOCK_FIELDS],
        most_days=MOST_HOURS // 24,
        others=range(1, OTHER_SEATS + 1),
        languages=LANGUAGES,
        reliabilities=RELIABILITY_CHOICES,
        levels=_levels(),
        default_level=DEFAULT_TIMING["takeover_bot"],
        ratings=RATING_CHOICES,
    )


@bp.route("/learn", methods=["GET", "POST"])
def learn() -> ResponseReturnValue:
    """Learn to play: what a game that teaches is (GET), and the game itself (POST), made at
    once against two house bots and opened on its board."""
    signed = current_player()
    if signed is None:
        return redirect(url_for("web.sign_in", next="/learn"), code=303)
    if request.method == "GET":
        return render_template("web/learn.html")
    try:
        game = lifecycle.create_learning_game(players.player(signed.id), _("Learning El Grande"))
    except (Invalid, TooMany) as error:
        wait = {"Retry-After": str(error.retry_after)} if isinstance(error, TooMany) else {}
        return render_template("web/learn.html", error=error.detail), error.status, wait
    return redirect(url_for("web.game", game_id=game.id), code=303)
