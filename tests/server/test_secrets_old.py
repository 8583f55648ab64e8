"""No request leaks a secret: another player's hand, an unrevealed secret pick, the card a
`power_card_return` took back, or the game's seed before the end.

Whole random games are played over HTTP; at every step where a secret is open (and every few
steps otherwise) every endpoint is read by every viewer: each player, a stranger with a key,
and nobody. In a two-colour game a viewer is a person holding two colours, who may see both
colours' secrets (through `?colour=` for either) and nothing of the other person's.
"""

from __future__ import annotations

import json
import random

import pytest
from pbem.models import Game
from pbem.visibility import PRIVATE_CARD_MOVES, is_secret_pick, visible_log

from pbem.extensions import db
from tests.server.helpers import MAX_MOVES

EVERY = 5


def walk(obj, path=()):
    """Every (path, dict) in a JSON document."""
    if isinstance(obj, dict):
        yield path, obj
        for key, value in obj.items():
            yield from walk(value, (*path, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            yield from walk(value, (*path, index))


class Secrets:
    """What is secret right now, and from whom."""

    def __init__(self, seed: int):
        self.seed = seed
        # (colour, move, seq) of picks not yet revealed, and of power_card_return moves
        self.open_picks: list[tuple[str, dict, int]] = []
        self.returns: list[tuple[str, dict, int]] = []

    def after(self, colour: str, move: dict, seq: int, pending: list[dict]) -> None:
        """Note the move just played; `pending` (the engine's, after it) tells whether a pick
        phase is still open: that is the engine's word, not the server's log rule."""
        if is_secret_pick(move["type"]):
            self.open_picks.append((colour, move, seq))
        if not any(is_secret_pick(p["kind"]) for p in pending):
            self.open_picks.clear()
        if move["type"] in PRIVATE_CARD_MOVES:
            self.returns.append((colour, move, seq))

    def check(self, document, viewer: frozenset[str], where: str) -> None:
        """`viewer`: the colours the reader holds (none for a stranger or nobody)."""
        text = json.dumps(document)
        assert str(self.seed) not in text, f"{where}: the seed leaked to {set(viewer)}"
        for path, node in walk(document):
            # Hands: only the viewer's own players entries may hold one.
            if "hand" in node:
                assert len(path) >= 2 and path[-2] == "players" and path[-1] in viewer, (
                    f"{where}: {set(viewer)} sees a hand at {path}"
                )
            # A view's picks: the region only in the viewer's own entries.
            if path and path[-1] in ("castillo_pick",) and isinstance(node, dict):
                for colour, pick in node.items():
                    if colour not in viewer:
                        assert "region" not in pick, f"{where}: {set(viewer)} sees {colour}'s pick"
            # Log entries and events by another seat: no open pick or returned card of theirs.
            owner = node.get("player")
            for colour, move, seq in self.open_picks + self.returns:
                if colour in viewer or owner != colour:
                    continue
                if isinstance(node.get("move"), dict):
                    if node.get("seq") == seq:
                        assert node["move"] == {"type": move["type"]}, (where, viewer, node)
                elif "pick" in str(node.get("type")) or "return" in str(node.get("type")):
                    secret = {k: v for k, v in move.items() if k != "type"}
                    assert not any(node.get(k) == v for k, v in secret.items()), (
                        f"{where}: {viewer} sees {colour}'s {move} in {node}"
                    )


def read_everything(api, game_id, viewers, secrets: Secrets, seq: int) -> None:
    """`viewers`: (key, the colours that key holds) for every reader."""
    for key, colours in viewers:
        paths = [
            f"/api/games/{game_id}",
            f"/api/games/{game_id}/log",
            f"/api/games/{game_id}/states/{seq}",
        ]
        if colours:
            paths.append(f"/api/games/{game_id}/legal-moves")
        if len(colours) > 1:
            # A person holding two colours reads as either of them, too.
            for colour in colours:
                paths += [
                    f"/api/games/{game_id}?colour={colour}",
                    f"/api/games/{game_id}/states/{seq}?colour={colour}",
                    f"/api/games/{game_id}/legal-moves?colour={colour}",
                ]
        if key:
            paths.append("/api/games")
        for path in paths:
            response = api.get(path, key)
            assert response.status_code == 200, (path, response.get_json())
            secrets.check(response.get_json(), colours, f"GET {path}")
        record = api.get(f"/api/games/{game_id}/record", key)
        assert record.status_code == 409


@pytest.mark.parametrize(
    ("colours", "seed", "two_colour"),
    [
        (["red", "blue", "green"], 21, False),
        (["red", "yellow", "green", "blue", "brown"], 22, False),
        (["red", "yellow", "green", "blue"], 23, True),
    ],
)
def test_no_endpoint_shows_a_viewer_anothers_secret(app, api, colours, seed, two_colour):
    if two_colour:
        game_id, keys = api.new_two_colour_game(colours, options={"rounds": 6})
    else:
        game_id, keys = api.new_game(colours, options={"rounds": 6})
    stranger = api.register("stranger@example.org", "Stranger")
    people = {key: frozenset(c for c in colours if keys[c] == key) for key in keys.values()}
    viewers = [*people.items(), (stranger, frozenset()), (None, frozenset())]
    with app.app_context():
        secrets = Secrets(db.session.get(Game, game_id).seed)
    rng = random.Random(seed)
    saw_open_pick = False
    for step in range(MAX_MOVES):
        view = api.get(f"/api/games/{game_id}").get_json()
        if view["status"] != "active":
            break
        if secrets.open_picks or step % EVERY == 0:
            saw_open_pick |= bool(secrets.open_picks)
            read_everything(api, game_id, viewers, secrets, view["seq"])
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        legal = api.get(
            f"/api/games/{game_id}/legal-moves?colour={colour}", keys[colour]
        ).get_json()
        # Lean towards the Castillo, so that several players have a secret pick to make.
        to_castillo = [m for m in legal["moves"] if m.get("to") == "castillo"]
        move = rng.choice(to_castillo if to_castillo and rng.random() < 0.5 else legal["moves"])
        response = api.post_moves(game_id, keys[colour], [move], legal["seq"], colour=colour)
        assert response.status_code == 201, response.get_json()
        # The mover's own answer: their view and the events must not show others' secrets.
        secrets.check(response.get_json(), people[keys[colour]], f"POST moves by {colour}")
        secrets.after(colour, move, legal["seq"] + 1, response.get_json()["view"]["pending"])
    assert view["status"] == "finished"
    assert saw_open_pick, "the game never reached a secret pick with others still to pick"
    # Once over, the record publishes everything, seed included.
    record = api.get(f"/api/games/{game_id}/record").get_json()
    assert record["seed"] == secrets.seed


# --- the log rules, on hand-made logs (cases a random game may not reach) ---------------------


def entry(seq, player, move):
    return {"seq": seq, "player": player, "move": move}


def test_a_pick_is_hidden_from_others_until_a_later_move():
    log = [
        entry(1, "red", {"type": "end_turn"}),
        entry(2, "red", {"type": "castillo_pick", "region": "aragon"}),
        entry(3, "blue", {"type": "castillo_pick", "region": "galicia"}),
    ]
    for viewers in ({"blue"}, {"green"}, set()):
        shown = visible_log(log, viewers, finished=False)
        assert shown[1]["move"] == {"type": "castillo_pick"} and shown[1]["hidden"]
    assert visible_log(log, {"red"}, finished=False)[1]["move"]["region"] == "aragon"
    assert visible_log(log, {"red"}, finished=False)[2]["move"] == {"type": "castillo_pick"}
    # The phase ends and play goes on: every pick of it is shown to all.
    log.append(entry(4, "green", {"type": "play_power_card", "card": 3}))
    for viewers in ({"blue"}, {"green"}, set()):
        shown = visible_log(log, viewers, finished=False)
        assert shown[1]["move"]["region"] == "aragon"
        assert shown[2]["move"]["region"] == "galicia"
    # A game that ends on the last pick shows it too.
    assert visible_log(log[:3], set(), finished=True)[2]["move"]["region"] == "galicia"


def test_a_repick_stays_hidden_with_the_first_pick():
    log = [
        entry(1, "red", {"type": "secret_pick", "region": "aragon"}),
        entry(2, "red", {"type": "secret_pick", "region": "valencia"}),
    ]
    shown = visible_log(log, {"blue"}, finished=False)
    assert [e["move"] for e in shown] == [{"type": "secret_pick"}] * 2


def test_a_returned_power_card_is_shown_only_to_its_player():
    move = {"type": "power_card_return", "card": 11}
    log = [entry(1, "red", move), entry(2, "blue", {"type": "end_turn"})]
    assert visible_log(log, {"red"}, finished=True)[0]["move"] == move
    for viewers in ({"blue"}, set()):
        shown = visible_log(log, viewers, finished=True)[0]
        assert shown["move"] == {"type": "power_card_return"} and shown["hidden"]


def test_a_person_holding_two_colours_sees_both_colours_secrets_in_the_log():
    # Two-colour variant: red and yellow are one person, green and blue the other.
    log = [
        entry(1, "red", {"type": "power_card_return", "card": 11}),
        entry(2, "yellow", {"type": "end_turn"}),
        entry(3, "red", {"type": "castillo_pick", "region": "aragon"}),
        entry(4, "yellow", {"type": "castillo_pick", "region": "galicia"}),
        entry(5, "green", {"type": "castillo_pick", "region": "murcia"}),
    ]
    mine = visible_log(log, {"red", "yellow"}, finished=False)
    assert [e["move"] for e in mine[:4]] == [e["move"] for e in log[:4]]
    assert not any(e.get("hidden") for e in mine[:4])
    assert mine[4]["move"] == {"type": "castillo_pick"} and mine[4]["hidden"]
    theirs = visible_log(log, {"green", "blue"}, finished=False)
    assert theirs[0]["move"] == {"type": "power_card_return"}
    assert [e["move"] for e in theirs[2:4]] == [{"type": "castillo_pick"}] * 2
    assert theirs[4]["move"]["region"] == "murcia"


def test_visible_log_refuses_a_bare_colour_string():
    # "red" as a collection is its letters: a caller passing one colour must say {"red"}.
    with pytest.raises(TypeError):
        visible_log([], "red", finished=False)
