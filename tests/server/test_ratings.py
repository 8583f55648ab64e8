"""Ratings: a finished game moves its people's ratings as openskill's own computation on the
same ranking does, once, in its ending transaction; ties share a place; house bots are not
rated; the two-colour game rates its two people; aborted and abandoned games are not rated;
and a rebuild from the finished games gives the same numbers."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Collection
from datetime import timedelta

import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.exc import IntegrityError

import engine
from engine.bots import GreedyBot, RandomBot
from pbem import play
from pbem.cli import main
from pbem.clock import now, set_now
from pbem.extensions import db
from pbem.game.seating import Actor
from pbem.game.states import current_state
from pbem.play import ratings
from pbem.play.due import abandon_idle_games
from pbem.play.transfer import export_json, import_game, parse_document
from pbem.store.models import BotRating, Game, GameRating, Player, PlayerRating
from tests.server.test_concurrency import race

#: openskill's own model, made here apart from the server's.
OPENSKILL = PlackettLuce()


def play_out(
    app, game_id: int, seed: int = 1, *, stop_before_end: bool = False, left: Collection[str] = ()
):
    """Play the game on by a random bot's moves for whoever must act, through the play
    function as that seat's holder, each run of one seat's moves in one batch: to its end,
    or (`stop_before_end`) up to its last move, which is returned as (colour, move, seq).
    The bot plays in the engine first: the service plays what it chose, as it came. The
    seats `left` to a bot are played as the sweep plays them: by the house's bot (greedy,
    the tests' takeover bot), sent by the server for no one."""
    bot, house = RandomBot(seed), GreedyBot(seed)
    with app.app_context():
        game = db.session.get(Game, game_id)
        holders = {s.colour: s.player_id for s in game.seats}
        seq, state = game.seq, current_state(game_id, game.seed, game.seq)
        runs: list[tuple[str, list]] = []
        last = None
        while not engine.is_over(state):
            colour = engine.pending(state)[0]["player"]
            move = (house if colour in left else bot).choose(state, colour)
            state, _ = engine.apply(state, colour, move)
            if stop_before_end and engine.is_over(state):
                last = (colour, move)
                break
            if runs and runs[-1][0] == colour:
                runs[-1][1].append(move)
            else:
                runs.append((colour, [move]))
        for colour, moves in runs:
            if colour in left:
                actor, source = Actor.scheduler(colour), "bot"
            else:
                actor, source = Actor.by_player(holders[colour], colour), "api"
            seq = play.submit(actor, game_id, seq, moves, source=source).seq
            db.session.remove()
    return None if last is None else (*last, seq)


def hand_to_bot(api, game_id: int, colour: str, email: str) -> None:
    """The holder hands their seat to the house bot (`PUT .../seats/{colour}/bot`)."""
    response = api.client.put(
        f"/api/games/{game_id}/seats/{colour}/bot",
        json={"bot": True},
        headers=api.auth(api.keys[email]),
    )
    assert response.status_code == 200, response.get_json()


def new_game_of(api, emails: list[str], colours: list[str], options=None, bots=()) -> int:
    """A game of players registered already (`api.keys`), and house bots at `bots`."""
    seats = [
        {"colour": c, "bot": True} if c in bots else {"email": e, "colour": c}
        for e, c in zip(emails, colours, strict=True)
    ]
    body = {"title": "Rated", "seats": seats, "options": options or {"rounds": 6}}
    response = api.client.post("/api/games", json=body, headers=api.auth(api.keys[emails[0]]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def people(api, count: int) -> list[str]:
    tag = uuid.uuid4().hex[:6]
    emails = [f"p{n}-{tag}@example.org" for n in range(count)]
    for email in emails:
        api.register(email, email.split("@")[0])
    return emails


def results_of(app, game_id: int) -> dict[int, GameRating]:
    with app.app_context():
        rows = db.session.execute(sa.select(GameRating).where(GameRating.game_id == game_id))
        found = {r.player_id: r for r in rows.scalars()}
        db.session.expunge_all()
    return found


def ratings_now(app) -> dict[int, tuple]:
    with app.app_context():
        rows = db.session.execute(sa.select(PlayerRating)).scalars()
        return {
            r.player_id: (
                r.mu,
                r.sigma,
                r.ordinal,
                r.games,
                r.games_2,
                r.games_3,
                r.games_4,
                r.games_5,
                r.history,
            )
            for r in rows
        }


def final_scores(app, game_id: int) -> tuple[dict[str, int], dict[str, int]]:
    """The final state's scores by colour, and each colour's holder."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = current_state(game_id, game.seed, game.seq)
        return engine.scores(state), {s.colour: s.player_id for s in game.seats}


def player_ids(app, emails: list[str]) -> list[int]:
    with app.app_context():
        return [
            db.session.execute(sa.select(Player.id).where(Player.email == e)).scalar_one()
            for e in emails
        ]


def kept_rating(app, player_id: int, mu: float, **by_size: int) -> None:
    """A rating as if the player's games had been rated: sigma 5, and `games_N` counts."""
    with app.app_context():
        counts = {f"games_{n}": by_size.get(f"games_{n}", 0) for n in (2, 3, 4, 5)}
        db.session.add(
            PlayerRating(
                player_id=player_id,
                mu=mu,
                sigma=5.0,
                ordinal=mu - 15.0,
                games=sum(counts.values()),
                updated_at=now(),
                **counts,
            )
        )
        db.session.commit()


def competition_ranks(values: list) -> list[int]:
    return [1 + sum(other > value for other in values) for value in values]


@pytest.mark.parametrize("colours", [3, 4, 5])
def test_a_finished_game_rates_as_openskill_does_on_its_ranking(app, api, colours):
    emails = people(api, colours)
    palette = ["red", "yellow", "green", "blue", "brown"][:colours]
    game_id = new_game_of(api, emails, palette)
    play_out(app, game_id, seed=colours)
    scores, holders = final_scores(app, game_id)
    ranks = competition_ranks([scores[c] for c in palette])
    expected = OPENSKILL.rate([[OPENSKILL.rating()] for _ in palette], ranks=ranks)
    found = results_of(app, game_id)
    assert len(found) == colours
    for colour, rank, [rating] in zip(palette, ranks, expected, strict=True):
        row = found[holders[colour]]
        assert (row.rank, row.score, row.rated, row.bot_finished) == (
            rank,
            scores[colour],
            True,
            False,
        )
        assert (row.mu_before, row.sigma_before) == (25.0, 25 / 3)
        assert (row.mu_after, row.sigma_after) == pytest.approx((rating.mu, rating.sigma))
    kept = ratings_now(app)
    for colour, [rating] in zip(palette, expected, strict=True):
        mu, sigma, ordinal, games, *_ = kept[holders[colour]]
        assert (mu, sigma) == pytest.approx((rating.mu, rating.sigma))
        assert ordinal == pytest.approx(rating.ordinal()) and games == 1

    # A second game of the same people starts from the first's ratings.
    second = new_game_of(api, emails, palette)
    play_out(app, second, seed=colours + 10)
    scores, holders = final_scores(app, second)
    ranks = competition_ranks([scores[c] for c in palette])
    before = [[OPENSKILL.rating(mu=r.mu, sigma=r.sigma)] for [r] in expected]
    expected = OPENSKILL.rate(before, ranks=ranks)
    kept = ratings_now(app)
    for colour, [rating] in zip(palette, expected, strict=True):
        mu, sigma, _ordinal, games, *by_size = kept[holders[colour]]
        assert (mu, sigma) == pytest.approx((rating.mu, rating.sigma))
        assert games == 2 and by_size[colours - 2] == 2


def finished_state(colours: list[str], scores: dict[str, int], options=None) -> engine.State:
    """A state the engine calls over, with these final scores."""
    data = engine.to_dict(engine.new_game(colours, seed=3, options=options))
    data["scores"], data["phase"] = dict(scores), "over"
    return engine.from_dict(data)


def rate(app, game_id: int, state: engine.State) -> None:
    with app.app_context():
        ratings.rate_game(db.session.connection(), game_id, state, now())
        db.session.commit()


def test_tied_scores_share_a_place_and_are_rated_as_a_tie(app, api):
    emails = people(api, 4)
    colours = ["red", "blue", "green", "yellow"]
    game_id = new_game_of(api, emails, colours)
    state = finished_state(colours, {"red": 50, "blue": 61, "green": 50, "yellow": 40})
    assert sorted(engine.winners(state)) == ["blue"]
    rate(app, game_id, state)
    found = results_of(app, game_id)
    _scores, holders = final_scores(app, game_id)
    by_colour = {c: found[holders[c]] for c in colours}
    assert [by_colour[c].rank for c in colours] == [2, 1, 2, 4]
    expected = OPENSKILL.rate([[OPENSKILL.rating()] for _ in colours], ranks=[2, 1, 2, 4])
    for colour, [rating] in zip(colours, expected, strict=True):
        assert by_colour[colour].mu_after == pytest.approx(rating.mu)
        assert by_colour[colour].sigma_after == pytest.approx(rating.sigma)
    assert by_colour["red"].mu_after == by_colour["green"].mu_after


def test_house_bots_are_not_rated_and_a_seat_a_bot_finished_is_marked(app, api):
    emails = people(api, 3) + ["bot", "bot"]
    colours = ["red", "blue", "green", "yellow", "brown"]
    game_id = new_game_of(api, emails, colours, bots=("yellow", "brown"))
    # Green hands its seat to the bot: it is rated as it finishes, marked so.
    response = api.client.put(
        f"/api/games/{game_id}/seats/green/bot",
        json={"bot": True},
        headers=api.auth(api.keys[emails[2]]),
    )
    assert response.status_code == 200
    play_out(app, game_id, seed=5)
    scores, holders = final_scores(app, game_id)
    found = results_of(app, game_id)
    people_ids = [holders[c] for c in ("red", "blue", "green")]
    assert sorted(found) == sorted(people_ids)
    assert [found[p].bot_finished for p in people_ids] == [False, False, True]
    assert all(row.players == 5 for row in found.values())
    # Places are among all five; the people are rated by their order among themselves.
    ranks = competition_ranks([scores[c] for c in colours])
    assert [found[holders[c]].rank for c in ("red", "blue", "green")] == ranks[:3]
    expected = OPENSKILL.rate([[OPENSKILL.rating()] for _ in range(3)], ranks=ranks[:3])
    for person, [rating] in zip(people_ids, expected, strict=True):
        assert (found[person].mu_after, found[person].sigma_after) == pytest.approx(
            (rating.mu, rating.sigma)
        )
    kept = ratings_now(app)
    assert sorted(kept) == sorted(people_ids)  # no bot has a rating
    assert all(kept[p][3] == 1 and kept[p][7] == 1 for p in people_ids)  # a game of 5


def test_a_person_alone_against_bots_keeps_a_result_but_no_rating_moves(app, api):
    emails = people(api, 1) + ["bot", "bot"]
    game_id = new_game_of(api, emails, ["red", "blue", "green"], bots=("blue", "green"))
    play_out(app, game_id, seed=2)
    found = results_of(app, game_id)
    [row] = found.values()
    assert not row.rated and (row.mu_after, row.sigma_after) == (row.mu_before, row.sigma_before)
    assert ratings_now(app) == {}


def test_the_two_colour_game_rates_its_two_people_by_the_rules_score(app, api):
    colours = ["red", "blue", "green", "yellow"]
    game_id, keys = api.new_two_colour_game(colours, options={"rounds": 6})
    play_out(app, game_id, seed=4)
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = current_state(game_id, game.seed, game.seq)
        teams = engine.team_results(state)
        holders = {s.colour: s.player_id for s in game.seats}
    found = results_of(app, game_id)
    first, second = holders["red"], holders["green"]
    assert sorted(found) == sorted([first, second])
    standings = [(t["score"], t["best_colour"]) for t in teams]
    ranks = competition_ranks(standings)
    assert [found[first].score, found[second].score] == [t["score"] for t in teams]
    assert [found[first].rank, found[second].rank] == ranks
    assert all(row.players == 2 for row in found.values())
    expected = OPENSKILL.rate([[OPENSKILL.rating()], [OPENSKILL.rating()]], ranks=ranks)
    for person, [rating] in zip([first, second], expected, strict=True):
        assert found[person].mu_after == pytest.approx(rating.mu)
    assert {p: r[4] for p, r in ratings_now(app).items()} == {first: 1, second: 1}


def test_the_two_colour_tie_goes_to_the_better_colour(app, api):
    colours = ["red", "blue", "green", "yellow"]
    game_id, _keys = api.new_two_colour_game(colours, options={"rounds": 6})
    # Both people score 50 by the rule ((a + b) // 2 - |a - b| // 5); green beat red and blue.
    state = finished_state(
        colours, {"red": 50, "blue": 50, "green": 52, "yellow": 49}, {"variant": "two_colour"}
    )
    assert [t["score"] for t in engine.team_results(state)] == [50, 50]
    assert sorted(engine.winners(state)) == ["green", "yellow"]
    rate(app, game_id, state)
    _scores, holders = final_scores(app, game_id)
    found = results_of(app, game_id)
    assert [found[holders["red"]].rank, found[holders["green"]].rank] == [2, 1]
    [[loser], [winner]] = OPENSKILL.rate([[OPENSKILL.rating()], [OPENSKILL.rating()]], ranks=[2, 1])
    assert found[holders["green"]].mu_after == pytest.approx(winner.mu)
    assert found[holders["red"]].mu_after == pytest.approx(loser.mu)


def test_aborted_and_abandoned_games_are_not_rated(app, api):
    emails = people(api, 3)
    aborted = new_game_of(api, emails, ["red", "blue", "green"])
    abandoned = new_game_of(api, emails, ["red", "blue", "green"])
    response = api.client.post(f"/api/games/{aborted}/abort", headers=api.auth(api.keys[emails[0]]))
    assert response.status_code == 200
    set_now(app, now() + timedelta(days=400))
    with app.app_context():
        assert any("abandoned" in line for line in abandon_idle_games())
        assert db.session.get(Game, abandoned).status == "abandoned"
        assert ratings.rebuild() == ratings.Rebuilt(games=0, people=0, unproved=0)
        db.session.commit()
    assert results_of(app, aborted) == {} and results_of(app, abandoned) == {}
    assert ratings_now(app) == {}


def test_a_game_is_rated_once_the_unique_pair_refuses_a_second_rating(app, api):
    emails = people(api, 3)
    colours = ["red", "blue", "green"]
    game_id = new_game_of(api, emails, colours)
    state = finished_state(colours, {"red": 3, "blue": 2, "green": 1})
    rate(app, game_id, state)
    kept = ratings_now(app)
    with app.app_context(), pytest.raises(IntegrityError):
        ratings.rate_game(db.session.connection(), game_id, state, now())
    assert ratings_now(app) == kept


def test_two_requests_ending_one_game_at_once_rate_it_once(app, api):
    emails = people(api, 3)
    colours = ["red", "blue", "green"]
    game_id = new_game_of(api, emails, colours)
    colour, move, seq = play_out(app, game_id, seed=9, stop_before_end=True)
    body = {"expected_seq": seq, "moves": [move]}
    headers = api.auth(api.keys[emails[colours.index(colour)]])
    path = f"/api/games/{game_id}/moves"
    responses = race(app, [(path, body, headers), (path, body, headers)])
    assert sorted(r.status_code for r in responses) == [201, 409]
    found = results_of(app, game_id)
    assert len(found) == 3
    assert all(games == 1 for _mu, _s, _o, games, *_ in ratings_now(app).values())


def test_two_games_of_the_same_people_ending_at_once_both_count(app, api, monkeypatch):
    """Neither game's rating overwrites the other's: the one rated second starts from what
    the first left (rows locked in the players' order on PostgreSQL; SQLite writes one at a
    time)."""

    class SlowModel:
        """The model, slow to rate: both have read the ratings before either writes them,
        unless the first to read holds them."""

        def __init__(self, model):
            self.model, self.mu, self.sigma = model, model.mu, model.sigma

        def rating(self, *args, **kwargs):
            return self.model.rating(*args, **kwargs)

        def rate(self, *args, **kwargs):
            time.sleep(0.3)
            return self.model.rate(*args, **kwargs)

    emails = people(api, 3)
    colours = ["red", "blue", "green"]
    games = [new_game_of(api, emails, colours) for _ in range(2)]
    lasts = [play_out(app, g, seed=20 + n, stop_before_end=True) for n, g in enumerate(games)]
    requests = [
        (
            f"/api/games/{game_id}/moves",
            {"expected_seq": seq, "moves": [move]},
            api.auth(api.keys[emails[colours.index(colour)]]),
        )
        for game_id, (colour, move, seq) in zip(games, lasts, strict=True)
    ]
    # Rated before: their rows are there to be read at once by both.
    scores = {"red": 3, "blue": 2, "green": 1}
    rate(app, new_game_of(api, emails, colours), finished_state(colours, scores))
    monkeypatch.setattr(ratings, "MODEL", SlowModel(ratings.MODEL))
    assert [r.status_code for r in race(app, requests)] == [201, 201]
    with app.app_context():
        rows = db.session.execute(sa.select(GameRating).order_by(GameRating.id)).scalars().all()
        kept = {
            r.player_id: (r.mu, r.sigma, r.games)
            for r in db.session.execute(sa.select(PlayerRating)).scalars()
        }
        for player_id, (mu, sigma, games_rated) in kept.items():
            _before, first, second = [r for r in rows if r.player_id == player_id]
            assert (second.mu_before, second.sigma_before) == (first.mu_after, first.sigma_after)
            assert (mu, sigma, games_rated) == (second.mu_after, second.sigma_after, 3)
    assert len(kept) == 3


def test_an_imported_finished_game_is_rated_as_it_is_written(app, api):
    emails = people(api, 3)
    game_id = new_game_of(api, emails, ["red", "blue", "green"])
    play_out(app, game_id, seed=6)
    with app.app_context():
        copy = import_game(parse_document(export_json(game_id)))
    original, imported = results_of(app, game_id), results_of(app, copy)
    assert sorted(original) == sorted(imported)
    for player_id, row in original.items():
        again = imported[player_id]
        assert (again.rank, again.score, again.rated) == (row.rank, row.score, True)
        assert (again.mu_before, again.sigma_before) == (row.mu_after, row.sigma_after)
    assert all(kept[3] == 2 for kept in ratings_now(app).values())


def test_a_rebuild_gives_the_same_numbers(app, api, database_url, monkeypatch, capsys):
    """And by the same rules: a circle closed (two games of one, here), a seat left to a
    bot, one mailbox holding two seats, an address never proved."""
    app.config["PBEM_RATED_GAMES_PER_CIRCLE"] = 2
    monkeypatch.setenv("PBEM_RATED_GAMES_PER_CIRCLE", "2")
    emails = people(api, 5)
    tag = uuid.uuid4().hex[:6]
    boxes = [f"{tag}+one@example.org", f"{tag}+two@example.org"]
    for email in boxes:
        api.register(email, email.split("@")[0])
    stranger = f"unproved-{tag}@example.org"
    four = ["red", "blue", "green", "yellow"]
    games = [
        new_game_of(api, emails[:3], four[:3]),
        new_game_of(api, emails[1:5], four),
        new_game_of(api, [emails[0], emails[4]], four[:2]),
        new_game_of(api, emails[:3] + ["bot"], four, bots=("yellow",)),
        new_game_of(api, emails[:3], four[:3]),  # the circle's third game
        new_game_of(api, [*emails[2:5], stranger], four),
        new_game_of(api, [emails[0], *boxes], four[:3]),
    ]
    hand_to_bot(api, games[5], "blue", emails[3])
    for seed, game_id in enumerate(games):
        play_out(app, game_id, seed=seed, left=("blue",) if game_id == games[5] else ())
    kept = ratings_now(app)
    results = {g: _comparable(results_of(app, g)) for g in games}
    bots = bot_ratings_now(app)
    assert len(kept) == 5 and all(results.values())
    # The house bot (the tests' takeover bot, greedy) of the fourth game, a rated one.
    assert list(bots) == ["greedy"] and bots["greedy"][3] == 1
    rated = [sorted(r[-2] for r in results[g].values()) for g in games]
    assert rated[4:] == [[False] * 3, [False, True, True], [False] * 3]
    monkeypatch.setenv("DATABASE_URL", database_url)
    main(["ratings", "rebuild"])
    assert capsys.readouterr().out == (
        "Ratings: 7 finished games: 5 people rated, 1 skipped because they never proved "
        "their address (see `pbem players prove`); 1 house bot level rated.\n"
    )
    assert ratings_now(app) == kept
    assert bot_ratings_now(app) == bots
    assert {g: _comparable(results_of(app, g)) for g in games} == results


def bot_ratings_now(app) -> dict[str, tuple]:
    with app.app_context():
        rows = db.session.execute(sa.select(BotRating).order_by(BotRating.level)).scalars()
        return {r.level: (r.mu, r.sigma, r.updated_at, r.games) for r in rows}


def _comparable(rows: dict[int, GameRating]) -> dict[int, tuple]:
    return {
        player: (
            r.players,
            r.rank,
            r.score,
            r.mu_before,
            r.sigma_before,
            r.mu_after,
            r.sigma_after,
            r.bot_finished,
            r.rated,
            r.rated_at,
        )
        for player, r in rows.items()
    }


# --- the API: a player's record and games, the standings ---------------------------------


def test_a_players_record_and_games_through_the_api_and_nothing_private(app, api):
    emails = people(api, 3)
    colours = ["red", "blue", "green"]
    finished = new_game_of(api, emails, colours)
    going = new_game_of(api, emails, colours)
    first = api.get(f"/api/games/{going}", api.keys[emails[0]])
    assert first.status_code == 200
    summary = api.get("/api/games", api.keys[emails[0]]).get_json()["games"][0]
    ids = {s["colour"]: s["player_id"] for s in summary["seats"]}
    ann = ids["red"]

    fresh = api.get(f"/api/players/{ann}").get_json()
    assert fresh == {
        "id": ann,
        "name": emails[0].split("@")[0],
        "bot": False,
        "rating": {
            "mu": 25.0,
            "sigma": 25 / 3,
            "ordinal": pytest.approx(0.0),
            "games": 0,
            "provisional": True,
        },
        "reliability": None,
        "decisions": 0,
    }
    play_out(app, finished, seed=3)
    scores, holders = final_scores(app, finished)
    assert holders["red"] == ann
    row = results_of(app, finished)[ann]
    record = api.get(f"/api/players/{ann}").get_json()
    assert record["rating"]["mu"] == pytest.approx(row.mu_after)
    assert record["rating"]["games"] == 1 and record["rating"]["provisional"] is True
    assert 0 <= record["reliability"] <= 1 and record["decisions"] > 0
    me = api.get("/api/players/me", api.keys[emails[0]]).get_json()
    assert me == record

    played = api.get(f"/api/players/{ann}/games").get_json()
    [done] = played["finished"]
    assert (done["id"], done["rank"], done["score"], done["players"]) == (
        finished,
        row.rank,
        scores["red"],
        3,
    )
    assert done["rated"] is True and done["ordinal"] == pytest.approx(record["rating"]["ordinal"])
    assert done["rating_change"] == pytest.approx(record["rating"]["ordinal"] - 0.0)
    assert played["current"] == [
        {"id": going, "title": "Rated", "status": "active", "colours": ["red"]}
    ]
    assert played["more"] is False
    for answer in (fresh, record, played, summary):
        assert not any(email in json.dumps(answer) for email in emails)
    assert api.get("/api/players/me").status_code == 401
    assert api.get("/api/players/999999").status_code == 404
    assert api.get("/api/players/999999/games").status_code == 404


def test_the_standings_list_people_with_five_rated_games_best_first(app, api):
    emails = people(api, 4)
    ids = player_ids(app, emails)
    # Rated games as if played: 5 of 3 players, 6 of 2, 4 of 4 (provisional), 9 of 3.
    kept_rating(app, ids[0], 30.0, games_3=5)
    kept_rating(app, ids[1], 35.0, games_2=6)
    kept_rating(app, ids[2], 40.0, games_4=4)
    kept_rating(app, ids[3], 28.0, games_3=9)
    every = api.get("/api/ratings").get_json()
    assert [(p["place"], p["id"]) for p in every["players"]] == [
        (1, ids[1]),
        (2, ids[0]),
        (3, ids[3]),
    ]
    assert every["players"][0]["rating"] == {
        "mu": 35.0,
        "sigma": 5.0,
        "ordinal": pytest.approx(20.0),
        "games": 6,
        "provisional": False,
    }
    assert every["more"] is False
    # At the boundary: five rated games are a rating, four a provisional one.
    fifth = next(p for p in every["players"] if p["id"] == ids[0])["rating"]
    assert (fifth["games"], fifth["provisional"]) == (5, False)
    fourth = api.get(f"/api/players/{ids[2]}").get_json()["rating"]
    assert (fourth["games"], fourth["provisional"]) == (4, True)
    threes = api.get("/api/ratings?players=3").get_json()["players"]
    assert [p["id"] for p in threes] == [ids[0], ids[3]]
    assert api.get("/api/ratings?players=4").get_json()["players"] == []
    second = api.get("/api/ratings?per_page=2&page=2").get_json()
    assert [(p["place"], p["id"]) for p in second["players"]] == [(3, ids[3])]
    assert api.get("/api/ratings?per_page=2").get_json()["more"] is True
    assert api.get("/api/ratings?players=6").status_code == 422
    assert not any(email in json.dumps(every) for email in emails)


def test_the_standings_answer_is_kept_until_the_next_game_is_rated(app, api):
    """The API's standings are kept per worker by the newest rated result: a game rated
    shows at once; a rating written with no game rated (as here, straight to the table,
    which nothing in the server does) does not show until one is."""
    emails = people(api, 3)
    ids = player_ids(app, emails)
    kept_rating(app, ids[0], 30.0, games_3=5)
    kept_rating(app, ids[1], 25.0, games_3=4)
    answer = api.get("/api/ratings")
    assert answer.mimetype == "application/json"
    first = answer.get_json()
    assert [p["id"] for p in first["players"]] == [ids[0]]
    kept_rating(app, ids[2], 40.0, games_3=9)
    assert api.get("/api/ratings").get_json() == first
    colours = ["red", "blue", "green"]
    game_id = new_game_of(api, emails, colours)
    rate(app, game_id, finished_state(colours, {"red": 50, "blue": 61, "green": 40}))
    after = api.get("/api/ratings").get_json()["players"]
    # The second's fifth rated game puts them in, and the third is read anew with it.
    assert sorted(p["id"] for p in after) == sorted(ids)
    assert all(p["rating"]["games"] >= 5 for p in after)
    # Each page and filter is its own answer.
    assert api.get("/api/ratings?per_page=1").get_json()["players"] == after[:1]


def test_only_people_who_proved_their_address_are_rated(app, api):
    """An invited address nobody has shown to be theirs plays its seat but is not rated:
    the others are rated among themselves."""
    emails = people(api, 3)
    stranger = f"unproved-{uuid.uuid4().hex[:6]}@example.org"
    seats = [
        {"email": e, "colour": c} for e, c in zip(emails, ["red", "blue", "green"], strict=True)
    ]
    seats.append({"email": stranger, "colour": "yellow"})
    body = {"title": "Rated", "seats": seats, "options": {"rounds": 6}}
    made = api.client.post("/api/games", json=body, headers=api.auth(api.keys[emails[0]]))
    assert made.status_code == 201, made.get_json()
    game_id = made.get_json()["id"]
    play_out(app, game_id, seed=6)
    scores, holders = final_scores(app, game_id)
    found = results_of(app, game_id)
    assert sorted(found) == sorted(holders[c] for c in ("red", "blue", "green"))
    assert holders["yellow"] not in ratings_now(app)
    ranks = competition_ranks([scores[c] for c in ("red", "blue", "green", "yellow")])
    assert [found[holders[c]].rank for c in ("red", "blue", "green")] == ranks[:3]
