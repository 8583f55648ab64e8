"""The engine's refusals (`engine.IllegalMove`) in the reader's language.

The engine is a pure library and writes its refusals in English, each a sentence of a fixed
pattern with parts filled in (a card, a colour, a nested reason). This table, the
service's, holds each sentence once, as its catalog text (whose English is the engine's,
each part a `%(name)s`), from which its pattern is made (`_row`): `translated` reads a
message against the patterns and writes it again in the language being rendered,
translating its parts in turn. Patterns rather than codes from the engine: the engine
keeps its one plain message (and its golden records), and a sentence it gains is one row
here. A sentence no row reads
stays as the engine wrote it; tests/server/test_refusals_table.py reads every sentence the
engine can raise against the table, so none is left out unnoticed.

Parts named by the board (regions, cards, colours) are written with the names pages use
(`engine.names`, `pbem.words`); the notation's own words (`"pick"`, `court_two`, a
move's JSON) stay as written, since the reader types them back.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine import names as board_names
from pbem.languages import N_, _, current_language
from pbem.words.names import COLOUR_NAMES, card_title, colour_name, place_name

#: Parts that are a sentence of their own, read against the table again.
_NESTED = frozenset({"reason", "waiting", "hint", "left"})
#: How deep sentences nest (a line's reason, a batch's, a rule's, who is waited for).
_DEEPEST = 5

# What the parts look like in the engine's sentences.
_COLOUR = r"[a-z]+"
_PLACE = r"[a-z_]+"
_PLACES = r"[a-z_]+(?:, [a-z_]+)*"
_CARD = r"[a-z_]+"
_NUMBER = r"-?\d+"

#: What the engine's turn_for says a player "cannot do" now (skipping the special action has
#: rows of its own: its words are a label elsewhere, in a form that does not fit here).
_DOINGS = {
    "take caballeros to your court": N_("take caballeros to your court"),
    "take caballeros from a region": N_("take caballeros from a region"),
    "choose an action card": N_("choose an action card"),
    "place caballeros": N_("place caballeros"),
    "end your turn": N_("end your turn"),
    "make a special-action move": N_("make a special-action move"),
    "end a special action": N_("end a special action"),
}
#: What a batch's move uncovered (engine.batch), which a refusal names instead of the reason.
_UNCOVERED = {
    "the next round's action cards": N_("the next round's action cards"),
    "the Castillo picks": N_("the Castillo picks"),
    "the other players' secret picks": N_("the other players' secret picks"),
}
#: What a move's field should have been, and what it was (engine.moves).
_KINDS = {
    "a whole number": N_("a whole number"),
    "a text string": N_("a text string"),
    "true or false": N_("true or false"),
    "true/false": N_("true/false"),
    "a number": N_("a number"),
    "text": N_("text"),
    "a list": N_("a list"),
    "an object": N_("an object"),
    "null": N_("null"),
}
#: What a place field names (engine.moves.check_region), and what a word of a line should
#: have been (engine.notation's kinds of names, and a number).
_WHATS = {
    "a region": N_("a region"),
    "a region or the castillo": N_("a region or the castillo"),
    "a place (court or a region)": N_("a place (court or a region)"),
    "a colour in this game": N_("a colour in this game"),
    "a mobile scoreboard (8/4/0 or 4/0/0)": N_("a mobile scoreboard (8/4/0 or 4/0/0)"),
    "an option (court_two or own_region)": N_("an option (court_two or own_region)"),
    "an action card": N_("an action card"),
    "a number": N_("a number"),
}


def _phrase(table: dict[str, str]) -> Callable[[str], str]:
    def translated_phrase(text: str) -> str:
        return _(table[text]) if text in table else text

    return translated_phrase


def _place(text: str) -> str:
    """A place the engine names by its id (`old_castile`, `court`), as pages name it."""
    if text in board_names.PLACE_NAMES:
        return place_name(text)
    if text in board_names.TERM_NAMES:
        return board_names.term(text, current_language())
    return text


def _places(text: str) -> str:
    return ", ".join(_place(p) for p in text.split(", "))


#: The English names of the cards, for the sentences that write one out ("King rages").
_CARD_IDS = {names.en: card for card, names in board_names.CARD_NAMES.items()}


def _card(text: str) -> str:
    """An action card, by its id or its English name, as pages name it."""
    card = _CARD_IDS.get(text, text)
    return card_title(card) if card in board_names.CARD_NAMES else text


def _face_up(text: str) -> str:
    """The cards still face up, as engine.turn_moves lists them: `eviction (stack 4), …`."""
    shown = []
    for item in text.split(", "):
        found = re.fullmatch(r"(?P<card>[a-z_]+) \(stack (?P<stack>\d+)\)", item)
        if found is None:
            shown.append(item)
            continue
        shown.append(
            _("%(card)s (stack %(stack)s)", card=_card(found["card"]), stack=found["stack"])
        )
    return ", ".join(shown)


def _colours(text: str) -> str:
    return ", ".join(colour_name(c) for c in text.split(" and "))


def _colour_list(text: str) -> str:
    return ", ".join(colour_name(c) for c in text.split(", "))


def _uncovered(text: str) -> str:
    parts = [_phrase(_UNCOVERED)(part) for part in text.split(" and ")]
    joined = parts[0]
    for part in parts[1:]:
        joined = _("%(first)s and %(second)s", first=joined, second=part)
    return joined


def _or(items: list[str]) -> str:
    """Items as the engine's notation lists them, `a, b or c`, with the reader's "or"."""
    if len(items) == 1:
        return items[0]
    return _("%(first)s or %(last)s", first=", ".join(items[:-1]), last=items[-1])


def _choices(text: str) -> str:
    """Quoted lines (`"power 9", "power 8" or "power 7"`, maybe ending `or ...`): the lines
    left as written, the "or" the reader's."""
    return _or(re.findall(r'"[^"]*"|\.\.\.', text))


def _names(text: str) -> str:
    """Names a short word could be (`galicia or granada`, `red or rose`), as pages name them."""
    head, last = text.rsplit(" or ", 1)
    names = [*head.split(", "), last]
    return _or([colour_name(n) if n in COLOUR_NAMES else _place(n) for n in names])


def _none(text: str) -> str:
    """A list the engine writes "none" for when it is empty."""
    return _("none") if text == "none" else text


_PARTS: dict[str, Callable[[str], str]] = {
    "who": _colours,
    "colour": colour_name,
    "other": colour_name,
    "colours": _colour_list,
    "region": _place,
    "king": _place,
    "place": _place,
    "regions": _places,
    "card": _card,
    "cards": _face_up,
    "doing": _phrase(_DOINGS),
    "uncovered": _uncovered,
    "expected": _phrase(_KINDS),
    "got": _phrase(_KINDS),
    "what": _phrase(_WHATS),
    "choices": _choices,
    "names": _names,
    "verbs": _none,
    "fields": _none,
}


def _row(text: str, /, **shapes: str) -> tuple[str, str]:
    """A row read off its catalog text, whose English is the engine's sentence: the words as
    written, each `%(name)s` a part (`shapes` narrows a part to what it looks like, else any
    text; a part named twice is the same text both times)."""
    pattern, at, named = "", 0, set()
    for part in re.finditer(r"%\((\w+)\)s", text):
        pattern += _escaped(text[at : part.start()])
        name = part[1]
        pattern += f"(?P={name})" if name in named else f"(?P<{name}>{shapes.get(name, '.+')})"
        named.add(name)
        at = part.end()
    return pattern + _escaped(text[at:]), text


def _escaped(words: str) -> str:
    """`words` as a pattern that reads them (`re.escape` escapes spaces too, which would
    make the patterns, which the tests print, harder to read)."""
    return re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", words)


#: Each of the engine's sentences as a row: its catalog text, whose English the engine
#: writes, with what its parts look like (`_row`). A pattern reads the whole message, and
#: the more particular of two comes first.
ROWS: list[tuple[str, str]] = [
    # -- where the service and the batch put a refusal ----------------------------------
    _row(
        N_(
            'Line %(number)s ("%(text)s") could not be played: it comes after a move that '
            "reveals new information, so send it once that move has been played."
        ),
        number=r"\d+",
        text=".*",
    ),
    _row(N_('Line %(number)s ("%(text)s"): %(reason)s'), number=r"\d+", text=".*"),
    _row(
        N_(
            "Move %(index)s of %(count)s is illegal in the position after move %(number)s, "
            "which uncovers %(uncovered)s. Nothing was played: send the moves up to move "
            "%(number)s alone, then choose the rest from what they show."
        ),
        index=r"\d+",
        count=r"\d+",
        number=r"\d+",
    ),
    _row(
        N_(
            "The move is illegal in the position after move %(number)s, which uncovers "
            "%(uncovered)s. Nothing was played: send the moves up to move %(number)s alone, "
            "then choose the rest from what they show."
        ),
        number=r"\d+",
    ),
    _row(
        N_("Move %(index)s of %(count)s (%(move)s) is illegal: %(reason)s Nothing was played."),
        index=r"\d+",
        count=r"\d+",
        move=".+?",
    ),
    _row(N_("The move (%(move)s) is illegal: %(reason)s Nothing was played."), move=".+?"),
    _row(
        N_(
            "your turn ended by itself after move %(number)s, with nothing left to do in it, "
            "so this move has no turn to belong to (leave it out). The rules say: %(reason)s"
        ),
        number=r"\d+",
    ),
    # -- the move's form (engine.moves) ---------------------------------------------------
    _row(N_('A move must be an object like {"type": "end_turn"}, not %(given)s.'), given=r"\w+"),
    _row(N_('A move needs a "type" field naming what to do, e.g. "end_turn".')),
    _row(N_('Unknown move type "%(kind)s". Known move types: %(known)s.'), kind=".*"),
    _row(N_('A "%(kind)s" move needs the field "%(field)s" (%(expected)s).')),
    _row(N_('A "%(kind)s" move has no field "%(field)s" (its fields: %(fields)s).'), field=".*"),
    _row(N_('The field "%(field)s" of a "%(kind)s" move must be %(expected)s, not %(got)s.')),
    _row(
        N_('"%(given)s" is not %(what)s: choose from %(regions)s.'),
        given=".*",
        what="a region(?: or the castillo)?",
        regions=_PLACES,
    ),
    _row(
        N_('"%(given)s" is not a colour in this game: colours are %(colours)s.'),
        given=".*",
        colours=_PLACES,
    ),
    _row(N_("%(given)s is not a player of this game: players are %(colours)s."), colours=_PLACES),
    _row(N_("The game is over: no more moves can be made.")),
    # -- whose move it is (engine.waiting) ------------------------------------------------
    _row(N_("the game is over")),
    _row(N_("waiting for %(who)s to play a power card")),
    _row(N_("waiting for %(who)s to take their turn")),
    _row(N_("waiting for %(who)s to pick a region for their Castillo caballeros")),
    _row(N_("waiting for %(who)s to make their secret pick")),
    _row(N_("waiting for %(who)s to return caballeros to the province (King rages)")),
    _row(N_("waiting for %(who)s to allow or veto the special action")),
    _row(N_("You cannot skip the special action at this point of your turn: %(hint)s.")),
    _row(N_("You cannot skip the special action now: %(waiting)s.")),
    _row(N_("You cannot %(doing)s at this point of your turn: %(hint)s.")),
    _row(N_("You cannot %(doing)s now: %(waiting)s.")),
    _row(N_("It is not your turn: %(waiting)s.")),
    _row(N_('first take caballeros from the province to your court ("take")')),
    _row(N_('choose an action card ("card")')),
    _row(N_("place caballeros, carry out or skip the special action, or end your turn")),
    # -- power cards (engine.turn_moves, cards.personal) ----------------------------------
    _row(N_("Power cards are played at the start of a round: %(waiting)s.")),
    _row(N_("It is not your turn to play a power card: %(waiting)s.")),
    _row(N_("There is no power card %(card)s: power cards run from 1 to 13."), card=r"\S+"),
    _row(N_("Power card %(card)s is not in your hand: each card is played once."), card=r"\S+"),
    _row(
        N_(
            "%(colour)s already played power card %(number)s this round: no value may be "
            "played twice in one round."
        ),
        colour=_COLOUR,
        number=_NUMBER,
    ),
    _row(
        N_(
            "You have not played power card %(number)s: only a played card can come back to "
            "your hand."
        ),
        number=_NUMBER,
    ),
]
ROWS += [
    # -- taking caballeros, choosing a card, placing (engine.turn_moves) ------------------
    _row(N_("You cannot take a negative number of caballeros.")),
    _row(
        N_("Your power card lets you take at most %(number)s caballeros from the province."),
        number=_NUMBER,
    ),
    _row(
        N_(
            "Only %(number)s of your caballeros are in the province; when it runs short, take "
            "the rest from your regions with take_from_region."
        ),
        number=_NUMBER,
    ),
    _row(
        N_("You may take caballeros from the board only when the province has none of yours left.")
    ),
    _row(
        N_("You have already taken the %(number)s caballeros your power card allows."),
        number=_NUMBER,
    ),
    _row(N_("Nothing may leave the king's region: choose another region.")),
    _row(N_("You have no caballeros in %(region)s."), region=_PLACE),
    _row(N_('There is no action card "%(given)s".'), given=".*"),
    _row(
        N_('"%(card)s" is not face up on stack %(stack)s this round: %(left)s.'),
        card=_CARD,
        stack=r"\d+",
    ),
    _row(N_('"%(card)s" is not among this round\'s face-up action cards: %(left)s.'), card=_CARD),
    _row(N_("the cards left are %(cards)s")),
    _row(N_("no card is left")),
    _row(
        N_('"%(card)s" is face up on stacks %(stack)s and %(second)s: say which with "stack".'),
        card=_CARD,
        stack=r"\d+",
        second=r"\d+",
    ),
    _row(
        N_(
            "Your special action is under way: a turn's two actions may not be split, so "
            "finish it before placing from court."
        )
    ),
    _row(
        N_(
            "Your placement from court is over: a turn's two actions may not be split, and "
            "you began the special action after placing."
        )
    ),
    _row(
        N_("This action card lets you place at most %(number)s caballeros from court."),
        number=_NUMBER,
    ),
    _row(N_("Your court is empty: there is no caballero to place.")),
    _row(N_("Nothing may enter the king's region: place next to it or in the castillo.")),
    _row(
        N_(
            "Caballeros from court go only to regions bordering the king's region "
            "(%(king)s: %(regions)s) or into the castillo."
        ),
        king=_PLACE,
        regions=_PLACES,
    ),
    _row(N_("The special action of this card is already done or skipped.")),
    _row(
        N_(
            "Your special action is under way: a begun special action is carried out whole "
            '("stop" ends one that allows fewer).'
        )
    ),
    _row(N_("There is no Castillo pick under way: %(waiting)s.")),
    _row(
        N_("Only players with caballeros in the castillo pick where they go: you have none there.")
    ),
    _row(N_("The castillo's caballeros may not go to the king's region: pick another region.")),
    # -- special actions, whatever the card (engine.special_moves, engine.special) --------
    _row(N_('The card "%(card)s" has no special action.'), card=_CARD),
    _row(N_("Your special action is planned: %(waiting)s.")),
    _row(
        N_("%(verb)s is not a move of the %(card)s special action (its moves: %(verbs)s)."),
        verb='".+?"',
        card=_CARD,
    ),
    _row(N_('No special action is under way: to give it up, use "skip".')),
    _row(N_("Nothing asks for %(verb)s now: %(waiting)s."), verb='".+?"'),
    _row(N_("The %(card)s special action asks for no %(verb)s."), card=_CARD, verb='".+"'),
    _row(N_("%(card)s has no move %(verb)s."), card=_CARD, verb='".+"'),
    _row(N_("%(card)s asks nothing of you."), card=_CARD),
    _row(N_("No veto window is open: %(waiting)s.")),
    _row(
        N_(
            "Only the colour whose turn it is is concerned by its action: its partner colour "
            "may not veto it."
        )
    ),
    _row(N_("This window answers your own veto: you cannot veto it.")),
    _row(N_("Only a holder of an unexpired Veto card may answer this window.")),
    _row(N_("You have already answered this veto window.")),
    _row(N_("Veto from a step of the plan: 1 (the whole action) to %(number)s."), number=_NUMBER),
    _row(N_('A Veto here can only stop the whole action: "veto 1".')),
]
ROWS += [
    # -- the cards' places (engine.cards.common, .pieces) ---------------------------------
    _row(N_("Caballeros leave the castillo only at general scoring.")),
    _row(N_("Nothing may leave the king's region.")),
    _row(N_("Nothing may enter the king's region.")),
    _row(N_("Nothing may enter the king's region: choose another region.")),
    _row(N_("Nothing may enter the king's region: pick another region.")),
    _row(N_('There is no mobile scoreboard "%(given)s": they are %(boards)s.'), given=".*"),
    _row(N_("The %(board)s scoreboard already lies on %(place)s."), board=r"\S+", place=_PLACE),
    _row(N_("The %(board)s scoreboard lies in the king's region: it may not leave."), board=r"\S+"),
    _row(N_("No mobile scoreboard may enter the king's region.")),
    _row(
        N_("The %(board)s scoreboard lies on %(place)s: one may not cover the other."),
        board=r"\S+",
        place=_PLACE,
    ),
    _row(N_("The king goes to a region, never into the castillo.")),
    _row(N_("The king is already in %(king)s: choose another region."), king=_PLACE),
    _row(
        N_("The royal adviser moves the king to a region bordering %(king)s: %(regions)s."),
        king=_PLACE,
        regions=_PLACES,
    ),
    _row(N_("A grande stands in a region, never in the castillo.")),
    _row(N_("Your grande is in the king's region: nothing may leave it.")),
    _row(N_("Your grande is already in %(region)s."), region=_PLACE),
    # -- opponents in order, regions chosen (engine.cards.common, .punishment) ------------
    _row(N_("%(card)s hits your opponents, not you."), card=_CARD),
    _row(N_("%(colour)s is already in the order."), colour=_COLOUR),
    _row(
        N_("%(card)s would do nothing to %(colour)s: choose another opponent."),
        card=_CARD,
        colour=_COLOUR,
    ),
    _row(N_("Every opponent is already in the order.")),
    _row(N_('%(card)s hits every opponent: start it with "special".'), card=_CARD),
    _row(N_('Choose which of your opponent\'s colours %(card)s hits ("target").'), card=_CARD),
    _row(N_("Name the order of every opponent first (target).")),
    _row(N_("The region is already chosen: %(region)s."), region=_PLACE),
    _row(N_("You have no secret pick to make for %(card)s."), card=_CARD),
    _row(N_("%(card)s removes your opponents' caballeros, not yours."), card=_CARD),
    _row(
        N_("%(card)s takes one caballero per opponent: %(colour)s is done."),
        card=_CARD,
        colour=_COLOUR,
    ),
    _row(N_("There is no %(colour)s caballero in %(region)s."), colour=_COLOUR, region=_PLACE),
    _row(N_("Take one caballero of every opponent who has one on the board first.")),
    _row(
        N_("%(card)s goes round in turn: it is %(colour)s's to return now."),
        card="King rages",
        colour=_COLOUR,
    ),
    _row(N_("%(card)s asks nothing of you."), card="King rages"),
    _row(N_("You have no caballero left in %(region)s to return."), region=_PLACE),
    # -- intrigues (engine.cards.intrigue) ------------------------------------------------
    _row(N_("Move the caballero to another place than the one it is in.")),
    _row(
        N_(
            "%(colour)s is your other colour: only the colour whose turn it is (%(other)s) is "
            "concerned by its special action, so no card moves the partner's caballeros."
        ),
        colour=_COLOUR,
        other=_COLOUR,
    ),
    _row(N_("%(card)s moves at most %(number)s caballeros."), card=_CARD, number=_NUMBER),
    _row(N_("%(card)s does not move your own caballeros."), card=_CARD),
    _row(N_("%(card)s does not move your opponents' caballeros."), card=_CARD),
    _row(
        N_("%(card)s moves %(number)s caballeros of your own, no more."), card=_CARD, number=_NUMBER
    ),
    _row(
        N_("%(card)s moves %(number)s caballeros of your opponents', no more."),
        card=_CARD,
        number=_NUMBER,
    ),
    _row(
        N_("There is no %(colour)s caballero in %(region)s to move."), colour=_COLOUR, region=_PLACE
    ),
    _row(
        N_("%(card)s is carried out whole once begun: move the rest of its caballeros."), card=_CARD
    ),
    _row(N_('First name the region to move caballeros out of ("region").')),
    _row(N_("%(card)s moves caballeros out of %(region)s only."), card=_CARD, region=_PLACE),
    _row(N_("There are no caballeros in %(region)s that this card may move."), region=_PLACE),
    _row(N_('First name the region to take your caballeros out of ("region").')),
    _row(N_("%(card)s moves your own caballeros only."), card=_CARD),
    _row(N_("%(card)s takes your caballeros out of %(region)s only."), card=_CARD, region=_PLACE),
    _row(N_("All your caballeros from %(region)s are placed."), region=_PLACE),
    _row(N_("Place every caballero you took out of %(region)s first."), region=_PLACE),
    _row(
        N_("%(card)s places %(number)s caballeros from court, no more."), card=_CARD, number=_NUMBER
    ),
    _row(N_("Place both caballeros from your court first.")),
    _row(N_("You already chose %(option)s.")),
    _row(N_("Choose option court_two or own_region, not %(option)s."), option=".*"),
    _row(N_("Your court is empty: choose own_region.")),
    _row(N_("You have no caballeros in a region they may leave: choose court_two.")),
    _row(N_('First choose "option court_two" or "option own_region".')),
    _row(N_("%(verb)s is not a move of the %(option)s option."), verb='".+?"', option=r"\S+"),
    # -- secret picks and eviction (engine.cards.secret) ----------------------------------
    _row(N_("You have no caballeros in %(region)s: pick a region holding yours."), region=_PLACE),
    _row(
        N_(
            "Pick a region holding at least 2 of your caballeros: one with a single caballero "
            "only if none has 2."
        )
    ),
    _row(N_("The region is already named: %(region)s."), region=_PLACE),
    _row(N_("No opponent has caballeros in %(region)s to evict."), region=_PLACE),
    _row(N_('First name the region to evict ("region").')),
    _row(N_("Name the region and the order of the opponents in it first.")),
    _row(N_("Your caballeros must leave %(region)s: pick another region."), region=_PLACE),
]
# -- the notation (engine.notation): a line that cannot be read as one move ------------
#: Lines of the notation, each quoted, listed as `"a", "b" or "c"` (the last maybe `...`).
_QUOTED = r'"[^"]*"'
_CHOICES = rf"{_QUOTED}(?:, {_QUOTED})*(?: or (?:{_QUOTED}|\.\.\.))?"
#: Names on the board (ids, colours, scoreboards, options), listed as `a, b or c`.
_NAMES = r"[\w/]+(?:, [\w/]+)* or [\w/]+"
_WHAT = "|".join(re.escape(what) for what in sorted(_WHATS, key=len, reverse=True))
ROWS += [
    # A line not understood, then what to write instead: two sentences, each with its rows
    # (the first before the rows below, which would not read the second).
    _row(
        N_("%(reason)s %(hint)s"),
        reason='In ".+',
        hint='Did you mean "[^"]*"(?:, "[^"]*")*(?: or (?:"[^"]*"|\\.\\.\\.))?\\?',
    ),
    _row(N_("%(reason)s %(hint)s"), reason='In ".+', hint='You may: [^"]+\\.'),
    _row(N_("Did you mean %(choices)s?"), choices=_CHOICES),
    _row(N_("You may: %(lines)s."), lines='[^"]+'),
    _row(
        N_('In "%(text)s", "%(given)s" is not a move (did you mean %(choices)s?).'),
        text=".*",
        given=".*",
        choices=_CHOICES,
    ),
    _row(
        N_('In "%(text)s", "%(given)s" is not a move (a move starts with %(starts)s).'),
        text=".*",
        given=".*",
        starts="[a-z]+(?:, [a-z]+)*",
    ),
    _row(N_('In "%(text)s", "%(given)s" is not %(what)s.'), text=".*", given=".*", what=_WHAT),
    _row(
        N_('In "%(text)s", "%(given)s" could be %(names)s: write more of the name.'),
        text=".*",
        given=".*",
        names=_NAMES,
    ),
    _row(
        N_('In "%(text)s", a "%(verb)s" line is written like "%(example)s".'),
        text=".*",
        verb="[a-z ]+",
        example=".*",
    ),
    _row(N_('"%(text)s" could be %(choices)s: write more of it.'), text=".*", choices=_CHOICES),
    _row(N_('"%(text)s" could be %(choices)s.'), text=".*", choices=_CHOICES),
    _row(N_('"%(text)s" holds several moves: send them one at a time.'), text=".*"),
    _row(N_("An empty line is not a move.")),
    _row(N_('The move type "%(kind)s" has no notation yet.'), kind=".*"),
]
_COMPILED = [(re.compile(pattern, re.S), text) for pattern, text in ROWS]


def translated(message: str, depth: int = 0) -> str:
    """`message`, an engine refusal, in the language being rendered (as it is if no row
    reads it)."""
    if depth > _DEEPEST:
        return message
    for pattern, text in _COMPILED:
        found = pattern.fullmatch(message)
        if found is None:
            continue
        parts = {
            name: translated(value, depth + 1) if name in _NESTED else _PARTS.get(name, str)(value)
            for name, value in found.groupdict().items()
        }
        return _(text) % parts  # a part may be called `text`, as `_` names its own
    return message


__all__ = ["ROWS", "translated"]
