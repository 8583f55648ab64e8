"""A turn mail's HTML part as a mail client would show it: `python bench/mail_screenshot.py`.

Plays the README's mid-game board (pbem.snapshot.midgame: five colours, random play
from a fixed seed) on to the next turn that begins with choosing an action card, composes
the decision mail its player would get (pbem.notify.compose.decision_mail, in a throwaway
app for the config), writes the HTML part to a file, opens it in headless Chromium and
saves `docs/mail-turn.png` (or the path given). Needs the `dev` extra and Debian's chromium.
"""

from __future__ import annotations

import sys
import tempfile
from email import message_from_string, policy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, bench/ comes first on the path, and bench/engine.py is not the engine.
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.bots import RandomBot  # noqa: E402
from pbem import create_app  # noqa: E402
from pbem.notify import compose  # noqa: E402
from pbem.notify.compose import Recipient  # noqa: E402
from pbem.snapshot import MIDGAME_SEED, midgame, screenshot, start_chromium  # noqa: E402

#: A mail client's reading pane, roughly.
WINDOW = (900, 900)


def turn_state() -> engine.State:
    """The mid-game board, played on until a turn is at its first step (choosing a card)."""
    state = midgame()
    bot = RandomBot(MIDGAME_SEED)
    while True:
        pending = engine.pending(state)
        if pending[0]["kind"] == "turn" and pending[0].get("step") == "choose_card":
            return state
        player = pending[0]["player"]
        state, _ = engine.apply(state, player, bot.choose(state, player))


def turn_mail() -> tuple[str, str, engine.State, str]:
    """The decision mail's text and HTML parts, the state and the colour it is for."""
    state = turn_state()
    decision = engine.pending(state)[0]
    colour = decision["player"]
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "SECRET_KEY": "screenshot",
            "MAIL_FROM": "El Grande <play@pbem.example>",
            "PBEM_BASE_URL": "https://pbem.example",
        }
    )
    with app.app_context():
        mail = compose.decision_mail(
            Recipient(1, f"{colour}@example.org", "Ana", colour),
            game_id=12,
            title="Sunday league",
            state=state,
            decision=decision,
            seq=160,
        )
    parsed = message_from_string(mail.as_string(), policy=policy.default)
    text = parsed.get_body(preferencelist=("plain",)).get_content()
    html = parsed.get_body(preferencelist=("html",)).get_content()
    return text, html, state, colour


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else ROOT / "docs" / "mail-turn.png"
    _, html, _, _ = turn_mail()
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "mail.html"
        page.write_text(html, encoding="utf-8")
        driver = start_chromium(Path(tmp) / "profile", window=WINDOW)
        try:
            screenshot(driver, page, out)
        finally:
            driver.quit()
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
