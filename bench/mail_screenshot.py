"""A turn mail's HTML part as a mail client would show it: `python bench/mail_screenshot.py`.

Plays the README's mid-game board (pbem.snapshot.midgame: five colours, random play
from a fixed seed) on to the next turn that begins with choosing an action card, composes
the decision mail its player would get (pbem.notify.compose.decision_mail, in a throwaway
app for the config), writes the HTML part to a file, opens it in headless Chromium and
saves `docs/mail-turn.png` (or the path given). Needs the `dev` extra and Debian's chromium.

`--language de` (fr, it, es, ru) writes the turn mail as a player who chose that language
gets it: `docs/mail-turn-de.png`, `-de-phone.png` and `-de.txt`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from email import message_from_string, policy
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, bench/ comes first on the path, and bench/engine.py is not the engine.
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.bots import RandomBot  # noqa: E402
from pbem import create_app, words  # noqa: E402
from pbem.notify import after_moves, compose  # noqa: E402
from pbem.notify.compose import Recipient  # noqa: E402
from pbem.snapshot import (  # noqa: E402
    COLOURS,
    MIDGAME_MOVES,
    MIDGAME_SEED,
    screenshot,
    start_chromium,
)

#: A mail client's reading pane, roughly, and a phone's.
WINDOW = (900, 900)
PHONE = (390, 844)


#: The players' names, as the story calls them.
NAMES = {"red": "Ana", "yellow": "Ben", "green": "Cleo", "blue": "Dai", "brown": "Eve"}


def played_on(
    stop: Callable[[engine.State, engine.Events], bool], log: list[engine.LogEntry] | None = None
) -> tuple[engine.State, list[engine.LogEntry]]:
    """The mid-game board (its log kept in `log` from setup), played on until `stop` says."""
    state = engine.new_game(COLOURS, seed=MIDGAME_SEED)
    bot = RandomBot(MIDGAME_SEED)
    log = [] if log is None else log
    while not engine.is_over(state):
        player = engine.pending(state)[0]["player"]
        move = bot.choose(state, player)
        state, events = engine.apply(state, player, move)
        log.append({"seq": len(log) + 1, "player": player, "move": move, "events": events})
        if len(log) >= MIDGAME_MOVES and stop(state, events):
            break
    return state, log


def turn_state() -> tuple[engine.State, list]:
    """The mid-game board, played on until a turn begins (taking caballeros, or choosing a
    card) for a player who has waited a while."""

    log: list[engine.LogEntry] = []

    def choosing(state: engine.State, events: engine.Events) -> bool:
        # A turn whose player has waited a while, so that the mail has a story to tell.
        pending = engine.pending(state)
        if not pending:
            return False
        player = pending[0]["player"]
        last = max((e["seq"] for e in log if e["player"] == player), default=0)
        step = pending[0]["kind"] == "turn" and pending[0].get("step") in ("draw", "choose_card")
        return step and len(log) - last >= 6

    return played_on(choosing, log)


def _app() -> Any:
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "SECRET_KEY": "screenshot",
            "MAIL_FROM": "El Grande <play@pbem.example>",
            "PBEM_BASE_URL": "https://pbem.example",
        }
    )


def _parts(mail: Any) -> tuple[str, str]:
    parsed = message_from_string(mail.as_string(), policy=policy.default)
    text = parsed.get_body(preferencelist=("plain",)).get_content()
    html = parsed.get_body(preferencelist=("html",)).get_content()
    return text, html


def turn_mail(language: str = "en") -> tuple[str, str, engine.State, str]:
    """The decision mail's text and HTML parts (in `language`), the state and the colour it
    is for."""
    state, log = turn_state()
    decision = engine.pending(state)[0]
    colour = decision["player"]
    last = max((e["seq"] for e in log if e["player"] == colour), default=0)
    with _app().app_context():
        mail = compose.decision_mail(
            Recipient(1, f"{colour}@example.org", NAMES[colour], colour, language=language),
            game_id=12,
            title="Sunday league",
            state=state,
            decision=decision,
            seq=len(log),
            since=log[last:],
            names=NAMES,
        )
    text, html = _parts(mail)
    return text, html, state, colour


def power_card_mail(language: str = "en") -> tuple[str, str, engine.State, str]:
    """The mid-game board played on to a round's power cards, two of them played: the
    power card mail its next player gets, naming the round's five action cards."""

    def asking(state: engine.State, events: engine.Events) -> bool:
        pending = engine.pending(state)
        return bool(pending) and pending[0]["kind"] == "power_card" and len(state.power_played) == 2

    log: list[engine.LogEntry] = []
    state, log = played_on(asking, log)
    decision = engine.pending(state)[0]
    colour = decision["player"]
    last = max((e["seq"] for e in log if e["player"] == colour), default=0)
    with _app().app_context():
        mail = compose.decision_mail(
            Recipient(1, f"{colour}@example.org", NAMES[colour], colour, language=language),
            game_id=12,
            title="Sunday league",
            state=state,
            decision=decision,
            seq=len(log),
            since=log[last:],
            names=NAMES,
        )
    text, html = _parts(mail)
    return text, html, state, colour


def scoring_mail() -> tuple[str, str]:
    """The mail after the mid-game board's next general scoring, to its first colour."""
    state, log = played_on(
        lambda state, events: after_moves.general_scoring_events(list(events), state) is not None
    )
    events = after_moves.general_scoring_events(log[-1]["events"], state) or []
    with _app().app_context():
        mail = compose.scoring_mail(
            Recipient(1, "red@example.org", NAMES["red"], "red"),
            game_id=12,
            title="Sunday league",
            state=state,
            events=events,
            seq=len(log),
            names=NAMES,
            totals=words.points_by_source(log) if engine.is_over(state) else None,
        )
    return _parts(mail)


def main(argv: list[str] | None = None) -> int:
    """Writes docs/mail-turn.png (desktop), docs/mail-turn-phone.png, docs/mail-scoring.png,
    docs/mail-power-card.png (and -phone.png) and the text parts beside them (.txt), or into
    the folder given; with --language, the turn mail in that language only."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "docs")
    parser.add_argument("--language", help="the turn mail in this language (de, fr, it, es, ru)")
    args = parser.parse_args(argv)
    folder: Path = args.folder
    suffix = f"-{args.language}" if args.language else ""
    text, html, _, _ = turn_mail(args.language or "en")
    (folder / f"mail-turn{suffix}.txt").write_text(text, encoding="utf-8")
    shots = [
        (f"mail-turn{suffix}.png", html, WINDOW),
        (f"mail-turn{suffix}-phone.png", html, PHONE),
    ]
    if not args.language:
        scoring_text, scoring_html = scoring_mail()
        (folder / "mail-scoring.txt").write_text(scoring_text, encoding="utf-8")
        shots.append(("mail-scoring.png", scoring_html, WINDOW))
        power_text, power_html, _, _ = power_card_mail()
        (folder / "mail-power-card.txt").write_text(power_text, encoding="utf-8")
        shots.append(("mail-power-card.png", power_html, WINDOW))
        shots.append(("mail-power-card-phone.png", power_html, PHONE))
    with tempfile.TemporaryDirectory() as tmp:
        for name, part, window in shots:
            page = Path(tmp) / "mail.html"
            page.write_text(part, encoding="utf-8")
            driver = start_chromium(Path(tmp) / f"profile-{name}", window=window)
            try:
                screenshot(driver, page, folder / name)
            finally:
                driver.quit()
            print(folder / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
