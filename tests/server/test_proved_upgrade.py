"""A reply from a seat's own address to its signed reply address proves that address."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import sqlalchemy as sa

from pbem.clock import now
from pbem.extensions import db
from pbem.mailin import process_inbound
from pbem.notify import addresses
from pbem.store.models import Player
from tests.server.mailin_helpers import fresh_mail
from tests.server.test_ratings import new_game_of


def test_a_reply_from_the_seats_own_address_proves_it(mail_app, mail_api):
    [ann] = [f"ann-{uuid.uuid4().hex[:6]}@example.org"]
    mail_api.register(ann, "Ann")
    invited = f"ivy-{uuid.uuid4().hex[:6]}@example.org"
    game_id = new_game_of(mail_api, [ann, invited], ["red", "blue"])
    with mail_app.app_context():
        seat = addresses.seat_address(game_id, "blue")

    def send(sender: str, **headers: str) -> datetime | None:
        with mail_app.app_context():
            process_inbound(fresh_mail(sender, seat, "board", **headers))
            db.session.remove()
            return db.session.execute(
                sa.select(Player.email_proved_at).where(Player.email == invited)
            ).scalar_one()

    # Not from the holder's address, or failing our server's sender checks: no proof.
    assert send("mallory@evil.example") is None
    mail_app.config["MAIL_TRUSTED_AUTHSERV_ID"] = "mx.pbem.example"
    failing = {"Authentication-Results": "mx.pbem.example; dmarc=fail header.from=example.org"}
    assert send(invited, **failing) is None
    # The holder's own: the reply address was mailed to that address alone.
    first = send(invited)
    assert first is not None and abs(first - now()) < timedelta(minutes=1)
    assert send(invited) == first  # the first reply proves it; later ones change nothing
