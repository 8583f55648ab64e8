"""Every address that enters goes through `pbem.addresses.kept_address` (email-validator):
the API's fields, the functions that keep an address, and the mail that goes to it. An
address that is none is refused with what to mend, changing nothing and never with a 500;
a good one is kept in one form (lowercase, its domain in ASCII), the form the envelope and
`To` name, whatever the name beside it holds."""

from __future__ import annotations

from email import message_from_string, policy

import pytest
import sqlalchemy as sa

from pbem.addresses import kept_address
from pbem.api.players.schemas import PlayerCreateSchema
from pbem.errors import Invalid
from pbem.extensions import db
from pbem.game import players
from pbem.notify.sender import deliver_due
from pbem.play import accounts, lifecycle
from pbem.store.models import Notification, Player
from tests.server.conftest import assert_problem, table_snapshot

#: 255 characters: one more than an address may have.
TOO_LONG = "a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + "." + "d" * 58 + ".org"

#: What a person (or an attacker) types, and the words of its refusal.
BAD = {
    "non-ASCII local part": ("jörg@example.org", "outside ASCII before the @"),
    "trailing U+200B": ("zoe@example.org\u200b", "invisible characters"),
    "255 characters": (TOO_LONG, "at most 254 characters"),
    "CRLF": ("eve@example.org\r\nBcc: mallory@example.org", "line breaks"),
    "a list": ("x,evil@x.test@players.test", "one email address on its own"),
    "two @": ("eve@mallory@example.org", "one @"),
    "a name around it": ("Eve<eve@example.org>", "one email address on its own"),
    "a quoted local part": ('"eve smith"@example.org', "no spaces"),
    "no domain": ("eve@localhost", "not an address mail can reach"),
    ".invalid": ("eve@nowhere.invalid", "cannot receive mail"),
    "empty": ("   ", "Give an email address"),
}
CASES = pytest.mark.parametrize(("typed", "said"), list(BAD.values()), ids=list(BAD))

#: A name that would break a header written carelessly: a comma, quotes, CRLF, non-ASCII.
# No address in it: a seat's name holding one is refused before any mail (play.strangers).
AWKWARD_NAME = 'Neo, "the One"\r\nBcc: mallory, Jörg'
ONE_LINE_AWKWARD = 'Neo, "the One" Bcc: mallory, Jörg'


def test_kept_address_keeps_one_form(app):
    with app.test_request_context():
        assert kept_address("  Ada@Example.ORG \n") == "ada@example.org"
        # An internationalised domain is kept in its ASCII (IDNA) form, so every lookup,
        # header and envelope downstream stays ASCII.
        assert kept_address("Ida@Bücher.Example.org") == "ida@xn--bcher-kva.example.org"
        assert kept_address("ida@xn--bcher-kva.example.org") == "ida@xn--bcher-kva.example.org"
        assert kept_address("a.b+games@sub.example.co.uk") == "a.b+games@sub.example.co.uk"


@CASES
def test_kept_address_refuses_what_mail_cannot_reach(app, typed, said):
    with app.test_request_context(), pytest.raises(Invalid) as refused:
        kept_address(typed)
    assert said in refused.value.detail


@CASES
def test_the_api_refuses_a_bad_address_naming_the_field(app, api, typed, said):
    key = api.register("ada@example.org", "Ada")
    game_id, _keys = api.new_game(["red", "blue", "green"])
    organiser = api.keys[next(e for e in api.keys if e.startswith("red-"))]
    before = table_snapshot(app)
    answer = api.client.post("/api/players/key-reset", json={"email": typed})
    assert said in " ".join(assert_problem(answer, 422)["errors"]["email"])
    seats = [{"email": "ada@example.org", "colour": "red"}, {"email": typed, "colour": "blue"}]
    body = {"title": "T", "seats": [*seats, {"bot": True, "colour": "green"}]}
    answer = api.client.post("/api/games", json=body, headers=api.auth(key))
    problem = assert_problem(answer, 422)
    assert said in " ".join(problem["errors"]["seats"]["1"]["email"])
    assert "seats.1.email" in problem["detail"]
    answer = api.client.put(
        f"/api/games/{game_id}/seats/blue", json={"email": typed}, headers=api.auth(organiser)
    )
    assert said in " ".join(assert_problem(answer, 422)["errors"]["email"])
    assert table_snapshot(app) == before


@CASES
def test_the_players_schema_refuses_a_bad_address(app, typed, said):
    # The schema the register route reads with (its flow is tested where it is made).
    with app.test_request_context():
        errors = PlayerCreateSchema().validate({"email": typed, "name": "Eve"})
    assert said in " ".join(errors["email"])


@CASES
def test_the_functions_that_keep_an_address_refuse_it(app, api, typed, said):
    game_id, _keys = api.new_game(["red", "blue", "green"])
    before = table_snapshot(app)
    with app.test_request_context():
        organiser = db.session.execute(
            sa.select(Player).where(Player.email.like("red-%"))
        ).scalar_one()
        seats = [{"email": organiser.email, "colour": "red"}, {"email": typed, "colour": "blue"}]
        for keep in [
            lambda: players.add_player(typed, "Eve"),
            lambda: players.invite(typed, "Eve"),
            lambda: players.newcomer(typed, "Eve"),
            lambda: lifecycle.give_seat(organiser, game_id, "blue", typed),
            lambda: lifecycle.create_game(
                organiser, "T", [*seats, {"bot": True, "colour": "green"}]
            ),
            lambda: accounts.mail_sign_in_link(typed, "127.0.0.1", None, lambda token: token),
            lambda: accounts.reset_key_by_mail(typed),
            lambda: accounts.mail_email_change(organiser, typed, lambda token: token),
        ]:
            with pytest.raises(Invalid) as refused:
                keep()
            # An address change says it of .invalid in its own words, as it did.
            assert said in refused.value.detail or "No mail reaches" in refused.value.detail
            db.session.rollback()
        db.session.remove()
    assert table_snapshot(app) == before


def test_a_good_address_is_kept_and_mailed_as_it_is_kept(mail_app, mail_api, smtp):
    """An invited newcomer at an internationalised domain, under a name that would break a
    careless header: the outbox, the envelope and `To` all name the one kept address. (Its
    line break no door keeps any more: `pbem.texts`; a name kept before is the next
    test's.)"""
    key = mail_api.register("Ada@Example.org", "Ada")
    body = {
        "title": "T",
        "seats": [
            {"email": "ada@example.org", "colour": "red"},
            {"email": " Neo@Bücher.Example.org ", "colour": "blue", "name": ONE_LINE_AWKWARD},
            {"bot": True, "colour": "green"},
        ],
    }
    answer = mail_api.client.post("/api/games", json=body, headers=mail_api.auth(key))
    assert answer.status_code == 201, answer.get_json()
    kept = "neo@xn--bcher-kva.example.org"
    with mail_app.app_context():
        assert db.session.execute(sa.select(Player).where(Player.email == kept)).scalar_one()
        rows = db.session.execute(
            sa.select(Notification.recipient, Notification.message).where(
                Notification.player_id
                == sa.select(Player.id).where(Player.email == kept).scalar_subquery()
            )
        ).all()
        assert rows and {r for r, _ in rows} == {kept}
        for _, message in rows:
            if message:
                _assert_one_recipient(message, kept)
        deliver_due()
        db.session.remove()
    received = [(rcpt, m) for rcpt, m in smtp.inbox.messages if kept in rcpt]
    assert received
    for rcpt, mail in received:
        assert rcpt == [kept]
        assert [a.addr_spec for a in mail["To"].addresses] == [kept]
        assert mail["Bcc"] is None


def _assert_one_recipient(message: str, address: str) -> None:
    mail = message_from_string(message, policy=policy.default)
    (to,) = mail["To"].addresses
    assert to.addr_spec == address
    # The name is shown as given, on one line: its comma and quotes inside it, not beside.
    assert to.display_name.startswith('Neo, "the One" Bcc: mallory, Jörg')
    assert mail["Bcc"] is None and len(mail.get_all("To")) == 1


@pytest.mark.parametrize(
    "name",
    [AWKWARD_NAME, "x, " * 40, '"q" ' * 30, "Ünïcødé, " * 12, "a" * 40 + ", " + "b" * 50],
    ids=["crlf-comma-quotes", "many-commas", "many-quotes", "non-ascii", "long-with-comma"],
)
def test_to_names_one_recipient_whatever_the_name(app, name):
    from pbem.notify import compose

    with app.test_request_context():
        to = compose.Recipient(1, "bob@example.org", name, None)
        mail = compose.plain_message(to, "Hello", ("text", "<p>text</p>"))
        sent = message_from_string(mail.as_string(), policy=policy.default)
    (only,) = sent["To"].addresses
    assert only.addr_spec == "bob@example.org"
    assert "\r" not in only.display_name and "\n" not in only.display_name
