"""How big the board's words are on a phone: `python bench/phone_text.py [--width 390]`.

Serves a mid-game board page (five players, random play from a fixed seed, on a throwaway
SQLite database), opens it in headless Chromium emulating a phone's screen (390x844 CSS px
by default), and prints the smallest rendered size, in CSS px, of the pieces' letters, the
stacks' counts and the region names, and whether the page scrolls sideways (its own width
beside the screen's); `--shot FILE` saves the page as well. Needs the `dev` extra and
Debian's chromium.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from werkzeug.serving import make_server  # noqa: E402

from pbem import create_app  # noqa: E402
from pbem.cli import upgrade_database  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.game.players import add_player  # noqa: E402
from pbem.snapshot import _play_over_api, screenshot, start_chromium  # noqa: E402

#: Each kind of text on the board, by its selector.
TEXTS = {
    "piece letters": "svg.board .letter",
    "stack counts": "svg.board text.count",
    "region names": "svg.board .place-name",
}

MEASURE = """
var out = {};
for (var name in arguments[0]) {
  var sizes = [...document.querySelectorAll(arguments[0][name])].map(function (t) {
    var box = t.getBoundingClientRect();
    return box.height;
  }).filter(function (h) { return h > 0; });
  out[name] = sizes.length ? Math.min.apply(null, sizes) : null;
}
out.page = document.documentElement.scrollWidth;
out.screen = window.innerWidth;
return out;
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    parser.add_argument("--shot", type=Path, help="also save a screenshot of the page here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/phone.sqlite"})
        upgrade_database(app)
        client = app.test_client()
        colours = ["red", "yellow", "green", "blue", "brown"]
        # As `pbem players add` makes them (bench/common.add_players; this file is also
        # imported by a test as bench.phone_text, where `common` is not on the path).
        with app.app_context():
            keys = {c: add_player(f"{c}@example.org", c)[1] for c in colours}
            db.session.commit()
            db.session.remove()
        body = {
            "title": "Phone",
            "seats": [{"email": f"{c}@example.org", "colour": c} for c in colours],
        }
        auth = {"Authorization": f"Bearer {keys['red']}"}
        game_id = client.post("/api/games", json=body, headers=auth).get_json()["id"]
        _play_over_api(client, game_id, keys, 3, 150)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        driver = start_chromium(Path(tmp) / "profile", window=(args.width, args.height))
        try:
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {
                    "width": args.width,
                    "height": args.height,
                    "deviceScaleFactor": 1,
                    "mobile": True,
                },
            )
            driver.get(f"http://127.0.0.1:{server.server_port}/games/{game_id}")
            sizes = driver.execute_script(MEASURE, TEXTS)
            if args.shot:
                screenshot(driver, None, args.shot)
        finally:
            driver.quit()
            server.shutdown()
    print(f"A board page at {args.width}x{args.height} CSS px (smallest, text box height):")
    for name in TEXTS:
        print(f"  {name}: {sizes[name]:.1f} px")
    print(f"  page width {sizes['page']} px on a {sizes['screen']} px screen")


if __name__ == "__main__":
    main()
