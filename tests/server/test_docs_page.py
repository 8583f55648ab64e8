"""`/api/docs` renders in a real browser with no internet: Swagger UI is served by the app."""

from __future__ import annotations

import threading
from urllib.parse import urlparse

import pytest
from werkzeug.serving import make_server

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free


@pytest.fixture
def live_server(app):
    """The test app on a real HTTP server on a free loopback port, in a thread."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()


def test_the_docs_page_names_no_other_host(client):
    page = client.get("/api/docs").get_data(as_text=True)
    assert "/api/docs/assets/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower() and "https://" not in page
    script = client.get("/api/docs/assets/swagger-ui-bundle.js")
    assert script.status_code == 200 and len(script.data) > 100_000


def test_the_docs_page_renders_offline_in_chromium(browser, live_server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.wait import WebDriverWait

    browser.get(f"{live_server}/api/docs")
    title = WebDriverWait(browser, 20).until(
        expected_conditions.visibility_of_element_located((By.CSS_SELECTOR, ".swagger-ui .title"))
    )
    assert "El Grande turn server" in title.text
    operations = browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")
    assert any("/api/games/{game_id}/moves" in o.text for o in operations)
    # Every file the page loaded came from this server: nothing from a CDN.
    loaded = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    assert loaded and {urlparse(url).netloc for url in loaded} == {urlparse(live_server).netloc}
