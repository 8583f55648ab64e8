"""Moves in words, in the reader's language: for the page's buttons, log and plan, the
story and the answers, each said as what it does under the card that asks it
(`card_moves`); and for the mails, which list each legal move in the notation with what it
does beside it (`move_lines`), and whose help gives each line of the notation beside what it
does. Beside the engine's notation (`notation_line`, what players write), never instead of
it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import engine
from engine import names
from engine.notation import NOTATION, example
from pbem.languages import N_, _, current_language, ngettext
from pbem.words.card_moves import SPECIAL_KINDS, cards_of, hidden_under, under_card
from pbem.words.names import SECRET_MOVES, card_title, colour_name, place_name, secret_move


def term(key: str) -> str:
    return names.term(key, current_language())


def _place(move: Mapping[str, Any], field: str) -> str:
    return place_name(str(move[field])) if field in move else "?"


def describe_move(move: Mapping[str, Any], own: bool = True, card: str | None = None) -> str:
    """A move in plain words for a button (`own`: the mover's, "your grande"; else as the
    log says it of whoever made it), as what it does under `card`, the action card whose
    special action it belongs to (`card_moves.cards_of`, `card_moves.card_in_play`). A move
    shown without its fields reads as its kind alone."""
    kind = str(move.get("type", ""))
    fields = set(move) - {"type"}
    said = under_card(move, card, own)
    if said is not None:
        return said
    if not fields:
        said = hidden_under(kind, card) or (
            _(_BARE[kind]) if kind in _BARE else kind.replace("_", " ")
        )
    elif kind == "move_grande" and not own:
        said = _("move the grande to %(place)s", place=_place(move, "to"))
    elif kind == "castillo_pick" and not own:
        said = _("send their Castillo caballeros to %(place)s", place=_place(move, "region"))
    elif kind in _WORDS:
        said = _WORDS[kind](move)
    else:
        extra = ", ".join(f"{k} {move[k]}" for k in sorted(fields))
        said = f"{kind.replace('_', ' ')} ({extra})"
    return said


def _card(move: Mapping[str, Any]) -> str:
    card = card_title(str(move["card"]))
    if "stack" in move:
        said: str = _("choose %(card)s (stack %(stack)s)", card=card, stack=move["stack"])
    else:
        said = _("choose %(card)s", card=card)
    return said


def _returned(move: Mapping[str, Any]) -> str:
    if move["from"] == "court":
        said: str = _("send a caballero from court back to the province")
        return said
    return _("send a caballero from %(place)s back to the province", place=_place(move, "from"))


def _colour(move: Mapping[str, Any]) -> str:
    return colour_name(str(move["colour"]))


def _moved(move: Mapping[str, Any]) -> str:
    if move["from"] == move["to"]:  # the intrigue that empties a region may put some back
        said: str = _("put a caballero back in %(place)s", place=_place(move, "to"))
        return said
    return _(
        "move %(colour)s from %(source)s to %(place)s",
        colour=_colour(move),
        source=_place(move, "from"),
        place=_place(move, "to"),
    )


#: The moves said in one sentence of their fields.
_WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "play_power_card": lambda m: _("power card %(card)s", card=m["card"]),
    "take_caballeros": lambda m: ngettext(
        "take %(num)d caballero to court", "take %(num)d caballeros to court", m["count"]
    ),
    "choose_card": _card,
    "take_from_region": lambda m: _("take one from %(place)s", place=_place(m, "region")),
    "place": lambda m: _("place in %(place)s", place=_place(m, "to")),
    # Not "place in": this one begins the special action, which ends the placing.
    "special_place": lambda m: _(
        "special action: one more from court to %(place)s", place=_place(m, "to")
    ),
    "castillo_pick": lambda m: _(
        "send your Castillo caballeros to %(place)s", place=_place(m, "region")
    ),
    "secret_pick": lambda m: _("secret disk: %(place)s", place=_place(m, "region")),
    # What naming a region does is its card's (`card_moves`): said so when it is not known.
    "special_region": lambda m: _(
        "name %(place)s for the special action", place=_place(m, "region")
    ),
    "special_option": lambda m: _option(str(m["option"])),
    "move_caballero": _moved,
    # Whom the card hits next, in the order its player chooses (one colour of two, in the
    # two-colour variant).
    "target": lambda m: _("hit %(colour)s next", colour=colour_name(str(m["player"]))),
    "remove_caballero": lambda m: _(
        "send a caballero of %(colour)s from %(place)s back to the province",
        colour=_colour(m),
        place=_place(m, "region"),
    ),
    "move_scoreboard": lambda m: _(
        "move the %(scoreboard)s scoreboard to %(place)s",
        scoreboard=m["scoreboard"],
        place=_place(m, "to"),
    ),
    "move_king": lambda m: _("move the king to %(place)s", place=_place(m, "to")),
    "move_grande": lambda m: _("move your grande to %(place)s", place=_place(m, "to")),
    "return_power_card": lambda m: _("take back power card %(card)s", card=m["card"]),
    "return_caballero": _returned,
    "veto": lambda m: _("veto from step %(step)s", step=m["from_step"]),
}

#: The options a special action offers (`special_option`), in words.
_OPTIONS = {
    "court_two": N_("choose: 2 more caballeros from your court, anywhere"),
    "own_region": N_("choose: empty one region of yours and spread them"),
}


def _option(option: str) -> str:
    return _(_OPTIONS[option]) if option in _OPTIONS else option.replace("_", " ")


_BARE = {
    "do_special": N_("do the special action"),
    "skip_special": N_("skip the special action"),
    "end_special": N_("end the special action"),
    "end_turn": N_("end turn"),
    "allow": N_("allow"),
    **SECRET_MOVES,
}


def notation_line(move: engine.Move) -> str:
    """A move in the notation as its reader writes it: in their own words where the notation
    has them (`engine.notation.WRITTEN`: Russian), else in English. Every line reads in every
    language, so a reader may answer in either."""
    return engine.format_move(move, current_language())


#: The mail door's commands (`pbem.mailin.reading.COMMAND_WORDS`) and the standing Veto
#: answers (`veto allow`, `veto ask`), in the words of each language whose readers are shown
#: the notation in their own (`engine.notation.WRITTEN`); the door reads them from everyone.
#: Russian `стоп` is only ever the command: the move ending an "up to" card is `завершить`.
COMMANDS_WRITTEN: dict[str, dict[str, str]] = {
    "ru": {
        "moves": "ходы",
        "board": "доска",
        "log": "журнал",
        "away": "отъезд",
        "back": "снова",
        "bot": "бот",
        "key": "ключ",
        "stop": "стоп",
        "help": "помощь",
        "plan": "план",
        "veto": "вето",
        "language": "язык",
        "mute": "скрыть",
        "unmute": "показать",
        "report": "жалоба",
        "hint": "подсказка",
        "allow": "разрешить",
        "ask": "спрашивать",
    }
}


def command(words: str) -> str:
    """A mail command (`veto allow`) as its reader writes it: in Russian `вето разрешить`."""
    spelt = COMMANDS_WRITTEN.get(current_language(), {})
    return " ".join(spelt.get(word, word) for word in words.split())


def help_examples() -> tuple[str, str]:
    """The help's examples of an answer: one move, and a turn's first moves on one line."""
    turn: list[engine.Move] = [
        {"type": "take_caballeros", "count": 3},
        {"type": "choose_card", "card": "king", "stack": 5},
        {"type": "place", "to": "aragon"},
    ]
    return notation_line({"type": "play_power_card", "card": 9}), "; ".join(
        notation_line(move) for move in turn
    )


def notation_help() -> list[tuple[str, str]]:
    """Each line of the notation, by an example, beside what it does in words: for help."""
    lines = []
    for move_type in NOTATION:
        move = example(move_type)
        lines.append((notation_line(move), describe_move(move)))
    return lines


def move_text(move: Mapping[str, Any], card: str | None = None) -> str:
    """A move in words, as the buttons show it: what it does under `card`, the action card
    in play (`card_moves.card_in_play`)."""
    return describe_move(move, card=card)


def log_text(move: Mapping[str, Any], card: str | None = None) -> str:
    """A logged move in words, as the buttons say it but of whoever made it (`card`: the
    one it answered, `card_moves.cards_of`)."""
    return describe_move(move, own=False, card=card)


def moves_text(moves: Sequence[Mapping[str, Any]], card: str | None) -> list[str]:
    """Moves played one after another from where `card` is in play (a planned turn, a
    batch), each in words; a card chosen among them is the card of the moves after it."""
    entries = [{"move": move, "events": []} for move in moves]
    return [
        describe_move(move, card=under)
        for move, under in zip(moves, cards_of(entries, before=card), strict=True)
    ]


#: Moves a mail's list glosses with their words: those whose line does not say what they
#: do (a region named, an opponent next, a pick), and every move of a special action, which
#: does what its card says.
_GLOSSED = (SPECIAL_KINDS - {"skip_special"}) | {"castillo_pick"}
#: The notation's column in a mail's list of moves, before a gloss.
_GLOSS_COLUMN = 30


def move_lines(moves: Sequence[engine.Move], card: str | None) -> list[str]:
    """Legal moves as a mail lists them for its reader to write: each line in the notation
    and, for a move of a card's special action or a pick, what it does under `card` after a
    "#", which a reply's reading skips: a line may be sent back as it stands."""
    lines = []
    for move in moves:
        line = notation_line(move)
        if move["type"] in _GLOSSED:
            line = f"{line.ljust(_GLOSS_COLUMN - 2)}  # {describe_move(move, card=card)}"
        lines.append(line)
    return lines


def notation(move: Mapping[str, Any]) -> str:
    """A log entry's move in the notation; a move shown without its fields (another's secret
    pick, a card taken back) reads as its kind and "(secret)"."""
    try:
        # A logged move, checked when it was played; one shown without its fields fails here.
        return notation_line(cast(engine.Move, dict(move)))
    except engine.IllegalMove:
        return secret_move(str(move.get("type", "")))
