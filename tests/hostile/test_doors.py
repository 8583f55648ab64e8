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


def _token(page: requests.Response) -> str:
    return page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]


def test_a_nul_in_any_name_title_or_webhook_is_refused_by_the_deployed_server(server):
    """PostgreSQL refuses NUL in text: each of these doors once answered it with a 500 (the
    webhook's in its host's look-up). Now each says why, as a 422, and keeps nothing."""
    red, red_key = server.player("namer")
    blue, _blue_key = server.player("named")
    seats = [{"colour": "red", "email": red}, {"colour": "blue", "email": blue}]
    made = server.call("POST", "/api/games", red_key, {"title": "Clean", "seats": seats})
    assert made.status_code == 201, made.text
    browser = requests.Session()
    signed = browser.post(
        server.base + "/sign-in",
        data={"csrf_token": _token(browser.get(server.base + "/sign-in")), "api_key": red_key},
        allow_redirects=False,
    )
    assert signed.status_code == 303, signed.text
    me = {"csrf_token": _token(browser.get(server.base + "/me"))}
    new = {
        "csrf_token": _token(browser.get(server.base + "/games/new")),
        "title": "Sunday league",
        "colour-0": "red",
        "who-1": "friend",
        "colour-1": "blue",
        "email-1": "nul-friend@players.example.org",
        "who-2": "bot",
        "colour-2": "green",
    }
    stranger = [*seats[:1], {**seats[1], "email": "nul-friend@players.example.org"}]
    nul, hook = "a\x00b", "https://chat\x00.example.org/hook"
    counted = "SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM games)"
    before = server.rows(counted)
    answers = {
        "API: a player's name": server.call(
            "POST", "/api/players", body={"email": "nul@players.example.org", "name": nul}
        ),
        "API: a title": server.call("POST", "/api/games", red_key, {"title": nul, "seats": seats}),
        "API: a seat's name": server.call(
            "POST",
            "/api/games",
            red_key,
            {"title": "T", "seats": [stranger[0], {**stranger[1], "name": nul}]},
        ),
        "/me: the name": browser.post(
            server.base + "/me", data={**me, "action": "name", "name": nul}
        ),
        "/me: a webhook": browser.post(
            server.base + "/me",
            data={**me, "action": "webhook", "game": str(made.json()["id"]), "url": hook},
        ),
        "/games/new: the title": browser.post(
            server.base + "/games/new", data={**new, "title": nul}
        ),
        "/games/new: a seat's name": browser.post(
            server.base + "/games/new", data={**new, "name-1": nul}
        ),
    }
    assert {door: a.status_code for door, a in answers.items()} == dict.fromkeys(answers, 422)
    for door, answer in answers.items():
        assert "control" in answer.text, (door, answer.text[:300])
    assert server.rows(counted) == before
    names = server.rows("SELECT name FROM players WHERE email = :e", e=red)
    assert names == [("Namer",)]
