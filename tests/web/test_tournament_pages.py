"""Tournaments on the pages: a tournament made with the form, entered and started with its
buttons (CSRF-protected like every form), its page showing the format explained, the
formula, the standings and each round's tables with links to their games."""

from __future__ import annotations

from tests.server.test_ratings import people
from tests.web.helpers import page, sign_in_seat
from tests.web.html import Node


def _fields(doc: Node, cls: str | None = None) -> dict[str, str]:
    form = doc.find("main").find("form", cls=cls) if cls else doc.find("main").find("form")
    return {i.get("name"): i.get("value") for i in form.find_all("input", type="hidden")}


def _signed_in(app, api, email):
    """A client signed in as the player of `email`, by a seat's link of a game of theirs."""
    other = people(api, 2)
    body = {
        "title": "Warm-up",
        "seats": [
            {"email": e, "colour": c}
            for e, c in zip([email, *other], ["red", "blue", "green"], strict=True)
        ],
    }
    game = api.client.post("/api/games", json=body, headers=api.auth(api.keys[email])).get_json()
    client = app.test_client()
    sign_in_seat(app, client, game["id"], "red")
    return client


def test_made_with_the_form_entered_started_and_shown(app, api):
    organiser, *entrants = people(api, 4)
    client = _signed_in(app, api, organiser)
    form = page(client, "/tournaments/new")
    assert len(form.find_all("input", type="radio")) == 3  # the three formats, explained
    typed = {
        **_fields(form),
        "title": "Spring cup",
        "format": "swiss",
        "table_size": "3",
        "rounds": "2",
        "most": "9",
        "round_days": "14",
    }
    made = client.post("/tournaments/new", data=typed)
    assert made.status_code == 303
    path = made.headers["Location"]
    bad = client.post("/tournaments/new", data={**typed, "title": "see evil.example"})
    assert bad.status_code == 422 and "link" in bad.get_data(as_text=True)
    tid = int(path.rsplit("/", 1)[1])
    for email in entrants:
        response = api.client.post(
            f"/api/tournaments/{tid}/entries", headers=api.auth(api.keys[email])
        )
        assert response.status_code == 200
    doc = page(client, path)
    assert "Swiss by boards" in doc.find("main").text
    assert "a point for each player they finished ahead of" in doc.find("main").text
    assert len(doc.find("table", cls="standings").find("tbody").find_all("tr")) == 3
    # Its organiser starts it with the page's button.
    assert client.post(path, data={"action": "start"}).status_code == 400  # no CSRF token
    started = client.post(path, data={**_fields(doc, "tournament-actions"), "action": "start"})
    assert started.status_code == 303
    doc = page(client, path)
    assert "The tournament has started" in doc.find("p", cls="flash").text
    tables = doc.find("ul", cls="tables").find_all("li")
    assert len(tables) == 1 and tables[0].find("a").get("href").startswith("/games/")
    # Anyone may read it; the list links it.
    public = page(app.test_client(), path)
    assert public.find("form", cls="tournament-actions") is None
    listed = page(app.test_client(), "/tournaments")
    assert listed.find("tr", **{"data-tournament": str(tid)}) is not None


def test_entering_from_the_page_and_a_full_tournament_says_so(app, api):
    organiser, first, second, third, late = people(api, 5)
    tid = api.client.post(
        "/api/tournaments",
        json={"title": "Tiny cup", "table_size": 3, "rounds": 1, "entry": {"most": 3}},
        headers=api.auth(api.keys[organiser]),
    ).get_json()["id"]
    path = f"/tournaments/{tid}"
    for email in (first, second):
        api.client.post(f"/api/tournaments/{tid}/entries", headers=api.auth(api.keys[email]))
    client = _signed_in(app, api, third)
    doc = page(client, path)
    entered = client.post(path, data={**_fields(doc, "tournament-actions"), "action": "enter"})
    assert entered.status_code == 303
    assert "under way" in page(client, path).find("p", cls="facts").text  # full: started
    late_client = _signed_in(app, api, late)
    doc = page(late_client, path)
    assert doc.find("button", value="enter") is None  # it started when full
