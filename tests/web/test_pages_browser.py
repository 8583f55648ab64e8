"""The pages in Chromium against a real server (werkzeug in a thread, the test database):
the board matches the API's view, a turn is played by clicking, the replay steps back and
forth and shows what the API's states show."""

from __future__ import annotations

import json
import threading

import pytest
from werkzeug.serving import make_server

from engine.data import CASTILLO, REGIONS
from tests.web.helpers import open_seat_link

pytestmark = pytest.mark.browser


@pytest.fixture
def live(app):
    """The app served on a free port of 127.0.0.1; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    app.config["PBEM_BASE_URL"] = base
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base
    finally:
        server.shutdown()
        thread.join(timeout=10)


def by_css(browser, selector):
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, selector)


def counts_on_page(browser, place: str) -> dict[str, int]:
    stacks = by_css(browser, f'svg [data-place="{place}"] [data-count]')
    return {s.get_attribute("data-colour"): int(s.get_attribute("data-count")) for s in stacks}


def assert_board_is(browser, view) -> None:
    regions = by_css(browser, "svg.board [data-region]")
    assert sorted(r.get_attribute("data-region") for r in regions) == sorted(REGIONS)
    assert len(by_css(browser, f'svg.board [data-place="{CASTILLO}"]')) == 1
    for place in (*REGIONS, CASTILLO):
        seen = view["castillo"] if place == CASTILLO else view["regions"][place]
        assert counts_on_page(browser, place) == {
            c: n for c, n in seen["caballeros"].items() if n
        }, place


def click_and_wait(browser, element) -> None:
    """Click something that loads a new page, or on a game's page a step shown in place (the
    game's <main> replaced, `board.js`), and wait for it."""
    from selenium.webdriver.support.ui import WebDriverWait

    old = (by_css(browser, "main.game-page") or by_css(browser, "html"))[0]
    element.click()
    WebDriverWait(browser, 10).until(lambda b: not _attached(old))
    # The new page replaced the old one; wait until it is all there, not part-parsed (on a
    # busy machine a read right away can find half the document).
    WebDriverWait(browser, 10).until(
        lambda b: b.execute_script("return document.readyState") == "complete"
    )


def _attached(element) -> bool:
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    try:
        element.tag_name  # noqa: B018  (touching it tells whether the page was replaced)
        return True
    except StaleElementReferenceException:
        return False
    except WebDriverException as error:
        # Chromium answers a node touched while its page is being replaced with an inspector
        # error rather than a stale reference: the node is gone all the same.
        if "does not belong to the document" in str(error):
            return False
        raise


def clickable_place(browser) -> str:
    """A place the map offers with a single placing move (a click there plans it)."""
    single = [
        g.get_attribute("data-place-moves")
        for g in by_css(browser, "[data-place-moves]")
        if len(g.find_elements("css selector", "button")) == 1 and "place in" in g.text
    ]
    assert single, "no place to click with a single placing move"
    return single[0]


def shown_seq(browser) -> int:
    return int(by_css(browser, "nav.replay")[0].get_attribute("data-shown"))


def test_play_a_turn_by_clicking_and_step_through_it(browser, live, app, api, monkeypatch):
    colours = ["red", "blue", "green"]
    # One fixed game, so the turn's card (and so the places to click) is the same each run.
    monkeypatch.setattr("pbem.play.lifecycle.secrets.randbits", lambda bits: 12345)
    game_id, keys = api.new_game(colours)
    url = f"{live}/games/{game_id}"

    # Everyone plays a power card with its button, each signed in by their seat's link.
    for _ in colours:
        view = api.get(f"/api/games/{game_id}").get_json()
        colour = view["pending"][0]["player"]
        open_seat_link(browser, app, game_id, colour)
        assert browser.current_url == f"{url}?colour={colour}"
        assert_board_is(browser, api.get(f"/api/games/{game_id}", keys[colour]).get_json())
        button = by_css(browser, "form.moves button.power-card")[0]
        card = int(button.get_attribute("data-card"))
        click_and_wait(browser, button)  # chosen, shown as chosen: then confirmed
        assert api.get(f"/api/games/{game_id}").get_json()["seq"] == view["seq"]
        click_and_wait(browser, by_css(browser, "section.plan button.confirm")[0])
        assert "Played: power card" in by_css(browser, "p.flash")[0].text
        after = api.get(f"/api/games/{game_id}", keys[colour]).get_json()
        assert after["seq"] == view["seq"] + 1 and after["players"][colour]["power_card"] == card

    # The first turn, planned before it is played: take caballeros, choose an action card,
    # place one by clicking the map, undo that, place it again, then confirm.
    view = api.get(f"/api/games/{game_id}").get_json()
    colour = view["pending"][0]["player"]
    open_seat_link(browser, app, game_id, colour)
    before = api.get(f"/api/games/{game_id}", keys[colour]).get_json()
    take = [b for b in by_css(browser, "form.moves button") if "to court" in b.text]
    click_and_wait(browser, take[-1])
    click_and_wait(browser, by_css(browser, "form.moves .action-cards button")[0])
    assert len(by_css(browser, "section.plan ol.plan-steps li")) == 2
    place = clickable_place(browser)
    seen = before["castillo"] if place == CASTILLO else before["regions"][place]

    def click_place() -> dict:
        shape = by_css(browser, f'svg.board [data-place="{place}"]')[0]
        assert "playable" in shape.get_attribute("class")
        click_and_wait(browser, by_css(browser, f'svg.board [data-place="{place}"] .place-name')[0])
        planned = json.loads(
            by_css(browser, 'section.plan input[name="moves"]')[0].get_attribute("value")
        )
        dry = api.post_moves(game_id, keys[colour], planned, before["seq"], dry_run=True)
        # The board shows the game as it would be; the game itself has not moved.
        assert_board_is(browser, dry.get_json()["view"])
        assert api.get(f"/api/games/{game_id}").get_json()["seq"] == before["seq"]
        return dry.get_json()

    click_place()
    assert len(by_css(browser, "section.plan ol.plan-steps li")) == 3
    click_and_wait(browser, by_css(browser, "section.plan a.undo")[0])
    assert len(by_css(browser, "section.plan ol.plan-steps li")) == 2
    assert_board_is(browser, before)
    dry = click_place()
    click_and_wait(browser, by_css(browser, "section.plan button.confirm")[0])
    assert by_css(browser, "p.flash")[0].text.startswith("Played: ")
    after = api.get(f"/api/games/{game_id}", keys[colour]).get_json()
    now = after["castillo"] if place == CASTILLO else after["regions"][place]
    assert now["caballeros"][colour] == seen["caballeros"].get(colour, 0) + 1
    assert after["seq"] == before["seq"] + 3 == dry["seq"]
    assert {k: after[k] for k in dry["view"]} == dry["view"]
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"][before["seq"] :]
    assert [e["source"] for e in log] == ["web"] * 3
    assert_board_is(browser, after)

    # Step back and forth; each page is the API's state at its seq, for this viewer.
    last = after["seq"]

    def step(name: str) -> int:
        click_and_wait(browser, by_css(browser, f'nav.replay a[data-step="{name}"]')[0])
        seq = shown_seq(browser)
        state = api.get(f"/api/games/{game_id}/states/{seq}", keys[colour]).get_json()
        assert_board_is(browser, state)
        hand = [int(c.text) for c in by_css(browser, ".panel .hand .power-card-chip")]
        assert hand == state["players"][colour]["hand"]
        return seq

    assert step("previous-move") == last - 1
    assert step("previous-move") == last - 2
    assert step("next-move") == last - 1
    assert step("start") == 0
    assert not by_css(browser, 'nav.replay a[data-step="start"]')
    assert step("next-round") == last  # still the first round: next round is "now"
    assert step("previous-round") == 0
    assert step("now") == last
    assert by_css(browser, "form.moves")  # back at the present, the moves are offered again


def test_pages_keep_to_their_content_security_policy(browser, live, app, api):
    """Under the pages' CSP (this site's scripts and styles only), Chromium refuses nothing
    on the home, sign-in and board pages, and the chips keep their colours from the
    stylesheet. (The turn test above clicks the map, which needs the board's script.)"""
    game_id, _ = api.new_game(["red", "blue", "green"])
    colour = api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    browser.get_log("browser")  # what earlier tests left
    browser.get(f"{live}/sign-in")
    browser.get(f"{live}/")
    open_seat_link(browser, app, game_id, colour)
    refused = [
        entry["message"]
        for entry in browser.get_log("browser")
        if "Content Security Policy" in entry["message"] or "Refused" in entry["message"]
    ]
    assert refused == []
    chip = by_css(browser, f".panel .chip.c-{colour}")[0]
    background = browser.execute_script(
        "return getComputedStyle(arguments[0]).backgroundColor", chip
    )
    from pbem.web.board import COLOUR_FILLS

    fill = COLOUR_FILLS[colour]
    expected = tuple(int(fill[i : i + 2], 16) for i in (1, 3, 5))
    assert background == "rgb({}, {}, {})".format(*expected)


def test_an_open_page_follows_the_game_without_a_reload(browser, live, app, api):
    """A seat's page left open shows another seat's move within seconds, says what it was,
    and offers the seat its move once it is theirs, all without reloading the page."""
    from selenium.webdriver.support.ui import WebDriverWait

    colours = ["red", "blue", "green"]
    game_id, keys = api.new_game(colours)
    order = []
    view = api.get(f"/api/games/{game_id}").get_json()
    first = view["pending"][0]["player"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[first]).get_json()
    waiting = next(c for c in colours if c != first)
    open_seat_link(browser, app, game_id, waiting)
    browser.execute_script("window.notReloaded = true;")
    assert by_css(browser, "nav.replay")[0].get_attribute("data-last") == "0"
    move = next(m for m in legal["moves"] if m["card"] == 13)
    assert api.post_moves(game_id, keys[first], [move], legal["seq"]).status_code == 201
    order.append(first)
    WebDriverWait(browser, 15).until(
        lambda b: by_css(b, "nav.replay")[0].get_attribute("data-last") == "1"
    )
    live_text = by_css(browser, "p.live")[0].text
    name = first.title()
    assert f"{name}: power card 13" in live_text, live_text
    assert browser.execute_script("return window.notReloaded === true;")
    assert_board_is(browser, api.get(f"/api/games/{game_id}", keys[waiting]).get_json())
    assert by_css(browser, 'aside.log li[data-seq="1"]')


def test_an_intrigue_is_played_by_clicking_the_place_a_caballero_leaves(browser, live, app, api):
    import json
    import random

    from tests.web.helpers import game_with_an_intrigue

    game_id, keys, colour, shifts = game_with_an_intrigue(api, random.Random(6), clickable=True)
    open_seat_link(browser, app, game_id, colour)
    source = shifts[0]["from"]
    group = by_css(browser, f'details[data-shift-from="{source}"]')[0]
    assert group.get_attribute("open") is None
    # As a person clicks a region: on its name (the middle of the place's whole group may
    # lie over a neighbour's outline, irregular as regions are).
    by_css(browser, f'svg.board [data-place="{source}"] text.place-name')[0].click()
    assert group.get_attribute("open") is not None
    # Only that place's moves are on screen, each leaving it.
    shown = [b for b in by_css(browser, "details.shift-from button") if b.is_displayed()]
    assert shown and all(json.loads(b.get_attribute("value"))["from"] == source for b in shown)
    seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
    played = json.loads(shown[0].get_attribute("value"))
    shown_text = shown[0].get_attribute("title")
    click_and_wait(browser, shown[0])
    # Planned, not played: the plan says it, and Confirm plays it.
    steps = [li.text for li in by_css(browser, "section.plan ol.plan-steps li")]
    assert steps and steps[-1] == shown_text
    assert api.get(f"/api/games/{game_id}").get_json()["seq"] == seq
    click_and_wait(browser, by_css(browser, "section.plan button.confirm")[0])
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert len(log) == seq + 1 and log[-1]["move"] == played and log[-1]["source"] == "web"


def test_on_a_phone_the_board_is_readable_and_the_page_never_scrolls_sideways(
    browser, live, app, api
):
    """At 390x844 CSS px: no page wider than the screen; the map zoomed in (its box
    scrolls) shows piece letters and counts at least 10 px, region names at least 11."""
    import random

    from bench.phone_text import MEASURE, TEXTS
    from tests.server.helpers import play_random_game, step_randomly

    game_id, keys = api.new_game(["red", "blue", "green", "yellow"])
    step_randomly(api, game_id, keys, random.Random(3), 40)
    finished_id, finished_keys = api.new_game(["red", "blue", "green"], options={"rounds": 6})
    play_random_game(api, finished_id, finished_keys, random.Random(4))
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        widths = {}
        # The finished game first: its score chart once made the page 536 px wide.
        player_id = api.get("/api/players/me", finished_keys["red"]).get_json()["id"]
        paths = (
            f"/games/{finished_id}",
            f"/players/{player_id}",
            "/ratings",
            "/",
            "/rules",
            "/sign-in",
            "/games/open",
        )
        for path in (*paths, f"/games/{game_id}"):
            browser.get(f"{live}{path}")
            sizes = browser.execute_script(MEASURE, TEXTS)
            widths[path] = sizes["page"]
        assert widths == dict.fromkeys(widths, 390), widths
        # The whole map shows at once; zoomed in, its words are read at their own size.
        by_css(browser, ".board-zoom button")[0].click()
        sizes = browser.execute_script(MEASURE, TEXTS)
        # Text boxes are a little taller than the font: 11 px a box is 10 px a letter.
        assert sizes["piece letters"] >= 11 and sizes["stack counts"] >= 11, sizes
        assert sizes["region names"] >= 12, sizes
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_on_a_phone_the_calendar_link_on_me_wraps_and_a_press_makes_a_new_one(
    browser, live, app, api
):
    """/me at 390 px: the calendar's private link wraps inside the page (never sideways), and
    its button makes a new link, shown in the old one's place."""
    game_id, keys = api.new_game(["red", "blue", "green"])
    url = api.get("/api/players/me/calendar", keys["red"]).get_json()["url"]
    open_seat_link(browser, app, game_id, "red")
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        browser.get(f"{live}/me#calendar-title")
        assert by_css(browser, "section.calendar code")[0].text == url
        assert browser.execute_script("return document.documentElement.scrollWidth") == 390
        click_and_wait(browser, by_css(browser, "section.calendar button")[0])
        newer = by_css(browser, "section.calendar code")[0].text
        assert newer != url and newer.startswith(f"{live}/calendar/") and newer.endswith(".ics")
        assert browser.execute_script("return document.documentElement.scrollWidth") == 390
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_words_to_the_table_reach_an_open_page_and_what_is_typed_stays(browser, live, app, api):
    """Blue's page is open, with a reply half typed; red writes to the table from red's page:
    blue's page shows it within seconds, without a reload, and the half-typed reply is still
    there; blue sends it with the form, and red's page shows it."""

    from selenium.webdriver.support.ui import WebDriverWait

    from tests.web.helpers import follow_seat_link, page, seat_link_for
    from tests.web.html import parse

    game_id, keys = api.new_game(["red", "blue", "green"])
    open_seat_link(browser, app, game_id, "blue")
    browser.execute_script("window.notReloaded = true;")
    draft = by_css(browser, "#talk-text")[0]
    draft.send_keys("Not so fast")
    red = app.test_client()  # red at another browser: its own session, by its seat's link
    follow_seat_link(red, seat_link_for(app, game_id, "red"))
    form = page(red, f"/games/{game_id}").find("form", cls="talk")
    token = form.find("input", name="csrf_token").get("value")
    said = red.post(
        f"/games/{game_id}/messages", data={"csrf_token": token, "text": "I take <Castilla>"}
    )
    assert said.status_code == 303
    WebDriverWait(browser, 15).until(lambda b: by_css(b, "ol.talk li[data-message]"))
    (item,) = by_css(browser, "ol.talk li[data-message]")
    assert item.get_attribute("data-colour") == "red"
    assert item.find_element("css selector", ".words").text == "I take <Castilla>"
    # The name and the words each isolated (U+2068 ... U+2069), which show nothing.
    live = by_css(browser, "p.live")[0].text
    assert "At the table: \u2068Red\u2069: \u2068I take <Castilla>\u2069" in live, live
    assert browser.execute_script("return window.notReloaded === true;")
    assert by_css(browser, "#talk-text")[0].get_attribute("value") == "Not so fast"
    by_css(browser, "form.talk button[type=submit]")[0].click()
    WebDriverWait(browser, 10).until(lambda b: len(by_css(b, "ol.talk li[data-message]")) == 2)
    doc = parse(red.get(f"/games/{game_id}").get_data(as_text=True))
    shown = [li.find("span", cls="words").text for li in doc.find_all("li", data_message=True)]
    assert shown == ["I take <Castilla>", "Not so fast"]
