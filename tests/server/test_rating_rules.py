"""The rules that keep a rating from being farmed: a seat its holder left to a bot earns
them nothing (the others are rated as if a house bot had held it), one mailbox holding two
seats rates nobody, and a circle of people stops moving ratings after
PBEM_RATED_GAMES_PER_CIRCLE rated games among themselves alone. And the farming run that
showed the need, replayed: a new account and four more of its own, its seat handed to the
house bot, earns no rating and passes no gate a fresh player would not."""

from __future__ import annotations

import uuid
from collections import namedtuple

import pytest

from pbem.addresses import mailbox
from pbem.play import ratings
from tests.server.conftest import assert_problem
from tests.server.test_player_records import forming_game
from tests.server.test_ratings import (
    OPENSKILL,
    competition_ranks,
    final_scores,
    finished_state,
    hand_to_bot,
    new_game_of,
    people,
    play_out,
    player_ids,
    rate,
    ratings_now,
    results_of,
)

FIVE = ["red", "yellow", "green", "blue", "brown"]

Move = namedtuple("Move", "colour player_id")
Holder = namedtuple("Holder", "colour player_id email human")


def fresh_winners_ordinal(sizes: list[int]) -> float:
    """The shown rating of a fresh player who won each of these games (by its number of
    people) against fresh opponents: what the games that count could give one at most."""
    rating = OPENSKILL.rating()
    for size in sizes:
        teams = [[rating]] + [[OPENSKILL.rating()] for _ in range(size - 1)]
        [[rating], *_others] = OPENSKILL.rate(teams, ranks=list(range(1, size + 1)))
    return float(rating.ordinal())


def test_a_seat_is_left_to_bots_when_its_holder_made_fewer_than_half_its_moves():
    holders = [Holder("red", 1, "a@x", True), Holder("blue", 2, "b@x", True)]
    half = [Move("red", 1), Move("red", None), Move("blue", 2), Move("blue", 2)]
    assert ratings.left_to_bots(half, holders) == set()
    less = [Move("red", 1), Move("red", None), Move("red", None), Move("blue", None)]
    assert ratings.left_to_bots(less, holders) == {1, 2}
    # A move the holder did not send (a bot's, or an earlier holder's) is not theirs.
    assert ratings.left_to_bots([Move("red", 3), Move("blue", 2)], holders) == {1}
    assert ratings.left_to_bots([], holders) == set()


@pytest.mark.parametrize(
    ("address", "box"),
    [
        ("x+a@d.example", "x@d.example"),
        ("x+a+b@d.example", "x@d.example"),
        ("x@d.example", "x@d.example"),
        ("+x@d.example", "+x@d.example"),
    ],
)
def test_a_subaddress_is_delivered_to_its_mailbox(address, box):
    assert mailbox(address) == box


def test_two_people_of_one_mailbox_are_found_but_bots_and_two_colours_are_not():
    one = [Holder("red", 1, "x+a@d", True), Holder("blue", 2, "x+b@d", True)]
    assert ratings.one_mailbox_twice(one)
    two_colours = [Holder("red", 1, "x@d", True), Holder("blue", 1, "x@d", True)]
    assert not ratings.one_mailbox_twice(two_colours)
    apart = [Holder("red", 1, "x+a@d", True), Holder("blue", 2, "y+a@d", True)]
    assert not ratings.one_mailbox_twice(apart)


def test_a_seat_left_to_a_bot_earns_its_holder_nothing(app, api):
    emails = people(api, 4)
    colours = FIVE[:4]
    game_id = new_game_of(api, emails, colours)
    hand_to_bot(api, game_id, "green", emails[2])
    play_out(app, game_id, seed=7, left=("green",))
    scores, holders = final_scores(app, game_id)
    found = results_of(app, game_id)
    ranks = competition_ranks([scores[c] for c in colours])
    away = found[holders["green"]]
    # Their result is kept; their rating does not move, and none is made for them.
    assert (away.rank, away.score, away.rated, away.bot_finished) == (
        ranks[2],
        scores["green"],
        False,
        True,
    )
    assert (away.mu_after, away.sigma_after) == (away.mu_before, away.sigma_before)
    assert holders["green"] not in ratings_now(app)
    # The others are rated as if a house bot had held green: by their places among all.
    others = ["red", "yellow", "blue"]
    expected = OPENSKILL.rate(
        [[OPENSKILL.rating()] for _ in others], ranks=[ranks[colours.index(c)] for c in others]
    )
    for colour, [rating] in zip(others, expected, strict=True):
        row = found[holders[colour]]
        assert row.rated and not row.bot_finished
        assert (row.mu_after, row.sigma_after) == pytest.approx((rating.mu, rating.sigma))


def test_one_mailbox_holding_two_seats_rates_nobody(app, api):
    tag = uuid.uuid4().hex[:6]
    emails = [f"{tag}+one@example.org", f"{tag}+two@example.org", *people(api, 1)]
    for email in emails[:2]:
        api.register(email, email.split("@")[0])
    game_id = new_game_of(api, emails, FIVE[:3])
    play_out(app, game_id, seed=3)
    found = results_of(app, game_id)
    assert len(found) == 3 and not any(row.rated for row in found.values())
    assert all((r.mu_after, r.sigma_after) == (r.mu_before, r.sigma_before) for r in found.values())
    assert ratings_now(app) == {}


def test_a_circle_stops_moving_ratings_and_fresh_opponents_rate_again(app, api):
    most = app.config["PBEM_RATED_GAMES_PER_CIRCLE"]
    assert most == 5
    emails = people(api, 6)
    circle, fresh = emails[:3], [emails[0], *emails[3:5]]
    colours = FIVE[:3]
    scores = {"red": 60, "yellow": 50, "green": 40}
    games = [new_game_of(api, circle, colours) for _ in range(most + 1)]
    for game_id in games:
        rate(app, game_id, finished_state(colours, scores))
    rated = [all(r.rated for r in results_of(app, g).values()) for g in games[:most]]
    assert rated == [True] * most
    kept = ratings_now(app)
    last = results_of(app, games[most])
    assert not any(row.rated for row in last.values())
    assert all(kept[p][3] == most for p in player_ids(app, circle))
    # One more account reopens nothing: the circle's games lie within this game's too.
    bigger = new_game_of(api, [*circle, emails[5]], FIVE[:4])
    rate(app, bigger, finished_state(FIVE[:4], {**scores, "blue": 30}))
    assert not any(row.rated for row in results_of(app, bigger).values())
    assert ratings_now(app)[player_ids(app, circle)[0]] == kept[player_ids(app, circle)[0]]
    # Fresh opponents: rated as ever, the first from where the circle left them.
    again = new_game_of(api, fresh, colours)
    rate(app, again, finished_state(colours, scores))
    found = results_of(app, again)
    ids = player_ids(app, fresh)
    mu, sigma = kept[ids[0]][:2]
    before = [[OPENSKILL.rating(mu=mu, sigma=sigma)], [OPENSKILL.rating()], [OPENSKILL.rating()]]
    expected = OPENSKILL.rate(before, ranks=[1, 2, 3])
    for person, [rating] in zip(ids, expected, strict=True):
        assert found[person].rated
        assert (found[person].mu_after, found[person].sigma_after) == pytest.approx(
            (rating.mu, rating.sigma)
        )


def test_no_circle_limit_when_the_setting_is_0(app, api):
    app.config["PBEM_RATED_GAMES_PER_CIRCLE"] = 0
    emails = people(api, 2)
    for _ in range(7):
        game_id = new_game_of(api, emails, ["red", "blue"])
        rate(app, game_id, finished_state(["red", "blue"], {"red": 2, "blue": 1}))
    assert [kept[3] for kept in ratings_now(app).values()] == [7, 7]


def test_the_farming_run_replayed_earns_the_farmer_nothing(app, api):
    """The run measured: a new account and four of its own at other addresses (each proved),
    five games of six rounds, the farmer's seat handed to the house bot at the start. It
    had made the farmer first in the standings (ordinal 13.76), past a `min_rating` gate."""
    farmer, *alts = people(api, 5)
    organiser = people(api, 1)[0]
    most = app.config["PBEM_RATED_GAMES_PER_CIRCLE"]
    games = []
    for n in range(most + 1):  # and one game more, for the alternative accounts' circle
        game_id = new_game_of(api, [farmer, *alts], FIVE)
        hand_to_bot(api, game_id, "red", farmer)
        play_out(app, game_id, seed=40 + n, left=("red",))
        games.append(game_id)
    [farmer_id] = player_ids(app, [farmer])
    kept = ratings_now(app)
    theirs = [results_of(app, g)[farmer_id] for g in games]
    assert all(row.bot_finished for row in theirs)
    # The bound: a fresh player winning every game that counted for the farmer.
    bound = fresh_winners_ordinal([row.players for row in theirs if row.rated])
    assert bound == pytest.approx(OPENSKILL.rating().ordinal())  # none counted
    shown = kept[farmer_id][2] if farmer_id in kept else OPENSKILL.rating().ordinal()
    assert shown <= bound + 1e-9
    rated = sum(row.rated for row in theirs)
    print(
        f"farming: farmer {rated} of {len(games)} games rated,"
        f" ordinal {shown:.2f}, bound {bound:.2f}"
    )
    # The four who played rated one another in the circle's first games only.
    alt_ids = player_ids(app, alts)
    assert all(kept[p][3] == most for p in alt_ids)
    assert not any(r.rated for r in results_of(app, games[most]).values())
    # Not in the standings, and not past a gate a fresh player would not pass.
    standings = api.get("/api/ratings").get_json()["players"]
    assert farmer_id not in [p["id"] for p in standings]
    gate = forming_game(api, organiser, {"min_rating": round(bound + 0.5, 1)})
    refused = api.client.post(
        f"/api/games/{gate}/seats/blue/join", headers=api.auth(api.keys[farmer])
    )
    assert assert_problem(refused, 403)["code"] == "join-needs-rating"
