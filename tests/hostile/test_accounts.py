"""Accounts under attack: a mailed link is spent once however many use it at once, an
address is made a player once, sign-ups hand out no key, and per-client limits count each
client behind the proxy."""

from __future__ import annotations

from collections import Counter
from functools import partial

import requests

from tests.hostile.conftest import at_once, link_in, statuses


def form(server, path: str) -> tuple[str, requests.cookies.RequestsCookieJar]:
    """The CSRF token and session cookie a page's form is sent with."""
    page = server.call("GET", path)
    assert page.status_code == 200, page.text
    return page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0], page.cookies


def post_form(
    server, path: str, token: str, cookies, headers: dict | None = None, **fields
) -> requests.Response:
    data = {"csrf_token": token, **fields}
    return server.call(
        "POST", path, data=data, cookies=cookies, allow_redirects=False, headers=headers or {}
    )


def ask_sign_in(server, address: str, client: str = "203.0.113.1") -> requests.Response:
    token, cookies = form(server, "/sign-in")
    return post_form(
        server,
        "/sign-in/mail",
        token,
        cookies,
        email=address,
        headers={"X-Forwarded-For": client},
    )


def mailed_link(server, address: str, path: str) -> str:
    found = [m for m in server.mails() if m.recipient == address]
    assert found, f"no mail to {address}"
    return link_in(found[-1].message, path)


def test_one_sign_in_link_used_eight_times_at_once_signs_in_once(server):
    address = "eight-at-once@players.example.org"
    token, cookies = form(server, "/sign-in")
    asked = server.call(
        "POST", "/sign-in/mail", data={"csrf_token": token, "email": address}, cookies=cookies
    )
    assert asked.status_code == 200
    path = mailed_link(server, address, "/sign-in/link/")
    token, cookies = form(server, path)
    responses = at_once([partial(post_form, server, path, token, cookies, name="Eight")] * 8)
    counted = statuses(responses)
    assert counted == Counter({303: 1, 403: 7}), counted
    refused = next(r for r in responses if r.status_code == 403)
    assert "used already" in refused.text
    assert server.rows("SELECT count(*) FROM players WHERE email = :e", e=address)[0][0] == 1


def test_a_known_players_link_works_once_under_a_race(server):
    address, _key = server.player("known")
    assert ask_sign_in(server, address).status_code == 200
    path = mailed_link(server, address, "/sign-in/link/")
    token, cookies = form(server, path)
    responses = at_once([partial(post_form, server, path, token, cookies)] * 6)
    assert statuses(responses) == Counter({303: 1, 403: 5})


def test_two_links_for_one_new_address_spent_at_once_make_one_player(server):
    address = "two-links@players.example.org"
    for _ in range(2):
        assert ask_sign_in(server, address).status_code == 200
    paths = [link_in(m.message, "/sign-in/link/") for m in server.mails() if m.recipient == address]
    assert len(set(paths)) == 2
    forms = [form(server, path) for path in paths]
    responses = at_once(
        [
            partial(post_form, server, path, token, cookies, name="Twice")
            for path, (token, cookies) in zip(paths, forms, strict=True)
        ]
    )
    counted = statuses(responses)
    # One makes the player; the other signs in to it, or is told it lost the race.
    assert counted in (Counter({303: 2}), Counter({303: 1, 409: 1})), counted
    assert server.rows("SELECT count(*) FROM players WHERE email = :e", e=address)[0][0] == 1


def test_a_sign_up_proves_the_address_before_any_key(server):
    """POST /api/players answers alike for a known and a new address and hands out no key;
    the mailed link shows the key once, on a page no cache keeps."""
    address = "signs-up@players.example.org"
    answer = server.call("POST", "/api/players", body={"email": address, "name": "Newcomer"})
    assert answer.status_code == 202 and "api_key" not in answer.json()
    known, _key = server.player("known")
    again = server.call("POST", "/api/players", body={"email": known, "name": "Impostor"})
    assert again.status_code == 202 and set(again.json()) == set(answer.json())
    assert server.rows("SELECT count(*) FROM players WHERE email = :e", e=address)[0][0] == 0
    path = mailed_link(server, address, "/sign-in/link/")
    token, cookies = form(server, path)
    shown = post_form(server, path, token, cookies, name="Newcomer")
    assert shown.status_code == 200 and shown.headers["Cache-Control"] == "no-store"
    key = shown.text.split('<pre class="key">', 1)[1].split("<", 1)[0]
    games = server.call("GET", "/api/games", key)
    assert games.status_code == 200 and games.json() == {"games": []}
    # The impostor's sign-up changed nothing of the known player.
    assert server.rows("SELECT name FROM players WHERE email = :e", e=known)[0][0] == "Known"


def test_sign_in_links_are_limited_per_client_behind_the_proxy(server):
    """Ten links an hour per client: an eleventh from one client is refused, while another
    client (another X-Forwarded-For, as nginx sends it) is not held back by the first."""
    answers = [
        ask_sign_in(server, f"limit-{n}@players.example.org", "198.51.100.7") for n in range(11)
    ]
    assert [a.status_code for a in answers] == [200] * 10 + [429]
    assert "Too many sign-in links" in answers[-1].text
    assert ask_sign_in(server, "another@players.example.org", "198.51.100.8").status_code == 200
