"""The timing policy as a marshmallow schema: what the API's new game and an imported game's
document both check a policy against."""

import marshmallow as ma

from engine.bots import LEVELS
from pbem.timing.bank import MOST_HOURS, problems
from pbem.timing.policy import DEFAULT_TIMING, WEEKDAYS


def _hours(what: str) -> ma.fields.Integer:
    return ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=1, max=24 * 60),
        metadata={"description": f"Hours {what} may wait before the server plays for it"},
    )


def _clock_hours(what: str) -> ma.fields.Integer:
    return ma.fields.Integer(
        required=True,
        strict=True,
        validate=ma.validate.Range(
            min=1,
            max=MOST_HOURS,
            error="Give whole hours from {min} to {max} (60 days).",
        ),
        metadata={"description": what},
    )


class ClockSchema(ma.Schema):
    """A time bank (Fischer clock): each seat's decisions draw on its bank, which grows by
    the increment at each answer, up to the cap. Quiet days and absences stop the clock."""

    bank_hours = _clock_hours("Hours in each seat's bank at the start (e.g. 120)")
    increment_hours = _clock_hours("Hours added to the bank at each answer (e.g. 24)")
    cap_hours = _clock_hours("The most hours a bank may hold (e.g. 240)")

    @ma.validates_schema
    def _sound(self, data: dict[str, int], **kwargs: object) -> None:
        found = problems(data)
        if found:
            raise ma.ValidationError(found, "cap_hours")


class TimingSchema(ma.Schema):
    """The game's timing policy; what is left out takes the documented default."""

    power_card_hours = _hours("a power card (default 48)")
    turn_hours = _hours("a turn (default 72)")
    pick_hours = _hours("a secret pick or a King-rages return (default 48)")
    veto_hours = _hours("a Veto window (default 24; silence is allow)")
    reminders = ma.fields.List(
        ma.fields.Integer(strict=True, validate=ma.validate.Range(min=1, max=24 * 60)),
        validate=ma.validate.Length(max=5),
        metadata={"description": "Reminders, as hours before the deadline (default [24, 4])"},
    )
    quiet_days = ma.fields.List(
        ma.fields.String(validate=ma.validate.OneOf(WEEKDAYS)),
        validate=ma.validate.Length(max=6),
        metadata={"description": "Weekdays no deadline falls on: it moves on a day"},
    )
    on_timeout = ma.fields.String(
        validate=ma.validate.OneOf(("default_move", "bot")),
        metadata={"description": "What a timeout plays: the engine's default move, or a bot's"},
    )
    bot_after_timeouts = ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=1, max=100),
        metadata={"description": "Timeouts in a row after which a bot takes the seat (3)"},
    )
    takeover_bot = ma.fields.String(
        validate=ma.validate.OneOf(list(LEVELS)),
        metadata={
            "description": "The level of the bot that takes a seat over (after its timeouts, "
            "or handed to it) and that a timeout's `bot` move comes from: "
            + ", ".join(LEVELS)
            + f" ({DEFAULT_TIMING['takeover_bot']})"
        },
    )
    abandon_after_days = ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=1, max=365),
        metadata={"description": "Days with no person's move before the game is abandoned"},
    )
    clock = ma.fields.Nested(
        ClockSchema,
        metadata={
            "description": "A time bank instead of fixed hours per decision: each decision is "
            "due when its seat's bank runs out (the *_hours settings are then unused)"
        },
    )
    vacation_days = ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=0, max=90),
        metadata={"description": "Days of absence per player that push deadlines (14)"},
    )
