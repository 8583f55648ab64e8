"""Fixtures for every test: `browser`, a headless Chromium under Selenium.

The browser is shared by the whole session (starting Chromium costs a second or two). Where
Chromium is missing the tests that use it are skipped, except on CI (the CI env var set),
where they fail: CI installs chromium and chromium-driver, so a missing one is a broken build.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pbem.languages import TRANSLATIONS_DIR
from pbem.snapshot import CHROMEDRIVER, CHROMIUM, start_chromium


def pytest_configure(config):
    """Catalogs changed since the install compiled them are compiled before the run (the
    app never compiles them: an install may be read-only), once, not by each worker."""
    if hasattr(config, "workerinput"):
        return
    stale = [
        po
        for po in TRANSLATIONS_DIR.glob("*/LC_MESSAGES/*.po")
        if not po.with_suffix(".mo").exists()
        or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
    ]
    if stale:
        from babel.messages.frontend import CommandLineInterface

        CommandLineInterface().run(["pybabel", "-q", "compile", "-d", str(TRANSLATIONS_DIR)])


def pytest_collection_modifyitems(config, items):
    """A test marked `database_free` reads nothing a database decides (the API's spec, say):
    the PostgreSQL pass (TEST_DATABASE_URL set) skips it, having learnt it on SQLite."""
    if not os.environ.get("TEST_DATABASE_URL"):
        return
    skip = pytest.mark.skip(reason="the same on every database: run in the SQLite pass")
    for item in items:
        if item.get_closest_marker("database_free"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """A Selenium WebDriver for headless Chromium (fixed window size, throwaway profile).

    Tests open pages with `browser.get(url)` (a `file://` page or a live server's URL) and read
    the DOM with `browser.find_elements(By.CSS_SELECTOR, ...)`.
    """
    missing = [
        path for path in (CHROMIUM, CHROMEDRIVER) if not (Path(path).exists() or shutil.which(path))
    ]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip install -e '.[dev]')")
    if missing:
        message = "no browser for browser tests: missing " + ", ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()
