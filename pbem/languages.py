"""The languages pages and mails are written in: Flask-Babel's gettext catalogs
(`pbem/translations/<language>/LC_MESSAGES/messages.po`), compiled to `.mo` when the package
is built or installed (`setup.py`; an editable install too), never by the running app,
which may not write where it is installed.

Text is marked where it is written: `_("...")` (gettext) in code that runs per request or per
mail, `N_("...")` in module-level tables (translated with `_()` where shown) or `lazy_`,
`ngettext` for counts, and in templates `{{ _("...") }}` or `{% trans %}`. An error's
sentence is raised untranslated, `N_("...")` with its values (`pbem.errors`), and said in the
reader's language when a door reads its `detail`; a value that is words itself is given as
`later(status_word, status)`. Which language a page is in is chosen by the pages
(`pbem.web.language`); a mail is rendered in its recipient's (`language_of`, `in_language`).
The move notation is one grammar in every language: commands stay as they
are, and the board's names are read in all of these languages (`engine.names`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from babel.dates import format_skeleton, get_datetime_format
from babel.lists import format_list
from babel.numbers import format_percent, get_decimal_symbol, get_minus_sign_symbol
from flask import Flask, current_app, g, has_app_context, has_request_context
from flask_babel import Babel, force_locale, get_locale, get_translations, gettext, lazy_gettext
from flask_babel import ngettext as _ngettext
from jinja2 import pass_eval_context
from markupsafe import Markup

#: The languages a player may choose, as they name themselves (English first: the default).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "it": "Italiano",
    "es": "Español",
    "ru": "Русский",
}
DEFAULT = "en"
TRANSLATIONS_DIR = Path(__file__).parent / "translations"


# Flask-Babel's gettext functions, typed (it ships no type information), and a shorter way
# to the catalog: Flask-Babel finds the locale, the domain and the catalog anew at every
# look-up (a fifth of a board page's time went there). The catalog being rendered is kept
# in a context variable of ours: by `in_language` for a mail, and for a request from its
# first look-up to its end (`_end_request`); elsewhere Flask-Babel finds it each time.
# The locale's name is kept beside the catalog: Flask-Babel's `get_locale` costs as much as
# a look-up, and a page asks for it at every date and number it writes.
_rendering: ContextVar[tuple[Any, str] | None] = ContextVar("pbem_translations", default=None)


def translations() -> Any:
    """The catalog of the language being rendered (Flask-Babel's `get_translations`)."""
    return _rendered()[0]


def _rendered() -> tuple[Any, str]:
    """The catalog being rendered and its locale's name, kept for a request from its first
    look-up (an app context without a request or `in_language` finds them each time)."""
    found = _rendering.get()
    if found is None:
        found = _catalog_of(_locale_name())
        if has_request_context() and "pbem_rendering" not in g:
            g.pbem_rendering = _rendering.set(found)
    return found


def _catalog_of(name: str) -> tuple[Any, str]:
    """Flask-Babel's catalog of locale `name`, and the name. Within an app the catalog is
    the one Flask-Babel loaded for it and keeps for good, kept here too: asking Flask-Babel
    again (its context, domain and locale found anew) cost a page 20 µs. Outside one it
    is Flask-Babel's (none: the texts as written)."""
    if not has_app_context():
        return get_translations(), name
    catalogs = current_app.extensions.setdefault(_CATALOGS, {})
    catalog = catalogs.get(name)
    if catalog is None:
        catalog = catalogs[name] = get_translations()
    return catalog, name


def _end_request(error: BaseException | None = None) -> None:
    token = g.pop("pbem_rendering", None)
    if token is not None:
        _rendering.reset(token)


def _(text: str, **variables: Any) -> str:
    """`text` in the language being rendered (`%(name)s` filled from `variables`)."""
    if not has_app_context():
        return str(gettext(text, **variables))
    translated: str = translations().ugettext(text)
    return translated % variables if variables else translated


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The form of `singular`/`plural` for `num` in the language being rendered."""
    if not has_app_context():
        return str(_ngettext(singular, plural, num, **variables))
    variables.setdefault("num", num)
    translated: str = translations().ungettext(singular, plural, num)
    return translated % variables


def lazy_(text: str, **variables: Any) -> Any:
    """`text`, translated each time it is made a string (in the language then rendered)."""
    return lazy_gettext(text, **variables)


class Later:
    """Text made when it is shown (in the language being rendered then), by `make`."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], str]) -> None:
        self.make = make

    def __str__(self) -> str:
        return self.make()


def later(make: Callable[..., Any], *args: Any) -> Any:
    """`make(*args)`, made when it is made a string (in the language being rendered then):
    words given as a value of another sentence's placeholder, such as a game's status in an
    error's sentence, said when the sentence is."""
    return Later(partial(make, *args))


#: What `lazy_` makes: Flask-Babel's lazy string, known by what its public function returns.
_LAZY_GETTEXT = type(lazy_gettext(""))


def is_lazy(value: object) -> bool:
    """Whether `value` is text made when shown (`lazy_`, `later`, `Later`)."""
    return isinstance(value, Later | _LAZY_GETTEXT)


def N_(text: str) -> str:
    """Mark `text` for the catalogs without translating it here (a module-level table):
    whoever shows it translates it then, with `_(text)`."""
    return text


#: Each language by its own name and its English one, as a person writes it (`language
#: italiano`, `language German`).
_BY_NAME = {name.lower(): code for code, name in LANGUAGES.items()} | {
    "english": "en",
    "german": "de",
    "french": "fr",
    "italian": "it",
    "spanish": "es",
    "russian": "ru",
}


def known(language: object) -> str | None:
    """The code of `language` if it is one of LANGUAGES, by code (any case, `de-AT` read as
    `de`) or by name (`Deutsch`, `German`), else None."""
    if not isinstance(language, str):
        return None
    named = _BY_NAME.get(language.strip().lower())
    code = named or language.strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else None


def language_of(preferences: Mapping[str, Any] | None, game_language: str | None = None) -> str:
    """A mail's language: its recipient's choice, else the game's, else English."""
    chosen = known((preferences or {}).get("language"))
    return chosen or known(game_language) or DEFAULT


@contextmanager
def in_language(language: str | None) -> Iterator[None]:
    """Render what runs inside in `language` (None or unknown: English)."""
    with force_locale(known(language) or DEFAULT):
        token = _rendering.set((get_translations(), _locale_name()))
        try:
            yield
        finally:
            _rendering.reset(token)


def current_language() -> str:
    """The language being rendered now (English outside an app)."""
    if not has_app_context():
        return DEFAULT
    return _language_code(_rendered()[1])


@lru_cache(maxsize=64)
def _language_code(locale_name: str) -> str:
    # A mail's notation asks for its language at every move it writes: read once per name.
    return known(locale_name) or DEFAULT


def rendering_locale() -> str:
    """The locale being rendered, as Flask-Babel names it (`de`; `en_US` is not `en`): the
    key of what is drawn once per language and kept."""
    return _rendered()[1] if has_app_context() else DEFAULT


def _locale_name() -> str:
    locale = get_locale()
    if locale is None:
        return DEFAULT
    name = _LOCALE_NAMES.get(locale)
    if name is None:  # Babel builds the name anew each time it is asked
        name = _LOCALE_NAMES[locale] = str(locale)
    return name


_LOCALE_NAMES: dict[Any, str] = {}
#: Where an app keeps Flask-Babel's catalog of each locale (by its name) rendered so far.
_CATALOGS = "pbem_catalogs"


def moment_text(moment: datetime | str, *, year: bool = False) -> str:
    """`moment` (or its ISO 8601) in UTC, to the minute, as the language being rendered
    writes a short date and a time (Babel's patterns: `Sat, Nov 28, 06:28 UTC`, `Sa., 28.
    Nov., 06:28 UTC`, `сб, 28 нояб., 06:28 UTC`); with `year`, the year too. A moment
    without a zone is UTC (SQLite hands them back so)."""
    # Written to the minute: kept by the minute (a page writes each pending deadline).
    minute = _utc(moment).replace(second=0, microsecond=0)
    return _moment_text(minute, year, rendering_locale())


@lru_cache(maxsize=4096)
def _moment_text(utc: datetime, year: bool, code: str) -> str:
    date = format_skeleton("yMMMEd" if year else "MMMEd", utc, tzinfo=UTC, locale=code)
    time = format_skeleton("Hm", utc, tzinfo=UTC, locale=code)
    # The locale's way of joining a date and a time ("{1}, {0}"), its quoted literals unquoted.
    joined = str(get_datetime_format("medium", locale=code)).replace("'", "")
    return joined.format(time, date) + " UTC"


def day_text(moment: datetime | str) -> str:
    """The day of `moment` (or its ISO 8601), in UTC, as the language being rendered writes
    a short date with its year (`Nov 28, 2026`, `28. Nov. 2026`)."""
    return _day_text(_utc(moment).date(), rendering_locale())


def _utc(moment: datetime | str) -> datetime:
    """`moment` (or its ISO 8601) in UTC; one without a zone is UTC (SQLite hands them back
    so)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@lru_cache(maxsize=4096)
def _day_text(day: date, locale: str) -> str:
    return format_skeleton("yMMMd", day, locale=locale)


def list_text(items: Sequence[str]) -> str:
    """`items` as the language being rendered joins them in a sentence (Babel's: `2, 4, and
    6`, `2, 4 und 6`, `2, 4 et 6`)."""
    return _list_text(tuple(items), rendering_locale())


@lru_cache(maxsize=1024)
def _list_text(items: tuple[str, ...], locale: str) -> str:
    return format_list(list(items), locale=locale)


def number_text(value: float, digits: int = 1) -> str:
    """`value` to `digits` decimals as the language being rendered writes it (12.3, 12,3;
    no grouping: a rating or an average is never in the thousands)."""
    return number_writer()(value, digits)


def number_writer() -> Callable[[float, int], str]:
    """`number_text` for the language being rendered now, looked up once: for a page that
    writes many numbers."""
    point, minus = _number_symbols(rendering_locale())

    def write(value: float, digits: int) -> str:
        return _number(value, digits, point, minus)

    return write


def _number(value: float, digits: int, point: str, minus: str) -> str:
    written = f"{value:.{digits}f}"
    if written.startswith("-"):
        written = minus + written[1:] if written.strip("-0.") else written[1:]
    return written.replace(".", point)


@lru_cache(maxsize=32)
def _number_symbols(locale: str) -> tuple[str, str]:
    """The decimal point and minus sign of `locale` (Babel's, read once)."""
    return get_decimal_symbol(locale), get_minus_sign_symbol(locale)


def share_text(share: float) -> str:
    """A share from 0 to 1 as a whole percentage in the language being rendered (95 %)."""
    return _share_text(round(share * 100), rendering_locale())


@lru_cache(maxsize=1024)
def _share_text(percent: int, locale: str) -> str:
    return format_percent(percent / 100, locale=locale)


def init_app(app: Flask, locale_selector: Any = None) -> None:
    """Flask-Babel on `app`, reading this package's compiled catalogs."""
    Babel(
        app,
        locale_selector=locale_selector,
        default_locale=DEFAULT,
        default_translation_directories=str(TRANSLATIONS_DIR),
    )
    # Flask-Babel gives the pages' environment `_`, `ngettext` and `{% trans %}`; they look
    # the catalog up as `_` does here.
    app.teardown_request(_end_request)
    _install_look_ups(app.jinja_env)
    app.jinja_env.globals["current_language"] = current_language
    app.jinja_env.globals["day_text"] = day_text
    app.jinja_env.globals["languages"] = LANGUAGES


def install_in(env: Any) -> None:
    """Give a Jinja environment of our own (the mails') the app's gettext and `{% trans %}`."""
    env.add_extension("jinja2.ext.i18n")
    _install_look_ups(env)
    env.globals["current_language"] = current_language


def _install_look_ups(env: Any) -> None:
    # Jinja's newstyle gettext fills the placeholders itself (`num` and the rest at once):
    # it is given the bare look-ups, as Flask-Babel gives the pages'.
    env.install_gettext_callables(
        lambda text: translations().ugettext(text),
        lambda singular, plural, num: translations().ungettext(singular, plural, num),
        newstyle=True,
    )
    env.globals["_"] = _template_gettext


@pass_eval_context
def _template_gettext(eval_context: Any, text: str, /, **variables: Any) -> str:
    """A template's `_("...")`: what Jinja's newstyle `_` does (translated, Markup where
    the template escapes, its placeholders filled and `%%` written `%`), in one call rather
    than three through the template's context: a page says twenty of them."""
    translated: str = translations().ugettext(text)
    if not variables and "%" not in translated:
        return Markup(translated) if eval_context.autoescape else translated
    if eval_context.autoescape:
        translated = Markup(translated)
    return translated % variables


__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "_",
    "current_language",
    "in_language",
    "init_app",
    "install_in",
    "known",
    "language_of",
    "later",
    "lazy_",
    "moment_text",
    "ngettext",
    "rendering_locale",
    "translations",
]
