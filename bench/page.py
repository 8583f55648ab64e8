"""The board page right after a move, in one process: what it costs, and what a part of it
costs.

Two app instances share one SQLite file, as two gunicorn workers do: one plays the moves
(through the API, with the Flask test client), the other draws the pages, so each page is
drawn by a worker that did not play the move (it reads the state and catches up the round's
log, as a worker that did not play it does under bench/web.py). `--games` games of 5
players and 9 rounds are played to seq 100; then each turn plays a move in every game and
reads every game's board once, signed in to a seat. The first 5 turns warm up; the rest are
timed.

`--without PART` draws every other page with PART left out (`log`: the round's record and
log; `board`; `panel`; `page`: the page around the parts, and its frame), in the same
process and turns, so the machine's ups and downs fall on both alike: the difference of the
two p50s is what PART costs. Timings on a shared machine swing from run to run; compare
within one run.

`--language LANG` reads every other page in LANG (the browser asking for it), the others in
English, alike in the same process and turns: the two p50s weigh a translated page against
an English one.

    python bench/page.py [--games 16] [--turns 30] [--without log | --language de]
    python bench/page.py --profile 40        # cProfile's top entries of the timed pages

Two checkouts compared on a machine whose speed swings from run to run: run them side by
side, each on a core of its own, and swap the cores at each pair, so both feel the swings
at the same moment (another checkout in ../before, as `git worktree add` makes it):

    taskset -c 0 python ../before/bench/page.py & taskset -c 1 python bench/page.py; wait
    taskset -c 0 python bench/page.py & taskset -c 1 python ../before/bench/page.py; wait

Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import cProfile
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

# The project, not bench/ (where engine.py is a benchmark), comes first.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import COLOURS, add_players, print_profile  # noqa: E402
from markupsafe import Markup  # noqa: E402

from pbem import create_app  # noqa: E402
from pbem.cli import upgrade_database  # noqa: E402
from pbem.game import history  # noqa: E402
from pbem.web import pages, routes  # noqa: E402

START_MOVES = 100
WARM_TURNS = 5

#: What `--without` leaves out, as (module, name, stand-in).
PARTS = {
    "log": (history, "record", lambda game_id, seed, seq: history.Record(seed, seq, (0,), ())),
    "board": (pages, "board_svg", lambda view: Markup("<svg></svg>")),
    "panel": (pages, "panel_html", lambda *args, **kwargs: Markup('<aside class="panel"></aside>')),
    "page": (routes, "framed", lambda template, title, body, me: ""),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--turns", type=int, default=30)
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--without", choices=sorted(PARTS))
    choice.add_argument("--language", help="every other page in this language (de, ru, ...)")
    parser.add_argument("--profile", type=int, default=0, help="print this many top entries")
    args = parser.parse_args()
    profile = cProfile.Profile() if args.profile else None
    folder = tempfile.mkdtemp()
    config = {
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/page.sqlite",
        "PBEM_LOG_LEVEL": "warning",
    }
    player_app, page_app = create_app(config), create_app(config)
    upgrade_database(player_app)
    api = player_app.test_client()
    rng = random.Random(1)

    games = []
    for number in range(args.games):
        made = add_players(player_app, {f"{c}{number}@bench.example": c for c in COLOURS})
        keys = {c: made[f"{c}{number}@bench.example"] for c in COLOURS}
        seats = [{"email": f"{c}{number}@bench.example", "colour": c} for c in COLOURS]
        answer = api.post(
            "/api/games",
            json={"title": f"bench {number}", "seats": seats, "options": {"rounds": 9}},
            headers={"Authorization": f"Bearer {keys['red']}"},
        )
        game_id = answer.get_json()["id"]
        reader = page_app.test_client()
        form = reader.get("/sign-in").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
        reader.post("/sign-in", data={"csrf_token": token, "api_key": keys["red"]})
        view = api.get(f"/api/games/{game_id}").get_json()
        games.append({"id": game_id, "keys": keys, "reader": reader, "view": view})

    def move(game: dict) -> None:
        colour = rng.choice(sorted({p["player"] for p in game["view"]["pending"]}))
        auth = {"Authorization": f"Bearer {game['keys'][colour]}"}
        legal = api.get(f"/api/games/{game['id']}/legal-moves", headers=auth).get_json()
        answer = api.post(
            f"/api/games/{game['id']}/moves",
            json={"expected_seq": legal["seq"], "moves": [rng.choice(legal["moves"])]},
            headers=auth,
        )
        game["view"] = answer.get_json()["view"]

    for game in games:
        for _ in range(START_MOVES):
            move(game)

    leaving_out = [False]
    if args.without:
        module, name, stand_in = PARTS[args.without]
        whole = getattr(module, name)
        setattr(module, name, lambda *a, **k: (stand_in if leaving_out[0] else whole)(*a, **k))

    timed: dict[bool, list[float]] = {False: [], True: []}
    for turn in range(args.turns):
        playing = [g for g in games if g["view"]["status"] == "active"]
        for game in playing:
            move(game)
        for index, game in enumerate(playing):
            other = bool(args.without or args.language) and (index + turn) % 2 == 1
            leaving_out[0] = other and bool(args.without)
            asked = {"Accept-Language": args.language} if other and args.language else {}
            if profile and turn >= WARM_TURNS:
                profile.enable()
            started = time.perf_counter()
            answer = game["reader"].get(f"/games/{game['id']}", headers=asked)
            took = time.perf_counter() - started
            if profile:
                profile.disable()
            assert answer.status_code == 200, answer.status_code
            if turn >= WARM_TURNS:
                timed[other].append(took)
    leaving_out[0] = False

    health = page_app.test_client()
    pings = []
    for _ in range(500):
        started = time.perf_counter()
        health.get("/api/health/live")
        pings.append(time.perf_counter() - started)

    whole_p50 = statistics.median(timed[False]) * 1000
    print(
        f"board page right after a move: p50 {whole_p50:.3f} ms over {len(timed[False])} "
        f"pages; GET /api/health/live p50 {statistics.median(pings) * 1000:.3f} ms "
        "(both with the test client's own time)"
    )
    if args.language:
        other_p50 = statistics.median(timed[True]) * 1000
        print(
            f"  in {args.language}: p50 {other_p50:.3f} ms over {len(timed[True])} pages; "
            f"{other_p50 / whole_p50:.2f} x English"
        )
    if args.without:
        without_p50 = statistics.median(timed[True]) * 1000
        print(
            f"  without {args.without}: p50 {without_p50:.3f} ms over {len(timed[True])} pages;"
            f" {args.without} costs {whole_p50 - without_p50:.3f} ms"
        )
    if profile:
        print_profile(profile, args.profile)


if __name__ == "__main__":
    main()
