"""The scheduler's sweep, a unit of work each: remind, time out, close Veto windows, let bots
play, abandon idle games and open tournaments' rounds, by finding what is due and acting on
each through `pbem.play.due` (which claims each deadline row and commits its own
transaction). The scheduler (`pbem.schedule`) calls `sweep`; it ends no transaction itself.
"""

from __future__ import annotations

import time
from typing import Any

from flask import current_app

from pbem.clock import now
from pbem.errors import ServiceError
from pbem.play import due, tournaments, unit
from pbem.store import outage


def sweep(limit: int = 500) -> list[str]:
    """Act on everything due now; one line per action.

    A bot's answer can hand the next decision to another bot, whose deadline is due at once:
    such decisions are taken in further passes of the same sweep (up to `limit` actions in
    all), so bots answer one another within one sweep rather than one sweep apart.
    """
    lines = due.abandon_idle_games()
    lines += tournaments.due_now()  # dates come, rounds past their deadline
    unit.commit()
    # Bots think within this pass's budget; a bot seat past it waits for the next pass.
    bot_time = due.BotTime(time.monotonic() + float(current_app.config["PBEM_SWEEP_BOT_SECONDS"]))
    # A row is known by its id, next_at, colour and decision (`due.due_deadlines`), and a
    # row left due (a pass that lost a race) is not taken twice in one sweep.
    handled: set[tuple[int, Any, str, str]] = set()
    while len(handled) < limit:
        moment = now()  # a bot's answer opened the next decision after the pass began
        found = [row for row in due.due_deadlines(moment, limit) if row not in handled]
        unit.commit()  # the read's transaction: each row is claimed in one of its own
        if not found:
            break
        for row in found[: limit - len(handled)]:
            handled.add(row)
            try:
                line = _act_on(row[0], moment, bot_time)
            except ServiceError:
                unit.rollback()  # the game moved on under us: its next sweep sees it
                continue
            if line:
                lines.append(line)
    due.swept()
    unit.commit()
    return lines


def _act_on(deadline_id: int, moment: Any, bot_time: due.BotTime) -> str | None:
    """`due.act_on`, tried again in place when PostgreSQL aborted its transaction for
    another's sake (a deadlock's victim: nothing of it was written)."""
    for attempt in range(outage.DEADLOCK_TRIES):
        try:
            return due.act_on(deadline_id, moment, bot_time)
        except Exception as error:
            if not outage.is_deadlock(error) or attempt == outage.DEADLOCK_TRIES - 1:
                raise
            unit.rollback()
    return None
