"""A game played in the engine (`tests.secret_oracle.play_in_engine`) written into the
server at one of its moments, as `pbem import` writes a running game moved from another
installation: its seats held by fresh players with keys, its log replayed in one
transaction. A test then reads every door at that moment, and plays on through the API,
without playing the moves before it through the service."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from pbem.extensions import db
from pbem.play import transfer
from tests.secret_oracle import EngineGame, people_of


def import_at(app, api, game: EngineGame, seq: int) -> tuple[int, dict[str, str]]:
    """The game after its first `seq` moves, running here; its id and {colour: key} (a
    person's two colours share a key)."""
    tag = uuid.uuid4().hex[:8]
    keys: dict[str, str] = {}
    seats = []
    for number, person in enumerate(people_of(game.colours, game.two_colour)):
        email = f"person{number}-{tag}@example.org"
        key = api.register(email, f"Person {number}")
        for colour in sorted(person, key=game.colours.index):
            keys[colour] = key
            seats.append({"colour": colour, "name": f"Person {number}", "email": email})
    seats.sort(key=lambda seat: game.colours.index(seat["colour"]))
    moment = datetime.now(UTC).isoformat()
    document = {
        "format": transfer.FORMAT,
        "exported_at": moment,
        "title": f"Position {tag}",
        "status": "finished" if seq == len(game.log) and game.over else "active",
        "options": game.options,
        "timing": {},
        "created_at": moment,
        "finished_at": moment if seq == len(game.log) and game.over else None,
        "admin": seats[0]["email"],
        "seats": [{**seat, "bot": False} for seat in seats],
        "seed": game.seed,
        **(
            {}
            if seq == len(game.log) and game.over
            else {"seed_is_secret": True, "warning": transfer.SECRET_SEED_WARNING}
        ),
        "log": [
            {"seq": number, "colour": colour, "move": move, "source": "api", "time": moment}
            for number, (colour, move) in enumerate(game.log[:seq], start=1)
        ],
    }
    with app.app_context():
        game_id = transfer.import_game(transfer.check_document(document))
        db.session.remove()
    return game_id, keys
