"""axe-core (from the npm registry) on the pages people use, in Chromium against a real
server: the home page signed out and in, signing in, the rules, a game page signed out and
as a seat with moves to make (the map's places are then buttons), an intrigue under way,
a turn being planned, a game that teaches (its lesson and the Hint button), Learn to play,
and a finished game. No
serious or critical violation may be found."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from urllib.parse import urlencode

import pytest

from pbem.extensions import db
from pbem.game import players
from pbem.play import moderation
from tests.web.helpers import (
    game_with_an_intrigue,
    games_to_look_at,
    open_seat_link,
    seat_link_for,
    seat_player,
    to_a_turn,
)
from tests.web.test_pages_browser import live  # noqa: F401 (the served app, as a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm (.ci/run installs it)"),
]

RUN_AXE = """
var done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(function (result) {
  done(result.violations.map(function (v) {
    var nodes = v.nodes.map(function (n) { return n.target.join(" "); });
    return {id: v.id, impact: v.impact, nodes: nodes};
  }));
});
"""


@pytest.fixture(scope="module")
def axe_source(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("axe")
    subprocess.run(
        ["npm", "install", "--silent", "--no-audit", "--no-fund", "axe-core@4"],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return (folder / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


def _tournament(api) -> int:
    """A tournament of three under way, its first round drawn."""
    from tests.server.test_ratings import people

    organiser, *entrants = people(api, 4)
    body = {"title": "Axe cup", "table_size": 3, "rounds": 2, "entry": {"most": 3}}
    made = api.client.post("/api/tournaments", json=body, headers=api.auth(api.keys[organiser]))
    for email in entrants:
        api.client.post(
            f"/api/tournaments/{made.get_json()['id']}/entries", headers=api.auth(api.keys[email])
        )
    return int(made.get_json()["id"])


def violations(browser, url: str, axe_source: str) -> list[dict]:
    browser.get(url)
    browser.execute_script(axe_source)
    browser.set_script_timeout(60)
    found = browser.execute_async_script(RUN_AXE)
    return [v for v in found if v["impact"] in ("serious", "critical")]


def test_no_serious_or_critical_violation_on_the_pages(browser, live, app, api, axe_source):  # noqa: F811
    game_id, keys, finished_id, _finished_keys, player_id = games_to_look_at(api)
    pending = api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    # An intrigue under way: the places its caballeros may leave are buttons on the map.
    intrigue_id, _, intrigue_colour, _ = game_with_an_intrigue(api, random.Random(7))
    turn_id, turn_keys = api.new_game(["red", "blue", "green"])
    turn = to_a_turn(api, turn_id, turn_keys)
    legal = api.get(f"/api/games/{turn_id}/legal-moves", turn_keys[turn]).get_json()
    plan = urlencode({"seq": legal["seq"], "move": json.dumps(legal["moves"][0])})
    # A game that teaches: its first decision's lesson and the Hint button beside the moves.
    learn_id, _learn_keys = api.new_game(
        ["red", "blue", "green"], options={"rounds": 6, "learn": True, "hints": True}
    )
    learner = api.get(f"/api/games/{learn_id}").get_json()["pending"][0]["player"]
    pages = {
        "home": f"{live}/",
        "sign-in": f"{live}/sign-in",
        "rules": f"{live}/rules",
        "game, signed out": f"{live}/games/{game_id}",
        "finished game": f"{live}/games/{finished_id}",
        "a player's page": f"{live}/players/{player_id}",
        "the ratings": f"{live}/ratings",
        "a seat's link, asking": seat_link_for(app, game_id, pending),
        "game, as a seat": f"{live}/games/{game_id}?colour={pending}",
        "home, signed in": f"{live}/",
        "your page": f"{live}/me",
        "a new game": f"{live}/games/new",
        "games that need players": f"{live}/games/open",
        "an intrigue under way": f"{live}/games/{intrigue_id}?colour={intrigue_colour}",
        "a turn's seat": f"{live}/games/{turn_id}?colour={turn}",
        "a turn being planned": f"{live}/games/{turn_id}/plan?{plan}",
        # Still as the turn's seat: another's page (its Block), a report, the operator's queue.
        "another's page, signed in": f"{live}/players/{player_id}",
        "a report": f"{live}/report?kind=name&id={player_id}&next=/",
        "the operator's queue": f"{live}/operator",
        "the tournaments": f"{live}/tournaments",
        "a new tournament": f"{live}/tournaments/new",
        "a tournament under way": f"{live}/tournaments/{_tournament(api)}",
        "a game that teaches, as its seat": f"{live}/games/{learn_id}?colour={learner}",
        "learn to play": f"{live}/learn",
    }
    with app.app_context():
        moderation.set_operator(str(seat_player(app, turn_id, turn)), True)
        moderation.report(
            players.find_player(seat_player(app, turn_id, turn)), "name", player_id, ""
        )
        db.session.commit()
        db.session.remove()
    # Signed in to these seats (by the link's button) just before each is read.
    seats = {
        "game, as a seat": (game_id, pending),
        "an intrigue under way": (intrigue_id, intrigue_colour),
        "a turn's seat": (turn_id, turn),
        "a game that teaches, as its seat": (learn_id, learner),
    }
    found = {}
    for name, url in pages.items():
        if name in seats:
            open_seat_link(browser, app, *seats[name])
        found[name] = violations(browser, url, axe_source)
        if name == "game, as a seat":
            assert browser.find_elements("css selector", "form.moves button"), "it has moves"
        if name == "a turn being planned":
            assert browser.find_elements("css selector", "section.plan button.confirm")
        if name == "another's page, signed in":
            assert browser.find_elements("css selector", "section.keep-apart button")
        if name == "a game that teaches, as its seat":
            assert browser.find_elements("css selector", "section.lesson h3")
            assert browser.find_elements("css selector", "section.hint-box button")
        if name == "the operator's queue":
            assert browser.find_elements("css selector", "section.report-card form.moderate")
    assert found == dict.fromkeys(pages, []), found
