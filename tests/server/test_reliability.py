"""Reliability: the share of a person's last 100 decisions answered before their deadline.
A scripted history (answers in time, one late, a vacation, timeouts, a bot taking over)
against the hand count; house bots keep no decisions; the window is the last 100."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from pbem import play
from pbem.clock import now, set_now
from pbem.extensions import db
from pbem.game.ratings import RELIABILITY_WINDOW, reliability
from pbem.game.seating import Actor
from pbem.play import absences
from pbem.play.due import plan_for
from pbem.schedule.sweep import sweep
from pbem.store.models import Decision, Game, Player
from pbem.timing import policy

#: A Monday noon: no quiet day in the way.
START = datetime(2027, 1, 4, 12, tzinfo=UTC)
HOURS = {"power_card_hours": 2, "turn_hours": 2, "pick_hours": 2, "veto_hours": 2}


def new_game(api) -> tuple[int, int, int]:
    """Ann (red) and Ben (blue), people, against a house bot (green): the game and both ids."""
    ann = api.register("ann@example.org", "Ann")
    api.register("ben@example.org", "Ben")
    body = {
        "title": "Reliable",
        "seats": [
            {"email": "ann@example.org", "colour": "red"},
            {"email": "ben@example.org", "colour": "blue"},
            {"colour": "green", "bot": True},
        ],
        "options": {"rounds": 6, "first_player": "red"},
        "timing": {**HOURS, "reminders": [1], "bot_after_timeouts": 2},
    }
    response = api.client.post("/api/games", json=body, headers=api.auth(ann))
    assert response.status_code == 201, response.get_json()
    with api.client.application.app_context():
        ids = dict(db.session.execute(sa.select(Player.email, Player.id)).all())
    return response.get_json()["id"], ids["ann@example.org"], ids["ben@example.org"]


def pending(app, game_id: int) -> dict[str, str]:
    """Each pending colour's (first) decision."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        found: dict[str, str] = {}
        for entry in game.pending:
            found.setdefault(entry["player"], policy.decision_key(entry))
        db.session.remove()
        return found


def answer(app, game_id: int, colour: str, player_id: int) -> None:
    """The seat's holder answers its open decision (the default moves), through the API's
    play function."""
    decision = pending(app, game_id)[colour]

    def plan(state, acting):
        return plan_for(state, acting, decision, None)

    with app.app_context():
        play.submit(Actor.by_player(player_id, colour), game_id, None, plan, source="api")
        db.session.remove()


def swept(app) -> list[str]:
    with app.app_context():
        lines = sweep()
        db.session.remove()
    return lines


def later(app, hours: float) -> None:
    set_now(app, now_of(app) + timedelta(hours=hours))


def now_of(app):
    with app.app_context():
        return now()


def until_ann_must_answer(app, game_id: int, ben: int, lines: list[str]) -> str:
    """Let the house bot play and Ben answer at once until only Ann must decide; the sweeps'
    lines are kept in `lines`."""
    for _ in range(200):
        lines += swept(app)
        waiting = pending(app, game_id)
        if "blue" in waiting:
            answer(app, game_id, "blue", ben)
        elif "red" in waiting:
            return waiting["red"]
    raise AssertionError("Ann was never asked")


def test_reliability_over_a_scripted_history_equals_the_hand_count(app, api):
    set_now(app, START)
    game_id, ann, ben = new_game(api)
    hand: Counter[str] = Counter()
    lines: list[str] = []

    # Three decisions answered within their two hours.
    for _ in range(3):
        until_ann_must_answer(app, game_id, ben, lines)
        later(app, 0.5)
        answer(app, game_id, "red", ann)
        hand["in_time"] += 1

    # One answered three hours on, before any sweep played it for her: late.
    until_ann_must_answer(app, game_id, ben, lines)
    later(app, 3)
    answer(app, game_id, "red", ann)
    hand["late"] += 1

    # A vacation declared before the deadline moves it: answered after the two hours but
    # before the moved deadline, it is in time, and no sweep meanwhile times her out.
    until_ann_must_answer(app, game_id, ben, lines)
    with app.app_context():
        moment = now()
        absences.declare(
            db.session.get(Player, ann), moment + timedelta(hours=1), moment + timedelta(hours=30)
        )
        db.session.commit()
    later(app, 10)
    assert not [line for line in swept(app) if "red" in line]
    later(app, 10)
    answer(app, game_id, "red", ann)
    hand["in_time"] += 1

    # Two timeouts: the second hands her seat to the bot (bot_after_timeouts: 2).
    for _ in range(2):
        until_ann_must_answer(app, game_id, ben, lines)
        later(app, 100)
        passed = swept(app)
        timed_out = [line for line in passed if "red timed out" in line]
        assert len(timed_out) == 1, timed_out
        hand["timeout"] += 1

    # The bot answers her decisions from now on: each counts against her. It may answer
    # the first in the very pass that handed it her seat (those lines are counted too).
    lines[:] = passed
    for _ in range(6):
        lines += swept(app)
        if "blue" in pending(app, game_id):
            answer(app, game_id, "blue", ben)
    hand["bot"] += sum(line.endswith(" for red") for line in lines)
    assert hand["bot"] >= 2

    with app.app_context():
        kept = Counter(
            how
            for (how,) in db.session.execute(
                sa.select(Decision.how).where(Decision.player_id == ann)
            ).all()
        )
        bens = Counter(
            how
            for (how,) in db.session.execute(
                sa.select(Decision.how).where(Decision.player_id == ben)
            ).all()
        )
        players_with_decisions = set(
            db.session.execute(sa.select(Decision.player_id).distinct()).scalars()
        )
        shown, over = reliability(ann)
        bens_shown, _over = reliability(ben)
    assert kept == hand
    total = sum(hand.values())
    assert over == total and shown == hand["in_time"] / total
    assert set(bens) == {"in_time"} and bens_shown == 1.0
    shown_by_api = api.get(f"/api/players/{ann}").get_json()
    assert (shown_by_api["reliability"], shown_by_api["decisions"]) == (shown, total)
    assert players_with_decisions == {ann, ben}  # the house bot keeps none


def test_reliability_is_over_the_last_hundred_decisions_and_none_before_any(app, api):
    game_id, ann, _ben = new_game(api)
    with app.app_context():
        assert reliability(ann) == (None, 0)
        moment = now()
        old = [("timeout", n) for n in range(50)]
        recent = [("in_time", n) for n in range(RELIABILITY_WINDOW - 10)]
        recent += [("bot", n) for n in range(10)]
        db.session.add_all(
            Decision(
                player_id=ann,
                game_id=game_id,
                colour="red",
                decision="turn",
                due_at=moment,
                closed_at=moment,
                how=how,
            )
            for how, _n in old + recent
        )
        db.session.commit()
        assert reliability(ann) == ((RELIABILITY_WINDOW - 10) / RELIABILITY_WINDOW, 100)


def test_a_game_abandoned_by_silence_counts_against_whoever_it_waited_for(app, api):
    from pbem.play.due import abandon_idle_games

    set_now(app, START)
    game_id, ann, ben = new_game(api)
    until_ann_must_answer(app, game_id, ben, [])
    open_now = pending(app, game_id)
    assert set(open_now) == {"red"}
    # Nobody moves for the idle limit: the game is abandoned before any sweep times her out.
    later(app, 24 * 400)
    with app.app_context():
        assert any("abandoned" in line for line in abandon_idle_games())
        db.session.commit()
        kept = db.session.execute(
            sa.select(Decision.player_id, Decision.decision, Decision.how).where(
                Decision.game_id == game_id, Decision.how == "abandoned"
            )
        ).all()
        # Only the decision it waited for, Ann's: Ben owed none.
        assert kept == [(ann, open_now["red"], "abandoned")]
        shown, over = reliability(ann)
        in_time = db.session.execute(
            sa.select(sa.func.count()).where(Decision.player_id == ann, Decision.how == "in_time")
        ).scalar_one()
        assert shown == in_time / over and over == in_time + 1
