"""The catalogs: every text marked for translation in the code and templates has a
translation in every language's catalog (no silent fall back to English), with the same
placeholders, and every catalog compiles. The template (`messages.pot`) is what extraction
finds now, so a new text cannot be forgotten."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pbem.languages import LANGUAGES, TRANSLATIONS_DIR

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: As babel.cfg says (the test reads the same places).
METHODS = [
    ("pbem/**.py", "python"),
    ("templates/**.html", "jinja2"),
    ("templates/**.txt", "jinja2"),
    ("templates/**.svg", "jinja2"),
]
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "lazy_": None}


def marked() -> set[str | tuple[str, ...]]:
    """Every msgid the code and templates mark (a plural's as (singular, plural))."""
    found = set()
    for _, _, message, _, _ in extract_from_dir(str(ROOT), METHODS, {}, KEYWORDS):
        found.add(message if isinstance(message, str) else tuple(message))
    found.discard("")
    return found


def catalog(language: str) -> Catalog:
    path = TRANSLATIONS_DIR / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as source:
        return read_po(source, locale=language)


def key(message_id: str | tuple[str, ...]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def test_the_template_holds_what_the_code_marks_now():
    with (TRANSLATIONS_DIR / "messages.pot").open("rb") as source:
        template = read_po(source)
    kept = {m.id if isinstance(m.id, str) else tuple(m.id) for m in template if m.id}
    missing = marked() - kept
    assert not missing, f"run pybabel extract (docs/languages.md): {sorted(map(key, missing))}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_text_is_translated(language):
    translations = catalog(language)
    untranslated = []
    for message_id in marked():
        entry = translations.get(key(message_id))
        if entry is None or entry.fuzzy:
            untranslated.append(key(message_id))
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings):
            untranslated.append(key(message_id))
    assert not untranslated, (
        f"{language}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_keeps_the_placeholders_and_compiles(language):
    translations = catalog(language)
    problems = [
        f"{message.id!r}: {error}" for message, errors in translations.check() for error in errors
    ]
    assert not problems, problems[:5]
    compiled = io.BytesIO()
    write_mo(compiled, translations, use_fuzzy=False)
    assert len(compiled.getvalue()) > 1000
