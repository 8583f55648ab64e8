"""Errors carry their sentence untranslated, with a code: a refusal raised while one language
is active is said in the language of whoever reads it (the door's reader), every refusal the
domain raises has a stable code, one per sentence, and every sentence is in every catalog.
The AST walks fail on a translated raise coming back (`raise Invalid(_("..."))`), which would
fix the sentence in the language of the moment it was raised."""

from __future__ import annotations

import ast
import functools
import inspect
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from markupsafe import escape

import engine
from pbem import create_app, errors
from pbem.errors import Conflict, IllegalMoveError, Invalid, ServiceError
from pbem.game.seating import resolve_colour
from pbem.languages import LANGUAGES, N_, TRANSLATIONS_DIR, in_language, later
from pbem.words import refusals, status_word

ROOT = Path(__file__).resolve().parents[1]
#: Where refusals are raised: the floors under the doors, and the ground's checks of what
#: people type (an address, a name or a title).
DOMAIN = ["pbem/play", "pbem/notify", "pbem/game", "pbem/timing", "pbem/store"]
DOMAIN += ["pbem/addresses.py", "pbem/texts.py"]
TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: Calls that say words in the language active now: never in a refusal's arguments (a value
#: that is words goes through `later`, and is said when the sentence is).
SAID_NOW = {"_", "gettext", "ngettext", "lazy_", "status_word", "colour_name", "held_colours"}
SAID_NOW |= {"moment_text", "translated", "place_name", "card_title"}
#: Errors whose class is their one refusal: their code is the class's.
OWN_CODE = {"IllegalMoveError", "ImportRefused"}
#: Refusals in English on purpose: the webhook (and push endpoint) checks' sentences, which
#: the sender's log shares, and `pbem import`'s (the operator's command).
ENGLISH_ONLY = {"webhook-refused", "push-endpoint-refused", "import-refused"}
SLUG = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


@pytest.fixture(scope="module")
def app():
    return create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True})


def catalog(language: str):
    with (TRANSLATIONS_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=language)


def translation(language: str, message_id: str) -> str:
    entry = catalog(language).get(message_id)
    assert entry is not None and entry.string, (language, message_id)
    return str(entry.string)


# --- said in the reader's language -----------------------------------------------------


def test_a_refusal_raised_in_german_is_read_in_french(app):
    with app.app_context():
        with in_language("de"), pytest.raises(Invalid) as raised:
            resolve_colour(7, ["red", "blue"], None, {"red", "blue"}, acting=True)
        error = raised.value
        assert error.code == "which-colour-both-act"
        both = "%(first)s and %(second)s"
        for language in ("fr", "de", "en"):
            with in_language(language):
                own = {"first": "red", "second": "blue"}
                if language == "en":
                    expected = error.message % {"own": "red and blue", "game": 7}
                else:
                    own_words = translation(language, both) % own
                    expected = translation(language, error.message) % {"own": own_words, "game": 7}
                assert error.detail == expected
                assert str(error) == expected  # as another sentence's value, the same
    assert error.message.startswith("You hold %(own)s in game %(game)s, and both")


def test_a_status_given_later_is_said_with_the_sentence(app):
    with app.app_context():
        with in_language("de"):
            error = Conflict(
                N_("Game %(game)s was %(status)s: its table is closed."),
                code="table-closed",
                game=7,
                status=later(status_word, "aborted"),
            )
        with in_language("fr"):
            french = translation("fr", "Game %(game)s was %(status)s: its table is closed.")
            assert error.detail == french % {"game": 7, "status": translation("fr", "aborted")}
            assert translation("de", "aborted") not in error.detail


def _engine_refusal() -> str:
    state = engine.new_game(["red", "blue", "green"], seed=1)
    waiting = next(c for c in state.colours if c != engine.pending(state)[0]["player"])
    hand = state.hands[waiting]
    with pytest.raises(engine.IllegalMove) as refused:
        engine.apply(state, waiting, {"type": "play_power_card", "card": hand[0]})
    return refused.value.message


def test_an_engine_refusal_keeps_its_words_and_is_said_when_read(app):
    message = _engine_refusal()
    with app.app_context():
        with in_language("de"):
            error = IllegalMoveError(message, seq=3, render=refusals.translated)
            german = refusals.translated(message)
        assert error.message == message and error.args == (message,)
        assert (error.code, error.extra, error.params) == ("illegal-move", {"seq": 3}, {})
        with in_language("fr"):
            assert error.detail == refusals.translated(message) != german


def test_the_doors_say_a_refusal_in_their_readers_language(app):
    with app.app_context(), in_language("de"), pytest.raises(Invalid) as raised:
        resolve_colour(7, ["red", "blue"], None, set(), acting=True)
    error = raised.value
    # The API: the request's language, and the code beside the sentence.
    french = {"Accept-Language": "fr"}
    with app.test_request_context("/api/games/7/moves", method="POST", headers=french):
        response = app.handle_user_exception(error)
        body = response.get_json()
        said = error.detail
    assert response.status_code == 422
    assert (body["code"], body["detail"]) == ("which-colour-neither-acts", said)
    assert said.startswith(translation("fr", error.message).split("%")[0])
    # A page: its reader's language.
    with app.test_request_context("/games/7", headers={"Accept-Language": "ru"}):
        page, status = app.handle_user_exception(error)
        said = error.detail
    assert status == 422
    assert said.startswith(translation("ru", error.message).split("%")[0])
    assert str(escape(said)) in page


def test_what_a_door_adds_stays_apart_from_the_sentences_values(app):
    with app.app_context():
        stale = errors.StaleSequence(N_("%(seq)s, not %(expected)s"), code="x", seq=4, expected=2)
        assert (stale.extra, stale.params) == ({"seq": 4}, {"seq": 4, "expected": 2})
        assert stale.detail == "4, not 2"
        too_many = errors.TooMany(N_("Wait %(wait)s."), code="y", retry_after=9, wait=9)
        assert (too_many.retry_after, too_many.extra, too_many.detail) == (9, {}, "Wait 9.")


def test_every_error_class_has_a_code():
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass)]
    for error_class in (c for c in classes if issubclass(c, ServiceError)):
        assert SLUG.fullmatch(error_class.code), error_class


# --- the domain's raises, read from the source ----------------------------------------


def _domain_files() -> list[Path]:
    files: list[Path] = []
    for name in DOMAIN:
        path = ROOT / name
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return files


def _error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """The names of ServiceError and its subclasses, the domain's own ones too."""
    known = {
        n for n, c in inspect.getmembers(errors, inspect.isclass) if issubclass(c, ServiceError)
    }
    grown = True
    while grown:
        grown = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in known:
                    bases = {
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                        for b in node.bases
                    }
                    if bases & known:
                        known.add(node.name)
                        grown = True
    return known


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _marked(tree: ast.Module) -> dict[str, str]:
    """Module-level names bound to a marked text: `_SUPERSEDED = N_("...")`."""
    found = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and _name(node.value.func) == "N_"
        ):
            found[node.targets[0].id] = node.value.args[0].value  # type: ignore[attr-defined]
    return found


@functools.cache
def _refusals() -> list[tuple[str, str, str | None, str | None, list[str]]]:
    """Every refusal the domain makes: (where, class, code, msgid, what it says now)."""
    trees = {path: ast.parse(path.read_text(), str(path)) for path in _domain_files()}
    classes = _error_classes(trees)
    found = []
    for path, tree in trees.items():
        marked = _marked(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _name(node.func) in classes):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            keywords = {k.arg: k.value for k in node.keywords}
            code = keywords.get("code")
            code_text = code.value if isinstance(code, ast.Constant) else None
            message = node.args[0] if node.args else None
            msgid = None
            if isinstance(message, ast.Call) and _name(message.func) == "N_":
                msgid = message.args[0].value  # type: ignore[attr-defined]
            elif isinstance(message, ast.Name):
                msgid = marked.get(message.id)
            said_now = [
                _name(inner.func) or "?"
                for argument in [*node.args, *keywords.values()]
                for inner in ast.walk(argument)
                if isinstance(inner, ast.Call) and _name(inner.func) in SAID_NOW
            ]
            found.append((where, _name(node.func) or "", code_text, msgid, said_now))
    assert len(found) > 100, "the walk finds the domain's refusals"
    return found


def test_no_refusal_is_translated_when_raised():
    translated = [(where, now) for where, _, _, _, now in _refusals() if now]
    assert not translated, (
        "a refusal is said when a door reads it, in its reader's language: raise it with "
        f'N_("...") and its values (words through `later`), not {translated}'
    )


def test_no_raise_in_the_domain_translates_its_words():
    """Any exception, not only a ServiceError: `raise X(_("..."))` is said in the language
    of the moment, which need not be its reader's."""
    found = []
    for path in _domain_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                for inner in ast.walk(node.exc):
                    if isinstance(inner, ast.Call) and _name(inner.func) in {"_", "ngettext"}:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found


def test_every_refusal_has_a_code_of_its_own_and_a_marked_sentence():
    codes: dict[str, set[str]] = {}
    for where, name, code, msgid, _ in _refusals():
        if name in OWN_CODE:
            assert code is None, f"{where}: {name}'s code is its class's"
            continue
        assert code and SLUG.fullmatch(code), f"{where}: give {name} a code (a slug)"
        if code in ENGLISH_ONLY:
            continue
        assert msgid, f'{where}: raise {name} with N_("...") (or a name bound to one)'
        codes.setdefault(code, set()).add(msgid)
    shared = {code: texts for code, texts in codes.items() if len(texts) > 1}
    assert not shared, f"one code names one sentence: {shared}"
    by_text: dict[str, set[str]] = {}
    for code, texts in codes.items():
        for text in texts:
            by_text.setdefault(text, set()).add(code)
    assert not {t: c for t, c in by_text.items() if len(c) > 1}, "one sentence, one code"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_refusal_is_in_every_catalog(language):
    translations = catalog(language)
    missing = []
    for where, _, code, msgid, _ in _refusals():
        if msgid is None:
            continue
        entry = translations.get(msgid)
        if entry is None or entry.fuzzy or not entry.string:
            missing.append((where, code))
    assert not missing, f"{language}: {missing}"
