"""A game that forms, through the API: made with "forming": true and open seats, joined,
accepted, started by its admin; no deadlines and no moves until it begins."""

from __future__ import annotations

import uuid


def forming(api, seats_after_admin: list[dict]) -> tuple[int, str]:
    tag = uuid.uuid4().hex[:8]
    admin = api.register(f"admin-{tag}@example.org", "Admin")
    body = {
        "title": f"Forming {tag}",
        "seats": [{"email": f"admin-{tag}@example.org", "colour": "red"}, *seats_after_admin],
        "forming": True,
    }
    made = api.client.post("/api/games", json=body, headers=api.auth(admin))
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"], admin


def test_a_game_forms_is_joined_and_accepted_and_begins(api):
    friend = api.register(f"friend-{uuid.uuid4().hex[:6]}@example.org", "Friend")
    email = next(e for e, k in api.keys.items() if k == friend)
    game_id, admin = forming(
        api, [{"email": email, "colour": "blue"}, {"open": True, "colour": "green"}]
    )
    summary = api.get("/api/games", admin).get_json()["games"][-1]
    assert summary["status"] == "forming" and summary["to_move"] == []
    seats = {s["colour"]: (s["open"], s["accepted"]) for s in summary["seats"]}
    assert seats == {"red": (False, True), "blue": (False, False), "green": (True, False)}
    assert api.get(f"/api/games/{game_id}", admin).get_json()["deadlines"] == []
    refused = api.post_moves(game_id, admin, [{"type": "play_power_card", "card": 13}], 0)
    assert refused.status_code == 409 and "forming" in refused.get_json()["detail"]
    # Nor orders: they would wait for a start that is no move. Refused, saying when.
    early = api.client.put(
        f"/api/games/{game_id}/seats/red/orders",
        json={"power_cards": [13]},
        headers=api.auth(admin),
    )
    assert early.status_code == 409 and "once it has" in early.get_json()["detail"]

    joiner = api.register(f"joiner-{uuid.uuid4().hex[:6]}@example.org", "Joiner")
    joined = api.client.post(f"/api/games/{game_id}/seats/green/join", headers=api.auth(joiner))
    assert joined.status_code == 200
    green = next(s for s in joined.get_json()["seats"] if s["colour"] == "green")
    assert green == {**green, "name": "Joiner", "open": False, "accepted": True}
    again = api.client.post(f"/api/games/{game_id}/seats/green/join", headers=api.auth(admin))
    assert again.status_code == 409 and "not open" in again.get_json()["detail"]

    wrong = api.client.post(f"/api/games/{game_id}/seats/blue/accept", headers=api.auth(joiner))
    assert wrong.status_code == 404 and "not yours" in wrong.get_json()["detail"]
    accepted = api.client.post(f"/api/games/{game_id}/seats/blue/accept", headers=api.auth(friend))
    assert accepted.status_code == 200 and accepted.get_json()["status"] == "active"
    view = api.get(f"/api/games/{game_id}", admin).get_json()
    assert view["status"] == "active" and view["deadlines"]
    late = api.client.post(f"/api/games/{game_id}/seats/blue/accept", headers=api.auth(friend))
    assert late.status_code == 409 and "nothing to accept" in late.get_json()["detail"]


def test_the_admin_starts_early_and_open_seats_go_to_bots(api):
    game_id, admin = forming(
        api, [{"open": True, "colour": "blue"}, {"open": True, "colour": "green"}]
    )
    other = api.register(f"other-{uuid.uuid4().hex[:6]}@example.org", "Other")
    refused = api.client.post(f"/api/games/{game_id}/start", headers=api.auth(other))
    assert refused.status_code == 403
    started = api.client.post(f"/api/games/{game_id}/start", headers=api.auth(admin))
    assert started.status_code == 200 and started.get_json()["status"] == "active"
    assert [s["bot"] for s in started.get_json()["seats"]] == [False, True, True]
    twice = api.client.post(f"/api/games/{game_id}/start", headers=api.auth(admin))
    assert twice.status_code == 409 and "started already" in twice.get_json()["detail"]


def test_an_open_seat_needs_a_forming_game_and_nothing_else(api):
    admin = api.register(f"solo-{uuid.uuid4().hex[:6]}@example.org", "Solo")
    email = next(e for e, k in api.keys.items() if k == admin)
    for seats, says in (
        ([{"open": True, "colour": "blue"}, {"bot": True, "colour": "green"}], "forms first"),
        ([{"open": True, "bot": True, "colour": "blue"}, {"bot": True, "colour": "green"}], ""),
    ):
        body = {"title": "No", "seats": [{"email": email, "colour": "red"}, *seats]}
        answer = api.client.post("/api/games", json=body, headers=api.auth(admin))
        assert answer.status_code == 422, answer.get_json()
        assert says in answer.get_json()["detail"]
