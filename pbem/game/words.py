"""The game in words, written once for mails and pages alike: what each action card does,
what a stretch of the log made happen (the story since a player's last move), and where a
player's points came from.

Everything here reads what a reader may already see (`engine.view`, `engine.visible_log`):
it words it and never looks further.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import engine
from engine.data import INTRIGUE_QUOTAS, KING_CARD, NEIGHBOURS, PLACE_NAMES, POWER_CARDS, REGIONS
from pbem.timing import policy

#: Each action card's special action, in a line (the stack number says how many caballeros
#: it lets its player place; the King card places 5).
CARD_TEXTS: dict[str, str] = {
    "intrigue_own_region": "take all your caballeros out of one region and spread them "
    "over other regions and/or the Castillo",
    "intrigue_court_two": "place 2 more caballeros from your court in any regions and/or "
    "the Castillo",
    "intrigue_court_two_or_own_region": "your choice: 2 more caballeros from your court "
    "anywhere, or empty one region of yours and spread them",
    "intrigue_five_from_region": "move up to 5 caballeros (any colours) out of one region "
    "to other regions and/or the Castillo",
    "intrigue_three_foreign": "move up to 3 opponents' caballeros to other regions and/or "
    "the Castillo",
    "intrigue_three_any": "move up to 3 caballeros of any colours to other regions and/or "
    "the Castillo",
    "intrigue_two_own_two_foreign": "move 2 of your caballeros and 2 of opponents' to other "
    "regions and/or the Castillo",
    "intrigue_four_own": "move up to 4 of your caballeros to other regions and/or the Castillo",
    "intrigue_four_any": "move up to 4 caballeros of any colours to other regions and/or "
    "the Castillo",
    "veto": "keep it to stop one special action (or the rest of one), this round or the next",
    "decay_all_court": "every opponent sends all the caballeros of their court to the province",
    "decay_three_court": "every opponent sends 3 caballeros from court to province",
    "king_rages": "every opponent returns 3 of their caballeros from regions and/or court to "
    "the province",
    "one_from_each_opponent": "send 1 caballero of each opponent from a region you choose to "
    "the province",
    "secret_two_from_region": "every opponent secretly picks a region of theirs and returns 2 "
    "caballeros from it to the province",
    "secret_all_from_region": "every opponent secretly picks a region of theirs and returns "
    "all their caballeros there to the province",
    "score_chosen_region": "score one region of your choice (the king's or the Castillo too)",
    "score_four_regions": "score every region whose first value is now 4",
    "score_five_regions": "score every region whose first value is now 5",
    "score_six_seven_regions": "score every region whose first value is now 6 or 7",
    "score_castillo": "score the Castillo (its caballeros stay inside)",
    "score_first_places": "in every region, a sole first place scores its first value",
    "score_most_caballeros": "score the region(s) with the most caballeros in all",
    "score_fewest_caballeros": "score the region(s) with the fewest caballeros (empty ones "
    "not counted)",
    "mobile_scoreboard": "lay a mobile scoreboard (8/4/0 or 4/0/0) on a region or the "
    "Castillo, or move one that is out",
    "royal_adviser": "move the king to a region bordering his",
    "eviction": "name a region: every opponent moves all their caballeros there to a region "
    "they pick in secret",
    "grande": "move your grande to another region (your home bonus moves with it)",
    "power_card_return": "take back into your hand a power card you have played",
    "court_two": "bring 2 caballeros from your province to your court",
    "secret_scoring": "every player secretly picks a region; a region picked by one player "
    "only is scored",
    "king": "move the king to any region",
}

#: Where points come from, as the final standings sum them.
SOURCES = ("general scorings", "action cards", "king's bonuses", "home bonuses")


def place_name(place: str) -> str:
    return PLACE_NAMES.get(place, place.replace("_", " ").title())


def card_title(card: str) -> str:
    """An action card's id as words: `intrigue_four_own` -> `Intrigue four own`."""
    return "King" if card == KING_CARD else card.replace("_", " ").capitalize()


def caballeros(count: int) -> str:
    return f"{count} caballero" + ("" if count == 1 else "s")


def face_up_cards(view: engine.View) -> list[dict[str, Any]]:
    """The action cards a turn may choose from, each with its notation, the caballeros it
    places and its special action in a line."""
    cards = []
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
                "text": CARD_TEXTS.get(card, ""),
            }
        )
    return cards


def ordinal(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(rank, f"{rank}th")


def who(colour: str, names: Mapping[str, str], reader: str | None) -> str:
    """A colour as the story names it: "you" to its own reader, else "Ann (red)"."""
    if colour == reader:
        return "you"
    name = names.get(colour)
    return f"{name} ({colour})" if name else colour


def _whose(colour: str, names: Mapping[str, str], reader: str | None) -> str:
    return "your" if colour == reader else f"{who(colour, names, reader)}'s"


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
                label = "king's bonus" if award["reason"] == "king_bonus" else "home bonus"
                bonuses.setdefault(award["player"], []).append(f"+{award['points']} {label}")
        parts = []
        position = 1
        for points in sorted({a["points"] for a in ranked}, reverse=True):
            group = [a["player"] for a in ranked if a["points"] == points]
            tied = len(group) > 1
            rank = position + 1 if tied else position
            for colour in group:
                part = f"{who(colour, names, reader)} {points} ({ordinal(rank)}"
                part += ", tied)" if tied else ")"
                parts.append(" ".join([part, *bonuses.get(colour, [])]))
            position += 2 if tied else 1
        lines.append(f"{place_name(place)} scored: " + "; ".join(parts) + ".")
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
    if where in ("province", "court"):
        return f"the {where}"
    return "the Castillo" if where == "castillo" else place_name(where)


def _moved(event: Mapping[str, Any], names: Mapping[str, str], reader: str | None) -> str:
    owner = _whose(event["player"], names, reader)
    return (
        f"{event['count']} of {owner} caballeros went from {spot(event['from'])} to "
        f"{spot(event['to'])}."
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
    return ", ".join(f"{who(c, names, reader)}: {place_name(r)}" for c, r in event["picks"].items())


def _carried_out(event: Mapping[str, Any], name: str) -> str | None:
    """Only a vetoed action needs saying: otherwise its moves and effects tell it."""
    vetoed = event.get("vetoed_from")
    if not vetoed:
        return None
    return (
        f"{card_title(event['card'])} of {name} was carried out up to step {vetoed - 1} "
        f"(vetoed from step {vetoed})."
    )


#: One sentence per kind of event, from the event, its player's name and their "your".
_SENTENCES: dict[str, Any] = {
    "king_moved": lambda e, n, w, p: f"The king moved to {place_name(e['to'])}.",
    "grande_moved": lambda e, n, w, p: f"{_cap(w)} grande moved to {place_name(e['to'])}.",
    "scoreboard_moved": lambda e, n, w, p: (
        f"The {e['scoreboard']} scoreboard now lies on {spot(e['to'])}."
    ),
    "secret_picks_revealed": lambda e, n, w, p: (
        f"The secret picks for {card_title(e['card'])} were revealed: {p(e)}."
    ),
    "castillo_revealed": lambda e, n, w, p: (
        f"The Castillo's caballeros went out to the regions picked: {p(e)}." if e["picks"] else None
    ),
    "veto_window_opened": lambda e, n, w, p: (
        f"{card_title(e['card'])} of {n} waits for the Veto's holders."
    ),
    "veto_played": lambda e, n, w, p: (
        f"{_cap(n)} vetoed {card_title(e['card'])} from step {e['from_step']}."
    ),
    "special_action": lambda e, n, w, p: _carried_out(e, n),
    "veto_kept": lambda e, n, w, p: f"{_cap(n)} kept the Veto card.",
    "veto_expired": lambda e, n, w, p: f"{_cap(w)} unused Veto was laid aside.",
    "power_card_returned": lambda e, n, w, p: (
        f"{_cap(n)} took a played power card back into the hand."
    ),
    "special_skipped": lambda e, n, w, p: (
        f"{_cap(n)} skipped the special action of {card_title(e['card'])}."
    ),
    "general_scoring": lambda e, n, w, p: "General scoring:",
    "round_started": lambda e, n, w, p: (
        f"Round {e['round']} began; the action cards face up: "
        + ", ".join(card_title(c) for c in e["action_cards"])
        + "."
    ),
    "game_over": lambda e, n, w, p: "The game is over.",
}


def _event_line(
    event: Mapping[str, Any], names: Mapping[str, str], reader: str | None
) -> str | None:
    sentence = _SENTENCES.get(event["type"])
    if sentence is None:
        return None  # said by the move itself (a card chosen, a caballero placed)
    player = event.get("player")
    name = who(player, names, reader) if player else ""
    whose = _whose(player, names, reader) if player else ""
    said: str | None = sentence(event, name, whose, lambda e: _picks(e, names, reader))
    return said


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


def _move_words(entry: engine.ShownLogEntry) -> str:
    if "hidden" in entry:
        return f"{entry['move']['type'].replace('_', ' ')} (secret)"
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


def _decision(state: engine.State, colour: str) -> str | None:
    entry = next((p for p in engine.pending(state) if p["player"] == colour), None)
    if entry is None:
        return None
    return policy.decision_key(entry)


def power_card_line(card: int) -> str:
    """A power card with what it allows: `power 9 (take up to 2 caballeros)`."""
    allowance = POWER_CARDS[card]
    return f"power {card} (take " + (
        f"up to {caballeros(allowance)})" if allowance else "no caballeros)"
    )


def king_neighbours(view: Mapping[str, Any]) -> list[str]:
    """Where caballeros may be placed: the regions bordering the king's, and the Castillo."""
    return [place_name(r) for r in REGIONS if r in NEIGHBOURS[view["king"]]] + ["the Castillo"]


#: Decisions that answer another's special action or a general scoring.
_PICKS = ("castillo_pick", "secret_pick", "king_rages")


def _pick_guide(
    view: Mapping[str, Any], colour: str, kind: str, names: Mapping[str, str]
) -> list[str]:
    """A secret pick, a Castillo pick or a King-rages return: what asks it, and how."""
    if kind == "castillo_pick":
        count = view["castillo"]["caballeros"].get(colour, 0)
        return [
            f"General scoring: your {caballeros(count)} in the Castillo "
            + ("goes" if count == 1 else "go, all together,")
            + " to "
            "the region you pick now (never the king's). Picks stay secret until the last is "
            "in, and you may change yours until then."
        ]
    special = view["special"]
    if special is None:
        return []
    acting = special["player"]
    card = special["card"]
    plays = "play" if acting == colour else "plays"
    text = CARD_TEXTS.get(card, "")
    said = f"{_cap(who(acting, names, colour))} {plays} {card_title(card)}: {text}."
    if kind == "secret_pick":
        return [said, "Your pick stays secret until the last is in; you may change it until then."]
    return [said, 'Write one "return court" or "return <region>" line for each caballero.']


def plan_step(step: Mapping[str, Any], names: Mapping[str, str], reader: str | None) -> str:
    """One numbered step of a special action's plan, in words (what a veto from it stops)."""
    do = step["do"]
    if do == "move":
        return "; ".join(
            f"{m['count']} of {_whose(m['colour'], names, reader)} caballeros from "
            f"{spot(m['from'])} to {spot(m['to'])}"
            for m in step["caballeros"]
        )
    if do == "award":
        # A place's scoring is split into steps by rank (a veto may stop it between them),
        # so a step says its points, not ranks it cannot see whole.
        bonus = {"king_bonus": " (king's bonus)", "home_bonus": " (home bonus)"}
        awards = [
            f"{who(a['player'], names, reader)} +{a['points']}{bonus.get(a['reason'], '')}"
            for a in step["awards"]
            if a["points"]
        ]
        return f"{place_name(step['place'])} scores: " + (", ".join(awards) or "nothing")
    if do == "mobile_scoreboard":
        return f"the {step['scoreboard']} scoreboard to {spot(step['to'])}"
    if do == "king":
        return f"the king to {place_name(step['to'])}"
    if do == "grande":
        return f"{_whose(step['colour'], names, reader)} grande to {place_name(step['to'])}"
    if do == "power_card_return":
        card = f" {step['card']}" if "card" in step else ""
        return f"{_whose(step['colour'], names, reader)} power card{card} back to the hand"
    if do == "keep_veto":
        return f"{who(step['colour'], names, reader)} keeps the Veto card"
    return str(do).replace("_", " ")


def veto_guide(
    decision: Mapping[str, Any], names: Mapping[str, str], reader: str | None
) -> list[str]:
    """A Veto window: the action (or the veto) it is on, its plan in numbered steps."""
    acting = who(decision["acting"], names, reader)
    card = card_title(decision["card"])
    if decision["acting"] == reader:
        lines = [f"You play {card}: {CARD_TEXTS.get(decision['card'], '')}."]
    else:  # the card's text says "your" to its player: the plan below says it for others
        lines = [f"{_cap(acting)} plays {card}."]
    if decision.get("vetoer"):
        lines.append(
            f"{_cap(who(decision['vetoer'], names, reader))} vetoed it; you may veto that veto."
        )
    lines.append("The plan:")
    lines += [f"{s['step']}. {plan_step(s, names, reader)}" for s in decision["plan"]]
    lines.append(
        '"allow" lets it all happen; "veto 1" stops all of it; "veto k" stops it from step k.'
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
        parts.append(f"place up to {caballeros(left)} more from your court ({court})")
    text = CARD_TEXTS.get(card, "")
    if turn["special"] == "open":
        parts.append(f'its special action: {text} (its moves are below; or "skip" it)')
    elif turn["special"] == "under_way":
        parts.append(f"carry on with its special action: {text}")
    if not parts:
        return f'You chose {card_title(card)}, and all of it is done: "done" ends your turn.'
    return f"You chose {card_title(card)}: " + ", and ".join(parts) + "."


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
        played = [
            f"{c} {p['power_card']}"
            for c, p in view["players"].items()
            if p["power_card"] is not None
        ]
        lines = [
            "The higher your card, the earlier you act this round; the lower, the more "
            "caballeros you may take from your province into your court."
        ]
        if played:
            lines.append("Played this round: " + ", ".join(played) + ".")
        return lines
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
            f"Your power card {player['power_card']} lets you take up to "
            f"{caballeros(turn['draw_limit'])} from your province ({player['province']}) into "
            f'your court ({player["court"]}): "take N".'
        )
    if turn["step"] in ("draw", "choose_card"):
        lines.append(
            ("Then choose" if turn["step"] == "draw" else "Choose")
            + ' one action card face up below ("card ..."): it says how many '
            "caballeros you place from your court, and its special action."
        )
    elif turn["card"] is not None:
        lines.append(_chosen(turn, player["court"]))
        left = intrigue_moves_left(view)
        if left is not None:
            lines.append(
                f"{left[0]} of {left[1]} caballero moves left: choose one, or stop early "
                '("stop" in a mail, "End the special action" on the page).'
            )
    lines.append(
        f"The king is in {place_name(view['king'])}: caballeros may be placed in "
        + ", ".join(king_neighbours(view))
        + "."
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
            lines.append(f"Your orders played power card {move['card']} for you.")
        else:
            lines.append(
                f"Your standing answer let a Veto window pass ({engine.format_move(move)})."
            )
    return lines


def orders_lines(power_cards: Sequence[int], veto_allow: bool) -> list[str]:
    """A seat's orders as they stand, said to that seat alone (they are its secret)."""
    if power_cards:
        cards = ", ".join(str(card) for card in power_cards)
        first = (
            f"Power cards ordered: {cards}. At your next power card the first of them still "
            "in your hand and not played this round is played at once."
        )
    else:
        first = "No power cards ordered: you are asked for your power card."
    if veto_allow:
        second = "Veto windows this round are answered allow at once (veto ask to stop it)."
    else:
        second = "You are asked at each Veto window."
    return [first, second]
