"""The El Grande turn server: a Flask application around the pure `engine`."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask, g, request
from flask.typing import ResponseReturnValue

from pbem.jinja import FlaskEnvironment
from pbem.paths import MIGRATIONS_DIR


class App(Flask):
    """Flask, with a request whose transaction PostgreSQL chose as a deadlock's victim run
    again in place (nothing of it was written), and a GET that met the database gone tried
    once more (`pbem.store.outage`), drawing its pages in `pbem.jinja`'s environment."""

    jinja_environment = FlaskEnvironment

    def dispatch_request(self) -> ResponseReturnValue:
        from pbem.store import outage  # the store loads with the app, not with `pbem`

        for attempt in range(outage.DEADLOCK_TRIES):
            before = set(vars(g))
            try:
                return self._dispatch_once()
            except Exception as error:
                if not outage.is_deadlock(error) or attempt == outage.DEADLOCK_TRIES - 1:
                    raise
                self._forget_since(before)
                outage.start_afresh()
        raise AssertionError("unreachable: the last try raises")

    def _dispatch_once(self) -> ResponseReturnValue:
        if request.method not in ("GET", "HEAD"):
            return self._in_one_unit()
        before = set(vars(g))
        try:
            return self._in_one_unit()
        except Exception as error:
            from pbem.store import outage

            if not outage.is_outage(error) or outage.is_deadlock(error):
                raise
            # Anything read on the lost connection goes with it: the session, the read
            # connection and what the view kept in `g`.
            self._forget_since(before)
            outage.start_afresh()
            return self._in_one_unit()

    def _in_one_unit(self) -> ResponseReturnValue:
        """The view, its request one unit of work (`pbem.play.unit.end_request`): what it
        wrote committed if its answer says it was done, else rolled back; inside the tries
        above, so a commit chosen as a deadlock's victim is run again too."""
        from pbem.play import unit

        try:
            response = self.make_response(super().dispatch_request())
            unit.end_request(response.status_code)
        except BaseException:
            unit.fail_request()
            raise
        return response

    @staticmethod
    def _forget_since(before: set[str]) -> None:
        for name in set(vars(g)) - before:
            delattr(g, name)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Application factory: build and configure one app instance.

    `config` overrides the environment, which overrides the embedded defaults (see
    `pbem.config`). The factory never touches the database and never starts background
    work; `pbem serve` and `pbem db upgrade` bring the schema up to date.
    """
    # Imported here, not at the top: every `import pbem.<anything>` runs this file first,
    # and the whole app (flask-smorest, the models, the pages) takes 0.6 s to import, which
    # `pbem --help`, the engine's users and the ground floor's modules need not wait for.
    from werkzeug.middleware.proxy_fix import ProxyFix

    from pbem import api, headers, languages, logs, notify, web
    from pbem.bodies import WholeBodies
    from pbem.config import configure
    from pbem.extensions import db, migrate
    from pbem.game import state_cache
    from pbem.store import green, reads
    from pbem.web.language import page_language

    # The instance folder holds the SQLite database, the made secret and mail files: the
    # checkout's `instance/` by default, PBEM_INSTANCE_PATH elsewhere (an installed package,
    # a container's volume).
    app = App(
        __name__,
        instance_relative_config=True,
        instance_path=os.environ.get("PBEM_INSTANCE_PATH") or None,
    )
    configure(app, config)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite:///"):
        os.makedirs(app.instance_path, exist_ok=True)

    logs.init_app(app)
    languages.init_app(app, locale_selector=page_language)
    db.init_app(app)
    green.install()  # in a gevent worker: psycopg waits on gevent's loop (pbem.store.green)
    migrate.init_app(app, db, directory=MIGRATIONS_DIR)
    api.init_app(app)
    web.init_app(app)
    state_cache.init_app(app)
    reads.init_app(app)
    notify.init_app(app)
    headers.init_app(app)
    app.wsgi_app = WholeBodies(  # type: ignore[method-assign]
        app.wsgi_app,
        lambda: app.config["MAX_CONTENT_LENGTH"],
        pause=app.config["PBEM_BODY_PAUSE_SECONDS"],
    )
    if app.config["PBEM_PROXY_HOPS"]:
        # The client's address as the trusted proxies saw it (the per-client limits key on
        # it); links never come from a request's headers, so only X-Forwarded-For is read.
        hops = int(app.config["PBEM_PROXY_HOPS"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops)  # type: ignore[method-assign]
    return app
