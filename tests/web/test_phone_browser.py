"""The board on a phone, in Chromium at 390x844 against a real server: a turn planned by
taps without the page reloading or the reader losing their place (Undo, Back and Confirm
too), the whole map at once with a zoom, a power card that is not played by its tap, and
controls large enough for a thumb; and every page 360 px wide with no sideways scroll."""

from __future__ import annotations

import json

import pytest

from tests.web.helpers import games_to_look_at, open_seat_link, to_a_turn
from tests.web.test_pages_browser import by_css, live  # noqa: F401

pytestmark = pytest.mark.browser

PHONE = (390, 844)


@pytest.fixture(autouse=True)
def desktop_again(browser):
    """The session's one browser back at its desktop size after each test here."""
    from pbem.snapshot import WINDOW

    yield
    browser.set_window_size(*WINDOW)


def wait(browser, test, seconds: float = 10):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, seconds).until(test)


def steps_on_page(browser) -> int:
    return len(by_css(browser, "section.plan ol.plan-steps li"))


def tap_in_place(browser, element, changed) -> float:
    """Bring `element` to the middle of the screen, tap it, wait until `changed()`; the
    scroll position before the tap."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    before = browser.execute_script("return window.scrollY;")
    element.click()
    wait(
        browser,
        lambda b: (
            changed()
            and not b.execute_script(
                "return document.documentElement.classList.contains('stepping');"
            )
        ),
    )
    return before


def still_here(browser) -> bool:
    """Whether the page loaded at the start is still this one (nothing reloaded it)."""
    return browser.execute_script("return window.sameDocument === true;")


def big_enough(browser, selector: str) -> list[tuple[str, float, float]]:
    """The controls matched, in sight, that are smaller than 44x44 CSS px."""
    small = []
    for element in by_css(browser, selector):
        if not element.is_displayed():
            continue
        rect = element.rect
        if rect["width"] < 44 or rect["height"] < 44:
            small.append((element.text, rect["width"], rect["height"]))
    return small


def test_a_turn_planned_by_taps_keeps_the_page_and_the_place(browser, live, app, api):  # noqa: F811
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = to_a_turn(api, game_id, keys)
    seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
    browser.set_window_size(*PHONE)
    open_seat_link(browser, app, game_id, colour)
    browser.execute_script("window.sameDocument = true;")
    assert not big_enough(browser, "form.moves button")
    planned: list[dict] = []
    far = []
    for _ in range(12):
        buttons = [b for b in by_css(browser, "form.moves button") if b.is_displayed()]
        if not buttons:
            break
        moves = [json.loads(b.get_attribute("value")) for b in buttons]
        ends = [i for i, m in enumerate(moves) if m["type"] == "end_turn"]
        pick = ends[0] if ends and len(planned) >= 3 else len(buttons) - 1
        count = steps_on_page(browser)
        before = tap_in_place(browser, buttons[pick], lambda c=count: steps_on_page(browser) != c)
        planned.append(moves[pick])
        after = browser.execute_script("return window.scrollY;")
        assert still_here(browser), "the step reloaded the page"
        assert abs(after - before) <= 50, (before, after)
        far.append(before)
        assert not big_enough(browser, "form.moves button, section.plan button")
        if len(planned) == 2:
            # Undo, in place; then Back in the browser's history undoes a step as well.
            count = steps_on_page(browser)
            undo = by_css(browser, "section.plan a.undo")[0]
            before = tap_in_place(browser, undo, lambda c=count: steps_on_page(browser) == c - 1)
            assert (
                still_here(browser)
                and abs(browser.execute_script("return window.scrollY;") - before) <= 50
            )
            planned.pop()
            browser.execute_script("history.back();")
            wait(browser, lambda b: steps_on_page(b) == len(planned) + 1 and still_here(b))
            browser.execute_script("history.forward();")
            wait(browser, lambda b: steps_on_page(b) == len(planned) and still_here(b))
    assert max(far) > 300, far  # the taps were well down the page, past the header
    confirm = by_css(browser, "section.plan button.confirm")[0]
    confirmed = json.loads(
        by_css(browser, "section.plan input[name=moves]")[0].get_attribute("value")
    )
    assert confirmed[: len(planned)] == planned
    before = tap_in_place(browser, confirm, lambda: bool(by_css(browser, "p.flash")))
    assert still_here(browser)
    assert by_css(browser, "p.flash")[0].text.startswith("Played: ")
    # In place, unless the shorter page (no choices left) ends above where the reader was.
    at_end = "return scrollY + innerHeight >= document.documentElement.scrollHeight - 2;"
    after = browser.execute_script("return window.scrollY;")
    assert abs(after - before) <= 50 or browser.execute_script(at_end), (before, after)
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert [e["move"] for e in log[seq:]][: len(confirmed)] == confirmed


def test_the_whole_map_shows_on_a_phone_and_zooms(browser, live, app, api):  # noqa: F811
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = to_a_turn(api, game_id, keys)
    browser.set_window_size(*PHONE)
    open_seat_link(browser, app, game_id, colour)
    width = browser.execute_script("return document.documentElement.clientWidth;")
    board = by_css(browser, "svg.board")[0]
    overview = board.rect
    assert overview["x"] >= 0 and overview["x"] + overview["width"] <= width, (overview, width)
    for piece in ("svg.board .king", 'svg.board [data-place="castillo"]'):
        rect = by_css(browser, piece)[0].rect
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= width, (piece, rect)
    region = by_css(browser, "svg.board [data-region]")[0]
    small = region.rect["width"]
    zoom_in, whole = by_css(browser, ".board-zoom button")
    assert not big_enough(browser, ".board-zoom button")
    zoom_in.click()
    wait(browser, lambda b: board.rect["width"] >= 2.5 * overview["width"])
    assert region.rect["width"] >= 2.5 * small
    assert zoom_in.get_attribute("aria-pressed") == "true"
    # The page does not scroll sideways: the map's box does.
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= width
    whole.click()
    wait(browser, lambda b: abs(board.rect["width"] - overview["width"]) < 1)


def test_a_tapped_power_card_waits_for_confirm(browser, live, app, api):  # noqa: F811
    game_id, keys = api.new_game(["red", "blue", "green"])
    first = api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    browser.set_window_size(*PHONE)
    open_seat_link(browser, app, game_id, first)
    browser.execute_script("window.sameDocument = true;")
    assert not big_enough(browser, "form.moves button.power-card")

    def card(number: int):
        return next(
            b
            for b in by_css(browser, "form.moves button.power-card")
            if b.get_attribute("data-card") == str(number)
        )

    tap_in_place(browser, card(11), lambda: steps_on_page(browser) == 1)
    assert api.get(f"/api/games/{game_id}/log").get_json()["moves"] == []  # nothing played
    box = by_css(browser, "section.plan")[0].text
    assert "Your choice: not played yet" in box and "11" in box, box
    tap_in_place(
        browser,
        by_css(browser, "section.plan a.undo")[0],
        lambda: not by_css(browser, "section.plan"),
    )
    assert api.get(f"/api/games/{game_id}/log").get_json()["moves"] == []
    tap_in_place(browser, card(13), lambda: steps_on_page(browser) == 1)
    tap_in_place(
        browser,
        by_css(browser, "section.plan button.confirm")[0],
        lambda: bool(by_css(browser, "p.flash")),
    )
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert [(e["player"], e["move"]) for e in log] == [
        (first, {"type": "play_power_card", "card": 13})
    ]
    assert still_here(browser)


def test_every_page_fits_a_phone_360_px_wide(browser, live, app, api):  # noqa: F811
    game_id, keys, finished_id, _finished_keys, player_id = games_to_look_at(api)
    browser.set_window_size(360, 740)
    signed_out = {
        "home": "/",
        "rules": "/rules",
        "sign-in": "/sign-in",
        "ratings": "/ratings",
        "a player": f"/players/{player_id}",
        "open games": "/games/open",
        "a game": f"/games/{game_id}",
        "a finished game": f"/games/{finished_id}",
    }
    wide = {}
    for name, path in signed_out.items():
        browser.get(live + path)
        wide[name] = _width(browser)
    open_seat_link(browser, app, game_id, "red")
    wide["a game, as a seat"] = _width(browser)
    for name, path in {"home, signed in": "/", "/me": "/me", "new game": "/games/new"}.items():
        browser.get(live + path)
        wide[name] = _width(browser)
    assert all(w <= 360 for w in wide.values()), wide


def _width(browser) -> int:
    return browser.execute_script("return document.documentElement.scrollWidth;")


def test_the_site_is_installable_as_an_app(browser, live, app, api, client):  # noqa: F811
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    manifest = answer.get_json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"]: icon["src"] for icon in manifest["icons"]}
    for size in ("192x192", "512x512"):
        icon = client.get(sizes[size])
        assert icon.status_code == 200 and icon.get_data()[:8] == b"\x89PNG\r\n\x1a\n"
    browser.set_window_size(*PHONE)
    browser.get(f"{live}/")
    browser.set_script_timeout(20)
    scope = browser.execute_async_script(
        "var done = arguments[0];"
        "navigator.serviceWorker.ready.then(function (r) { done(r.scope); });"
    )
    assert scope == f"{live}/"
    # Chromium's own verdict ("Add to home screen" offered): no installability error.
    found = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert found["installabilityErrors"] == [], found
    assert browser.execute_cdp_cmd("Page.getAppManifest", {}).get("errors") == []
