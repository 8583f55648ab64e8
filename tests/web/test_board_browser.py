"""The board as Chromium draws it: the DOM holds every place and the counts of the view."""

from __future__ import annotations

import pytest

import engine
from engine.data import CASTILLO, REGIONS
from pbem.snapshot import finished, midgame
from pbem.web.board import standalone_page

pytestmark = pytest.mark.browser


def counts_in_dom(browser, place: str) -> dict[str, int]:
    from selenium.webdriver.common.by import By

    stacks = browser.find_elements(By.CSS_SELECTOR, f'[data-place="{place}"] [data-count]')
    return {s.get_attribute("data-colour"): int(s.get_attribute("data-count")) for s in stacks}


@pytest.mark.parametrize("state", [midgame, finished], ids=["midgame", "finished"])
def test_the_board_in_chromium_shows_the_views_counts(browser, tmp_path, state):
    from selenium.webdriver.common.by import By

    view = engine.view(state(), "red")
    page = tmp_path / "board.html"
    page.write_text(standalone_page(view), encoding="utf-8")
    browser.get(page.as_uri())

    regions = browser.find_elements(By.CSS_SELECTOR, "svg [data-region]")
    assert sorted(r.get_attribute("data-region") for r in regions) == sorted(REGIONS)
    assert len(browser.find_elements(By.CSS_SELECTOR, f'svg [data-place="{CASTILLO}"]')) == 1
    for region in REGIONS:
        expected = {c: n for c, n in view["regions"][region]["caballeros"].items() if n}
        assert counts_in_dom(browser, region) == expected, region
    castillo = {c: n for c, n in view["castillo"]["caballeros"].items() if n}
    assert counts_in_dom(browser, CASTILLO) == castillo
    # Drawn, not merely present: each region has a real size on screen.
    for region in regions:
        assert region.size["width"] > 50 and region.size["height"] > 50
    # The viewer's hand is in the panel, and nobody else's.
    hand = browser.find_elements(By.CSS_SELECTOR, ".panel .hand .power-card-chip")
    assert [int(h.text) for h in hand] == view["players"]["red"]["hand"]
