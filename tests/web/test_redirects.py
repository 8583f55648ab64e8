"""Redirects to a value a request gave (`next` after signing in) stay on this site, in every
form a browser would normalise into another site's address."""

from __future__ import annotations

import pytest

from pbem.web.links import own_path
from tests.web.helpers import page

#: Each a way to write "another site" that a browser follows: tabs and newlines are dropped,
#: a backslash is a slash, and the scheme-relative `//` names a host.
OFF_SITE = [
    "//evil.test",
    "//evil.test/games/1",
    "/\\evil.test",
    "\\\\evil.test",
    "/\t/evil.test",
    "/\n/evil.test",
    "/\r\n/evil.test",
    "\t//evil.test",
    " /evil",
    "/%09/evil.test",
    "/%2F/evil.test",
    "/%5Cevil.test",
    "/%0D%0A/x",
    "/%00/x",
    "https://evil.test/",
    "http://evil.test",
    "HTTPS://evil.test",
    "https:evil.test",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "evil.test",
    "games/1",
    "/\u3000/evil.test",
    "/ｅvil",
    "https://localhost.evil.test/games/1",
    "https://localhost@evil.test/",
    "/" + "a" * 2001,
    "",
]

ON_SITE = ["/", "/games/1", "/games/1?colour=red", "/games/12?seq=4&colour=blue", "/games/1#log"]


@pytest.mark.parametrize("target", OFF_SITE)
def test_another_site_in_any_form_is_refused(app, target):
    with app.test_request_context("/sign-in", base_url="https://localhost"):
        assert own_path(target) is None


@pytest.mark.parametrize("target", ON_SITE)
def test_a_path_of_this_site_is_kept(app, target):
    with app.test_request_context("/sign-in", base_url="https://localhost"):
        assert own_path(target) == target


def test_an_absolute_url_to_this_host_comes_back_as_its_path(app):
    with app.test_request_context("/sign-in", base_url="https://localhost"):
        assert own_path("https://localhost/games/3?colour=red") == "/games/3?colour=red"
        assert own_path("https://localhost") is None  # no path: nothing to come back to
    with app.test_request_context("/sign-in", base_url="https://localhost/pbem"):
        assert own_path("https://localhost/pbem/games/3") == "/games/3"
        assert own_path("https://localhost/other/games/3") is None


@pytest.mark.parametrize("target", ["/%09/evil.test", "/\t/evil.test", "/%0D%0A/x", "//evil.test"])
@pytest.mark.parametrize("where", ["form", "query"])
def test_signing_in_never_sends_a_person_off_site(app, api, client, target, where):
    _, keys = api.new_game(["red", "blue"])
    token = page(client, "/sign-in").find("input", name="csrf_token").get("value")
    form = {"csrf_token": token, "api_key": keys["red"]}
    query = {}
    (form if where == "form" else query)["next"] = target
    response = client.post("/sign-in", data=form, query_string=query)
    # Signed in all the same, and home: never a 500, never a Location a browser leaves by.
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert page(client, "/").find("a", cls="me").text == "Red"


def test_the_sign_in_form_does_not_carry_an_off_site_next(client):
    doc = page(client, "/sign-in?next=/%09/evil.test")
    assert doc.find("input", name="next") is None
    doc = page(client, "/sign-in?next=/games/1")
    assert doc.find("input", name="next").get("value") == "/games/1"
