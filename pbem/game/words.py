"""The game in words, written once for mails and pages alike: what each action card does,
what a stretch of the log made happen (the story since a player's last move), and where a
player's points came from.

Everything here reads what a reader may already see (`engine.view`, `engine.visible_log`):
it words it and never looks further.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypedDict

import engine
from engine import names as board_names
from engine.data import INTRIGUE_QUOTAS, KING_CARD, NEIGHBOURS, PLACE_NAMES, POWER_CARDS, REGIONS
from pbem.languages import N_, _, current_language, lazy_, ngettext
from pbem.timing import policy

#: Each action card's special action, in a line (the stack number says how many caballeros
#: it lets its player place; the King card places 5).
CARD_TEXTS: dict[str, str] = {
    "intrigue_own_region": N_(
        "take all your caballeros out of one region and spread them "
        "over other regions and/or the Castillo"
    ),
    "intrigue_court_two": N_(
        "place 2 more caballeros from your court in any regions and/or the Castillo"
    ),
    "intrigue_court_two_or_own_region": N_(
        "your choice: 2 more caballeros from your court "
        "anywhere, or empty one region of yours and spread them"
    ),
    "intrigue_five_from_region": N_(
        "move up to 5 caballeros (any colours) out of one region "
        "to other regions and/or the Castillo"
    ),
    "intrigue_three_foreign": N_(
        "move up to 3 opponents' caballeros to other regions and/or the Castillo"
    ),
    "intrigue_three_any": N_(
        "move up to 3 caballeros of any colours to other regions and/or the Castillo"
    ),
    "intrigue_two_own_two_foreign": N_(
        "move 2 of your caballeros and 2 of opponents' to other regions and/or the Castillo"
    ),
    "intrigue_four_own": N_("move up to 4 of your caballeros to other regions and/or the Castillo"),
    "intrigue_four_any": N_(
        "move up to 4 caballeros of any colours to other regions and/or the Castillo"
    ),
    "veto": N_("keep it to stop one special action (or the rest of one), this round or the next"),
    "decay_all_court": N_("every opponent sends all the caballeros of their court to the province"),
    "decay_three_court": N_("every opponent sends 3 caballeros from court to province"),
    "king_rages": N_(
        "every opponent returns 3 of their caballeros from regions and/or court to the province"
    ),
    "one_from_each_opponent": N_(
        "send 1 caballero of each opponent from a region you choose to the province"
    ),
    "secret_two_from_region": N_(
        "every opponent secretly picks a region of theirs and returns 2 "
        "caballeros from it to the province"
    ),
    "secret_all_from_region": N_(
        "every opponent secretly picks a region of theirs and returns "
        "all their caballeros there to the province"
    ),
    "score_chosen_region": N_("score one region of your choice (the king's or the Castillo too)"),
    "score_four_regions": N_("score every region whose first value is now 4"),
    "score_five_regions": N_("score every region whose first value is now 5"),
    "score_six_seven_regions": N_("score every region whose first value is now 6 or 7"),
    "score_castillo": N_("score the Castillo (its caballeros stay inside)"),
    "score_first_places": N_("in every region, a sole first place scores its first value"),
    "score_most_caballeros": N_("score the region(s) with the most caballeros in all"),
    "score_fewest_caballeros": N_(
        "score the region(s) with the fewest caballeros (empty ones not counted)"
    ),
    "mobile_scoreboard": N_(
        "lay a mobile scoreboard (8/4/0 or 4/0/0) on a region or the "
        "Castillo, or move one that is out"
    ),
    "royal_adviser": N_("move the king to a region bordering his"),
    "eviction": N_(
        "name a region: every opponent moves all their caballeros there to a region "
        "they pick in secret"
    ),
    "grande": N_("move your grande to another region (your home bonus moves with it)"),
    "power_card_return": N_("take back into your hand a power card you have played"),
    "court_two": N_("bring 2 caballeros from your province to your court"),
    "secret_scoring": N_(
        "every player secretly picks a region; a region picked by one player only is scored"
    ),
    "king": N_("move the king to any region"),
}

#: Where points come from, as the final standings sum them.
SOURCES = (N_("general scorings"), N_("action cards"), N_("king's bonuses"), N_("home bonuses"))

#: The colours as prose names them (the notation keeps them English).
COLOUR_NAMES: dict[str, str] = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "brown": N_("brown"),
}


def colour_name(colour: str) -> str:
    """A colour in prose, in the current language (`red`; `rot` in German)."""
    return _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def colour_later(colour: str) -> Any:
    """A colour's prose name, translated when it is made a string: for a notice composed
    once and mailed to many, each in their own language."""
    return lazy_(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def card_text(card: str) -> str:
    """An action card's special action in a line, in the current language ("" if none)."""
    text = CARD_TEXTS.get(card, "")
    return _(text) if text else ""


def place_name(place: str) -> str:
    if place in board_names.PLACE_NAMES:
        return board_names.place_name(place, current_language())
    return PLACE_NAMES.get(place, place.replace("_", " ").title())


def card_title(card: str) -> str:
    """An action card's name in the current language (English: its id as words,
    `intrigue_four_own` -> `Intrigue four own`)."""
    if card in board_names.CARD_NAMES:
        return board_names.card_name(card, current_language())
    return "King" if card == KING_CARD else card.replace("_", " ").capitalize()


def caballeros(count: int) -> str:
    return ngettext("%(num)d caballero", "%(num)d caballeros", count)


class FaceUpCard(TypedDict):
    """An action card a turn may choose, as mails and the page show it."""

    card: str
    stack: int
    title: str
    notation: str
    places: int  # the caballeros it places: its stack's number
    text: str


def face_up_cards(view: engine.View) -> list[FaceUpCard]:
    """The action cards a turn may choose from, each with its notation, the caballeros it
    places and its special action in a line."""
    cards: list[FaceUpCard] = []
    for face_up in view["action_cards"]["face_up"]:
        card, stack = face_up["card"], face_up["stack"]
        move: engine.Move = {"type": "choose_card", "card": card, "stack": stack}
        cards.append(
            {
                "card": card,
                "stack": stack,
                "title": card_title(card),
                "notation": engine.format_move(move),
                "places": stack,
                "text": card_text(card),
            }
        )
    return cards


def ordinal(rank: int) -> str:
    if rank == 1:
        return _("1st")
    if rank == 2:
        return _("2nd")
    if rank == 3:
        return _("3rd")
    return _("%(rank)sth", rank=rank)


def who(colour: str, names: Mapping[str, str], reader: str | None) -> str:
    """A colour as the story names it: "you" to its own reader, else "Ann (red)"."""
    if colour == reader:
        return _("you")
    name = names.get(colour)
    return (
        _("%(name)s (%(colour)s)", name=name, colour=colour_name(colour))
        if name
        else colour_name(colour)
    )


def scoring_lines(
    scores: Sequence[Mapping[str, Any]], names: Mapping[str, str], reader: str | None
) -> list[str]:
    """Score events as a breakdown, a line per place scored: ranks (ties named as the rule
    scores them), points, and a sole first place's king's and home bonuses."""
    lines = []
    for place, awards in _by_place(scores):
        ranked = [a for a in awards if a.get("reason", "rank") == "rank"]
        bonuses: dict[str, list[str]] = {}
        for award in awards:
            if award.get("reason") in ("king_bonus", "home_bonus"):
                label = (
                    _("+%(points)s king's bonus", points=award["points"])
                    if award["reason"] == "king_bonus"
                    else _("+%(points)s home bonus", points=award["points"])
                )
                bonuses.setdefault(award["player"], []).append(label)
        parts = []
        position = 1
        for points in sorted({a["points"] for a in ranked}, reverse=True):
            group = [a["player"] for a in ranked if a["points"] == points]
            # A tie is named for the place it is for; the points (the next place's, by
            # the rule) say the rest.
            for colour in group:
                said = {
                    "who": who(colour, names, reader),
                    "points": points,
                    "rank": ordinal(position),
                }
                part = (
                    _("%(who)s %(points)s (tied for %(rank)s)", **said)
                    if len(group) > 1
                    else _("%(who)s %(points)s (%(rank)s)", **said)
                )
                parts.append(" ".join([part, *bonuses.get(colour, [])]))
            position += len(group)
        lines.append(
            _("%(place)s scored: %(parts)s.", place=place_name(place), parts="; ".join(parts))
        )
    return lines


def _by_place(scores: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """Score events grouped by place, in the order the places were scored."""
    groups: list[tuple[str, list[Mapping[str, Any]]]] = []
    for award in scores:
        if not groups or groups[-1][0] != award["place"]:
            groups.append((award["place"], []))
        groups[-1][1].append(award)
    return groups


def spot(where: str) -> str:
    """A location as a sentence names it: "the Castillo", "the court", "Aragon"."""
    if where == "province":
        return _("the province")
    if where == "court":
        return _("the court")
    return _("the Castillo") if where == "castillo" else place_name(where)


def _moved(event: Mapping[str, Any], names: Mapping[str, str], reader: str | None) -> str:
    route = {"origin": spot(event["from"]), "target": spot(event["to"])}
    if event["player"] == reader:
        return ngettext(
            "%(num)d of your caballeros went from %(origin)s to %(target)s.",
            "%(num)d of your caballeros went from %(origin)s to %(target)s.",
            event["count"],
            **route,
        )
    return ngettext(
        "%(num)d of %(name)s's caballeros went from %(origin)s to %(target)s.",
        "%(num)d of %(name)s's caballeros went from %(origin)s to %(target)s.",
        event["count"],
        name=who(event["player"], names, reader),
        **route,
    )


def event_lines(
    events: Sequence[Mapping[str, Any]], names: Mapping[str, str], reader: str | None
) -> list[str]:
    """What a move's events did beyond the move itself, in words: caballeros moved or sent
    away (the reader's first), the king, grandes, scoreboards, picks revealed, vetoes and
    every scoring with its breakdown."""
    moved = [e for e in events if e["type"] == "caballeros_moved"]
    moved.sort(key=lambda e: e["player"] != reader)
    lines = [_moved(e, names, reader) for e in moved]
    scores: list[Mapping[str, Any]] = []
    for event in events:
        if event["type"] == "score":
            scores.append(event)
            continue
        if scores:
            lines += scoring_lines(scores, names, reader)
            scores = []
        line = _event_line(event, names, reader)
        if line:
            lines.append(line)
    return lines + scoring_lines(scores, names, reader)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _picks(event: Mapping[str, Any], names: Mapping[str, str], reader: str | None) -> str:
    return ", ".join(
        _("%(who)s: %(place)s", who=who(c, names, reader), place=place_name(r))
        for c, r in event["picks"].items()
    )


def _carried_out(event: Mapping[str, Any], name: str) -> str | None:
    """Only a vetoed action needs saying: otherwise its moves and effects tell it."""
    vetoed = event.get("vetoed_from")
    if not vetoed:
        return None
    said = {"card": card_title(event["card"]), "last": vetoed - 1, "step": vetoed}
    if not name:  # the reader's own
        return _(
            "%(card)s of you was carried out up to step %(last)s (vetoed from step %(step)s).",
            **said,
        )
    return _(
        "%(card)s of %(name)s was carried out up to step %(last)s (vetoed from step %(step)s).",
        name=name,
        **said,
    )


def _card_of(event: Mapping[str, Any]) -> dict[str, str]:
    return {"card": card_title(event["card"])}


#: A sentence (or none) from an event, its player's name and a function saying its picks.
Sentence = Callable[[Mapping[str, Any], str, Callable[[Mapping[str, Any]], str]], str | None]

#: One sentence per kind of event, from the event, its player's name ("" for the reader's
#: own: the sentence then says "you") and the picks said.
_SENTENCES: dict[str, Sentence] = {
    "king_moved": lambda e, n, p: _("The king moved to %(place)s.", place=place_name(e["to"])),
    "grande_moved": lambda e, n, p: (
        _("%(name)s's grande moved to %(place)s.", name=_cap(n), place=place_name(e["to"]))
        if n
        else _("Your grande moved to %(place)s.", place=place_name(e["to"]))
    ),
    "scoreboard_moved": lambda e, n, p: _(
        "The %(scoreboard)s scoreboard now lies on %(target)s.",
        scoreboard=e["scoreboard"],
        target=spot(e["to"]),
    ),
    "secret_picks_revealed": lambda e, n, p: _(
        "The secret picks for %(card)s were revealed: %(picks)s.", picks=p(e), **_card_of(e)
    ),
    "castillo_revealed": lambda e, n, p: (
        _("The Castillo's caballeros went out to the regions picked: %(picks)s.", picks=p(e))
        if e["picks"]
        else None
    ),
    "veto_window_opened": lambda e, n, p: (
        _("%(card)s of %(name)s waits for the Veto's holders.", name=n, **_card_of(e))
        if n
        else _("%(card)s of you waits for the Veto's holders.", **_card_of(e))
    ),
    "veto_played": lambda e, n, p: (
        _(
            "%(name)s vetoed %(card)s from step %(step)s.",
            name=_cap(n),
            step=e["from_step"],
            **_card_of(e),
        )
        if n
        else _("You vetoed %(card)s from step %(step)s.", step=e["from_step"], **_card_of(e))
    ),
    "special_action": lambda e, n, p: _carried_out(e, n),
    "veto_kept": lambda e, n, p: (
        _("%(name)s kept the Veto card.", name=_cap(n)) if n else _("You kept the Veto card.")
    ),
    "veto_expired": lambda e, n, p: (
        _("%(name)s's unused Veto was laid aside.", name=_cap(n))
        if n
        else _("Your unused Veto was laid aside.")
    ),
    "power_card_returned": lambda e, n, p: (
        _("%(name)s took a played power card back into the hand.", name=_cap(n))
        if n
        else _("You took a played power card back into the hand.")
    ),
    "special_skipped": lambda e, n, p: (
        _("%(name)s skipped the special action of %(card)s.", name=_cap(n), **_card_of(e))
        if n
        else _("You skipped the special action of %(card)s.", **_card_of(e))
    ),
    "general_scoring": lambda e, n, p: _("General scoring:"),
    "round_started": lambda e, n, p: _(
        "Round %(round)s began; the action cards face up: %(cards)s.",
        round=e["round"],
        cards=", ".join(card_title(c) for c in e["action_cards"]),
    ),
    "game_over": lambda e, n, p: _("The game is over."),
}


def _event_line(
    event: Mapping[str, Any], names: Mapping[str, str], reader: str | None
) -> str | None:
    sentence = _SENTENCES.get(event["type"])
    if sentence is None:
        return None  # said by the move itself (a card chosen, a caballero placed)
    player = event.get("player")
    name = who(player, names, reader) if player and player != reader else ""
    return sentence(event, name, lambda e: _picks(e, names, reader))


def story(
    entries: Iterable[engine.ShownLogEntry], names: Mapping[str, str], reader: str | None
) -> list[str]:
    """A stretch of the log as its reader may see it, in order: each player's moves in the
    notation (a run of one player's moves on one line), then what they made happen."""
    lines: list[str] = []
    run_player: str | None = None
    run: list[str] = []
    effects: list[str] = []

    def close() -> None:
        if run_player is not None:
            lines.append(f"{_cap(who(run_player, names, reader))}: {'; '.join(run)}")
            lines.extend(f"  {effect}" for effect in effects)

    for entry in entries:
        said = event_lines(entry["events"], names, reader)
        if entry["player"] != run_player or effects:
            close()
            run_player, run, effects = entry["player"], [], []
        run.append(_move_words(entry))
        effects = said
    close()
    return lines


#: A move shown without its fields (another's pick not yet revealed, a card taken back),
#: by its kind.
SECRET_MOVES = {
    "castillo_pick": N_("Castillo disk (secret)"),
    "secret_pick": N_("secret disk (secret)"),
    "return_power_card": N_("take back a power card (secret)"),
}


def secret_move(kind: str) -> str:
    """A move shown without its fields, in words ("secret disk (secret)")."""
    if kind in SECRET_MOVES:
        return _(SECRET_MOVES[kind])
    return _("%(move)s (secret)", move=kind.replace("_", " "))


def _move_words(entry: engine.ShownLogEntry) -> str:
    if "hidden" in entry:
        return secret_move(entry["move"]["type"])
    return engine.format_move(entry["move"])


def points_by_source(entries: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Each colour's points over a whole log, by source (`SOURCES`): general scorings and
    action cards (ranks only), and king's and home bonuses from either."""
    totals: dict[str, dict[str, int]] = {}
    for entry in entries:
        general = False
        for event in entry["events"]:
            if event["type"] in ("general_scoring", "castillo_revealed"):
                general = True
            if event["type"] != "score":
                continue
            reason = event.get("reason", "rank")
            source = {"king_bonus": "king's bonuses", "home_bonus": "home bonuses"}.get(
                reason, "general scorings" if general else "action cards"
            )
            own = totals.setdefault(event["player"], dict.fromkeys(SOURCES, 0))
            own[source] += event["points"]
    return totals


#: The moves a worked example prefers, first first: a whole turn that draws, chooses a card
#: (the King card where it is face up: its special action is one line), places and acts.
_EXAMPLE_ORDER = {
    kind: rank
    for rank, kind in enumerate(
        (
            "play_power_card",
            "castillo_pick",
            "secret_pick",
            "return_caballero",
            "allow",
            "take_caballeros",
            "take_from_region",
            "choose_card",
            "place",
            "do_special",
            "move_king",
            "special_option",
            "special_region",
            "special_place",
            "move_caballero",
            "target",
            "remove_caballero",
            "move_scoreboard",
            "move_grande",
            "return_power_card",
            "end_special",
            "skip_special",
            "end_turn",
        )
    )
}
#: A worked example stops after this many moves (a turn is some 10 to 20).
EXAMPLE_MOST = 40


def _example_rank(move: engine.Move) -> tuple[int, int, int, int]:
    fields: Mapping[str, Any] = move
    card = fields.get("card")
    return (
        _EXAMPLE_ORDER.get(move["type"], len(_EXAMPLE_ORDER)),
        -int(fields.get("count") or 0),  # take as many as allowed
        0 if card == KING_CARD else 1,
        1 if "from" in fields and fields["from"] == fields.get("to") else 0,  # a real move
    )


def worked_example(state: engine.State, colour: str) -> list[str]:
    """A whole answer to `colour`'s decision now, in the notation: legal moves played on
    copies until the decision is no longer theirs (a turn's every step, its special action
    included), stopping before anything is revealed that they do not know yet."""
    lines: list[str] = []
    board = state
    asked = _decision(board, colour)
    while asked is not None and len(lines) < EXAMPLE_MOST:
        legal = engine.legal_moves(board, colour)
        if not legal:
            break
        move = min(legal, key=_example_rank)
        board, events = engine.apply(board, colour, move)
        lines.append(engine.format_move(move))
        if engine.reveals_hidden(events) or _decision(board, colour) != asked:
            break
    return lines


#: Moves of a turn that are not its card's special action.
_NOT_SPECIAL = frozenset({"take_caballeros", "choose_card", "place", "end_turn", "skip_special"})


def card_examples(state: engine.State, colour: str) -> dict[int, str]:
    """For a turn yet to choose its action card: by stack, how the notation writes the first
    move of each face-up card's special action here, once that card is chosen after taking
    all the caballeros allowed (`king galicia`, `remove blue aragon`); a card whose action
    offers no move has none."""
    board = state
    legal = engine.legal_moves(board, colour)
    if not any(m["type"] == "choose_card" for m in legal):
        takes = [m for m in legal if m["type"] == "take_caballeros"]
        if not takes:
            return {}
        # As most turns go, and as the worked example does: as many taken as allowed.
        board, _events = engine.apply(board, colour, min(takes, key=_example_rank))
        legal = engine.legal_moves(board, colour)
    examples = {}
    for move in legal:
        if move["type"] != "choose_card":
            continue
        chosen, _events = engine.apply(board, colour, move)
        special = [m for m in engine.legal_moves(chosen, colour) if m["type"] not in _NOT_SPECIAL]
        if special:
            examples[move["stack"]] = engine.format_move(min(special, key=_example_rank))
    return examples


def _decision(state: engine.State, colour: str) -> str | None:
    entry = next((p for p in engine.pending(state) if p["player"] == colour), None)
    if entry is None:
        return None
    return policy.decision_key(entry)


def power_card_line(card: int) -> str:
    """A power card with what it allows: `power 9 (take up to 2 caballeros)`."""
    allowance = POWER_CARDS[card]
    notation = f"power {card}"
    if not allowance:
        return _("%(notation)s (take no caballeros)", notation=notation)
    return _(
        "%(notation)s (take up to %(caballeros)s)",
        notation=notation,
        caballeros=caballeros(allowance),
    )


def king_neighbours(view: Mapping[str, Any]) -> list[str]:
    """Where caballeros may be placed: the regions bordering the king's, and the Castillo."""
    return [place_name(r) for r in REGIONS if r in NEIGHBOURS[view["king"]]] + [_("the Castillo")]


#: Decisions that answer another's special action or a general scoring.
_PICKS = ("castillo_pick", "secret_pick", "king_rages")


def _pick_guide(
    view: Mapping[str, Any], colour: str, kind: str, names: Mapping[str, str]
) -> list[str]:
    """A secret pick, a Castillo pick or a King-rages return: what asks it, and how."""
    if kind == "castillo_pick":
        count = view["castillo"]["caballeros"].get(colour, 0)
        return [
            ngettext(
                "General scoring: your %(num)d caballero in the Castillo goes to the region you "
                "pick now (never the king's). Picks stay secret until the last is in, and you "
                "may change yours until then.",
                "General scoring: your %(num)d caballeros in the Castillo go, all together, to "
                "the region you pick now (never the king's). Picks stay secret until the last "
                "is in, and you may change yours until then.",
                count,
            )
        ]
    special = view["special"]
    if special is None:
        return []
    acting = special["player"]
    card = {"card": card_title(special["card"]), "action": card_text(special["card"])}
    if acting == colour:
        said = _("You play %(card)s: %(action)s.", **card)
    else:
        said = _(
            "%(name)s plays %(card)s: %(action)s.", name=_cap(who(acting, names, colour)), **card
        )
    if kind == "secret_pick":
        return [
            said,
            _("Your pick stays secret until the last is in; you may change it until then."),
        ]
    return [said, _('Write one "return court" or "return <region>" line for each caballero.')]


def plan_step(step: Mapping[str, Any], names: Mapping[str, str], reader: str | None) -> str:
    """One numbered step of a special action's plan, in words (what a veto from it stops)."""
    do = step["do"]
    if do == "move":
        return "; ".join(_plan_move(m, names, reader) for m in step["caballeros"])
    if do == "award":
        return _plan_award(step, names, reader)
    if do == "mobile_scoreboard":
        return _(
            "the %(scoreboard)s scoreboard to %(target)s",
            scoreboard=step["scoreboard"],
            target=spot(step["to"]),
        )
    if do == "king":
        return _("the king to %(place)s", place=place_name(step["to"]))
    mine = step.get("colour") == reader
    name = "" if mine else who(step.get("colour", ""), names, reader)
    if do == "grande":
        place = place_name(step["to"])
        if mine:
            return _("your grande to %(place)s", place=place)
        return _("%(name)s's grande to %(place)s", name=name, place=place)
    if do == "power_card_return":
        return _plan_power_card(step, name)
    if do == "keep_veto":
        return (
            _("you keeps the Veto card") if mine else _("%(name)s keeps the Veto card", name=name)
        )
    return str(do).replace("_", " ")


def _plan_move(moved: Mapping[str, Any], names: Mapping[str, str], reader: str | None) -> str:
    route = {"origin": spot(moved["from"]), "target": spot(moved["to"])}
    if moved["colour"] == reader:
        return ngettext(
            "%(num)d of your caballeros from %(origin)s to %(target)s",
            "%(num)d of your caballeros from %(origin)s to %(target)s",
            moved["count"],
            **route,
        )
    return ngettext(
        "%(num)d of %(name)s's caballeros from %(origin)s to %(target)s",
        "%(num)d of %(name)s's caballeros from %(origin)s to %(target)s",
        moved["count"],
        name=who(moved["colour"], names, reader),
        **route,
    )


def _plan_award(step: Mapping[str, Any], names: Mapping[str, str], reader: str | None) -> str:
    """A place's scoring is split into steps by rank (a veto may stop it between them), so a
    step says its points, not ranks it cannot see whole."""
    awards = []
    for award in step["awards"]:
        if not award["points"]:
            continue
        said = {"who": who(award["player"], names, reader), "points": award["points"]}
        if award["reason"] == "king_bonus":
            awards.append(_("%(who)s +%(points)s (king's bonus)", **said))
        elif award["reason"] == "home_bonus":
            awards.append(_("%(who)s +%(points)s (home bonus)", **said))
        else:
            awards.append(_("%(who)s +%(points)s", **said))
    return _(
        "%(place)s scores: %(awards)s",
        place=place_name(step["place"]),
        awards=", ".join(awards) or _("nothing"),
    )


def _plan_power_card(step: Mapping[str, Any], name: str) -> str:
    """A power card back to its hand: `name` "" for the reader's own."""
    if "card" in step:
        if not name:
            return _("your power card %(card)s back to the hand", card=step["card"])
        return _("%(name)s's power card %(card)s back to the hand", name=name, card=step["card"])
    if not name:
        return _("your power card back to the hand")
    return _("%(name)s's power card back to the hand", name=name)


def veto_guide(
    decision: Mapping[str, Any], names: Mapping[str, str], reader: str | None
) -> list[str]:
    """A Veto window: the action (or the veto) it is on, its plan in numbered steps."""
    acting = who(decision["acting"], names, reader)
    card = card_title(decision["card"])
    if decision["acting"] == reader:
        lines = [_("You play %(card)s: %(action)s.", card=card, action=card_text(decision["card"]))]
    else:  # the card's text says "your" to its player: the plan below says it for others
        lines = [_("%(name)s plays %(card)s.", name=_cap(acting), card=card)]
    if decision.get("vetoer") == reader and reader:
        lines.append(_("You vetoed it; you may veto that veto."))
    elif decision.get("vetoer"):
        vetoer = _cap(who(decision["vetoer"], names, reader))
        lines.append(_("%(name)s vetoed it; you may veto that veto.", name=vetoer))
    lines.append(_("The plan:"))
    lines += [f"{s['step']}. {plan_step(s, names, reader)}" for s in decision["plan"]]
    lines.append(
        _('"allow" lets it all happen; "veto 1" stops all of it; "veto k" stops it from step k.')
    )
    return lines


def intrigue_moves_left(view: Mapping[str, Any]) -> tuple[int, int] | None:
    """An intrigue under way that moves caballeros (`INTRIGUE_QUOTAS`): how many moves it
    has left and how many it allows in all; None for any other turn."""
    turn, special = view.get("turn"), view.get("special")
    if not turn or turn["special"] != "under_way" or not special:
        return None
    quotas = INTRIGUE_QUOTAS.get(turn["card"])
    if quotas is None or special.get("stage") != "planning":
        return None
    moved = sum(part["count"] for step in special["plan"] for part in step.get("caballeros", ()))
    allowed = sum(quotas.values())
    return max(allowed - moved, 0), allowed


def _chosen(turn: Mapping[str, Any], court: int) -> str:
    """A turn after its card: the caballeros it may still place, and its special action."""
    card = turn["card"]
    left = min(turn["place_limit"] - turn["placed"], court)
    parts = []
    if left > 0:
        parts.append(
            ngettext(
                "place up to %(num)d caballero more from your court (%(court)s)",
                "place up to %(num)d caballeros more from your court (%(court)s)",
                left,
                court=court,
            )
        )
    text = card_text(card)
    if turn["special"] == "open":
        parts.append(
            _('its special action: %(action)s (its moves are below; or "skip" it)', action=text)
        )
    elif turn["special"] == "under_way":
        parts.append(_("carry on with its special action: %(action)s", action=text))
    if not parts:
        return _(
            'You chose %(card)s, and all of it is done: "done" ends your turn.',
            card=card_title(card),
        )
    if len(parts) == 2:
        parts = [_("%(first)s, and %(second)s", first=parts[0], second=parts[1])]
    return _("You chose %(card)s: %(parts)s.", card=card_title(card), parts=parts[0])


def _power_card_guide(view: Mapping[str, Any]) -> list[str]:
    played = [
        f"{colour_name(c)} {p['power_card']}"
        for c, p in view["players"].items()
        if p["power_card"] is not None
    ]
    lines = [
        _(
            "The higher your card, the earlier you act this round; the lower, the more "
            "caballeros you may take from your province into your court."
        )
    ]
    if played:
        lines.append(_("Played this round: %(cards)s.", cards=", ".join(played)))
    return lines


def guide(
    view: Mapping[str, Any],
    colour: str,
    decision: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
) -> list[str]:
    """What a decision needs said so that one reply can answer it whole: for a turn, the
    power card's allowance, what the chosen card allows, and where caballeros may go."""
    kind = decision["kind"]
    player = view["players"][colour]
    if kind == "power_card":
        return _power_card_guide(view)
    if kind in _PICKS:
        return _pick_guide(view, colour, kind, names or {})
    if kind == "veto_window":
        return veto_guide(decision, names or {}, colour)
    turn = view["turn"]
    if kind != "turn" or turn is None:
        return []
    lines = []
    if turn["step"] == "draw":
        lines.append(
            ngettext(
                "Your power card %(card)s lets you take up to %(num)d caballero from your "
                'province (%(province)s) into your court (%(court)s): "take N".',
                "Your power card %(card)s lets you take up to %(num)d caballeros from your "
                'province (%(province)s) into your court (%(court)s): "take N".',
                turn["draw_limit"],
                card=player["power_card"],
                province=player["province"],
                court=player["court"],
            )
        )
    if turn["step"] == "draw":
        lines.append(
            _(
                'Then choose one action card face up below ("card ..."): it says how many '
                "caballeros you place from your court, and its special action."
            )
        )
    elif turn["step"] == "choose_card":
        lines.append(
            _(
                'Choose one action card face up below ("card ..."): it says how many '
                "caballeros you place from your court, and its special action."
            )
        )
    elif turn["card"] is not None:
        lines.append(_chosen(turn, player["court"]))
        left = intrigue_moves_left(view)
        if left is not None:
            lines.append(
                ngettext(
                    "%(num)d of %(total)d caballero moves left: choose one, or stop early "
                    '("stop" in a mail, "End the special action" on the page).',
                    "%(num)d of %(total)d caballero moves left: choose one, or stop early "
                    '("stop" in a mail, "End the special action" on the page).',
                    left[0],
                    total=left[1],
                )
            )
    lines.append(
        _(
            "The king is in %(place)s: caballeros may be placed in %(places)s.",
            place=place_name(view["king"]),
            places=", ".join(king_neighbours(view)),
        )
    )
    return lines


def scores_by_round(
    entries: Iterable[Mapping[str, Any]], colours: Sequence[str]
) -> list[dict[str, int]]:
    """Each colour's score at the start and at the end of every round (the last: now), from
    a log from the start with its events: the points of a score chart."""
    score = dict.fromkeys(colours, 0)
    rounds = [dict(score)]
    for entry in entries:
        for event in entry["events"]:
            if event["type"] == "score":
                score[event["player"]] = score.get(event["player"], 0) + event["points"]
            elif event["type"] == "round_started" and event["round"] > 1:
                rounds.append(dict(score))
    if rounds[-1] != score or len(rounds) == 1:
        rounds.append(dict(score))
    return rounds


def orders_played(moves: Sequence[engine.Move]) -> list[str]:
    """What a seat's orders played for it, said to that seat (its mail and page)."""
    lines = []
    for move in moves:
        if move["type"] == "play_power_card":
            lines.append(_("Your orders played power card %(card)s for you.", card=move["card"]))
        else:
            lines.append(
                _(
                    "Your standing answer let a Veto window pass (%(move)s).",
                    move=engine.format_move(move),
                )
            )
    return lines


def orders_answer(
    played: Sequence[engine.Move], power_cards: Sequence[int], veto_allow: bool
) -> list[str]:
    """The answer to orders given: what they played at once, then what stands, said once
    (a power card order played at once is not then said to be missing)."""
    used_up = any(move["type"] == "play_power_card" for move in played)
    return orders_played(played) + orders_lines(power_cards, veto_allow, used_up)


def orders_hint(kind: str) -> list[str]:
    """For a decision an order can answer in advance, how a mail gives that order."""
    if kind == "power_card":
        return [
            _(
                'Away for a while? Order ahead with "plan 13 11 9": at your next power card, '
                "the first of those still in your hand and not played this round is played "
                'for you (a secret until then); "plan" alone cancels the order.'
            )
        ]
    if kind == "veto_window":
        return [
            _(
                '"veto allow" answers allow at once to every Veto window for the rest of this '
                'round; "veto ask" undoes it.'
            )
        ]
    return []


def orders_lines(power_cards: Sequence[int], veto_allow: bool, used_up: bool = False) -> list[str]:
    """A seat's orders as they stand, said to that seat alone (they are its secret).
    `used_up`: power cards ordered were played at once, which said so; nothing is left to
    say of them."""
    lines = []
    if power_cards:
        cards = ", ".join(str(card) for card in power_cards)
        first = _(
            "Power cards ordered: %(cards)s. At your next power card the first of them still "
            "in your hand and not played this round is played at once.",
            cards=cards,
        )
        lines.append(first)
    elif not used_up:
        lines.append(_("No power cards ordered: you are asked for your power card."))
    if veto_allow:
        lines.append(_("Veto windows this round are answered allow at once (veto ask to stop it)."))
    else:
        lines.append(_("You are asked at each Veto window."))
    return lines
