"""Move notation: one short line a person can read in a mail and type back.

Beside the rules, not inside them (python-chess keeps SAN apart the same way): the rules
only ever see move dicts; this module turns a dict into a line (`format_move`) and a line
back into a dict (`parse_move`, `parse_moves`).

A line is a verb and its fields, in the order of `NOTATION`: `place aragon`,
`move red seville>castillo`. Reading a line:

- case, accents, `-`/`_` and extra spaces are ignored; a name may be spelt with spaces
  (`old castile`), and regions, the Castillo, the court, the province and the action cards
  may be named in any language of `engine.names` (`place Altkastilien`,
  `move red Севилья>Кастильо`, `card Rauswurf`), or as `ALIASES` spells them;
- a language of `WRITTEN` has a line of its own, in its words, which its readers are shown
  (`format_move(move, "ru")`: `поставить Арагон`, `переместить красный Севилья>Кастильо`)
  and everyone's lines read: its verbs, and its colours and options besides the names;
- a verb, a card or a name may be cut short while it stays unambiguous (a verb of `WRITTEN`
  is read only in full, so that a line of table talk starting with `в` or `с` stays words);
  a card's
  abbreviation is read against the ids and the English names first, and only if it starts
  none of them against the other languages (`card dec` stays a decay card, never French
  Décompte);
- the verb and the card are settled against the player's legal moves: `p 9` is `power 9`
  in the power card phase, `card score` is the one scoring card face up;
- names on the board (regions, places, colours, scoreboards, options) must each name one
  thing whatever is legal now: `g` is refused (galicia or granada?) even when only
  granada is legal, since a player who meant galicia must hear why it is illegal rather
  than see granada played;
- a well-formed line that is not legal is still read, so `apply` names the rule it breaks.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

from engine import names as _names
from engine.board import Board
from engine.data import (
    CARD_STACKS,
    COURT,
    LOCATIONS,
    MOBILE_SCOREBOARDS,
    PLACES,
    PROVINCE,
    REGIONS,
)
from engine.moves import VERBS, IllegalMove, well_formed
from engine.observer import reveals_hidden
from engine.play import legal_moves, push
from engine.types import Move

#: A field's value in a line: a number or a name.
Value = int | str


#: How like a verb an unknown first word must be for a "did you mean": "powr" is "power",
#: but "thanks" is not "take" nor "hello" "allow" (those are words to the table).
VERB_CLOSE = 0.7


class NotationError(IllegalMove):
    """A line that cannot be read as one move. The message says what to write instead."""


# -- the grammar ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    field: str
    kind: str  # a key of _KINDS, or "number"
    optional: bool = False  # may be left out (the move then has no such field)
    default: int | None = None  # left out means this value


@dataclass(frozen=True)
class Notation:
    verbs: tuple[str, ...]  # the first is written; the others are read too
    slots: tuple[Slot, ...] = ()

    @property
    def verb(self) -> str:
        return self.verbs[0]


def _n(verbs: str | tuple[str, ...], *slots: Slot) -> Notation:
    return Notation((verbs,) if isinstance(verbs, str) else verbs, slots)


# Every move type's line. A test checks that every form in engine.moves.FORMS has one.
NOTATION: dict[str, Notation] = {
    "play_power_card": _n(("power", "play"), Slot("card", "number")),
    "take_caballeros": _n("take", Slot("count", "number")),
    "take_from_region": _n("take from", Slot("region", "region")),
    "choose_card": _n(("card", "choose"), Slot("card", "card"), Slot("stack", "number", True)),
    "place": _n("place", Slot("to", "place")),
    "skip_special": _n("skip"),
    "end_turn": _n(("done", "end turn")),
    "castillo_pick": _n(("castillo", "pick"), Slot("region", "region")),
    "do_special": _n(("special", "do")),
    "special_option": _n("option", Slot("option", "option")),
    "special_region": _n("region", Slot("region", "place")),
    "special_place": _n("send", Slot("to", "place")),
    "move_caballero": _n(
        "move", Slot("colour", "colour"), Slot("from", "place"), Slot("to", "place")
    ),
    "target": _n("target", Slot("player", "colour")),
    "remove_caballero": _n("remove", Slot("colour", "colour"), Slot("region", "region")),
    "move_scoreboard": _n("scoreboard", Slot("scoreboard", "scoreboard"), Slot("to", "place")),
    "move_king": _n("king", Slot("to", "region")),
    "move_grande": _n("grande", Slot("to", "region")),
    "return_power_card": _n(("return power", "return"), Slot("card", "number")),
    "return_caballero": _n("return", Slot("from", "location")),
    "end_special": _n(("stop", "end special")),
    "secret_pick": _n("pick", Slot("region", "region")),
    "allow": _n("allow"),
    "veto": _n("veto", Slot("from_step", "number", default=1)),
}
# Refusals name moves by `VERBS` (engine.moves, below the notation): the same words.
assert {t: n.verb for t, n in NOTATION.items()} == VERBS, "engine.moves.VERBS as NOTATION"


@dataclass(frozen=True)
class Written:
    """The notation in a language's own words: each move type's verbs (the first written,
    the others read too), and the special options' names. Regions, cards and colours are
    written by their names in `engine.names`; numbers and scoreboards (`8/4/0`) as they are."""

    verbs: dict[str, tuple[str, ...]]
    options: dict[str, str]
    #: Where a returned caballero comes from, when it is not a region, as a line names it.
    pools: dict[str, str]


#: The languages whose readers are shown the notation in their own words, and whose words
#: every line may use. Russian: a line of Latin verbs and ids in Cyrillic mail is hard to
#: read and to type on a Russian keyboard. The verbs are infinitives as Russian instructions
#: write them; the King and the Grande are moved by their names, as `king`/`grande` are.
WRITTEN: dict[str, Written] = {
    "ru": Written(
        verbs={
            "play_power_card": ("сила",),
            "take_caballeros": ("взять",),
            "take_from_region": ("взять из",),
            "choose_card": ("карта",),
            "place": ("поставить",),
            "skip_special": ("пропустить",),
            "end_turn": ("готово",),
            "castillo_pick": ("кастильо",),
            "do_special": ("действие",),
            "special_option": ("вариант",),
            "special_region": ("область",),
            "special_place": ("отправить",),
            "move_caballero": ("переместить",),
            "target": ("цель",),
            "remove_caballero": ("убрать",),
            "move_scoreboard": ("табло",),
            "move_king": ("король",),
            "move_grande": ("гранд",),
            "return_power_card": ("вернуть силу", "вернуть"),
            "return_caballero": ("вернуть",),
            "end_special": ("завершить",),
            "secret_pick": ("выбрать",),
            "allow": ("разрешить",),
            "veto": ("вето",),
        },
        options={"court_two": "два со двора", "own_region": "своя область"},
        pools={COURT: "двор", PROVINCE: "провинция"},
    ),
}
assert all(set(w.verbs) == set(NOTATION) for w in WRITTEN.values()), "a verb for every move"


def _verbs_of(type_: str) -> Iterator[tuple[str, bool, bool]]:
    """(verb, written by format_move in its language, may be cut short) for every verb a
    line of `type_` may start with: the English ones, then those of `WRITTEN`."""
    for rank, verb in enumerate(NOTATION[type_].verbs):
        yield verb, rank == 0, True
    for written in WRITTEN.values():
        for rank, verb in enumerate(written.verbs[type_]):
            yield verb, rank == 0, False


def verb_words() -> frozenset[str]:
    """The first word of every verb a line may start with, in every language it reads."""
    return frozenset(_words(v)[0] for t in NOTATION for v, _, _ in _verbs_of(t))


# Other spellings of the names, as data, read beside the names of `engine.names` in every
# language (`Altkastilien`, `Nuova Castiglia`): older, regional and short spellings, and the
# Castillo as a castle. Keys are written as a person would type them; reading drops accents
# and case and treats spaces, `-` and `_` alike.
ALIASES: dict[str, str] = {
    "galiza": "galicia",
    "basque": "basque_country",
    "euskadi": "basque_country",
    "баскония": "basque_country",
    "catalunya": "catalonia",
    "castilla vieja": "old_castile",
    "castiglia vecchia": "old_castile",
    "vecchia castiglia": "old_castile",
    "castilla nueva": "new_castile",
    "castiglia nuova": "new_castile",
    "valenza": "valencia",
    "castle": "castillo",
    "castello": "castillo",
    "château": "castillo",
    "замок": "castillo",
    "провинция": "province",
    "840": "8/4/0",
    "8 4 0": "8/4/0",
    "400": "4/0/0",
    "4 0 0": "4/0/0",
}

#: The names of `engine.names` a line may hold: the places' and the cards', and the court's
#: and the province's (where else a caballero may be).
_NAMED: tuple[dict[str, _names.Names], ...] = (
    _names.PLACE_NAMES,
    _names.CARD_NAMES,
    {where: _names.TERM_NAMES[where] for where in (COURT, PROVINCE)},
)
#: Articles a name in another language may start with and be read without (`card corte` is
#: La Corte, `card re` Il Re).
_ARTICLES = frozenset({"der", "die", "das", "le", "la", "les", "il", "lo", "el", "los", "las"})
#: Marks inside names that reading ignores: `Intrigant: vier eigene`, `Perte d'autorité`.
_NAME_MARKS = ":!?'’«»\"()."

# Kinds of names whose abbreviations must be unambiguous among all such names (see above);
# a card may be settled by what is face up.
_BOARD_KINDS = frozenset({"region", "place", "location", "colour", "scoreboard", "option"})
_KIND_WORDS = {
    "region": "a region",
    "place": "a region or the castillo",
    "location": "a place (court or a region)",
    "colour": "a colour in this game",
    "scoreboard": "a mobile scoreboard (8/4/0 or 4/0/0)",
    "option": "an option (court_two or own_region)",
    "card": "an action card",
}


def _canonical_names(kind: str, board: Board) -> tuple[str, ...]:
    if kind == "region":
        return REGIONS
    if kind == "place":
        return PLACES
    if kind == "location":
        return LOCATIONS
    if kind == "colour":
        return tuple(board.colours)
    if kind == "scoreboard":
        return tuple(MOBILE_SCOREBOARDS)
    if kind == "option":
        return ("court_two", "own_region")
    if kind == "card":
        return tuple(CARD_STACKS)
    raise ValueError(kind)


# -- writing -------------------------------------------------------------------------------


def format_move(move: Move, language: str = "en") -> str:
    """The line for `move`, e.g. `place aragon` or `move red seville>castillo`; in a
    language of `WRITTEN`, in its words (`поставить Арагон`), else in English.

    Raises IllegalMove if `move` is not a well-formed move.
    """
    move = well_formed(move)
    notation = NOTATION.get(move["type"])
    if notation is None:
        raise NotationError(f'The move type "{move["type"]}" has no notation yet.')
    written = WRITTEN.get(language)
    verb = notation.verb if written is None else written.verbs[move["type"]][0]
    if move["type"] == "move_caballero":  # the arrow reads as the move it is
        colour, origin, to = (
            _line_name(kind, move[field], language)  # type: ignore[literal-required]
            for kind, field in (("colour", "colour"), ("place", "from"), ("place", "to"))
        )
        return f"{verb} {colour} {origin}>{to}"
    words = [verb]
    for slot in notation.slots:
        if slot.field not in move:
            continue
        # The stack is written only for a card found in two stacks (score_chosen_region):
        # that alone tells two face-up cards apart.
        if (
            slot.field == "stack"
            and move["type"] == "choose_card"  # the one move with a stack
            and len(CARD_STACKS.get(move["card"], ())) < 2
        ):
            continue
        words.append(_line_name(slot.kind, move.get(slot.field), language))
    return " ".join(words)


def _line_name(kind: str, value: object, language: str) -> str:
    """A field's value as a line names it: as it is (an id, a number), or in a language of
    `WRITTEN` by its name there (a number and a scoreboard stay as they are)."""
    written = WRITTEN.get(language)
    if written is None:
        return str(value)
    if kind == "card":
        return _names.card_name(str(value), language)
    if kind == "colour":
        return _names.colour_name(str(value), language)
    if kind == "option":
        return written.options[str(value)]
    if kind in ("region", "place", "location") and value in _names.PLACE_NAMES:
        return _names.place_name(str(value), language)
    if kind == "location":
        return written.pools[str(value)]
    return str(value)  # a number, a scoreboard (8/4/0)


# -- reading -------------------------------------------------------------------------------


def _fold(text: str) -> str:
    """Lower case, no accents, `-`/`_`/spaces as one separator, arrows as spaces."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    for arrow in ("→", "->", ">", ","):
        text = text.replace(arrow, " ")
    return text.replace("-", " ").replace("_", " ")


def _words(text: str) -> list[str]:
    return _fold(text).split()


def _name_words(text: str) -> tuple[str, ...]:
    """A name's words as reading compares them: folded, the marks of `_NAME_MARKS` dropped."""
    text = _fold(text)
    for mark in _NAME_MARKS:
        text = text.replace(mark, " ")
    return tuple(text.split())


def _spelling_tiers() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Every (spelling, canonical name) besides the canonical names themselves, in two tiers:
    the English names and `ALIASES`, then the other languages' names (each also without a
    leading article)."""
    english = [(n.en, name) for table in _NAMED for name, n in table.items()]
    english += list(ALIASES.items())
    other: list[tuple[str, str]] = []
    for table in _NAMED:
        for name, n in table.items():
            for spelling in (n.in_language(language) for language in _names.LANGUAGES[1:]):
                other.append((spelling, name))
                words = _name_words(spelling)
                if len(words) > 1 and words[0] in _ARTICLES:
                    other.append((" ".join(words[1:]), name))
    return english, other


def _written_spellings(kind: str) -> list[tuple[str, str]]:
    """The names only the languages of `WRITTEN` read: the colours (in every language, `g`
    would be green or Gelb), the options, and where a caballero is returned from."""
    found: list[tuple[str, str]] = []
    for language, written in WRITTEN.items():
        if kind == "colour":
            found += [(n.in_language(language), c) for c, n in _names.COLOUR_NAMES.items()]
        elif kind == "option":
            found += [(name, option) for option, name in written.options.items()]
        elif kind == "location":
            found += [(name, pool) for pool, name in written.pools.items()]
    return found


def _vocabulary(kind: str, board: Board) -> tuple[dict[tuple[str, ...], str], ...]:
    """Spelling (as words) -> canonical name, for the names of one kind, in reading tiers."""
    return _spellings(kind, _canonical_names(kind, board))


@functools.lru_cache(maxsize=64)  # a handful of kinds and seatings: built once each
def _spellings(kind: str, names: tuple[str, ...]) -> tuple[dict[tuple[str, ...], str], ...]:
    """One table for a name on the board (every language alike: an abbreviation must name
    one thing in all of them); for a card, the ids and English names, then the others."""
    tiers: list[dict[tuple[str, ...], str]] = [{_name_words(name): name for name in names}]
    english, other = _spelling_tiers()
    for number, tier in enumerate((english, other + _written_spellings(kind))):
        if kind == "card" and number == 1:
            tiers.append({})
        for spelling, name in tier:
            if name in names:
                tiers[-1].setdefault(_name_words(spelling), name)
    return tuple(tiers)


def _resolve_name(words: list[str], kind: str, board: Board) -> set[str]:
    """The names `words` may mean, tier by tier: an exact spelling, else each word a prefix
    of its own."""
    wanted = _name_words(" ".join(words))
    if not wanted:
        return set()
    for table in _vocabulary(kind, board):
        exact = table.get(wanted)
        if exact is not None:
            return {exact}
        found = {
            name
            for spelling, name in table.items()
            if len(wanted) <= len(spelling)
            and all(s.startswith(w) for w, s in zip(wanted, spelling[: len(wanted)], strict=True))
        }
        if found:
            return found
    return set()


@dataclass
class _Reading:
    """One way to read a line: a move type, and the moves its fields may mean."""

    type: str
    exact_verb: bool  # every verb word written in full
    main_verb: bool  # the verb written by format_move, not another spelling
    moves: list[Move]


@dataclass
class _Miss:
    """Why one way to read a line failed; the most telling one is reported."""

    type: str
    exact_verb: bool
    ambiguous: bool
    message: str  # a clause, as it follows `In "<line>", ` (see _read_slots)


def _splits(words: list[str], slots: tuple[Slot, ...]) -> Iterator[list[list[str]]]:
    """Every way to share `words` out to the first n slots (names may take several words;
    a number takes one), n running over the counts the slots allow."""
    required = sum(1 for s in slots if not s.optional and s.default is None)
    for n in range(required, len(slots) + 1):
        if n == 0:
            if not words:
                yield []
            continue
        if len(words) < n:
            continue
        for cuts in itertools.combinations(range(1, len(words)), n - 1):
            bounds = (0, *cuts, len(words))
            groups = [words[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
            if all(len(g) == 1 for g, s in zip(groups, slots, strict=False) if s.kind == "number"):
                yield groups


def _read_slots(
    type_: str, words: list[str], board: Board
) -> tuple[list[Move], list[tuple[bool, str]]]:
    """The moves `words` (the line after its verb) may mean as a move of `type_`, and the
    reasons (ambiguous?, clause) for the ways that failed: each clause as it follows
    `In "<line>", ` in a refusal (so starting in lower case)."""
    notation = NOTATION[type_]
    moves: list[Move] = []
    misses: list[tuple[bool, str]] = []
    for groups in _splits(words, notation.slots):
        choices: list[list[tuple[str, Value]]] = []
        for slot, group in zip(notation.slots, groups, strict=False):
            text = " ".join(group)
            if slot.kind == "number":
                # A line typed as a sentence may end in its stop: `power 9.`
                digits = group[0].rstrip(".!")
                if not digits.isdigit():
                    misses.append((False, f'"{text}" is not a number.'))
                    break
                choices.append([(slot.field, int(digits))])
                continue
            names = _resolve_name(group, slot.kind, board)
            if not names:
                misses.append((False, f'"{text}" is not {_KIND_WORDS[slot.kind]}.'))
                break
            if len(names) > 1 and slot.kind in _BOARD_KINDS:
                misses.append(
                    (True, f'"{text}" could be {_or(sorted(names))}: write more of the name.')
                )
                break
            choices.append([(slot.field, name) for name in sorted(names)])
        else:
            for slot in notation.slots[len(groups) :]:
                if slot.default is not None:
                    choices.append([(slot.field, slot.default)])
            for fields in itertools.product(*choices):
                moves.append(_spelt(type_, dict(fields)))
    if not moves and not misses:
        misses.append((False, f'a "{notation.verb}" line is written like "{_example(type_)}".'))
    return moves, misses


def _readings(words: list[str], board: Board) -> tuple[list[_Reading], list[_Miss]]:
    readings: list[_Reading] = []
    misses: list[_Miss] = []
    for type_ in NOTATION:
        for verb, main, may_cut in _verbs_of(type_):
            verb_words = _words(verb)
            head = words[: len(verb_words)]
            exact = head == verb_words
            if not exact and (
                not may_cut
                or len(head) < len(verb_words)
                or not all(v.startswith(w) for w, v in zip(head, verb_words, strict=True))
            ):
                continue
            moves, slot_misses = _read_slots(type_, words[len(verb_words) :], board)
            if moves:
                readings.append(_Reading(type_, exact, main, moves))
            misses.extend(_Miss(type_, exact, amb, text) for amb, text in slot_misses)
    return readings, misses


def _spelt(type_: str, fields: dict[str, Value]) -> Move:
    """The move a line spells: `type_` with the fields its notation's slots read."""
    # NOTATION's slots are the form's fields, a number slot an int field and a name slot a
    # str one (tests/engine/test_notation.py, test_types.py): a checker cannot follow that.
    return cast(Move, {"type": type_, **fields})


def _key(move: Move) -> tuple[tuple[str, object], ...]:
    return tuple(sorted(move.items()))


def _matches(move: Move, legal: Move) -> bool:
    """Whether `legal` is `move` with, at most, fields left out of `move` filled in."""
    return all(legal.get(name) == value for name, value in move.items())


def parse_move(text: str, state: Board, player: str) -> Move:
    """Read one move of `player`'s, such as `place arag`, against the game `state`.

    Returns the legal move the line names, or, for a well-formed line that names no legal
    move, the move it spells (so `engine.apply` says which rule it breaks). Raises
    NotationError, with the candidates or a "did you mean", for a line that names no move
    or more than one.
    """
    if any(sep in text for sep in (";", "\n")):
        raise NotationError(f'"{text.strip()}" holds several moves: send them one at a time.')
    words = _words(text)
    if not words:
        raise NotationError("An empty line is not a move.")
    legal = legal_moves(state, player)
    readings, misses = _readings(words, state)
    # A verb written in full beats a longer one it starts: `do` is do_special, not done.
    if any(r.exact_verb for r in readings):
        readings = [r for r in readings if r.exact_verb]

    # A legal move the line names, if just one.
    found: dict[tuple[tuple[str, object], ...], Move] = {}
    for reading in readings:
        for move in reading.moves:
            for candidate in legal:
                if candidate["type"] == move["type"] and _matches(move, candidate):
                    found[_key(candidate)] = candidate
    if len(found) == 1:
        return next(iter(found.values()))
    if len(found) > 1:
        lines = sorted(format_move(m) for m in found.values())
        raise NotationError(f'"{text.strip()}" could be {_or(lines, quote=True)}.')

    # Else what the line spells, preferring a move type the player may make now, then a
    # verb written in full, then the verb format_move writes.
    legal_types: set[str] = {m["type"] for m in legal}
    if readings:

        def rank(r: _Reading) -> tuple[bool, bool, bool]:
            return (r.type in legal_types, r.exact_verb, r.main_verb)

        best = max(rank(r) for r in readings)
        spelt = {_key(m): m for r in readings if rank(r) == best for m in r.moves}
        if len(spelt) == 1:
            return next(iter(spelt.values()))
        lines = sorted(format_move(m) for m in spelt.values())
        shown = lines if len(lines) <= 8 else [*lines[:8], "..."]
        raise NotationError(
            f'"{text.strip()}" could be {_or(shown, quote=True)}: write more of it.'
        )
    raise NotationError(_not_understood(text.strip(), words, misses, legal, legal_types))


def _not_understood(
    text: str, words: list[str], misses: list[_Miss], legal: list[Move], legal_types: set[str]
) -> str:
    if misses:
        miss = max(misses, key=lambda m: (m.ambiguous, m.type in legal_types, m.exact_verb))
        sentence = f'In "{text}", {miss.message}'
    else:
        verbs = sorted({v.split()[0] for n in NOTATION.values() for v in n.verbs})
        close = difflib.get_close_matches(words[0], sorted(verb_words()), n=3, cutoff=VERB_CLOSE)
        hint = (
            f"did you mean {_or(close, quote=True)}?"
            if close
            else f"a move starts with {', '.join(verbs)}"
        )
        sentence = f'In "{text}", "{words[0]}" is not a move ({hint}).'
    # What to write instead, as a sentence of its own after the first.
    shown = {_fold(format_move(m)): format_move(m) for m in legal}
    close = difflib.get_close_matches(" ".join(words), list(shown), n=3, cutoff=0.6)
    if close:
        more = f" Did you mean {_or([shown[c] for c in close], quote=True)}?"
    elif legal and len(legal) <= 12:
        more = f" You may: {', '.join(format_move(m) for m in legal)}."
    else:
        more = ""
    return sentence + more


def reads_as_words(text: str, state: Board, player: str) -> bool:
    """Whether a line is ordinary writing ("Good luck everyone!") rather than a move: its
    first word begins no move's verb and is close to none, and the line is close to no legal
    move. A line a "did you mean" would answer is a move mistyped, never words."""
    words = _words(text)
    if not words or text.strip().startswith(("#", ">")):
        return False
    readings, misses = _readings(words, state)
    if readings or misses:
        return False
    if difflib.get_close_matches(words[0], sorted(verb_words()), n=1, cutoff=VERB_CLOSE):
        return False
    shown = [_fold(format_move(m)) for m in legal_moves(state, player)]
    return not difflib.get_close_matches(" ".join(words), shown, n=1, cutoff=0.6)


def parse_moves(text: str, state: Board, player: str) -> list[Move]:
    """Read several moves of `player`'s: one per line and/or separated by `;`.

    Each move is read against the game as the moves before it leave it (played on a copy;
    `state` is not changed). Blank lines, lines starting with `#` (a comment) or `>` (a
    quoted line of a mail) and anything after a `#` are skipped. Raises NotationError for a
    line it cannot read, IllegalMove for a move the rules refuse; both name the line.
    After a move that uncovers hidden information (new action cards, secret picks), an
    error says only that, so a refused batch cannot be used to peek.
    """
    moves: list[Move] = []
    board = state
    revealed = False
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith(("#", ">")):
            continue
        for part in line.split("#", 1)[0].split(";"):
            if not part.strip():
                continue
            where = f'Line {number} ("{part.strip()}")'
            try:
                move = parse_move(part, board, player)
                after = board.copy_for_push()  # as engine.apply plays it
                events = push(after, player, move)
                board = after
            except IllegalMove as error:
                kind = NotationError if isinstance(error, NotationError) else IllegalMove
                if revealed:
                    raise kind(
                        f"{where} could not be played: it comes after a move that reveals "
                        "new information, so send it once that move has been played."
                    ) from None
                raise kind(f"{where}: {error.message}") from None
            revealed = revealed or reveals_hidden(events)
            moves.append(move)
    return moves


# -- sentences -----------------------------------------------------------------------------


def _or(items: list[str], quote: bool = False) -> str:
    items = [f'"{i}"' if quote and i != "..." else i for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


_EXAMPLES: dict[str, dict[str, Value]] = {
    "play_power_card": {"card": 9},
    "take_caballeros": {"count": 3},
    "take_from_region": {"region": "aragon"},
    "choose_card": {"card": "king"},
    "place": {"to": "aragon"},
    "castillo_pick": {"region": "valencia"},
    "special_option": {"option": "court_two"},
    "special_region": {"region": "aragon"},
    "special_place": {"to": "castillo"},
    "move_caballero": {"colour": "red", "from": "seville", "to": "castillo"},
    "target": {"player": "blue"},
    "remove_caballero": {"colour": "blue", "region": "aragon"},
    "move_scoreboard": {"scoreboard": "8/4/0", "to": "aragon"},
    "move_king": {"to": "aragon"},
    "move_grande": {"to": "aragon"},
    "return_power_card": {"card": 9},
    "return_caballero": {"from": "court"},
    "secret_pick": {"region": "valencia"},
    "veto": {"from_step": 2},
}


def example(type_: str) -> Move:
    """A move of type `type_` as the notation's examples write it (`king aragon`)."""
    return _spelt(type_, _EXAMPLES.get(type_, {}))


def _example(type_: str) -> str:
    return format_move(example(type_))


__all__ = [
    "ALIASES",
    "NOTATION",
    "WRITTEN",
    "NotationError",
    "example",
    "format_move",
    "parse_move",
    "parse_moves",
    "reads_as_words",
    "verb_words",
]
