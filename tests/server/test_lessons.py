"""A game that teaches: which lessons are due is decided from the seat's own moves, each kind
once (a whole game of greedy bots, in the engine); the first scoring's walk-through adds
up to what the scoring gave; the decision mail carries the lessons in a game that teaches,
and no other; a learning game is never rated."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine.bots import GreedyBot
from pbem.words.lessons import FIRST_TURN, LESSONS, lessons, lessons_due

COLOURS = ["red", "blue", "green"]


def _played(seed: int) -> tuple[list[engine.LogEntry], list[tuple[int, str, list[str]]]]:
    """A 6-round game of greedy bots, its log, and for each of red's decisions (seq, kind)
    the lessons due then."""
    state = engine.new_game(COLOURS, seed=seed, options={"rounds": 6})
    bot = GreedyBot(seed)
    log: list[engine.LogEntry] = []
    decisions = []
    moved = True  # red moved since its last decision: one open while others answer (a
    # secret pick) is still one
    while not engine.is_over(state):
        pending = engine.pending(state)
        for asked in pending:
            if asked["player"] == "red" and moved:
                decisions.append((len(log), asked["kind"], lessons_due(log, "red", asked["kind"])))
                moved = False
        colour = pending[0]["player"]
        moved = moved or colour == "red"
        move = bot.choose(state, colour)
        state, events = engine.apply(state, colour, move)
        log.append({"seq": len(log) + 1, "player": colour, "move": move, "events": events})
    return log, decisions


@pytest.mark.parametrize("seed", [3, 11])
def test_each_lesson_comes_once_at_the_first_decision_of_its_kind(seed):
    log, decisions = _played(seed)
    shown = Counter(kind for _seq, _kind, due in decisions for kind in due)
    assert shown["power_card"] == 1 and shown["king"] == 1 and shown["scoring"] == 1
    assert all(shown[kind] == 1 for kind in FIRST_TURN)
    assert max(shown.values()) == 1
    kinds = [kind for _seq, kind, _due in decisions]
    first = {k: kinds.index(k) for k in set(kinds)}
    assert "power_card" in decisions[first["power_card"]][2]
    assert set(FIRST_TURN) <= set(decisions[first["turn"]][2])
    begun = [
        e["seq"] for e in log for v in e["events"] if v == {"type": "turn_started", "player": "red"}
    ]
    second_turn = next(due for seq, kind, due in decisions if kind == "turn" and seq == begun[1])
    assert "king" in second_turn
    for kind, lesson in (("castillo_pick", "castillo"), ("secret_pick", "secret_disk")):
        assert shown[lesson] == (1 if kind in first else 0)
        if kind in first:
            assert lesson in decisions[first[kind]][2]
    # The scoring's walk-through: at red's first decision once the scoring is over (the
    # next round has begun), and not before.
    begun = _scoring_events(log)[0]
    at = next(seq for seq, _kind, due in decisions if "scoring" in due)
    assert at >= begun
    assert not any(e["player"] == "red" and begun < e["seq"] <= at for e in log)


def _scoring_events(log):
    """The seq that ended the first general scoring, and its events, read from the log the
    long way."""
    flat = [(e["seq"], v) for e in log for v in e["events"]]
    start = next(i for i, (_s, v) in enumerate(flat) if v["type"] == "general_scoring")
    end = next(i for i in range(start, len(flat)) if flat[i][1]["type"] == "round_started")
    return flat[end][0], [v for _s, v in flat[start:end]]


def test_every_lesson_has_words_and_the_walk_adds_up(app):
    log, decisions = _played(3)
    at = next(seq for seq, _kind, due in decisions if "scoring" in due)
    with app.test_request_context():
        (walk,) = lessons(["scoring"], log[:at], "red", {c: c.title() for c in COLOURS})
        every = lessons(list(LESSONS), log[:at], "red", {})
    assert all(lesson["title"] and lesson["paragraphs"] for lesson in every)
    _end, events = _scoring_events(log)
    points = sum(v["points"] for v in events if v["type"] == "score" and v["player"] == "red")
    assert walk["scores"][-1].startswith(
        f"In all, it gave you {points} point{'' if points == 1 else 's'}; the others: "
    )
    # A line for each place the seat scored in, and none for the others.
    scored_in = {v["place"] for v in events if v["type"] == "score" and v["player"] == "red"}
    assert len(walk["scores"]) == len(scored_in) + 1
    assert all("you " in line for line in walk["scores"][:-1])


def _first_decision_mail(mail_app, mail_api, smtp, options):
    from tests.server.mail_helpers import body_html, body_text
    from tests.server.test_mail_out import addresses_of, deliver, kind_of

    game_id, _keys = mail_api.new_game(COLOURS, options=options)
    deliver(mail_app)
    colour = mail_api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    address = dict(addresses_of(mail_app, game_id))[colour]
    (decision,) = [m for m in smtp.inbox.to(address) if kind_of(m) == "decision"]
    return body_text(decision), body_html(decision)


def test_a_learning_games_decision_mail_teaches_and_another_does_not(mail_app, mail_api, smtp):
    text, html = _first_decision_mail(
        mail_app, mail_api, smtp, {"rounds": 6, "learn": True, "hints": True}
    )
    lesson = "Learning the game: Power cards: your place in the round"
    # Before what is asked, where the reader starts.
    assert lesson in text and text.index(lesson) < text.index("Play a power card for this round")
    assert "the lowest goes last" in text.replace("\n", " ")
    assert lesson in html and 'class="lesson"' in html
    text, html = _first_decision_mail(mail_app, mail_api, smtp, {"rounds": 6})
    assert "Learning the game" not in text and "Learning the game" not in html


def test_a_game_that_teaches_is_rated_for_nobody_even_without_hints(app, api):
    import sqlalchemy as sa

    from pbem.extensions import db
    from pbem.store.models import GameRating
    from tests.server.test_ratings import play_out

    game_id, _keys = api.new_game(COLOURS, options={"rounds": 6, "learn": True})
    play_out(app, game_id, seed=2)
    with app.app_context():
        rated = db.session.execute(sa.select(GameRating).where(GameRating.game_id == game_id))
        assert [r.rated for r in rated.scalars()] == [False, False, False]
        db.session.remove()


def test_the_api_gives_the_seats_lessons_in_a_game_that_teaches_only(app, api):
    game_id, keys = api.new_game(COLOURS, options={"rounds": 6, "learn": True})
    first = api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    other = next(c for c in COLOURS if c != first)
    due = api.get(f"/api/games/{game_id}/lessons", keys[first])
    assert due.status_code == 200
    (lesson,) = due.get_json()["lessons"]
    assert lesson["kind"] == "power_card" and lesson["title"].startswith("Power cards")
    assert lesson["paragraphs"] and lesson["scores"] == []
    # No decision waits on the other seat: nothing taught to it yet.
    assert api.get(f"/api/games/{game_id}/lessons", keys[other]).get_json() == {"lessons": []}
    assert api.get(f"/api/games/{game_id}/lessons").status_code == 401
    plain_id, plain_keys = api.new_game(COLOURS, options={"rounds": 6})
    seat = api.get(f"/api/games/{plain_id}").get_json()["pending"][0]["player"]
    plain = api.get(f"/api/games/{plain_id}/lessons", plain_keys[seat]).get_json()
    assert plain == {"lessons": []}
