"""Mail out, against a real SMTP server: who is told what, threading, outages, rollbacks."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import UTC, datetime, timedelta

from pbem.clock import set_now
from pbem.extensions import db
from pbem.notify import addresses
from pbem.notify.sender import deliver_due
from pbem.store.models import Notification
from tests.server.conftest import table_snapshot
from tests.server.helpers import play_random_game
from tests.server.mail_helpers import body_text, header


def deliver(app):
    with app.app_context():
        result = deliver_due()
        db.session.remove()
    return result


def decisions_by_seat(api, game_id, keys, rng, app):
    """Play a random game to its end, delivering after every move; return how many times a
    decision newly became each colour's (from the views' pending lists, not the server's
    mail code) and how many scorings there were."""
    counts: Counter = Counter()
    pending_before = {
        (p["player"], p["kind"], p.get("vetoer"))
        for p in api.get(f"/api/games/{game_id}").get_json()["pending"]
    }
    for colour in {p[0] for p in pending_before}:
        counts[colour] += 1
    scorings = 0

    def after(colour, move, body):
        nonlocal pending_before, scorings
        now_pending = {(p["player"], p["kind"], p.get("vetoer")) for p in body["view"]["pending"]}
        for who in {p[0] for p in now_pending - pending_before}:
            counts[who] += 1
        pending_before = now_pending
        if body["view"]["phase"] != "castillo_pick" and any(
            e["type"] in ("general_scoring", "castillo_revealed") for e in body["events"]
        ):
            scorings += 1
        deliver(app)

    play_random_game(api, game_id, keys, rng, after_move=after)
    deliver(app)
    return counts, scorings


def test_a_whole_game_tells_each_seat_of_each_decision_once(mail_app, mail_api, smtp):
    colours = ["red", "blue", "green"]
    game_id, keys = mail_api.new_game(colours, options={"rounds": 6})
    counts, scorings = decisions_by_seat(mail_api, game_id, keys, random.Random(4), mail_app)
    assert scorings == 3
    for colour in colours:
        address = next(a for a in addresses_of(mail_app, game_id) if a[0] == colour)[1]
        received = smtp.inbox.to(address)
        kinds = Counter(kind_of(m) for m in received)
        assert kinds["welcome"] == 1
        assert kinds["decision"] == counts[colour], (colour, kinds, counts)
        assert kinds["scoring"] == 2 and kinds["over"] == 1
        # No mail twice.
        ids = [m["Message-ID"] for m in received]
        assert len(ids) == len(set(ids))


def addresses_of(app, game_id):
    from pbem.store.models import Game

    with app.app_context():
        game = db.session.get(Game, game_id)
        out = [(s.colour, s.player.email) for s in game.seats]
        db.session.remove()
    return out


def kind_of(message) -> str:
    subject = message["Subject"]
    if "a game of El Grande for you" in subject:
        return "welcome"
    if "the game is over" in subject:
        return "over"
    if "general scoring" in subject:
        return "scoring"
    return "decision"


def test_threading_and_list_headers(mail_app, mail_api, smtp):
    game_id, keys = mail_api.new_game(["red", "blue"])
    play_some(mail_api, game_id, keys, 6)
    deliver(mail_app)
    with mail_app.app_context():
        for colour, address in addresses_of(mail_app, game_id):
            received = smtp.inbox.to(address)
            assert len(received) >= 2
            first, *later = received
            root = first["Message-ID"]
            assert root == addresses.thread_root(game_id, colour)
            for message in later:
                assert message["In-Reply-To"] == root and message["References"] == root
                assert message["Message-ID"] != root
            for message in received:
                assert message["Subject"].startswith(f"[El Grande #{game_id}] Game ")
                assert addresses.read_seat_address(message["Reply-To"]) == (game_id, colour)
                assert message["List-Id"].endswith(f"<game-{game_id}.pbem.example>")
                assert header(message, "List-Unsubscribe").startswith("<https://pbem.example/mail/")
                assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
                assert message["Auto-Submitted"] == "auto-generated"
                assert message.get_body(("plain",)) and message.get_body(("html",))
            # A decision mail names the decision's seq, for mail in to match a reply.
            decision = next(m for m in later if kind_of(m) == "decision")
            assert addresses.read_message_id(decision["Message-ID"])[:2] == (game_id, colour)


def play_some(api, game_id, keys, count):
    rng = random.Random(1)
    for _ in range(count):
        view = api.get(f"/api/games/{game_id}").get_json()
        colour = view["pending"][0]["player"]
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        assert (
            api.post_moves(
                game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"]
            ).status_code
            == 201
        )


def test_a_decision_mail_holds_what_is_asked_the_board_and_the_moves(mail_app, mail_api, smtp):
    game_id, keys = mail_api.new_game(["red", "blue", "green"])
    deliver(mail_app)
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    colour = view["pending"][0]["player"]
    address = dict(addresses_of(mail_app, game_id))[colour]
    (decision,) = [m for m in smtp.inbox.to(address) if kind_of(m) == "decision"]
    text = body_text(decision)
    legal = mail_api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()["moves"]
    import engine

    assert "Play a power card" in text
    # Each card once, in the list of the cards (not again as a bare list of moves).
    for move in legal:
        written = re.escape(engine.format_move(move))
        assert len(re.findall(rf"^  {written} \(", text, re.M)) == 1, written
    assert "Your moves now" not in text
    # How to play power cards in advance, where it helps.
    assert 'Order ahead with "plan 13 11 9"' in text
    mine = mail_api.get(f"/api/games/{game_id}", keys[colour]).get_json()
    assert "Your power cards: " + ", ".join(map(str, mine["players"][colour]["hand"])) in text
    assert "Galicia" in text and "Castillo" in text
    # The link signs the seat in (by its button): the page then shows that seat's hand.
    from tests.web.helpers import follow_seat_link

    link = re.search(r"https://pbem\.example(/games/\d+/sign-in/\S+)", text)[1]
    signed_in = follow_seat_link(mail_api.client, link)
    page = mail_api.client.get(signed_in.headers["Location"]).get_data(as_text=True)
    assert "Your hand" in page
    anonymous = mail_app.test_client().get(f"/games/{game_id}").get_data(as_text=True)
    assert "Your hand" not in anonymous


def test_an_outage_loses_nothing_and_sends_nothing_twice(mail_app, mail_api, smtp):
    start = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    set_now(mail_app, start)
    game_id, keys = mail_api.new_game(["red", "blue", "green"])
    deliver(mail_app)
    delivered_before = len(smtp.inbox.messages)
    smtp.stop()
    play_some(mail_api, game_id, keys, 4)
    result = deliver(mail_app)
    assert result.sent == 0 and result.retried > 0
    with mail_app.app_context():
        queued = db.session.query(Notification).filter_by(status="queued").count()
        db.session.remove()
    assert queued == result.retried
    smtp.start()
    assert deliver(mail_app).sent == 0  # not due yet: backoff
    set_now(mail_app, start + timedelta(minutes=5))
    assert deliver(mail_app).sent == queued
    assert deliver(mail_app).sent == 0
    ids = [m["Message-ID"] for _, m in smtp.inbox.messages]
    assert len(ids) == len(set(ids)) == delivered_before + queued


def test_a_mail_failing_for_a_day_is_marked_failed_and_shown_to_the_admin(mail_app, mail_api, smtp):
    start = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    set_now(mail_app, start)
    smtp.stop()
    game_id, keys = mail_api.new_game(["red", "blue"])
    moment = start
    while moment < start + timedelta(days=1, hours=2):
        deliver(mail_app)
        moment += timedelta(hours=1)
        set_now(mail_app, moment)
    deliver(mail_app)
    with mail_app.app_context():
        statuses = Counter(n.status for n in db.session.query(Notification))
        db.session.remove()
    assert statuses == {"failed": statuses["failed"]} and statuses["failed"] >= 2
    admin_view = mail_api.get(f"/api/games/{game_id}", keys["red"]).get_json()
    failures = admin_view["undelivered"]
    assert len(failures) == statuses["failed"]
    assert all("ConnectionRefused" in f["error"] or "refused" in f["error"] for f in failures)
    assert "undelivered" not in mail_api.get(f"/api/games/{game_id}", keys["blue"]).get_json()


def test_a_refused_batch_and_a_dry_run_queue_nothing(mail_app, mail_api, smtp):
    game_id, keys = mail_api.new_game(["red", "blue", "green"])
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    colour = view["pending"][0]["player"]
    legal = mail_api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
    before = table_snapshot(mail_app)
    bad = [legal["moves"][0], {"type": "play_power_card", "card": 99}]
    assert mail_api.post_moves(game_id, keys[colour], bad, legal["seq"]).status_code == 422
    dry = mail_api.post_moves(game_id, keys[colour], legal["moves"][:1], legal["seq"], dry_run=True)
    assert dry.status_code == 200
    assert table_snapshot(mail_app) == before


def test_one_click_unsubscribe_stops_that_games_mails(mail_app, mail_api, smtp):
    game_id, keys = mail_api.new_game(["red", "blue"])
    deliver(mail_app)
    address = dict(addresses_of(mail_app, game_id))["blue"]
    first = smtp.inbox.to(address)[0]
    link = header(first, "List-Unsubscribe").split(",")[0].strip("<> ")
    link = link.replace("https://pbem.example", "")
    asked = mail_api.client.get(link)  # a scanner's GET changes nothing
    assert asked.status_code == 200
    # It asks, with a button that says what it does (it had an empty one).
    assert "<button>Stop these mails</button>" in asked.get_data(as_text=True)
    response = mail_api.client.post(link, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    received = len(smtp.inbox.to(address))
    play_some(mail_api, game_id, keys, 8)
    deliver(mail_app)
    assert len(smtp.inbox.to(address)) == received
    assert mail_api.client.post("/mail/unsubscribe/forged").status_code == 404
