"""The docs hold together: every relative link in README.md, deploy/README.md and docs/
leads to a file of the repository, and every `#anchor` to a heading of its page (as GitHub
makes anchors); nothing points outside the repository; README stays one screen. External
http(s) links are not fetched."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", ROOT / "deploy" / "README.md", *(ROOT / "docs").rglob("*.md")])
README_MOST_LINES = 150

#: `[text](target)` and `![alt](target)`, with an optional "title".
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*([^)\s]*)(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def prose(text: str) -> str:
    """The page without its code (fenced blocks and `code spans`), where brackets and
    parentheses are not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(text: str) -> list[str]:
    return LINK.findall(prose(text))


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lowercase, punctuation dropped (letters,
    digits, `_` and `-` kept), spaces to hyphens, and `-1`, `-2` after a repeated one."""
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", FENCE.sub("", text), re.M):
        heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        candidate, n = slug, 0
        while candidate in found:
            n += 1
            candidate = f"{slug}-{n}"
        found.add(candidate)
    return found


def test_the_rules_read_links_and_anchors_as_github_does():
    text = "# The engine's facade\n## Backups and export\n## Backups and export\n"
    assert anchors(text) == {"the-engines-facade", "backups-and-export", "backups-and-export-1"}
    assert anchors("## `pbem demo`: Play!\n```sh\n# not a heading\n```\n") == {"pbem-demo-play"}
    page = '[a](x.md#y) ![b](c.png "title") `[d](e.md)`\n```\n[f](g.md)\n```\n[h](#i)\n'
    assert links(page) == ["x.md#y", "c.png", "#i"]


def test_the_pages_are_found():
    names = {page.relative_to(ROOT).as_posix() for page in PAGES}
    assert {"README.md", "deploy/README.md", "docs/architecture.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_somewhere(page: Path):
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # http(s), mailto: not fetched
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / unquote(path)).resolve() if path else page
        if not file.is_relative_to(ROOT):
            broken.append(f"{target}: outside the repository")
        elif not file.exists():
            broken.append(f"{target}: no such file")
        elif (
            anchor
            and file.suffix == ".md"
            and anchor not in anchors(file.read_text(encoding="utf-8"))
        ):
            broken.append(f"{target}: no heading makes #{anchor}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_page_points_outside_the_repository(page: Path):
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in links(text):
        if not re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
            assert not target.startswith("/"), f"{target}: an absolute path"


def test_readme_is_one_screen():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines < README_MOST_LINES, f"README.md has {lines} lines: move text into docs/"
