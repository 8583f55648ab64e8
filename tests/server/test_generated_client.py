"""A client generated from `/api/openapi.json` by openapi-python-client plays a whole game
through a real server, with a class per move type: the spec types what travels."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from tests.server.conftest import add_player_now

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
COLOURS = ["red", "blue", "green"]


@pytest.fixture
def live_server(app) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def generated(app, tmp_path, monkeypatch) -> object:
    """The client package, generated from the app's own spec."""
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(app.test_client().get("/api/openapi.json").get_json()))
    out = tmp_path / "elgrande_client"
    done = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(spec), "--meta", "none"]
        + ["--output-path", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and (out / "models").is_dir(), done.stdout + done.stderr
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module("elgrande_client")


def _modules(package: object) -> dict[str, object]:
    name = package.__name__  # type: ignore[attr-defined]
    parts = {
        "models": "models",
        "players": "api.players.post_api_players",
        "create": "api.games.post_api_games",
        "view": "api.games.get_api_games_game_id",
        "legal": "api.moves.get_api_games_game_id_legal_moves",
        "play": "api.moves.post_api_games_game_id_moves",
    }
    return {key: importlib.import_module(f"{name}.{path}") for key, path in parts.items()}


def test_a_generated_client_has_a_class_per_move_type_and_plays_a_whole_game(
    app, generated, live_server
) -> None:
    import engine

    m = _modules(generated)
    models = m["models"]
    # A class per move type, each named after it, with `type` fixed to that move's name.
    for move_type in engine.MOVE_TYPES:
        name = "".join(word.title() for word in move_type.split("_")) + "Move"
        assert isinstance(getattr(models, name), type)
        assert [tag.value for tag in getattr(models, name + "Type")] == [move_type]

    anyone = generated.Client(base_url=live_server)  # type: ignore[attr-defined]
    tag = uuid.uuid4().hex[:8]
    keys = {}
    for colour in COLOURS:
        # A sign-up mails a link to the address (the key is shown behind it); the players of
        # this game are made as the operator makes them.
        body = models.PlayerCreate(email=f"{colour}-{tag}@example.org", name=colour.title())
        answer = m["players"].sync_detailed(client=anyone, body=body)
        assert answer.status_code == 202 and isinstance(answer.parsed, models.Accepted)
        keys[colour] = add_player_now(app, f"{colour}-{tag}@example.org", colour.title())
    clients = {
        c: generated.AuthenticatedClient(base_url=live_server, token=k)  # type: ignore[attr-defined]
        for c, k in keys.items()
    }
    seats = [
        models.SeatIn(colour=models.SeatInColour(c), email=f"{c}-{tag}@example.org")
        for c in COLOURS
    ]
    body = models.GameCreate(
        title=f"Typed {tag}",
        seats=seats,
        options=models.GameOptions(rounds=models.GameOptionsRounds.VALUE_6),
    )
    summary = m["create"].sync_detailed(client=clients["red"], body=body).parsed
    assert isinstance(summary, models.GameSummary), summary

    rng, played, kinds = random.Random(7), 0, set()
    view = m["view"].sync_detailed(summary.id, client=clients["red"]).parsed
    while view.status.value == "active":
        assert isinstance(view, models.GameView)
        colour = rng.choice(sorted({p.player for p in view.pending}))
        legal = m["legal"].sync_detailed(summary.id, client=clients[colour]).parsed
        assert isinstance(legal, models.LegalMoves) and legal.moves
        move = rng.choice(legal.moves)
        kinds.add(type(move).__name__)
        answer = m["play"].sync_detailed(
            summary.id,
            client=clients[colour],
            body=models.MovesIn(expected_seq=legal.seq, moves=[move]),
        )
        assert answer.status_code == 201, answer.content
        result = answer.parsed
        assert isinstance(result, models.MoveResult) and result.seq == legal.seq + 1
        played += 1
        view = result.view
    assert view.status.value == "finished" and view.winners
    # A whole game: at least a power card and a turn's move by each of 3 seats in 6 rounds
    # (random games of 6 rounds run from some 90 moves to some 200; the seed is the game's).
    assert played >= 6 * 3 * 2 and {"PlayPowerCardMove", "PlaceMove", "ChooseCardMove"} <= kinds
