"""Learning to play, in Chromium against a real server: a newcomer signs in, finds "Learn to
play" on the home page, starts the game it makes against two house bots, and plays its first
power card from the page beside that decision's lesson. From there the learner's seat plays
on (a greedy bot's choices, through the play function as the learner), the house bots by the
sweep, and the page is read at each of the learner's decisions: every kind of decision's
lesson appears once, the first scoring's after it, the game ends, and its page shows
where the learner lost points."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine.bots import GreedyBot
from pbem import play
from pbem.extensions import db
from pbem.game.seating import Actor
from pbem.game.states import current_state
from pbem.play import advice
from pbem.schedule.sweep import sweep
from pbem.store.models import Game
from pbem.words.lessons import FIRST_TURN
from tests.web.test_friends_browser import sign_in_by_mail
from tests.web.test_pages_browser import by_css, click_and_wait, live  # noqa: F401

pytestmark = pytest.mark.browser

LEARNER = "red"


def _bots_play(app, game_id: int) -> tuple[bool, list[str]]:
    """Let the house bots answer (the sweep), until the game waits on the learner or ends."""
    with app.app_context():
        for _ in range(200):
            game = db.session.get(Game, game_id)
            waits_on = [p["player"] for p in game.pending]
            if game.status != "active" or LEARNER in waits_on:
                db.session.remove()
                return game.status == "active", waits_on
            sweep()
            db.session.remove()
    raise AssertionError("the bots never handed the game back")


def _learner_decides(app, game_id: int, bot: GreedyBot) -> None:
    """The learner's decision, whole (a turn's every step), as a greedy bot would make it,
    played as the learner in one batch."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        holder = next(s.player_id for s in game.seats if s.colour == LEARNER)
        seq, state = game.seq, current_state(game_id, game.seed, game.seq)
        kind = _kind(state)
        moves = []
        while not engine.is_over(state) and _kind(state) == kind:
            move = bot.choose(state, LEARNER)
            moves.append(move)
            state, _events = engine.apply(state, LEARNER, move)
        play.submit(Actor.by_player(holder, LEARNER), game_id, seq, moves, source="web")
        db.session.remove()


def _kind(state: engine.State) -> str | None:
    return next((p["kind"] for p in engine.pending(state) if p["player"] == LEARNER), None)


def test_a_newcomer_learns_by_playing_a_whole_game(browser, live, app):  # noqa: F811
    app.config.update(PBEM_HINT_PLAYOUTS=2, PBEM_REVIEW_PLAYOUTS=2)
    sign_in_by_mail(browser, live, app, "newcomer@example.org", "Nell")
    browser.get(f"{live}/")
    click_and_wait(browser, by_css(browser, "a.learn-link")[0])
    assert "six rounds against two house bots" in by_css(browser, "main")[0].text
    click_and_wait(browser, by_css(browser, "main form button.primary")[0])
    game_id = int(browser.current_url.split("#")[0].rstrip("/").rsplit("/", 1)[1])

    shown: Counter[str] = Counter()
    bot = GreedyBot(5)
    first = True
    while True:
        active, _waits_on = _bots_play(app, game_id)
        if not active:
            break
        browser.get(f"{live}/games/{game_id}")
        lessons = [h.get_attribute("data-lesson") for h in by_css(browser, "section.lesson h3")]
        shown.update(lessons)
        if first:
            # The first decision is a power card; the lesson stands beside its moves.
            assert lessons == ["power_card"], lessons
            assert "the lowest goes last" in by_css(browser, "section.lesson")[0].text
            click_and_wait(browser, by_css(browser, "form.moves button.power-card")[0])
            click_and_wait(browser, by_css(browser, "section.plan button.confirm")[0])
            first = False
            continue
        _learner_decides(app, game_id, bot)

    assert shown["power_card"] == shown["king"] == shown["scoring"] == 1, shown
    assert all(shown[kind] == 1 for kind in FIRST_TURN), shown
    assert shown["castillo"] == 1 and max(shown.values()) == 1, shown

    browser.get(f"{live}/games/{game_id}")
    assert not by_css(browser, "section.lesson")
    assert "is reviewing this game" in by_css(browser, "section.review")[0].text
    with app.app_context():
        assert advice.review_one() == game_id
        db.session.remove()
    browser.get(f"{live}/games/{game_id}")
    review = by_css(browser, "section.review")[0]
    assert "Where points were lost" in review.text and "Nell" in review.text
    assert by_css(browser, "section.review ol.review-moves a")
