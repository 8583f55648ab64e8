"""A game with friends from the web, no curl, in Chromium against a real server: a person
signs in by the link mailed to them, makes a game with two friends' addresses and an open
seat, the friends accept from their invitations, a fourth person finds the game among those
that need players and joins, the game begins, each plays from the page, and words written
to the table reach the others by mail and on the page."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.web.helpers import open_seat_link, queued_mails, text_part
from tests.web.test_pages_browser import by_css, click_and_wait, live  # noqa: F401

pytestmark = pytest.mark.browser


def text_of_mail(app, recipient: str, kind: str) -> str:
    """The text part of the latest mail of `kind` queued to `recipient` (the sink)."""
    mails = queued_mails(app, kind, recipient=recipient)
    assert mails, (recipient, kind)
    return text_part(mails[-1][1])


def sign_in_by_mail(browser, live, app, email: str, name: str) -> None:  # noqa: F811
    browser.get(f"{live}/sign-in")
    by_css(browser, 'form input[name="email"]')[0].send_keys(email)
    click_and_wait(browser, by_css(browser, ".sign-in-mail button[type=submit]")[0])
    assert "is on its way" in by_css(browser, "p.flash")[0].text
    link = re.search(r"https?://\S+/sign-in/link/\S+", text_of_mail(app, email, "sign_in"))[0]
    browser.get(f"{live}{urlsplit(link).path}")
    # Someone else signed in in this browser: the link asks first, and goes on as its own.
    for button in by_css(browser, "form.account-choice .continue-as-them"):
        click_and_wait(browser, button)
    by_css(browser, 'input[name="name"]')[0].send_keys(name)
    click_and_wait(browser, by_css(browser, "main form button[type=submit]")[0])
    assert by_css(browser, "a.me")[0].text == name


def test_friends_make_join_and_play_a_game_from_the_web(browser, live, app, api):  # noqa: F811
    from selenium.webdriver.support.ui import Select

    sign_in_by_mail(browser, live, app, "ada@example.org", "Ada")
    browser.get(f"{live}/games/new")
    by_css(browser, 'input[name="title"]')[0].send_keys("Friday friends")
    for number, email in ((1, "bea@example.org"), (2, "cy@example.org")):
        by_css(browser, f'input[name="email-{number}"]')[0].send_keys(email)
    Select(by_css(browser, 'select[name="who-3"]')[0]).select_by_value("open")
    click_and_wait(browser, by_css(browser, "main form button.primary")[0])
    assert "is forming" in by_css(browser, "p.flash")[0].text
    game_id = int(browser.current_url.rstrip("/").rsplit("/", 1)[1])
    assert "invited, not yet accepted" in by_css(browser, "section.forming")[0].text

    # Each friend accepts from the invitation mail. In this one browser someone else is
    # signed in (Ada, then Bea): the link's page says whose it is and asks, and each goes on
    # as its friend.
    for email, name in (("bea@example.org", "bea"), ("cy@example.org", "cy")):
        mail = text_of_mail(app, email, "invitation")
        assert "“Ada” invites you" in mail
        accept = re.search(r"Accept the seat: (\S+)", mail)[1]
        browser.get(f"{live}{urlsplit(accept).path}")
        assert f"This link is for {name} " in by_css(browser, "p.whose-link")[0].text
        click_and_wait(browser, by_css(browser, "form.account-choice .continue-as-them")[0])
        assert "You accepted" in by_css(browser, "p.flash")[0].text
    assert api.get(f"/api/games/{game_id}").get_json()["status"] == "forming"

    # A fourth person finds the game among those that need players, and joins.
    sign_in_by_mail(browser, live, app, "dan@example.org", "Dan")
    browser.get(f"{live}/games/open")
    row = by_css(browser, f'tr[data-game="{game_id}"]')[0]
    click_and_wait(browser, row.find_elements("css selector", "button")[0])
    assert "It has begun" in by_css(browser, "p.flash")[0].text
    assert api.get(f"/api/games/{game_id}").get_json()["status"] == "active"

    # Each plays a power card from the page, signed in by their seat's link.
    for _ in range(4):
        colour = api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
        open_seat_link(browser, app, game_id, colour)
        seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
        click_and_wait(browser, by_css(browser, "form.moves button.power-card")[0])
        click_and_wait(browser, by_css(browser, "section.plan button.confirm")[0])
        assert api.get(f"/api/games/{game_id}").get_json()["seq"] == seq + 1
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert len({e["player"] for e in log}) == 4 and {e["source"] for e in log} == {"web"}

    # The last to play writes to the table; the others are mailed it, and see it on the page.
    by_css(browser, "#talk-text")[0].send_keys("Good luck, all!")
    click_and_wait(browser, by_css(browser, "form.talk button[type=submit]")[0])
    writer = colour
    others = [c for c in ("red", "yellow", "green", "blue") if c != writer]
    for other in others:
        open_seat_link(browser, app, game_id, other)
        words = [li.text for li in by_css(browser, "ol.talk li[data-message]")]
        assert any("Good luck, all!" in w for w in words), (other, words)
    mailed = queued_mails(app, "table_talk", game_id=game_id)
    # Each of the three others, and not the writer, is mailed the words.
    assert len({r for r, _ in mailed}) == 3
    assert all("Good luck, all!" in " ".join(m.split()) for _, m in mailed)
