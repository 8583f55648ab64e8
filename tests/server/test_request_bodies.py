"""Bodies that break on the wire (a bad chunk, a client that stops sending, a body shorter
than announced, one too long) are answered with a problem and change nothing; the app never
sees them. Through a real gunicorn: tests/deploy/test_hostile_wire.py."""

from __future__ import annotations

import io
import json

from tests.server.conftest import table_snapshot


class _Breaks(io.RawIOBase):
    """A WSGI input that yields `data`, then raises `error` (as a server's reader does), or
    ends when `error` is None. It cannot seek, so the test client cannot measure it."""

    def __init__(self, data: bytes, error: Exception | None) -> None:
        self.data = data
        self.error = error

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.data:
            data, self.data = self.data, b""
            return data
        if self.error is None:
            return b""
        raise self.error


def _move_request(api, game_id: int, key: str, stream, headers: dict[str, str]):
    """POST .../moves with `stream` as the server's input and the body headers as given
    (set over the environ, so the test client neither reads nor measures the stream)."""
    environ = {"wsgi.input": stream, "CONTENT_LENGTH": headers.get("Content-Length", "")}
    if "Transfer-Encoding" in headers:
        environ["HTTP_TRANSFER_ENCODING"] = headers["Transfer-Encoding"]
    return api.client.post(
        f"/api/games/{game_id}/moves",
        environ_overrides=environ,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )


def _a_move(api, game_id: int, keys: dict[str, str]) -> tuple[str, bytes]:
    colour = api.get(f"/api/games/{game_id}").json["pending"][0]["player"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", key=keys[colour]).json
    body = json.dumps({"expected_seq": legal["seq"], "moves": [legal["moves"][0]]}).encode()
    return keys[colour], body


def test_a_broken_chunk_is_a_400_and_plays_nothing(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    key, body = _a_move(api, game_id, keys)
    before = table_snapshot(app)
    # gunicorn's InvalidChunkSize is a ParseException, not an OSError: any error will do.
    stream = _Breaks(body[:5], ValueError("Invalid chunk size: 'zz'"))
    response = _move_request(api, game_id, key, stream, {"Transfer-Encoding": "chunked"})
    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"
    assert "could not be read" in response.json["detail"]
    assert table_snapshot(app) == before


def test_a_client_that_stops_sending_is_a_408(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    key, body = _a_move(api, game_id, keys)
    stream = _Breaks(body[:2], TimeoutError("timed out"))
    response = _move_request(api, game_id, key, stream, {"Content-Length": str(len(body))})
    assert response.status_code == 408
    assert "stopped arriving" in response.json["detail"]
    assert api.get(f"/api/games/{game_id}").json["seq"] == 0


def test_a_body_shorter_than_announced_is_a_400(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    key, body = _a_move(api, game_id, keys)
    response = _move_request(
        api, game_id, key, _Breaks(body[:2], None), {"Content-Length": str(len(body) + 1000)}
    )
    assert response.status_code == 400
    assert f"after 2 of the {len(body) + 1000} bytes" in response.json["detail"]
    assert api.get(f"/api/games/{game_id}").json["seq"] == 0


def test_too_long_a_body_is_a_413_announced_or_chunked(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    key, _ = _a_move(api, game_id, keys)
    limit = app.config["MAX_CONTENT_LENGTH"]

    class Endless(io.RawIOBase):
        read_bytes = 0

        def readable(self):
            return True

        def read(self, size=-1):
            self.read_bytes += size
            return b" " * size

    announced = Endless()
    response = _move_request(api, game_id, key, announced, {"Content-Length": str(limit * 100)})
    assert response.status_code == 413 and str(limit) in response.json["detail"]
    assert announced.read_bytes == 0  # refused from the header: nothing read
    chunked = Endless()
    response = _move_request(api, game_id, key, chunked, {"Transfer-Encoding": "chunked"})
    assert response.status_code == 413
    assert chunked.read_bytes <= limit + 16 * 1024  # read no further than the limit


def test_a_whole_body_still_plays(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    key, body = _a_move(api, game_id, keys)
    response = _move_request(api, game_id, key, io.BytesIO(body), {"Transfer-Encoding": "chunked"})
    assert response.status_code == 201, response.json
    assert response.json["seq"] == 1
