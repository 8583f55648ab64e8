"""The web pages: see a game, play it, step through it (`routes`), drawn by `board`; and
the pages the links in mails open (`mail_pages`: unsubscribe, claim a key, decline a seat)."""

from __future__ import annotations

from flask import Flask

from pbem.web import accounts as _accounts  # noqa: F401 (its routes join `bp`)
from pbem.web import advice as _advice  # noqa: F401 (its routes join `bp`)
from pbem.web import apart as _apart  # noqa: F401 (its routes join `bp`)
from pbem.web import calendar as _calendar  # noqa: F401 (its routes join `bp`)
from pbem.web import forming as _forming  # noqa: F401 (its routes join `bp`)
from pbem.web import language as _language  # noqa: F401 (its routes join `bp`)
from pbem.web import new_game as _new_game  # noqa: F401 (its routes join `bp`)
from pbem.web import operator as _operator  # noqa: F401 (its routes join `bp`)
from pbem.web import organise as _organise  # noqa: F401 (its routes join `bp`)
from pbem.web import push as _push  # noqa: F401 (its routes join `bp`)
from pbem.web import records as _records  # noqa: F401 (its routes join `bp`)
from pbem.web import tournaments as _tournaments  # noqa: F401 (its routes join `bp`)
from pbem.web import wording
from pbem.web.mail_pages import blp as mail_pages
from pbem.web.routes import bp
from pbem.web.sessions import SessionInterface
from pbem.web.templating import kept


def init_app(app: Flask) -> None:
    """Register the pages' blueprint on `app`, and their session cookie (`sessions`)."""
    app.session_interface = SessionInterface()
    app.jinja_env.globals["kept"] = kept
    wording.install(app.jinja_env)
    app.register_blueprint(bp)
    app.register_blueprint(mail_pages)
