"""No page shows a viewer another's secret: the leak test of the API (tests/server/
test_secrets.py), extended to the HTML pages.

The same engine games, with the same record of what is secret (`tests.secret_oracle`),
are written into the server at the moments a secret is open; there, and after each of the
next moves played through the API, the board now, the board at this seq and the one before,
and the list are read by every viewer: each seat holder signed in through their seat's
link, a stranger signed in with a key, and nobody. A seat's story since its last move
(`section.since`) is read with them.
"""

from __future__ import annotations

import random
from collections import Counter
from urllib.parse import parse_qs, urlsplit

import pytest

import engine
from engine.data import CARD_STACKS
from pbem.words.moves import log_text
from tests.secret_oracle import (
    EngineGame,
    Moment,
    Secrets,
    play_in_engine,
    seed_with_face_up,
    take_a_card_back,
)
from tests.server.helpers import said_forms
from tests.server.positions import import_at
from tests.server.test_secrets import played, special_pick  # noqa: F401 (a fixture)
from tests.web.helpers import page, sign_in_seat
from tests.web.html import Node, parse


def page_viewers(app, api, game_id, keys, colours):
    """(test client, the colours it holds) for each person, a stranger and nobody."""
    viewers = []
    for key in dict.fromkeys(keys.values()):
        held = frozenset(c for c in colours if keys[c] == key)
        client = app.test_client()
        sign_in_seat(app, client, game_id, sorted(held)[0])
        viewers.append((client, held))
    stranger_key = api.register(f"page-stranger-{game_id}@example.org", "Page stranger")
    stranger = app.test_client()
    token = page(stranger, "/sign-in").find("input", name="csrf_token").get("value")
    signed = stranger.post("/sign-in", data={"csrf_token": token, "api_key": stranger_key})
    assert signed.status_code == 303
    viewers += [(stranger, frozenset()), (app.test_client(), frozenset())]
    return viewers


SECRET_KINDS = ("castillo_pick", "secret_pick", "return_power_card")
#: A move shown without its fields, as the log and the story may tell it: by its kind, and
#: the card it was made for where the log tells it.
HIDDEN = {log_text({"type": kind}, card) for kind in SECRET_KINDS for card in (None, *CARD_STACKS)}


def check_page(doc: Node, viewer: frozenset[str], secrets: Secrets, where: str) -> Counter:
    """Check one page; returns how many log entries of others' secrets it held ("log"), and
    how many of them its story since the seat's last move told ("since")."""
    # A hand is shown only to its holder, and no power card number appears outside it.
    hands = doc.find_all("section", cls="hand")
    assert all(h.get("data-colour") in viewer for h in hands), (where, viewer)
    assert len(hands) <= 1
    chips = doc.find_all("span", cls="power-card-chip")
    assert len(chips) == sum(len(h.find_all("span", cls="power-card-chip")) for h in hands), where
    # Moves are offered to seat holders only.
    if not viewer:
        assert doc.find("form", cls="moves") is None, where
    # Log entries: another's open pick or taken-back card reads as its kind alone.
    log = doc.find("aside", cls="log")
    secret = {(c, s): r for _, c, s, r in secrets.open_picks if c not in viewer}
    secret.update({(c, s): k for c, s, k in secrets.returns if c not in viewer})
    held = 0
    for entry in log.find_all("li", data_seq=True):
        key = (entry.get("data-colour"), int(entry.get("data-seq")))
        if key in secret:
            held += 1
            text = entry.find("span", cls="text").text
            assert "hidden" in entry.classes, (where, viewer, key, text)
            assert text in HIDDEN, (where, text)
            assert entry.find("code", cls="notation") is None, (where, key)
    return Counter(log=held, since=check_since(doc, viewer, secrets, where))


def check_since(doc: Node, viewer: frozenset[str], secrets: Secrets, where: str) -> int:
    """The story since the seat's last move tells another's open pick or taken-back card by
    its kind alone, never as the notation writes it (its region, its card); how many it
    told."""
    since = doc.find("section", cls="since")
    if since is None:
        return 0
    assert viewer, where  # a story is told to a seat's holder only
    told = " ".join(since.text.split())
    lines = [" ".join(li.text.split()) for li in since.find_all("li")]
    first = int(parse_qs(urlsplit(since.find("a").get("href")).query)["seq"][0])
    kinds = {"castillo": "castillo_pick", "special": "secret_pick"}
    secret = [(c, s, {"type": kinds[p], "region": r}) for p, c, s, r in secrets.open_picks]
    secret += [(c, s, {"type": "return_power_card", "card": k}) for c, s, k in secrets.returns]
    held = 0
    for colour, seq, move in secret:
        if colour in viewer or seq < first:
            continue
        held += 1
        # Its owner's lines ("Name (colour): ..."): another may have picked the same region.
        theirs = " ".join(line for line in lines if line.split(":")[0].endswith(f"({colour})"))
        # The same colour may have made the same move in public since (a pick revealed
        # before this one was made): the log shows it so, and the story may tell it.
        if engine.format_move(move) not in public_moves(doc, colour, first):
            # Neither in the notation nor in words, under any card.
            for said in said_forms(move):
                assert said not in theirs, (where, viewer, move, said, told)
        hidden = {log_text({"type": move["type"]}, card) for card in (None, *CARD_STACKS)}
        assert any(said in told for said in hidden), (where, viewer, move, told)
    return held


def public_moves(doc: Node, colour: str, first: int) -> set[str]:
    """The notation of `colour`'s moves the page's log shows in the open from seq `first`."""
    log = doc.find("aside", cls="log")
    return {
        code.text.strip()
        for entry in log.find_all("li", data_seq=True, data_colour=colour)
        if int(entry.get("data-seq")) >= first and "hidden" not in entry.classes
        for code in entry.find_all("code", cls="notation")
    }


def read_pages(viewers, game_id: int, seq: int, secrets: Secrets) -> Counter:
    held: Counter = Counter()
    for client, colours in viewers:
        paths = [f"/games/{game_id}", f"/games/{game_id}?seq={seq}"]
        if seq > 0:
            paths.append(f"/games/{game_id}?seq={seq - 1}")
        if len(colours) > 1:
            paths += [f"/games/{game_id}?colour={c}" for c in sorted(colours)]
        for path in paths:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            html = response.get_data(as_text=True)
            if secrets.seed > 10**9:
                assert str(secrets.seed) not in html, f"{path}: the seed leaked"
            held.update(check_page(parse(html), colours, secrets, f"GET {path}"))
        assert client.get("/").status_code == 200
    return held


def read_pages_at_and_play_on(app, api, game: EngineGame, moment: Moment, moves: int) -> Counter:
    """The game written into the server at `moment`, its pages read by every viewer, then
    after each of its next `moves` moves (played through the API) again; what the pages held
    of others' secrets."""
    game_id, keys = import_at(app, api, game, moment.seq)
    viewers = page_viewers(app, api, game_id, keys, game.colours)
    held = read_pages(viewers, game_id, moment.seq, moment.secrets)
    for seq in range(moment.seq, min(moment.seq + moves, len(game.log))):
        colour, move = game.log[seq]
        response = api.post_moves(game_id, keys[colour], [move], seq, colour=colour)
        assert response.status_code == 201, response.get_json()
        held.update(read_pages(viewers, game_id, seq + 1, game.moments[seq + 1].secrets))
    return held


@pytest.mark.parametrize("name", ["three", "two-colour"])
def test_no_page_shows_a_viewer_anothers_secret(app, api, played, name):  # noqa: F811
    game = played(name)
    held = read_pages_at_and_play_on(
        app, api, game, game.first("pick", lambda m: not special_pick(m)), moves=3
    )
    held.update(read_pages_at_and_play_on(app, api, game, game.moments[-2], moves=1))
    assert held["log"], "no page ever showed a log entry of another's open secret pick"
    assert held["since"], "no page's story ever told another's open secret pick"


def test_no_page_shows_which_power_card_came_back(app, api):
    colours = ["red", "blue", "green"]
    seed = seed_with_face_up("power_card_return", colours)
    game = play_in_engine(colours, seed, random.Random(3), take_a_card_back, lean=0.95)
    back = game.first("return")
    held = read_pages_at_and_play_on(app, api, game, back, moves=4)
    held.update(read_pages_at_and_play_on(app, api, game, game.moments[back.seq + 8], moves=1))
    assert held["log"], "no page ever showed the log entry of another's taken-back card"
    assert held["since"], "no page's story ever told another's taken-back card"


def test_no_page_shows_a_viewer_anothers_notes(app, api):
    """Each person keeps notes; every viewer (each seat's holder, a stranger, nobody) reads
    the board now, at a seq and as each of their colours: only their own notes are on it."""
    colours = ["red", "yellow", "green", "blue"]
    game_id, keys = api.new_two_colour_game(colours)
    written = {}
    for key in dict.fromkeys(keys.values()):
        written[key] = f"NOTES-OF-{key[-8:]}"
        response = api.client.put(
            f"/api/games/{game_id}/notes", json={"text": written[key]}, headers=api.auth(key)
        )
        assert response.status_code == 200
    viewers = page_viewers(app, api, game_id, keys, colours)
    for client, held in viewers:
        own = {written[keys[c]] for c in held}
        paths = [f"/games/{game_id}", f"/games/{game_id}?seq=0"]
        paths += [f"/games/{game_id}?colour={c}" for c in sorted(held)]
        for path in paths:
            html = client.get(path).get_data(as_text=True)
            shown = {text for text in written.values() if text in html}
            assert shown == own, (path, sorted(held))
