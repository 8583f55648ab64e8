"""Orders in advance from the board page: the form shows the reader's own orders only, saves
them as the API does (played at once when the decision is theirs), and refuses bad input
with the board and a reason, changing nothing."""

from __future__ import annotations

from tests.server.conftest import table_snapshot
from tests.web.helpers import page, sign_in_seat
from tests.web.html import parse


def orders_form(doc):
    section = doc.find("details", cls="orders")
    assert section is not None, "the page offers no orders form"
    form = section.find("form")
    fields = {i.get("name"): i.get("value") for i in form.find_all("input")}
    return section, form, fields


def post(client, game_id, fields, **values):
    body = {k: v for k, v in fields.items() if k in ("csrf_token", "colour")}
    return client.post(f"/games/{game_id}/orders", data={**body, **values})


def test_the_form_saves_orders_and_shows_them_to_their_seat_alone(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"], options={"first_player": "red"})
    sign_in_seat(app, client, game_id, "blue")
    section, form, fields = orders_form(page(client, f"/games/{game_id}"))
    assert "No power cards ordered" in section.text and fields["power_cards"] == ""
    response = post(client, game_id, fields, power_cards="13, 11 9", veto="allow")
    assert response.status_code == 303, response.get_data(as_text=True)
    doc = page(client, f"/games/{game_id}")
    section, form, fields = orders_form(doc)
    assert fields["power_cards"] == "13 11 9"
    assert "Power cards ordered: 13, 11, 9." in section.text
    assert "selected" in form.find("option", value="allow").attrs
    assert "selected" not in form.find("option", value="ask").attrs
    mine = api.get(f"/api/games/{game_id}/seats/blue/orders", keys["blue"]).get_json()
    assert mine["power_cards"] == [13, 11, 9] and mine["veto"] == "allow"

    # Red's page (signed in as red) and the public page say nothing of blue's orders.
    other = app.test_client()
    sign_in_seat(app, other, game_id, "red")
    for reader in (other, app.test_client()):
        text = reader.get(f"/games/{game_id}").get_data(as_text=True)
        assert 'value="13 11 9"' not in text and "13, 11, 9" not in text
        assert "answered allow at once" not in text
    # Red's own form shows red's (none, ask), and the public page has no form at all.
    _, red_form, red_fields = orders_form(page(other, f"/games/{game_id}"))
    assert red_fields["power_cards"] == "" and red_fields["colour"] == "red"
    assert "selected" in red_form.find("option", value="ask").attrs
    assert page(app.test_client(), f"/games/{game_id}").find("details", cls="orders") is None


def test_the_form_plays_a_pending_card_at_once(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"], options={"first_player": "red"})
    sign_in_seat(app, client, game_id, "red")
    _, _, fields = orders_form(page(client, f"/games/{game_id}"))
    response = post(client, game_id, fields, power_cards="12")
    assert response.status_code == 303
    view = api.get(f"/api/games/{game_id}", keys["red"]).get_json()
    assert view["players"]["red"]["power_card"] == 12 and view["seq"] == 1
    assert "Your orders played power card 12 for you." in page(client, f"/games/{game_id}").text


def test_bad_orders_from_the_form_change_nothing(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"], options={"first_player": "red"})
    sign_in_seat(app, client, game_id, "blue")
    _, _, fields = orders_form(page(client, f"/games/{game_id}"))
    before = table_snapshot(app)
    for values, status, said in (
        ({"power_cards": "thirteen"}, 422, "numbers from 1 to 13"),
        ({"power_cards": "14"}, 422, "not in your hand"),
        ({"power_cards": "3 3"}, 422, "twice"),
        ({"power_cards": "", "veto": "maybe"}, 422, '"allow" or "ask"'),
    ):
        response = post(client, game_id, fields, **values)
        assert response.status_code == status, (values, response.status_code)
        error = parse(response.get_data(as_text=True)).find("p", cls="error")
        assert error is not None and said in error.text, values
    # Another seat's colour: refused.
    response = post(client, game_id, {**fields, "colour": "green"}, power_cards="1")
    assert response.status_code == 403
    assert table_snapshot(app) == before
