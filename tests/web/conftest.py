"""The server tests' fixtures (a migrated database, an app per test, the API helper), for
the page tests."""

from tests.server.conftest import api, app, client, database_url  # noqa: F401
