"""Upgrades keep people rated: a database from before proved addresses (every address
unproved after `pbem db upgrade`, so nobody rated) is brought back by the one documented
step, `pbem players prove`, which proves whoever played or spoke here and rates the games
again; `pbem ratings rebuild` says whom it skipped and why; and a reply from a seat's own
address to its signed reply address proves that address."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask_migrate import upgrade

import engine
from engine.bots import RandomBot
from pbem import create_app
from pbem.cli import main
from pbem.clock import now
from pbem.extensions import db
from pbem.mailin import process_inbound
from pbem.notify import addresses
from pbem.store.models import BotRating, Player, PlayerRating
from tests.server.conftest import unmigrated_database
from tests.server.mailin_helpers import fresh_mail
from tests.server.test_ratings import new_game_of, people, play_out

#: The last revision before proved addresses (`d1f7a3c5e9b2` adds `email_proved_at`).
BEFORE_PROOFS = "b8e4d2a6c0f3"

#: The older release's people (and a house bot): how each played their seats.
OLD_PLAYERS = {
    1: ("ann@old.example", "api"),
    2: ("bea@old.example", "email"),
    3: ("cid@old.example", "web"),
    4: ("dan@old.example", "api"),
    5: ("eve@old.example", "timeout"),  # invited, never answered: nothing proves her address
    6: ("bot-1@bots.invalid", "bot"),
}
#: Two finished games: their ids, seats' holders in order, and seeds.
OLD_GAMES = {1: ([1, 2, 3], 11), 2: ([1, 4, 5, 6], 12)}
COLOURS = ["red", "yellow", "green", "blue"]


def played_to_the_end(colours: list[str], seed: int) -> tuple[engine.State, list[tuple]]:
    """A game of six rounds played to its end by random moves in the engine: its final
    state, and each move as (colour, move, events)."""
    state = engine.new_game(colours, seed=seed, options={"rounds": 6})
    bot, moves = RandomBot(seed), []
    while not engine.is_over(state):
        colour = engine.pending(state)[0]["player"]
        move = bot.choose(state, colour)
        state, events = engine.apply(state, colour, move)
        moves.append((colour, move, events))
    return state, moves


def write_the_old_release(connection: sa.Connection, moment: datetime) -> None:
    """Players and finished games as rows of the release at BEFORE_PROOFS."""
    for player_id, (email, _how) in OLD_PLAYERS.items():
        connection.execute(
            sa.text(
                "INSERT INTO players (id, email, name, preferences, created_at)"
                " VALUES (:id, :email, :name, '{}', :t)"
            ),
            {"id": player_id, "email": email, "name": email.split("@")[0], "t": moment},
        )
    for game_id, (holders, seed) in OLD_GAMES.items():
        colours = COLOURS[: len(holders)]
        state, moves = played_to_the_end(colours, seed)
        ended = moment + timedelta(days=game_id, seconds=len(moves))
        connection.execute(
            sa.text(
                "INSERT INTO games (id, title, options, timing, seed, status, creator_id,"
                " colours, state, pending, seq, created_at, updated_at) VALUES (:id, 'Old',"
                " :options, '{}', :seed, 'finished', :creator, :colours, :state, '[]', :seq,"
                " :t, :ended)"
            ),
            {
                "id": game_id,
                "options": json.dumps({"rounds": 6}),
                "seed": seed,
                "creator": holders[0],
                "colours": json.dumps(colours),
                "state": json.dumps(engine.to_dict(state)),
                "seq": len(moves),
                "t": moment,
                "ended": ended,
            },
        )
        _write_seats(connection, game_id, dict(zip(colours, holders, strict=True)))
        _write_moves(connection, game_id, moves, dict(zip(colours, holders, strict=True)), moment)


def _write_seats(connection: sa.Connection, game_id: int, holders: dict) -> None:
    for position, (colour, player_id) in enumerate(holders.items()):
        connection.execute(
            sa.text(
                "INSERT INTO seats (game_id, player_id, colour, position, timeouts, bot, open)"
                " VALUES (:g, :p, :c, :n, 0, :bot, false)"
            ),
            {"g": game_id, "p": player_id, "c": colour, "n": position, "bot": player_id == 6},
        )


def _write_moves(
    connection: sa.Connection, game_id: int, moves: list, holders: dict, moment: datetime
) -> None:
    rows = []
    for seq, (colour, move, events) in enumerate(moves, start=1):
        how = OLD_PLAYERS[holders[colour]][1]
        rows.append(
            {
                "g": game_id,
                "seq": seq,
                "c": colour,
                # A timeout's and a bot's move have no sender.
                "p": holders[colour] if how in ("api", "email", "web") else None,
                "move": json.dumps(move),
                "events": json.dumps(events),
                "source": how,
                "t": moment + timedelta(days=game_id, seconds=seq),
            }
        )
    connection.execute(
        sa.text(
            "INSERT INTO moves (game_id, seq, colour, player_id, move, events, source,"
            " created_at) VALUES (:g, :seq, :c, :p, :move, :events, :source, :t)"
        ),
        rows,
    )


def test_an_upgrade_from_before_proved_addresses_keeps_people_rated(tmp_path, monkeypatch, capsys):
    with unmigrated_database(tmp_path, "pbem_proofs_") as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "migration-test"})
        with app.app_context():
            upgrade(revision=BEFORE_PROOFS)
            with db.engine.begin() as connection:
                write_the_old_release(connection, datetime(2026, 3, 1, tzinfo=UTC))
            db.engine.dispose()
        monkeypatch.setenv("DATABASE_URL", url)
        monkeypatch.setenv("SECRET_KEY", "migration-test-secret")
        main(["db", "upgrade"])
        main(["ratings", "rebuild"])  # what an upgrade without the step gives
        assert capsys.readouterr().out.splitlines()[-1] == (
            "Ratings: 2 finished games: 0 people rated, 5 skipped because they never proved "
            "their address (see `pbem players prove`)."
        )
        main(["players", "prove"])  # the step deploy/README's Upgrades names
        assert capsys.readouterr().out.splitlines() == [
            "Proved 4 addresses that played here:",
            "  ann@old.example",
            "  bea@old.example",
            "  cid@old.example",
            "  dan@old.example",
            "Ratings: 2 finished games: 4 people rated, 1 skipped because they never proved "
            "their address (see `pbem players prove`); 1 house bot level rated.",
        ]
        with app.app_context():
            rated = {
                row.player_id: row.games
                for row in db.session.execute(sa.select(PlayerRating)).scalars()
            }
            proved = {
                row.email: row.email_proved_at is not None
                for row in db.session.execute(sa.select(Player)).scalars()
            }
            # The old release's bot seat names no level: the default takeover bot's.
            bots = {
                row.level: row.games for row in db.session.execute(sa.select(BotRating)).scalars()
            }
            db.session.remove()
            db.engine.dispose()
        assert rated == {1: 2, 2: 1, 3: 1, 4: 1}
        assert bots == {"strong": 1}
        assert proved == {
            "ann@old.example": True,
            "bea@old.example": True,
            "cid@old.example": True,
            "dan@old.example": True,
            "eve@old.example": False,
            "bot-1@bots.invalid": False,
        }


def test_pbem_players_prove_proves_who_played_or_spoke(app, api, database_url, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", database_url)
    tag = uuid.uuid4().hex[:6]
    [ann] = people(api, 1)
    # Invited, never proved: ivy plays her seat, kim leaves hers to the bot but says a
    # word to the table, lou leaves hers and says nothing.
    ivy, kim, lou = (f"{name}-{tag}@example.org" for name in ("ivy", "kim", "lou"))
    game_id = new_game_of(api, [ann, ivy, kim, lou], COLOURS)
    play_out(app, game_id, seed=5, left=("green", "blue"))
    with app.app_context():
        kim_id = db.session.execute(sa.select(Player.id).where(Player.email == kim)).scalar_one()
        db.session.execute(
            sa.text(
                "INSERT INTO table_talk (game_id, seq, colour, player_id, text, source,"
                " created_at) VALUES (:g, 1, 'green', :p, 'hola', 'email', :t)"
            ),
            {"g": game_id, "p": kim_id, "t": now()},
        )
        db.session.commit()

    def proved() -> list[str]:
        with app.app_context():
            found = db.session.execute(
                sa.select(Player.email).where(Player.email_proved_at.is_not(None))
            ).scalars()
            return sorted(found)

    main(["players", "prove", "--dry-run"])
    assert (
        capsys.readouterr().out == f"Would prove 2 addresses that played here:\n  {ivy}\n  {kim}\n"
    )
    assert proved() == [ann]
    main(["players", "prove"])
    assert capsys.readouterr().out == (
        f"Proved 2 addresses that played here:\n  {ivy}\n  {kim}\n"
        # kim is proved, but a bot played her seat: her result is kept, unrated.
        "Ratings: 1 finished game: 2 people rated, 1 skipped because they never proved "
        "their address (see `pbem players prove`).\n"
    )
    assert proved() == sorted([ann, ivy, kim])
    main(["players", "prove"])
    assert capsys.readouterr().out == (
        "Nobody to prove: everyone who played here has proved their address.\n"
    )
    main(["players", "prove", "--email", lou])
    assert capsys.readouterr().out == (
        f"Proved {lou} (you vouch for it: it never played here).\n"
        "Ratings: 1 finished game: 2 people rated.\n"
    )
    main(["players", "prove", "--email", ann])
    assert capsys.readouterr().out == f"{ann} is proved already.\n"
    with pytest.raises(SystemExit) as refused:
        main(["players", "prove", "--email", f"nobody-{tag}@example.org"])
    assert refused.value.code == 2
    assert "no player has the address" in capsys.readouterr().err


def test_a_reply_from_the_seats_own_address_proves_it(mail_app, mail_api):
    [ann] = [f"ann-{uuid.uuid4().hex[:6]}@example.org"]
    mail_api.register(ann, "Ann")
    invited = f"ivy-{uuid.uuid4().hex[:6]}@example.org"
    game_id = new_game_of(mail_api, [ann, invited], ["red", "blue"])
    with mail_app.app_context():
        seat = addresses.seat_address(game_id, "blue")

    def send(sender: str, **headers: str) -> datetime | None:
        with mail_app.app_context():
            process_inbound(fresh_mail(sender, seat, "board", **headers))
            db.session.remove()
            return db.session.execute(
                sa.select(Player.email_proved_at).where(Player.email == invited)
            ).scalar_one()

    # Not from the holder's address, or failing our server's sender checks: no proof.
    assert send("mallory@evil.example") is None
    mail_app.config["MAIL_TRUSTED_AUTHSERV_ID"] = "mx.pbem.example"
    failing = {"Authentication-Results": "mx.pbem.example; dmarc=fail header.from=example.org"}
    assert send(invited, **failing) is None
    # The holder's own: the reply address was mailed to that address alone.
    first = send(invited)
    assert first is not None and abs(first - now()) < timedelta(minutes=1)
    assert send(invited) == first  # the first reply proves it; later ones change nothing
