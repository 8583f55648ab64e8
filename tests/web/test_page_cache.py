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


def test_a_new_name_given_through_one_node_shows_on_the_others_board_at_once(app, api):
    """Two nodes (two apps, each with the per-worker drawings of its own) on one database:
    a seat's holder renamed through one shows in "At this table" on the other's next look,
    though that node had drawn the game's seats a moment before."""
    from pbem import create_app
    from tests.web.helpers import sign_in_seat

    game_id, _ = api.new_game(["red", "blue", "green"])
    same = {key: app.config[key] for key in ("SQLALCHEMY_DATABASE_URI", "SECRET_KEY")}
    other = create_app({"TESTING": True, **same})
    reader = other.test_client()

    def at_the_table() -> str:
        return page(reader, f"/games/{game_id}").find("p", cls="seated").text

    assert "Red" in at_the_table() and "Rosalind" not in at_the_table()
    renamer = app.test_client()
    sign_in_seat(app, renamer, game_id, "red")
    token = page(renamer, "/me").find("input", name="csrf_token").get("value")
    answer = renamer.post("/me", data={"csrf_token": token, "action": "name", "name": "Rosalind"})
    assert answer.status_code == 303
    assert "Rosalind" in at_the_table(), at_the_table()
