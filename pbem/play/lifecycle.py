"""A game's life apart from its moves: creating one with its seats, aborting it, handing a
seat to someone else or to a bot, a seat declined. Each writes its mail and deadlines in the
caller's transaction; the door that called it commits."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

import engine
from pbem.addresses import kept_address
from pbem.errors import Conflict, Forbidden, Invalid, NotFound
from pbem.extensions import db
from pbem.game import ratings
from pbem.game.games import locked_game
from pbem.game.players import (
    BOT_DOMAIN,
    house_bot,
    invite,
    is_unreachable,
    newcomer,
    normal_email,
)
from pbem.game.states import current_state, rules_options
from pbem.languages import N_, _, known, later
from pbem.notify import game_mails
from pbem.play import apart, chain, moderation, strangers
from pbem.play.asked import JoinMinimums, SeatAsked
from pbem.store.models import Game, IdleLimit, Player, Seat, Snapshot, utcnow
from pbem.texts import kept_text
from pbem.timing import bank, deadlines, policy
from pbem.words import colour_name, status_word
from pbem.words.said import colour_said, moment_said, said


def check_seat_holders(game_options: dict[str, Any], holders: list[str]) -> None:
    """Refuse a seating where one person holds seats they may not: `holders` names who holds
    each seat (their email), in seat order.

    One seat per person, except in the two-colour variant, where the engine gives colours 0
    and 1 to one person and 2 and 3 to the other: there the pairs must match exactly.
    """
    if game_options.get("variant") == "two_colour":
        if len(holders) != 4:
            raise Invalid(
                N_(
                    "A two-colour game has exactly 4 seats (2 colours for each of its 2 players), "
                    "not %(count)s."
                ),
                code="two-colour-seat-count",
                count=len(holders),
            )
        first, second = holders[:2], holders[2:]
        if len(set(first)) == 1 and len(set(second)) == 1 and first[0] != second[0]:
            return
        if len(set(holders)) == 4:
            return  # four people, as in a game of four: allowed, each holds one colour
        raise Invalid(
            N_(
                "In a two-colour game one person holds seats 1 and 2 and the other seats 3 and 4 "
                "(the same email twice in each pair, a different email in each pair); this "
                "seating pairs them differently."
            ),
            code="two-colour-pairs",
        )
    if len(set(holders)) != len(holders):
        raise Invalid(
            N_(
                "Each seat needs its own player; an email is given twice. Only a two-colour game "
                '(options {"variant": "two_colour"}) lets one player hold two seats.'
            ),
            code="email-twice",
        )


def _holders(seats: list[SeatAsked], options: dict[str, Any]) -> list[str]:
    """Who holds each seat, by email: a person's, or a house bot's for `{bot: true}` (in a
    two-colour game one bot holds a pair, as one person would)."""
    holders, bots = [], 0
    for position, seat in enumerate(seats):
        if seat.get("open"):
            if seat.get("email") or seat.get("bot"):
                raise Invalid(
                    N_(
                        "Seat %(seat)s (%(colour)s) is open to anyone: give it no "
                        'email and no "bot".'
                    ),
                    code="open-seat-with-holder",
                    seat=position + 1,
                    colour=seat["colour"],
                )
            # Held meanwhile by a house bot of its own (none plays: the game is forming).
            holders.append(f"bot-{OPEN_SEAT_BOTS + position}@{BOT_DOMAIN}")
            continue
        if bool(seat.get("email")) == bool(seat.get("bot")):
            raise Invalid(
                N_(
                    'Give seat %(seat)s (%(colour)s) either an email or "bot": true '
                    "(a house bot plays it), not both or neither."
                ),
                code="seat-email-or-bot",
                seat=position + 1,
                colour=seat["colour"],
            )
        if seat.get("bot"):
            if options.get("variant") == "two_colour":
                number = position // 2 + 1
            else:
                bots += 1
                number = bots
            holders.append(f"bot-{number}@{BOT_DOMAIN}")
        elif is_unreachable(seat.get("email") or ""):
            raise Invalid(
                N_(
                    "%(email)s cannot receive mail: for a bot's seat give "
                    '{"colour": ..., "bot": true} instead of an email.'
                ),
                code="bot-address-as-email",
                email=seat["email"],
            )
        else:
            holders.append(_seat_address(position, seat))
    return holders


def _seat_address(position: int, seat: SeatAsked) -> str:
    """A person's seat's address as kept; a refusal names the seat, as a game has several."""
    try:
        return kept_address(seat["email"])
    except Invalid as error:
        raise Invalid(
            N_("Seat %(seat)s (%(colour)s): %(problem)s"),
            code="seat-address-refused",
            seat=position + 1,
            colour=seat["colour"],
            problem=error,
        ) from None


def _checked_seating(
    creator: Player,
    seats: list[SeatAsked],
    options: dict[str, Any] | None,
    forming: bool,
    seated_creator: bool = True,
) -> tuple[list[str], list[str], dict[str, Any]]:
    """Who holds each seat (by email), the colours and the options of a game to be made,
    checked: Invalid says what to mend."""
    if not forming and any(seat.get("open") for seat in seats):
        raise Invalid(
            N_('An open seat (anyone may join it) needs a game that forms first: "forming": true.'),
            code="open-seat-needs-forming",
        )
    emails = _holders(seats, options or {})
    colours = [s["colour"] for s in seats]
    if len(set(colours)) != len(colours):
        raise Invalid(
            N_("Each seat needs its own colour; a colour is given twice."), code="colour-twice"
        )
    check_seat_holders(options or {}, emails)
    if seated_creator and creator.email not in emails:
        raise Invalid(
            N_("You (%(email)s) must take one of the seats of a game you create."),
            code="creator-not-seated",
            email=creator.email,
        )
    options = dict(options or {})
    if "first_player" in options and options["first_player"] not in colours:
        raise Invalid(
            N_("first_player %(colour)s is not one of the seats' colours."),
            code="first-player-not-seated",
            colour=options["first_player"],
        )
    return emails, colours, options


def _players_of(emails: list[str], seats: list[SeatAsked]) -> dict[str, Player]:
    """The player of each seat's email, made for an email with no account yet (invited: its
    seat's first mail lets it claim a key). The name its seat was given is its name at the
    table until it chooses its own (one who plays here already keeps theirs: an organiser
    names no one else's account)."""
    players = {
        p.email: p
        for p in db.session.execute(db.select(Player).where(Player.email.in_(emails))).scalars()
    }
    given = {e: s.get("name") for e, s in zip(emails, seats, strict=True) if s.get("email")}
    for email in dict.fromkeys(e for e in emails if e not in players):
        players[email] = newcomer(email, given.get(email))
    return players


def _named_seats(seats: list[SeatAsked]) -> list[SeatAsked]:
    """The seats, each name given kept as `kept_text` keeps a name; a refusal names the
    seat, as a game has several."""
    named: list[SeatAsked] = []
    for position, seat in enumerate(seats):
        if seat.get("name") is None:
            named.append(seat)
            continue
        try:
            named.append({**seat, "name": kept_text(seat.get("name") or "", "name")})
        except Invalid as error:
            raise Invalid(
                N_("The name given to seat %(seat)s (%(colour)s) is refused: %(problem)s"),
                code="seat-name-refused",
                seat=position + 1,
                colour=later(colour_name, str(seat.get("colour"))),
                problem=error,
            ) from None
    return named


def create_game(
    creator: Player,
    title: str,
    seats: list[SeatAsked],
    options: dict[str, Any] | None = None,
    timing: policy.StoredTiming | None = None,
    default_timing: policy.StoredTiming | None = None,
    forming: bool = False,
    language: str | None = None,
    capped: bool = True,
    join: JoinMinimums | None = None,
    seated_creator: bool = True,
    refuse_kept_apart: bool = True,
) -> Game:
    """A new game: `seats` are `{email, colour}` (with a `name` for a newcomer, if given),
    `{bot: true, colour}` or (a game that forms) `{open: true, colour}` in seat order; the
    creator must hold one. A game that forms waits, without deadlines, until every seat is
    taken and accepted (`accept_seat`, `join_seat`) or its organiser starts it
    (`start_game`); any other starts at once. `language`: its mails' language for a player
    who chose none. `capped`: counted against the day's caps on games and invitations
    (`play.strangers`); only the operator's own tools make games that are not. `join`: what
    a player must have to take an open seat. `seated_creator` False: its maker holds no
    seat (a tournament's organiser makes its tables' games). `refuse_kept_apart` False: the
    seating is not refused for a player suspended or two who keep apart (a tournament's
    round has settled both, and must open)."""
    title = kept_text(title, "title")
    seats = _named_seats(seats)
    emails, colours, options = _checked_seating(creator, seats, options, forming, seated_creator)
    strangers.check_words(title, seats)
    whole = policy.timing_of({**(default_timing or {}), **(timing or {})})
    seed = secrets.randbits(62)
    try:
        state = engine.new_game(colours, seed=seed, options=rules_options(options))
    except (ValueError, engine.IllegalMove) as error:
        raise Invalid(
            N_("The engine cannot set up this game: %(error)s"),
            code="engine-cannot-set-up",
            error=error,
        ) from None
    # Checked, and counted, last: a game refused for any other reason spends no cap.
    if capped:  # every door a person uses; the operator's own tools (the demo) are not
        strangers.admit_game(creator, _invited(creator, emails, colours))
    players = _players_of(emails, seats)
    if refuse_kept_apart:
        _refuse_kept_apart(_held(players, emails, colours, seats), creator.id)
    game = Game(
        title=title.strip(),
        language=known(language),
        options=options,
        timing=dict(whole),
        seed=seed,
        status="forming" if forming else "active",
        creator_id=creator.id,
        colours=colours,
        state=engine.to_dict(state),
        pending=engine.pending(state),
        seq=0,
        min_reliability=(join or {}).get("min_reliability"),
        min_rating=(join or {}).get("min_rating"),
    )
    moment = utcnow()
    game.seats = _new_seats(players, emails, colours, seats, whole, creator, moment)
    db.session.add(game)
    db.session.flush()
    db.session.add(Snapshot(game_id=game.id, seq=0, state=game.state))
    if forming:
        # Cancelled if it has not started by then (the sweep).
        db.session.add(IdleLimit(game_id=game.id, abandon_at=moment + FORMING_FOR))
        game_mails.invitations(db.session.connection(), game=game, organiser=creator)
        return game
    db.session.add(IdleLimit(game_id=game.id, abandon_at=policy.abandon_at(whole, moment)))
    _begin(game, state)
    return game


#: A game that teaches (the home page's "Learn to play", `pbem demo --learn`): the short game
#: against two greedy house bots (they answer at once), with hints, never rated.
LEARN_OPTIONS = {"rounds": 6, "learn": True, "hints": True}
LEARNER_COLOUR, LEARN_BOT_COLOURS = "red", ("blue", "green")


def create_learning_game(learner: Player, title: str, capped: bool = True) -> Game:
    """A game that teaches `learner`, begun at once: they play red, two greedy bots the rest."""
    seats: list[SeatAsked] = [{"email": learner.email, "colour": LEARNER_COLOUR}]
    seats += [{"colour": c, "bot": True, "level": "greedy"} for c in LEARN_BOT_COLOURS]
    return create_game(learner, title, seats, options=dict(LEARN_OPTIONS), capped=capped)


def _new_seats(
    players: dict[str, Player],
    emails: list[str],
    colours: list[str],
    seats: list[SeatAsked],
    whole: policy.StoredTiming,
    creator: Player,
    moment: datetime,
) -> list[Seat]:
    """A new game's seats, in seat order."""
    return [
        Seat(
            player_id=players[email].id,
            colour=colour,
            position=i,
            bot=bool(seat.get("bot")),
            bot_level=seat.get("level") if seat.get("bot") else None,
            open=bool(seat.get("open")),
            bank_seconds=bank.starting_seconds(whole),
            # The organiser's own seat and a bot's are accepted as the game is made.
            accepted_at=moment if seat.get("bot") or email == creator.email else None,
        )
        for i, (email, colour, seat) in enumerate(zip(emails, colours, seats, strict=True))
    ]


def _invited(creator: Player, emails: list[str], colours: list[str]) -> dict[str, str]:
    """The addresses a new game invites, each with its first seat's colour."""
    invited: dict[str, str] = {}
    for email, colour in zip(emails, colours, strict=True):
        if email != creator.email and not is_unreachable(email):
            invited.setdefault(email, colour)
    return invited


def _begin(game: Game, state: engine.State) -> None:
    """The game's clock starts: its deadlines, each seat's first mail and first decision."""
    connection = db.session.connection()
    due = deadlines.sync(connection, game.id, game.timing, state, utcnow())
    game_mails.game_started(connection, game_id=game.id, title=game.title, state=state, due=due)


#: Open seats are held, while the game forms, by house bots numbered from here (apart from
#: the bots that play seats).
OPEN_SEAT_BOTS = 90
#: How long a game may form before, unfilled, it is cancelled.
FORMING_FOR = timedelta(days=14)


def accept_seat(game_id: int, colour: str, player_id: int, by_link: bool = False) -> Game:
    """The holder of a forming game's seat accepts it; the game starts once every seat is
    taken and accepted. An invitation is its address's: only a player who has proved that
    address accepts it, by the invitation's link (`by_link`: mailed to the address, so
    following it is the proof) or by any link mailed to it before."""
    game = locked_game(game_id)
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None or seat.player_id != player_id or seat.open:
        raise NotFound(N_("This seat is not yours to accept."), code="seat-not-yours-to-accept")
    holder = seat.player
    if by_link:
        holder.email_proved_at = holder.email_proved_at or utcnow()
    elif holder.email_proved_at is None:
        raise Forbidden(
            N_(
                "The invitation is for %(email)s, which you have not yet shown to be yours: "
                "accept with the link in the invitation mail, or sign in at /sign-in with a "
                "link mailed to that address."
            ),
            code="invitation-address-unproven",
            email=holder.email,
        )
    if game.status != "forming":
        raise Conflict(
            N_("Game %(game)s is %(status)s: there is nothing to accept now."),
            code="nothing-to-accept",
            game=game.id,
            status=later(status_word, game.status),
        )
    seat.accepted_at = seat.accepted_at or utcnow()
    _start_if_full(game)
    return game


def join_seat(player: Player, game_id: int, colour: str) -> Game:
    """A player takes an open seat of a forming game (from the list of games that need
    players); the organiser is told, and the game starts once every seat is accepted."""
    game = locked_game(game_id)
    if game.status != "forming":
        raise Conflict(
            N_("Game %(game)s is %(status)s: its seats are no longer open."),
            code="seats-no-longer-open",
            game=game.id,
            status=later(status_word, game.status),
        )
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None or not seat.open:
        raise Conflict(
            N_("The %(colour)s seat of game %(game)s is not open: choose another."),
            code="seat-not-open",
            colour=colour,
            game=game.id,
        )
    if is_unreachable(player.email):
        raise Forbidden(N_("A house bot joins no game."), code="bot-joins-no-game")
    if any(s.player_id == player.id for s in game.seats):
        raise Conflict(
            N_("You already hold a seat in game %(game)s."), code="already-seated", game=game.id
        )
    _check_join_minimums(game, player)
    apart.refuse_join(player.id, [s.player_id for s in game.seats if not s.open], game.id)
    seat.player_id, seat.open, seat.accepted_at = player.id, False, utcnow()
    db.session.flush()
    line = said(
        N_("%(name)s has joined %(title)s as %(colour)s."),
        name=player.name,
        title=game.title,
        colour=colour_said(colour),
    )
    game_mails.notice(
        db.session.connection(),
        game=game,
        subject=said(N_("%(name)s joined"), name=player.name),
        lines=[line],
    )
    _start_if_full(game)
    return game


def _check_join_minimums(game: Game, player: Player) -> None:
    """Forbidden unless `player` has the reliability and rating the organiser asks of those
    who join an open seat (someone with no decision on record has no reliability yet)."""
    if game.min_reliability is None and game.min_rating is None:
        return
    record = ratings.player_record(player.id)  # one read
    reliability, rating = record["reliability"], record["rating"]["ordinal"]
    if game.min_reliability is not None and (
        reliability is None or reliability < game.min_reliability
    ):
        raise Forbidden(
            N_(
                "Game %(game)s is for players who answer at least %(needed)s%% of their "
                "decisions in time; you have %(yours)s. Look for another game that needs "
                "players."
            ),
            code="join-needs-reliability",
            game=game.id,
            needed=round(game.min_reliability * 100),
            yours=later(_, N_("no decisions on record yet"))
            if reliability is None
            else f"{round(reliability * 100)}%",
        )
    if game.min_rating is not None and rating < game.min_rating:
        raise Forbidden(
            N_(
                "Game %(game)s is for players rated at least %(needed)s; your rating is "
                "%(yours)s. Look for another game that needs players."
            ),
            code="join-needs-rating",
            game=game.id,
            needed=f"{game.min_rating:.1f}",
            yours=f"{rating:.1f}",
        )


def start_game(admin: Player, game_id: int) -> Game:
    """The organiser starts a forming game now: open seats go to house bots, and invited
    seats not yet accepted are played by their invitees, who are mailed as everyone is."""
    game = locked_game(game_id)
    _require_admin(game, admin)
    if game.status != "forming":
        raise Conflict(
            N_("Game %(game)s is %(status)s: it has started already."),
            code="game-started-already",
            game=game.id,
            status=later(status_word, game.status),
        )
    for seat in game.seats:
        if seat.open:
            seat.open, seat.bot = False, True
        seat.accepted_at = seat.accepted_at or utcnow()
    _start(game)
    return game


def _start_if_full(game: Game) -> None:
    if all(s.accepted_at is not None and not s.open for s in game.seats):
        _start(game)


def _start(game: Game) -> None:
    moment = utcnow()
    game.status, game.updated_at = "active", moment
    db.session.flush()
    limit = db.session.get(IdleLimit, game.id)
    if limit is not None:
        limit.abandon_at = policy.abandon_at(game.timing, moment)
    _begin(game, current_state(game.id, game.seed, game.seq))


def abort_game(admin: Player, game_id: int) -> Game:
    """The organiser stops the game for good; the table is told."""
    game = locked_game(game_id)
    _require_admin(game, admin)
    if game.status not in ("active", "forming"):
        raise Conflict(
            N_("Game %(game)s is already %(status)s."),
            code="game-over-already",
            game=game.id,
            status=later(status_word, game.status),
        )
    game.status = "aborted"
    game.pending = []
    game.updated_at = utcnow()
    line = said(
        N_("%(name)s, who organises %(title)s, has stopped it for good."),
        name=admin.name,
        title=game.title,
    )
    game_mails.notice(
        db.session.connection(), game=game, subject=said(N_("the game is stopped")), lines=[line]
    )
    return game


#: The most an organiser may put a deadline off by at once (two weeks).
LONGEST_EXTENSION_HOURS = 336


def extend_deadline(admin: Player, game_id: int, colour: str, hours: int) -> list[datetime]:
    """The organiser gives a seat more time for what it must decide now; the table is told.
    Returns the new deadlines."""
    game, seat = _organised_seat(admin, game_id, colour)
    if not 1 <= hours <= LONGEST_EXTENSION_HOURS:
        raise Invalid(
            N_("Put a deadline off by 1 to %(most)s hours, not %(hours)s."),
            code="extension-hours",
            most=LONGEST_EXTENSION_HOURS,
            hours=hours,
        )
    if seat.bot:
        raise Conflict(
            N_("A bot plays %(colour)s: it decides at once, and needs no more time."),
            code="bot-needs-no-time",
            colour=colour,
        )
    connection = db.session.connection()
    moved = deadlines.extend(connection, game.id, colour, hours, game.timing)
    if not moved:
        raise Conflict(
            N_("%(colour)s has nothing to decide now in game %(game)s: no deadline to put off."),
            code="no-deadline-to-put-off",
            colour=colour,
            game=game.id,
        )
    line = said(
        N_("%(name)s, who organises the game, gave %(colour)s %(hours)s hours more: due %(when)s."),
        name=admin.name,
        colour=colour_said(colour),
        hours=hours,
        when=moment_said(min(moved)),  # in each recipient's language
    )
    game_mails.notice(
        connection,
        game=game,
        subject=said(N_("more time for %(colour)s"), colour=colour_said(colour)),
        lines=[line],
    )
    return moved


def seat_to_bot(admin: Player, game_id: int, colour: str) -> Game:
    """The organiser lets a house bot play a seat whose player is gone (its player may take
    it back, as after timeouts); the table is told."""
    game, seat = _organised_seat(admin, game_id, colour)
    if seat.bot:
        raise Conflict(
            N_("A bot plays %(colour)s already."), code="bot-plays-already", colour=colour
        )
    seat.bot, seat.timeouts = True, 0
    db.session.flush()
    connection = db.session.connection()
    deadlines.recompute(connection, game.id, game.timing)
    line = said(
        N_(
            "%(name)s, who organises the game, has let a bot play %(colour)s; its player may "
            "take it back any time."
        ),
        name=admin.name,
        colour=colour_said(colour),
    )
    game_mails.notice(
        connection,
        game=game,
        subject=said(N_("a bot now plays %(colour)s"), colour=colour_said(colour)),
        lines=[line],
    )
    return game


def _organised_seat(admin: Player, game_id: int, colour: str) -> tuple[Game, Seat]:
    """The organiser's game, in play, its row locked (a game's first lock, before its
    deadlines: `locked_game`), and its `colour` seat."""
    game = locked_game(game_id)
    _require_admin(game, admin)
    if game.status != "active":
        raise Conflict(
            N_("Game %(game)s is %(status)s; its seats no longer play."),
            code="seats-no-longer-play",
            game=game.id,
            status=later(status_word, game.status),
        )
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None:
        raise NotFound(
            N_("Game %(game)s has no %(colour)s seat."),
            code="no-such-seat",
            game=game.id,
            colour=colour,
        )
    return game, seat


def give_seat(admin: Player, game_id: int, colour: str, email: str) -> Game:
    """Hand the seat `colour` to the player `email` (a replacement player), invited if the
    address has no account yet (refused for an address that asked never to be invited, and
    counted against the day's invitations: `strangers.admit_seat`).

    In a two-colour game where one person holds both colours of a pair, the whole pair goes
    to the new player: a person is replaced, not half of one.
    """
    game = locked_game(game_id)
    _require_admin(game, admin)
    if game.status != "active":
        raise Conflict(
            N_("Game %(game)s is %(status)s; its seats can no longer change."),
            code="seats-no-longer-change",
            game=game.id,
            status=later(status_word, game.status),
        )
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None:
        raise NotFound(
            N_("Game %(game)s has no %(colour)s seat."),
            code="no-such-seat",
            game=game.id,
            colour=colour,
        )
    email = normal_email(email)
    if is_unreachable(email):
        raise Invalid(
            N_("%(email)s cannot receive mail: give the seat to a person's address."),
            code="give-seat-to-person",
            email=email,
        )
    email = kept_address(email)
    player = db.session.execute(db.select(Player).where(Player.email == email)).scalar_one_or_none()
    moving = [seat]
    if (game.options or {}).get("variant") == "two_colour":
        pair = game.seats[:2] if seat.position < 2 else game.seats[2:]
        if all(s.player_id == seat.player_id for s in pair):
            moving = pair
    if player is not None and any(s.player_id == player.id for s in game.seats if s not in moving):
        raise Conflict(
            N_("%(email)s already holds a seat in game %(game)s."),
            code="holds-seat-already",
            email=email,
            game=game.id,
        )
    if player is not None:
        others = {s.colour: s.player_id for s in game.seats if s not in moving and not s.open}
        _refuse_kept_apart({**others, colour: player.id}, admin.id)
    # The seat's first mail invites its new holder: checked, and counted, as at creation.
    strangers.admit_seat(admin, email, colour)
    if player is None:
        player = invite(email)
    played_by_bot = any(s.bot for s in moving)
    for s in moving:
        s.player_id = player.id
        s.declined_at = None
        # A new holder plays the seat themselves (a house bot's seat, or one a bot took
        # after timeouts); they may hand it to the bot again.
        s.bot, s.timeouts = False, 0
    game.updated_at = utcnow()
    db.session.flush()
    chain.forget(db.session.connection(), game.id, [s.colour for s in moving])
    if played_by_bot:
        deadlines.recompute(db.session.connection(), game.id, game.timing)
    game_mails.seat_given(db.session.connection(), game=game, seats=moving)
    return game


def _held(
    players: dict[str, Player], emails: list[str], colours: list[str], seats: list[SeatAsked]
) -> dict[str, int]:
    """The seats a new game gives people (not bots, not open), with their holders' ids."""
    people = zip(emails, colours, seats, strict=True)
    return {c: players[e].id for e, c, seat in people if not (seat.get("bot") or seat.get("open"))}


def _refuse_kept_apart(people: dict[str, int], organiser_id: int) -> None:
    """Refused when the people a seating puts at one table (`{colour: player id}`) hold one
    who is kept away from the server for now, or two who keep apart (a block)."""
    away = moderation.kept_away(db.session.connection(), list(people.values()))
    for colour, player_id in people.items():
        if player_id in away:
            raise Forbidden(
                N_(
                    "The %(colour)s seat cannot go to that player: they may not play here for "
                    "now. Give that seat to someone else."
                ),
                code="player-kept-away",
                colour=later(colour_name, colour),
            )
    apart.refuse_seating(people, organiser_id)


def _require_admin(game: Game, player: Player) -> None:
    if game.creator_id != player.id:
        raise Forbidden(
            N_("Only the creator of game %(game)s may administer it."),
            code="not-the-creator",
            game=game.id,
        )


def decline_seat(game_id: int, colour: str, player_id: int) -> Seat:
    """The holder of a seat gives it up: the seat stays theirs until the admin gives it to
    someone else, and the admin is told by mail."""
    game = locked_game(game_id)
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None or seat.player_id != player_id:
        raise NotFound(
            N_("This seat is no longer yours to decline."), code="seat-not-yours-to-decline"
        )
    if game.status == "forming":
        # Declined before the game began: the seat is open for anyone to join.
        game_mails.seat_declined(db.session.connection(), game=game, seat=seat)
        seat.player_id = house_bot(OPEN_SEAT_BOTS + seat.position).id
        seat.open, seat.accepted_at = True, None
        return seat
    if game.status != "active":
        raise Conflict(
            N_("Game %(game)s is %(status)s; there is no seat to decline."),
            code="nothing-to-decline",
            game=game.id,
            status=later(status_word, game.status),
        )
    if seat.declined_at is None:
        seat.declined_at = utcnow()
        game_mails.seat_declined(db.session.connection(), game=game, seat=seat)
    return seat


def set_bot(player: Player, game_id: int, colour: str, bot: bool) -> Game:
    """A seat's holder hands it to the bot, or takes it back; the others are told. The game's
    row is locked first, before its deadlines are recomputed (one lock order)."""
    game = locked_game(game_id)
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None:
        raise NotFound(
            N_("Game %(game)s has no %(colour)s seat."),
            code="no-such-seat",
            game=game.id,
            colour=colour,
        )
    if seat.player_id != player.id:
        raise Forbidden(
            N_("The %(colour)s seat of game %(game)s is not yours."),
            code="seat-not-yours",
            colour=colour,
            game=game.id,
        )
    if game.status != "active":
        raise Conflict(
            N_("Game %(game)s is %(status)s; its seats no longer play."),
            code="seats-no-longer-play",
            game=game.id,
            status=later(status_word, game.status),
        )
    if seat.bot != bot:
        seat.bot, seat.timeouts = bot, 0
        db.session.flush()
        connection = db.session.connection()
        deadlines.recompute(connection, game.id, game.timing)
        if bot:
            subject = said(N_("a bot now plays %(colour)s"), colour=colour_said(colour))
            line = said(
                N_("%(name)s has let a bot play %(colour)s, and may take it back any time."),
                name=player.name,
                colour=colour_said(colour),
            )
        else:
            subject = said(
                N_("%(name)s plays %(colour)s again"), name=player.name, colour=colour_said(colour)
            )
            line = said(
                N_("%(name)s has taken %(colour)s back from the bot."),
                name=player.name,
                colour=colour_said(colour),
            )
        game_mails.notice(
            connection, game=game, subject=subject, lines=[line], skip_player=player.id
        )
        if not bot:
            game_mails.seat_back(connection, game=game, colour=colour)
    return game
