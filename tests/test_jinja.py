"""Every template here is drawn in `pbem.jinja`'s environments, which read a plain dict's
key at once where Jinja's own would look for an attribute first (the same answers as Jinja
gives, in every case where the two could differ), and whose mails wrap each text once."""

from __future__ import annotations

from collections import OrderedDict, namedtuple

import jinja2
import pytest
from markupsafe import Markup

from pbem import App, jinja

Seat = namedtuple("Seat", "score court")


class Tagged(dict):
    colour = "an attribute"


SOURCES = [
    "{{ view.king }}",
    "{{ view.regions.toledo.caballeros.red }}",
    "{{ view.regions.items() | list | length }}",  # the method, not a key
    "{{ shadowed.items is callable }}|{{ shadowed['items'] }}",  # a key named as a method
    "{{ shadowed.keys() | sort | join(',') }}",
    "{{ view.missing is defined }}|{{ view.king is defined }}",
    "{{ view.missing }}",  # undefined: empty, or an error with Jinja's own message
    "{{ view.missing.deeper }}",
    "{{ tagged.colour }}|{{ tagged.other }}",  # a dict subclass: its attribute first
    "{{ ordered.first }}",
    "{{ seat.score }}|{{ seat.court }}",
    "{{ word.upper() }}|{{ word.missing }}",
    "{{ view.__class__.__name__ }}",
    "{% for name, seen in view.regions.items() %}"
    "{{ name }}={{ seen.caballeros.get('red', 0) }};{% endfor %}",
    # What is escaped, and what is not: text, numbers, Markup, the unescaped blocks.
    "{{ html }}|{{ number }}|{{ flag }}|{{ share }}|{{ nothing }}|{{ word }}|{{ html|safe }}",
    "{{ html|e }}|{{ html ~ word }}|{{ '<b>' }}|{{ number + 1 }}|{{ [html] }}",
    "{% autoescape false %}{{ html }}{% endautoescape %}{{ html }}",
    "{% autoescape flag %}{{ html }}{% endautoescape %}",  # decided as it draws
    "{% macro cell(v) %}<td>{{ v }}</td>{% endmacro %}{{ cell(html) }}{{ cell(number) }}",
    "{% macro box() %}<p>{{ caller() }}</p>{% endmacro %}{% call box() %}{{ html }}{% endcall %}",
    "{% set kept %}{{ html }}{% endset %}{{ kept }}|{{ kept|length }}",
    "{{ _html_ }}",  # an object with __html__
]
CONTEXT = {
    "view": {"king": "toledo", "regions": {"toledo": {"caballeros": {"red": 3}}}},
    "shadowed": {"items": "a key", "keys": "another"},
    "tagged": Tagged(colour="a key", other="a key"),
    "ordered": OrderedDict(first="a key"),
    "seat": Seat(score=12, court=4),
    "word": Markup("<b>bold</b>"),
    "html": "<a href='x'>Tom & \"Jerry\"</a>",
    "number": 3,
    "flag": True,
    "share": 0.5,
    "nothing": None,
    "_html_": type("Safe", (), {"__html__": lambda self: "<i>safe</i>"})(),
}


def _drawn(env: jinja2.Environment, source: str) -> str:
    try:
        return env.from_string(source).render(CONTEXT)
    except jinja2.UndefinedError as error:
        return f"UndefinedError: {error}"


@pytest.mark.parametrize("undefined", [jinja2.Undefined, jinja2.StrictUndefined])
@pytest.mark.parametrize("source", SOURCES)
def test_ours_draws_what_jinjas_own_draws(source, undefined):
    ours = jinja.Environment(autoescape=True, undefined=undefined)
    jinjas = jinja2.Environment(autoescape=True, undefined=undefined)
    assert _drawn(ours, source) == _drawn(jinjas, source)


def test_ours_finalizes_as_jinjas_own_does():
    for undefined in (jinja2.Undefined, jinja2.ChainableUndefined):
        ours = jinja.Environment(autoescape=True, undefined=undefined, finalize=lambda v: v or "-")
        jinjas = jinja2.Environment(
            autoescape=True, undefined=undefined, finalize=lambda v: v or "-"
        )
        for source in SOURCES:
            assert _drawn(ours, source) == _drawn(jinjas, source)


WRAPPED = [
    "",
    "one line",
    "Castillo-Wertung: die Caballeros im Castillo werden auf die Regionen verteilt, "
    "und jede Region wird gewertet, auch die mit dem König.",
    "a paragraph\n\nand another, each wrapped apart from the other one at the width",
    "averyveryverylongwordthatcannotfitonalineofitsownatallbecauseitiswaytoolongreally x",
]


@pytest.mark.parametrize("text", WRAPPED)
@pytest.mark.parametrize(
    "call",
    [
        "{{ text | wordwrap(20) }}",
        '{{ text | wordwrap(45, wrapstring="\n" + " " * 34) }}',
        "{{ text | wordwrap(12, false, break_on_hyphens=false) }}",
        "{{ text | wordwrap }}",
    ],
)
def test_a_mail_wraps_as_jinja_does_and_each_text_once(text, call):
    ours = jinja.MailEnvironment()
    source = "{% set text = t %}" + call
    expected = jinja2.Environment().from_string(source).render(t=text)
    assert ours.from_string(source).render(t=text) == expected
    before = jinja._wrapped.cache_info().hits
    assert ours.from_string(source).render(t=text) == expected
    assert jinja._wrapped.cache_info().hits == before + 1


def test_a_plain_dicts_key_is_read_without_asking_for_an_attribute(monkeypatch):
    """What makes it cheaper: no AttributeError raised and caught for each key."""
    asked: list[str] = []
    original = jinja2.Environment.getattr

    def counted(self, obj, attribute):
        asked.append(attribute)
        return original(self, obj, attribute)

    monkeypatch.setattr(jinja2.Environment, "getattr", counted)
    assert jinja.Environment().from_string("{{ view.king }}").render(CONTEXT) == "toledo"
    assert asked == []
    assert jinja2.Environment().from_string("{{ view.king }}").render(CONTEXT) == "toledo"
    assert asked == ["king"]


def test_the_pages_the_board_and_the_mails_are_drawn_in_ours():
    from pbem.notify.compose import _environment
    from pbem.web.board import environment

    assert App.jinja_environment is jinja.FlaskEnvironment
    assert isinstance(environment(), jinja.Environment)
    assert isinstance(_environment(), jinja.Environment)
