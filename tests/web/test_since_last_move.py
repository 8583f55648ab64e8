"""Since your last move: a seat's page lists what the others did since that seat last
moved (the story its next mail tells), scorings with their breakdowns in place, and a link
to step through them from the first; the page left open shows it as the bots play, without
a click."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from pbem import words
from pbem.extensions import db
from pbem.game import history
from pbem.schedule.sweep import sweep
from tests.server.helpers import said_forms
from tests.server.test_bot_seats import new_bot_game
from tests.web.helpers import open_seat_link, page, sign_in_seat
from tests.web.test_pages_browser import by_css, click_and_wait, live  # noqa: F401

#: The bots' level: the greedy bot answers the same in every position however loaded the
#: machine (the strong one searches for a time), so a seed (below) gives the same game.
BOTS = "greedy"


def play_red(app, api, game_id: int, key: str, until, *, castillo: bool = False) -> dict:
    """Red (the person) plays at random through the API, the bots by sweeps, until
    `until(view, decision)` holds at a decision of red's; the view then. Red stays out of
    the Castillo (with `castillo`, goes there when it may)."""
    for _ in range(400):
        with app.app_context():
            sweep()
        view = api.get(f"/api/games/{game_id}", key).get_json()
        decision = next((p for p in view["pending"] if p["player"] == "red"), None)
        assert view["status"] == "active", view["status"]
        if decision is None:
            continue
        if until(view, decision):
            return view
        legal = api.get(f"/api/games/{game_id}/legal-moves", key).get_json()
        moves = legal["moves"]
        if decision["kind"] == "power_card":
            # The highest card in round 3, so red acts first and the bots after it.
            wanted = max if view["round_number"] == 3 else min
            moves = [wanted(moves, key=lambda m: m["card"])]
        # Red stays out of the Castillo: its general scoring would ask red a pick, and the
        # round would wait on red rather than end by the bots' moves.
        if castillo:
            moves = [m for m in moves if m.get("to") == "castillo"] or moves
        else:
            moves = [m for m in moves if "castillo" not in (m.get("to"), m.get("from"))] or moves
        assert api.post_moves(game_id, key, [moves[0]], legal["seq"]).status_code == 201
    raise AssertionError("never came")


def end_round_3(app, api, game_id: int, key: str) -> int:
    """The bots play round 3 to its end (red answering a Castillo pick, should a bot's
    intrigue have sent red there); red's last move's seq."""
    for _ in range(10):
        with app.app_context():
            sweep()
        view = api.get(f"/api/games/{game_id}", key).get_json()
        if view["round_number"] == 4:
            log = api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]
            return max(e["seq"] for e in log if e["player"] == "red")
        legal = api.get(f"/api/games/{game_id}/legal-moves", key).get_json()
        if legal["moves"]:
            assert api.post_moves(game_id, key, legal["moves"][:1], legal["seq"]).status_code == 201
    raise AssertionError("round 3 never ended")


def play_red_turn(api, game_id: int, key: str) -> None:
    """Red's turn, as the page's Confirm plays it: take all it may, the first action card,
    end the turn."""
    preferred = ("take_caballeros", "choose_card", "end_turn", "skip_special")
    while api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"] == "red":
        legal = api.get(f"/api/games/{game_id}/legal-moves", key).get_json()
        moves = sorted(
            legal["moves"],
            key=lambda m: (
                preferred.index(m["type"]) if m["type"] in preferred else len(preferred),
                -m.get("count", 0),
            ),
        )
        assert api.post_moves(game_id, key, [moves[0]], legal["seq"]).status_code == 201


def scored_since(api, game_id: int, key: str, after: int) -> bool:
    log = api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]
    return any(
        ev["type"] == "general_scoring" for e in log if e["seq"] > after for ev in e["events"]
    )


def first_told(api, game_id: int, key: str, mine: int) -> int:
    """Where red's story begins: at the latest move of red's own last ones (up to `mine`)
    that set off a scoring, else just after `mine`."""
    log = {e["seq"]: e for e in api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]}
    seq, first = mine, mine + 1
    while seq in log and log[seq]["player"] == "red":
        if any(event["type"] == "score" for event in log[seq]["events"]):
            return seq
        seq -= 1
    return first


def red_turn_in_round_3(view, decision) -> bool:
    # Power card 13 lets red take none: its turn may begin at choosing a card.
    first_steps = ("draw", "choose_card")
    return (
        view["round_number"] == 3 and decision["kind"] == "turn" and decision["step"] in first_steps
    )


def bots_moves_since(api, game_id: int, key: str, after: int) -> list[str]:
    """The bots' moves after `after`, in words, as what each did under the card that asked
    it (read from the whole log, which holds the card each turn chose)."""
    log = api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]
    return [
        words.entry_words(entry, card, own=False)
        for entry, card in zip(log, words.cards_of(log), strict=True)
        if entry["seq"] > after and entry["player"] != "red" and "hidden" not in entry
    ]


def test_a_seats_page_tells_what_the_bots_did_and_the_scoring(app, api, client):
    game, key = new_bot_game(api, options={"first_player": "red"}, level=BOTS)
    game_id = game["id"]
    play_red(app, api, game_id, key, red_turn_in_round_3)
    play_red_turn(api, game_id, key)  # then the bots end round 3
    mine = end_round_3(app, api, game_id, key)
    sign_in_seat(app, client, game_id, "red")
    since = page(client, f"/games/{game_id}?colour=red").find("section", cls="since")
    assert since is not None
    text = " ".join(since.text.split())
    for move in bots_moves_since(api, game_id, key, mine):
        assert move in text, (move, text)
    if scored_since(api, game_id, key, mine):
        assert "General scoring" in text and " scored: " in text, text
    # A link to step through them, from the first: after red's last move, or from red's own
    # move that set a scoring off (its pick revealed the picks), whose breakdown leads.
    assert stepped_from(since) == first_told(api, game_id, key, mine)
    # "◀◀ Round" leads to the start of the round before, with its moves listed.
    now = page(client, f"/games/{game_id}?colour=red")
    back = now.find("nav", cls="replay").find("a", data_step="previous-round").get("href")
    earlier = page(client, back)
    listed = earlier.find("aside", cls="log").find_all("li", data_seq=True)
    seqs = sorted(int(li.get("data-seq")) for li in listed)
    assert seqs and seqs[0] <= mine <= seqs[-1], (back, seqs, mine)  # mine may end the round
    # Looking back (a replay) tells no story: it is the page as it was.
    assert page(client, f"/games/{game_id}?seq={mine}").find("section", cls="since") is None


def test_a_story_shows_only_what_the_seat_may_see(app, api, client, monkeypatch):
    """The bots' Castillo picks, made while red's is still to come, stay secret in red's
    story: each is told as a secret disk, never its region."""
    monkeypatch.setattr("pbem.play.lifecycle.secrets.randbits", lambda bits: OWN_SCORING_SEED)
    game, key = new_bot_game(api, options={"first_player": "red"}, level=BOTS)
    game_id = game["id"]
    play_red(app, api, game_id, key, red_turn_in_round_3, castillo=True)
    play_red_turn(api, game_id, key)
    view = play_red(
        app, api, game_id, key, lambda view, decision: decision["kind"] == "castillo_pick"
    )
    with app.app_context():  # the log as stored: every pick with its region
        log = history.stored_log(db.session.connection(), game_id, 0, view["seq"])
        db.session.remove()
    picks = [e["move"] for e in log if e["move"]["type"] == "castillo_pick"]
    assert picks and all(e["player"] != "red" for e in log[-len(picks) :]), picks
    sign_in_seat(app, client, game_id, "red")
    since = page(client, f"/games/{game_id}?colour=red").find("section", cls="since")
    told = " ".join(since.text.split())
    assert told.count("Castillo disk (secret)") == len(picks), told
    for pick in picks:
        for said in said_forms(pick):  # neither in the notation nor in words
            assert said not in told, (pick, said, told)


def confirm_red_turn_by_clicking(browser, app, api, game_id: int) -> None:
    """Red's turn planned on the page and confirmed: take all it may, the first action card,
    skip its action, end the turn (a step that reveals is confirmed as it comes)."""
    open_seat_link(browser, app, game_id, "red")
    for _ in range(12):
        if api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"] != "red":
            return
        buttons = by_css(browser, "form.moves button")
        texts = [b.text for b in buttons]
        confirm = by_css(browser, "section.plan button.confirm")
        wanted = next(
            (
                b
                for b in buttons
                if "to court" in b.text and not by_css(browser, "section.plan ol.plan-steps li")
            ),
            None,
        )
        wanted = wanted or next(
            (b for b in by_css(browser, "form.moves .action-cards button")), None
        )
        for label in ("end turn", "skip the special action"):
            wanted = wanted or next((b for b in buttons if b.text == label), None)
        if wanted is None and confirm:
            wanted = confirm[0]
        assert wanted is not None, texts
        click_and_wait(browser, wanted)
    raise AssertionError("red's turn never ended")


@pytest.mark.browser
def test_the_open_page_shows_the_bots_round_and_its_scoring_without_a_click(
    browser,
    live,  # noqa: F811
    app,
    api,
):
    from selenium.webdriver.support.ui import WebDriverWait

    game, key = new_bot_game(api, options={"first_player": "red"}, level=BOTS)
    game_id = game["id"]
    play_red(app, api, game_id, key, red_turn_in_round_3)
    confirm_red_turn_by_clicking(browser, app, api, game_id)
    assert by_css(browser, "p.flash")[0].text.startswith("Played: ")
    browser.execute_script("window.notReloaded = true;")
    confirmed = api.get(f"/api/games/{game_id}").get_json()["seq"]
    mine = end_round_3(app, api, game_id, key)  # the bots end it: a general scoring
    assert scored_since(api, game_id, key, confirmed)

    def told(b) -> str:
        found = by_css(b, "section.since")
        return found[0].text if found else ""

    # The poll brings the bots' moves in; the page is not reloaded, nothing is clicked.
    WebDriverWait(browser, 20).until(lambda b: "scored:" in told(b))
    text = " ".join(told(browser).split())
    moves = bots_moves_since(api, game_id, key, mine)
    assert moves
    for move in moves:
        assert move in text, (move, text)
    if mine == confirmed:
        # The bots' moves alone ended the round, so the scoring's heading is among them. (A
        # bot's intrigue may have sent red to the Castillo: then red's own pick set the
        # scoring off, and the story begins at that pick, after the heading.)
        assert "General scoring" in text, text
    # The breakdown is open in place: a line per region, each on view, none in a <details>.
    scored = [li for li in by_css(browser, "section.since li") if "scored:" in li.text]
    assert len(scored) >= 3 and all(li.is_displayed() for li in scored), text
    assert not by_css(browser, "section.since details")
    assert browser.execute_script("return window.notReloaded === true;")


#: A game (its seed) in which red is in the Castillo at round 3's end.
OWN_SCORING_SEED = 1


def test_a_scoring_the_seats_own_move_set_off_stays_in_sight(app, api, client, monkeypatch):
    """The scoring red's own move set off stays on red's page, open, until red's next
    decision: red, in the Castillo, picks after the bots (who pick at once), so its pick
    reveals the Castillo's and the general scoring comes with it."""
    monkeypatch.setattr("pbem.play.lifecycle.secrets.randbits", lambda bits: OWN_SCORING_SEED)
    game, key = new_bot_game(api, options={"first_player": "red"}, level=BOTS)
    game_id = game["id"]
    play_red(app, api, game_id, key, red_turn_in_round_3, castillo=True)
    play_red_turn(api, game_id, key)
    end_round_3(app, api, game_id, key)
    log = api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]
    # The move that ended round 3 scored it, and started round 4.
    ender = next(
        e for e in log for ev in e["events"] if ev == {**ev, "type": "round_started", "round": 4}
    )
    assert ender["player"] == "red", ender
    sign_in_seat(app, client, game_id, "red")
    since = page(client, f"/games/{game_id}?colour=red").find("section", cls="since")
    assert since is not None
    lines = [" ".join(li.text.split()) for li in since.find_all("li")]
    assert lines[0].startswith("You: "), lines
    assert any(" scored: " in line for line in lines), lines
    assert stepped_from(since) == ender["seq"]
    # Red's next decision (a power card in round 4): the scoring is behind it now.
    play_red(app, api, game_id, key, lambda view, decision: decision["kind"] != "power_card")
    log = api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]
    card = max(e["seq"] for e in log if e["player"] == "red")
    since = page(client, f"/games/{game_id}?colour=red").find("section", cls="since")
    assert since is None or stepped_from(since) == card + 1


def stepped_from(since) -> int:
    """The seq the section's link steps through its moves from."""
    query = parse_qs(urlsplit(since.find("a").get("href")).query)
    return int(query["seq"][0])


def test_the_story_is_led_by_the_latest_scoring_of_the_seats_own_last_moves(monkeypatch):
    """Of red's own last moves (a turn), the story starts at the latest that scored; moves
    of red's before another's are not read as its last."""
    from pbem.game import history

    scoring = [{"type": "score", "player": "red", "points": 4}]
    log = [
        {"seq": 1, "player": "red", "move": {}, "events": scoring},
        {"seq": 2, "player": "blue", "move": {}, "events": scoring},
        {"seq": 3, "player": "red", "move": {}, "events": []},
        {"seq": 4, "player": "red", "move": {}, "events": scoring},
        {"seq": 5, "player": "red", "move": {}, "events": scoring},
        {"seq": 6, "player": "red", "move": {}, "events": []},
        {"seq": 7, "player": "green", "move": {}, "events": []},
    ]

    def stored_log(connection, game_id, after, upto):
        return [e for e in log if after < e["seq"] <= upto]

    def since_last_move(connection, game_id, colour, upto):
        last = max(e["seq"] for e in log if e["player"] == colour and e["seq"] <= upto)
        return stored_log(connection, game_id, last, upto)

    monkeypatch.setattr(history, "stored_log", stored_log)
    monkeypatch.setattr(history, "since_last_move", since_last_move)

    def seqs(colour: str, upto: int) -> list[int]:
        return [e["seq"] for e in history.since_last_decision(None, 1, colour, upto)]

    assert seqs("red", 7) == [5, 6, 7]
    assert seqs("red", 6) == [5, 6]  # red moved last: its scoring alone
    assert seqs("red", 3) == []  # red's move after blue's scoring set off none
    assert seqs("blue", 7) == [2, 3, 4, 5, 6, 7]
    assert seqs("green", 7) == []


def test_round_back_goes_to_the_round_before_with_its_moves_listed(app, api, client):
    """From round 4, "◀◀ Round" goes to the start of round 3 and lists its moves, every
    one, from the move that started it to the one that ended it (its scoring); from there,
    to the start of round 2."""
    game, key = new_bot_game(api, options={"first_player": "red"}, level=BOTS)
    game_id = game["id"]
    play_red(app, api, game_id, key, lambda view, decision: view["round_number"] == 4)
    log = api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]
    # Round 1 starts at setup (seq 0); each later one with the move whose events say so.
    starts = [0] + [e["seq"] for e in log for ev in e["events"] if ev["type"] == "round_started"]
    assert len(starts) == 4, starts
    sign_in_seat(app, client, game_id, "red")
    path = f"/games/{game_id}?colour=red"
    for start, end in ((starts[2], starts[3]), (starts[1], starts[2])):
        back = page(client, path).find("nav", cls="replay").find("a", data_step="previous-round")
        assert back.get("title") == "The start of the round before"
        path = back.get("href")
        assert parse_qs(urlsplit(path).query)["seq"] == [str(start)], (path, start)
        listed = page(client, path).find("aside", cls="log").find_all("li", data_seq=True)
        assert [int(li.get("data-seq")) for li in listed] == list(range(start, end + 1))


def test_whats_new_to_a_seat_from_the_kept_round_is_what_the_log_says(monkeypatch):
    """A page finds what is new to a seat in the last round its worker keeps
    (`since_last_decision_in`) where that stretch holds all it needs: over random logs
    (runs of one seat's moves, scorings, stories past `STORY_MOST`), for every seq, seat and
    stretch kept, it answers what the stored log gives, or None."""
    import random

    rng = random.Random(7)
    for _ in range(12):
        log: list[dict] = []
        colour = "red"
        for seq in range(1, 221):
            if rng.random() < 0.3:
                colour = rng.choice(["red", "blue", "green"])
            events = [{"type": "score"}] if rng.random() < 0.05 else []
            log.append({"seq": seq, "player": colour, "move": {}, "events": events})

        def stored_log(connection, game_id, after, upto, log=log):
            return [e for e in log if after < e["seq"] <= upto]

        def since_last_move(connection, game_id, colour, upto, log=log):
            mine = [e["seq"] for e in log if e["player"] == colour and e["seq"] <= upto]
            after = max(mine[-1] if mine else 0, upto - history.STORY_MOST)
            return stored_log(None, None, after, upto)

        monkeypatch.setattr(history, "stored_log", stored_log)
        monkeypatch.setattr(history, "since_last_move", since_last_move)
        answered = 0
        for upto in range(1, 221, 3):
            for first in {1, max(1, upto - 5), max(1, upto - 30), max(1, upto - 120)}:
                kept = [e for e in log if first <= e["seq"] <= upto]
                for seat in ("red", "blue", "green"):
                    found = history.since_last_decision_in(kept, seat, upto)
                    if found is not None:
                        answered += 1
                        assert found == history.since_last_decision(None, 1, seat, upto)
        assert answered > 400  # most stretches tell, and each that does is right
