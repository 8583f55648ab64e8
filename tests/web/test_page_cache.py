"""The board page's parts are drawn once per worker and key (`pages.board_page`): what can
change without a move (who holds a seat, the game's status) still shows at once, and what
belongs to a request (CSRF token, flash message, header) is never shared."""

from __future__ import annotations

from tests.web.helpers import move_form, offered_moves, page, sign_in_seat


def _pending(api, game_id: int) -> str:
    return api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]


def test_a_seat_given_away_shows_at_once(app, api, client):
    game_id, keys = api.new_game(["red", "blue"])
    sign_in_seat(app, client, game_id, "blue")
    before = page(client, f"/games/{game_id}")
    assert before.find("section", cls="hand") is not None
    assert page(app.test_client(), f"/games/{game_id}").text.count("Newcomer") == 0
    api.register("newcomer@example.org", "Newcomer")
    response = client.put(
        f"/api/games/{game_id}/seats/blue",
        json={"email": "newcomer@example.org"},
        headers=api.auth(keys["red"]),
    )
    assert response.status_code == 200
    # The same seq: the old holder no longer sees the seat's hand or moves; anyone sees
    # the new name.
    after = page(client, f"/games/{game_id}")
    assert after.find("section", cls="hand") is None and not offered_moves(after)
    assert "Newcomer" in page(app.test_client(), f"/games/{game_id}").text


def test_an_aborted_game_offers_no_moves(app, api, client):
    game_id, keys = api.new_game(["red", "blue"])
    colour = _pending(api, game_id)
    sign_in_seat(app, client, game_id, colour)
    assert offered_moves(page(client, f"/games/{game_id}"))
    response = api.client.post(f"/api/games/{game_id}/abort", headers=api.auth(keys["red"]))
    assert response.status_code == 200, response.get_json()
    doc = page(client, f"/games/{game_id}")
    assert not offered_moves(doc) and "aborted" in doc.find("p", cls="status").text


def test_each_session_gets_its_own_token_and_its_own_flash(app, api):
    game_id, _ = api.new_game(["red", "blue"])
    colour = _pending(api, game_id)
    first, second = app.test_client(), app.test_client()
    sign_in_seat(app, first, game_id, colour)
    sign_in_seat(app, second, game_id, colour)
    one, two = (
        move_form(page(first, f"/games/{game_id}")),
        move_form(page(second, f"/games/{game_id}")),
    )
    assert one["csrf_token"] != two["csrf_token"]
    move = offered_moves(page(first, f"/games/{game_id}"))[0]
    response = first.post(f"/games/{game_id}/moves", data={**one, "move": move})
    assert response.status_code == 303
    assert page(first, f"/games/{game_id}").find("p", cls="flash") is not None
    # Shown once, to the session that played, not to the other one.
    assert page(first, f"/games/{game_id}").find("p", cls="flash") is None
    assert page(second, f"/games/{game_id}").find("p", cls="flash") is None
