"""Every card's action written out: in a turn's mail each face-up card's special action is
shown by its first move in the notation, an example the notation reads and the engine
accepts there, and `help card <name>` answers with the same."""

from __future__ import annotations

import random

import pytest

import engine
from pbem import words
from tests.server.mail_helpers import body_text
from tests.server.mailin_helpers import fresh_mail
from tests.server.test_mail_in import inbound, start, to_move
from tests.server.test_mail_in_words import _address, answers_since
from tests.server.test_mail_out import deliver

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free


def turns(seed: int, colours: list[str]):
    """(state, colour) at each turn of a random game yet to choose its action card."""
    rng = random.Random(seed)
    state = engine.new_game(colours, seed=seed, options={"rounds": 6})
    while not engine.is_over(state):
        entry = engine.pending(state)[0]
        colour = entry["player"]
        if entry["kind"] == "turn" and entry.get("step") in ("draw", "choose_card"):
            yield state, colour
        state, _ = engine.apply(state, colour, rng.choice(engine.legal_moves(state, colour)))


def chosen(state: engine.State, colour: str, stack: int) -> engine.State:
    """`state` once `colour` took the card of `stack`, after taking all it may."""
    legal = engine.legal_moves(state, colour)
    if not any(m["type"] == "choose_card" for m in legal):
        most = max(m["count"] for m in legal if m["type"] == "take_caballeros")
        state, _ = engine.apply(state, colour, {"type": "take_caballeros", "count": most})
        legal = engine.legal_moves(state, colour)
    (move,) = [m for m in legal if m["type"] == "choose_card" and m["stack"] == stack]
    return engine.apply(state, colour, move)[0]


def test_every_example_reads_and_is_legal_where_it_is_shown(app):
    checked = 0
    cards_seen: set[str] = set()
    for seed, colours in ((1, ["red", "blue", "green"]), (2, ["red", "blue", "green", "yellow"])):
        for state, colour in turns(seed, colours):
            with app.app_context():
                examples = words.card_examples(state, colour)
            face_up = {
                c["stack"]: c["card"] for c in engine.view(state, colour)["action_cards"]["face_up"]
            }
            assert set(examples) <= set(face_up)
            for stack, line in examples.items():
                after = chosen(state, colour, stack)
                move = engine.parse_move(line, after, colour)
                assert move in engine.legal_moves(after, colour), (face_up[stack], line)
                assert move["type"] not in ("place", "end_turn", "skip_special")
                cards_seen.add(face_up[stack])
                checked += 1
    assert checked > 200 and len(cards_seen) > 15, (checked, len(cards_seen))


def test_a_turn_mail_writes_out_each_cards_action_and_help_card_answers(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    while mail_api.get(f"/api/games/{game_id}").get_json()["phase"] == "power_cards":
        (colour,) = to_move(mail_api, game_id)
        address = _address(mail_app, game_id, colour)
        for line in ("power 13", "power 12", "power 11"):
            if inbound(mail_app, fresh_mail(seats[colour], address, line)).played:
                break
    deliver(mail_app)
    (colour,) = to_move(mail_api, game_id)
    mail = [m for m in smtp.inbox.to(seats[colour]) if "The action cards face up" in body_text(m)][
        -1
    ]
    text = body_text(mail)
    shown = [
        line.split("its action, e.g.: ")[1]
        for line in text.splitlines()
        if "its action, e.g.: " in line
    ]
    view = mail_api.get(f"/api/games/{game_id}", keys[colour]).get_json()
    face_up = view["action_cards"]["face_up"]
    assert len(shown) >= len(face_up) - 1 and shown, text
    king = next((c for c in face_up if c["card"] == "king"), face_up[0])
    before = len(smtp.inbox.messages)
    address = _address(mail_app, game_id, colour)
    name = king["card"].replace("_", " ")
    assert inbound(mail_app, fresh_mail(seats[colour], address, f"help card {name}")).answered
    deliver(mail_app)
    (answer,) = [m for m in answers_since(smtp, before) if seats[colour] in str(m["To"])]
    said = " ".join(body_text(answer).split())
    with mail_app.app_context():
        title, action = words.card_title(king["card"]), words.card_text(king["card"])
    assert f"{title}: {action}." in said, said
    assert f"Face up on stack {king['stack']}" in said, said
    assert "Chosen now, its action could begin with" in said, said
    # A name that is no card gets a sentence saying what to write.
    before = len(smtp.inbox.messages)
    inbound(mail_app, fresh_mail(seats[colour], address, "help card nonsense"))
    deliver(mail_app)
    (answer,) = [m for m in answers_since(smtp, before) if seats[colour] in str(m["To"])]
    assert 'e.g. "help card king"' in " ".join(body_text(answer).split())
