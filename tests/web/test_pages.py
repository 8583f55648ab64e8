"""The pages through Flask's test client: the list, the board, playing from it, the replay
controls, signing in and out, and the safety rules (CSRF, escaping, cookie flags)."""

from __future__ import annotations

import json
import random
import re
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
import sqlalchemy as sa

import engine
from engine.data import CASTILLO, REGIONS
from pbem.extensions import db
from pbem.game import history
from tests.server.conftest import table_snapshot
from tests.server.helpers import play_random_game, step_randomly
from tests.web.helpers import (
    game_with_an_intrigue,
    move_form,
    offered_moves,
    page,
    seat_link_for,
    sign_in_seat,
)
from tests.web.html import Node, parse


def pending_colour(api, game_id: int) -> str:
    return api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]


def post_move(client, game_id: int, fields: dict, move: dict | str):
    body = {**fields, "move": move if isinstance(move, str) else json.dumps(move)}
    return client.post(f"/games/{game_id}/moves", data=body)


# --- the list and the board ------------------------------------------------------------------


def test_the_list_shows_games_and_yours_once_signed_in(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    other_id, _ = api.new_game(["red", "blue"])
    doc = page(client, "/")
    in_play = doc.find("table", data_list="in-play")
    rows = {int(r.get("data-game")): r for r in in_play.find_all("tr", data_game=True)}
    assert set(rows) == {game_id, other_id}
    assert "Red" in rows[game_id].find("td", cls="players").text
    assert rows[game_id].find("td", cls="round").text == "1 of 9"
    first = pending_colour(api, game_id)
    assert first.title() in rows[game_id].find("td", cls="to-move").text
    assert doc.find("table", data_list="yours") is None

    sign_in_seat(app, client, game_id, first)
    doc = page(client, "/")
    yours = doc.find("table", data_list="yours-to-play")
    assert [int(r.get("data-game")) for r in yours.find_all("tr", data_game=True)] == [game_id]
    assert "your turn" in yours.text
    due = api.get(f"/api/games/{game_id}").get_json()["deadlines"]
    shown = yours.find("td", cls="deadline").find("time").get("datetime")
    assert datetime.fromisoformat(shown) == min(datetime.fromisoformat(d["due"]) for d in due)
    # Once they have played, the game waits for the others.
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[first]).get_json()
    assert api.post_moves(game_id, keys[first], legal["moves"][:1], 0).status_code == 201
    doc = page(client, "/")
    assert doc.find("table", data_list="yours-to-play") is None
    waiting = doc.find("table", data_list="yours-waiting")
    assert [int(r.get("data-game")) for r in waiting.find_all("tr", data_game=True)] == [game_id]
    assert "your turn" not in waiting.text


def test_the_board_shows_the_viewers_view(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    step_randomly(api, game_id, keys, random.Random(1), 25)
    sign_in_seat(app, client, game_id, "blue")
    doc = page(client, f"/games/{game_id}")
    view = api.get(f"/api/games/{game_id}", keys["blue"]).get_json()
    svg = doc.find("svg", cls="board")
    assert sorted(g.get("data-region") for g in svg.find_all("g", data_region=True)) == sorted(
        REGIONS
    )
    for place in (*REGIONS, CASTILLO):
        seen = view["castillo"] if place == CASTILLO else view["regions"][place]
        shown = {
            s.get("data-colour"): int(s.get("data-count"))
            for s in svg.find("g", data_place=place).find_all("g", data_count=True)
        }
        assert shown == {c: n for c, n in seen["caballeros"].items() if n}, place
    hand = doc.find("section", cls="hand")
    assert hand.get("data-colour") == "blue"
    assert [int(c.text) for c in hand.find_all("span", cls="power-card-chip")] == view["players"][
        "blue"
    ]["hand"]
    assert "Game " + str(game_id) in doc.find("p", cls="status").text


def test_a_game_that_does_not_exist_is_404(client):
    doc = page(client, "/games/999999", status=404)
    assert "There is no game 999999" in doc.find("p", cls="error").text
    page(client, "/games/1?seq=abc", status=404)


# --- playing -----------------------------------------------------------------------------------


def test_a_seat_plays_from_the_page(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = pending_colour(api, game_id)
    sign_in_seat(app, client, game_id, colour)
    doc = page(client, f"/games/{game_id}")
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()["moves"]

    def canonical(moves):
        return sorted(json.dumps(m, sort_keys=True) for m in moves)

    assert canonical(map(json.loads, offered_moves(doc))) == canonical(legal)
    cards = doc.find_all("button", cls="power-card")
    assert sorted(int(b.get("data-card")) for b in cards) == sorted(m["card"] for m in legal)

    fields = move_form(doc)
    assert fields["expected_seq"] == "0"
    response = post_move(client, game_id, fields, cards[-1].get("value"))
    assert response.status_code == 303
    played = json.loads(cards[-1].get("value"))
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert [(e["player"], e["move"], e["source"]) for e in log] == [(colour, played, "web")]
    doc = page(client, response.headers["Location"])
    assert f"Played: power card {played['card']}." in doc.find("p", cls="flash").text
    # The log says it in words, with the notation players write in mails beside it.
    entry = doc.find("aside", cls="log").find("li", data_seq="1")
    assert entry.find("span", cls="text").text == f"power card {played['card']}"
    assert entry.find("code", cls="notation").text == f"power {played['card']}"


def test_a_stale_page_gets_the_apis_sentence_and_409(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = pending_colour(api, game_id)
    sign_in_seat(app, client, game_id, colour)
    doc = page(client, f"/games/{game_id}")
    fields, moves = move_form(doc), offered_moves(doc)
    # The same seat plays through the API meanwhile: the page is now stale.
    assert api.post_moves(game_id, keys[colour], [json.loads(moves[0])], 0).status_code == 201
    api_answer = api.post_moves(game_id, keys[colour], [json.loads(moves[0])], 0).get_json()
    response = post_move(client, game_id, fields, moves[0])
    assert response.status_code == 409
    shown = parse(response.get_data(as_text=True)).find("p", cls="error").text
    assert shown == api_answer["detail"]
    assert api.get(f"/api/games/{game_id}").get_json()["seq"] == 1


def test_refusals_have_their_status(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = pending_colour(api, game_id)
    other = next(c for c in ("red", "blue", "green") if c != colour)
    # Not signed in: 403, nothing played.
    page(client, f"/games/{game_id}")  # a session, for the CSRF token
    with client.session_transaction() as session:
        token = session.get("csrf") or "x"
    fields = {"csrf_token": token, "expected_seq": "0"}
    response = post_move(client, game_id, fields, {"type": "play_power_card", "card": 1})
    assert response.status_code in (400, 403)

    sign_in_seat(app, client, game_id, other)
    fields = move_form(page(client, f"/games/{game_id}"))
    # Not this seat's turn: the engine's reason, 422.
    response = post_move(client, game_id, fields, {"type": "play_power_card", "card": 1})
    assert response.status_code == 422
    assert parse(response.get_data(as_text=True)).find("p", cls="error").text
    # Not JSON at all: 422.
    assert post_move(client, game_id, fields, "{not json").status_code == 422
    # Another seat's colour: 403.
    response = post_move(client, game_id, {**fields, "colour": colour}, {"type": "end_turn"})
    assert response.status_code == 403
    # No such game: 404.
    assert post_move(client, 999999, fields, {"type": "end_turn"}).status_code == 404
    assert api.get(f"/api/games/{game_id}").get_json()["seq"] == 0


def test_a_two_colour_person_chooses_the_colour_with_colour(app, api, client):
    colours = ["red", "yellow", "green", "blue"]
    game_id, keys = api.new_two_colour_game(colours)
    first = pending_colour(api, game_id)
    holder_colours = [c for c in colours if keys[c] == keys[first]]
    sign_in_seat(app, client, game_id, first)
    other = next(c for c in holder_colours if c != first)
    doc = page(client, f"/games/{game_id}?colour={other}")
    assert doc.find("section", cls="hand").get("data-colour") == other
    assert move_form(doc)["colour"] == other
    assert offered_moves(doc) == []  # the other colour has nothing to do yet
    doc = page(client, f"/games/{game_id}")
    assert move_form(doc)["colour"] == first
    response = post_move(client, game_id, move_form(doc), offered_moves(doc)[0])
    assert response.status_code == 303 and f"colour={first}" in response.headers["Location"]
    # A colour of the other person's: 403, as in the API.
    stranger = next(c for c in colours if keys[c] != keys[first])
    page(client, f"/games/{game_id}?colour={stranger}", status=403)


# --- replay ------------------------------------------------------------------------------------


def test_round_starts_are_the_round_started_events(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"], options={"rounds": 6})
    play_random_game(api, game_id, keys, random.Random(4))
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    from_events = [
        e["seq"] for e in log if any(ev["type"] == "round_started" for ev in e["events"])
    ]
    with app.app_context():
        assert history.round_starts(game_id) == [0, *from_events]
        db.session.remove()
    assert len(from_events) == 5


def test_the_kept_record_is_the_stored_one_move_by_move(app, api):
    """Each worker tops its record of a game up by the moves since; at every seq (after one
    move or several, across round starts) it holds the stored round starts and shows each
    reader the same last round as reading that stretch of the log would."""
    from pbem.store.models import Game

    game_id, keys = api.new_game(["red", "blue", "green"], options={"rounds": 6})
    rng = random.Random(5)
    checked = 0
    while True:
        view = api.get(f"/api/games/{game_id}").get_json()
        with app.app_context():
            seed = db.session.get(Game, game_id).seed
            kept = history.record(game_id, seed, view["seq"])
            assert kept.seq == view["seq"]
            assert list(kept.starts) == history.round_starts(game_id)
            after = max(kept.starts[-1] - 1, 0)
            for own in ([], ["red"], ["blue", "green"]):
                expected = history.log_between(game_id, own, after, view["seq"])
                assert kept.last_round_log(own) == expected
            db.session.remove()
        checked += 1
        if view["status"] != "active":
            break
        # One move, or a few: a worker that did not see the game for a while.
        for _ in range(rng.choice([1, 1, 2, 7])):
            view = api.get(f"/api/games/{game_id}").get_json()
            if view["status"] != "active":
                break
            colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
            legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
            move = rng.choice(legal["moves"])
            assert api.post_moves(game_id, keys[colour], [move], view["seq"]).status_code == 201
    assert len(kept.starts) == 6 and checked > 20


def test_the_replay_controls_step_by_move_and_round(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"], options={"rounds": 6})
    step_randomly(api, game_id, keys, random.Random(2), 70)
    last = api.get(f"/api/games/{game_id}").get_json()["seq"]
    log = api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    starts = [0] + [
        e["seq"] for e in log if any(ev["type"] == "round_started" for ev in e["events"])
    ]
    assert len(starts) >= 3
    sign_in_seat(app, client, game_id, "red")

    def controls(seq):
        doc = page(client, f"/games/{game_id}?seq={seq}")
        steps = doc.find("nav", cls="replay").find_all(data_step=True)
        return doc, {s.get("data-step"): s.get("data-seq") for s in steps}

    # From the first round, the previous round is the game's start.
    assert controls(starts[1] - 1)[1]["previous-round"] == "0"
    middle = starts[2] + 2
    assert middle < last
    doc, steps = controls(middle)
    assert steps == {
        "start": "0",
        # The round before this one (its moves listed there), not this one's start.
        "previous-round": str(starts[1]),
        "previous-move": str(middle - 1),
        "next-move": str(middle + 1),
        "next-round": str(starts[3]) if len(starts) > 3 else str(last),
        "now": str(last),
    }
    # The page at seq N is the API's state N, for the same viewer.
    for seq in (0, starts[1], middle, starts[2], last - 1):
        doc = page(client, f"/games/{game_id}?seq={seq}")
        state = api.get(f"/api/games/{game_id}/states/{seq}", keys["red"]).get_json()
        for region in REGIONS:
            shown = {
                s.get("data-colour"): int(s.get("data-count"))
                for s in doc.find("g", data_region=region).find_all("g", data_count=True)
            }
            assert shown == {c: n for c, n in state["regions"][region]["caballeros"].items() if n}
        hand = [int(c.text) for c in doc.find("section", cls="hand").find_all("span")]
        assert hand == state["players"]["red"]["hand"]
        # The log shows the round being looked at, with the move shown marked.
        entries = [
            int(li.get("data-seq"))
            for li in doc.find("aside", cls="log").find_all("li", data_seq=True)
        ]
        if seq:
            assert seq in entries
            assert doc.find("aside", cls="log").find("li", cls="shown").get("data-seq") == str(seq)
        # No moves to offer in the past.
        assert doc.find("form", cls="moves") is None
    _, steps = controls(0)
    assert steps["start"] is None and steps["previous-move"] is None
    _, steps = controls(last)
    assert steps["now"] is None and steps["next-move"] is None
    page(client, f"/games/{game_id}?seq={last + 1}", status=404)


def test_a_finished_game_shows_the_final_scoring_and_whole_log(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"], options={"rounds": 6})
    played = play_random_game(api, game_id, keys, random.Random(5))
    view = api.get(f"/api/games/{game_id}").get_json()
    doc = page(client, f"/games/{game_id}")
    final = doc.find("section", cls="final-scoring")
    rows = final.find_all("tr", data_colour=True)
    assert {r.get("data-colour"): int(r.find("td", cls="score").text) for r in rows} == {
        c: view["players"][c]["score"] for c in view["colours"]
    }
    assert sorted(r.get("data-colour") for r in rows if "winner" in r.classes) == sorted(
        view["winners"]
    )
    entries = doc.find("aside", cls="log").find_all("li", data_seq=True)
    assert [int(e.get("data-seq")) for e in entries] == list(range(1, played + 1))
    assert doc.find("form", cls="moves") is None


def test_a_finished_two_colour_game_shows_each_persons_score(app, api, client):
    colours = ["red", "yellow", "green", "blue"]
    game_id, keys = api.new_two_colour_game(colours, options={"rounds": 6})
    play_random_game(api, game_id, keys, random.Random(6))
    view = api.get(f"/api/games/{game_id}").get_json()
    teams = page(client, f"/games/{game_id}").find("table", cls="teams")
    scores = [int(td.text) for td in teams.find_all("td", cls="score")]
    assert scores == [t["score"] for t in view["teams"]]


# --- signing in --------------------------------------------------------------------------------


def test_sign_in_with_an_api_key_and_out(app, api, client):
    game_id, keys = api.new_game(["red", "blue"])
    doc = page(client, "/sign-in")
    token = doc.find("input", name="csrf_token").get("value")
    response = client.post("/sign-in", data={"csrf_token": token, "api_key": "pbem_wrong"})
    assert response.status_code == 403
    assert "not known" in parse(response.get_data(as_text=True)).find("p", cls="error").text
    response = client.post(
        "/sign-in",
        data={"csrf_token": token, "api_key": keys["blue"], "next": f"/games/{game_id}"},
    )
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game_id}"
    doc = page(client, f"/games/{game_id}")
    assert doc.find("a", cls="me").text == "Blue"
    assert doc.find("section", cls="hand").get("data-colour") == "blue"
    # Signing in starts a new session, with a new token; never a redirect to another site.
    token = page(client, "/sign-in").find("input", name="csrf_token").get("value")
    response = client.post(
        "/sign-in", data={"csrf_token": token, "api_key": keys["red"], "next": "//evil.example/"}
    )
    assert response.headers["Location"] == "/"

    doc = page(client, f"/games/{game_id}")
    token = doc.find("form", cls="inline").find("input", name="csrf_token").get("value")
    assert client.post("/sign-out", data={"csrf_token": token}).status_code == 303
    doc = page(client, f"/games/{game_id}")
    assert doc.find("section", cls="hand") is None and doc.find("a", cls="me") is None


def test_seat_links_are_signed_and_checked(app, api, client):
    game_id, keys = api.new_game(["red", "blue"])
    other_id, _ = api.new_game(["red", "blue"])
    link = seat_link_for(app, game_id, "blue")
    # PBEM_BASE_URL unset: `pbem serve`'s address, never the request's host.
    assert re.fullmatch(rf"http://127\.0\.0\.1:5000/games/{game_id}/sign-in/[\w.-]+", link)
    token = link.rsplit("/", 1)[1]
    link = urlsplit(link).path
    # A token changed by one letter, or carried to another game: refused.
    # (The payload's first letter: a signature's last letter may carry only padding bits.)
    forged = ("X" if token[0] != "X" else "Y") + token[1:]
    assert client.get(f"/games/{game_id}/sign-in/{forged}").status_code == 403
    assert client.get(f"/games/{other_id}/sign-in/{token}").status_code == 403
    # The seat given to someone else: the old holder's link no longer signs in.
    new_key = api.register("newcomer@example.org", "Newcomer")
    assert new_key
    response = client.put(
        f"/api/games/{game_id}/seats/blue",
        json={"email": "newcomer@example.org"},
        headers=api.auth(keys["red"]),
    )
    assert response.status_code == 200
    response = client.get(link)
    assert response.status_code == 403 and "no longer hold" in response.get_data(as_text=True)
    # An expired link is refused with its own sentence.
    app.config["PBEM_SEAT_LINK_MAX_AGE"] = -1
    red_link = urlsplit(seat_link_for(app, game_id, "red")).path
    assert "expired" in client.get(red_link).get_data(as_text=True)
    assert "expired" in client.post(red_link).get_data(as_text=True)


def test_seat_link_uses_the_configured_base_url(app, api):
    game_id, _ = api.new_game(["red", "blue"])
    app.config["PBEM_BASE_URL"] = "https://elgrande.example/play"
    from pbem.web.signin import seat_link

    with app.app_context():  # no request: as the scheduler builds a mail
        link = seat_link(game_id, "red", 1)
    assert link.startswith(f"https://elgrande.example/play/games/{game_id}/sign-in/")


# --- safety ------------------------------------------------------------------------------------


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = pending_colour(api, game_id)
    sign_in_seat(app, client, game_id, colour)
    fields = move_form(page(client, f"/games/{game_id}"))
    move = offered_moves(page(client, f"/games/{game_id}"))[0]
    before = table_snapshot(app)
    for token in (None, "", "wrong"):
        sent = {k: v for k, v in fields.items() if k != "csrf_token"}
        if token is not None:
            sent["csrf_token"] = token
        response = post_move(client, game_id, sent, move)
        assert response.status_code in (400, 403)
        assert "security token" in response.get_data(as_text=True)
    assert client.post("/sign-out").status_code in (400, 403)
    assert table_snapshot(app) == before
    # Still signed in: the refused sign-out did nothing.
    assert page(client, f"/games/{game_id}").find("a", cls="me") is not None
    # The API takes no cookies and needs no token.
    response = api.post_moves(game_id, keys[colour], [json.loads(move)], 0)
    assert response.status_code == 201


def test_titles_and_names_are_escaped(app, api, client):
    attack = "<script>alert(1)</script>"
    key = api.register("mallory@example.org", attack)
    api.register("bob@example.org", "Bob")
    body = {
        "title": attack,
        "seats": [
            {"email": "mallory@example.org", "colour": "red"},
            {"email": "bob@example.org", "colour": "blue"},
        ],
    }
    game_id = client.post("/api/games", json=body, headers=api.auth(key)).get_json()["id"]
    for path in ("/", f"/games/{game_id}"):
        html = client.get(path).get_data(as_text=True)
        assert attack not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # Signed in, the name is also in the frame's header and its flash message (the frame is
    # drawn once and kept, with the title put in for each page).
    token = page(client, "/sign-in").find("input", name="csrf_token").get("value")
    client.post("/sign-in", data={"csrf_token": token, "api_key": key})
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert attack not in html
    doc = parse(html)
    assert doc.find("a", cls="me").text == attack
    assert doc.find("p", cls="flash").text == f"Signed in as {attack}."
    assert doc.find("title").text == f"{attack} · El Grande"


#: A name and a title kept before names and titles were held to `pbem.texts`' rule: a
#: U+202E left open in each would turn the words after it around, were it not isolated.
OLD_NAME, OLD_TITLE = "Ann \u202ennA", "Cup \u202epuC"


def _isolated(node: Node | None, text: str) -> bool:
    """Whether `node` shows `text` in a `<bdi>` of its own."""
    assert node is not None
    return any(bdi.text == text for bdi in node.find_all("bdi"))


def _kept_before_the_rule(app, game_id: int, colour: str) -> int:
    """The game's title and its `colour` seat's holder's name as such a row holds them; the
    holder's id."""
    with app.app_context():
        title = sa.text("UPDATE games SET title = :title WHERE id = :game")
        db.session.execute(title, {"title": OLD_TITLE, "game": game_id})
        holder = db.session.execute(
            sa.text("SELECT player_id FROM seats WHERE game_id = :game AND colour = :colour"),
            {"game": game_id, "colour": colour},
        ).scalar_one()
        name = sa.text("UPDATE players SET name = :name WHERE id = :id")
        db.session.execute(name, {"name": OLD_NAME, "id": holder})
        db.session.commit()
        db.session.remove()
    return holder


def test_names_and_titles_are_isolated_wherever_a_page_shows_them(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"], options={"rounds": 6})
    ann = _kept_before_the_rule(app, game_id, "red")
    board = page(client, f"/games/{game_id}")
    assert _isolated(board.find("div", cls="game-head").find("h1"), OLD_TITLE)
    assert _isolated(board.find("p", cls="seated"), OLD_NAME)
    assert _isolated(board.find("section", cls="players"), OLD_NAME)
    row = page(client, "/").find("table", data_list="in-play").find("tr", data_game=str(game_id))
    assert _isolated(row.find("td", cls="title"), OLD_TITLE)
    assert _isolated(row.find("td", cls="players"), OLD_NAME)

    play_random_game(api, game_id, keys, random.Random(3))
    over = page(client, f"/games/{game_id}")
    assert _isolated(over.find("section", cls="final-scoring"), OLD_NAME)
    assert _isolated(over.find("div", cls="game-head").find("h1"), OLD_TITLE)
    row = page(client, "/").find("table", data_list="finished").find("tr", data_game=str(game_id))
    assert _isolated(row.find("td", cls="title"), OLD_TITLE)
    record = page(client, f"/players/{ann}")
    assert _isolated(record.find("h1"), OLD_NAME)
    assert _isolated(record.find("tr", data_game=str(game_id)), OLD_TITLE)

    sign_in_seat(app, client, game_id, "red")
    me = page(client, "/me")
    assert _isolated(me.find("h1"), OLD_NAME) and _isolated(me.find("a", cls="me"), OLD_NAME)


def test_the_session_cookie_is_httponly_and_samesite_lax(app, api, client):
    game_id, _ = api.new_game(["red", "blue"])
    response = sign_in_seat(app, client, game_id, "red")
    cookie = next(c for c in response.headers.getlist("Set-Cookie") if c.startswith("session="))
    flags = {part.strip().split("=")[0].lower(): part for part in cookie.split(";")}
    assert "httponly" in flags
    assert flags["samesite"].strip() == "SameSite=Lax"


def test_an_unchanged_session_is_re_signed_only_once_it_has_aged(app, api, client, monkeypatch):
    from pbem.web import sessions

    game_id, _ = api.new_game(["red", "blue"])
    sign_in_seat(app, client, game_id, "red")
    page(client, f"/games/{game_id}")  # the page's CSRF token: a change, sent at once

    def session_cookies(response) -> list[str]:
        return [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]

    # Read again at once: the same session, nothing to send.
    assert session_cookies(client.get(f"/games/{game_id}")) == []
    # Once the cookie is as old as REFRESH_AFTER, the next response signs it anew (with a
    # later expiry), and the reader is still signed in.
    monkeypatch.setattr(sessions, "REFRESH_AFTER", timedelta(0))
    response = client.get(f"/games/{game_id}")
    (cookie,) = session_cookies(response)
    assert "Expires=" in cookie
    assert parse(response.get_data(as_text=True)).find("a", cls="me") is not None
    # A change is sent at once, however fresh the cookie: signing out clears it.
    monkeypatch.setattr(sessions, "REFRESH_AFTER", timedelta(hours=1))
    token = move_form(page(client, f"/games/{game_id}"))["csrf_token"]
    response = client.post("/sign-out", data={"csrf_token": token})
    assert response.status_code == 303
    (cleared,) = session_cookies(response)
    assert "Expires=Thu, 01 Jan 1970" in cleared
    assert parse(client.get("/").get_data(as_text=True)).find("a", cls="me") is None


def test_a_session_cookie_checked_before_is_still_refused_once_expired_or_altered(app, api):
    game_id, _ = api.new_game(["red", "blue"])
    client = app.test_client()
    sign_in_seat(app, client, game_id, "red")

    def signed_in(client) -> bool:
        doc = parse(client.get(f"/games/{game_id}").get_data(as_text=True))
        return doc.find("a", cls="me") is not None

    assert signed_in(client) and signed_in(client)  # the second read: checked before
    cookie = client.get_cookie("session").value
    altered = app.test_client()
    altered.set_cookie("session", cookie[:-2] + ("AA" if cookie[-2:] != "AA" else "BB"))
    assert not signed_in(altered)
    app.permanent_session_lifetime = timedelta(seconds=0)
    assert not signed_in(client)


@pytest.mark.parametrize(
    "move",
    [
        {"type": "play_power_card", "card": 13},
        {"type": "castillo_pick", "region": "aragon"},
        {"type": "castillo_pick"},
        {"type": "move_caballero", "colour": "red", "from": "seville", "to": "castillo"},
        {"type": "new_kind_of_move", "x": 1},
    ],
)
def test_every_move_reads_as_words(move):
    from pbem.words.moves import move_text

    text = move_text(move)
    assert text and "{" not in text and "_" not in text.replace("new_kind_of_move", "")


def test_every_legal_move_of_a_game_reads_as_words():
    from engine.bots import RandomBot
    from pbem.words.moves import move_text

    state, bot = engine.new_game(["red", "blue", "green"], seed=9), RandomBot(9)
    while not engine.is_over(state):
        for p in {x["player"] for x in engine.pending(state)}:
            for move in engine.legal_moves(state, p):
                # Each kind has its own words, not the fallback "kind (fields)".
                assert not move_text(move).startswith(move["type"].replace("_", " ") + " ("), move
        player = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, player, bot.choose(state, player))


def test_links_carry_the_script_root_the_app_is_served_under(api, client):
    """Links are kept per worker by the script root (a proxy mounting the app under a
    path): the same page under two roots links each within its own."""
    game_id, _ = api.new_game(["red", "blue", "green"])
    for root in ("", "/elgrande", ""):
        base = f"http://localhost{root}"
        html = client.get(f"/games/{game_id}", base_url=base).get_data(as_text=True)
        doc = parse(html)
        hrefs = [a.get("href") for a in doc.find_all("a")] + [
            sheet.get("href") for sheet in doc.find_all("link")
        ]
        assert f'href="{root}/web/static/board.css"' in html
        assert f'src="{root}/web/static/board.js"' in html
        assert f'href="{root}/"' in html  # home
        assert all(h.startswith(root + "/") for h in hrefs if h and h.startswith("/")), hrefs
        if root:
            assert not any(h.startswith("/games") for h in hrefs if h), hrefs


def test_each_reader_gets_a_frame_of_their_own(app, api, client):
    """The frame around a board (header, sign-out form, flash messages) is drawn once per
    reader and kept: two sessions of one player each carry their own CSRF token, a flash
    message shows once and only to its session, and someone signed out is sent back to the
    page they were on."""
    game_id, _ = api.new_game(["red", "blue", "green"])
    colour = pending_colour(api, game_id)
    other = app.test_client()
    tokens = {}
    for reader in (client, other):
        sign_in_seat(app, reader, game_id, colour)
        doc = page(reader, f"/games/{game_id}")
        with reader.session_transaction() as session:
            tokens[reader] = session["csrf"]
        sign_out_token = doc.find("form", cls="inline").find("input", name="csrf_token")
        assert sign_out_token.get("value") == tokens[reader]
        assert move_form(doc)["csrf_token"] == tokens[reader]
    assert tokens[client] != tokens[other]

    doc = page(other, f"/games/{game_id}")
    response = post_move(other, game_id, move_form(doc), offered_moves(doc)[0])
    assert response.status_code == 303
    flashes = [p.text for p in page(other, f"/games/{game_id}").find_all("p", cls="flash")]
    assert len(flashes) == 1 and flashes[0].startswith("Played: ")
    assert page(other, f"/games/{game_id}").find("p", cls="flash") is None
    assert page(client, f"/games/{game_id}").find("p", cls="flash") is None

    nobody = app.test_client()
    for path in (f"/games/{game_id}", f"/games/{game_id}?seq=0"):
        doc = page(nobody, path)
        assert doc.find("form", cls="inline") is None and doc.find("form", cls="moves") is None
        sign_in = doc.find("a", cls="sign-in").get("href")
        # (`request.full_path`, with its "?" even when the query is empty)
        assert [n.rstrip("?") for n in parse_qs(urlsplit(sign_in).query)["next"]] == [path]


# --- explained where used ---------------------------------------------------------------------


def test_cards_are_explained_where_they_are_used(app, api, client):
    """Each action card in the panel says how many caballeros it places and its special
    action, in the mails' words; each power card button what it lets you take; the seat's
    move form what its decision needs."""
    from engine.data import POWER_CARDS
    from pbem.words import CARD_TEXTS

    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = pending_colour(api, game_id)
    sign_in_seat(app, client, game_id, colour)
    doc = page(client, f"/games/{game_id}")
    view = api.get(f"/api/games/{game_id}", keys[colour]).get_json()
    cards = doc.find("section", cls="action-cards").find_all("li", data_card=True)
    assert [c.get("data-card") for c in cards] == [
        c["card"] for c in sorted(view["action_cards"]["face_up"], key=lambda c: c["stack"])
    ]
    for card in cards:
        effect = card.find("span", cls="effect").text
        stack = int(card.get("data-stack"))
        assert effect.startswith(f"Places {stack};") and CARD_TEXTS[card.get("data-card")] in effect
    buttons = doc.find_all("button", cls="power-card")
    assert buttons and all(f"+{POWER_CARDS[int(b.get('data-card'))]}" in b.text for b in buttons)
    assert "the earlier you act" in doc.find("p", cls="guide").text


def test_the_rules_page_explains_every_card_and_the_favicon_is_there(client):
    from engine.data import ACTION_STACKS
    from pbem.words import CARD_TEXTS

    doc = page(client, "/rules")
    shown = {dt.get("data-card") for dt in doc.find_all("dt", data_card=True)}
    assert shown == {card for cards in ACTION_STACKS.values() for card, _ in cards}
    assert all(text[:20].capitalize() in doc.text for text in CARD_TEXTS.values())
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.content_type.startswith("image/svg+xml")
    assert b"<svg" in icon.data


def test_the_poll_answers_304_until_the_game_moves(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    first = client.get(f"/games/{game_id}/seq")
    # `talk` (the last word to the table) is for a seat's reader: null to the public.
    expected = {"seq": 0, "status": "active", "talk": None}
    assert first.status_code == 200 and first.get_json() == expected
    etag = first.headers["ETag"]
    again = client.get(f"/games/{game_id}/seq", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    # The 304 says what a 200 would: its tag, and that a browser must ask again each time.
    assert again.headers["ETag"] == etag and again.headers["Cache-Control"] == "no-cache"
    assert "Cookie" in again.headers["Vary"]
    colour = pending_colour(api, game_id)
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
    assert api.post_moves(game_id, keys[colour], legal["moves"][:1], 0).status_code == 201
    moved = client.get(f"/games/{game_id}/seq", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.get_json()["seq"] == 1
    assert moved.headers["ETag"] != etag and moved.headers["ETag"].startswith('"')
    assert moved.headers["Cache-Control"] == "no-cache" and "Cookie" in moved.headers["Vary"]
    for missing in (999999, 10**12):
        assert client.get(f"/games/{missing}/seq").status_code == 404


def test_each_pending_seat_shows_its_deadline(app, api, client):
    """The panel gives each pending seat's deadline as the API does: ISO 8601 in
    `data-deadline` (the script writes it in the reader's time zone), in UTC as text."""
    from datetime import datetime

    game_id, keys = api.new_game(["red", "blue", "green"])
    view = api.get(f"/api/games/{game_id}").get_json()
    doc = page(client, f"/games/{game_id}")
    shown = {
        li.get("data-colour"): li.find("time", data_deadline=True)
        for li in doc.find("section", cls="pending").find_all("li", data_colour=True)
    }
    assert set(shown) == {d["player"] for d in view["deadlines"]} and shown
    for due in view["deadlines"]:
        time = shown[due["player"]]
        assert datetime.fromisoformat(time.get("data-deadline")) == datetime.fromisoformat(
            due["due"]
        )
        assert time.text.endswith("UTC")


def test_each_scoring_in_the_log_opens_to_its_breakdown(app, api, client):
    """Every move that set off a scoring has a breakdown in the log whose points are the
    engine's score events for that move, player by player; together they are the scores."""
    game_id, keys = api.new_game(["red", "blue", "green"], options={"rounds": 6})
    play_random_game(api, game_id, keys, random.Random(8))
    record = api.get(f"/api/games/{game_id}/record").get_json()
    state = engine.new_game(record["colours"], seed=record["seed"], options=record["options"])
    expected: dict[int, dict[str, int]] = {}
    for entry in record["moves"]:
        state, events = engine.apply(state, entry["player"], entry["move"])
        for event in events:
            if event["type"] == "score":
                points = expected.setdefault(entry["seq"], {})
                points[event["player"]] = points.get(event["player"], 0) + event["points"]
    doc = page(client, f"/games/{game_id}")
    shown: dict[int, dict[str, int]] = {}
    for details in doc.find("aside", cls="log").find_all("details", data_scoring=True):
        points = shown.setdefault(int(details.get("data-scoring")), {})
        for line in details.find_all("li"):
            for part in line.text.split(": ", 1)[1].rstrip(".").split("; "):
                colour = re.search(r"\((\w+)\)", part)
                numbers = re.findall(r"\) (\d+) \(|\+(\d+) ", part)
                if colour is None or not numbers:
                    continue  # where the Castillo's caballeros went
                total = sum(int(a or b) for a, b in numbers)
                points[colour[1]] = points.get(colour[1], 0) + total
    assert shown == expected and expected
    final = {c: 0 for c in record["colours"]}
    for points in shown.values():
        for colour, gained in points.items():
            final[colour] += gained
    assert final == engine.scores(state)


def test_a_finished_game_charts_each_score_round_by_round(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"], options={"rounds": 6})
    play_random_game(api, game_id, keys, random.Random(4))
    view = api.get(f"/api/games/{game_id}").get_json()
    chart = page(client, f"/games/{game_id}").find("figure", cls="score-chart")
    lines = chart.find_all("polyline", cls="score-line")
    assert sorted(line.get("data-colour") for line in lines) == sorted(view["colours"])
    for line in lines:
        points = line.get("points").split()
        assert len(points) == 1 + view["rounds_total"]  # the start, then each round's end
        heights = [float(p.split(",")[1]) for p in points]
        assert heights == sorted(heights, reverse=True)  # a score never goes down
    ends = [t.text for t in chart.find_all("text", cls="end")]
    colours = [line.get("data-colour") for line in lines]
    assert [int(t.split()[1]) for t in ends] == [view["players"][c]["score"] for c in colours]


def test_moves_between_places_are_grouped_by_where_they_leave(app, api, client):
    """An intrigue's dozens of moves are offered as one short list per place they leave
    (opened from the map, or by its own summary), each legal move once, in its place's."""
    game_id, keys, colour, shifts = game_with_an_intrigue(api, random.Random(6))
    sign_in_seat(app, client, game_id, colour)
    doc = page(client, f"/games/{game_id}?colour={colour}")
    groups = doc.find("div", cls="shifts").find_all("details", data_shift_from=True)
    offered = []
    for group in groups:
        for button in group.find_all("button"):
            move = json.loads(button.get("value"))
            assert move["from"] == group.get("data-shift-from")
            offered.append(move)

    def key(move: dict) -> str:
        return json.dumps(move, sort_keys=True)

    assert sorted(map(key, offered)) == sorted(map(key, shifts))
    assert len(groups) == len({m["from"] for m in shifts})
