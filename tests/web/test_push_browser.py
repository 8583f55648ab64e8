"""/me's notifications in Chromium: the page registers its service worker with the site's
root as its scope, and the button runs the subscribe flow to its end: subscribed and stored
where the browser has a push service, else a sentence saying it could not. Headless
Chromium has no push service to reach here, so `pushManager.subscribe` fails in it; what is
checked then is the flow up to there and the sentence the page shows. The screenshots of the
section (docs/web-me-push.png, docs/web-me-push-phone.png) are taken as it stands."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.store.models import PushSubscription
from tests.web.helpers import open_seat_link
from tests.web.test_pages_browser import by_css, live  # noqa: F401 (the live server fixture)

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"


def said(browser) -> str:
    from selenium.webdriver.support.ui import WebDriverWait

    asking = by_css(browser, "#push")[0].get_attribute("data-asking")
    WebDriverWait(browser, 20).until(
        lambda b: (by_css(b, "#push")[0].get_attribute("data-said") or asking) != asking
    )
    return by_css(browser, "#push-status")[0].text


def test_me_registers_its_worker_and_the_button_subscribes_or_says_why_not(
    browser,
    live,  # noqa: F811 (the fixture imported above)
    app,
    api,
):
    from selenium.webdriver.support.ui import WebDriverWait

    game_id, _ = api.new_game(["red", "blue", "green"])
    open_seat_link(browser, app, game_id, "red")
    browser.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": live, "permissions": ["notifications"]}
    )
    browser.set_window_size(1366, 900)
    browser.get(f"{live}/me#push-title")
    WebDriverWait(browser, 20).until(
        lambda b: by_css(b, "#push")[0].get_attribute("data-registered")
    )
    assert by_css(browser, "#push")[0].get_attribute("data-registered") == f"{live}/"
    scope = browser.execute_async_script(
        "var done = arguments[0];"
        "navigator.serviceWorker.ready.then(function (r) {"
        " done([r.scope, r.active && r.active.scriptURL]); });"
    )
    assert scope == [f"{live}/", f"{live}/push-worker.js"]
    browser.execute_script("document.getElementById('push').dataset.wait = '3';")
    by_css(browser, "#push-subscribe")[0].click()
    sentence = said(browser)
    with app.app_context():
        kept = db.session.scalars(sa.select(PushSubscription.endpoint)).all()
    if by_css(browser, "#push")[0].get_attribute("data-subscribed") == "true":
        assert sentence.startswith("This device is notified from now on") and len(kept) == 1
    else:  # headless Chromium: its subscribe() waits for a push service it cannot reach
        silent = "This browser's push service does not answer, so it cannot notify you now"
        refused = "This browser could not subscribe to notifications ("
        assert sentence.startswith((silent, refused)), sentence
        assert kept == []
    section = by_css(browser, "#push")[0]
    browser.execute_script("arguments[0].scrollIntoView();", section)
    section.screenshot(str(DOCS / "web-me-push.png"))
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        browser.get(f"{live}/me#push-title")
        assert browser.execute_script("return document.documentElement.scrollWidth") == 390
        browser.execute_script("document.getElementById('push').dataset.wait = '3';")
        by_css(browser, "#push-subscribe")[0].click()
        said(browser)
        section = by_css(browser, "#push")[0]
        browser.execute_script("arguments[0].scrollIntoView();", section)
        section.screenshot(str(DOCS / "web-me-push-phone.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_browser_that_blocks_notifications_is_told_so(browser, live, app, api):  # noqa: F811
    game_id, _ = api.new_game(["red", "blue"])
    open_seat_link(browser, app, game_id, "red")
    browser.execute_cdp_cmd(
        "Browser.setPermission",
        {"origin": live, "permission": {"name": "notifications"}, "setting": "denied"},
    )
    try:
        browser.get(f"{live}/me#push-title")
        blocked = "Notifications from this site are blocked in this browser"
        assert by_css(browser, "#push-status")[0].text.startswith(blocked)
        by_css(browser, "#push-subscribe")[0].click()
        assert said(browser).startswith(blocked)
    finally:
        browser.execute_cdp_cmd("Browser.resetPermissions", {})
