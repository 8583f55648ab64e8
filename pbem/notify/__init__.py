"""Mail out: which mails a change causes (the outbox), composing mails, and the sender.

`init_app` sets mail's defaults and refuses to start on the development secret: SECRET_KEY
signs every reply address, so a known key would let anyone move for any seat.
"""

from __future__ import annotations

from flask import Flask

from pbem.config import DEVELOPMENT_SECRET


def init_app(app: Flask) -> None:
    app.config.setdefault("MAIL_FROM", "El Grande <elgrande@localhost>")
    app.config.setdefault("SMTP_URL", None)
    if app.config["SECRET_KEY"] == DEVELOPMENT_SECRET and not (app.debug or app.testing):
        raise RuntimeError(
            "SECRET_KEY is the development default, which signs the reply addresses of mails: "
            "set SECRET_KEY to a long random value (or leave it unset to have one made in the "
            "instance folder)."
        )
