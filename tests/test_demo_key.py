"""`pbem demo` run twice on one instance folder prints the same API key: the second game
does not revoke the key the first one printed (it is kept in the instance folder, for its
owner alone). The player keeps the name the first demo gave them, unless one is asked."""

from __future__ import annotations

import stat

from pbem import create_app
from pbem.cli import upgrade_database
from pbem.demo import DEFAULT_NAME, has_player, start_demo


def test_a_second_demo_keeps_the_first_ones_key(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/demo.sqlite"})
    app.config["PBEM_BASE_URL"] = "http://127.0.0.1:5999"
    upgrade_database(app)
    first = start_demo(app, "http://127.0.0.1:5999")
    second = start_demo(app, "http://127.0.0.1:5999")
    assert second.api_key == first.api_key and second.game_id != first.game_id
    client = app.test_client()
    auth = {"Authorization": f"Bearer {first.api_key}"}
    games = client.get("/api/games", headers=auth).get_json()["games"]
    assert {g["id"] for g in games} >= {first.game_id, second.game_id}
    kept = tmp_path / "instance" / "demo_api_key"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    # A key file that is no longer the player's (changed by hand, or a new key made on
    # /me) is not printed: the demo makes a fresh one.
    kept.write_text("pbem_not-the-key\n")
    third = start_demo(app, "http://127.0.0.1:5999")
    assert third.api_key != first.api_key and third.api_key.startswith("pbem_")
    assert client.get("/api/games", headers=auth).status_code == 401


def test_the_player_is_named_once_and_renamed_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/demo.sqlite"})
    app.config["PBEM_BASE_URL"] = "http://127.0.0.1:5999"
    upgrade_database(app)
    assert not has_player(app)  # the first demo: `pbem demo` asks a person at a terminal
    assert start_demo(app, "http://127.0.0.1:5999").name == DEFAULT_NAME != "You"
    assert has_player(app)
    assert start_demo(app, "http://127.0.0.1:5999", "  Ana ").name == "Ana"
    again = start_demo(app, "http://127.0.0.1:5999")
    assert again.name == "Ana" and "Ana (red)" in str(again)
