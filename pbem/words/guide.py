"""What a decision asks, in words: the power card's allowance, the face-up action cards with
what each does and an example of its action, a worked example of a whole reply, the picks,
a Veto's plan, and a seat's orders in advance. It reads what the reader may see
(`engine.view`) and never looks further."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import engine
from engine.data import INTRIGUE_QUOTAS, KING_CARD, NEIGHBOURS, POWER_CARDS, REGIONS
from engine.types import Movement, PlannedAwardStep, PlannedPowerCardReturnStep
from pbem.languages import N_, _, list_text, ngettext
from pbem.timing import policy
from pbem.words.moves import notation_line
from pbem.words.names import (
    caballeros,
    capitalised,
    card_short_text,
    card_text,
    card_title,
    colour_name,
    place_name,
    spot,
    who,
)


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
                "notation": notation_line(move),
                "places": stack,
                "text": card_text(card),
            }
        )
    return cards


class RoundCard(TypedDict):
    """One of a round's five action cards, as a power card's decision lists them: its
    stack's number (the caballeros it places), its name and its special action in a few
    words."""

    stack: int
    card: str
    title: str
    text: str


def round_cards(view: engine.View) -> list[RoundCard]:
    """The round's action cards still face up, in stack order, each in a few words: what a
    power card is played for (the higher card chooses among them first)."""
    face_up = sorted(view["action_cards"]["face_up"], key=lambda c: c["stack"])
    return [
        {
            "stack": c["stack"],
            "card": c["card"],
            "title": card_title(c["card"]),
            "text": card_short_text(c["card"]),
        }
        for c in face_up
    ]


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
        lines.append(notation_line(move))
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
            examples[move["stack"]] = notation_line(min(special, key=_example_rank))
    return examples


def _decision(state: engine.State, colour: str) -> str | None:
    entry = next((p for p in engine.pending(state) if p["player"] == colour), None)
    if entry is None:
        return None
    return policy.decision_key(entry)


def power_card_line(card: int) -> str:
    """A power card with what it allows: `power 9 (take up to 2 caballeros)`."""
    allowance = POWER_CARDS[card]
    notation = notation_line({"type": "play_power_card", "card": card})
    if not allowance:
        return _("%(notation)s (take no caballeros)", notation=notation)
    return _(
        "%(notation)s (take up to %(caballeros)s)",
        notation=notation,
        caballeros=caballeros(allowance),
    )


def scoring_rounds_line(view: engine.View) -> str:
    """After which of the game's rounds the general scorings come, in the game's own count
    of its rounds (a 6-round game's: after rounds 2, 4 and 6, never the chart's 3, 6, 9),
    and whether this round ends with one: the panel's words and the mails' alike."""
    rounds = view["scoring_rounds"]
    line: str = ngettext(
        "General scoring after round %(rounds)s of %(total)s.",
        "General scoring after rounds %(rounds)s of %(total)s.",
        len(rounds),
        rounds=list_text([str(r) for r in rounds]),
        total=view["rounds_total"],
    )
    if view["phase"] != "over" and view["round_number"] in rounds:
        line += " " + _("This round ends with one.")
    return line


def round_of_chart(view: engine.View, chart_round: int) -> int:
    """A chart round (a kept Veto's `expires`) in the game's own count of its rounds."""
    chart = list(view["chart"])
    return chart.index(chart_round) + 1 if chart_round in chart else chart_round


def king_neighbours(view: engine.View) -> list[str]:
    """Where caballeros may be placed: the regions bordering the king's, and the Castillo."""
    return [place_name(r) for r in REGIONS if r in NEIGHBOURS[view["king"]]] + [_("the Castillo")]


#: Decisions that answer another's special action or a general scoring.
_PICKS = ("castillo_pick", "secret_pick", "king_rages")


def _pick_guide(view: engine.View, colour: str, kind: str, names: Mapping[str, str]) -> list[str]:
    """A secret pick, a Castillo pick or a King-rages return: what asks it, and how."""
    if kind == "castillo_pick":
        count = view["castillo"]["caballeros"].get(colour, 0)
        return [
            ngettext(
                "The Castillo is scored first; then your %(num)d caballero there goes to the "
                "region you pick now (never the king's), and every region is scored with it "
                "there.",
                "The Castillo is scored first; then your %(num)d caballeros there go, all "
                "together, to the region you pick now (never the king's), and every region is "
                "scored with them there.",
                count,
            ),
            _("Picks stay secret until the last is in, and you may change yours until then."),
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
            "%(name)s plays %(card)s: %(action)s.",
            name=capitalised(who(acting, names, colour)),
            **card,
        )
    if kind == "secret_pick":
        return [
            said,
            *_secret_pick_does(view, colour, special),
            _("Your pick stays secret until the last is in; you may change it until then."),
        ]
    return [said, _('Write one "return court" or "return <region>" line for each caballero.')]


def _secret_pick_does(view: engine.View, colour: str, special: engine.SpecialView) -> list[str]:
    """What the reader's own secret pick does, by the card that asks it (the card's text
    says it of everyone)."""
    card = special["card"]
    if card == "secret_two_from_region":
        return [
            _(
                "Pick a region holding at least 2 of your caballeros (one holding a single "
                "caballero only if none holds 2), not the king's: 2 of yours there go back "
                "to your province."
            )
        ]
    if card == "secret_all_from_region":
        return [
            _(
                "Pick a region holding your caballeros, not the king's: all of yours there "
                "go back to your province."
            )
        ]
    if card == "eviction":
        region = special["choices"].get("region")
        if region is None:
            return []
        count = view["regions"][region]["caballeros"].get(colour, 0)
        return [
            ngettext(
                "Your %(num)d caballero in %(region)s must leave it: pick the region it goes "
                "to (neither %(region)s nor the king's).",
                "Your %(num)d caballeros in %(region)s must leave it: pick the region they "
                "all go to (neither %(region)s nor the king's).",
                count,
                region=place_name(region),
            )
        ]
    if card == "secret_scoring":
        return [
            _(
                "Pick any region, the king's too: once every pick is in, each region that "
                "one player alone picked is scored."
            )
        ]
    return []


def plan_step(step: engine.PlannedStep, names: Mapping[str, str], reader: str | None) -> str:
    """One numbered step of a special action's plan, in words (what a veto from it stops)."""
    if step["do"] == "move":
        return "; ".join(_plan_move(m, names, reader) for m in step["caballeros"])
    if step["do"] == "award":
        return _plan_award(step, names, reader)
    if step["do"] == "mobile_scoreboard":
        return _(
            "the %(scoreboard)s scoreboard to %(target)s",
            scoreboard=step["scoreboard"],
            target=spot(step["to"]),
        )
    if step["do"] == "king":
        return _("the king to %(place)s", place=place_name(step["to"]))
    mine = step["colour"] == reader
    name = "" if mine else who(step["colour"], names, reader)
    if step["do"] == "grande":
        place = place_name(step["to"])
        if mine:
            return _("your grande to %(place)s", place=place)
        return _("%(name)s's grande to %(place)s", name=name, place=place)
    if step["do"] == "power_card_return":
        return _plan_power_card(step, name)
    return _("you keeps the Veto card") if mine else _("%(name)s keeps the Veto card", name=name)


def _plan_move(moved: Movement, names: Mapping[str, str], reader: str | None) -> str:
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


def _plan_award(step: PlannedAwardStep, names: Mapping[str, str], reader: str | None) -> str:
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


def _plan_power_card(step: PlannedPowerCardReturnStep, name: str) -> str:
    """A power card back to its hand: `name` "" for the reader's own."""
    if "card" in step:
        if not name:
            return _("your power card %(card)s back to the hand", card=step["card"])
        return _("%(name)s's power card %(card)s back to the hand", name=name, card=step["card"])
    if not name:
        return _("your power card back to the hand")
    return _("%(name)s's power card back to the hand", name=name)


def veto_guide(
    decision: engine.VetoWindowPending, names: Mapping[str, str], reader: str | None
) -> list[str]:
    """A Veto window: the action (or the veto) it is on, its plan in numbered steps."""
    acting = who(decision["acting"], names, reader)
    card = card_title(decision["card"])
    if decision["acting"] == reader:
        lines = [_("You play %(card)s: %(action)s.", card=card, action=card_text(decision["card"]))]
    else:  # the card's text says "your" to its player: the plan below says it for others
        lines = [_("%(name)s plays %(card)s.", name=capitalised(acting), card=card)]
    vetoer = decision.get("vetoer")
    if vetoer == reader and reader:
        lines.append(_("You vetoed it; you may veto that veto."))
    elif vetoer:
        name = capitalised(who(vetoer, names, reader))
        lines.append(_("%(name)s vetoed it; you may veto that veto.", name=name))
    lines.append(_("The plan:"))
    lines += [f"{s['step']}. {plan_step(s, names, reader)}" for s in decision["plan"]]
    lines.append(
        _('"allow" lets it all happen; "veto 1" stops all of it; "veto k" stops it from step k.')
    )
    return lines


def intrigue_moves_left(view: engine.View) -> tuple[int, int] | None:
    """An intrigue under way that moves caballeros (`INTRIGUE_QUOTAS`): how many moves it
    has left and how many it allows in all; None for any other turn."""
    turn, special = view.get("turn"), view.get("special")
    if not turn or turn["special"] != "under_way" or not special:
        return None
    quotas = INTRIGUE_QUOTAS.get(turn["card"] or "")
    if quotas is None or special["stage"] != "planning":
        return None
    moved = sum(
        part["count"]
        for step in special["plan"]
        if step["do"] == "move"
        for part in step["caballeros"]
    )
    allowed = sum(quotas.values())
    return max(allowed - moved, 0), allowed


def _chosen(turn: engine.TurnView, card: str, court: int) -> str:
    """A turn after its `card`: the caballeros it may still place (none once its special
    action is under way, or placing closed: a turn's two actions are not split), and its
    special action."""
    left = min(turn["place_limit"] - turn["placed"], court) if turn["can_place"] else 0
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


#: The cards that hit the opponents one after another, in the order their player chooses
#: with `target` (Italian rules 9.2: "il giocatore che l'ha scelta decide l'ordine"); who is
#: hit first matters once a Veto may stop the action part way.
_ORDERED_CARDS = frozenset(
    {
        "decay_all_court",
        "decay_three_court",
        "secret_two_from_region",
        "secret_all_from_region",
        "eviction",
    }
)
#: The cards that hit every opponent at once: in the two-colour variant, only the one of the
#: opponent's colours their player names with `target`.
_EVERY_OPPONENT_CARDS = frozenset({"king_rages", "secret_scoring"})


def _target_order(view: engine.View, colour: str, names: Mapping[str, str]) -> list[str]:
    """For the player planning a card that hits opponents, while `target` is theirs to
    answer: what its order decides, and whom to name now (first, or next)."""
    special = view.get("special")
    if not special or special["player"] != colour or special["stage"] != "planning":
        return []
    card, choices = special["card"], special.get("choices") or {}
    title = card_title(card)
    if card == "eviction" and "region" not in choices:
        return []  # the region first: the card's own text asks for it
    hit = [c for c in choices.get("targets", []) if c != colour]
    if "teams" in view:
        if card not in _ORDERED_CARDS | _EVERY_OPPONENT_CARDS or hit:
            return []
        return [
            _(
                "%(card)s hits one of your opponent's two colours: choose which (\"target "
                '<colour>").',
                card=title,
            )
        ]
    if card not in _ORDERED_CARDS:
        return []
    if card == "eviction":
        first = _(
            "You named %(region)s: %(card)s hits your opponents there one after another, in "
            "the order you choose, and a Veto may stop it before it reaches the later ones.",
            region=place_name(choices["region"]),
            card=title,
        )
    else:
        first = _(
            "%(card)s hits your opponents one after another, in the order you choose, and a "
            "Veto may stop it before it reaches the later ones.",
            card=title,
        )
    if not hit:
        return [
            first,
            _('Choose whom it hits first ("target <colour>"); the last follows by itself.'),
        ]
    after = ", ".join(who(c, names, colour) for c in hit)
    return [
        first,
        _(
            'Choose whom it hits next, after %(hit)s ("target <colour>"); the last follows by '
            "itself.",
            hit=after,
        ),
    ]


def _power_card_guide(view: engine.View) -> list[str]:
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


def king_line(view: engine.View) -> str:
    """Where the king is, and so where caballeros from court may go (until a card moves
    him)."""
    return _(
        "The king is in %(place)s: caballeros may be placed in %(places)s.",
        place=place_name(view["king"]),
        places=", ".join(king_neighbours(view)),
    )


def guide(
    view: engine.View,
    colour: str,
    decision: engine.Pending,
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
    if decision["kind"] == "veto_window":  # read from `decision`, so its type narrows
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
        lines.append(_chosen(turn, turn["card"], player["court"]))
        lines += _target_order(view, colour, names or {})
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
    if turn["step"] != "act" or turn["can_place"]:
        # Once placing is over (the special action began), where they might go is not asked.
        lines.append(king_line(view))
    return lines


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
                    move=notation_line(move),
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


#: What a pending decision asks, in words.
ASKS = {
    "power_card": N_("Play a power card for this round."),
    "turn": N_("It is your turn."),
    "castillo_pick": N_(
        "General scoring: pick, in secret, the region your Castillo caballeros go to."
    ),
    "secret_pick": N_("Pick a region in secret for the special action under way."),
    "king_rages": N_("King rages: return caballeros of yours to the province."),
    "veto_window": N_("A Veto window is open to you: allow the special action, or veto it."),
}
