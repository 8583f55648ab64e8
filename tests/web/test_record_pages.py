"""The record pages: a player's page (rating, its chart, reliability, games, the action cards
they chose), the standings, a finished game's rating changes, records beside names on a game's
page and in the list of games that need players; nothing private on any of them."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.game import ratings
from pbem.languages import LANGUAGES
from pbem.store.models import Player, Seat
from tests.server.test_player_records import add_decisions
from tests.server.test_ratings import kept_rating, new_game_of, people, play_out
from tests.web.helpers import page
from tests.web.html import parse
from tests.web.test_new_game import sign_in_with_key


def ids_of(app, emails: list[str]) -> list[int]:
    with app.app_context():
        return [
            db.session.execute(sa.select(Player.id).where(Player.email == e)).scalar_one()
            for e in emails
        ]


@pytest.fixture
def two_finished(app, api):
    """Three people who finished two games together, and a third game still going."""
    emails = people(api, 3)
    colours = ["red", "blue", "green"]
    games = [new_game_of(api, emails, colours) for _ in range(2)]
    for seed, game_id in enumerate(games):
        play_out(app, game_id, seed=seed + 7)
    going = new_game_of(api, emails, colours)
    return emails, games, going


def test_a_players_page_lists_each_game_they_are_in_now_once_kept_or_drawn(
    app, api, client, two_finished
):
    emails, _games, going = two_finished
    later = new_game_of(api, emails[1:] + emails[:1], ["red", "blue", "green"])  # Ann: green
    ann = ids_of(app, emails)[0]
    for _ in range(2):  # drawn and kept, then read kept beside the games going
        doc = parse(client.get(f"/players/{ann}").get_data(as_text=True))
        shown = doc.find("ul", cls="current-games").find_all("li", data_game=True)
        assert [li.get("data-game") for li in shown] == [str(going), str(later)]
        assert [li.text[li.text.rindex("(") :] for li in shown] == [
            "(active: red)",
            "(active: green)",
        ]
    assert client.get("/players/999999").status_code == 404


def test_a_players_page_shows_their_rating_history_games_and_cards(app, api, client, two_finished):
    emails, games, going = two_finished
    ann = ids_of(app, emails)[0]
    html = client.get(f"/players/{ann}").get_data(as_text=True)
    doc = parse(html)
    with app.app_context():
        record = ratings.player_record(ann)
        played = ratings.player_games(ann)
        cards = ratings.card_stats(ann)
    assert doc.find("h1").text == record["name"]
    shown = doc.find("dd", cls="rating")
    assert float(shown.get("data-ordinal")) == pytest.approx(record["rating"]["ordinal"], abs=1e-3)
    assert (
        f"{record['rating']['ordinal']:.1f}" in shown.text
        and "provisional: 2 rated games" in shown.text
    )
    # The chart: the rating before the first game, then after each.
    points = doc.find("polyline", cls="rating-line").get("points").split()
    assert len(points) == 3
    rows = doc.find("table", cls="finished-games").find_all("tr", data_game=True)
    assert [int(r.get("data-game")) for r in rows] == [g["id"] for g in played["finished"]]
    assert sorted(int(r.get("data-game")) for r in rows) == sorted(games)
    changes = [float(r.find("td", cls="change").get("data-change")) for r in rows]
    assert changes == pytest.approx([g["rating_change"] for g in played["finished"]], abs=1e-3)
    assert [li.get("data-game") for li in doc.find_all("li", data_game=True)] == [str(going)]
    stats = doc.find("table", cls="card-stats").find_all("tr", data_card=True)
    assert [r.get("data-card") for r in stats] == [c["card"] for c in cards]
    assert sum(int(r.find_all("td")[1].text) for r in stats) == 12  # two 6-round games
    assert "%" in doc.find("dd", cls="reliability").text
    # Nothing private: no address anywhere on it.
    assert not any(e in html for e in emails) and "@" not in html


def test_a_players_page_in_every_language_writes_numbers_its_way(app, client, two_finished):
    emails, _games, _going = two_finished
    ann = ids_of(app, emails)[0]
    with app.app_context():
        ordinal = ratings.player_record(ann)["rating"]["ordinal"]
    titles = set()
    for language in LANGUAGES:
        answer = client.get(f"/players/{ann}", headers={"Accept-Language": language})
        doc = parse(answer.get_data(as_text=True))
        number = doc.find("dd", cls="rating").find("strong").text
        comma = language in ("de", "fr", "it", "es", "ru")
        assert number == f"{ordinal:.1f}".replace(".", "," if comma else "."), language
        titles.add(doc.find("h2", id="finished-title").text)
    assert len(titles) == len(LANGUAGES)  # each language its own words


def test_a_house_bot_and_a_missing_player(app, api, client):
    emails = people(api, 1) + ["bot", "bot"]
    game_id = new_game_of(api, emails, ["red", "blue", "green"], bots=("blue", "green"))
    with app.app_context():
        bot_id = db.session.execute(
            sa.select(Seat.player_id).where(Seat.game_id == game_id, Seat.colour == "blue")
        ).scalar_one()
    doc = page(client, f"/players/{bot_id}")
    assert "never rated" in doc.find("main").text and doc.find("dd", cls="rating") is None
    missing = page(client, "/players/999999", 404)
    assert "There is no player 999999." in missing.text
    for bad in ("0", "x", "10001"):
        refused = page(client, f"/ratings?page={bad}", 404)
        assert "pages count from 1" in refused.text


def test_the_standings_page_best_first_filtered_by_players(app, api, client):
    emails = people(api, 3)
    ids = ids_of(app, emails)
    kept_rating(app, ids[0], 30.0, games_3=5)
    kept_rating(app, ids[1], 35.0, games_2=6)
    kept_rating(app, ids[2], 40.0, games_3=4)
    every = page(client, "/ratings").find("table", cls="standings").find_all("tr", data_player=True)
    assert [int(r.get("data-player")) for r in every] == [ids[1], ids[0]]
    assert [r.find_all("td")[2].text for r in every] == ["20.0", "15.0"]
    threes = page(client, "/ratings?players=3").find("table", cls="standings")
    assert [int(r.get("data-player")) for r in threes.find_all("tr", data_player=True)] == [ids[0]]
    current = page(client, "/ratings?players=3").find("a", aria_current="page")
    assert current.text == "3 players"
    assert "choose 2, 3, 4 or 5" in page(client, "/ratings?players=7", 404).text
    assert "Nobody has enough rated games yet." in page(client, "/ratings?players=4").text


def test_the_standings_show_a_game_rated_at_once(app, api, client):
    """The standings' page is kept by the newest rated result: a game rated since it was
    drawn makes it anew, in every language it was drawn in."""
    emails = people(api, 3)
    ids = ids_of(app, emails)
    for player_id, mu in zip(ids, (30.0, 31.0, 32.0), strict=True):
        kept_rating(app, player_id, mu, games_3=5)

    def shown(language: str = "en") -> dict[int, str]:
        response = client.get("/ratings", headers={"Accept-Language": language})
        table = parse(response.get_data(as_text=True)).find("table", cls="standings")
        rows = table.find_all("tr", data_player=True)
        return {int(row.get("data-player")): row.find_all("td")[2].text for row in rows}

    before, before_in_german = shown(), shown("de")
    assert before == {ids[0]: "15.0", ids[1]: "16.0", ids[2]: "17.0"}
    assert before_in_german == {ids[0]: "15,0", ids[1]: "16,0", ids[2]: "17,0"}
    play_out(app, new_game_of(api, emails, ["red", "blue", "green"]), seed=7)
    with app.app_context():
        now_rated = {row["id"]: row["rating"]["ordinal"] for row in ratings.standings()["players"]}
    assert shown() == {player: f"{value:.1f}" for player, value in now_rated.items()} != before
    assert shown("de") == {
        player: f"{value:.1f}".replace(".", ",") for player, value in now_rated.items()
    }


def test_the_standings_show_a_new_name_at_once(app, api, client):
    """A person renamed through any node shows at the next look at the standings, on the
    page and through the API, though both were kept drawn before (no clock says when)."""
    emails = people(api, 3)
    ids = ids_of(app, emails)
    for player_id, mu in zip(ids, (30.0, 31.0, 32.0), strict=True):
        kept_rating(app, player_id, mu, games_3=5)

    def names_shown() -> tuple[dict[int, str], dict[int, str]]:
        table = page(client, "/ratings").find("table", cls="standings")
        on_page = {
            int(row.get("data-player")): row.find("a").text.strip("\u2068\u2069 \n")
            for row in table.find_all("tr", data_player=True)
        }
        answer = api.get("/api/ratings").get_json()["players"]
        return on_page, {p["id"]: p["name"] for p in answer}

    before = names_shown()
    assert before[0] == before[1] and "Samuel" not in before[0].values()
    token = sign_in_with_key(client, api.keys[emails[1]])
    answer = client.post("/me", data={"csrf_token": token, "action": "name", "name": "Samuel"})
    assert answer.status_code == 303
    after = names_shown()
    assert after[0] == after[1] == {**before[0], ids[1]: "Samuel"}


def test_a_finished_games_page_shows_each_persons_rating_change(app, client, two_finished):
    emails, games, _going = two_finished
    with app.app_context():
        results = ratings.game_results(games[0])
    final = page(client, f"/games/{games[0]}").find("section", cls="final-scoring")
    for colour, result in results.items():
        row = final.find("tr", data_colour=colour)
        assert row.find("a", cls="player").get("href") == f"/players/{result['player_id']}"
        change = row.find("td", cls="rating-change").text
        sign = "+" if result["rating_change"] >= 0 else "-"
        assert change.startswith(f"{sign}{abs(result['rating_change']):.1f}")
        assert change.endswith(f"{result['ordinal']:.1f}")


def test_a_games_page_and_the_open_games_show_records_beside_names(app, api, client):
    emails = people(api, 3)
    ids = ids_of(app, emails)
    game_id = new_game_of(api, emails, ["red", "blue", "green"])
    add_decisions(app, ids[0], game_id, ["in_time"] * 3 + ["timeout"])
    seated = page(client, f"/games/{game_id}").find("p", cls="seated")
    red = seated.find("span", cls="seat", data_colour="red")
    assert red.find("a", cls="player").get("href") == f"/players/{ids[0]}"
    assert "75% in time" in red.text and "rating 0.0?" in red.text
    blue = seated.find("span", cls="seat", data_colour="blue")
    assert "in time" not in blue.text  # no decision on record yet

    # A record changed with no move of this game, as another node's worker would change it
    # (rows written straight to the database): shown at the very next look, whatever the
    # clock says, for the records kept drawn are kept by what they are drawn from.
    add_decisions(app, ids[0], game_id, ["timeout"] * 4)
    kept_rating(app, ids[1], 40.0, games_3=6)
    seated = page(client, f"/games/{game_id}").find("p", cls="seated")
    assert "38% in time" in seated.find("span", cls="seat", data_colour="red").text
    assert "rating 25.0" in seated.find("span", cls="seat", data_colour="blue").text

    # A forming game asks a reliability of whoever joins its open seat; the list says so.
    token = sign_in_with_key(client, api.keys[emails[0]])
    body = {
        "title": "Picky",
        "seats": [
            {"email": emails[0], "colour": "red"},
            {"open": True, "colour": "blue"},
            {"bot": True, "colour": "green"},
        ],
        "forming": True,
        "join": {"min_reliability": 0.9},
    }
    made = api.client.post("/api/games", json=body, headers=api.auth(api.keys[emails[0]]))
    forming_id = made.get_json()["id"]
    listed = page(client, "/games/open").find("tr", data_game=str(forming_id))
    assert "Open to players who answer at least 90% of their decisions in time." in listed.text
    assert "38% in time" in listed.text  # the organiser's own record, beside their name
    joiner = app.test_client()
    joiner_token = sign_in_with_key(joiner, api.keys[emails[1]])
    refused = joiner.post(
        f"/games/{forming_id}/join", data={"csrf_token": joiner_token, "colour": "blue"}
    )
    assert refused.status_code == 403
    said = " ".join(parse(refused.get_data(as_text=True)).text.split())
    assert re.search(r"answer at least 90% of their decisions in time; you have no decisions", said)
    assert token
