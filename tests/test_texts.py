"""`pbem.texts`: the one rule for names and titles people type, the pattern the API's spec
carries for it, and how a line of table talk is isolated in a mail's text."""

from __future__ import annotations

import re

import pytest

from pbem.errors import Invalid
from pbem.texts import PATTERN, fault, isolated, kept_text

#: LRE RLE PDF LRO RLO, LRI RLI FSI PDI, and the marks LRM RLM ALM.
DIRECTION = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        *((f"Ann{c}Lee", "control") for c in "\x00\t\n\r\x1b\x7f\x85\x9f\u2028\u2029"),
        *((f"Ann{c}Lee", "direction") for c in DIRECTION),
        ("\u200b\u2060", "invisible"),
        ("\u3164\u2800", "invisible"),  # a Hangul filler, the blank Braille pattern
        ("\u0301\u0301", "invisible"),  # combining marks with nothing to sit on
        ("\u180e\ufeff", "invisible"),  # format characters that Python's strip keeps
    ],
)
def test_what_a_name_may_not_hold(typed, found):
    assert fault(typed) == found
    with pytest.raises(Invalid) as refused:
        kept_text(typed, "name")
    assert refused.value.code == f"name-{found}" + ("-characters" if found != "invisible" else "")
    with pytest.raises(Invalid) as refused:
        kept_text(typed, "title")
    assert refused.value.code.startswith("title-")


@pytest.mark.parametrize(
    "name",
    ["Ann", "Zoë", "سارة", "שרה", "Иван Петров", "李娜", "👩‍👩‍👧 family", "O'Brien", "a\u200bb"],
)
def test_names_of_every_script_are_kept_as_typed_but_for_the_blank_around(name):
    assert kept_text(f"  {name}\n", "name") == name
    assert kept_text(name, "name") == name  # kept once, kept again the same
    assert re.match(PATTERN, name), "the spec's pattern takes what the rule keeps"


def test_the_spec_pattern_refuses_only_what_the_rule_refuses():
    for text in ["a\x00", "a\u202eb", " ", "\u200b\u2060", "\t"]:
        assert not re.match(PATTERN, text)
        assert text.strip() == "" or fault(text.strip()) is not None


def test_an_empty_text_is_the_doors_to_refuse():
    assert kept_text("   ", "title") == "" and fault("") is None


def test_a_line_without_characters_of_direction_is_carried_as_it_is():
    assert isolated("gg, well played") == "gg, well played"
    assert isolated("שלום לכולם") == "שלום לכולם"  # right-to-left letters need nothing


def test_a_line_that_opens_an_override_is_closed_and_isolated():
    assert isolated("I \u202eniw") == "\u2068I \u202eniw\u202c\u2069"
    assert isolated("\u2066quoted") == "\u2068\u2066quoted\u2069\u2069"
    # Closed in the order opened: an override inside an isolate, the isolate last.
    assert isolated("\u2067a\u202eb") == "\u2068\u2067a\u202eb\u202c\u2069\u2069"


def test_what_the_line_closed_itself_is_not_closed_twice():
    assert isolated("a\u202eb\u202c c") == "\u2068a\u202eb\u202c c\u2069"
    assert isolated("\u2066a\u2069 b") == "\u2068\u2066a\u2069 b\u2069"


def test_a_stray_pop_cannot_close_the_isolate_around_the_line():
    # The line's own U+2069 would close the isolate put around it: it gets one more.
    assert isolated("\u2069\u202eevil") == "\u2068\u2068\u2069\u202eevil\u202c\u2069"


def test_each_line_of_a_message_is_isolated_on_its_own():
    assert isolated("one \u202eowt\nthree") == "\u2068one \u202eowt\u202c\u2069\nthree"


def _unbalanced(text: str) -> bool:
    """Whether anything the text opens is still open at its end (UAX #9's stack, simplified:
    the embeddings and isolates opened, popped by their closers)."""
    depth = 0
    for c in text:
        if c in "\u202a\u202b\u202d\u202e\u2066\u2067\u2068":
            depth += 1
        elif c in "\u202c\u2069" and depth:
            depth -= 1
    return depth > 0


@pytest.mark.parametrize(
    "line",
    ["\u202e", "\u202e\u202e\u2066", "\u2069\u2069\u202b", "x\u202cy\u2067z", "\u2066\u202c"],
)
def test_whatever_a_line_opens_it_closes(line):
    carried = isolated(line)
    assert carried.replace("\u2068", "").replace("\u2069", "").replace("\u202c", "") == (
        line.replace("\u2068", "").replace("\u2069", "").replace("\u202c", "")
    ), "every character written is carried, in its order"
    assert line in carried
    assert not _unbalanced(carried)
