"""Keeping others away on the pages: block and unblock from a player's page and one's own,
a seat muted beside the table's talk, a report written on its own page, and the operator's
queue, which nobody else finds. Each form is CSRF-protected like every other."""

from __future__ import annotations

import sqlalchemy as sa

from pbem.extensions import db
from pbem.play import moderation
from tests.web.helpers import page, seat_player, sign_in_seat
from tests.web.html import Node
from tests.web.test_table_page import _seated


def _hidden(doc: Node, action_end: str) -> dict[str, str]:
    form = next(f for f in doc.find_all("form") if (f.get("action") or "").endswith(action_end))
    return {i.get("name"): i.get("value") for i in form.find_all("input", type="hidden")}


def _blocks(app, blocker: int) -> list[int]:
    with app.app_context():
        rows = db.session.execute(
            sa.text("SELECT blocked_id FROM blocks WHERE blocker_id = :b"), {"b": blocker}
        )
        found = sorted(rows.scalars())
        db.session.remove()
    return found


def test_block_and_unblock_from_the_players_page_and_ones_own(app, api):
    game_id, _keys, clients = _seated(app, api, ("red", "blue"))
    red, blue = seat_player(app, game_id, "red"), seat_player(app, game_id, "blue")
    path = f"/players/{blue}"
    doc = page(clients["red"], path)
    section = doc.find("section", cls="keep-apart")
    assert section is not None and "Block Blue" in section.text
    # Nobody signed in, and the player on their own page, see no such control.
    assert page(app.test_client(), path).find("section", cls="keep-apart") is None
    assert page(clients["blue"], path).find("section", cls="keep-apart") is None
    # Without the form's token: refused, nothing kept.
    bare = clients["red"].post(f"{path}/block", data={"next": path})
    assert bare.status_code == 400 and _blocks(app, red) == []
    done = clients["red"].post(f"{path}/block", data=_hidden(doc, f"{path}/block"))
    assert done.status_code == 303 and done.headers["Location"] == path
    assert _blocks(app, red) == [blue]
    doc = page(clients["red"], path)
    assert "You block Blue" in doc.find("section", cls="keep-apart").text
    assert "You block Blue" in doc.find("p", cls="flash").text
    # The blocked player's view of the blocker's page says nothing of it.
    theirs = page(clients["blue"], f"/players/{red}").find("section", cls="keep-apart").text
    assert "Block Red" in theirs and "You block" not in theirs
    # Listed on one's own page, and undone there.
    me = page(clients["red"], "/me")
    assert me.find("li", **{"data-blocked": str(blue)}) is not None
    form = _hidden(me, f"{path}/block")
    undone = clients["red"].post(f"{path}/block", data={**form, "unblock": "1"})
    assert undone.status_code == 303 and undone.headers["Location"] == "/me"
    assert _blocks(app, red) == []
    # An off-site `next` is not followed.
    off = clients["red"].post(
        f"{path}/block", data={**_hidden(doc, f"{path}/block"), "next": "//evil.example/x"}
    )
    assert off.headers["Location"] == path


def test_a_seat_muted_beside_the_talk_hides_its_words_until_unmuted(app, api):
    game_id, keys, clients = _seated(app, api)
    for colour, text in (("blue", "blue says hi"), ("green", "green says hi")):
        response = api.client.post(
            f"/api/games/{game_id}/messages", json={"text": text}, headers=api.auth(keys[colour])
        )
        assert response.status_code == 201
    path = f"/games/{game_id}"
    doc = page(clients["red"], path)
    buttons = [b.text for b in doc.find("form", cls="mute-seats").find_all("button")]
    assert buttons == ["Mute green", "Mute blue"]  # never one's own seat; in the colours' order
    lines = doc.find("ol", cls="talk").find_all("li")
    assert [li.find("a", cls="report") is not None for li in lines] == [True, True]
    muted = clients["red"].post(
        f"{path}/mutes", data={**_hidden(doc, f"{path}/mutes"), "mute": "blue"}
    )
    assert muted.status_code == 303 and muted.headers["Location"].endswith("#table-talk")
    doc = page(clients["red"], path)
    assert [li.get("data-colour") for li in doc.find("ol", cls="talk").find_all("li")] == ["green"]
    assert "open" in doc.find("details", cls="keep-apart").attrs
    assert "Unmute blue" in doc.find("form", cls="mute-seats").text
    # Green still reads blue.
    assert "blue says hi" in page(clients["green"], path).find("ol", cls="talk").text
    clients["red"].post(f"{path}/mutes", data={**_hidden(doc, f"{path}/mutes"), "unmute": "blue"})
    assert "blue says hi" in page(clients["red"], path).find("ol", cls="talk").text


def test_a_report_is_written_on_its_own_page_and_reaches_the_operators_queue(app, api):
    game_id, keys, clients = _seated(app, api, ("red", "blue"))
    said = api.client.post(
        f"/api/games/{game_id}/messages",
        json={"text": "you are all fools"},
        headers=api.auth(keys["blue"]),
    ).get_json()
    doc = page(clients["red"], f"/games/{game_id}")
    link = doc.find("ol", cls="talk").find("a", cls="report").get("href")
    form_page = page(clients["red"], link)
    assert "you are all fools" in form_page.find("blockquote", cls="reported").text
    form = form_page.find("main", cls="report-page").find("form")
    fields = {i.get("name"): i.get("value") for i in form.find_all("input")}
    sent = clients["red"].post("/report", data={**fields, "reason": "insults"})
    assert sent.status_code == 303 and sent.headers["Location"].endswith("#table-talk")
    back = page(clients["red"], sent.headers["Location"])
    assert "reached the moderators" in back.find("p", cls="flash").text
    # A stranger cannot report another table's words (nor read them on the report page).
    outsider = app.test_client()
    sign_in_seat(app, outsider, api.new_game(["red", "blue"])[0], "red")
    assert outsider.get(f"/report?kind=talk&id={said['id']}").status_code == 404
    # The operator's page: nobody's but an operator's.
    assert clients["red"].get("/operator").status_code == 404
    with app.app_context():
        moderation.set_operator(str(seat_player(app, game_id, "red")), True)
        db.session.commit()
        db.session.remove()
    queue = page(clients["red"], "/operator")
    (card,) = queue.find_all("section", cls="report-card")
    assert "you are all fools" in card.text and "insults" in card.text
    act = {i.get("name"): i.get("value") for i in card.find_all("input", type="hidden")}
    action = card.find("form").get("action")
    refused = clients["red"].post(action, data={**act, "action": "warn", "reason": ""})
    assert refused.status_code == 422 and "Say why" in refused.get_data(as_text=True)
    done = clients["red"].post(action, data={**act, "action": "warn", "reason": "be kind"})
    assert done.status_code == 303
    queue = page(clients["red"], "/operator")
    assert queue.find_all("section", cls="report-card") == []
    assert "be kind" in queue.find("ul", cls="moderation-log").text
