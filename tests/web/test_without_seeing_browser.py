"""Playing without seeing the board, in Chromium against a real server: a power card and a
whole turn (planned, one step typed, one undone, then confirmed) with key presses alone;
the board page's accessibility tree (read through the DevTools protocol) holding every
place's caballeros by player as text and a name for every control; and a bot's move,
brought by the poll, announced once in the live region."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from engine import names as board_names
from engine.data import CASTILLO, REGIONS
from pbem.schedule.sweep import sweep
from tests.server.test_bot_seats import new_bot_game
from tests.web.helpers import seat_link_for, to_a_turn
from tests.web.test_pages_browser import by_css, live  # noqa: F401

pytestmark = pytest.mark.browser

#: What the focused element is, as the tests look for it.
FOCUSED = """
var e = document.activeElement;
return {tag: e.tagName, id: e.id || "", cls: (e.getAttribute("class") || ""),
        text: (e.textContent || "").trim().slice(0, 80), href: e.getAttribute("href") || "",
        value: e.getAttribute("value") || "", outline: getComputedStyle(e).outlineStyle,
        form: (e.form && e.form.getAttribute("class")) || "",
        outlineWidth: parseFloat(getComputedStyle(e).outlineWidth) || 0};
"""


def press(browser, *keys) -> None:
    """Key presses sent to whatever has the focus, as a keyboard sends them."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(*keys).perform()


def focused(browser) -> dict:
    return browser.execute_script(FOCUSED)


def tab_to(browser, wanted, most: int = 80) -> dict:
    """Press Tab until the focused element is `wanted` (a test of its description); fails if
    it takes more than `most` presses (the order would not be a sensible one)."""
    from selenium.webdriver.common.keys import Keys

    for _ in range(most):
        press(browser, Keys.TAB)
        now = focused(browser)
        if wanted(now):
            return now
    raise AssertionError(f"{most} presses of Tab never reached it; last: {focused(browser)}")


def enter_and_wait(browser) -> None:
    """Enter on the focused control, which loads a new page or shows a step in place (the
    game's <main> replaced); wait until it is all there."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.web.test_pages_browser import _attached

    old = (by_css(browser, "main.game-page") or by_css(browser, "html"))[0]
    press(browser, Keys.ENTER)
    WebDriverWait(browser, 10).until(
        lambda b: not _attached(old)
        and b.execute_script(
            "return document.readyState === 'complete' && "
            "!document.documentElement.classList.contains('stepping')"
        )
    )


def sign_in_by_keyboard(browser, app, game_id: int, colour: str) -> None:
    """Open the seat's link and press its Sign in button from the keyboard (signed in as
    another player: the button that goes on as the link's)."""
    browser.get(seat_link_for(app, game_id, colour))
    if by_css(browser, "form.seat-sign-in button"):
        tab_to(browser, lambda e: e["tag"] == "BUTTON" and "seat-sign-in" in e["form"])
        enter_and_wait(browser)
    elif by_css(browser, "form.account-choice button"):
        tab_to(browser, lambda e: e["tag"] == "BUTTON" and "continue-as-them" in e["cls"])
        enter_and_wait(browser)
    assert by_css(browser, "main.game-page"), browser.page_source[:500]


def to_your_move(browser) -> None:
    """The skip link to the seat's move, then Enter: the focus is then at the move."""
    from selenium.webdriver.common.keys import Keys

    if focused(browser)["id"] == "your-turn":
        return  # a step shown in place leaves the focus at the move
    tab_to(browser, lambda e: e["href"] == "#your-turn")
    press(browser, Keys.ENTER)
    assert focused(browser)["id"] == "your-turn"


def offered(browser) -> list[dict]:
    """The moves on the page's buttons in sight (not those in a list still closed)."""
    buttons = by_css(browser, "form.moves button")
    return [json.loads(b.get_attribute("value")) for b in buttons if b.is_displayed()]


def test_a_power_card_and_a_whole_turn_by_keyboard_alone(browser, live, app, api):  # noqa: F811
    game_id, keys = api.new_game(["red", "blue", "green"])
    first = api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    browser.set_window_size(1280, 900)
    sign_in_by_keyboard(browser, app, game_id, first)
    # A power card: the skip link, then Tab through the cards to 13, then Enter.
    to_your_move(browser)
    card = tab_to(browser, lambda e: e["tag"] == "BUTTON" and '"card":13' in e["value"], 20)
    assert card["outline"] == "solid" and card["outlineWidth"] >= 2, card  # the focus is seen
    enter_and_wait(browser)
    # Chosen, not played: the next Tab is Confirm.
    assert api.get(f"/api/games/{game_id}/log").get_json()["moves"] == []
    assert focused(browser)["id"] == "your-turn"
    tab_to(browser, lambda e: "confirm" in e["cls"], 3)
    enter_and_wait(browser)
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert log[0]["player"] == first and log[0]["move"] == {"type": "play_power_card", "card": 13}

    turn = to_a_turn(api, game_id, keys)
    seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
    sign_in_by_keyboard(browser, app, game_id, turn)
    planned: list[dict] = []
    typed = undone = False
    for _ in range(40):
        moves = offered(browser)
        if not moves:
            break
        ends = [m for m in moves if m["type"] == "end_turn"]
        move = ends[0] if ends and len(planned) >= 4 else moves[0]
        to_your_move(browser)
        if move["type"] == "choose_card" and not typed:
            # One step typed, as a mail writes it (the field's hint gives an example).
            field = tab_to(browser, lambda e: e["id"] == "typed-move", 200)
            assert field["tag"] == "INPUT"
            press(browser, f"card {move['card']}")
            typed = True
        else:
            tab_to(browser, lambda e, m=move: e["tag"] == "BUTTON" and _is(e["value"], m), 200)
        enter_and_wait(browser)
        steps = [li.text for li in by_css(browser, "section.plan ol.plan-steps li")]
        planned.append(move)
        assert len(steps) == len(planned) or by_css(browser, "section.plan .reveals"), steps
        if len(planned) == 2 and not undone:
            # Undo the last step from the keyboard, then choose it again.
            tab_to(browser, lambda e: "undo" in e["cls"], 200)
            enter_and_wait(browser)
            planned.pop()
            undone = True
            assert len(by_css(browser, "section.plan ol.plan-steps li")) == len(planned)
    assert typed and undone
    confirm = tab_to(browser, lambda e: "confirm" in e["cls"], 200)
    confirmed = json.loads(
        by_css(browser, "section.plan input[name=moves]")[0].get_attribute("value")
    )
    assert confirm["tag"] == "BUTTON" and confirmed[: len(planned)] == planned
    enter_and_wait(browser)
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert [e["move"] for e in log[seq : seq + len(confirmed)]] == confirmed
    assert {e["player"] for e in log[seq : seq + len(confirmed)]} == {turn}
    assert by_css(browser, "p.flash")[0].text.startswith("Played: ")


def _is(value: str, move: dict) -> bool:
    return bool(value) and json.loads(value) == move


def _planned_moves(browser) -> list[dict]:
    return [
        json.loads(b.get_attribute("value")) for b in by_css(browser, "[data-place-moves] button")
    ]


#: Every control a player changes the game with has one of these roles.
CONTROL_ROLES = {"button", "link", "textbox", "combobox", "checkbox", "radio", "spinbutton"}


def ax_nodes(browser) -> list[dict]:
    """The page's accessibility tree as Chromium builds it (the nodes a screen reader gets),
    without the ones it ignores."""
    browser.execute_cdp_cmd("Accessibility.enable", {})
    tree = browser.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    return [n for n in tree["nodes"] if not n.get("ignored")]


def _value(node: dict, field: str) -> str:
    return str((node.get(field) or {}).get("value", "")).strip()


def test_the_board_is_in_the_accessibility_tree_as_words(browser, live, app, api):  # noqa: F811
    game_id, keys = api.new_game(["red", "blue", "green"])
    turn = to_a_turn(api, game_id, keys)
    browser.set_window_size(1280, 900)
    sign_in_by_keyboard(browser, app, game_id, turn)
    # An action card planned: the places it may place in are then buttons on the map too.
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[turn]).get_json()
    card = next(m for m in legal["moves"] if m["type"] == "choose_card")
    query = urlencode({"seq": legal["seq"], "planned": "[]", "move": json.dumps(card)})
    browser.get(f"{live}/games/{game_id}/plan?{query}")
    assert by_css(browser, "section.plan ol.plan-steps li")
    # Choosing the card moves no caballero: the board is the game's as it is.
    view = api.get(f"/api/games/{game_id}", keys[turn]).get_json()
    nodes = ax_nodes(browser)
    by_id = {n["nodeId"]: n for n in nodes}
    names = {c: c for c in view["colours"]}  # the colours' English names are their ids
    # The table's column heads: a place, then each player's colour by name.
    heads = [_value(n, "name") for n in nodes if _value(n, "role") == "columnheader"]
    assert heads[0] == "Where" and [h.split()[-1] for h in heads[1:4]] == list(names.values())
    rows = {}
    for node in nodes:
        if _value(node, "role") != "row":
            continue
        cells = [by_id[c] for c in node.get("childIds", []) if c in by_id]
        if cells and _value(cells[0], "role") == "rowheader":
            rows[_value(cells[0], "name")] = [_value(c, "name") for c in cells[1:]]
    place_names = {p: board_names.place_name(p, "en") for p in (*REGIONS, CASTILLO)}
    for place, name in place_names.items():
        seen = view["castillo"] if place == CASTILLO else view["regions"][place]
        found = next(
            (cells for row, cells in rows.items() if row.casefold() == name.casefold()), None
        )
        assert found is not None, (name, sorted(rows))
        counts = [str(seen["caballeros"].get(c, 0)) for c in view["colours"]]
        assert found[: len(counts)] == counts, (name, found, counts)
    for key in ("court", "province"):
        row = next(cells for label, cells in rows.items() if label.casefold() == key)
        assert row[:3] == [str(view["players"][c][key]) for c in view["colours"]]
    # Every control that changes the game (or leads anywhere) has a name a reader hears.
    controls = [n for n in nodes if _value(n, "role") in CONTROL_ROLES]
    assert len([n for n in controls if _value(n, "role") == "button"]) >= 5
    unnamed = [(n["role"], n.get("backendDOMNodeId")) for n in controls if not _value(n, "name")]
    assert not unnamed, unnamed
    # The map's places one may play are buttons named by what they show, the place's name
    # first (then its scoreboard and pieces): each place the plan may place in.
    playable = {
        place_names[p]
        for p in {m.get("to", m.get("region")) for m in _planned_moves(browser)}
        if p in place_names
    }
    buttons = [_value(n, "name") for n in controls if _value(n, "role") == "button"]
    on_map = {name for name in playable if any(b.startswith(name + " ") for b in buttons)}
    assert playable and on_map == playable, (playable, buttons)


def test_a_bots_move_brought_by_the_poll_is_announced_once(browser, live, app, api):  # noqa: F811
    from selenium.webdriver.support.ui import WebDriverWait

    game, key = new_bot_game(api, options={"first_player": "red"}, level="greedy")
    game_id = game["id"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", key).get_json()
    assert api.post_moves(game_id, key, [legal["moves"][0]], legal["seq"]).status_code == 201
    browser.set_window_size(1280, 900)
    sign_in_by_keyboard(browser, app, game_id, "red")
    # Every change of the live region's words, as a screen reader would be told them.
    browser.execute_script(
        """window.told = [];
        var live = document.querySelector("p.live");
        new MutationObserver(function () { window.told.push(live.textContent); })
          .observe(live, {childList: true, characterData: true, subtree: true});"""
    )
    seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
    with app.app_context():
        sweep()  # the bots play their power cards
    after = api.get(f"/api/games/{game_id}", key).get_json()["seq"]
    assert after > seq
    log = api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]
    bots = log[seq:after]
    assert bots and all(e["player"] != "red" for e in bots)
    names = {s["colour"]: s["name"] for s in game["seats"]}
    said = [f"{names[e['player']]}: " for e in bots]

    def all_told(b) -> bool:
        return all(line in "\n".join(b.execute_script("return window.told;")) for line in said)

    # The poll may come between two bots' moves: then each is told in its own announcement.
    WebDriverWait(browser, 15).until(all_told)
    # Six more polls (every 0.5 s in the tests), each answered 304 as nothing moved: nothing
    # is said again.
    polls = (
        "return performance.getEntriesByType('resource').filter("
        "function (r) { return /\\/seq$/.test(r.name); }).length;"
    )
    then = browser.execute_script(polls)
    WebDriverWait(browser, 20).until(lambda b: b.execute_script(polls) >= then + 6)
    told = browser.execute_script("return window.told;")
    assert 1 <= len(told) <= len(bots), told
    assert all(t.startswith("Just played:") for t in told), told
    for line in said:  # each bot's move once, in one announcement
        assert "\n".join(told).count(line) == said.count(line), (line, told)
