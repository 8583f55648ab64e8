"""The board SVG and the side panel, rendered from views of random games."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import engine
from engine.bots import RandomBot
from engine.data import CASTILLO, REGIONS
from pbem.web.board import board_svg, panel_html, standalone_page

COLOURS = ["red", "yellow", "green", "blue", "brown"]


def positions(seed: int, players: int = 5, every: int = 17):
    """Views of one random game, every `every` moves, for each seat and for a spectator."""
    bot = RandomBot(seed)
    state = engine.new_game(COLOURS[:players], seed=seed)
    moves = 0
    while True:
        if moves % every == 0 or engine.is_over(state):
            for viewer in [None, *state.colours]:
                yield engine.view(state, viewer)
        if engine.is_over(state):
            return
        player = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, player, bot.choose(state, player))
        moves += 1


def place_counts(root: ET.Element, place: str) -> dict[str, int]:
    (group,) = [g for g in root.iter() if g.get("data-place") == place]
    return {
        g.get("data-colour"): int(g.get("data-count"))
        for g in group.iter()
        if "caballeros" in (g.get("class") or "").split()
    }


def places(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-place"): g for g in root.iter() if g.get("data-place")}


@pytest.mark.parametrize("seed,players", [(1, 5), (2, 4), (3, 3), (4, 2)])
def test_the_svg_parses_and_shows_what_the_view_holds(seed, players):
    seen = 0
    for view in positions(seed, players):
        root = ET.fromstring(str(board_svg(view)))
        assert set(places(root)) == {*REGIONS, CASTILLO}
        regions = [g.get("data-region") for g in root.iter() if g.get("data-region")]
        assert sorted(regions) == sorted(REGIONS)
        for region in REGIONS:
            shown = view["regions"][region]
            expected = {c: n for c, n in shown["caballeros"].items() if n}
            assert place_counts(root, region) == expected, (region, view["round"])
            group = places(root)[region]
            board = [g for g in group.iter() if g.get("data-scoreboard")]
            assert [b.get("data-scoreboard") for b in board] == [
                "/".join(map(str, shown["scoreboard"]))
            ]
            grandes = [g.get("data-colour") for g in group.iter() if g.get("class") == "grande"]
            assert sorted(grandes) == sorted(shown["grandes"])
            kings = [g for g in group.iter() if g.get("class") == "king"]
            assert len(kings) == (view["king"] == region)
        castillo = {c: n for c, n in view["castillo"]["caballeros"].items() if n}
        assert place_counts(root, CASTILLO) == castillo
        mobile = {
            g.get("data-mobile"): p
            for p, group in places(root).items()
            for g in group.iter()
            if g.get("data-mobile")
        }
        assert mobile == {n: p for n, p in view["mobile_scoreboards"].items() if p}
        seen += 1
    assert seen > 20


def test_a_mobile_scoreboard_replaces_the_printed_values():
    view = engine.view(engine.new_game(COLOURS, seed=1), None)
    view["mobile_scoreboards"] = {"8/4/0": "galicia", "4/0/0": None}
    view["regions"]["galicia"]["scoreboard"] = [8, 4, 0]
    root = ET.fromstring(str(board_svg(view)))
    galicia = places(root)["galicia"]
    (board,) = [g for g in galicia.iter() if g.get("data-scoreboard")]
    assert board.get("data-scoreboard") == "8/4/0"
    assert "mobile" in board.get("class").split()
    assert "".join(board.itertext()).strip() == "8/4/0"
    assert "4/2/0" not in "".join(galicia.itertext())


def test_every_piece_carries_its_colour_letter():
    view = engine.view(engine.new_game(COLOURS, seed=7), None)  # a grande and 2 each at home
    root = ET.fromstring(str(board_svg(view)))
    letters = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "brown": "N"}
    pieces = [
        g for g in root.iter() if (g.get("class") or "").split()[:1] in (["caballeros"], ["grande"])
    ]
    assert len(pieces) == 10
    for piece in pieces:
        assert letters[piece.get("data-colour")] in "".join(piece.itertext())
    legend = {
        g.get("data-colour"): "".join(g.itertext())
        for g in root.iter()
        if g.get("class") == "legend-item" and g.get("data-colour")
    }
    assert all(letters[c] in text and c in text for c, text in legend.items())
    assert set(legend) == set(COLOURS)


def test_the_panel_shows_the_viewers_hand_only():
    state = engine.new_game(["red", "blue", "green"], seed=2)
    mine = panel_html(engine.view(state, "red"))
    spectator = panel_html(engine.view(state, None))
    assert 'class="hand"' in mine and 'class="hand"' not in spectator
    hand = engine.view(state, "red")["players"]["red"]["hand"]
    for card in hand:
        assert f'<span class="power-card-chip">{card}</span>' in mine


def test_a_short_games_panel_counts_its_rounds_one_way():
    """A 6-round game's panel says its own round and after which of its rounds the
    general scorings come (2, 4 and 6), never the chart's rounds (2; 3, 6 and 9)."""
    state = engine.new_game(COLOURS, seed=4, options={"rounds": 6})
    view = engine.view(state, "blue")
    root = ET.fromstring(str(panel_html(view)))
    section = root.find(".//section[@data-round]")
    assert section.get("data-round") == "1"
    assert "".join(section.find("h2").itertext()) == "Round 1 of 6"
    assert "chart" not in "".join(section.itertext())
    said = section.find("p[@class='scorings']").text
    assert said == "General scoring after rounds 2, 4, and 6 of 6."


def test_the_panel_lists_round_cards_scores_and_whose_turn():
    state = engine.new_game(COLOURS, seed=4)
    view = engine.view(state, "blue")
    due = "2026-12-01T18:30:00+00:00"
    html = str(panel_html(view, deadlines={view["pending"][0]["player"]: due}))
    root = ET.fromstring(html)  # the partial is well-formed too
    assert root.find(".//section[@data-round]").get("data-round") == str(view["round_number"])
    cards = root.findall(".//section[@class='action-cards']//li")
    expected = sorted(c["stack"] for c in view["action_cards"]["face_up"])
    assert [int(li.get("data-stack")) for li in cards] == expected
    rows = {tr.get("data-colour"): tr for tr in root.findall(".//tbody/tr")}
    assert set(rows) == set(COLOURS)
    for colour, row in rows.items():
        seen = view["players"][colour]
        assert row.find("td[@class='score']").text == str(seen["score"])
        assert row.find("td[@class='court']").text == str(seen["court"])
        assert row.find("td[@class='province']").text == str(seen["province"])
    waiting = root.findall(".//section[@class='pending']//li")
    assert [li.get("data-colour") for li in waiting] == [p["player"] for p in view["pending"]]
    assert "due Tue, Dec 1, 18:30 UTC" in "".join(waiting[0].itertext())
    assert waiting[0].find(".//time").get("data-deadline") == due
    assert "General scoring after rounds 3, 6, and 9 of 9." in html


def test_taken_action_cards_name_who_took_them():
    state = engine.new_game(COLOURS, seed=4)
    view = engine.view(state, None)
    view["action_cards"]["taken"] = [{"player": "green", "card": "veto", "stack": 2}]
    view["action_cards"]["face_up"] = [
        c for c in view["action_cards"]["face_up"] if c["stack"] != 2
    ]
    root = ET.fromstring(str(panel_html(view)))
    (veto,) = root.findall(".//li[@data-stack='2']")
    assert veto.get("data-taken-by") == "green" and veto.get("data-card") == "veto"


def test_names_and_titles_are_escaped():
    state = engine.new_game(["red", "blue"], seed=1)
    view = engine.view(state, "red")
    evil = "<script>alert(1)</script>"
    page = standalone_page(view, names={"red": evil, "blue": "A & B"}, title=evil)
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "A &amp; B" in page


def test_whom_the_panel_waits_for_is_said_in_the_rule_books_words():
    """Every decision and step of a whole game, as the panel says it: words, never a move
    type, a decision kind or a step's key."""
    internal = {"power_card", "choose_card", "castillo_pick", "secret_pick", "king_rages"}
    internal |= {"veto_window", "(draw)", "(act)", "(special)", "(choose"}
    said = set()
    for view in positions(seed=11, players=4, every=3):
        html = str(panel_html(view))
        root = ET.fromstring(html)
        for li in root.findall(".//section[@class='pending']//li"):
            said.add(" ".join("".join(li.itertext()).split()))
    text = "\n".join(sorted(said))
    assert "playing a power card" in text and "turn: choosing an action card" in text, text
    assert not [word for word in internal if word in text], text
