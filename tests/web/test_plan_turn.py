"""A turn planned on the page before it is played: each choice is a dry run (a GET that
writes nothing), the board shows the game as it would be, Undo takes the last step back, and
Confirm plays the whole batch through `submit`, as the API would."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from tests.server.conftest import table_snapshot
from tests.web.helpers import offered_moves, page, sign_in_seat, to_a_turn
from tests.web.html import parse


def plan_form(doc) -> tuple[str, dict[str, str]]:
    """The planning form's action and hidden fields: it plans (GET), never plays."""
    form = doc.find("form", cls="moves")
    assert form is not None, "the page offers no moves"
    assert form.get("method") == "get" and "planning" in form.get("class")
    fields = {i.get("name"): i.get("value") for i in form.find_all("input", type="hidden")}
    # A browser sends the path alone: the fragment (`#your-turn`) is where the page opens.
    return form.get("action").partition("#")[0], fields


def choose(client, doc, move: dict | str):
    """Click the button of `move` in the planning form: the plan page it leads to."""
    action, fields = plan_form(doc)
    value = move if isinstance(move, str) else json.dumps(move, separators=(",", ":"))
    assert value in offered_moves(doc), (value, offered_moves(doc))
    return page(client, f"{action}?{urlencode({**fields, 'move': value})}")


def plan_steps(doc) -> list[str]:
    box = doc.find("section", cls="plan")
    assert box is not None, "no plan on the page"
    return [li.text.strip() for li in box.find("ol", cls="plan-steps").find_all("li")]


def confirm_form(doc) -> dict[str, str]:
    form = doc.find("section", cls="plan").find("form")
    return {i.get("name"): i.get("value") for i in form.find_all("input", type="hidden")}


def offered(doc, kind: str) -> list[dict]:
    return [m for m in map(json.loads, offered_moves(doc)) if m["type"] == kind]


def button_text(doc, move: dict) -> str:
    value = json.dumps(move, separators=(",", ":"))
    form = doc.find("form", cls="moves")
    return next(
        b.text.strip() for b in form.find_all("button", name="move") if b.get("value") == value
    )


def test_a_turn_planned_with_an_undo_then_confirmed_equals_the_same_moves_by_the_api(
    app, api, client
):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = to_a_turn(api, game_id, keys)
    seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
    sign_in_seat(app, client, game_id, colour)
    before = table_snapshot(app)

    doc = page(client, f"/games/{game_id}")
    card = offered(doc, "choose_card")[-1]
    words = button_text(doc, card)
    doc = choose(client, doc, card)
    assert plan_steps(doc) == [words]
    places = offered(doc, "place")
    assert places, "the card places no caballero"
    mistaken = choose(client, doc, places[0])
    assert plan_steps(mistaken) == [words, button_text(doc, places[0])]
    # Undo the caballero placed: back to the plan of one step, the places offered again.
    doc = page(client, mistaken.find("a", cls="undo").get("href"))
    assert plan_steps(doc) == [words]
    assert offered(doc, "place") == places
    chosen = places[-1]
    doc = choose(client, doc, chosen)
    if offered(doc, "skip_special"):
        doc = choose(client, doc, offered(doc, "skip_special")[0])
    planned = json.loads(confirm_form(doc)["moves"])
    assert planned[:2] == [card, chosen] and len(planned) == len(plan_steps(doc))
    # Planning wrote nothing: every table as it was.
    assert table_snapshot(app) == before

    # The API's dry run of the same moves: what the confirmed turn must equal.
    dry = api.post_moves(game_id, keys[colour], planned, seq, dry_run=True).get_json()
    response = client.post(f"/games/{game_id}/moves", data=confirm_form(doc))
    assert response.status_code == 303
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"][seq:]
    assert [(e["player"], e["move"], e["source"]) for e in log] == [
        (colour, m, "web") for m in planned
    ]
    now = api.get(f"/api/games/{game_id}", keys[colour]).get_json()
    assert now["seq"] == dry["seq"] == seq + len(planned)
    # The game as the seat now sees it is what the API's dry run showed (beside the view,
    # the game's GET adds who is away and the mail not delivered).
    shown = {k for k in dry["view"] if k != "deadlines"}
    assert {k: now[k] for k in shown} == {k: dry["view"][k] for k in shown}
    flash = page(client, response.headers["Location"]).find("p", cls="flash").text
    assert flash == "Played: " + "; ".join(plan_steps(doc)) + "."


def test_the_planned_board_is_the_dry_runs_and_nobody_else_sees_it(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = to_a_turn(api, game_id, keys)
    seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
    sign_in_seat(app, client, game_id, colour)
    doc = page(client, f"/games/{game_id}")
    card = offered(doc, "choose_card")[-1]
    doc = choose(client, doc, card)
    place = offered(doc, "place")[0]
    doc = choose(client, doc, place)
    dry = api.post_moves(game_id, keys[colour], [card, place], seq, dry_run=True).get_json()
    court = dry["view"]["players"][colour]["court"]
    now = api.get(f"/api/games/{game_id}", keys[colour]).get_json()
    assert now["seq"] == seq and now["players"][colour]["court"] == court + 1
    # The panel shows the court as it would be; the board the caballero placed.
    row = doc.find("aside", cls="panel").find("tr", cls="viewer")
    assert [td.text.strip() for td in row.find_all("td")][1:3] == [
        str(court),
        str(dry["view"]["players"][colour]["province"]),
    ] or str(court) in row.text
    region = doc.find("g", data_place=place["to"])
    assert region is not None and colour[0].upper() in region.text
    # Another reader (signed out) sees the game as it is, without the plan.
    public = page(app.test_client(), f"/games/{game_id}")
    assert public.find("section", cls="plan") is None
    assert "planning" not in (public.find("form", cls="moves") or {"class": ""}).get("class", "")


def test_a_plan_that_is_stale_or_not_yours_is_refused_and_changes_nothing(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = to_a_turn(api, game_id, keys)
    other = next(c for c in keys if c != colour)
    seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()["moves"]
    move = json.dumps(legal[0])
    before = table_snapshot(app)
    # Signed in as another seat: the plan is not theirs to make; the page says what the
    # API's dry run says.
    api_answer = api.post_moves(game_id, keys[other], [legal[0]], seq, dry_run=True)
    sign_in_seat(app, client, game_id, other)
    answer = client.get(f"/games/{game_id}/plan?{urlencode({'seq': seq, 'move': move})}")
    assert answer.status_code == api_answer.status_code == 422
    error = parse(answer.get_data(as_text=True)).find("p", cls="error").text
    assert error == api_answer.get_json()["detail"]
    # The seat's own player, in a browser of their own (switching this one's account would
    # end its session: a row written).
    client = app.test_client()
    sign_in_seat(app, client, game_id, colour)
    stale = client.get(f"/games/{game_id}/plan?{urlencode({'seq': seq - 1, 'move': move})}")
    assert stale.status_code == 409 and "moved on" in stale.get_data(as_text=True)
    for query, says in (
        ({"move": move}, "seq"),
        ({"seq": seq, "move": "[1]"}, "JSON object"),
        ({"seq": seq, "planned": "{"}, "not JSON"),
    ):
        answer = client.get(f"/games/{game_id}/plan?{urlencode(query)}")
        assert answer.status_code == 422, query
        assert says in answer.get_data(as_text=True), query
    # Signed out: no plan at all.
    query = urlencode({"seq": seq, "move": move})
    answer = app.test_client().get(f"/games/{game_id}/plan?{query}")
    assert answer.status_code == 403 and "Sign in" in answer.get_data(as_text=True)
    assert table_snapshot(app) == before


def test_undo_and_start_again_lead_back(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = to_a_turn(api, game_id, keys)
    sign_in_seat(app, client, game_id, colour)
    turn = page(client, f"/games/{game_id}")
    one = choose(client, turn, offered(turn, "choose_card")[0])
    two = choose(client, one, offered(one, "place")[0])
    # Start again: the turn as it is, nothing planned.
    again = page(client, two.find("a", cls="restart").get("href"))
    assert again.find("section", cls="plan") is None
    assert offered_moves(again) == offered_moves(turn)
    # Undo the only step: the same.
    answer = client.get(one.find("a", cls="undo").get("href"))
    assert answer.status_code == 200
    assert offered_moves(page(client, one.find("a", cls="undo").get("href"))) == offered_moves(turn)
