"""Replies as people write them: what a reply holds beyond its moves is forgiven where it
cannot be misread (a trailing "done" after a turn that had ended by itself), and the ways
mail programs lay out a reply (attribution lines, text below the quote) are read."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
import sqlalchemy as sa

import engine
from pbem import words
from pbem.clock import set_now
from pbem.extensions import db
from pbem.notify.sender import compose_queued
from pbem.schedule.sweep import sweep
from pbem.store.models import Game, Notification
from tests.server.helpers import stored_state
from tests.server.mail_helpers import body_text
from tests.server.mailin_helpers import fresh_mail, moves_listed, reply
from tests.server.test_mail_in import inbound, latest_with_moves, seq_of, start, to_move
from tests.server.test_mail_out import addresses_of, deliver


def _self_ending_turn(state, colour) -> list[engine.Move] | None:
    """Moves of `colour`'s turn, never `end_turn`, after which the turn is over by itself;
    None if taking the first such move each time never ends it."""
    moves = []
    while any(p["player"] == colour and p["kind"] == "turn" for p in engine.pending(state)):
        legal = [m for m in engine.legal_moves(state, colour) if m["type"] != "end_turn"]
        if not legal or len(moves) > 60:
            return None
        moves.append(legal[0])
        state, _ = engine.apply(state, colour, legal[0])
    return moves


def _state(app, game_id):
    with app.app_context():
        state = stored_state(db.session.get(Game, game_id))
        db.session.remove()
    return state


def test_a_trailing_done_after_a_turn_that_ended_by_itself_is_left_out(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    rng = random.Random(5)
    for _ in range(400):  # play on (by the API) until a turn can end by itself
        state = _state(mail_app, game_id)
        turns = [p["player"] for p in engine.pending(state) if p["kind"] == "turn"]
        found = turns and _self_ending_turn(state, turns[0])
        if found:
            break
        colour = to_move(mail_api, game_id)[0]
        legal = mail_api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        played = mail_api.post_moves(
            game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"]
        )
        assert played.status_code == 201, played.get_json()
    assert found, "no turn that ends by itself in 400 moves"
    colour = turns[0]
    deliver(mail_app)
    before = seq_of(mail_api, game_id)
    lines = [engine.format_move(m) for m in found] + ["done"]
    raw = reply(latest_with_moves(smtp, seats[colour]), "\n".join(lines), sender=seats[colour])
    result = inbound(mail_app, raw)
    assert result.outcome == "played", result
    assert result.played == lines[:-1]
    assert seq_of(mail_api, game_id) == before + len(found)
    deliver(mail_app)
    answer = body_text(smtp.inbox.to(seats[colour])[-1])
    assert 'Your last line ("done") was not needed' in answer
    assert "Played:" in answer


def test_a_done_with_nothing_before_it_is_still_refused(mail_app, mail_api, smtp):
    """Only a "done" after moves is forgiven: alone, it is refused as before, with why."""
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]  # a power card to choose: no turn to end
    result = inbound(
        mail_app, reply(latest_with_moves(smtp, seats[colour]), "done", sender=seats[colour])
    )
    assert result.outcome == "refused" and seq_of(mail_api, game_id) == 0
    deliver(mail_app)
    assert "Nothing was played" in body_text(smtp.inbox.to(seats[colour])[-1])


def _raw_reply(mail, sender: str, agent: str, body: str) -> bytes:
    """A plain-text reply as `agent` writes it: its headers, and `body` (its attribution,
    quote and new text already laid out), with LF line ends as a mail program hands it on."""
    quoted = "\n".join("> " + line for line in body_text(mail).splitlines()[:12])
    text = body.replace("{quote}", quoted).replace("{sender}", str(mail["From"]))
    return (
        f"From: {sender.split('@')[0].title()} <{sender}>\n"
        f"To: {mail['Reply-To']}\n"
        f"Subject: Re: {' '.join(str(mail['Subject']).split())}\n"
        "Date: Tue, 24 Nov 2026 10:00:00 +0000\n"
        f"Message-ID: <{agent}.{abs(hash(body))}@client.example>\n"
        f"In-Reply-To: {mail['Message-ID']}\n"
        f"References: {mail['Message-ID']}\n"
        f"User-Agent: {agent}\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: 8bit\n"
        "\n" + text + "\n"
    ).encode()


#: Replies as these programs lay them out by default: s-nail's attribution is the sender
#: and "wrote:" (no "On ..."), with a blank line before the quote; Claws Mail puts the date
#: on a line of its own; mutt and s-nail users often write below the quote.
LAYOUTS = {
    "s-nail": "{move}\n\n{sender} wrote:\n\n{quote}\n",
    "claws": "{move}\n\nOn Tue, 24 Nov 2026 09:58:12 +0000\n{sender} wrote:\n\n{quote}\n",
    "mutt, below the quote": "On Tue, Nov 24, 2026 at 09:58:12AM +0000, {sender} wrote:\n"
    "{quote}\n\n{move}\n\n-- \nMaria\n",
    "s-nail, below the quote": "{sender} wrote:\n\n{quote}\n\n{move}\n",
}


@pytest.mark.database_free  # how a mail program lays a reply out: no database decides it
@pytest.mark.parametrize("agent", sorted(LAYOUTS))
def test_a_reply_plays_as_these_programs_lay_it_out(mail_app, mail_api, smtp, agent):
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    move = moves_listed(mail)[-1]
    raw = _raw_reply(mail, seats[colour], agent, LAYOUTS[agent].replace("{move}", move))
    result = inbound(mail_app, raw)
    assert result.outcome == "played", result
    assert result.played == [move] and seq_of(mail_api, game_id) == 1


def _decision_mails_since(app, since: int) -> dict[str, int]:
    """Decision mails queued after outbox row `since`, by the address they go to."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(Notification.recipient).where(
                Notification.kind == "decision", Notification.id > since
            )
        ).scalars()
        counted = Counter(rows)
        db.session.remove()
    return counted


def _last_outbox_id(app) -> int:
    with app.app_context():
        last = db.session.execute(sa.select(sa.func.max(Notification.id))).scalar() or 0
        db.session.remove()
    return last


def test_a_seat_a_bot_plays_is_sent_no_decision_mails(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    handed = mail_api.client.put(
        f"/api/games/{game_id}/seats/red/bot",
        json={"bot": True},
        headers=mail_api.auth(keys["red"]),
    )
    assert handed.status_code == 200, handed.get_json()
    since = _last_outbox_id(mail_app)
    rng = random.Random(3)
    for _ in range(40):  # the others play by the API; the sweep lets the bot play red
        with mail_app.app_context():
            sweep()
            db.session.remove()
        others = [c for c in to_move(mail_api, game_id) if c != "red"]
        if not others:
            continue
        legal = mail_api.get(f"/api/games/{game_id}/legal-moves", keys[others[0]]).get_json()
        move = [rng.choice(legal["moves"])]
        played = mail_api.post_moves(game_id, keys[others[0]], move, legal["seq"])
        assert played.status_code == 201, played.get_json()
    log = mail_api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert sum(e["player"] == "red" and e["source"] == "bot" for e in log) >= 2
    decided = _decision_mails_since(mail_app, since)
    assert decided[seats["blue"]] > 0 and decided[seats["green"]] > 0
    assert decided[seats["red"]] == 0


def test_a_seat_a_bot_plays_gets_the_story_in_a_digest_and_a_mail_when_taken_back(
    mail_app, mail_api, smtp
):
    game_id, keys, seats = start(mail_app, mail_api)
    put = mail_api.client.put(
        f"/api/games/{game_id}/seats/red/bot",
        json={"bot": True},
        headers=mail_api.auth(keys["red"]),
    )
    assert put.status_code == 200
    rng = random.Random(4)
    for _ in range(30):
        with mail_app.app_context():
            sweep()
            db.session.remove()
        others = [c for c in to_move(mail_api, game_id) if c != "red"]
        if others:
            legal = mail_api.get(f"/api/games/{game_id}/legal-moves", keys[others[0]]).get_json()
            mail_api.post_moves(
                game_id, keys[others[0]], [rng.choice(legal["moves"])], legal["seq"]
            )
    # As red reads it: a Castillo pick the bot made is red's own, and shown to red whole.
    log = mail_api.get(f"/api/games/{game_id}/log", keys["red"]).get_json()["moves"]
    by_bot = [e for e in log if e["player"] == "red" and e["source"] == "bot"]
    assert len(by_bot) >= 2
    with mail_app.app_context():
        compose_queued()  # the parts are composed by the sender, as it gathers a digest
        parts = (
            db.session.execute(
                sa.select(Notification.message).where(
                    Notification.kind == "bot_story", Notification.status == "digest"
                )
            )
            .scalars()
            .all()
        )
        db.session.remove()
    story = "\n".join(parts)
    flat = " ".join(story.split())
    cards = dict(zip((e["seq"] for e in log), words.cards_of(log), strict=True))
    for entry in by_bot:  # the bot's every move is told in words, as the seat sees it
        assert words.entry_words(entry, cards[entry["seq"]], own=False) in flat, entry
    assert "Your bot (red): " in story
    assert "Blue (blue): " in story or "Green (green): " in story
    # A day on, the parts go out as one digest (the player asked for no digest of their own).
    set_now(mail_app, datetime.now(UTC) + timedelta(hours=25))
    deliver(mail_app)
    set_now(mail_app, None)
    digests = [
        m for m in smtp.inbox.to(seats["red"]) if "what happened in your games" in str(m["Subject"])
    ]
    assert len(digests) == 1 and "a bot plays red for you" in body_text(digests[0])
    # Taking the seat back: a mail says what the bot did, and the decision if one is open.
    back = mail_api.client.put(
        f"/api/games/{game_id}/seats/red/bot",
        json={"bot": False},
        headers=mail_api.auth(keys["red"]),
    )
    assert back.status_code == 200
    deliver(mail_app)
    again = [m for m in smtp.inbox.to(seats["red"]) if "you play red again" in str(m["Subject"])]
    assert len(again) == 1
    text = body_text(again[0])
    assert "While the bot played it:" in text and "Your bot (red): " in text


def test_mail_a_drill_queues_ahead_goes_out_at_once(mail_app, mail_api, smtp):
    """A drill (`pbem sweep --now` a week ahead) plays at its time; its mail is sent by a
    sender on the system clock at once, and health never shows a negative age."""
    set_now(mail_app, datetime.now(UTC) + timedelta(days=7))
    game_id, keys = mail_api.new_game(["red", "blue", "green"])
    set_now(mail_app, None)
    health = mail_api.get("/api/health").get_json()
    assert health["outbox"]["unsent"] > 0 and health["outbox"]["oldest_age_seconds"] == 0
    sent = deliver(mail_app).sent
    assert sent == health["outbox"]["unsent"]
    assert all(smtp.inbox.to(address) for _, address in addresses_of(mail_app, game_id))


def test_a_reply_that_plays_is_answered_past_the_hourly_limit(mail_app, mail_api, smtp):
    mail_app.config["MAIL_ANSWERS_PER_HOUR"] = 0  # no answers at all... but to moves played
    game_id, keys, seats = start(mail_app, mail_api)
    for _ in range(6):
        colour = to_move(mail_api, game_id)[0]
        mail = latest_with_moves(smtp, seats[colour])
        result = inbound(mail_app, reply(mail, moves_listed(mail)[0], sender=seats[colour]))
        assert result.outcome == "played" and result.answered, result
        deliver(mail_app)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    refused = inbound(mail_app, reply(mail, "crad king", sender=seats[colour]))
    assert refused.outcome == "refused" and not refused.answered


def test_a_forgers_mail_spends_the_forgers_answers_not_the_holders(mail_app, mail_api, smtp):
    mail_app.config["MAIL_ANSWERS_PER_HOUR"] = 1
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    forged = [
        inbound(mail_app, reply(mail, "power 1", sender="mallory@example.net")) for _ in range(2)
    ]
    assert [(r.outcome, r.answered) for r in forged] == [("refused", True), ("refused", False)]
    own = inbound(mail_app, reply(mail, "crad king", sender=seats[colour]))
    assert own.outcome == "refused" and own.answered  # the holder's own answer is still due
    again = inbound(mail_app, reply(mail, "crad king", sender=seats[colour]))
    assert not again.answered  # and a loop of the holder's stops at the limit


def test_the_imap_door_polls_on_when_the_server_drops_it(mail_app, mail_api, smtp, monkeypatch):
    from pbem.mailin import imap
    from tests.server.fake_imap import FakeImap

    monkeypatch.setattr(imap, "RETRY_FIRST", 0.05)
    game_id, keys, seats = start(mail_app, mail_api)
    colour = to_move(mail_api, game_id)[0]
    mail = latest_with_moves(smtp, seats[colour])
    with FakeImap("pbem", "s3cret") as server:
        server.drop_next = 3  # as Dovecot restarting: three connections closed at once
        server.mailbox.add(reply(mail, moves_listed(mail)[0], sender=seats[colour]))
        mail_app.config["IMAP_URL"] = server.url
        stop = threading.Event()
        polling = threading.Thread(
            target=imap.poll_forever, args=(mail_app,), kwargs={"every": 0.05, "stop": stop}
        )
        polling.start()
        try:
            deadline = time.monotonic() + 20
            while seq_of(mail_api, game_id) == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            stop.set()
            polling.join(10)
        assert not polling.is_alive()
        assert server.drop_next == 0 and server.mailbox.seen() != []
    assert seq_of(mail_api, game_id) == 1


@pytest.mark.parametrize("base", ["https://pbem.example", "http://pbem.example"])
def test_unsubscribe_by_mail_works_whatever_the_base_url(mail_app, mail_api, smtp, base):
    """List-Unsubscribe offers a mail to the seat's address beside the page; one-click (RFC
    8058) is announced only for an https page. The mail a mail program sends stops the
    game's mails and plays nothing, even while "stop" alone would end a card."""
    mail_app.config["PBEM_BASE_URL"] = base
    game_id, keys, seats = start(mail_app, mail_api)
    mail = latest_with_moves(smtp, seats[to_move(mail_api, game_id)[0]])
    links = [link.strip(" <>") for link in str(mail["List-Unsubscribe"]).split(",")]
    assert links[0].startswith(f"{base}/mail/unsubscribe/")
    assert (mail["List-Unsubscribe-Post"] is not None) == base.startswith("https://")
    mailto = urlsplit(links[1])
    assert mailto.scheme == "mailto" and mailto.path == str(mail["Reply-To"])
    asked = parse_qs(mailto.query)
    holder = str(mail["To"]).split("<")[-1].rstrip(">")
    raw = fresh_mail(holder, mailto.path, asked["body"][0]).replace(
        b"Subject: hello", b"Subject: " + asked["subject"][0].encode()
    )
    result = inbound(mail_app, raw)
    assert result.outcome == "answered" and seq_of(mail_api, game_id) == 0
    received = len(smtp.inbox.to(holder))
    deliver(mail_app)
    answer = smtp.inbox.to(holder)[received:]
    assert len(answer) == 1 and "No more mail from this game" in body_text(answer[0])
    colour = next(c for c, address in seats.items() if address == holder)
    legal = mail_api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
    mail_api.post_moves(game_id, keys[colour], [legal["moves"][0]], legal["seq"])
    deliver(mail_app)
    assert len(smtp.inbox.to(holder)) == received + 1  # nothing more from the game
