"""The game page's explanations as Chromium shows them against a real server: a Veto window's
plan beside its choices, every face-up action card's text, each deadline in the reader's
time zone, and a scoring's breakdown opened from the log."""

from __future__ import annotations

import json
import random
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from babel.dates import get_day_names

from pbem import words
from pbem.extensions import db
from pbem.store.models import Move
from tests.server.helpers import step_randomly
from tests.web.helpers import open_seat_link
from tests.web.test_pages_browser import by_css, click_and_wait, live  # noqa: F401

pytestmark = pytest.mark.browser


def to_a_veto_window(api, rng: random.Random) -> tuple[int, dict, dict]:
    """A five-player game played at random until a seat is offered a Veto window: its id,
    keys, and that decision as the game's view gives it. A game's seed is drawn at random
    and some games never offer one: up to 40 games are tried (10 once all went without)."""
    colours = ["red", "yellow", "green", "blue", "brown"]
    for _ in range(40):
        game_id, keys = api.new_game(colours)
        for _ in range(600):
            view = api.get(f"/api/games/{game_id}").get_json()
            if view["status"] != "active":
                break
            window = next((p for p in view["pending"] if p["kind"] == "veto_window"), None)
            if window is not None:
                return game_id, keys, window
            colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
            legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
            api.post_moves(game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"])
    raise AssertionError("no Veto window came up in 40 games")


def test_a_veto_window_shows_its_plan_beside_the_choices(browser, live, app, api):  # noqa: F811
    game_id, keys, window = to_a_veto_window(api, random.Random(5))
    colour = window["player"]
    names = {c: c.title() for c in keys}  # as api.new_game registers them
    open_seat_link(browser, app, game_id, colour)
    # The plan in numbered steps, in the words the mail uses, above the choices.
    guide = [p.text for p in by_css(browser, "form.moves p.guide")]
    assert guide == words.veto_guide(window, names, colour)
    steps = [line for line in guide if line[:1].isdigit()]
    assert [int(line.split(".")[0]) for line in steps] == [s["step"] for s in window["plan"]]
    buttons = {
        b.text: json.loads(b.get_attribute("value")) for b in by_css(browser, "form.moves button")
    }
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()

    def canonical(moves):
        return sorted(json.dumps(m, sort_keys=True) for m in moves)

    assert canonical(buttons.values()) == canonical(legal["moves"])
    assert {"type": "allow"} in buttons.values()
    vetoes = sorted(m["from_step"] for m in buttons.values() if m["type"] == "veto")
    assert vetoes == [s["step"] for s in window["plan"]][: len(vetoes)] and vetoes
    # A Veto answer is chosen, shown as chosen, and played once confirmed.
    allow = next(
        b for b in by_css(browser, "form.moves button") if "allow" in b.get_attribute("value")
    )
    click_and_wait(browser, allow)
    assert len(api.get(f"/api/games/{game_id}/log").get_json()["moves"]) == legal["seq"]
    assert "Your choice: not played yet" in by_css(browser, "section.plan")[0].text
    click_and_wait(browser, by_css(browser, "section.plan button.confirm")[0])
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert log[legal["seq"]]["move"] == {"type": "allow"} and log[legal["seq"]]["player"] == colour


def test_words_to_the_table_say_when_in_the_readers_time_zone(browser, live, app, api):  # noqa: F811
    game_id, keys = api.new_game(["red", "blue", "green"])
    said = api.client.post(
        f"/api/games/{game_id}/messages", json={"text": "Hola"}, headers=api.auth(keys["red"])
    )
    assert said.status_code == 201
    moment = datetime.fromisoformat(said.get_json()["created_at"])
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    try:
        open_seat_link(browser, app, game_id, "blue")
        (time,) = by_css(browser, "ol.talk time[data-local]")
        tokyo = moment.astimezone(ZoneInfo("Asia/Tokyo"))
        assert datetime.fromisoformat(time.get_attribute("datetime")) == moment
        # An English page writes the hour on a 12-hour clock (05:00 PM), whatever the hour
        # the test runs at.
        assert f"{tokyo.day}" in time.text and f"{tokyo:%I:%M}" in time.text, time.text
        assert tokyo.strftime("%p") in time.text, time.text
        assert "GMT+9" in time.text and "UTC" not in time.text, time.text
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})


def test_cards_deadlines_and_a_scoring_as_chromium_shows_them(browser, live, app, api):  # noqa: F811
    game_id, keys = api.new_game(["red", "blue", "green"])
    rng = random.Random(9)
    # On until a move has scored (a card's scoring or a round's end), the game still going.
    for _ in range(40):
        step_randomly(api, game_id, keys, rng, 10)
        log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
        if any(ev["type"] == "score" for e in log for ev in e["events"]):
            break
    view = api.get(f"/api/games/{game_id}").get_json()
    # The reader is in Tokyo: each deadline is written in their time, not the server's.
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    try:
        browser.get(f"{live}/games/{game_id}")
        times = by_css(browser, "time[data-deadline]")
        assert len(times) == len(view["deadlines"]) >= 1
        for time, due in zip(times, view["deadlines"], strict=True):
            tokyo = datetime.fromisoformat(due["due"]).astimezone(ZoneInfo("Asia/Tokyo"))
            shown = datetime.fromisoformat(time.get_attribute("data-deadline"))
            assert shown == datetime.fromisoformat(due["due"])
            assert f"{tokyo.day}" in time.text and "GMT+9" in time.text, time.text
        # In the page's language, not the browser's.
        browser.get(f"{live}/language/de")
        browser.get(f"{live}/games/{game_id}")
        german = get_day_names("abbreviated", locale="de").values()
        for time in by_css(browser, "time[data-deadline]"):
            assert any(day in time.text for day in german), time.text
    finally:
        browser.get(f"{live}/language/en")
        browser.get(f"{live}/games/{game_id}")
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
    # Every face-up action card says what it does, in the words of the rules page.
    cards = by_css(browser, ".panel [data-card]")
    shown = view["action_cards"]["face_up"] + view["action_cards"]["taken"]
    assert sorted(c.get_attribute("data-card") for c in cards) == sorted(c["card"] for c in shown)
    for card in cards:
        assert words.CARD_TEXTS[card.get_attribute("data-card")] in card.text
    # A scoring opens from the log to its breakdown: the engine's score events in words.
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    scored = next(e for e in log if any(ev["type"] == "score" for ev in e["events"]))
    browser.get(f"{live}/games/{game_id}?seq={scored['seq']}")
    details = by_css(browser, f'details[data-scoring="{scored["seq"]}"]')[0]
    assert not details.find_elements("css selector", "li")[0].is_displayed()
    details.find_elements("css selector", "summary")[0].click()
    lines = [li.text for li in details.find_elements("css selector", "li")]
    # The move's events as stored (the API's JSON sorts the keys of a reveal's picks; the
    # page keeps the engine's order).
    with app.app_context():
        query = db.select(Move.events).where(Move.game_id == game_id, Move.seq == scored["seq"])
        events = db.session.execute(query).scalar_one()
        db.session.remove()
    events = [e for e in events if e["type"] in ("score", "castillo_revealed")]
    assert lines == words.event_lines(events, {c: c.title() for c in keys}, None) and lines
