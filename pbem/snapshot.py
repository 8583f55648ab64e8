"""Screenshots of the board for docs/: `python -m pbem.snapshot [boards] [out_dir]`;
of the pages served by a real server: `python -m pbem.snapshot pages [out_dir]`.

Renders a mid-game board and a finished game (random play from fixed seeds) as standalone
pages, opens them in headless Chromium and saves `board-midgame.png` and `board-finished.png`
(by default into `docs/`). Needs the `dev` extra (selenium) and Debian's chromium and
chromium-driver.
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import random
import re
import tempfile
import threading
from collections.abc import Callable
from email import message_from_string, policy
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from flask import Flask
from werkzeug.serving import make_server

import engine
from engine.bots import RandomBot
from engine.driver import play_random_game
from pbem import create_app
from pbem.cli import upgrade_database
from pbem.extensions import db
from pbem.game.players import add_player, hash_api_key, player_by_key_hash
from pbem.notify.sender import compose_queued
from pbem.play import accounts
from pbem.play.asked import SeatAsked
from pbem.schedule.sweep import sweep
from pbem.store.models import Notification
from pbem.web.board import standalone_page
from pbem.web.signin import seat_link

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WINDOW = (1600, 1000)
COLOURS = ["red", "yellow", "green", "blue", "brown"]
# Seeds and a move count that give a board with pieces everywhere and a mobile scoreboard out.
MIDGAME_SEED = 3
MIDGAME_MOVES = 150
FINISHED_SEED = 5

CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def start_chromium(
    profile_dir: str | Path, window: tuple[int, int] = WINDOW, language: str | None = None
) -> Any:
    """Headless Chromium under Selenium, with a throwaway profile and a fixed window size (and
    `language` first in the Accept-Language it sends)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    options.add_argument(f"--window-size={window[0]},{window[1]}")
    if language:
        options.add_argument(f"--accept-lang={language}")
    # The console's messages, for tests to read (a page refused by its CSP says so there).
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


def midgame(seed: int = MIDGAME_SEED, moves: int = MIDGAME_MOVES) -> engine.State:
    """A five-player game played `moves` random moves from `seed`."""
    bot = RandomBot(seed)
    state = engine.new_game(COLOURS, seed=seed)
    for _ in range(moves):
        if engine.is_over(state):
            break
        player = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, player, bot.choose(state, player))
    return state


def finished(seed: int = FINISHED_SEED) -> engine.State:
    state, _ = play_random_game(COLOURS, seed=seed, bot_seed=seed)
    return state


def screenshot(driver: Any, page: Path | None, out: Path) -> None:
    """Open `page` (None: keep the page open now) and save a PNG of the whole document,
    however tall the window is."""
    if page is not None:
        driver.get(page.resolve().as_uri())
    # No scrollbar: it would narrow the layout the capture is measured on.
    driver.execute_script("document.documentElement.style.overflow = 'hidden'")
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
        },
    )
    out.write_bytes(base64.b64decode(shot["data"]))


def _play_over_api(client: Any, game_id: int, keys: dict[str, str], seed: int, moves: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        view = client.get(f"/api/games/{game_id}").get_json()
        if view["status"] != "active":
            return
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        auth = {"Authorization": f"Bearer {keys[colour]}"}
        legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
        body = {"expected_seq": legal["seq"], "moves": [rng.choice(legal["moves"])]}
        client.post(f"/api/games/{game_id}/moves", json=body, headers=auth)


#: The window sizes the pages are taken at: a laptop's and a phone's (CSS px).
DESKTOP, PHONE = (1366, 900), (390, 844)


#: The scenes retaken in each other language (`--language`): the board, and making a game.
LANGUAGE_SCENES = ("board", "new-game", "tournament")


def pages(out_dir: Path, language: str | None = None, only: list[str] | None = None) -> None:
    """The pages of a served game, each at a laptop's size (`web-NAME.png`) and a phone's
    (`web-NAME-phone.png`), from a real server on a throwaway SQLite database: a seat's
    board mid-game (with words at the table), the games that need players, an invitation
    mail, the home page, `/me`, `/games/new` and a game's organiser page signed in, a turn
    being planned, an intrigue under way, a scoring opened in the log, and a finished game.
    With `language`, the browser asks for that language, and only LANGUAGE_SCENES are taken
    (`web-NAME-LANGUAGE.png`, `web-NAME-LANGUAGE-phone.png`). With `only`, only the scenes
    of those names."""
    with tempfile.TemporaryDirectory() as tmp:
        # Rosa makes more games than a day allows a stranger: the season behind the ratings.
        # Its five friends play every game together, so no circle limit: past five games
        # their ratings would stop, and the pages would show none moving.
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/pages.sqlite",
                "PBEM_GAMES_PER_DAY": 50,
                "PBEM_RATED_GAMES_PER_CIRCLE": 0,
            }
        )
        upgrade_database(app)
        client = app.test_client()
        server = make_server("127.0.0.1", 0, app, threaded=True)
        base = f"http://127.0.0.1:{server.server_port}"
        app.config["PBEM_BASE_URL"] = base
        threading.Thread(target=server.serve_forever, daemon=True).start()
        scenes = _scenes(app, client, base, Path(tmp))
        if only:
            scenes = {k: v for k, v in scenes.items() if k in only}
        if language:
            scenes = {f"{k}-{language}": v for k, v in scenes.items() if k in LANGUAGE_SCENES}
        try:
            for suffix, window in (("", DESKTOP), ("-phone", PHONE)):
                driver = start_chromium(Path(tmp) / f"profile{suffix}", window, language)
                try:
                    _emulate(driver, window, mobile=bool(suffix))
                    for name, (urls, script) in scenes.items():
                        if name == "sign-up":  # a sign-up's link works once: one a pass
                            urls = [_sign_up_link(app, f"nell{suffix}@example.org", "Nell")]
                        for url in urls:  # a seat's link signs in, then its page
                            driver.get(url)
                            if "/sign-in/" in url and name != "seat-sign-in":
                                _press(driver)  # a seat's link asks first: "Sign in"
                        if script:
                            driver.execute_script(script)
                        out = out_dir / f"web-{name}{suffix}.png"
                        screenshot(driver, None, out)
                        print(out)
                finally:
                    driver.quit()
        finally:
            server.shutdown()


#: A seat link's button, and the one that goes on as the link's player when another is
#: signed in (`pbem.web.another_account`).
_SIGN_IN_BUTTONS = (
    "form.seat-sign-in button[type=submit], form.account-choice button.continue-as-them"
)


def _press(driver: Any) -> None:
    """Press the "Sign in" button of a seat link's page, as a person does, and wait for the
    page it leads to. A link opened by its own player, signed in already, goes straight on
    to the board: nothing to press there (its first button would play a move). Opened by
    another player, it asks whose account to go on with: theirs, pressed here."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.expected_conditions import staleness_of
    from selenium.webdriver.support.wait import WebDriverWait

    buttons = driver.find_elements(By.CSS_SELECTOR, _SIGN_IN_BUTTONS)
    if not buttons:
        return
    button = buttons[0]
    button.click()
    WebDriverWait(driver, 10).until(staleness_of(button))


def _emulate(driver: Any, window: tuple[int, int], mobile: bool) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": window[0], "height": window[1], "deviceScaleFactor": 1, "mobile": mobile},
    )


#: Opens a scoring's breakdown in the log and brings it into view.
_OPEN_SCORING = """
var d = document.querySelector("details[data-scoring]");
if (d) { d.open = true; d.scrollIntoView(); }
"""
#: Opens the first place an intrigue's caballeros may leave, as a click on the map does.
_OPEN_SHIFTS = """
var d = document.querySelector("details.shift-from");
if (d) { d.open = true; }
"""


def _scenes(app: Flask, client: Any, base: str, tmp: Path) -> dict[str, tuple[list[str], str]]:
    """Each page to take: the URLs to open in turn (a seat's link first, to sign in) and a
    script to run on the last one."""
    names = {"red": "Rosa", "yellow": "Yago", "green": "Greta", "blue": "Bruno", "brown": "Nuno"}
    # Players as `pbem players add` makes them: POST /api/players mails a link, not a key.
    with app.app_context():
        keys = {c: add_player(f"{c}@example.org", n)[1] for c, n in names.items()}
        db.session.commit()
        db.session.remove()

    def new_game(title: str, seed: int, moves: int, options: dict[str, Any] | None = None) -> int:
        body = {
            "title": title,
            "seats": [{"email": f"{c}@example.org", "colour": c} for c in names],
            "options": options or {},
        }
        auth = {"Authorization": f"Bearer {keys['red']}"}
        game_id: int = client.post("/api/games", json=body, headers=auth).get_json()["id"]
        _play_over_api(client, game_id, keys, seed, moves)
        return game_id

    def seat(game_id: int, colour: str | None = None) -> tuple[str, str]:
        """A seat's sign-in link: `colour`'s, else the seat that must act now."""
        colour = colour or client.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
        player_id = _player_id(app, keys[colour])
        with app.app_context():
            return colour, seat_link(game_id, colour, player_id)

    _season(new_game)
    mid, done = new_game("Sunday league", 3, 152), new_game("Winter cup", 5, 5000)
    scored = _first_scoring(client, mid)
    turn = new_game("Friday table", 7, 0)
    planned = _plan_to_a_place(client, turn, keys, seat)
    intrigue = new_game("Evening game", 11, 0)
    _play_to_an_intrigue(client, intrigue, keys, random.Random(11))
    by_card = _scoring_card_scenes(client, keys, new_game, seat)
    # Words at the table of the game the board shows, from two of its players.
    for colour, words in (("yellow", "Good luck all!"), ("green", "Watch out for Aragon.")):
        auth = {"Authorization": f"Bearer {keys[colour]}"}
        client.post(f"/api/games/{mid}/messages", json={"text": words}, headers=auth)
    invitation, never_invite = _forming_game(app, client, keys, tmp)
    against_bots = _bots_round_after_a_turn(app, client, keys["red"])
    _rosa_settles(client, keys["red"], mid, done)
    return (
        {
            # First, while the browser is signed in as nobody: a seat's link asks before it signs
            # in (the others press its button).
            "seat-sign-in": ([seat(mid, "yellow")[1]], ""),
            "board": ([seat(mid)[1]], ""),
            "open-games": ([f"{base}/games/open"], ""),
            "mail-invitation": ([invitation], ""),
            "home": ([seat(mid, "red")[1], f"{base}/"], ""),
            "me": ([f"{base}/me"], ""),
            "new-game": ([f"{base}/games/new"], ""),
            "organise": ([f"{base}/games/{mid}/organise"], ""),
            "turn-plan": ([seat(turn)[1], f"{base}/games/{turn}/plan?{planned}"], ""),
            "intrigue": ([seat(intrigue)[1]], _OPEN_SHIFTS),
            **by_card,
            "scoring": ([f"{base}/games/{mid}?seq={scored}"], _OPEN_SCORING),
            "finished": ([f"{base}/games/{done}"], ""),
            # Rosa's record after the season and the cup, and the standings they make.
            "player": ([f"{base}/players/{_player_id(app, keys['red'])}"], ""),
            "ratings": ([f"{base}/ratings"], ""),
            # Rosa's page after she played her turn and two bots ended the round with a scoring.
            "since-last-look": ([seat(against_bots, "red")[1]], ""),
            # What a stranger and a newcomer meet: the "never invite me again" page, and the page
            # a sign-up's mailed link leads to (its button pressed: the key, shown once).
            "never-invite": ([never_invite], ""),
            "sign-up": ([], ""),  # its link made for each pass (`pages`)
        }
        | _keep_apart_scenes(app, client, keys, mid, seat(mid, "red")[1], base)
        | _tournament_scenes(app, client, keys["red"], tmp, seat(mid, "red")[1], base)
    )


def _tournament_scenes(
    app: Flask, client: Any, rosa_key: str, tmp: Path, rosa: str, base: str
) -> dict[str, tuple[list[str], str]]:
    """Rosa's Winter open: eight entrants (Hanna and Jonas read German), Swiss by boards at
    tables of four, its first round played out and the second drawn: its page, the list,
    the new tournament's form, and the second round's draw mail as an English entrant and a
    German one get it."""
    names = ["Ana", "Bea", "Cid", "Dora", "Eli", "Fia", "Hanna", "Jonas"]
    with app.app_context():
        keys = {n: add_player(f"{n.lower()}@example.org", n)[1] for n in names}
        db.session.commit()
        db.session.remove()
    for name in ("Hanna", "Jonas"):
        auth = {"Authorization": f"Bearer {keys[name]}"}
        client.put("/api/players/me/preferences", json={"language": "de"}, headers=auth)
    auth = {"Authorization": f"Bearer {rosa_key}"}
    body = {"title": "Winter open", "table_size": 4, "rounds": 3, "entry": {"most": 8}}
    body["options"] = {"rounds": 6}
    tid = client.post("/api/tournaments", json=body, headers=auth).get_json()["id"]
    for name in names:
        client.post(
            f"/api/tournaments/{tid}/entries", headers={"Authorization": f"Bearer {keys[name]}"}
        )
    shown = client.get(f"/api/tournaments/{tid}").get_json()
    by_id = {s["player_id"]: s["name"] for s in shown["standings"]}
    for n, table in enumerate(shown["rounds"][0]["tables"]):
        colours = ("red", "yellow", "green", "blue", "brown")
        seated = {c: keys[by_id[p]] for c, p in zip(colours, table["players"], strict=False)}
        _play_over_api(client, table["game_id"], seated, 20 + n, 5000)
    mails = {
        lang: _draw_mail(app, tmp, name, lang) for name, lang in (("ana", "en"), ("hanna", "de"))
    }
    page = f"{base}/tournaments/{tid}"
    return {
        "tournament": ([rosa, page], ""),
        "tournaments": ([rosa, f"{base}/tournaments"], ""),
        "tournament-new": ([rosa, f"{base}/tournaments/new"], ""),
        "mail-draw": ([mails["en"]], ""),
        "mail-draw-de": ([mails["de"]], ""),
    }


def _composed(app: Flask) -> None:
    """Every mail waiting as what it says composed, as the sender does before it sends:
    only then does a row hold its message."""
    with app.app_context():
        while compose_queued():
            pass


def _draw_mail(app: Flask, tmp: Path, name: str, language: str) -> str:
    """The file URL of the last draw mail to `name`'s address, its HTML part."""
    _composed(app)
    with app.app_context():
        query = (
            db.select(Notification.message)
            .where(Notification.recipient == f"{name}@example.org", Notification.kind == "notice")
            .order_by(Notification.id.desc())
        )
        found = [m for m in db.session.execute(query).scalars() if "round" in m or "Runde" in m]
    html = message_from_string(found[0], policy=policy.default).get_body(preferencelist=("html",))
    assert html is not None  # every notice has its HTML part
    page = tmp / f"draw-{language}.html"
    page.write_text(html.get_content(), encoding="utf-8")
    return page.resolve().as_uri()


def _rosa_settles(client: Any, key: str, mid: int, done: int) -> None:
    """Rosa (red, who made every game) is away a week, has stopped the finished game's mail,
    and has the Sunday league's news posted to her group's chat."""
    rosa = {"Authorization": f"Bearer {key}"}
    away = {"from": "2027-01-04T00:00:00+00:00", "until": "2027-01-11T00:00:00+00:00"}
    client.post("/api/players/me/absences", json=away, headers=rosa)
    hook = {
        "game_id": mid,
        "url": "https://discord.com/api/webhooks/1234/sunday",
        "format": "discord",
    }
    chosen = {"muted_games": [done], "webhooks": [hook]}
    client.put("/api/players/me/preferences", json=chosen, headers=rosa)


#: Opens the table's "Mute a seat, or report" and brings it into view.
_OPEN_KEEP_APART = """
var d = document.querySelector("details.keep-apart");
if (d) { d.open = true; d.scrollIntoView({block: "center"}); }
"""
_TO_KEEP_APART = 'document.querySelector("section.keep-apart").scrollIntoView({block: "center"});'


def _keep_apart_scenes(
    app: Flask, client: Any, keys: dict[str, str], game_id: int, rosa: str, base: str
) -> dict[str, tuple[list[str], str]]:
    """Keeping others away, as Rosa (red) sees it: Nuno's rude words at the Sunday league's
    table, the page reporting them, Bruno's page with its Block button, the table's mute
    controls, and the operator's queue (Rosa is this server's operator) with two reports."""
    from pbem.play import moderation

    auth = {"Authorization": f"Bearer {keys['brown']}"}
    rude = {"text": "You all play like beginners. Pathetic."}
    said = client.post(f"/api/games/{game_id}/messages", json=rude, headers=auth).get_json()
    for colour, reason in (("red", "Insults at our table."), ("yellow", "Rude again.")):
        report = {"kind": "talk", "id": said["id"], "reason": reason}
        client.post(
            "/api/reports", json=report, headers={"Authorization": f"Bearer {keys[colour]}"}
        )
    with app.app_context():
        moderation.set_operator("red@example.org", True)
        db.session.commit()
        db.session.remove()
    back = f"/games/{game_id}"
    bruno = _player_id(app, keys["blue"])
    return {
        "player-block": ([rosa, f"{base}/players/{bruno}"], _TO_KEEP_APART),
        "report": ([rosa, f"{base}/report?kind=talk&id={said['id']}&next={back}"], ""),
        "table-keep-apart": ([rosa, f"{base}{back}"], _OPEN_KEEP_APART),
        "operator": ([rosa, f"{base}/operator"], ""),
    }


def _player_id(app: Flask, key: str) -> int:
    with app.app_context():
        player = player_by_key_hash(hash_api_key(key))
        assert player is not None  # registered by the scenes
        return player.id


def _season(new_game: Callable[..., int]) -> None:
    """A season of short games before the Winter cup: a rating history and standings."""
    for week in range(1, 6):
        new_game(f"Autumn round {week}", 20 + week, 5000, {"rounds": 6})


def _sign_up_link(app: Flask, email: str, name: str) -> str:
    """The link `POST /api/players` mails to `email`, as its owner opens it."""
    links: list[str] = []

    def kept(token: str) -> str:
        links.append(f"{app.config['PBEM_BASE_URL']}/sign-in/link/{token}")
        return links[-1]

    with app.test_request_context():
        accounts.mail_sign_in_link(email, "127.0.0.1", None, kept, name=name)
        db.session.commit()
        db.session.remove()
    return links[0]


def _forming_game(app: Flask, client: Any, keys: dict[str, str], tmp: Path) -> tuple[str, str]:
    """Rosa's game that forms (a friend invited, a seat open, a bot): the file URL of the
    friend's invitation mail, its HTML part as a mail client shows it, and the mail's
    "never invite me again" link."""
    body = {
        "title": "Saturday five",
        "forming": True,
        "seats": [
            {"email": "red@example.org", "colour": "red"},
            {"email": "ines@example.org", "colour": "yellow"},
            {"open": True, "colour": "green"},
            {"bot": True, "colour": "blue"},
        ],
    }
    auth = {"Authorization": f"Bearer {keys['red']}"}
    game_id = client.post("/api/games", json=body, headers=auth).get_json()["id"]
    _composed(app)
    with app.app_context():
        query = db.select(Notification.message).where(
            Notification.game_id == game_id, Notification.kind == "invitation"
        )
        message = db.session.execute(query).scalar_one()
    mail = message_from_string(message, policy=policy.default)
    html = mail.get_body(preferencelist=("html",))
    assert html is not None  # every invitation has its HTML part
    page = tmp / "invitation.html"
    content = html.get_content()
    page.write_text(content, encoding="utf-8")
    never = re.search(r'href="([^"]*/never-invite/[^"]+)"', content)
    assert never is not None  # every invitation offers it
    return page.resolve().as_uri(), never[1]


def _first_scoring(client: Any, game_id: int) -> int:
    """The seq of the game's first move that scored."""
    log = client.get(f"/api/games/{game_id}/log").get_json()["moves"]
    seq: int = next(e["seq"] for e in log if any(ev["type"] == "score" for ev in e["events"]))
    return seq


def _plan_to_a_place(
    client: Any, game_id: int, keys: dict[str, str], seat: Callable[[int], tuple[str, str]]
) -> str:
    """Power cards played (each seat its highest) to the first turn; the query of a plan
    that chooses the turn's richest card and places one caballero."""
    while True:
        decision = client.get(f"/api/games/{game_id}").get_json()["pending"][0]
        auth = {"Authorization": f"Bearer {keys[decision['player']]}"}
        legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
        if decision["kind"] == "turn":
            # Signed in as the seat (the link's path: the test client's cookies are for its
            # own host), to read its plan page.
            path = urlsplit(seat(game_id)[1]).path
            asked = client.get(path).get_data(as_text=True)  # the link asks first
            token = re.search(r'name="csrf_token" value="([^"]+)"', asked)
            assert token is not None  # the page's Sign in form
            client.post(path, data={"csrf_token": token[1]})
            break
        card = max(legal["moves"], key=lambda m: m.get("card", 0))
        client.post(
            f"/api/games/{game_id}/moves",
            json={"expected_seq": legal["seq"], "moves": [card]},
            headers=auth,
        )
    cards = [m for m in legal["moves"] if m["type"] == "choose_card"]
    chosen = max(cards, key=lambda m: m["stack"])
    planned = {"seq": legal["seq"], "planned": json.dumps([chosen])}
    # The places the card allows, as the plan's page offers them (its move buttons).
    page = client.get(f"/games/{game_id}/plan?{urlencode(planned)}").get_data(as_text=True)
    values = [html.unescape(v) for v in re.findall(r'name="move" value="([^"]*)"', page)]
    place = next(v for v in values if json.loads(v)["type"] == "place")
    return urlencode({**planned, "move": place})


def _bots_round_after_a_turn(app: Flask, client: Any, key: str) -> int:
    """A game of Rosa (red) against two house bots, played to round 3: Rosa plays the
    highest power card and her turn, then the bots end the round, a general scoring."""
    seats: list[SeatAsked] = [{"email": "red@example.org", "colour": "red"}]
    seats += [{"colour": c, "bot": True} for c in ("blue", "green")]
    auth = {"Authorization": f"Bearer {key}"}
    body = {"title": "Against the bots", "seats": seats, "options": {"first_player": "red"}}
    game_id: int = client.post("/api/games", json=body, headers=auth).get_json()["id"]
    preferred = ("take_caballeros", "choose_card", "place", "end_turn", "skip_special")
    for _ in range(400):
        with app.app_context():
            sweep()
        view = client.get(f"/api/games/{game_id}", headers=auth).get_json()
        mine = [p for p in view["pending"] if p["player"] == "red"]
        if view["round_number"] == 4 and mine:
            return game_id
        if not mine:
            continue
        legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()["moves"]
        if mine[0]["kind"] == "power_card":  # the highest in round 3: the bots act after her
            pick = max if view["round_number"] == 3 else min
            move = pick(legal, key=lambda m: m["card"])
        else:
            rank = {kind: i for i, kind in enumerate(preferred)}
            move = min(legal, key=lambda m: (rank.get(m["type"], 9), -m.get("count", 0)))
        body = {"expected_seq": view["seq"], "moves": [move]}
        client.post(f"/api/games/{game_id}/moves", json=body, headers=auth)
    raise RuntimeError("round 4 never came")


def _scoring_card_scenes(
    client: Any,
    keys: dict[str, str],
    new_game: Callable[..., int],
    seat: Callable[[int, str], tuple[str, str]],
) -> dict[str, tuple[list[str], str]]:
    """A scoring card chosen, its region still to name (its buttons say "score ..."); and
    the same card's region scored: the page after it, its breakdown first."""
    scenes = {}
    for name, title, score in (
        ("scoring-card", "Market day", False),
        ("scored-by-card", "Market day, later", True),
    ):
        game_id = new_game(title, 13, 0)
        colour = _play_to_a_scoring_card(client, game_id, keys, random.Random(13), score=score)
        scenes[name] = ([seat(game_id, colour)[1]], "")
    return scenes


def _play_to_a_scoring_card(
    client: Any, game_id: int, keys: dict[str, str], rng: random.Random, *, score: bool
) -> str:
    """Random moves until a seat's turn in round 2 or later may take Score chosen region: it
    takes all the caballeros it may and the card, and (`score`) names the region most
    colours hold to score. The seat's colour."""
    for _ in range(3000):
        view = client.get(f"/api/games/{game_id}").get_json()
        colour = view["pending"][0]["player"]
        auth = {"Authorization": f"Bearer {keys[colour]}"}
        legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
        takes = [m for m in legal["moves"] if m["type"] == "take_caballeros"]
        cards = [m for m in legal["moves"] if m.get("card") == "score_chosen_region"]
        later = view["round_number"] >= 2
        if later and takes and _face_up(view, "score_chosen_region"):
            move = max(takes, key=lambda m: m["count"])
        elif later and cards:
            _play(client, game_id, auth, legal["seq"], cards[0])
            if score:
                _score_the_fullest(client, game_id, auth)
            return str(colour)
        else:
            move = rng.choice(legal["moves"])
        _play(client, game_id, auth, legal["seq"], move)
    raise RuntimeError("Score chosen region never came to a seat")


def _face_up(view: dict[str, Any], card: str) -> bool:
    return any(c["card"] == card for c in view["action_cards"]["face_up"])


def _play(client: Any, game_id: int, auth: dict[str, str], seq: int, move: Any) -> None:
    client.post(
        f"/api/games/{game_id}/moves", json={"expected_seq": seq, "moves": [move]}, headers=auth
    )


def _score_the_fullest(client: Any, game_id: int, auth: dict[str, str]) -> None:
    """Name, for the card's scoring, the region most colours hold (then most caballeros):
    a breakdown with ranks."""
    view = client.get(f"/api/games/{game_id}", headers=auth).get_json()
    legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
    regions = [m for m in legal["moves"] if m["type"] == "special_region"]
    held = {
        r: (len([n for n in v["caballeros"].values() if n]), sum(v["caballeros"].values()))
        for r, v in view["regions"].items()
    }
    fullest = max(regions, key=lambda m: held.get(m["region"], (0, 0)))
    _play(client, game_id, auth, legal["seq"], fullest)


def _play_to_an_intrigue(
    client: Any, game_id: int, keys: dict[str, str], rng: random.Random
) -> None:
    """Random moves until a seat may move caballeros between places (an intrigue)."""
    for _ in range(2000):
        view = client.get(f"/api/games/{game_id}").get_json()
        colour = view["pending"][0]["player"]
        auth = {"Authorization": f"Bearer {keys[colour]}"}
        legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
        if any(m["type"] == "move_caballero" for m in legal["moves"]):
            return
        body = {"expected_seq": legal["seq"], "moves": [rng.choice(legal["moves"])]}
        client.post(f"/api/games/{game_id}/moves", json=body, headers=auth)
    raise RuntimeError("no intrigue came up")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pbem.snapshot", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "what",
        nargs="?",
        choices=["boards", "pages"],
        default="boards",
        help="boards: standalone boards (board-*.png); pages: a served game (web-*.png)",
    )
    parser.add_argument("out_dir", nargs="?", type=Path, default=Path("docs"))
    parser.add_argument(
        "--language", help="pages: the board and /games/new only, as a browser in it asks"
    )
    parser.add_argument(
        "--only", action="append", help="pages: only the scene of this name (again for more)"
    )
    args = parser.parse_args(argv)
    out_dir = args.out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    if args.what == "pages":
        pages(out_dir, args.language, args.only)
        return 0
    shots = {
        "board-midgame.png": engine.view(midgame(), "red"),
        "board-finished.png": engine.view(finished(), "red"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        driver = start_chromium(Path(tmp) / "profile")
        try:
            for name, view in shots.items():
                page = Path(tmp) / (name + ".html")
                page.write_text(standalone_page(view), encoding="utf-8")
                screenshot(driver, page, out_dir / name)
                print(out_dir / name)
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
