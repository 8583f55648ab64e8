"""Header fields as the RFCs write them, for every mail composed here (`POLICY`).

Python's `email` policy folds a long header by its own rules, and (as of 3.11) gets two
kinds of field wrong:

- a field of ASCII tokens with no space to fold at (`List-Unsubscribe`'s `<URI>`s, a long
  `References`) is turned into RFC 2047 encoded words, which RFC 2369's readers (mail
  programs' unsubscribe buttons) and RFC 5322's (threading) do not decode;
- a subject mixing ASCII words and others is folded with a space left at a line's end
  before an encoded word (read back as two spaces), words cut between two encoded words
  with their space dropped, or a character's bytes split between two encoded words.

So those fields get header classes of their own, given to the policy's header factory: a
mail still sets each as one whole string (`mail["Subject"] = text`), and the policy folds
it with these classes' `fold`.

Parsing and folding fields was a third of composing a mail, and most fields repeat from
mail to mail: `kept` makes a field once, and `POLICY` keeps each field's folded lines.
"""

from __future__ import annotations

import base64
from email import policy as email_policy
from email.headerregistry import Address, BaseHeader, HeaderRegistry
from functools import lru_cache
from typing import Any

#: RFC 5322's line length a header should keep to, and RFC 2047's longest encoded word.
WIDTH = 78
LONGEST_WORD = 75
#: A word of ASCII written as it is only if it leaves room on a line beside a field's name.
LONGEST_PLAIN = 60
#: What an encoded word's Q form keeps as it is: RFC 2047 5(3), safe in any header.
_Q_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!*+-/")


#: Each control character (C0 and DEL) to a space, for `str.translate`.
_CONTROLS_TO_SPACES = {**{code: " " for code in range(0x20)}, 0x7F: " "}


def _one_line(value: str) -> str:
    """A field's value on one line: a line break or control character inside would end the
    header (or start another), so each becomes a space."""
    return value.translate(_CONTROLS_TO_SPACES)


def _fold_tokens(name: str, tokens: list[str], linesep: str) -> str:
    """`name: ` and `tokens` (each but the first starting with the space that parts it from
    the one before), a line broken only before such a space, so unfolding (removing the
    line breaks) gives back the value whole. The first token stays beside the name: a line
    break there would be read as a space the value starts with."""
    head = f"{name}: "
    lines = [head]
    for token in tokens:
        if lines[-1] != head and token.startswith(" ") and len(lines[-1]) + len(token) > WIDTH:
            lines.append("")
        lines[-1] += token
    return linesep.join(lines) + linesep


class VerbatimHeader(BaseHeader):
    """A field of ASCII tokens (`<id>`s, `<URI>`s, a list's name): written as given, folded
    only at its own spaces, never encoded."""

    max_count = 1

    @classmethod
    def parse(cls, value: str, kwds: dict[str, Any]) -> None:
        text = _one_line(str(value)).strip()
        if not text.isascii():
            raise ValueError(f"not ASCII, so not written as it is: {text!r}")
        kwds["decoded"] = text
        kwds["parse_tree"] = None

    def fold(self, *, policy: Any) -> str:
        words = str(self).split(" ")
        tokens = [words[0], *(" " + word for word in words[1:])]
        return _fold_tokens(self.name, tokens, policy.linesep)


class TextHeader(BaseHeader):
    """Words a person reads (a subject): its ASCII words as they are, from the first that
    is not ASCII on, RFC 2047 encoded words of whole characters; so every decoder gives
    back the text as set, each space where it was."""

    max_count = 1

    @classmethod
    def parse(cls, value: str, kwds: dict[str, Any]) -> None:
        kwds["decoded"] = _one_line(str(value))
        kwds["parse_tree"] = None

    def fold(self, *, policy: Any) -> str:
        return _fold_tokens(self.name, text_tokens(self.name, str(self)), policy.linesep)


def _plain(word: str) -> bool:
    # "=?" could be read as the start of an encoded word; a long word could not be folded.
    return (
        all(0x21 <= ord(c) <= 0x7E for c in word)
        and "=?" not in word
        and len(word) <= LONGEST_PLAIN
    )


def text_tokens(name: str, text: str) -> list[str]:
    """The tokens `_fold_tokens` writes `text` in: its first words that are plain ASCII,
    then the rest as encoded words (spaces between encoded words are not read, so they may
    part anywhere; the space before the first is read, and is the text's own)."""
    words = text.split(" ")
    count = 0
    while count < len(words) and _plain(words[count]):
        count += 1
    tokens = [words[0] if i == 0 else " " + words[i] for i in range(count)]
    rest = " ".join(words[count:])
    if count == len(words):
        return tokens
    # The first encoded word shares the name's line, or the line of the last plain word.
    line = len(name) + 2 + sum(len(t) for t in tokens)
    room = WIDTH - line - 1
    if room < 16 and tokens:
        room = WIDTH - 1
    for encoded in encoded_words(rest, room):
        tokens.append(" " + encoded if tokens else encoded)
    return tokens


def encoded_words(text: str, first_room: int) -> list[str]:
    """`text` as UTF-8 encoded words of whole characters, the first at most `first_room`
    long, the rest a line each; in Q or B, whichever is shorter."""
    data = text.encode()
    q_length = sum(1 if b in _Q_SAFE or b == 0x20 else 3 for b in data)
    b_length = (len(data) + 2) // 3 * 4
    kind = "q" if q_length <= b_length else "b"
    words: list[str] = []
    room = max(first_room, 16)
    chunk = ""
    for character in text:
        if len(_encoded(chunk + character, kind)) > min(room, LONGEST_WORD) and chunk:
            words.append(_encoded(chunk, kind))
            chunk, room = "", WIDTH - 1
        chunk += character
    words.append(_encoded(chunk, kind))
    return words


def _encoded(text: str, kind: str) -> str:
    data = text.encode()
    if kind == "b":
        return f"=?utf-8?b?{base64.b64encode(data).decode()}?="
    body = "".join("_" if b == 0x20 else chr(b) if b in _Q_SAFE else f"={b:02X}" for b in data)
    return f"=?utf-8?q?{body}?="


class _KeptClasses(HeaderRegistry):
    """The email package's registry, its classes kept: its `__getitem__` makes a new class
    (`type(...)`) for every header it is asked for, a dozen a mail; the same one serves."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type[BaseHeader]] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = super().__getitem__(name)
        return made

    def map_to_type(self, name: str, cls: type[BaseHeader]) -> None:
        super().map_to_type(name, cls)
        self._made.pop(name.lower(), None)


def _registry() -> HeaderRegistry:
    registry = _KeptClasses()
    for field in ("message-id", "in-reply-to", "references", "list-id", "list-unsubscribe"):
        registry.map_to_type(field, VerbatimHeader)
    registry.map_to_type("subject", TextHeader)
    return registry


class _KeptFolds(email_policy.EmailPolicy):
    """`policy.default`, each field's folded lines kept: the email package folds a field
    anew from its parse tree every time a mail is written, and most of a mail's fields are
    kept ones (`kept`) that every mail of a game or a recipient writes alike."""

    def fold(self, name: str, value: Any) -> str:
        if not isinstance(value, BaseHeader):
            folded: str = super().fold(name, value)
            return folded
        return _fold_kept(self, type(value), name, value)

    # Writing a mail clones its policy (`as_string` sets the line length): policies of the
    # same settings are the same policy to `_fold_kept`.
    def _settings(self) -> tuple[Any, ...]:
        return (
            type(self),
            self.linesep,
            self.max_line_length,
            self.utf8,
            self.refold_source,
            self.cte_type,
            self.header_factory,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _KeptFolds) and self._settings() == other._settings()

    def __hash__(self) -> int:
        return hash(self._settings())


@lru_cache(maxsize=8192)
def _fold_kept(
    policy: _KeptFolds, header_class: type[BaseHeader], name: str, value: BaseHeader
) -> str:
    """`value` (a field of `header_class`) folded as `policy` writes it. A field is a `str`:
    it is kept by its text, and the class beside it tells two classes' same text apart."""
    folded: str = email_policy.EmailPolicy.fold(policy, name, value)
    return folded


#: The policy every mail is composed (and written again) in: `policy.default`'s, with these
#: fields' classes. Not for reading mail: `TextHeader` takes its value as text, not as
#: encoded words.
POLICY = _KeptFolds(header_factory=_registry())


# Setting a field makes its header object, which parses the value (an address field is the
# email package's full RFC 5322 parser, 0.1 ms a field); the object is immutable, so one made
# for a value serves every mail that sets the same. Most of a mail's fields repeat: From,
# each recipient's To, each seat's Reply-To and thread, the game's List-Id, a second's Date.
@lru_cache(maxsize=8192)
def kept(name: str, value: str) -> BaseHeader:
    """The header field `name: value` as `POLICY` makes it, made once and kept."""
    made: BaseHeader = POLICY.header_factory(name, value)
    return made


@lru_cache(maxsize=8192)
def kept_address(name: str, display_name: str, addr_spec: str) -> BaseHeader:
    """An address field of one `Address(display_name, addr_spec)`, made once and kept."""
    made: BaseHeader = POLICY.header_factory(
        name, Address(display_name=display_name, addr_spec=addr_spec)
    )
    return made


__all__ = [
    "POLICY",
    "TextHeader",
    "VerbatimHeader",
    "encoded_words",
    "kept",
    "kept_address",
    "text_tokens",
]
