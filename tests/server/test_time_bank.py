"""A time bank (Fischer clock) over injected time: fast answers grow a seat's bank by the
increment up to the cap, a slow one shrinks it, a quiet weekend and an absence stop the
clock, an empty bank times the seat out (the usual timeout move) and leaves it the
increment. The banks shown by the API, the board page and the decision mails; the clock
refused when unsound; a preset game unchanged; the migration up and down."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

import engine
from pbem import create_app
from pbem.clock import set_now
from pbem.extensions import db
from pbem.play.due import plan_for
from pbem.schedule.sweep import sweep
from pbem.store.models import Game, Seat
from pbem.timing import policy
from tests.server.conftest import one_player_and_game, unmigrated_database
from tests.server.mail_helpers import body_text
from tests.server.test_mail_out import addresses_of, deliver

T0 = datetime(2026, 12, 10, 9, 0, tzinfo=UTC)  # a Thursday
H = 3600
CLOCK = {"bank_hours": 48, "increment_hours": 24, "cap_hours": 72}


def bank_game(api, app, timing=None, colours=("red", "blue", "green")):
    set_now(app, T0)
    keys = {c: api.register(f"{c}@example.org", c.title()) for c in colours}
    body = {
        "title": "Banked",
        "seats": [{"email": f"{c}@example.org", "colour": c} for c in colours],
        "timing": {"clock": CLOCK, "quiet_days": ["sat", "sun"], **(timing or {})},
        "options": {"first_player": colours[0]},  # who decides when, known in advance
    }
    response = api.client.post("/api/games", json=body, headers=api.auth(keys[colours[0]]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"], keys


def banks(app, game_id) -> dict[str, float]:
    """Each seat's bank, in hours."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(Seat.colour, Seat.bank_seconds).where(Seat.game_id == game_id)
        ).all()
        db.session.remove()
    return {colour: seconds / H for colour, seconds in rows}


def pending(api, game_id) -> tuple[str, str]:
    first = api.get(f"/api/games/{game_id}").get_json()["pending"][0]
    return first["player"], first["kind"]


def answer(api, app, game_id, keys, hours: float) -> str:
    """The seat whose decision is open answers it at `hours` after T0 (the moves a timeout
    would make, played by its holder); which seat it was."""
    set_now(app, T0 + timedelta(hours=hours))
    with app.app_context():
        game = db.session.get(Game, game_id)
        state, seq = engine.from_dict(game.state), game.seq
        db.session.remove()
    (entry, *_) = engine.pending(state)
    colour = entry["player"]
    moves = plan_for(state, colour, policy.decision_key(entry), None)
    response = api.post_moves(game_id, keys[colour], moves, seq)
    assert response.status_code == 201, response.get_json()
    return colour


def at(app, hours: float) -> list[str]:
    """Sweep as if `hours` after T0; what it did, timeouts only (not reminders)."""
    set_now(app, T0 + timedelta(hours=hours))
    with app.app_context():
        lines = sweep()
        db.session.remove()
    return [line for line in lines if "reminded" not in line]


def due_of(api, game_id) -> str:
    return api.get(f"/api/games/{game_id}").get_json()["deadlines"][0]["due"]


def iso(day: int, hour: int) -> str:
    return datetime(2026, 12, day, hour, 0, tzinfo=UTC).isoformat()


def test_a_time_bank_over_a_week_and_a_half(mail_app, mail_api):
    """48 h to start, 24 h more per answer, 72 h at most; Saturdays and Sundays quiet."""
    game_id, keys = bank_game(mail_api, mail_app)
    assert banks(mail_app, game_id) == {"red": 48, "blue": 48, "green": 48}
    # Thu 09:00 + 48 h of clock: 15 h on Thursday, 24 on Friday, the weekend stands still,
    # 9 on Monday.
    assert due_of(mail_api, game_id) == iso(14, 9)
    # Fast answers, an hour each: 48 - 1 + 24.
    assert answer(mail_api, mail_app, game_id, keys, 1) == "red"
    assert banks(mail_app, game_id) == {"red": 71, "blue": 48, "green": 48}
    assert due_of(mail_api, game_id) == iso(14, 10)
    assert answer(mail_api, mail_app, game_id, keys, 2) == "blue"
    assert answer(mail_api, mail_app, game_id, keys, 3) == "green"
    assert banks(mail_app, game_id) == {"red": 71, "blue": 71, "green": 71}
    # Green's turn, an hour: 71 - 1 + 24 = 94, capped at 72.
    assert answer(mail_api, mail_app, game_id, keys, 4) == "green"
    assert banks(mail_app, game_id) == {"red": 71, "blue": 71, "green": 72}
    # A slow answer: blue's turn opened Thu 13:00, answered Fri 19:00: 71 - 30 + 24.
    assert answer(mail_api, mail_app, game_id, keys, 34) == "blue"
    assert banks(mail_app, game_id) == {"red": 71, "blue": 65, "green": 72}
    # Red's turn opens Fri 19:00 with 71 h: 5 on Friday, 24 on Monday and Tuesday, 18 on
    # Wednesday.
    assert due_of(mail_api, game_id) == iso(16, 18)
    # Answered Tue 09:00: 110 h later, but the weekend stood still, so 5 + 24 + 9 = 38 h
    # are drawn: 71 - 38 + 24.
    assert answer(mail_api, mail_app, game_id, keys, 120) == "red"
    assert banks(mail_app, game_id) == {"red": 57, "blue": 65, "green": 72}
    # Round 2's first power card is red's: 57 h from Tue 09:00 run out Thu 18:00.
    assert pending(mail_api, game_id) == ("red", "power_card")
    assert due_of(mail_api, game_id) == iso(17, 18)
    assert not any("timed out" in line for line in at(mail_app, 176.9))
    # The bank is empty: the usual timeout plays red's lowest card left (power 1 went in round 1);
    # red keeps the increment.
    assert at(mail_app, 177) == [f"game {game_id}: red timed out on power_card; played power 2"]
    assert banks(mail_app, game_id) == {"red": 24, "blue": 65, "green": 72}
    # Blue's power card opens Thu 18:00 with 65 h, due Tue 11:00; blue is away Thu 19:00 to
    # Fri 15:00 (20 h), which pushes it to Wed 07:00.
    assert pending(mail_api, game_id) == ("blue", "power_card")
    assert due_of(mail_api, game_id) == iso(22, 11)
    response = mail_api.client.post(
        "/api/players/me/absences",
        json={"from": iso(17, 19), "until": iso(18, 15)},
        headers=mail_api.auth(keys["blue"]),
    )
    assert response.status_code == 201, response.get_json()
    assert due_of(mail_api, game_id) == iso(23, 7)
    # Answered Mon 12:00, 90 h on: less the absence (20) and the weekend (48), 22 h are
    # drawn: 65 - 22 + 24.
    assert answer(mail_api, mail_app, game_id, keys, 267) == "blue"
    assert banks(mail_app, game_id) == {"red": 24, "blue": 67, "green": 72}


def test_the_banks_shown_in_the_view_on_the_page_and_in_the_decision_mail(mail_app, mail_api, smtp):
    game_id, keys = bank_game(mail_api, mail_app)
    answer(mail_api, mail_app, game_id, keys, 1)  # red: 48 - 1 + 24 = 71 h
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    # Blue's clock runs from red's answer; the others' stand.
    assert view["clock"] == {
        "red": {"bank_seconds": 71 * H},
        "blue": {"bank_seconds": 48 * H, "running_since": (T0 + timedelta(hours=1)).isoformat()},
        "green": {"bank_seconds": 48 * H},
    }
    page = mail_api.client.get(f"/games/{game_id}").get_data(as_text=True)
    shown = dict(re.findall(r'data-colour="(\w+)" data-bank="(\d+)"', page))
    assert shown == {"red": str(71 * H), "blue": str(48 * H), "green": str(48 * H)}
    assert "(bank: 2 d 23 h)" in page and "(bank: 2 d 0 h, running)" in page
    deliver(mail_app)
    address = dict(addresses_of(mail_app, game_id))["blue"]
    (told,) = [m for m in smtp.inbox.to(address) if "Your time bank" in body_text(m)]
    assert "Your time bank: 2 d 0 h; this decision's deadline is when it runs out." in " ".join(
        body_text(told).split()
    )
    assert "Decide by Mon, Dec 14, 2026, 10:00 UTC" in body_text(told)


def test_a_preset_game_has_no_clock(mail_app, mail_api):
    set_now(mail_app, T0)
    keys = {c: mail_api.register(f"{c}@example.org") for c in ("red", "blue", "green")}
    body = {
        "title": "Preset",
        "seats": [{"email": f"{c}@example.org", "colour": c} for c in keys],
        "timing": {"turn_hours": 24},
    }
    response = mail_api.client.post("/api/games", json=body, headers=mail_api.auth(keys["red"]))
    game_id = response.get_json()["id"]
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    assert "clock" not in view
    assert view["deadlines"][0]["due"] == (T0 + timedelta(hours=48)).isoformat()
    assert "data-bank" not in mail_api.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert banks_or_none(mail_app, game_id) == {"red": None, "blue": None, "green": None}


def banks_or_none(app, game_id):
    with app.app_context():
        rows = db.session.execute(
            sa.select(Seat.colour, Seat.bank_seconds).where(Seat.game_id == game_id)
        ).all()
        db.session.remove()
    return dict(rows)


@pytest.mark.parametrize(
    ("clock", "says"),
    [
        (
            {"bank_hours": 120, "increment_hours": 300, "cap_hours": 240},
            "increment_hours (300) is more than cap_hours (240)",
        ),
        (
            {"bank_hours": 300, "increment_hours": 24, "cap_hours": 240},
            "bank_hours (300) is more than cap_hours (240)",
        ),
        (
            {"bank_hours": 0, "increment_hours": 24, "cap_hours": 240},
            "timing.clock.bank_hours: Give whole hours from 1 to 1440 (60 days).",
        ),
        (
            {"bank_hours": 120, "increment_hours": 24, "cap_hours": 5000},
            "timing.clock.cap_hours: Give whole hours from 1 to 1440 (60 days).",
        ),
        (
            {"bank_hours": 12.5, "increment_hours": 24, "cap_hours": 240},
            "timing.clock.bank_hours: Not a valid integer.",
        ),
        (
            {"bank_hours": 120, "cap_hours": 240},
            "timing.clock.increment_hours: Missing data for required field.",
        ),
    ],
)
def test_an_unsound_clock_is_refused_with_what_to_mend(api, clock, says):
    key = api.register("red@example.org")
    api.register("blue@example.org")
    api.register("green@example.org")
    body = {
        "title": "Unsound",
        "seats": [{"email": f"{c}@example.org", "colour": c} for c in ("red", "blue", "green")],
        "timing": {"clock": clock},
    }
    response = api.client.post("/api/games", json=body, headers=api.auth(key))
    assert response.status_code == 422
    assert says in response.get_json()["detail"]
    assert api.get("/api/games", key).get_json()["games"] == []


def test_the_spec_types_the_clock(client):
    spec = client.get("/api/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    view = schemas["GameView"]["allOf"][1]["properties"]["clock"]
    assert view["additionalProperties"] == {"$ref": "#/components/schemas/SeatClock"}
    assert schemas["SeatClock"]["required"] == ["bank_seconds"]
    timing = schemas["Timing"]["properties"]["clock"]
    assert timing == {**timing, "$ref": "#/components/schemas/Clock"} or "allOf" in timing
    assert schemas["Clock"]["required"] == ["bank_hours", "cap_hours", "increment_hours"]


@pytest.fixture
def empty_database(tmp_path) -> Iterator[str]:
    with unmigrated_database(tmp_path, "pbem_bank_") as url:
        yield url


def test_the_migration_adds_the_banks_and_takes_them_away(empty_database):
    app = create_app({"SQLALCHEMY_DATABASE_URI": empty_database, "SECRET_KEY": "migration-test"})
    with app.app_context():
        upgrade(revision="b3e9d7a1c5f2")
        with db.engine.begin() as connection:
            one_player_and_game(connection, T0)
            connection.execute(
                sa.text(
                    "INSERT INTO seats (game_id, player_id, colour, position, timeouts, bot) "
                    "VALUES (1, 1, 'red', 0, 0, false)"
                )
            )
        upgrade()
        with db.engine.connect() as connection:
            row = connection.execute(sa.text("SELECT bank_seconds, bank_at FROM seats")).one()
            assert tuple(row) == (None, None)  # a game of fixed deadlines, as before
        downgrade(revision="b3e9d7a1c5f2")
        with db.engine.connect() as connection:
            columns = {c["name"] for c in sa.inspect(connection).get_columns("seats")}
            assert "bank_seconds" not in columns and "bank_at" not in columns
            assert connection.execute(sa.text("SELECT colour FROM seats")).scalar_one() == "red"
        db.engine.dispose()
