"""Bad input: each gets a 4xx problem+json a person can act on, and the database is unchanged."""

import json

import pytest

from tests.server.conftest import assert_problem, table_snapshot


@pytest.fixture
def game(api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    view = api.get(f"/api/games/{game_id}").get_json()
    mover = view["pending"][0]["player"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[mover]).get_json()
    waiting = next(c for c in keys if c != mover)
    return {
        "id": game_id,
        "keys": keys,
        "mover": mover,
        "waiting": waiting,
        "legal": legal["moves"],
        "seq": legal["seq"],
    }


def moves_url(game):
    return f"/api/games/{game['id']}/moves"


def test_malformed_json(app, api, game):
    before = table_snapshot(app)
    response = api.client.post(
        moves_url(game),
        data='{"expected_seq": 0, "moves": [',
        content_type="application/json",
        headers=api.auth(game["keys"][game["mover"]]),
    )
    assert "JSON" in assert_problem(response, 400)["detail"]
    assert table_snapshot(app) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"expected_seq": "zero", "moves": []}, "expected_seq"),
        ({"expected_seq": 0, "moves": {"type": "end_turn"}}, "moves"),
        ({"expected_seq": 0, "moves": ["end_turn"]}, "moves"),
        ({"expected_seq": 0}, "moves"),
        ({"expected_seq": 0, "moves": [], "extra": 1}, "extra"),
        ({"expected_seq": 0, "moves": [{"type": "end_turn"}], "dry_run": "perhaps"}, "dry_run"),
    ],
)
def test_wrong_types(app, api, game, body, field):
    before = table_snapshot(app)
    response = api.client.post(
        moves_url(game), json=body, headers=api.auth(game["keys"][game["mover"]])
    )
    problem = assert_problem(response, 422)
    assert field in problem["detail"] and field in problem["errors"]
    assert table_snapshot(app) == before


def test_a_move_that_is_not_a_move(app, api, game):
    before = table_snapshot(app)
    for move in ({"card": 9}, {"type": "fly_to_the_moon"}, {"type": "play_power_card"}):
        response = api.post_moves(game["id"], game["keys"][game["mover"]], [move], game["seq"])
        assert_problem(response, 422)
    assert table_snapshot(app) == before


def test_unknown_game(app, api, game):
    before = table_snapshot(app)
    key = game["keys"]["red"]
    for path in (
        "/api/games/999999",
        "/api/games/999999/log",
        "/api/games/99999999999999999999",
        "/api/games/999999/legal-moves",
        "/api/games/999999/states/0",
    ):
        assert "no game" in assert_problem(api.get(path, key), 404)["detail"]
    response = api.post_moves(999999, key, game["legal"][:1], 0)
    assert_problem(response, 404)
    assert table_snapshot(app) == before


def test_another_seats_move(app, api, game):
    before = table_snapshot(app)
    waiting_key = game["keys"][game["waiting"]]
    # Out of turn: the engine refuses and says why.
    response = api.post_moves(game["id"], waiting_key, game["legal"][:1], game["seq"])
    assert assert_problem(response, 422)["type"] == "/problems/illegal-move"
    # Naming the other seat's colour: a key acts only for its own seat.
    response = api.post_moves(
        game["id"], waiting_key, game["legal"][:1], game["seq"], colour=game["mover"]
    )
    assert "cannot move for" in assert_problem(response, 403)["detail"]
    # A player without a seat in this game.
    stranger = api.register("stranger@example.org", "Stranger")
    before = table_snapshot(app)
    response = api.post_moves(game["id"], stranger, game["legal"][:1], game["seq"])
    assert "no seat" in assert_problem(response, 403)["detail"]
    assert table_snapshot(app) == before


@pytest.mark.parametrize("header", ["Bearer pbem_wrong", "Basic dXNlcjpwYXNz", "Bearer ", None])
def test_a_wrong_or_missing_key(app, api, game, header):
    before = table_snapshot(app)
    headers = {"Authorization": header} if header is not None else {}
    body = {"expected_seq": game["seq"], "moves": game["legal"][:1]}
    response = api.client.post(moves_url(game), json=body, headers=headers)
    assert_problem(response, 401)
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(api.client.get("/api/games", headers=headers), 401)
    assert table_snapshot(app) == before
    # A wrong key is never quietly treated as "no key".
    if header is not None:
        assert_problem(api.client.get(f"/api/games/{game['id']}", headers=headers), 401)


def test_an_oversized_body(app, api, game):
    before = table_snapshot(app)
    filler = [{"type": "end_turn", "pad": "x" * 1000}] * 100
    response = api.post_moves(game["id"], game["keys"][game["mover"]], filler, game["seq"])
    assert "larger than" in assert_problem(response, 413)["detail"]
    assert table_snapshot(app) == before


def test_too_many_moves_in_one_batch(app, api, game):
    before = table_snapshot(app)
    response = api.post_moves(
        game["id"], game["keys"][game["mover"]], [{"type": "end_turn"}] * 201, game["seq"]
    )
    assert "moves" in assert_problem(response, 422)["errors"]
    assert table_snapshot(app) == before


def test_unknown_paths_and_methods_are_problems_too(api):
    assert_problem(api.client.get("/api/nothing-here"), 404)
    assert_problem(api.client.delete("/api/players"), 405)


def test_control_characters_are_refused_before_the_database(app, api, game):
    # PostgreSQL refuses NUL in text columns; the API must say so, not fail with a 500.
    before = table_snapshot(app)
    response = api.client.post("/api/players", json={"email": "nul@example.org", "name": "a\x00b"})
    assert "name" in assert_problem(response, 422)["errors"]
    move = {**game["legal"][0], "note": "a\x00b"}
    response = api.post_moves(game["id"], game["keys"][game["mover"]], [move], game["seq"])
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert table_snapshot(app) == before


# --- names and titles: one rule at every door (`pbem.texts.kept_text`) ---------------------

#: What no name or title may hold: the text typed, words of the sentence that refuses it,
#: and how its code ends (the code begins with what was refused: name- or title-).
UNKEEPABLE = {
    "NUL": ("Ann\x00Lee", "holds a control character", "control-characters"),
    "CR LF": ("Ann\r\nLee", "holds a control character", "control-characters"),
    "U+202E": (
        "Ann \u202eeeL",
        "holds a character that changes the direction",
        "direction-characters",
    ),
    "invisible only": ("\u200b\u2060", "shows nothing", "invisible"),
}


def _registration(typed: str) -> tuple[str, dict, list[str]]:
    return "/api/players", {"email": "newcomer@example.org", "name": typed}, ["name"]


def _game(typed: str, where: str) -> tuple[str, dict, list[str]]:
    seats = [
        {"email": "ada@example.org", "colour": "red"},
        {"email": "newcomer@example.org", "colour": "blue", "name": "Bea"},
        {"bot": True, "colour": "green"},
    ]
    if where == "title":
        return "/api/games", {"title": typed, "seats": seats}, ["title"]
    seats[1]["name"] = typed
    return "/api/games", {"title": "Sunday league", "seats": seats}, ["seats", "1", "name"]


#: Every field of the API that takes a name or a title (giving a seat takes an address
#: only; a player's name is given when they register, and changed on /me).
DOORS = {
    "a player's name (POST /api/players)": ("name", _registration),
    "a game's title (POST /api/games)": ("title", lambda typed: _game(typed, "title")),
    "a seat's name (POST /api/games)": ("name", lambda typed: _game(typed, "seat")),
}


@pytest.mark.parametrize("bad", UNKEEPABLE.values(), ids=UNKEEPABLE)
@pytest.mark.parametrize("door", DOORS.values(), ids=DOORS)
def test_a_name_or_title_that_cannot_be_kept_is_refused_and_changes_nothing(app, api, door, bad):
    kind, request = door
    typed, says, code = bad
    key = api.register("ada@example.org", "Ada")
    path, body, field = request(typed)
    before = table_snapshot(app)
    problem = assert_problem(api.client.post(path, json=body, headers=api.auth(key)), 422)
    assert problem["code"] == f"{kind}-{code}"
    assert f"This {kind} {says}" in problem["detail"]
    errors = problem["errors"]
    for step in field:
        errors = errors[step]
    # The field itself is named, with the same sentence.
    assert errors and all(f"This {kind} {says}" in message for message in errors)
    assert table_snapshot(app) == before


def test_a_name_the_rule_keeps_is_kept_as_typed_less_the_blank_around_it(app, api):
    key = api.register("ada@example.org", "Ada")
    body = _game("  سارة 👩‍👩‍👧  ", "seat")[1]
    made = api.client.post("/api/games", json=body, headers=api.auth(key))
    assert made.status_code == 201, made.get_json()
    (seat,) = [s for s in made.get_json()["seats"] if s["colour"] == "blue"]
    assert seat["name"] == "سارة 👩‍👩‍👧"


def test_a_nul_in_a_webhooks_url_is_refused_and_changes_nothing(app, api, game):
    before = table_snapshot(app)
    hook = {"game_id": game["id"], "url": "https://chat.example.org/hook/\x00"}
    response = api.client.put(
        "/api/players/me/preferences",
        json={"webhooks": [hook]},
        headers=api.auth(game["keys"][game["mover"]]),
    )
    problem = assert_problem(response, 422)
    assert "webhooks.0.url" in problem["detail"] and problem["errors"]["webhooks"]["0"]["url"]
    assert table_snapshot(app) == before


# --- inputs Python can parse but the service cannot live with (each once gave a 500) ------

HUGE = "9" * 5000


def raw_post(api, path, text, key=None):
    return api.client.post(path, data=text, content_type="application/json", headers=api.auth(key))


def test_a_5000_digit_card_number(app, api, game):
    before = table_snapshot(app)
    text = (
        f'{{"expected_seq": {game["seq"]}, "moves": [{{"type": "play_power_card", '
        f'"card": {HUGE}}}]}}'
    )
    problem = assert_problem(raw_post(api, moves_url(game), text, game["keys"][game["mover"]]), 400)
    assert "5000 digits" in problem["detail"]
    assert table_snapshot(app) == before


def test_a_4400_digit_name(app, api):
    before = table_snapshot(app)
    text = '{"email": "a@example.com", "name": %s}' % ("4" * 4400)
    problem = assert_problem(raw_post(api, "/api/players", text), 400)
    assert "4400 digits" in problem["detail"]
    assert table_snapshot(app) == before


@pytest.mark.parametrize("path", ["/api/players", "/api/games", "/api/games/1/moves"])
def test_a_body_nested_a_thousand_deep(app, api, game, path):
    before = table_snapshot(app)
    problem = assert_problem(
        raw_post(api, path, "[" * 1000 + "]" * 1000, game["keys"][game["mover"]]), 400
    )
    assert "nests deeper" in problem["detail"]
    assert table_snapshot(app) == before


def test_a_lone_surrogate_in_a_player_name(app, api):
    before = table_snapshot(app)
    text = '{"email": "a@example.com", "name": "\\ud800"}'
    problem = assert_problem(raw_post(api, "/api/players", text), 400)
    assert "surrogate" in problem["detail"]
    assert table_snapshot(app) == before


def test_a_lone_surrogate_in_a_game_title(app, api, game):
    before = table_snapshot(app)
    text = (
        '{"title": "\\udfff", "seats": [{"email": "red@example.org", "colour": "red"},'
        ' {"email": "blue@example.org", "colour": "blue"}]}'
    )
    problem = assert_problem(raw_post(api, "/api/games", text, game["keys"]["red"]), 400)
    assert "surrogate" in problem["detail"]
    assert table_snapshot(app) == before


def test_a_lone_surrogate_in_a_move_field(app, api, game):
    before = table_snapshot(app)
    text = f'{{"expected_seq": {game["seq"]}, "moves": [{{"type": "place", "to": "\\ud800"}}]}}'
    problem = assert_problem(raw_post(api, moves_url(game), text, game["keys"][game["mover"]]), 400)
    assert "surrogate" in problem["detail"]
    assert table_snapshot(app) == before


def test_an_id_past_the_databases_integers_is_not_found(app, api, game):
    key = game["keys"][game["mover"]]
    before = table_snapshot(app)
    huge = "30235892671332958208"
    for method, path in [
        ("delete", f"/api/players/me/absences/{huge}"),
        ("get", f"/api/games/{huge}"),
        ("put", f"/api/games/{huge}/seats/red/bot"),
    ]:
        kwargs = {"json": {"bot": True}} if method == "put" else {}
        response = getattr(api.client, method)(path, headers=api.auth(key), **kwargs)
        assert assert_problem(response, 404)["detail"].startswith(("There is no", "You have no"))
    assert table_snapshot(app) == before


@pytest.mark.parametrize(
    "template",
    [
        # The first would be refused as stale; read as the last, it was played.
        '{{"expected_seq": 99999, "expected_seq": {seq}, "moves": [{move}]}}',
        '{{"expected_seq": {seq}, "moves": [{dup}]}}',
    ],
)
def test_a_key_given_twice_is_refused_by_name(app, api, game, template):
    before = table_snapshot(app)
    move = json.dumps(game["legal"][0])
    dup = move[:-1] + ', "type": "pass"}'  # `type` twice in the move
    text = template.format(seq=game["seq"], move=move, dup=dup)
    response = raw_post(api, moves_url(game), text, game["keys"][game["mover"]])
    problem = assert_problem(response, 400)
    twice = "expected_seq" if "99999" in template else "type"
    assert f"'{twice}' appears twice" in problem["detail"]
    assert table_snapshot(app) == before


def test_a_key_given_twice_in_the_pages_move_form_is_refused(app, api, client, game):
    from tests.web.helpers import move_form, offered_moves, page, sign_in_seat

    sign_in_seat(app, client, game["id"], game["mover"])
    doc = page(client, f"/games/{game['id']}")
    move = offered_moves(doc)[0]
    before = table_snapshot(app)
    form = {**move_form(doc), "move": move[:-1] + ', "type": "pass"}'}
    response = client.post(f"/games/{game['id']}/moves", data=form)
    assert response.status_code == 422
    assert "reload the page" in response.get_data(as_text=True)
    assert table_snapshot(app) == before
