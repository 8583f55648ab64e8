"""The engine's refusals (`engine.IllegalMove`) in the reader's language.

The engine is a pure library and writes its refusals in English, each a sentence of a fixed
pattern with parts filled in (a card, a colour, a nested reason). This table, the
service's, holds those patterns beside their catalog texts: `translated` reads a message
against them and writes it again in the language being rendered, translating its parts in
turn. Patterns rather than codes from the engine: the engine keeps its one plain message
(and its golden records), and a sentence it gains is one row here. A sentence no row reads
stays as the engine wrote it; tests/server/test_refusals_table.py reads every sentence the
engine can raise against the table, so none is left out unnoticed.

Parts named by the board (regions, cards, colours) are written with the names pages use
(`engine.names`, `pbem.game.words`); the notation's own words (`"pick"`, `court_two`, a
move's JSON) stay as written, since the reader types them back.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine import names as board_names
from pbem.game.words import COLOUR_NAMES, card_title, colour_name, place_name
from pbem.languages import N_, _, current_language

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

#: Each of the engine's patterns (its English, the parts named) and its catalog text; a
#: pattern must read the whole message, and the more particular of two comes first.
ROWS: list[tuple[str, str]] = [
    # -- where the service and the batch put a refusal ----------------------------------
    (
        r'Line (?P<number>\d+) \("(?P<text>.*)"\) could not be played: it comes after a move '
        r"that reveals new information, so send it once that move has been played\.",
        N_(
            'Line %(number)s ("%(text)s") could not be played: it comes after a move that '
            "reveals new information, so send it once that move has been played."
        ),
    ),
    (
        r'Line (?P<number>\d+) \("(?P<text>.*)"\): (?P<reason>.+)',
        N_('Line %(number)s ("%(text)s"): %(reason)s'),
    ),
    (
        r"Move (?P<index>\d+) of (?P<count>\d+) is illegal in the position after move "
        r"(?P<number>\d+), which uncovers (?P<uncovered>.+)\. Nothing was played: send the "
        r"moves up to move (?P=number) alone, then choose the rest from what they show\.",
        N_(
            "Move %(index)s of %(count)s is illegal in the position after move %(number)s, "
            "which uncovers %(uncovered)s. Nothing was played: send the moves up to move "
            "%(number)s alone, then choose the rest from what they show."
        ),
    ),
    (
        r"The move is illegal in the position after move (?P<number>\d+), which uncovers "
        r"(?P<uncovered>.+)\. Nothing was played: send the moves up to move (?P=number) alone, "
        r"then choose the rest from what they show\.",
        N_(
            "The move is illegal in the position after move %(number)s, which uncovers "
            "%(uncovered)s. Nothing was played: send the moves up to move %(number)s alone, "
            "then choose the rest from what they show."
        ),
    ),
    (
        r"Move (?P<index>\d+) of (?P<count>\d+) \((?P<move>.+?)\) is illegal: (?P<reason>.+) "
        r"Nothing was played\.",
        N_("Move %(index)s of %(count)s (%(move)s) is illegal: %(reason)s Nothing was played."),
    ),
    (
        r"The move \((?P<move>.+?)\) is illegal: (?P<reason>.+) Nothing was played\.",
        N_("The move (%(move)s) is illegal: %(reason)s Nothing was played."),
    ),
    (
        r"your turn ended by itself after move (?P<number>\d+), with nothing left to do in it, "
        r"so this move has no turn to belong to \(leave it out\)\. The rules say: (?P<reason>.+)",
        N_(
            "your turn ended by itself after move %(number)s, with nothing left to do in it, "
            "so this move has no turn to belong to (leave it out). The rules say: %(reason)s"
        ),
    ),
    # -- the move's form (engine.moves) ---------------------------------------------------
    (
        r'A move must be an object like \{"type": "end_turn"\}, not (?P<given>\w+)\.',
        N_('A move must be an object like {"type": "end_turn"}, not %(given)s.'),
    ),
    (
        r'A move needs a "type" field naming what to do, e\.g\. "end_turn"\.',
        N_('A move needs a "type" field naming what to do, e.g. "end_turn".'),
    ),
    (
        r'Unknown move type "(?P<kind>.*)"\. Known move types: (?P<known>.+)\.',
        N_('Unknown move type "%(kind)s". Known move types: %(known)s.'),
    ),
    (
        r'A "(?P<kind>.+)" move needs the field "(?P<field>.+)" \((?P<expected>.+)\)\.',
        N_('A "%(kind)s" move needs the field "%(field)s" (%(expected)s).'),
    ),
    (
        r'A "(?P<kind>.+)" move has no field "(?P<field>.*)" \(its fields: (?P<fields>.+)\)\.',
        N_('A "%(kind)s" move has no field "%(field)s" (its fields: %(fields)s).'),
    ),
    (
        r'The field "(?P<field>.+)" of a "(?P<kind>.+)" move must be (?P<expected>.+), '
        r"not (?P<got>.+)\.",
        N_('The field "%(field)s" of a "%(kind)s" move must be %(expected)s, not %(got)s.'),
    ),
    (
        rf'"(?P<given>.*)" is not (?P<what>a region(?: or the castillo)?): choose from '
        rf"(?P<regions>{_PLACES})\.",
        N_('"%(given)s" is not %(what)s: choose from %(regions)s.'),
    ),
    (
        rf'"(?P<given>.*)" is not a colour in this game: colours are (?P<colours>{_PLACES})\.',
        N_('"%(given)s" is not a colour in this game: colours are %(colours)s.'),
    ),
    (
        rf"(?P<given>.+) is not a player of this game: players are (?P<colours>{_PLACES})\.",
        N_("%(given)s is not a player of this game: players are %(colours)s."),
    ),
    (
        r"The game is over: no more moves can be made\.",
        N_("The game is over: no more moves can be made."),
    ),
    # -- whose move it is (engine.waiting) ------------------------------------------------
    (r"the game is over", N_("the game is over")),
    (
        r"waiting for (?P<who>.+) to play a power card",
        N_("waiting for %(who)s to play a power card"),
    ),
    (r"waiting for (?P<who>.+) to take their turn", N_("waiting for %(who)s to take their turn")),
    (
        r"waiting for (?P<who>.+) to pick a region for their Castillo caballeros",
        N_("waiting for %(who)s to pick a region for their Castillo caballeros"),
    ),
    (
        r"waiting for (?P<who>.+) to make their secret pick",
        N_("waiting for %(who)s to make their secret pick"),
    ),
    (
        r"waiting for (?P<who>.+) to return caballeros to the province \(King rages\)",
        N_("waiting for %(who)s to return caballeros to the province (King rages)"),
    ),
    (
        r"waiting for (?P<who>.+) to allow or veto the special action",
        N_("waiting for %(who)s to allow or veto the special action"),
    ),
    (
        r"You cannot skip the special action at this point of your turn: (?P<hint>.+)\.",
        N_("You cannot skip the special action at this point of your turn: %(hint)s."),
    ),
    (
        r"You cannot skip the special action now: (?P<waiting>.+)\.",
        N_("You cannot skip the special action now: %(waiting)s."),
    ),
    (
        r"You cannot (?P<doing>.+) at this point of your turn: (?P<hint>.+)\.",
        N_("You cannot %(doing)s at this point of your turn: %(hint)s."),
    ),
    (
        r"You cannot (?P<doing>.+) now: (?P<waiting>.+)\.",
        N_("You cannot %(doing)s now: %(waiting)s."),
    ),
    (r"It is not your turn: (?P<waiting>.+)\.", N_("It is not your turn: %(waiting)s.")),
    (
        r'first take caballeros from the province to your court \("take"\)',
        N_('first take caballeros from the province to your court ("take")'),
    ),
    (r'choose an action card \("card"\)', N_('choose an action card ("card")')),
    (
        r"place caballeros, carry out or skip the special action, or end your turn",
        N_("place caballeros, carry out or skip the special action, or end your turn"),
    ),
    # -- power cards (engine.turn_moves, cards.personal) ----------------------------------
    (
        r"Power cards are played at the start of a round: (?P<waiting>.+)\.",
        N_("Power cards are played at the start of a round: %(waiting)s."),
    ),
    (
        r"It is not your turn to play a power card: (?P<waiting>.+)\.",
        N_("It is not your turn to play a power card: %(waiting)s."),
    ),
    (
        r"There is no power card (?P<card>\S+): power cards run from 1 to 13\.",
        N_("There is no power card %(card)s: power cards run from 1 to 13."),
    ),
    (
        r"Power card (?P<card>\S+) is not in your hand: each card is played once\.",
        N_("Power card %(card)s is not in your hand: each card is played once."),
    ),
    (
        rf"(?P<colour>{_COLOUR}) already played power card (?P<number>{_NUMBER}) this round: "
        r"no value may be played twice in one round\.",
        N_(
            "%(colour)s already played power card %(number)s this round: no value may be "
            "played twice in one round."
        ),
    ),
    (
        rf"You have not played power card (?P<number>{_NUMBER}): only a played card can come "
        r"back to your hand\.",
        N_(
            "You have not played power card %(number)s: only a played card can come back to "
            "your hand."
        ),
    ),
]
ROWS += [
    # -- taking caballeros, choosing a card, placing (engine.turn_moves) ------------------
    (
        r"You cannot take a negative number of caballeros\.",
        N_("You cannot take a negative number of caballeros."),
    ),
    (
        rf"Your power card lets you take at most (?P<number>{_NUMBER}) caballeros from the "
        r"province\.",
        N_("Your power card lets you take at most %(number)s caballeros from the province."),
    ),
    (
        rf"Only (?P<number>{_NUMBER}) of your caballeros are in the province; when it runs "
        r"short, take the rest from your regions with take_from_region\.",
        N_(
            "Only %(number)s of your caballeros are in the province; when it runs short, take "
            "the rest from your regions with take_from_region."
        ),
    ),
    (
        r"You may take caballeros from the board only when the province has none of yours "
        r"left\.",
        N_("You may take caballeros from the board only when the province has none of yours left."),
    ),
    (
        rf"You have already taken the (?P<number>{_NUMBER}) caballeros your power card allows\.",
        N_("You have already taken the %(number)s caballeros your power card allows."),
    ),
    (
        r"Nothing may leave the king's region: choose another region\.",
        N_("Nothing may leave the king's region: choose another region."),
    ),
    (
        rf"You have no caballeros in (?P<region>{_PLACE})\.",
        N_("You have no caballeros in %(region)s."),
    ),
    (r'There is no action card "(?P<given>.*)"\.', N_('There is no action card "%(given)s".')),
    (
        rf'"(?P<card>{_CARD})" is not face up on stack (?P<stack>\d+) this round: '
        r"(?P<left>.+)\.",
        N_('"%(card)s" is not face up on stack %(stack)s this round: %(left)s.'),
    ),
    (
        rf'"(?P<card>{_CARD})" is not among this round\'s face-up action cards: (?P<left>.+)\.',
        N_('"%(card)s" is not among this round\'s face-up action cards: %(left)s.'),
    ),
    (r"the cards left are (?P<cards>.+)", N_("the cards left are %(cards)s")),
    (r"no card is left", N_("no card is left")),
    (
        rf'"(?P<card>{_CARD})" is face up on stacks (?P<stack>\d+) and (?P<second>\d+): '
        r'say which with "stack"\.',
        N_('"%(card)s" is face up on stacks %(stack)s and %(second)s: say which with "stack".'),
    ),
    (
        r"Your special action is under way: a turn's two actions may not be split, so finish "
        r"it before placing from court\.",
        N_(
            "Your special action is under way: a turn's two actions may not be split, so "
            "finish it before placing from court."
        ),
    ),
    (
        r"Your placement from court is over: a turn's two actions may not be split, and you "
        r"began the special action after placing\.",
        N_(
            "Your placement from court is over: a turn's two actions may not be split, and "
            "you began the special action after placing."
        ),
    ),
    (
        rf"This action card lets you place at most (?P<number>{_NUMBER}) caballeros from "
        r"court\.",
        N_("This action card lets you place at most %(number)s caballeros from court."),
    ),
    (
        r"Your court is empty: there is no caballero to place\.",
        N_("Your court is empty: there is no caballero to place."),
    ),
    (
        r"Nothing may enter the king's region: place next to it or in the castillo\.",
        N_("Nothing may enter the king's region: place next to it or in the castillo."),
    ),
    (
        rf"Caballeros from court go only to regions bordering the king's region "
        rf"\((?P<king>{_PLACE}): (?P<regions>{_PLACES})\) or into the castillo\.",
        N_(
            "Caballeros from court go only to regions bordering the king's region "
            "(%(king)s: %(regions)s) or into the castillo."
        ),
    ),
    (
        r"The special action of this card is already done or skipped\.",
        N_("The special action of this card is already done or skipped."),
    ),
    (
        r"Your special action is under way: a begun special action is carried out whole "
        r'\("stop" ends one that allows fewer\)\.',
        N_(
            "Your special action is under way: a begun special action is carried out whole "
            '("stop" ends one that allows fewer).'
        ),
    ),
    (
        r"There is no Castillo pick under way: (?P<waiting>.+)\.",
        N_("There is no Castillo pick under way: %(waiting)s."),
    ),
    (
        r"Only players with caballeros in the castillo pick where they go: you have none "
        r"there\.",
        N_("Only players with caballeros in the castillo pick where they go: you have none there."),
    ),
    (
        r"The castillo's caballeros may not go to the king's region: pick another region\.",
        N_("The castillo's caballeros may not go to the king's region: pick another region."),
    ),
    # -- special actions, whatever the card (engine.special_moves, engine.special) --------
    (
        rf'The card "(?P<card>{_CARD})" has no special action\.',
        N_('The card "%(card)s" has no special action.'),
    ),
    (
        r"Your special action is planned: (?P<waiting>.+)\.",
        N_("Your special action is planned: %(waiting)s."),
    ),
    (
        rf'(?P<verb>".+?") is not a move of the (?P<card>{_CARD}) special action '
        r"\(its moves: (?P<verbs>.+)\)\.",
        N_("%(verb)s is not a move of the %(card)s special action (its moves: %(verbs)s)."),
    ),
    (
        r'No special action is under way: to give it up, use "skip"\.',
        N_('No special action is under way: to give it up, use "skip".'),
    ),
    (
        r'Nothing asks for (?P<verb>".+?") now: (?P<waiting>.+)\.',
        N_("Nothing asks for %(verb)s now: %(waiting)s."),
    ),
    (
        rf'The (?P<card>{_CARD}) special action asks for no (?P<verb>".+")\.',
        N_("The %(card)s special action asks for no %(verb)s."),
    ),
    (
        rf'(?P<card>{_CARD}) has no move (?P<verb>".+")\.',
        N_("%(card)s has no move %(verb)s."),
    ),
    (rf"(?P<card>{_CARD}) asks nothing of you\.", N_("%(card)s asks nothing of you.")),
    (
        r"No veto window is open: (?P<waiting>.+)\.",
        N_("No veto window is open: %(waiting)s."),
    ),
    (
        r"Only the colour whose turn it is is concerned by its action: its partner colour may "
        r"not veto it\.",
        N_(
            "Only the colour whose turn it is is concerned by its action: its partner colour "
            "may not veto it."
        ),
    ),
    (
        r"This window answers your own veto: you cannot veto it\.",
        N_("This window answers your own veto: you cannot veto it."),
    ),
    (
        r"Only a holder of an unexpired Veto card may answer this window\.",
        N_("Only a holder of an unexpired Veto card may answer this window."),
    ),
    (
        r"You have already answered this veto window\.",
        N_("You have already answered this veto window."),
    ),
    (
        rf"Veto from a step of the plan: 1 \(the whole action\) to (?P<number>{_NUMBER})\.",
        N_("Veto from a step of the plan: 1 (the whole action) to %(number)s."),
    ),
    (
        r'A Veto here can only stop the whole action: "veto 1"\.',
        N_('A Veto here can only stop the whole action: "veto 1".'),
    ),
]
ROWS += [
    # -- the cards' places (engine.cards.common, .pieces) ---------------------------------
    (
        r"Caballeros leave the castillo only at general scoring\.",
        N_("Caballeros leave the castillo only at general scoring."),
    ),
    (r"Nothing may leave the king's region\.", N_("Nothing may leave the king's region.")),
    (r"Nothing may enter the king's region\.", N_("Nothing may enter the king's region.")),
    (
        r"Nothing may enter the king's region: choose another region\.",
        N_("Nothing may enter the king's region: choose another region."),
    ),
    (
        r"Nothing may enter the king's region: pick another region\.",
        N_("Nothing may enter the king's region: pick another region."),
    ),
    (
        r'There is no mobile scoreboard "(?P<given>.*)": they are (?P<boards>.+)\.',
        N_('There is no mobile scoreboard "%(given)s": they are %(boards)s.'),
    ),
    (
        rf"The (?P<board>\S+) scoreboard already lies on (?P<place>{_PLACE})\.",
        N_("The %(board)s scoreboard already lies on %(place)s."),
    ),
    (
        r"The (?P<board>\S+) scoreboard lies in the king's region: it may not leave\.",
        N_("The %(board)s scoreboard lies in the king's region: it may not leave."),
    ),
    (
        r"No mobile scoreboard may enter the king's region\.",
        N_("No mobile scoreboard may enter the king's region."),
    ),
    (
        rf"The (?P<board>\S+) scoreboard lies on (?P<place>{_PLACE}): one may not cover the "
        r"other\.",
        N_("The %(board)s scoreboard lies on %(place)s: one may not cover the other."),
    ),
    (
        r"The king goes to a region, never into the castillo\.",
        N_("The king goes to a region, never into the castillo."),
    ),
    (
        rf"The king is already in (?P<king>{_PLACE}): choose another region\.",
        N_("The king is already in %(king)s: choose another region."),
    ),
    (
        rf"The royal adviser moves the king to a region bordering (?P<king>{_PLACE}): "
        rf"(?P<regions>{_PLACES})\.",
        N_("The royal adviser moves the king to a region bordering %(king)s: %(regions)s."),
    ),
    (
        r"A grande stands in a region, never in the castillo\.",
        N_("A grande stands in a region, never in the castillo."),
    ),
    (
        r"Your grande is in the king's region: nothing may leave it\.",
        N_("Your grande is in the king's region: nothing may leave it."),
    ),
    (
        rf"Your grande is already in (?P<region>{_PLACE})\.",
        N_("Your grande is already in %(region)s."),
    ),
    # -- opponents in order, regions chosen (engine.cards.common, .punishment) ------------
    (
        rf"(?P<card>{_CARD}) hits your opponents, not you\.",
        N_("%(card)s hits your opponents, not you."),
    ),
    (
        rf"(?P<colour>{_COLOUR}) is already in the order\.",
        N_("%(colour)s is already in the order."),
    ),
    (
        rf"(?P<card>{_CARD}) would do nothing to (?P<colour>{_COLOUR}): choose another "
        r"opponent\.",
        N_("%(card)s would do nothing to %(colour)s: choose another opponent."),
    ),
    (r"Every opponent is already in the order\.", N_("Every opponent is already in the order.")),
    (
        rf'(?P<card>{_CARD}) hits every opponent: start it with "special"\.',
        N_('%(card)s hits every opponent: start it with "special".'),
    ),
    (
        rf"Choose which of your opponent's colours (?P<card>{_CARD}) hits \(\"target\"\)\.",
        N_('Choose which of your opponent\'s colours %(card)s hits ("target").'),
    ),
    (
        r"Name the order of every opponent first \(target\)\.",
        N_("Name the order of every opponent first (target)."),
    ),
    (
        rf"The region is already chosen: (?P<region>{_PLACE})\.",
        N_("The region is already chosen: %(region)s."),
    ),
    (
        rf"You have no secret pick to make for (?P<card>{_CARD})\.",
        N_("You have no secret pick to make for %(card)s."),
    ),
    (
        rf"(?P<card>{_CARD}) removes your opponents' caballeros, not yours\.",
        N_("%(card)s removes your opponents' caballeros, not yours."),
    ),
    (
        rf"(?P<card>{_CARD}) takes one caballero per opponent: (?P<colour>{_COLOUR}) is done\.",
        N_("%(card)s takes one caballero per opponent: %(colour)s is done."),
    ),
    (
        rf"There is no (?P<colour>{_COLOUR}) caballero in (?P<region>{_PLACE})\.",
        N_("There is no %(colour)s caballero in %(region)s."),
    ),
    (
        r"Take one caballero of every opponent who has one on the board first\.",
        N_("Take one caballero of every opponent who has one on the board first."),
    ),
    (
        rf"(?P<card>King rages) goes round in turn: it is (?P<colour>{_COLOUR})'s to return "
        r"now\.",
        N_("%(card)s goes round in turn: it is %(colour)s's to return now."),
    ),
    (r"(?P<card>King rages) asks nothing of you\.", N_("%(card)s asks nothing of you.")),
    (
        rf"You have no caballero left in (?P<region>{_PLACE}) to return\.",
        N_("You have no caballero left in %(region)s to return."),
    ),
    # -- intrigues (engine.cards.intrigue) ------------------------------------------------
    (
        r"Move the caballero to another place than the one it is in\.",
        N_("Move the caballero to another place than the one it is in."),
    ),
    (
        rf"(?P<colour>{_COLOUR}) is your other colour: only the colour whose turn it is "
        rf"\((?P<other>{_COLOUR})\) is concerned by its special action, so no card moves the "
        r"partner's caballeros\.",
        N_(
            "%(colour)s is your other colour: only the colour whose turn it is (%(other)s) is "
            "concerned by its special action, so no card moves the partner's caballeros."
        ),
    ),
    (
        rf"(?P<card>{_CARD}) moves at most (?P<number>{_NUMBER}) caballeros\.",
        N_("%(card)s moves at most %(number)s caballeros."),
    ),
    (
        rf"(?P<card>{_CARD}) does not move your own caballeros\.",
        N_("%(card)s does not move your own caballeros."),
    ),
    (
        rf"(?P<card>{_CARD}) does not move your opponents' caballeros\.",
        N_("%(card)s does not move your opponents' caballeros."),
    ),
    (
        rf"(?P<card>{_CARD}) moves (?P<number>{_NUMBER}) caballeros of your own, no more\.",
        N_("%(card)s moves %(number)s caballeros of your own, no more."),
    ),
    (
        rf"(?P<card>{_CARD}) moves (?P<number>{_NUMBER}) caballeros of your opponents', no "
        r"more\.",
        N_("%(card)s moves %(number)s caballeros of your opponents', no more."),
    ),
    (
        rf"There is no (?P<colour>{_COLOUR}) caballero in (?P<region>{_PLACE}) to move\.",
        N_("There is no %(colour)s caballero in %(region)s to move."),
    ),
    (
        rf"(?P<card>{_CARD}) is carried out whole once begun: move the rest of its caballeros\.",
        N_("%(card)s is carried out whole once begun: move the rest of its caballeros."),
    ),
    (
        r'First name the region to move caballeros out of \("region"\)\.',
        N_('First name the region to move caballeros out of ("region").'),
    ),
    (
        rf"(?P<card>{_CARD}) moves caballeros out of (?P<region>{_PLACE}) only\.",
        N_("%(card)s moves caballeros out of %(region)s only."),
    ),
    (
        rf"There are no caballeros in (?P<region>{_PLACE}) that this card may move\.",
        N_("There are no caballeros in %(region)s that this card may move."),
    ),
    (
        r'First name the region to take your caballeros out of \("region"\)\.',
        N_('First name the region to take your caballeros out of ("region").'),
    ),
    (
        rf"(?P<card>{_CARD}) moves your own caballeros only\.",
        N_("%(card)s moves your own caballeros only."),
    ),
    (
        rf"(?P<card>{_CARD}) takes your caballeros out of (?P<region>{_PLACE}) only\.",
        N_("%(card)s takes your caballeros out of %(region)s only."),
    ),
    (
        rf"All your caballeros from (?P<region>{_PLACE}) are placed\.",
        N_("All your caballeros from %(region)s are placed."),
    ),
    (
        rf"Place every caballero you took out of (?P<region>{_PLACE}) first\.",
        N_("Place every caballero you took out of %(region)s first."),
    ),
    (
        rf"(?P<card>{_CARD}) places (?P<number>{_NUMBER}) caballeros from court, no more\.",
        N_("%(card)s places %(number)s caballeros from court, no more."),
    ),
    (
        r"Place both caballeros from your court first\.",
        N_("Place both caballeros from your court first."),
    ),
    (r"You already chose (?P<option>.+)\.", N_("You already chose %(option)s.")),
    (
        r"Choose option court_two or own_region, not (?P<option>.*)\.",
        N_("Choose option court_two or own_region, not %(option)s."),
    ),
    (
        r"Your court is empty: choose own_region\.",
        N_("Your court is empty: choose own_region."),
    ),
    (
        r"You have no caballeros in a region they may leave: choose court_two\.",
        N_("You have no caballeros in a region they may leave: choose court_two."),
    ),
    (
        r'First choose "option court_two" or "option own_region"\.',
        N_('First choose "option court_two" or "option own_region".'),
    ),
    (
        r'(?P<verb>".+?") is not a move of the (?P<option>\S+) option\.',
        N_("%(verb)s is not a move of the %(option)s option."),
    ),
    # -- secret picks and eviction (engine.cards.secret) ----------------------------------
    (
        rf"You have no caballeros in (?P<region>{_PLACE}): pick a region holding yours\.",
        N_("You have no caballeros in %(region)s: pick a region holding yours."),
    ),
    (
        r"Pick a region holding at least 2 of your caballeros: one with a single caballero "
        r"only if none has 2\.",
        N_(
            "Pick a region holding at least 2 of your caballeros: one with a single caballero "
            "only if none has 2."
        ),
    ),
    (
        rf"The region is already named: (?P<region>{_PLACE})\.",
        N_("The region is already named: %(region)s."),
    ),
    (
        rf"No opponent has caballeros in (?P<region>{_PLACE}) to evict\.",
        N_("No opponent has caballeros in %(region)s to evict."),
    ),
    (
        r'First name the region to evict \("region"\)\.',
        N_('First name the region to evict ("region").'),
    ),
    (
        r"Name the region and the order of the opponents in it first\.",
        N_("Name the region and the order of the opponents in it first."),
    ),
    (
        rf"Your caballeros must leave (?P<region>{_PLACE}): pick another region\.",
        N_("Your caballeros must leave %(region)s: pick another region."),
    ),
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
    (
        rf'(?P<reason>In ".+) (?P<hint>Did you mean {_CHOICES}\?)',
        N_("%(reason)s %(hint)s"),
    ),
    (r'(?P<reason>In ".+) (?P<hint>You may: [^"]+\.)', N_("%(reason)s %(hint)s")),
    (rf"Did you mean (?P<choices>{_CHOICES})\?", N_("Did you mean %(choices)s?")),
    (r'You may: (?P<lines>[^"]+)\.', N_("You may: %(lines)s.")),
    (
        rf'In "(?P<text>.*)", "(?P<given>.*)" is not a move \(did you mean '
        rf"(?P<choices>{_CHOICES})\?\)\.",
        N_('In "%(text)s", "%(given)s" is not a move (did you mean %(choices)s?).'),
    ),
    (
        r'In "(?P<text>.*)", "(?P<given>.*)" is not a move \(a move starts with '
        r"(?P<starts>[a-z]+(?:, [a-z]+)*)\)\.",
        N_('In "%(text)s", "%(given)s" is not a move (a move starts with %(starts)s).'),
    ),
    (
        rf'In "(?P<text>.*)", "(?P<given>.*)" is not (?P<what>{_WHAT})\.',
        N_('In "%(text)s", "%(given)s" is not %(what)s.'),
    ),
    (
        rf'In "(?P<text>.*)", "(?P<given>.*)" could be (?P<names>{_NAMES}): write more of the '
        r"name\.",
        N_('In "%(text)s", "%(given)s" could be %(names)s: write more of the name.'),
    ),
    (
        r'In "(?P<text>.*)", a "(?P<verb>[a-z ]+)" line is written like "(?P<example>.*)"\.',
        N_('In "%(text)s", a "%(verb)s" line is written like "%(example)s".'),
    ),
    (
        rf'"(?P<text>.*)" could be (?P<choices>{_CHOICES}): write more of it\.',
        N_('"%(text)s" could be %(choices)s: write more of it.'),
    ),
    (
        rf'"(?P<text>.*)" could be (?P<choices>{_CHOICES})\.',
        N_('"%(text)s" could be %(choices)s.'),
    ),
    (
        r'"(?P<text>.*)" holds several moves: send them one at a time\.',
        N_('"%(text)s" holds several moves: send them one at a time.'),
    ),
    (r"An empty line is not a move\.", N_("An empty line is not a move.")),
    (
        r'The move type "(?P<kind>.*)" has no notation yet\.',
        N_('The move type "%(kind)s" has no notation yet.'),
    ),
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
