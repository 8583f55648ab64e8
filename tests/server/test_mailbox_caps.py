"""A mailbox is one person for every cap and for the never-invite list: its sub-addresses
(`x+0@d`, `x+1@d`, ...) reach one inbox, so they share its invitations a day and its
sign-in links an hour, and one of them asking never to be invited speaks for them all.
Accounts stay one an address."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from pbem import tokens
from pbem.addresses import kept_address, mailbox
from pbem.clock import set_now
from pbem.extensions import db
from pbem.play import accounts
from pbem.store import suppressed
from pbem.store.models import Notification, Player, SuppressedAddress
from tests.server.conftest import assert_problem, table_snapshot
from tests.server.test_mail_out import deliver
from tests.web.html import parse
from tests.web.test_sign_in_by_mail import ask

#: Early in a UTC day: every count of a test falls in one window of a day and of an hour.
MORNING = datetime(2026, 11, 3, 8, 5, tzinfo=UTC)
#: Ten sub-addresses of one mailbox.
SUBS = [f"x+{n}@example.org" for n in range(10)]


@pytest.mark.parametrize(
    ("address", "box"),
    [
        ("x+games@example.org", "x@example.org"),
        ("x@example.org", "x@example.org"),
        ("x+a+b@example.org", "x@example.org"),
        ("x+@example.org", "x@example.org"),
        ("+x@example.org", "+x@example.org"),
        ("+@example.org", "+@example.org"),
        ("first.last+1@example.org", "first.last@example.org"),
        ("x+y@sub.example.org", "x@sub.example.org"),
    ],
)
def test_a_mailbox_is_the_address_with_its_sub_address_folded(address, box):
    assert mailbox(address) == box
    assert mailbox(box) == box


def test_a_mailbox_of_what_a_person_typed_is_in_lowercase_already():
    assert mailbox(kept_address("  Ana+Games@Example.ORG ")) == "ana@example.org"


@pytest.fixture
def morning(app):
    set_now(app, MORNING)
    yield app
    set_now(app, None)


@pytest.fixture
def mail_morning(mail_app):
    set_now(mail_app, MORNING)
    yield mail_app
    set_now(mail_app, None)


def invite(api, key: str, email: str, forming: bool = True):
    """A game (forming, unless not) of the key's holder (red), `email` in blue and a house
    bot."""
    own = next(e for e, k in api.keys.items() if k == key)
    seats = [
        {"email": own, "colour": "red"},
        {"email": email, "colour": "blue"},
        {"bot": True, "colour": "green"},
    ]
    body = {"title": "Come and play", "forming": forming, "seats": seats}
    return api.client.post("/api/games", json=body, headers=api.auth(key))


def test_ten_organisers_inviting_ten_sub_addresses_mail_the_mailbox_three_times(
    mail_morning, mail_api, smtp
):
    answers = []
    for number, email in enumerate(SUBS):
        key = mail_api.register(f"organiser-{number}@example.org", f"Organiser {number}")
        before = table_snapshot(mail_morning) if number >= 3 else None
        answer = invite(mail_api, key, email)
        answers.append(answer.status_code)
        if number >= 3:
            problem = assert_problem(answer, 429)
            assert problem["code"] == "too-many-invitations-received"
            assert email in problem["detail"] and "(3)" in problem["detail"]
            assert table_snapshot(mail_morning) == before
    assert answers == [201] * 3 + [429] * 7
    deliver(mail_morning)
    invited = [
        (rcpt, m["Subject"])
        for rcpt, m in smtp.inbox.messages
        if any(r.startswith("x+") for r in rcpt)
    ]
    assert invited == [
        ([email], f"[El Grande] “Organiser {n}” invites you to a game called “Come and play”")
        for n, email in enumerate(SUBS[:3])
    ]


def test_the_mailbox_itself_shares_its_sub_addresses_invitations(morning, api):
    for number, email in enumerate(["x+0@example.org", "x+1@example.org", "x+2@example.org"]):
        key = api.register(f"organiser-{number}@example.org", f"Organiser {number}")
        assert invite(api, key, email).status_code == 201
    key = api.register("one-more@example.org", "One More")
    refused = invite(api, key, "x@example.org")
    assert assert_problem(refused, 429)["code"] == "too-many-invitations-received"
    # Another mailbox of the same domain is another person.
    assert invite(api, key, "y+0@example.org").status_code == 201


def mailed_links(app) -> list[tuple[str, str]]:
    with app.app_context():
        rows = db.session.execute(
            sa.select(Notification.recipient, Notification.kind).order_by(Notification.id)
        ).all()
        db.session.remove()
    return [(recipient, kind) for recipient, kind in rows]


def test_sign_up_links_to_ten_sub_addresses_mail_the_mailbox_three_times(morning, api):
    for email in SUBS:
        answer = api.client.post("/api/players", json={"email": email, "name": "Alt"})
        # The same answer past the cap: it says nothing of who plays here.
        assert answer.status_code == 202 and "api_key" not in answer.get_json()
    assert mailed_links(morning) == [(email, "sign_in") for email in SUBS[:3]]


def test_sign_in_links_to_ten_sub_addresses_mail_the_mailbox_three_times(morning, api, client):
    api.register("x@example.org", "X")  # the mailbox's own account shares them too
    for email in [*SUBS[:9], "x@example.org"]:
        answer = ask(client, email)
        assert answer.status_code == 200 and "sign-in link" in answer.get_data(as_text=True)
    assert accounts.SIGN_IN_LINKS_PER_ADDRESS == 3
    assert mailed_links(morning) == [(email, "sign_in") for email in SUBS[:3]]


def test_accounts_stay_one_an_address(morning, api):
    api.register("x@example.org", "X")
    api.register("x+1@example.org", "X one")
    with morning.app_context():
        emails = db.session.execute(sa.select(Player.email).order_by(Player.email)).scalars()
        assert list(emails) == ["x+1@example.org", "x@example.org"]
        db.session.remove()


def suppress_now(app, email: str) -> None:
    with app.app_context():
        suppressed.suppress(db.session.connection(), email, MORNING)
        db.session.commit()


def suppressed_rows(app) -> list[str]:
    with app.app_context():
        rows = db.session.execute(sa.select(SuppressedAddress.email)).scalars().all()
        db.session.remove()
    return sorted(rows)


def assert_never_invite(api, key: str, email: str) -> None:
    before = table_snapshot(api.client.application)
    problem = assert_problem(invite(api, key, email), 422)
    assert problem["code"] == "never-invite" and email in problem["detail"]
    assert table_snapshot(api.client.application) == before


def test_a_mailbox_that_asked_never_to_be_invited_refuses_its_sub_addresses(morning, api):
    key = api.register("ana@example.org", "Ana")
    suppress_now(morning, "x@example.org")
    assert_never_invite(api, key, "x+7@example.org")
    assert_never_invite(api, key, "x@example.org")
    assert invite(api, key, "y+7@example.org").status_code == 201


def test_a_sub_address_that_asked_never_to_be_invited_speaks_for_its_mailbox(morning, api):
    key = api.register("ana@example.org", "Ana")
    suppress_now(morning, "x+1@example.org")
    assert suppressed_rows(morning) == ["x@example.org"]
    assert_never_invite(api, key, "x@example.org")
    assert_never_invite(api, key, "x+2@example.org")
    # A seat handed on is refused the same.
    game = invite(api, key, "bea@example.org", forming=False).get_json()["id"]
    given = api.client.put(
        f"/api/games/{game}/seats/blue", json={"email": "x+3@example.org"}, headers=api.auth(key)
    )
    assert assert_problem(given, 422)["code"] == "never-invite"


def test_a_row_kept_before_for_a_sub_address_still_refuses_it(morning, api):
    """A row from before mailboxes were folded holds the address as asked for."""
    key = api.register("ana@example.org", "Ana")
    with morning.app_context():
        db.session.add(SuppressedAddress(email="x+1@example.org", created_at=MORNING))
        db.session.commit()
    assert_never_invite(api, key, "x+1@example.org")
    # Signing in with a mailed link to the address lifts it, row kept before and all.
    with morning.app_context():
        suppressed.lift(db.session.connection(), "x+1@example.org")
        db.session.commit()
    assert suppressed_rows(morning) == []
    assert invite(api, key, "x+1@example.org").status_code == 201


def test_signing_in_by_a_sub_address_lifts_the_mailbox(morning, api):
    suppress_now(morning, "x@example.org")
    with morning.app_context():
        suppressed.lift(db.session.connection(), "x+5@example.org")
        db.session.commit()
    assert suppressed_rows(morning) == []


def test_the_never_invite_page_of_a_sub_address_says_its_mailbox_is_done(morning, client):
    suppress_now(morning, "x@example.org")
    with morning.app_context():
        path = f"/never-invite/{tokens.never_invite_token('x+2@example.org')}"
    page = parse(client.get(path).get_data(as_text=True)).find("main").text
    assert "nobody can invite x+2@example.org" in page
    assert suppressed_rows(morning) == ["x@example.org"]
