"""The board page for a player who does not see the map: the board in words (the same rows
as the mail's text table, in the reader's language), and a move typed in the notation the
mails use, read by the same reader as a mail's reply: played at once for a decision,
added to the plan in a turn, and refused with a "did you mean" that keeps what was typed
and changes nothing."""

from __future__ import annotations

import json
import random
from urllib.parse import urlencode

import engine
from engine.data import CASTILLO, REGIONS
from pbem.languages import in_language
from pbem.words.board import board_rows, board_table
from tests.server.conftest import table_snapshot
from tests.server.helpers import step_randomly
from tests.web.helpers import page, sign_in_seat, to_a_turn
from tests.web.test_plan_turn import confirm_form, plan_steps


def words_table(doc) -> dict[str, list[str]]:
    """The board in words as the page has it: each row's head -> its cells' text."""
    section = doc.find("section", cls="board-words")
    assert section is not None, "no board in words on the page"
    rows = {}
    for row in section.find("table").find_all("tr"):
        head = row.find("th")
        rows[head.text.strip()] = [td.text.strip() for td in row.find_all("td")]
    return rows


def test_the_board_in_words_says_what_the_view_holds_as_the_mail_does(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    step_randomly(api, game_id, keys, random.Random(4), 40)
    view = api.get(f"/api/games/{game_id}").get_json()  # the public view: a spectator's page
    doc = page(client, f"/games/{game_id}")
    rows = words_table(doc)
    with app.test_request_context(), in_language("en"):
        board = board_rows(view)
        mail = board_table(view).splitlines()
    assert list(rows)[0] == "Where" and rows["Where"] == []  # the head: a row of <th>
    for place in board.places:
        seen = view["castillo"] if place.place == CASTILLO else view["regions"][place.place]
        counts = [str(seen["caballeros"].get(c, 0)) for c in view["colours"]]
        assert rows[place.name][:3] == counts, place
        assert rows[place.name][3] == "/".join(map(str, seen["scoreboard"]))
        # The mail's line for the place says the same counts ("." for none).
        line = next(text for text in mail if text.startswith(place.name + " "))
        assert [n if n != "0" else "." for n in counts] == _counts_in(line, place.name, 3)
    assert {p.place for p in board.places} == {*REGIONS, CASTILLO}
    king = next(p for p in board.places if p.place == view["king"])
    assert rows[king.name][4] == "; ".join(king.notes) and "king" in king.notes
    for key in ("score", "court", "province"):
        label = next(r.label for r in board.players if r.key == key)
        assert rows[label][:3] == [str(view["players"][c][key]) for c in view["colours"]]


def _counts_in(line: str, name: str, colours: int) -> list[str]:
    return line[len(name) :].split()[:colours]


def test_the_board_in_words_reads_in_the_readers_language(app, api, client):
    game_id, _keys = api.new_game(["red", "blue", "green"])
    view = api.get(f"/api/games/{game_id}").get_json()
    client.get("/language/de")
    doc = page(client, f"/games/{game_id}")
    section = doc.find("section", cls="board-words")
    assert section.find("h2").text.strip() == "Das Spielbrett in Worten"
    with app.test_request_context(), in_language("de"):
        board = board_rows(view)
    assert [p.name for p in board.places] == list(words_table(doc))[1 : len(board.places) + 1]
    assert any(p.name != p.place.replace("_", " ").title() for p in board.places)  # German
    heads = [th.text.split()[-1] for th in section.find("thead").find_all("th")]
    assert heads[:4] == ["Wo", "Rot", "Blau", "Grün"], heads


def typed_form(doc) -> tuple[str, str, dict[str, str]]:
    form = doc.find("form", cls="typed-move")
    assert form is not None, "no field to type a move in"
    fields = {i.get("name"): i.get("value") for i in form.find_all("input", type="hidden")}
    return form.get("method"), form.get("action").partition("#")[0], fields


def test_a_power_card_typed_is_planned_and_a_mistyped_one_is_refused_and_kept(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    first = api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    sign_in_seat(app, client, game_id, first)
    doc = page(client, f"/games/{game_id}")
    method, action, fields = typed_form(doc)
    # Planned like a tapped card (a GET, without the CSRF token), played once confirmed.
    assert method == "get" and "csrf_token" not in fields
    # The hint gives one of the moves offered, as a mail writes it.
    hint = doc.find("p", id="typed-move-hint").text
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[first]).get_json()["moves"]
    assert engine.format_move(legal[0]) in hint, hint

    def typed(text: str):
        return client.get(f"{action}?{urlencode({**fields, 'typed': text})}")

    before = table_snapshot(app)
    refused = typed("powr 31")
    assert refused.status_code == 422, refused.status_code
    doc = page_of(refused)
    alert = doc.find("p", cls="error").text
    assert "did you mean" in alert.lower() and '"power' in alert, alert
    assert doc.find("input", id="typed-move").get("value") == "powr 31"
    for empty in ("", "   "):
        answer = typed(empty)
        assert answer.status_code == 422
        assert "Type a move first" in page_of(answer).find("p", cls="error").text
    long = typed("power 13 " * 80)
    assert long.status_code == 422 and "more than 500" in long.get_data(as_text=True)

    doc = page(client, f"{action}?{urlencode({**fields, 'typed': 'power 13'})}")
    assert plan_steps(doc) == ["power card 13"]
    assert table_snapshot(app) == before  # planned, not played
    confirm = confirm_form(doc)
    assert client.post(f"/games/{game_id}/moves", data=confirm).status_code == 303
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert [(e["player"], e["move"]) for e in log] == [
        (first, {"type": "play_power_card", "card": 13})
    ]
    # Typed straight to the route, only for the reader's own seat: now another's decision.
    again = client.post(
        f"/games/{game_id}/moves",
        data={"csrf_token": confirm["csrf_token"], "expected_seq": "1", "typed": "power 11"},
    )
    assert again.status_code in (400, 403, 409, 422)
    assert len(api.get(f"/api/games/{game_id}/log").get_json()["moves"]) == 1


def page_of(response):
    from tests.web.html import parse

    return parse(response.get_data(as_text=True))


def test_in_a_turn_a_typed_move_joins_the_plan_and_a_typo_keeps_the_plan(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = to_a_turn(api, game_id, keys)
    sign_in_seat(app, client, game_id, colour)
    before = table_snapshot(app)
    doc = page(client, f"/games/{game_id}")
    method, action, fields = typed_form(doc)
    assert method == "get" and "csrf_token" not in fields  # planning writes nothing
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()["moves"]
    card = next(m for m in legal if m["type"] == "choose_card")
    typed = engine.format_move(card)  # as a mail writes it
    doc = page(client, f"{action}?{urlencode({**fields, 'typed': typed})}")
    (step,) = plan_steps(doc)
    assert json.loads(
        doc.find("form", cls="typed-move").find("input", name="planned").get("value")
    ) == [card]
    # A typo after it: refused with a "did you mean", the plan kept as it stood.
    method, action, fields = typed_form(doc)
    query = urlencode({**fields, "typed": "plase nowhere"})
    refused = client.get(f"{action}?{query}")
    assert refused.status_code in (400, 409, 422)
    doc = page_of(refused)
    assert plan_steps(doc) == [step]
    assert doc.find("input", id="typed-move").get("value") == "plase nowhere"
    assert doc.find("p", cls="error").text.strip()
    assert table_snapshot(app) == before


def test_nothing_typed_is_read_after_a_planned_move_that_reveals(app):
    """A plan's move that uncovers new action cards (or others' picks) is played unseen on
    Confirm; a line typed after it is refused with a sentence that shows nothing of what it
    uncovers (never the "did you mean" or "you may" read against the game it leaves)."""
    from pbem.errors import Invalid
    from pbem.web.routes import _typed_after

    rng = random.Random(1)
    state = engine.new_game(["red", "blue", "green"], seed=3)
    for _ in range(2000):
        colour = engine.pending(state)[0]["player"]
        legal = engine.legal_moves(state, colour)
        revealing = next(
            (m for m in legal if engine.reveals_hidden(engine.apply(state, colour, m)[1])), None
        )
        if revealing is not None:
            break
        state, _events = engine.apply(state, colour, rng.choice(legal))
    else:
        raise AssertionError("no move revealed anything")
    with app.test_request_context():
        try:
            _typed_after([revealing], "plase nowhere")(state, colour)
        except Invalid as refused:
            said = str(refused.detail)
        else:
            raise AssertionError("a line read after a revealing move")
    assert said.startswith("The plan's last move reveals new information"), said
    assert "mean" not in said and "may" not in said
