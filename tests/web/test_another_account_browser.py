"""A forwarded invitation in Chromium against a real server: Bob, signed in as himself,
opens the link of Carol's invitation mail. The page says whose link it is and asks; nothing
changes (he is still Bob, her seat not accepted) until he answers: "Stay" leaves all as it
was, "continue" signs him in as Carol and accepts her seat. The question's screenshots
(docs/web-link-for-another-account.png, docs/web-link-for-another-account-phone.png) are
taken as it stands."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from pbem.snapshot import screenshot
from tests.web.helpers import queued_mails, text_part
from tests.web.test_pages_browser import by_css, click_and_wait, live  # noqa: F401

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: The sizes the question is taken at: a laptop's and a phone's (CSS px).
DESKTOP, PHONE = (1280, 800), (390, 844)


def accepted(api, game_id: int, key: str, colour: str) -> bool:
    (game,) = [g for g in api.get("/api/games", key).get_json()["games"] if g["id"] == game_id]
    seats = game["seats"]
    return next(s for s in seats if s["colour"] == colour)["accepted"]


def signed_in_as(browser) -> str | None:
    found = by_css(browser, "header.site a.me")
    return found[0].text if found else None


def take(browser, name: str, size: tuple[int, int], mobile: bool) -> None:
    """The page as it stands, at `size`, into docs/ as `name`."""
    metrics = {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        browser.refresh()  # the GET asks again, and still changes nothing
        assert browser.execute_script("return document.documentElement.scrollWidth") == size[0]
        screenshot(browser, None, DOCS / name)
    finally:
        browser.execute_script("document.documentElement.style.overflow = ''")
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_forwarded_invitation_changes_nothing_until_asked_and_answered(
    browser,
    live,  # noqa: F811 (the fixture imported above)
    app,
    api,
):
    tag = uuid.uuid4().hex[:8]
    hana, bob, carol = (f"{n}-{tag}@example.org" for n in ("hana", "bob", "carol"))
    hana_key, bob_key = api.register(hana, "Hana"), api.register(bob, "Bob")
    api.register(carol, "Carol")
    seats = [{"colour": c, "email": e} for c, e in (("red", hana), ("blue", bob), ("green", carol))]
    body = {"title": "Friday friends", "forming": True, "seats": seats}
    game_id = api.client.post("/api/games", json=body, headers=api.auth(hana_key)).get_json()["id"]
    (mail,) = [text_part(m) for _, m in queued_mails(app, "invitation", recipient=carol)]
    accept = re.search(r"Accept the seat: (\S+)", mail)[1]
    link = f"{live}{urlsplit(accept).path}"

    # Bob signs in as himself, with his key.
    browser.get(f"{live}/sign-in")
    browser.delete_all_cookies()
    browser.get(f"{live}/sign-in")
    by_css(browser, ".sign-in-key input[name=api_key]")[0].send_keys(bob_key)
    click_and_wait(browser, by_css(browser, ".sign-in-key button[type=submit]")[0])
    assert signed_in_as(browser) == "Bob"

    # Carol's invitation, forwarded to him: whose it is, and a question; nothing changed.
    browser.get(link)
    said = by_css(browser, "p.whose-link")[0].text
    you = "Bob (b•••@example.org)"
    assert said == f"This link is for Carol (c•••@example.org) — you are signed in as {you}."
    assert carol not in browser.page_source
    assert signed_in_as(browser) == "Bob" and not accepted(api, game_id, hana_key, "green")
    take(browser, "web-link-for-another-account.png", DESKTOP, mobile=False)
    take(browser, "web-link-for-another-account-phone.png", PHONE, mobile=True)
    assert signed_in_as(browser) == "Bob" and not accepted(api, game_id, hana_key, "green")

    # "Stay": back at his own games, nothing changed.
    click_and_wait(browser, by_css(browser, "form.account-choice button.keep-mine")[0])
    assert urlsplit(browser.current_url).path == "/"
    assert "the link changed nothing" in by_css(browser, "p.flash")[0].text
    assert signed_in_as(browser) == "Bob" and not accepted(api, game_id, hana_key, "green")

    # "Continue": signed out of his account, into Carol's, and her seat is accepted.
    browser.get(link)
    click_and_wait(browser, by_css(browser, "form.account-choice button.continue-as-them")[0])
    assert urlsplit(browser.current_url).path == f"/games/{game_id}"
    assert "You accepted green" in by_css(browser, "p.flash")[0].text
    assert signed_in_as(browser) == "Carol" and accepted(api, game_id, hana_key, "green")
