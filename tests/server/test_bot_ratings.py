"""The house bots' ratings: each level is rated from its rated games against people, by the
model that rates people, from the same result, in the same transaction, while the people are
rated exactly as they are without bots' ratings; a seat a bot finished for a person and a
game rated for nobody rate no bot; the API and the standings' page show the levels apart
from the people. (A rebuild giving the same bots' ratings: `test_ratings`.)"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.play import ratings
from pbem.store.models import BotRating
from tests.server.test_ratings import (
    OPENSKILL,
    final_scores,
    finished_state,
    hand_to_bot,
    people,
    rate,
    ratings_now,
    results_of,
)
from tests.web.helpers import page

COLOURS = ["red", "blue", "green", "yellow"]


def game_with_bots(api, emails: list[str], colours: list[str], bots: dict[str, str], options=None):
    """A game of registered people and house bots at `bots` (colour: level)."""
    holders = iter(emails)
    seats = [
        {"colour": c, "bot": True, "level": bots[c]}
        if c in bots
        else {"email": next(holders), "colour": c}
        for c in colours
    ]
    body = {"title": "Bots rated", "seats": seats, "options": options or {"rounds": 6}}
    response = api.client.post("/api/games", json=body, headers=api.auth(api.keys[emails[0]]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def bot_ratings_now(app) -> dict[str, tuple[float, float, int]]:
    with app.app_context():
        rows = db.session.execute(sa.select(BotRating)).scalars()
        return {r.level: (r.mu, r.sigma, r.games) for r in rows}


def test_a_rated_game_moves_the_bots_levels_as_openskill_on_its_ranking(app, api):
    emails = people(api, 2)
    colours = COLOURS[:4]
    bots = {"green": "strong", "yellow": "random"}
    game_id = game_with_bots(api, emails, colours, bots)
    # The strong bot wins, the random one is last, the people between them.
    rate(app, game_id, finished_state(colours, {"red": 50, "blue": 40, "green": 60, "yellow": 10}))
    kept = bot_ratings_now(app)
    assert sorted(kept) == ["random", "strong"]
    expected = OPENSKILL.rate([[OPENSKILL.rating()] for _ in colours], ranks=[2, 3, 1, 4])
    for colour, level in bots.items():
        [rating] = expected[colours.index(colour)]
        assert kept[level] == pytest.approx((rating.mu, rating.sigma, 1))
    assert kept["strong"][0] > 25.0 > kept["random"][0]
    assert all(sigma < 25 / 3 for _mu, sigma, _games in kept.values())
    # A second game starts the level from where the first left it.
    again = game_with_bots(api, people(api, 3), colours, {"green": "strong"})
    rate(app, again, finished_state(colours, {"red": 50, "blue": 40, "green": 60, "yellow": 45}))
    mu, sigma, games = bot_ratings_now(app)["strong"]
    assert games == 2 and mu > kept["strong"][0] and sigma < kept["strong"][1]


def test_people_are_rated_the_same_with_and_without_the_bots_ratings(app, api, monkeypatch):
    colours = COLOURS[:4]
    scores = {"red": 50, "blue": 40, "green": 60, "yellow": 45}
    shown = {}
    for feature in (True, False):
        if not feature:
            monkeypatch.setattr(ratings, "_rate_house_bots", lambda *args: None)
        emails = people(api, 3)
        game_id = game_with_bots(api, emails, colours, {"green": "strong"})
        rate(app, game_id, finished_state(colours, scores))
        _scores, holders = final_scores(app, game_id)
        found, kept = results_of(app, game_id), ratings_now(app)
        shown[feature] = {
            c: (found[holders[c]].mu_after, found[holders[c]].sigma_after, kept[holders[c]])
            for c in ("red", "blue", "yellow")
        }
    assert bot_ratings_now(app)["strong"][2] == 1  # the first game's alone
    assert shown[True] == shown[False]
    # And as ever: by their order among themselves, as if the bot had not been there.
    expected = OPENSKILL.rate([[OPENSKILL.rating()] for _ in range(3)], ranks=[1, 3, 2])
    for colour, [rating] in zip(("red", "blue", "yellow"), expected, strict=True):
        assert shown[True][colour][:2] == pytest.approx((rating.mu, rating.sigma))


def test_a_level_holding_two_seats_moves_once_by_their_mean():
    bots = [ratings.BotResult("greedy", 1, 1), ratings.BotResult("greedy", 2, 3)]
    person = ratings.Result(player_id=7, side=0, rank=2, score=40, bot_finished=False)
    moved = ratings.bots_moved_on(bots, [person], {7: (25.0, 25 / 3)}, {"greedy": (20.0, 6.0)})
    [_person], [first], [second] = OPENSKILL.rate(
        [[OPENSKILL.rating()], [OPENSKILL.rating(20.0, 6.0)], [OPENSKILL.rating(20.0, 6.0)]],
        ranks=[2, 1, 3],
    )
    assert moved == {
        "greedy": pytest.approx(((first.mu + second.mu) / 2, (first.sigma + second.sigma) / 2))
    }


def test_games_not_rated_and_a_seat_a_bot_finished_rate_no_bot(app, api):
    colours = COLOURS[:3]
    scores = {"red": 50, "blue": 40, "green": 60}
    # Hints allowed: rated for nobody.
    hinted = game_with_bots(
        api, people(api, 2), colours, {"green": "strong"}, options={"rounds": 6, "hints": True}
    )
    rate(app, hinted, finished_state(colours, scores))
    # One person alone against bots: nobody to be rated by.
    alone = game_with_bots(api, people(api, 1), colours, {"blue": "strong", "green": "greedy"})
    rate(app, alone, finished_state(colours, scores))
    assert not any(r.rated for g in (hinted, alone) for r in results_of(app, g).values())
    assert bot_ratings_now(app) == {}
    # A person's seat a bot finished: rated as the person's, and no bot's.
    emails = people(api, 3)
    finished = game_with_bots(api, emails, colours, {})
    hand_to_bot(api, finished, "green", emails[2])
    rate(app, finished, finished_state(colours, scores))
    found = results_of(app, finished)
    assert all(r.rated for r in found.values()) and sum(r.bot_finished for r in found.values()) == 1
    assert bot_ratings_now(app) == {}


def test_the_api_and_the_page_show_the_bots_apart_from_the_people(app, api, client):
    emails = people(api, 2)
    colours = COLOURS[:3]
    # Five games (the circle's most): enough for the people, and the bot, to stand.
    for _ in range(5):
        game_id = game_with_bots(api, emails, colours, {"green": "strong"})
        rate(app, game_id, finished_state(colours, {"red": 50, "blue": 40, "green": 60}))
    strong = bot_ratings_now(app)["strong"]
    assert strong[2] == 5
    standings = client.get("/api/ratings").get_json()
    assert "house_bots" not in standings
    assert [row["name"] for row in standings["players"]] == [e.split("@")[0] for e in emails]
    answer = client.get("/api/ratings/house-bots")
    assert answer.status_code == 200
    listed = answer.get_json()["house_bots"]
    assert [row["level"] for row in listed] == ["random", "greedy", "strong"]
    assert listed[2]["rating"] == {
        "mu": pytest.approx(strong[0]),
        "sigma": pytest.approx(strong[1]),
        "ordinal": pytest.approx(strong[0] - 3 * strong[1]),
        "games": 5,
        "provisional": False,
    }
    assert listed[0]["rating"]["games"] == 0 and listed[0]["rating"]["mu"] == 25.0

    doc = page(client, "/ratings")
    people_rows = doc.find("table", cls="standings").find_all("tr", data_player=True)
    assert len(people_rows) == 2
    assert doc.find("h2", id="house-bots").text == "House bots"
    rows = {
        row.get("data-level"): [cell.text for cell in row.find_all("td")]
        for row in doc.find("table", cls="house-bots").find_all("tr", data_level=True)
    }
    assert rows["strong"] == [
        "strong: searches what the others may hold and plays the best move",
        f"{strong[0] - 3 * strong[1]:.1f}",
        "5",
    ]
    assert rows["random"] == ["random moves (for a first game)", "not rated", "0"]
    german = client.get("/ratings", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'data-level="strong"' in german


def test_the_new_game_form_shows_a_rated_levels_rating(app, api, client):
    from tests.web.test_new_game import sign_in_with_key

    emails = people(api, 2)
    colours = COLOURS[:3]
    game_id = game_with_bots(api, emails, colours, {"green": "strong"})
    rate(app, game_id, finished_state(colours, {"red": 50, "blue": 40, "green": 60}))
    mu, sigma, _games = bot_ratings_now(app)["strong"]
    sign_in_with_key(client, api.keys[emails[0]])
    offered = {
        option.get("value"): option.text
        for option in page(client, "/games/new").find("select", name="bot_level").find_all("option")
    }
    assert offered["strong"].endswith(f"(rated {mu - 3 * sigma:.1f})")
    assert offered["greedy"] == "greedy: looks one move ahead"
