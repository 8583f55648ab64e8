"""The smaller doors, tried against the deployed server: limits that hold under a burst,
links that never come from a request's Host, and sessions that end when signed out."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import partial

import pytest
import requests

from tests.hostile.conftest import at_once, link_in, start_gunicorn, statuses


def test_sixteen_words_to_the_table_at_once_take_the_limit_of_six(server):
    red, red_key = server.player("talker")
    blue, _blue_key = server.player("listener")
    body = {
        "title": "Chatty",
        "seats": [{"colour": "red", "email": red}, {"colour": "blue", "email": blue}],
    }
    game = server.call("POST", "/api/games", red_key, body)
    assert game.status_code == 201, game.text
    path = f"/api/games/{game.json()['id']}/messages"
    responses = at_once(
        [partial(server.call, "POST", path, red_key, {"text": f"hello {n}"}) for n in range(16)]
    )
    counted = statuses(responses)
    assert counted == Counter({201: 6, 429: 10}), counted
    kept = server.rows("SELECT count(*) FROM table_talk WHERE game_id = :g", g=game.json()["id"])[
        0
    ][0]
    assert kept == 6


@pytest.fixture(scope="module")
def unset_base(server, tmp_path_factory):
    """The same installation served by a gunicorn whose PBEM_BASE_URL is unset, as an
    operator might leave it."""
    folder = tmp_path_factory.mktemp("unset-base")
    base, process = start_gunicorn(server.url, folder, {"PBEM_BASE_URL": ""})
    try:
        yield replace(server, base=base, process=process)
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_a_sign_in_link_never_points_at_the_requests_host(unset_base):
    server = unset_base
    address, _key = server.player("victim")
    evil = {"Host": "evil.test"}
    page = server.call("GET", "/sign-in", headers=evil)
    token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    # The cookie as a browser at evil.test would send it back.
    cookie = "; ".join(f"{c.name}={c.value}" for c in page.cookies)
    asked = server.call(
        "POST",
        "/sign-in/mail",
        data={"csrf_token": token, "email": address},
        headers={**evil, "Cookie": cookie},
    )
    assert asked.status_code == 200, asked.text
    mail = [m for m in server.mails(kind="sign_in") if m.recipient == address][-1].message
    assert "evil.test" not in mail
    assert "http://127.0.0.1:5000/sign-in/link/" in mail.replace("=\n", "")


def test_a_cookie_copied_before_signing_out_is_refused_after(server):
    address, _key = server.player("leaver")
    browser = requests.Session()
    page = browser.get(server.base + "/sign-in")
    token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    browser.post(server.base + "/sign-in/mail", data={"csrf_token": token, "email": address})
    mail = [m for m in server.mails(kind="sign_in") if m.recipient == address][-1].message
    path = link_in(mail, "/sign-in/link/")
    page = browser.get(server.base + path)
    token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    signed = browser.post(server.base + path, data={"csrf_token": token}, allow_redirects=False)
    assert signed.status_code == 303
    home = browser.get(server.base + "/me", allow_redirects=False)
    assert home.status_code == 200 and "Leaver" in home.text
    copied = browser.cookies.get_dict()  # what a thief takes from the browser
    token = home.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    out = browser.post(server.base + "/sign-out", data={"csrf_token": token}, allow_redirects=False)
    assert out.status_code in (302, 303)
    again = requests.get(server.base + "/me", cookies=copied, allow_redirects=False, timeout=30)
    assert again.status_code in (302, 303) and "/sign-in" in again.headers["Location"]
