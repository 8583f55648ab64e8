"""A game's life apart from its moves: creating one with its seats, aborting it, handing a
seat to someone else or to a bot, a seat declined. Each writes its mail and deadlines in the
caller's transaction; the door that called it commits."""

from __future__ import annotations

import secrets
from typing import Any

import engine
from pbem.errors import Conflict, Forbidden, Invalid, NotFound
from pbem.extensions import db
from pbem.game.games import get_game
from pbem.game.players import BOT_DOMAIN, invite, is_unreachable, newcomer, normal_email
from pbem.notify import outbox
from pbem.play import chain
from pbem.store.models import Game, IdleLimit, Player, Seat, Snapshot, utcnow
from pbem.timing import deadlines, policy


def check_seat_holders(game_options: dict[str, Any], holders: list[str]) -> None:
    """Refuse a seating where one person holds seats they may not: `holders` names who holds
    each seat (their email), in seat order.

    One seat per person, except in the two-colour variant, where the engine gives colours 0
    and 1 to one person and 2 and 3 to the other: there the pairs must match exactly.
    """
    if game_options.get("variant") == "two_colour":
        if len(holders) != 4:
            raise Invalid(
                f"A two-colour game has exactly 4 seats (2 colours for each of its 2 players), "
                f"not {len(holders)}."
            )
        first, second = holders[:2], holders[2:]
        if len(set(first)) == 1 and len(set(second)) == 1 and first[0] != second[0]:
            return
        if len(set(holders)) == 4:
            return  # four people, as in a game of four: allowed, each holds one colour
        raise Invalid(
            "In a two-colour game one person holds seats 1 and 2 and the other seats 3 and 4 "
            "(the same email twice in each pair, a different email in each pair); this "
            "seating pairs them differently."
        )
    if len(set(holders)) != len(holders):
        raise Invalid(
            "Each seat needs its own player; an email is given twice. Only a two-colour game "
            '(options {"variant": "two_colour"}) lets one player hold two seats.'
        )


def _holders(seats: list[dict[str, Any]], options: dict[str, Any]) -> list[str]:
    """Who holds each seat, by email: a person's, or a house bot's for `{bot: true}` (in a
    two-colour game one bot holds a pair, as one person would)."""
    holders, bots = [], 0
    for position, seat in enumerate(seats):
        if bool(seat.get("email")) == bool(seat.get("bot")):
            raise Invalid(
                f'Give seat {position + 1} ({seat["colour"]}) either an email or "bot": true '
                "(a house bot plays it), not both or neither."
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
                f"{seat['email']} cannot receive mail: for a bot's seat give "
                '{"colour": ..., "bot": true} instead of an email.'
            )
        else:
            holders.append(normal_email(seat["email"]))
    return holders


def create_game(
    creator: Player,
    title: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    timing: dict[str, Any] | None = None,
    default_timing: dict[str, Any] | None = None,
) -> Game:
    """A new game: `seats` are `{email, colour}` or `{bot: true, colour}` in seat order; the
    creator must hold one."""
    emails = _holders(seats, options or {})
    colours = [s["colour"] for s in seats]
    if len(set(colours)) != len(colours):
        raise Invalid("Each seat needs its own colour; a colour is given twice.")
    check_seat_holders(options or {}, emails)
    if creator.email not in emails:
        raise Invalid(f"You ({creator.email}) must take one of the seats of a game you create.")
    players = {
        p.email: p
        for p in db.session.execute(db.select(Player).where(Player.email.in_(emails))).scalars()
    }
    options = dict(options or {})
    if "first_player" in options and options["first_player"] not in colours:
        raise Invalid(f"first_player {options['first_player']} is not one of the seats' colours.")
    timing = policy.timing_of({**(default_timing or {}), **(timing or {})})
    seed = secrets.randbits(62)
    try:
        state = engine.new_game(colours, seed=seed, options=options or None)
    except (ValueError, engine.IllegalMove) as error:
        raise Invalid(f"The engine cannot set up this game: {error}") from None
    # An email with no account yet is invited: its seat's first mail lets it claim a key.
    for email in dict.fromkeys(e for e in emails if e not in players):
        players[email] = newcomer(email)
    game = Game(
        title=title.strip(),
        options=options,
        timing=timing,
        seed=seed,
        status="active",
        creator_id=creator.id,
        colours=colours,
        state=engine.to_dict(state),
        pending=engine.pending(state),
        seq=0,
    )
    game.seats = [
        Seat(player_id=players[email].id, colour=colour, position=i, bot=bool(seat.get("bot")))
        for i, (email, colour, seat) in enumerate(zip(emails, colours, seats, strict=True))
    ]
    db.session.add(game)
    db.session.flush()
    db.session.add(Snapshot(game_id=game.id, seq=0, state=game.state))
    db.session.add(IdleLimit(game_id=game.id, abandon_at=policy.abandon_at(timing, utcnow())))
    connection = db.session.connection()
    due = deadlines.sync(connection, game.id, game.timing, state, utcnow())
    outbox.game_started(connection, game_id=game.id, title=game.title, state=state, due=due)
    return game


def abort_game(admin: Player, game_id: int) -> Game:
    game = get_game(game_id)
    _require_admin(game, admin)
    if game.status != "active":
        raise Conflict(f"Game {game.id} is already {game.status}.")
    game.status = "aborted"
    game.pending = []
    game.updated_at = utcnow()
    return game


def give_seat(admin: Player, game_id: int, colour: str, email: str) -> Game:
    """Hand the seat `colour` to the registered player `email` (a replacement player).

    In a two-colour game where one person holds both colours of a pair, the whole pair goes
    to the new player: a person is replaced, not half of one.
    """
    game = get_game(game_id)
    _require_admin(game, admin)
    if game.status != "active":
        raise Conflict(f"Game {game.id} is {game.status}; its seats can no longer change.")
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None:
        raise NotFound(f"Game {game.id} has no {colour} seat.")
    email = normal_email(email)
    if is_unreachable(email):
        raise Invalid(f"{email} cannot receive mail: give the seat to a person's address.")
    player = db.session.execute(db.select(Player).where(Player.email == email)).scalar_one_or_none()
    if player is None:
        player = invite(email)
    moving = [seat]
    if (game.options or {}).get("variant") == "two_colour":
        pair = game.seats[:2] if seat.position < 2 else game.seats[2:]
        if all(s.player_id == seat.player_id for s in pair):
            moving = pair
    if any(s.player_id == player.id for s in game.seats if s not in moving):
        raise Conflict(f"{email} already holds a seat in game {game.id}.")
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
    outbox.seat_given(db.session.connection(), game=game, seats=moving)
    return game


def _require_admin(game: Game, player: Player) -> None:
    if game.creator_id != player.id:
        raise Forbidden(f"Only the creator of game {game.id} may administer it.")


def decline_seat(game_id: int, colour: str, player_id: int) -> Seat:
    """The holder of a seat gives it up: the seat stays theirs until the admin gives it to
    someone else, and the admin is told by mail."""
    game = get_game(game_id)
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None or seat.player_id != player_id:
        raise NotFound("This seat is no longer yours to decline.")
    if game.status != "active":
        raise Conflict(f"Game {game.id} is {game.status}; there is no seat to decline.")
    if seat.declined_at is None:
        seat.declined_at = utcnow()
        outbox.seat_declined(db.session.connection(), game=game, seat=seat)
    return seat


def set_bot(player: Player, game_id: int, colour: str, bot: bool) -> Game:
    """A seat's holder hands it to the bot, or takes it back; the others are told."""
    game = get_game(game_id)
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None:
        raise NotFound(f"Game {game.id} has no {colour} seat.")
    if seat.player_id != player.id:
        raise Forbidden(f"The {colour} seat of game {game.id} is not yours.")
    if game.status != "active":
        raise Conflict(f"Game {game.id} is {game.status}; its seats no longer play.")
    if seat.bot != bot:
        seat.bot, seat.timeouts = bot, 0
        db.session.flush()
        connection = db.session.connection()
        deadlines.recompute(connection, game.id, game.timing)
        if bot:
            subject = f"a bot now plays {colour}"
            line = f"{player.name} has let a bot play {colour}, and may take it back any time."
        else:
            subject = f"{player.name} plays {colour} again"
            line = f"{player.name} has taken {colour} back from the bot."
        outbox.notice(connection, game=game, subject=subject, lines=[line], skip_player=player.id)
        if not bot:
            outbox.seat_back(connection, game=game, colour=colour)
    return game
