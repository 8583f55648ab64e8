"""No request leaks a secret: another player's hand, an unrevealed secret pick, the card a
`power_card_return` took back, or the game's seed before the end.

Whole random games are played over HTTP; at every step where a secret is open (and every few
steps otherwise) every endpoint is read by every viewer: each seat, a stranger with a key,
and nobody.
"""

from __future__ import annotations

import json
import random

import pytest

from pbem.extensions import db
from pbem.models import Game
from pbem.visibility import PRIVATE_CARD_MOVES, is_secret_pick, visible_log
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

    def check(self, document, viewer: str | None, where: str) -> None:
        text = json.dumps(document)
        assert str(self.seed) not in text, f"{where}: the seed leaked to {viewer}"
        for path, node in walk(document):
            # Hands: only the viewer's own players entry may hold one.
            if "hand" in node:
                assert viewer is not None and path[-2:] == ("players", viewer), (
                    f"{where}: {viewer} sees a hand at {path}")
            # A view's picks: the region only in the viewer's own entry.
            if path and path[-1] in ("castillo_pick",) and isinstance(node, dict):
                for colour, pick in node.items():
                    if colour != viewer:
                        assert "region" not in pick, f"{where}: {viewer} sees {colour}'s pick"
            # Log entries and events by another seat: no open pick or returned card of theirs.
            owner = node.get("player")
            for colour, move, seq in self.open_picks + self.returns:
                if colour == viewer or owner != colour:
                    continue
                if isinstance(node.get("move"), dict):
                    if node.get("seq") == seq:
                        assert node["move"] == {"type": move["type"]}, (where, viewer, node)
                elif "pick" in str(node.get("type")) or "return" in str(node.get("type")):
                    secret = {k: v for k, v in move.items() if k != "type"}
                    assert not any(node.get(k) == v for k, v in secret.items()), (
                        f"{where}: {viewer} sees {colour}'s {move} in {node}")


def read_everything(api, game_id, viewers, secrets: Secrets, seq: int) -> None:
    for viewer, key in viewers.items():
        paths = [f"/api/games/{game_id}", f"/api/games/{game_id}/log",
                 f"/api/games/{game_id}/states/{seq}"]
        if viewer in ("stranger",) or viewer is None:
            colour = None
        else:
            colour = viewer
            paths.append(f"/api/games/{game_id}/legal-moves")
        if key:
            paths.append("/api/games")
        for path in paths:
            response = api.get(path, key)
            assert response.status_code == 200, (path, response.get_json())
            secrets.check(response.get_json(), colour, f"GET {path}")
        record = api.get(f"/api/games/{game_id}/record", key)
        assert record.status_code == 409


@pytest.mark.parametrize(("colours", "seed"), [(["red", "blue", "green"], 21),
                                               (["red", "yellow", "green", "blue", "brown"], 22)])
def test_no_endpoint_shows_a_viewer_anothers_secret(app, api, colours, seed):
    game_id, keys = api.new_game(colours, options={"rounds": 6})
    stranger = api.register("stranger@example.org", "Stranger")
    viewers = {**keys, "stranger": stranger, None: None}
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
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        # Lean towards the Castillo, so that several players have a secret pick to make.
        to_castillo = [m for m in legal["moves"] if m.get("to") == "castillo"]
        move = rng.choice(to_castillo if to_castillo and rng.random() < 0.5 else legal["moves"])
        response = api.post_moves(game_id, keys[colour], [move], legal["seq"])
        assert response.status_code == 201, response.get_json()
        # The mover's own answer: their view and the events must not show others' secrets.
        secrets.check(response.get_json(), colour, f"POST moves by {colour}")
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
    for viewer in ("blue", "green", None):
        shown = visible_log(log, viewer, finished=False)
        assert shown[1]["move"] == {"type": "castillo_pick"} and shown[1]["hidden"]
    assert visible_log(log, "red", finished=False)[1]["move"]["region"] == "aragon"
    assert visible_log(log, "red", finished=False)[2]["move"] == {"type": "castillo_pick"}
    # The phase ends and play goes on: every pick of it is shown to all.
    log.append(entry(4, "green", {"type": "play_power_card", "card": 3}))
    for viewer in ("blue", "green", None):
        shown = visible_log(log, viewer, finished=False)
        assert shown[1]["move"]["region"] == "aragon"
        assert shown[2]["move"]["region"] == "galicia"
    # A game that ends on the last pick shows it too.
    assert visible_log(log[:3], None, finished=True)[2]["move"]["region"] == "galicia"


def test_a_repick_stays_hidden_with_the_first_pick():
    log = [
        entry(1, "red", {"type": "secret_pick", "region": "aragon"}),
        entry(2, "red", {"type": "secret_pick", "region": "valencia"}),
    ]
    shown = visible_log(log, "blue", finished=False)
    assert [e["move"] for e in shown] == [{"type": "secret_pick"}] * 2


def test_a_returned_power_card_is_shown_only_to_its_player():
    move = {"type": "power_card_return", "card": 11}
    log = [entry(1, "red", move), entry(2, "blue", {"type": "end_turn"})]
    assert visible_log(log, "red", finished=True)[0]["move"] == move
    for viewer in ("blue", None):
        shown = visible_log(log, viewer, finished=True)[0]
        assert shown["move"] == {"type": "power_card_return"} and shown["hidden"]
