"""`pbem serve` on another port: the links in its mails point where it listens."""

from __future__ import annotations

from click.testing import CliRunner

from pbem import cli as commands


def _served(monkeypatch, tmp_path, *arguments, base_url=None):
    """The app `pbem serve ARGUMENTS` would serve, and what it printed (nothing served)."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/serve.sqlite")
    monkeypatch.setenv("SECRET_KEY", "s" * 40)
    if base_url:
        monkeypatch.setenv("PBEM_BASE_URL", base_url)
    else:
        monkeypatch.delenv("PBEM_BASE_URL", raising=False)
    served = []
    monkeypatch.setattr(commands, "upgrade_database", lambda app: None)
    monkeypatch.setattr(commands, "serve_here", lambda app, *rest: served.append(app))
    result = CliRunner().invoke(commands.cli, ["serve", *arguments])
    assert result.exit_code == 0, result.output
    return served[0], result.output


def test_links_point_at_the_port_serve_listens_on(monkeypatch, tmp_path):
    app, said = _served(monkeypatch, tmp_path, "--port", "5101")
    assert app.config["PBEM_BASE_URL"] == "http://127.0.0.1:5101"
    assert "Links in mails point at http://127.0.0.1:5101" in said
    with app.app_context():
        from pbem.notify.compose import game_link

        assert game_link(7).startswith("http://127.0.0.1:5101/games/7")


def test_every_address_links_to_this_machine_and_a_base_url_wins(monkeypatch, tmp_path):
    app, _ = _served(monkeypatch, tmp_path, "--host", "0.0.0.0", "--port", "8123")
    assert app.config["PBEM_BASE_URL"] == "http://127.0.0.1:8123"
    app, said = _served(monkeypatch, tmp_path, "--port", "5101", base_url="https://eg.example")
    assert app.config["PBEM_BASE_URL"] == "https://eg.example" and "Links in mails" not in said
