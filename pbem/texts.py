"""Text people type, as it may be kept and shown: `kept_text`, the one check every door where
a name or a title enters goes through (a player's name on `/me`, at sign-up and through the
API, a seat's name given by its organiser, a game's title on the form and through the API,
`pbem players add`, `pbem import`), and `isolated`, how a line of table talk (kept as it was
written) is carried in a mail's text so that it cannot turn the text after it around.

A name or a title is shown in others' mails and pages, beside words it did not write: it is
refused, changing nothing, when it holds

- a control character: C0 (NUL, TAB, LF, CR, ESC ...), DEL, C1, a line or paragraph
  separator, a lone surrogate (PostgreSQL refuses NUL; the rest break a mail's header or
  line, or show nothing);
- a character of direction: the embeddings and overrides U+202A-U+202E, the isolates
  U+2066-U+2069, and the marks U+200E, U+200F and U+061C too (a mark reverses nothing, but
  moves the signs beside it, such as the colour in brackets after a name in a text mail,
  and no name needs one: a name in Arabic or Hebrew is written right to left by its letters);
- or nothing to read: only spaces, format characters (zero-width spaces and joiners),
  combining marks with nothing to sit on, and letters drawn blank (`invisible`).

Table talk keeps what its writer wrote, direction characters and all (`pbem.play.talk`
refuses only controls and invisible messages): the pages isolate it (`dir="auto"`,
`<bdi>`), and a mail's text part writes each line that holds such characters with
`isolated`.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from pbem.errors import Invalid
from pbem.languages import N_

#: What a text typed is, for the sentence that refuses it.
Kind = Literal["name", "title"]
#: What is wrong with a text, if anything.
Fault = Literal["control", "direction", "invisible"]

#: Letters that are drawn as nothing although Unicode calls them letters or symbols
#: (Hangul fillers, the blank Braille pattern): favourites for posting a blank message.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Unicode's categories of what is drawn as nothing on its own.
_INVISIBLE = frozenset(("Cc", "Cf", "Cs", "Zs", "Zl", "Zp", "Mn", "Me"))
#: Controls (C0, DEL, C1), line and paragraph separators, lone surrogates.
_CONTROL_CATEGORIES = frozenset(("Cc", "Zl", "Zp", "Cs"))
#: The embeddings and overrides, closed by U+202C POP DIRECTIONAL FORMATTING.
_EMBEDDINGS = frozenset("\u202a\u202b\u202d\u202e")
_POP_FORMATTING = "\u202c"
#: The isolates, closed by U+2069 POP DIRECTIONAL ISOLATE.
_ISOLATES = frozenset("\u2066\u2067\u2068")
_POP_ISOLATE = "\u2069"
FIRST_STRONG_ISOLATE = "\u2068"
#: LEFT-TO-RIGHT MARK, RIGHT-TO-LEFT MARK, ARABIC LETTER MARK.
_MARKS = frozenset("\u200e\u200f\u061c")
#: Every character of direction a name may not hold.
DIRECTION_CHARACTERS = _EMBEDDINGS | _ISOLATES | _MARKS | {_POP_FORMATTING, _POP_ISOLATE}

#: The characters `kept_text` refuses, as a regular expression's class (Python's and
#: JSON Schema's alike), for the API's spec: the controls and the characters of direction.
REFUSED_CLASS = r"\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
#: Spaces and the invisible characters met most often: a text of only these shows nothing.
#: (Not all of them: combining marks alone, for one, are refused by `kept_text` only.)
_USUAL_INVISIBLE = (
    r"\s\u00ad\u034f\u115f\u1160\u180e\u200b-\u200d\u2060-\u2064\u2800\u3164\ufeff\uffa0"
)
#: `kept_text`'s rule as far as a pattern can say it: no refused character, and at least one
#: that is not a space or a usual invisible one.
PATTERN = rf"^[^{REFUSED_CLASS}]*[^{REFUSED_CLASS}{_USUAL_INVISIBLE}][^{REFUSED_CLASS}]*$"


def invisible(text: str) -> bool:
    """Whether `text` shows nothing: only whitespace, format characters (zero-width spaces
    and joiners, direction marks), controls, combining marks with nothing to sit on, and
    blank letters. The one rule for every door, table talk's too. (Unassigned code points
    may be an emoji newer than this Python's tables, and private ones a font's icon: not
    refused.)"""
    return all(c in _BLANK_LETTERS or unicodedata.category(c) in _INVISIBLE for c in text)


def fault(text: str) -> Fault | None:
    """What keeps `text` from being a name or a title, or None; an empty text has none (a
    door says whether it may be empty)."""
    if any(unicodedata.category(c) in _CONTROL_CATEGORIES for c in text):
        return "control"
    if any(c in DIRECTION_CHARACTERS for c in text):
        return "direction"
    if text and invisible(text):
        return "invisible"
    return None


def kept_text(typed: str, kind: Kind) -> str:
    """The name or title to keep for what a person typed: stripped of the blank around it,
    and otherwise as typed. Raises Invalid, saying what to mend, for a control character,
    a character of direction or a text that shows nothing. An empty text comes back empty:
    whether it may be is the door's to say. Idempotent."""
    text = typed.strip()
    found = fault(text)
    if found is None:
        return text
    raise _title_refusal(found) if kind == "title" else _name_refusal(found)


def _name_refusal(found: Fault) -> Invalid:
    if found == "control":
        return Invalid(
            N_(
                "This name holds a control character (a line break, a tab, NUL or another "
                "that shows nothing): write it on one line, in letters, digits and signs."
            ),
            code="name-control-characters",
        )
    if found == "direction":
        return Invalid(
            N_(
                "This name holds a character that changes the direction of writing (such as "
                "U+202E, which turns the text after it around): write it without one; a name "
                "in a right-to-left script needs none."
            ),
            code="name-direction-characters",
        )
    return Invalid(
        N_(
            "This name shows nothing (only spaces or invisible characters such as zero-width "
            "spaces): give one the other players can read."
        ),
        code="name-invisible",
    )


def _title_refusal(found: Fault) -> Invalid:
    if found == "control":
        return Invalid(
            N_(
                "This title holds a control character (a line break, a tab, NUL or another "
                "that shows nothing): write it on one line, in letters, digits and signs."
            ),
            code="title-control-characters",
        )
    if found == "direction":
        return Invalid(
            N_(
                "This title holds a character that changes the direction of writing (such as "
                "U+202E, which turns the text after it around): write it without one; a title "
                "in a right-to-left script needs none."
            ),
            code="title-direction-characters",
        )
    return Invalid(
        N_(
            "This title shows nothing (only spaces or invisible characters such as zero-width "
            "spaces): give one the players can read."
        ),
        code="title-invisible",
    )


def isolated(text: str) -> str:
    """`text` as a plain-text mail carries it: unchanged if it holds no character of
    direction; else each of its lines closed and isolated, so that what it opened cannot
    reach the text after it: the embeddings, overrides and isolates the line left open are
    closed (U+202C, U+2069) and the line is wrapped in U+2068 FIRST STRONG ISOLATE ... U+2069
    (its own direction from its first strong letter, and none of it leaking out). What the
    writer wrote is all there, in its order."""
    if not any(c in DIRECTION_CHARACTERS for c in text):
        return text
    return "\n".join(_isolated_line(line) for line in text.split("\n"))


def _isolated_line(line: str) -> str:
    if not any(c in DIRECTION_CHARACTERS for c in line):
        return line
    # The line's stack as the bidi algorithm keeps it (UAX #9, X1-X8): an isolate's pop
    # closes everything opened after its isolate; a formatting pop, only an embedding or
    # override opened after the last open isolate. An isolate's pop with no isolate of the
    # line open would close the one around the line: each such gets an isolate more there.
    opened: list[str] = []
    stray = 0
    for c in line:
        if c in _EMBEDDINGS or c in _ISOLATES:
            opened.append(c)
        elif c == _POP_ISOLATE:
            if any(o in _ISOLATES for o in opened):
                while opened.pop() not in _ISOLATES:
                    pass
            else:
                opened.clear()
                stray += 1
        elif c == _POP_FORMATTING and opened and opened[-1] in _EMBEDDINGS:
            opened.pop()
    closers = "".join(_POP_ISOLATE if o in _ISOLATES else _POP_FORMATTING for o in reversed(opened))
    return f"{FIRST_STRONG_ISOLATE * (stray + 1)}{line}{closers}{_POP_ISOLATE}"
