"""The organiser's page: more time for a seat, a bot for a seat, a seat handed to someone
else, the game stopped; each mailed to the table, and for the organiser alone."""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.extensions import db
from pbem.languages import moment_text
from pbem.store.models import Game
from pbem.timing import deadlines
from pbem.web.board import COLOUR_LETTERS
from tests.server.conftest import table_snapshot
from tests.web.helpers import page, queued_mails, sign_in_seat, text_part


def token_of(doc) -> str:
    return doc.find("input", name="csrf_token").get("value")


def notices(app, game_id: int) -> list[tuple[str, str]]:
    """(recipient, text) of each notice mail the game queued."""
    return [(r, " ".join(m.split())) for r, m in queued_mails(app, "notice", game_id=game_id)]


def due_of(api, game_id: int, colour: str) -> datetime:
    due = api.get(f"/api/games/{game_id}").get_json()["deadlines"]
    return min(datetime.fromisoformat(d["due"]) for d in due if d["player"] == colour)


def test_only_the_organiser_organises(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "brown"])  # red made it
    sign_in_seat(app, client, game_id, "blue")
    assert page(client, f"/games/{game_id}").find("p", cls="organiser-link") is None
    answer = client.get(f"/games/{game_id}/organise")
    assert answer.status_code == 403 and "Only the organiser" in answer.get_data(as_text=True)
    sign_in_seat(app, client, game_id, "red")
    link = page(client, f"/games/{game_id}").find("p", cls="organiser-link").find("a")
    assert link.get("href") == f"/games/{game_id}/organise"
    seats = page(client, link.get("href")).find("table", cls="seats")
    # Each seat's chip has its colour's letter (brown's is N: B is blue's).
    chips = {
        tr.get("data-colour"): tr.find("span", cls="chip").text
        for tr in seats.find_all("tr", data_colour=True)
    }
    assert chips == {c: COLOUR_LETTERS[c] for c in ("red", "blue", "brown")}


def test_more_time_for_a_seat_is_kept_and_told(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    pending = api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    before = due_of(api, game_id, pending)
    sign_in_seat(app, client, game_id, "red")
    doc = page(client, f"/games/{game_id}/organise")
    form = {"csrf_token": token_of(doc), "action": "extend", "colour": pending, "hours": "24"}
    answer = client.post(f"/games/{game_id}/organise", data=form)
    assert answer.status_code == 303
    assert due_of(api, game_id, pending) == before + timedelta(hours=24)
    told = notices(app, game_id)
    assert len({r for r, _ in told}) == 3  # each player at the table, the organiser too
    assert all(f"gave {pending} 24 hours more" in text for _, text in told)
    with app.app_context():  # the new deadline, written when each mail was composed
        due = moment_text(before + timedelta(hours=24))
    mails = [text_part(m) for _, m in queued_mails(app, "notice", game_id=game_id)]
    assert all(f"due {due}." in " ".join(text.split()) for text in mails), mails
    # Deadlines derived again (an absence, a bot leaving a seat) keep the extension.
    with app.app_context():
        game = db.session.get_one(Game, game_id)
        deadlines.recompute(db.session.connection(), game_id, game.timing)
        db.session.commit()
    assert due_of(api, game_id, pending) == before + timedelta(hours=24)
    # Nothing pending, or no hours: refused, nothing changed.
    idle = next(c for c in ("red", "blue", "green") if c != pending)
    snapshot = table_snapshot(app)
    for colour, hours, says in ((idle, "24", "nothing to decide"), (pending, "0", "1 to 336")):
        bad = {**form, "colour": colour, "hours": hours}
        refused = client.post(f"/games/{game_id}/organise", data=bad)
        assert refused.status_code in (409, 422) and says in refused.get_data(as_text=True)
    assert table_snapshot(app) == snapshot


def test_a_bot_for_a_seat_a_new_player_and_the_game_stopped(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"])
    sign_in_seat(app, client, game_id, "red")
    token = token_of(page(client, f"/games/{game_id}/organise"))

    def act(**fields):
        return client.post(f"/games/{game_id}/organise", data={"csrf_token": token, **fields})

    assert act(action="bot", colour="green").status_code == 303
    seats = {
        s["colour"]: s for s in api.get("/api/games", keys["red"]).get_json()["games"][-1]["seats"]
    }
    assert seats["green"]["bot"] is True
    assert any("has let a bot play green" in text for _, text in notices(app, game_id))
    assert act(action="give", colour="blue", email="newcomer@example.org").status_code == 303
    summary = api.get("/api/games", keys["red"]).get_json()["games"][-1]
    blue = next(s for s in summary["seats"] if s["colour"] == "blue")
    assert blue["name"] == "newcomer" and blue["invited"] is True
    refused = act(action="abort")
    assert refused.status_code == 422 and "Yes, stop it for good" in refused.get_data(as_text=True)
    assert act(action="abort", sure="yes").status_code == 303
    assert api.get(f"/api/games/{game_id}").get_json()["status"] == "aborted"
    stopped = [t for _, t in notices(app, game_id) if "has stopped it for good" in t]
    assert len(stopped) >= 2  # each person at the table
    doc = page(client, f"/games/{game_id}/organise")
    assert "nothing left to organise" in doc.text and doc.find("section", cls="abort") is None
