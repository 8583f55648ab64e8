"""What a player's page reads beyond the rating: the action cards they chose (a summary kept
when each game finishes, equal to a count over the game replayed), the rating's history, the
records beside several names read at once, and an organiser's minimums for an open seat."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

import engine
from pbem import create_app
from pbem.cli import main
from pbem.clock import now
from pbem.extensions import db
from pbem.game import ratings as records
from pbem.play import ratings
from pbem.store.models import CardPlay, Decision, Game, GameRating, Move, Player, PlayerRating
from tests.server.conftest import assert_problem, one_player_and_game, unmigrated_database
from tests.server.test_ratings import new_game_of, people, play_out, player_ids, ratings_now


def add_decisions(app, player_id: int, game_id: int, hows: list[str]) -> None:
    """Closed decisions of a player, as the deadlines keep them, each ending as `hows` says."""
    with app.app_context():
        for how in hows:
            db.session.add(
                Decision(
                    player_id=player_id,
                    game_id=game_id,
                    colour="red",
                    decision="turn",
                    due_at=now(),
                    closed_at=now(),
                    how=how,
                )
            )
        db.session.commit()


def test_card_plays_count_a_persons_own_choices_and_their_rounds_points():
    red, blue = 1, 2
    moves = [
        (None, [{"type": "round_started", "round": 1, "action_cards": []}]),
        (red, [{"type": "card_chosen", "player": "red", "card": "king", "stack": 5}]),
        (red, [{"type": "score", "player": "red", "points": 4}]),
        # Blue's card this round was a bot's choice for its seat: not blue's own.
        (None, [{"type": "card_chosen", "player": "blue", "card": "special_scoring", "stack": 1}]),
        (None, [{"type": "score", "player": "blue", "points": 6}]),
        (None, [{"type": "round_started", "round": 2, "action_cards": []}]),
        (blue, [{"type": "card_chosen", "player": "blue", "card": "king", "stack": 5}]),
        (red, [{"type": "card_chosen", "player": "red", "card": "king", "stack": 5}]),
        (
            None,
            [
                {"type": "score", "player": "red", "points": 3},
                {"type": "score", "player": "red", "points": 2},
                {"type": "score", "player": "blue", "points": 1},
            ],
        ),
    ]
    found = ratings.card_plays(moves, {"red": red, "blue": blue})
    assert found == {(red, "king"): (2, 4 + 5), (blue, "king"): (1, 1)}


def replayed_card_plays(app, game_id: int) -> dict[tuple[int, str], tuple[int, int]]:
    """The same count made apart: the game replayed move by move, each round's points read
    from the scores before and after it."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        holders = {s.colour: s.player_id for s in game.seats if not s.bot}
        rows = db.session.execute(
            sa.select(Move).where(Move.game_id == game_id).order_by(Move.seq)
        ).scalars()
        state = engine.new_game(list(game.colours), seed=game.seed, options=game.options)
        totals: dict[tuple[int, str], tuple[int, int]] = {}
        chosen: dict[str, str] = {}
        start = dict(state.scores)
        for row in rows:
            round_before = state.round_index
            state, _events = engine.apply(state, row.colour, row.move)
            if row.move["type"] == "choose_card" and row.player_id == holders.get(row.colour):
                chosen[row.colour] = row.move["card"]
            if state.round_index != round_before or engine.is_over(state):
                for colour, card in chosen.items():
                    plays, points = totals.get((holders[colour], card), (0, 0))
                    gained = state.scores[colour] - start[colour]
                    totals[(holders[colour], card)] = (plays + 1, points + gained)
                chosen, start = {}, dict(state.scores)
        return totals


def kept_card_plays(app) -> dict[tuple[int, str], tuple[int, int]]:
    with app.app_context():
        rows = db.session.execute(sa.select(CardPlay)).scalars()
        return {(r.player_id, r.card): (r.plays, r.points) for r in rows}


def test_a_finished_game_keeps_each_persons_card_plays_as_a_replay_counts_them(
    app, api, database_url, monkeypatch, capsys
):
    emails = people(api, 3)
    first = new_game_of(api, emails, ["red", "blue", "green"])
    second = new_game_of(api, emails[:2] + ["bot"], ["red", "blue", "green"], bots=("green",))
    play_out(app, first, seed=4)
    play_out(app, second, seed=5)
    expected: dict[tuple[int, str], tuple[int, int]] = {}
    for game_id in (first, second):
        for key, (plays, points) in replayed_card_plays(app, game_id).items():
            before = expected.get(key, (0, 0))
            expected[key] = (before[0] + plays, before[1] + points)
    kept = kept_card_plays(app)
    assert kept == expected
    with app.app_context():
        ids = {
            e: db.session.execute(sa.select(Player.id).where(Player.email == e)).scalar_one()
            for e in emails
        }
        # Every round of a 6-round game is a card chosen; its points are the final score.
        third = records.card_stats(ids[emails[2]])
        assert sum(stat["plays"] for stat in third) == 6
        game = db.session.get(Game, first)
        final = engine.scores(engine.from_dict(game.state))
        green = sum(stat["plays"] * stat["average"] for stat in third)
        assert round(green) == final["green"]
    assert not any(player == "bot" for player, _card in kept)
    monkeypatch.setenv("DATABASE_URL", database_url)
    main(["ratings", "rebuild"])
    capsys.readouterr()
    assert kept_card_plays(app) == kept


def results_history(app, player_id: int, points: int) -> list[float]:
    """The rating history as the kept results give it: the shown rating before the first of
    the last `points` rated games and after each, the oldest first."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(GameRating)
            .where(GameRating.player_id == player_id, GameRating.rated)
            .order_by(GameRating.rated_at, GameRating.game_id)
        ).scalars()
        last = list(rows)[-points:]
    return [records.ordinal(last[0].mu_before, last[0].sigma_before)] + [
        records.ordinal(r.mu_after, r.sigma_after) for r in last
    ]


def test_the_rating_history_starts_before_the_first_game_and_ends_at_the_rating(
    app, api, monkeypatch
):
    emails = people(api, 3)
    play_out(app, new_game_of(api, emails, ["red", "blue", "green"]), seed=1)
    ann = player_ids(app, emails)[0]
    with app.app_context():
        first = records.player_page(ann)["history"]
    assert first == results_history(app, ann, 100)
    assert len(first) == 2 and first[0] == records.ordinal(records.MODEL.mu, records.MODEL.sigma)
    # Kept for the last HISTORY_POINTS games: the second game's history starts after the first.
    monkeypatch.setattr(ratings, "HISTORY_POINTS", 1)
    play_out(app, new_game_of(api, emails, ["red", "blue", "green"]), seed=2)
    with app.app_context():
        history = records.player_page(ann)["history"]
    assert history == results_history(app, ann, 1)
    assert history[0] == first[1] and history[-1] == ratings_now(app)[ann][2]


def test_records_read_together_equal_each_read_alone(app, api):
    emails = people(api, 3)
    game_id = new_game_of(api, emails, ["red", "blue", "green"])
    ids = player_ids(app, emails)
    add_decisions(app, ids[0], game_id, ["in_time"] * 3 + ["timeout"])
    add_decisions(app, ids[1], game_id, ["late"] * 2 + ["in_time"] * 150)
    with app.app_context():
        together = records.reliabilities(ids)
        assert together == {p: records.reliability(p) for p in ids}
        # The last 100 of the second's 152: all in time.
        assert together[ids[0]] == (0.75, 4) and together[ids[1]] == (1.0, 100)
        assert together[ids[2]] == (None, 0)
        shown = records.beside_names(ids)
        assert shown[ids[0]]["reliability"] == 0.75
        assert shown[ids[2]]["rating"] == records.unrated()


def forming_game(api, organiser: str, join: dict) -> int:
    body = {
        "title": "Picky",
        "seats": [
            {"email": organiser, "colour": "red"},
            {"open": True, "colour": "blue"},
            {"bot": True, "colour": "green"},
        ],
        "forming": True,
        "join": join,
    }
    response = api.client.post("/api/games", json=body, headers=api.auth(api.keys[organiser]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def test_an_open_seat_asks_the_organisers_minimums_of_whoever_joins(app, api):
    organiser, newcomer, steady = people(api, 3)
    game_id = forming_game(api, organiser, {"min_reliability": 0.8})
    refused = api.client.post(
        f"/api/games/{game_id}/seats/blue/join", headers=api.auth(api.keys[newcomer])
    )
    problem = assert_problem(refused, 403)
    assert problem["code"] == "join-needs-reliability"
    assert "80%" in problem["detail"] and "no decisions on record yet" in problem["detail"]
    with app.app_context():
        player = db.session.execute(sa.select(Player.id).where(Player.email == steady)).scalar_one()
    add_decisions(app, player, game_id, ["in_time"] * 9 + ["timeout"])
    joined = api.client.post(
        f"/api/games/{game_id}/seats/blue/join", headers=api.auth(api.keys[steady])
    )
    assert joined.status_code == 200, joined.get_json()
    seats = {s["colour"]: s for s in joined.get_json()["seats"]}
    assert seats["blue"]["player_id"] == player

    rated = forming_game(api, organiser, {"min_rating": 10})
    refused = api.client.post(
        f"/api/games/{rated}/seats/blue/join", headers=api.auth(api.keys[newcomer])
    )
    problem = assert_problem(refused, 403)
    assert problem["code"] == "join-needs-rating" and "0.0" in problem["detail"]
    with app.app_context():
        game = db.session.get(Game, rated)
        assert next(s for s in game.seats if s.colour == "blue").open  # nothing changed
    bad = api.client.post(
        "/api/games",
        json={
            "title": "x",
            "seats": [{"email": organiser, "colour": "red"}, {"open": True, "colour": "blue"}],
            "forming": True,
            "join": {"min_reliability": 2},
        },
        headers=api.auth(api.keys[organiser]),
    )
    assert "min_reliability" in str(assert_problem(bad, 422))


def test_the_shown_rating_is_openskills_own_ordinal():
    import random

    rng = random.Random(4)
    for _ in range(200):
        mu, sigma = rng.uniform(-10, 60), rng.uniform(0.5, 9)
        expected = records.MODEL.rating(mu=mu, sigma=sigma).ordinal()
        assert records.ordinal(mu, sigma) == pytest.approx(expected, abs=1e-9)


def test_the_migration_fills_each_history_from_the_kept_results(tmp_path):
    with unmigrated_database(tmp_path, "pbem_history_") as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "migration-test"})
        with app.app_context():
            upgrade(revision="c7d1e5a9f3b8")
            moment = datetime(2026, 3, 1, tzinfo=UTC)
            with db.engine.begin() as connection:
                one_player_and_game(connection, moment)
                for game_id in (2, 3):
                    connection.execute(
                        sa.text(
                            "INSERT INTO games (id, title, options, timing, seed, status,"
                            " creator_id, colours, pending, seq, created_at, updated_at) VALUES"
                            " (:g, 'G', '{}', '{}', 1, 'finished', 1, '[]', '[]', 0, :t, :t)"
                        ),
                        {"g": game_id, "t": moment},
                    )
                # Game 3 ended first; game 2 was not rated (no other person in it).
                for game_id, day, rated, before, after in (
                    (3, 1, True, 25.0, 27.0),
                    (2, 2, False, 27.0, 27.0),
                    (1, 3, True, 27.0, 26.0),
                ):
                    connection.execute(
                        sa.text(
                            "INSERT INTO game_ratings (game_id, player_id, players, rank, score,"
                            " mu_before, sigma_before, mu_after, sigma_after, bot_finished,"
                            " rated, rated_at) VALUES (:g, 1, 3, 1, 50, :b, 8.0, :a, 7.0,"
                            " false, :r, :t)"
                        ),
                        {
                            "g": game_id,
                            "b": before,
                            "a": after,
                            "r": rated,
                            "t": moment + timedelta(days=day),
                        },
                    )
                connection.execute(
                    sa.text(
                        "INSERT INTO player_ratings (player_id, mu, sigma, ordinal, games,"
                        " games_2, games_3, games_4, games_5, updated_at)"
                        " VALUES (1, 26.0, 7.0, 5.0, 2, 0, 2, 0, 0, :t)"
                    ),
                    {"t": moment},
                )
            upgrade()
            with db.engine.connect() as connection:
                kept = connection.execute(sa.select(PlayerRating.history)).scalar_one()
            assert kept == [25.0 - 24.0, 27.0 - 21.0, 26.0 - 21.0]
            downgrade(revision="c7d1e5a9f3b8")
            with db.engine.connect() as connection:
                columns = {c["name"] for c in sa.inspect(connection).get_columns("player_ratings")}
            assert "history" not in columns
            db.engine.dispose()
