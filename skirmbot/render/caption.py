"""The picture's words: the caption that says what the last activation did, and the header's
line for each squad (MP, TO, units up and the names of those Taken Out).

Everything here reads the same events the map draws (`skirmbot.rules.events` lists their data)
and returns plain text; `fit` picks the longest wording that fits a width in pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import ImageFont

from skirmbot.render import pools
from skirmbot.rules.events import Event
from skirmbot.rules.view import OUT, MatchView
from skirmbot.words import possessive

ELLIPSIS = "…"
CRATE_OPTIONS = {"mp": "+1 MP", "to": "+1 TO", "medpack": "MedPack", "ammo": "ammo refill"}
MOVE_VERBS = {"move": "moves", "dash": "dashes", "leap": "leaps", "retreat": "retreats",
              "charge": "charges"}  # fmt: skip


# The shared event kinds that tell HIT lost: Skirm's saves carry it, Skirm Lite tells it apart
# (its saves are followed by hit_lost, after Tough).
LOSSES = ("saves", "hit_lost")


def attack_outcomes(events: Sequence[Event]) -> dict[int, str]:
    """Each attack event's outcome, by its index in `events`: "taken_out", "hit" (HIT lost, or
    a barrel or turret hit) or "miss"."""
    outcomes: dict[int, str] = {}
    current: int | None = None
    for number, event in enumerate(events):
        if event.kind == "attack":
            current = number
            outcomes[number] = "miss"
        elif (
            current is not None
            and event.kind in LOSSES
            and event.data.get("lost")
            or current is not None
            and event.kind == "downed"
        ):
            outcomes[current] = "hit" if outcomes[current] == "miss" else outcomes[current]
        elif current is not None and event.kind in ("taken_out", "explosion", "item_destroyed"):
            outcomes[current] = "taken_out" if event.kind == "taken_out" else "hit"
    return outcomes


def last_activation(events: Sequence[Event]) -> tuple[str | None, list[Event]]:
    """The unit of the last activation in `events` and that activation's events (from its
    start to its end); (None, []) when no activation is among them. An activation that began
    before `events` and ends in them (the d20 rules' model activates over several commands, and
    the command that starts the next one ends it) counts from the first of `events`."""
    start = next(
        (n for n in range(len(events) - 1, -1, -1) if events[n].kind == "activation_started"),
        None,
    )
    if start is None:
        return _ended(events)
    actor = str(events[start].data["unit"])
    taken: list[Event] = []
    for event in events[start:]:
        taken.append(event)
        if event.kind == "activation_ended":
            break
    return actor, taken


def _ended(events: Sequence[Event]) -> tuple[str | None, list[Event]]:
    """The unit whose activation, begun earlier, ends in `events`, and its events to its end."""
    for number, event in enumerate(events):
        if event.kind == "activation_ended" and event.data.get("unit"):
            return str(event.data["unit"]), list(events[: number + 1])
    return None, []


# --- the caption ---------------------------------------------------------------------------
@dataclass
class _Attack:
    attacker: str
    target: str
    unit: str | None
    kind: str
    counter: bool
    strikes: int
    damage: int
    lost: dict[str, int] = field(default_factory=dict)  # unit -> HIT lost
    out: list[str] = field(default_factory=list)
    downed: list[str] = field(default_factory=list)  # Skirm Lite: at 0 HIT, not yet removed
    exploded: bool = False
    destroyed: bool = False
    item_lost: int = 0
    stunned: bool = False
    roll: tuple[int, int] | None = None  # an opposed roll's totals: the attacker's, the defender's


@dataclass
class _Move:
    unit: str
    start: str
    end: str
    actions: set[str]


def caption(events: Sequence[Event], view: MatchView) -> str:
    """One line saying what the last activation did, e.g. "Ember moves F9 to F8 and shoots Osk
    (3 damage, 1 HIT lost)". Without an activation among the events: the deployment and the
    start of the turn, if they are there."""
    return captions(events, view)[0]


def captions(events: Sequence[Event], view: MatchView) -> list[str]:
    """The caption in wordings from the longest to the shortest: in full; without the squares
    moves start from and the damage; without the moves (the map draws their paths)."""
    actor, taken = last_activation(events)
    if actor is None:
        wordings = [_between_activations(events, view, named=True)]
        shorter = _between_activations(events, view, named=False)
        return wordings + ([shorter] if shorter != wordings[0] else [])
    full, short = _activation(actor, taken, view, False), _activation(actor, taken, view, True)
    shortest = _activation(actor, taken, view, True, moves=False)
    rally = _rally_after(events, taken)
    if rally:
        # The group rules: the failed test that ended a turn began the next, whose Rallies
        # (Shaken Groups' Resilience tests) no later picture tells.
        full += "; " + _between_activations(rally, view, named=True)
        short += "; " + _between_activations(rally, view, named=False)
        shortest += "; " + _between_activations(rally, view, named=False)
    return [full, short, shortest]


def _rally_after(events: Sequence[Event], taken: list[Event]) -> list[Event]:
    """The group rules' events after the activation's end when they hold a Rally (a turn's
    start Resilience tests); [] otherwise."""
    if not taken or not pools.is_group_activation(taken):
        return []
    end = next((n for n, event in enumerate(events) if event is taken[-1]), len(events))
    after = list(events[end + 1 :])
    return after if any(event.kind == "resilience" for event in after) else []


def _activation(
    actor: str, taken: list[Event], view: MatchView, short: bool, moves: bool = True
) -> str:
    clauses: list[tuple[str, str]] = []  # (subject, predicate)
    pending: _Move | _Attack | None = None  # a move or attack still gathering its events
    repeats: tuple[str, str] | None = None  # the last clause's attacker and attack, if one

    def add(subject: str, text: str, attack: tuple[str, str] | None = None) -> None:
        nonlocal repeats
        if attack is not None and attack == repeats:
            text = "again" + text[len(attack[1]) :]  # the same attack on the same target again
        clauses.append((subject, text))
        repeats = attack

    def flush() -> None:
        nonlocal pending
        if isinstance(pending, _Move):
            add(pending.unit, _move_text(pending, first=not clauses, short=short))
        elif isinstance(pending, _Attack):
            subject, verb, result = _attack_text(pending, view, short)
            add(subject, f"{verb} ({result})", (subject, verb))
        pending = None

    for event in taken:
        data, kind = event.data, event.kind
        if kind == "activation_started":
            continue
        if kind == "moved" and pending is None and pools.tell_retreat(clauses, data):
            continue  # a failed Resilience test's Retreat: its clause now says where to
        if kind == "moved":
            if isinstance(pending, _Move) and pending.unit == data["unit"]:
                pending.end = data["path"][-1]
                pending.actions.add(data.get("action", "move"))
                continue
            flush()
            pending = _Move(
                data["unit"], data["path"][0], data["path"][-1], {data.get("action", "move")}
            )
        elif kind == "attack":
            flush()
            pending = _Attack(
                attacker=data["attacker"],
                target=data["target"] or _item_name(view, data.get("item"), data.get("to")),
                unit=data["target"],
                kind=data.get("kind", "ranged"),
                counter=bool(data.get("counter")),
                strikes=int(data.get("strikes", 0)),
                damage=int(data.get("damage", 0)),
                roll=_opposed(data),
            )
        elif isinstance(pending, _Attack) and (
            kind in (*LOSSES, "taken_out", "downed", "explosion", "item_destroyed", "stunned")
            or (kind == "dropped" and data["unit"] in (*pending.out, *pending.downed))
        ):
            _consequence(pending, event)
        else:
            said = _plain_clause(event, actor) or _group_clause(event, taken, short)
            if said is not None:
                flush()
                add(*said)
    flush()
    if not moves and any(not text.startswith(tuple(MOVE_VERBS.values())) for _, text in clauses):
        clauses = [c for c in clauses if not c[1].startswith(tuple(MOVE_VERBS.values()))]
    if not clauses:
        ended = taken[-1].kind == "activation_ended"
        if ended and taken[0].kind != "activation_started":  # it acted before these events
            return f"{possessive(actor)} activation ends"
        return f"{actor} ends its activation without acting" if ended else f"{actor} activates"
    return _sentence(actor, clauses, "; " if pools.is_group_activation(taken) else ", ")


def _group_clause(event: Event, taken: list[Event], short: bool) -> tuple[str, str] | None:
    """The group rules' dice and what they did (`pools`); None for every other kind."""
    return pools.clause(event, taken, short) if event.kind in pools.KINDS else None


def _plain_clause(event: Event, actor: str) -> tuple[str, str] | None:
    """The clause of an event that stands alone (a door, a crate...), with its subject."""
    data, kind = event.data, event.kind
    if kind == "blast":
        return data["unit"], f"blasts {data['square']}"
    if kind == "door":
        return data["unit"], "opens a door" if data.get("open") else "closes a door"
    if kind == "picked_up":
        return data["unit"], "picks up a marker"
    if kind == "dropped":
        return data["unit"], "drops the marker"
    if kind == "crate_opened":
        option = CRATE_OPTIONS.get(data.get("option", ""), "")
        return data["unit"], f"opens a crate ({option})" if option else "opens a crate"
    if kind == "mission_action":
        where = f" on objective {data['objective']}" if data.get("objective") else ""
        return data["unit"], f"performs {data['action']}{where}"
    if kind == "healed":
        patient = "itself" if data["unit"] == data.get("by") else data["unit"]
        return data.get("by") or actor, f"heals {patient} (+{data['hit']} HIT)"
    if kind == "revived":
        return data["unit"], f"revives {data['target']} ({data['hit']} HIT)"
    if kind == "orders_gained":
        return actor, f"gains {data['orders']} TO"
    return _skirmisher_clause(event)


def _skirmisher_clause(event: Event) -> tuple[str, str] | None:
    """The infantry rules' own acts (issue 31): an activation that set a firing arc or threw a
    grenade did something, and its caption says what."""
    data, kind = event.data, event.kind
    if kind == "arc_set":
        return data["unit"], f"sets a {data['width']}° firing arc"
    if kind == "thrown":
        return data["unit"], f"throws a {data['weapon']} at {data['target']}"
    if kind == "weapon_changed":
        return data["unit"], f"readies its {data['weapon']}"
    if kind == "climbed":
        return data["unit"], f"climbs to level {data['level']}"
    if kind in ("prone", "stood"):
        return data["unit"], "goes prone" if kind == "prone" else "stands up"
    return None


def _sentence(actor: str, clauses: list[tuple[str, str]], joiner: str = ", ") -> str:
    """The clauses joined into one sentence ("A moves, shoots B and C strikes back"): a clause
    names its subject when it is not the unit activated. A Group's clauses, each with its dice,
    are joined by `joiner` ("; ") alone, and there the unit activated is named again after
    another's clause ("Archers holds; Spearmen Retreats"), so no clause reads as the other's."""
    parts = []
    for n, (subject, text) in enumerate(clauses):
        after_another = joiner != ", " and n > 0 and clauses[n - 1][0] != actor
        named = subject != actor or after_another
        parts.append(f"{subject} {text}" if named else text)
    if clauses[0][0] == actor:
        parts[0] = f"{actor} {parts[0]}"
    if joiner != ", ":
        return joiner.join(parts)
    body = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return body


def _move_text(move: _Move, first: bool, short: bool) -> str:
    verb = MOVE_VERBS.get(next(iter(move.actions)), "moves") if len(move.actions) == 1 else "moves"
    if move.start == move.end:
        return f"{verb} back to {move.end}" if not short else f"{verb} to {move.end}"
    if first and not short:
        return f"{verb} {move.start} to {move.end}"
    return f"{verb} to {move.end}"


def _consequence(attack: _Attack, event: Event) -> None:
    data = event.data
    if event.kind in LOSSES:
        if data.get("unit"):
            attack.lost[data["unit"]] = attack.lost.get(data["unit"], 0) + int(data.get("lost", 0))
        else:
            attack.item_lost += int(data.get("lost", 0))
    elif event.kind == "taken_out":
        attack.out.append(data["unit"])
    elif event.kind == "downed":
        attack.downed.append(data["unit"])
    elif event.kind == "explosion":
        attack.exploded = True
    elif event.kind == "item_destroyed":
        attack.destroyed = True
    elif event.kind == "stunned":
        attack.stunned = True


def _opposed(data: dict[str, Any]) -> tuple[int, int] | None:
    """The totals of an attack's opposed roll, when its ruleset rolls one (the d20 rules)."""
    if "total" not in data or "against" not in data:
        return None
    return int(data["total"]), int(data["against"])


def _attack_text(attack: _Attack, view: MatchView, short: bool) -> tuple[str, str, str]:
    """The attacker, the verb with its target ("shoots Osk") and the outcome ("miss", "3 damage,
    1 HIT lost", ...)."""
    if attack.counter:
        verb = "strikes back"
    else:
        verb = f"{'attacks' if attack.kind == 'melee' else 'shoots'} {attack.target}"
    if not view.hits:
        return attack.attacker, verb, _roll_text(attack, view, short)
    results: list[str] = []
    if attack.strikes == 0:
        results.append("miss")
    elif attack.unit is not None:
        lost = attack.lost.get(attack.unit, 0)
        hurt = (
            "Taken Out"
            if attack.unit in attack.out
            else "Downed"
            if attack.unit in attack.downed
            else (f"{lost} HIT lost" if lost else "all saved")
        )
        damage = f"{attack.damage} damage" if attack.damage else "no damage"
        results.append(hurt if short else f"{damage}, {hurt}")
        if attack.stunned:
            results.append("stunned")
    elif attack.exploded:
        results.append("it explodes")
    elif attack.destroyed:
        results.append("destroyed")
    elif attack.item_lost:
        results.append(f"{attack.item_lost} HIT lost")
    else:
        results.append("no harm" if short else f"{attack.damage} damage, no harm")
    for unit in attack.out:  # others caught: by an explosion, or the wreck of a turret
        if unit != attack.unit:
            results.append(f"{unit} Taken Out")
    for unit in attack.downed:
        if unit != attack.unit:
            results.append(f"{unit} Downed")
    if not short:
        for unit, lost in attack.lost.items():
            if unit != attack.unit and unit not in attack.out and lost:
                results.append(f"{unit} loses {lost} HIT")
    return attack.attacker, verb, ", ".join(results)


def _roll_text(attack: _Attack, view: MatchView, short: bool) -> str:
    """The outcome of an attack in a rulebook without HIT: the opposed roll won or lost ("wins
    8 against 5"), and who is down or removed ("There are no hit points. Period.")."""
    won = "wins" if attack.strikes else "loses"
    if attack.roll is not None and attack.roll[0] == attack.roll[1]:
        won = "ties"
    results = [won]
    if attack.roll is not None and not short:
        results = [f"{won} {attack.roll[0]} against {attack.roll[1]}"]
    results += [f"{unit} {view.down_word}" for unit in attack.downed]
    results += [f"{unit} {view.casualty_word}" for unit in attack.out]
    return ", ".join(results)


def _item_name(view: MatchView, item: object, square: object) -> str:
    found = next((m for m in view.markers if m.id == item), None) if isinstance(item, int) else None
    kind = found.kind if found is not None else "item"
    return f"the {kind} on {square}" if square else f"the {kind}"


def _deployed(events: int, sides: int) -> str:
    """Deployment's caption: every side's, or one more (a ruleset that says once for all, as the
    d20 rules do, counts as every side's)."""
    if events >= 2 or (events == 1 and sides > 2):
        return "Both squads deployed" if sides == 2 else "Every squad deployed"
    return "Deployed"


def _between_activations(events: Sequence[Event], view: MatchView, *, named: bool) -> str:
    """Deployment, the end of a round's recovery and the start of a turn (the picture before
    the first activation); `named`: the units the recovery removed or returned by name."""
    parts: list[str] = []
    bought: dict[int, int] = {}  # the d20 rules: bonus dice each seat bought with its AP
    kinds = {event.kind for event in events}
    if "deployed" in kinds:
        parts.append(_deployed(_count(events, "deployed"), len(view.sides)))
    if "infiltrated" in kinds:
        parts.append("Infiltrators placed")
    for event in events:
        if event.kind == "turn_started":
            parts.append(f"{view.turn_word} {event.data['turn']} begins")
        elif event.kind == "initiative" and parts and parts[-1].startswith(view.turn_word + " "):
            parts[-1] += f": {view.sides[event.data['side']].name} has the initiative"
        elif event.kind == "initiative":
            parts.append(f"{view.sides[event.data['side']].name} has the initiative")
        elif event.kind == "delayed":
            parts.append(f"{view.sides[event.data['side']].name} delays")
        elif event.kind == "recovery":
            parts.append(_recovery(events, view, named))
        elif event.kind == "bonus_bought" and event.data["side"] not in bought:
            bought[event.data["side"]] = _bought(events, event.data["side"])
            name = view.sides[event.data["side"]].name
            dice = bought[event.data["side"]]
            parts.append(f"{name} buys {dice} bonus di{'e' if dice == 1 else 'ce'}")
        elif event.kind == "activation_ended" and not event.data.get("unit"):  # a seat's turn
            parts.append(f"{view.sides[event.data['side']].name} ends its turn")
        elif event.kind in pools.KINDS:  # the group rules' Rally at a turn's start
            said = pools.clause(event, events, short=not named)
            if said is not None:
                parts.append(f"{said[0]} {said[1]}")
    return "; ".join(parts)


def _bought(events: Sequence[Event], side: int) -> int:
    return sum(
        int(e.data["dice"]) for e in events if e.kind == "bonus_bought" and e.data["side"] == side
    )


def _recovery(events: Sequence[Event], view: MatchView, named: bool) -> str:
    """A recovery's outcome (the d20 rules' Recovery Phase: each downed model returns to play
    or is removed as a casualty): "Recovery Phase: Casualties: Fen; Mott returns to play"."""
    start = next(n for n, event in enumerate(events) if event.kind == "recovery")
    after = events[start + 1 :]
    ended = next((n for n, event in enumerate(after) if event.kind == "turn_started"), len(after))
    removed = [str(e.data["unit"]) for e in after[:ended] if e.kind == "taken_out"]
    back = [str(e.data["unit"]) for e in after[:ended] if e.kind == "revived"]
    heading = events[start].text.split(" of ")[0].rstrip(".")
    if not named:
        return f"{heading}: {len(removed)} removed, {len(back)} back in play"
    told = [f"{view.out_word}: {', '.join(removed)}"] if removed else []
    told += [f"{', '.join(back)} back in play"] if back else []
    return f"{heading}: {'; '.join(told) or 'nobody down'}"


def _count(events: Sequence[Event], kind: str) -> int:
    return sum(1 for event in events if event.kind == kind)


# --- the header ----------------------------------------------------------------------------
def taken_out_names(view: MatchView, side: int) -> list[str]:
    return [piece.id for piece in view.pieces_of(side) if piece.status == OUT]


def squad_lines(view: MatchView, side: int) -> list[str]:
    """The seat's header line, in wordings from the longest to the shortest: its standing as
    the ruleset words it (Skirm: MP, TO, units up), and its pieces out of play by name (as
    many as fit, then how many more)."""
    seat = next(seen for seen in view.sides if seen.side == side)
    base = f"{seat.name}: {seat.standing}"
    out = taken_out_names(view, side)
    if not out:
        return [base]
    lines = [f"{base} · {view.out_word}: {', '.join(out)}", f"{base} · out: {', '.join(out)}"]
    for keep in range(len(out) - 1, 0, -1):
        lines.append(f"{base} · out: {', '.join(out[:keep])} +{len(out) - keep}")
    lines.append(f"{base} · {len(out)} out")
    return lines


def fit(
    wordings: Sequence[str], width: float, face: ImageFont.FreeTypeFont | ImageFont.ImageFont
) -> str:
    """The first wording no wider than `width` pixels; else the last, cut with an ellipsis."""
    for text in wordings:
        if face.getlength(text) <= width:
            return text
    text = wordings[-1]
    while text and face.getlength(text.rstrip(" ,;") + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip(" ,;") + ELLIPSIS if text else ""
