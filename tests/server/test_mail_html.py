"""The HTML part of a real mid-game turn mail, as headless Chromium draws it: the action
cards face up and a worked example the engine plays, the board
table (nine regions and the Castillo, the recipient's counts), the notes the text part has
(king, grandes, mobile scoreboards), the hand and every legal move."""

from __future__ import annotations

import pytest

import engine
from bench.mail_screenshot import turn_mail
from pbem.words import place_name

#: Chromium draws the mail as it was composed, whatever the database: once, in the SQLite
#: pass (`database_free`).
pytestmark = [pytest.mark.browser, pytest.mark.database_free]


def test_a_turn_mail_renders_in_chromium(browser, tmp_path):
    from selenium.webdriver.common.by import By

    text, html, state, colour = turn_mail()
    page = tmp_path / "mail.html"
    page.write_text(html, encoding="utf-8")
    browser.get(page.as_uri())
    view = engine.view(state, colour)

    rows = browser.find_elements(By.CSS_SELECTOR, "table.board tr")
    cells = [[c.text.strip() for c in r.find_elements(By.CSS_SELECTOR, "td, th")] for r in rows]
    header, body = cells[0], cells[1:]
    assert header[1 : 1 + len(view["colours"])] == view["colours"]
    places = [*view["regions"], "castillo"]
    board = [row for row in body if row and row[0] in {place_name(p) for p in places}]
    assert [row[0] for row in board] == [place_name(p) for p in places]  # 10 rows, in order
    for row, place in zip(board, places, strict=True):
        seen = view["castillo"] if place == "castillo" else view["regions"][place]
        counts = row[1 : 1 + len(view["colours"])]
        assert counts == [str(seen["caballeros"].get(c, "")) for c in view["colours"]], place
        assert row[1 + len(view["colours"])] == "/".join(map(str, seen["scoreboard"]))
        # The notes column says what the text part's notes say, mobile scoreboards too.
        text_row = next(line for line in text.splitlines() if line.startswith(place_name(place)))
        text_notes = (
            text_row.split("  ")[-1].strip()
            if any(w in text_row for w in ("king", "grande", "mobile"))
            else ""
        )
        assert row[-1] == text_notes, (place, row[-1], text_notes)
    assert [r[0] for r in body[-3:]] == ["score", "court", "province"]

    hand = [s.text for s in browser.find_elements(By.CSS_SELECTOR, "p span")]
    assert hand == [str(k) for k in state.hands[colour]]
    (moves,) = browser.find_elements(By.CSS_SELECTOR, "pre.moves")
    legal = [engine.format_move(m) for m in engine.legal_moves(state, colour)]
    assert moves.text.strip().splitlines() == legal and legal
    assert moves.is_displayed() and moves.size["height"] > 10
    link = browser.find_element(By.CSS_SELECTOR, "a")
    assert link.get_attribute("href").startswith("https://pbem.example/games/")
    # The action cards face up, each with its notation, caballeros and special action, and
    # a worked example that the engine plays as written.
    shown = [
        [c.text.strip() for c in row.find_elements(By.CSS_SELECTOR, "td")]
        for row in browser.find_elements(By.CSS_SELECTOR, "table.cards tr")
    ]
    face_up = view["action_cards"]["face_up"]
    assert [row[0] for row in shown] == [
        engine.format_move({"type": "choose_card", "card": c["card"], "stack": c["stack"]})
        for c in face_up
    ]
    assert [row[1] for row in shown] == [str(c["stack"]) for c in face_up]
    assert all(len(row[2]) > 10 for row in shown)
    (example,) = browser.find_elements(By.CSS_SELECTOR, "pre.example")
    played = engine.parse_moves(example.text, state, colour)
    assert "choose_card" in [m["type"] for m in played] and len(played) > 2
    # Something of a mid-game board: a mobile scoreboard is out, so its note shows.
    assert any("mobile" in row[-1] for row in board)
