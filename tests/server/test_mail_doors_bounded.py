"""Every mail door is bounded, whichever way a mail comes (the SMTP listener, the pipe, the
IMAP poller): a megabyte of empty MIME parts is kept aside within a second of CPU, without
being parsed; a player's broken mails fill the folder of mails kept aside no further than
its bounds; and words to the table by mail count against the table's limit with the page's
and the API's, the surplus answered as not passed on and relayed to nobody."""

from __future__ import annotations

import json
import smtplib
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from pbem.clock import set_now
from pbem.extensions import db
from pbem.mailin import aside
from pbem.mailin.smtpd import Listener
from pbem.play.talk import MOST_PER_WINDOW
from pbem.store.models import TableTalk
from tests.server.fake_imap import FakeImap
from tests.server.mail_helpers import body_text, free_port
from tests.server.mailin_helpers import reply, send_smtp
from tests.server.test_mail_in import run_receive, seq_of
from tests.server.test_mail_in_unreadable import a_turn, deep_mime, headers_of, outcomes
from tests.server.test_mail_out import deliver


def wide_mime(mail, sender: str, size: int = 1_000_000) -> bytes:
    """A reply of `size` bytes of empty parts with no headers: 100,000 parts to a parser."""
    raw = headers_of(mail, sender, 'multipart/mixed; boundary="b"', "7bit")
    return raw + b"--b\r\n\r\nx\r\n" * ((size - len(raw)) // 10) + b"--b--\r\n"


@pytest.fixture
def kept(mail_app, tmp_path):
    mail_app.instance_path = str(tmp_path)
    return tmp_path / "mail-kept"


@pytest.fixture
def listener(mail_app):
    port = free_port()
    server = Listener(mail_app, host="127.0.0.1", port=port)
    server.start()
    yield port
    server.stop()


def door_cpu_ms(records) -> list[float]:
    """The CPU each mail cost its door, from the door's own log line."""
    return [r.cpu_ms for r in records if r.getMessage() == "mail in"]


@pytest.mark.database_free  # reading a mail, and files on disk: no database decides them
def test_a_wide_mime_mail_is_kept_aside_within_a_second_by_each_door(
    mail_app, mail_api, smtp, kept, listener, tmp_path, caplog
):
    from pbem.mailin.imap import poll_once

    game_id, email, mail, move = a_turn(mail_app, mail_api, smtp)
    wide = wide_mime(mail, email)
    assert len(wide) >= 999_990  # a megabyte, under MAIL_MAX_BYTES (a MiB)
    caplog.set_level("INFO", logger="pbem")
    with pytest.raises(smtplib.SMTPDataError) as refused:
        send_smtp(listener, wide, email, [str(mail["Reply-To"])])
    assert refused.value.smtp_code == 554
    with FakeImap("pbem", "s3cret") as server:
        server.mailbox.add(wide_mime(mail, email))
        assert [r.outcome for r in poll_once(mail_app, server.url)] == ["quarantined"]
    done = run_receive(mail_app, wide_mime(mail, email), instance=tmp_path)
    assert done.returncode == 0 and b"Mail: quarantined" in done.stdout
    piped = [json.loads(line) for line in done.stderr.splitlines() if b'"mail in"' in line]
    spent = [*door_cpu_ms(caplog.records), *(line["cpu_ms"] for line in piped)]
    print(f"the door's CPU for each (SMTP, IMAP, pipe): {spent} ms")
    assert len(spent) == 3 and max(spent) < 1000, spent
    assert outcomes(mail_app) == ["quarantined"] * 3 and seq_of(mail_api, game_id) == 0
    deliver(mail_app)
    refusal = next(m for m in smtp.inbox.to(email) if "could not be read" in body_text(m))
    assert "it has more than 100 parts" in body_text(refusal)


@pytest.mark.database_free
def test_fifty_broken_mails_from_one_player_leave_at_most_the_bound_on_disk(
    mail_app, mail_api, smtp, kept, listener, tmp_path
):
    from pbem.mailin.imap import poll_once

    mail_app.config["MAIL_KEPT_BYTES"] = 2 * 1024 * 1024
    # Two of them answered (the answers' limit is not what is tried here, and each costs).
    mail_app.config["MAIL_ANSWERS_PER_HOUR"] = 2
    game_id, email, mail, move = a_turn(mail_app, mail_api, smtp)

    def broken(number: int) -> bytes:
        return deep_mime(mail, email, f"{move} {number}")  # ~70 KB each, each its own

    for number in range(25):
        with pytest.raises(smtplib.SMTPDataError):
            send_smtp(listener, broken(number), email, [str(mail["Reply-To"])])
    with FakeImap("pbem", "s3cret") as server:
        for number in range(25, 48):
            server.mailbox.add(broken(number))
        assert {r.outcome for r in poll_once(mail_app, server.url)} == {"quarantined"}
    for number in range(48, 50):
        assert run_receive(mail_app, broken(number), instance=tmp_path).returncode == 0
    assert outcomes(mail_app) == ["quarantined"] * 50
    files = sorted(kept.iterdir())
    whole = [p for p in files if p.suffix == ".eml"]
    headers = [p for p in files if p.suffix == ".headers"]
    assert len(whole) == aside.WHOLE_PER_SENDER
    assert len(headers) == 50 - aside.WHOLE_PER_SENDER
    assert all(p.stat().st_size <= aside.HEADERS_KEPT + 100 for p in headers)
    assert b"sha256: " in headers[0].read_bytes() and b"From: " in headers[0].read_bytes()
    assert sum(p.stat().st_size for p in files) <= 2 * 1024 * 1024

    # Strangers' broken mails past the folder's bound: only headers, until even those stop.
    used = sum(p.stat().st_size for p in files)
    mail_app.config["MAIL_KEPT_BYTES"] = used
    with mail_app.app_context():
        stranger = [aside.keep(broken(100 + n), f"x{n}@example.org") for n in range(200)]
    assert not any(k.whole for k in stranger)
    assert stranger[-1].path is None  # the room for headers beyond the bound is used up
    assert sum(p.stat().st_size for p in kept.iterdir()) <= used * (1 + aside.HEADERS_ROOM)


def talk_rows(app, colour: str) -> list[str]:
    with app.app_context():
        rows = db.session.execute(
            sa.select(TableTalk.text).where(TableTalk.colour == colour).order_by(TableTalk.id)
        )
        found = list(rows.scalars())
        db.session.remove()
    return found


def talk_mails(mail, email: str, count: int) -> list[bytes]:
    tag = uuid.uuid4().hex[:6]
    return [reply(mail, f"Hello table {tag} {n}", sender=email) for n in range(count)]


def relayed(smtp, seats: dict[str, str], colour: str) -> int:
    return sum(
        1
        for other, address in seats.items()
        if other != colour
        for m in smtp.inbox.to(address)
        if str(m["Subject"]).endswith(" says")
    )


def not_passed_on(smtp, email: str) -> int:
    return sum(1 for m in smtp.inbox.to(email) if "were not passed on" in body_text(m))


def seats_of(mail_app, mail_api, smtp):
    from tests.server.test_mail_in import start

    game_id, keys, seats = start(mail_app, mail_api)
    return game_id, keys, seats


@pytest.mark.parametrize("door", ["smtp", "imap", "pipe"])
def test_words_to_the_table_by_mail_at_once_keep_to_the_tables_limit(
    mail_app, mail_api, smtp, kept, tmp_path, door
):
    from tests.server.test_mail_in import latest_with_moves, to_move

    mail_app.config["MAIL_ANSWERS_PER_HOUR"] = 100  # every refusal answered, for the count
    game_id, keys, seats = seats_of(mail_app, mail_api, smtp)
    colour = to_move(mail_api, game_id)[0]
    email = seats[colour]
    mail = latest_with_moves(smtp, email)
    # A process a mail: the pipe takes four at once, after the page's messages, which
    # count against the same minute; the others sixty (twenty for IMAP, read in turn).
    count = {"smtp": 60, "imap": 20, "pipe": 4}[door]
    mails = talk_mails(mail, email, count)
    before = 0
    if door == "pipe":
        # The pipe's processes read the system's clock: all of them, and the API's message
        # after them, in one minute's window of the limit.
        into_the_minute = time.time() % 60
        if into_the_minute > 45:
            time.sleep(60.5 - into_the_minute)
        before = MOST_PER_WINDOW - 2
        for n in range(before):
            assert write(mail_api, game_id, keys[colour], f"from the page {n}").status_code == 201
    else:
        set_now(mail_app, datetime.now(UTC).replace(second=1))
    if door == "smtp":
        port = free_port()
        server = Listener(mail_app, host="127.0.0.1", port=port)
        server.start()
        barrier = threading.Barrier(count)

        def send(raw: bytes) -> dict:
            barrier.wait()
            return send_smtp(port, raw, email, [str(mail["Reply-To"])])

        try:
            with ThreadPoolExecutor(count) as pool:
                assert list(pool.map(send, mails)) == [{}] * count
        finally:
            server.stop()
    elif door == "imap":
        from pbem.mailin.imap import poll_once

        with FakeImap("pbem", "s3cret") as imap:
            for raw in mails:
                imap.mailbox.add(raw)
            assert {r.outcome for r in poll_once(mail_app, imap.url)} == {"answered"}
    else:
        with ThreadPoolExecutor(count) as pool:
            runs = list(pool.map(lambda raw: run_receive(mail_app, raw, instance=tmp_path), mails))
        assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    said = talk_rows(mail_app, colour)
    assert len(said) == MOST_PER_WINDOW, said
    # The page's and the API's messages count against the same minute.
    refused = write(mail_api, game_id, keys[colour], "and one more")
    assert refused.status_code == 429, refused.get_json()
    assert "messages to this table in the last minute" in refused.get_json()["detail"]
    deliver(mail_app)
    assert relayed(smtp, seats, colour) == MOST_PER_WINDOW * (len(seats) - 1)
    assert not_passed_on(smtp, email) == count - (MOST_PER_WINDOW - before)


def write(api, game_id: int, key: str, text: str):
    return api.client.post(
        f"/api/games/{game_id}/messages", json={"text": text}, headers=api.auth(key)
    )
