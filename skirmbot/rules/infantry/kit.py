"""What a trooper carries during the match (rulebook 002: Special Actions ¶1-¶2, W&E ¶1).

Each check raises IllegalCommand in words and changes nothing; each `do_` carries the checked
action out. Our rulings (docs/plans/infantry.md §1): taking is from a trooper or a dropped
weapon on the same or a neighbouring dot at the same level; from a friendly trooper, or from
any dead or unconscious one (not from an able enemy); within the carrying limit of one primary,
one secondary and 4 hand grenades. Taking hand grenades takes as many as the taker has room for.
Equipment has no rule in the chapter, so it is neither taken nor dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.infantry.arms import GRENADE, PRIMARY
from skirmbot.rules.infantry.combat import FISTS
from skirmbot.rules.infantry.state import Item, State, Trooper

CHANGE_AP = 3  # Special Actions table: Change Weapon
TAKE_AP = 6  # Special Actions table: Exchange Equipment


def carried(trooper: Trooper) -> list[str]:
    """The weapons it could make active: primary, secondary, hand grenades if any are left."""
    held = [w for w in (trooper.primary, trooper.secondary) if w is not None]
    return held + ([GRENADE] if trooper.grenades else [])


def check_change(state: State, trooper: Trooper, weapon: str) -> str:
    """The carried weapon `weapon` names (any case), if it is not already active."""
    match = next((w for w in carried(trooper) if w.casefold() == weapon.casefold()), None)
    if match is None:
        have = ", ".join(carried(trooper)) or "nothing"
        raise IllegalCommand(f"{trooper.id} carries {have}; not a {weapon}.")
    if match == trooper.active:
        raise IllegalCommand(f"{trooper.id}'s {match} is already active.")
    return match


def do_change(state: State, trooper: Trooper, weapon: str) -> None:
    """Make `weapon` active; an explosive remembers what it switched from, to switch back to
    for 0 AP after the throw (Special Actions ¶1)."""
    if weapon in state.arms.explosives:
        if trooper.active not in state.arms.explosives:
            trooper.switched_from = trooper.active
    else:
        trooper.switched_from = None
    trooper.active = weapon


def switch_back(state: State, trooper: Trooper) -> None:
    """After a throw: back to the weapon switched from if it still carries it, else its primary,
    else its secondary, else fists."""
    back = trooper.switched_from
    if back is None or back not in carried(trooper) or back in state.arms.explosives:
        back = trooper.primary or trooper.secondary or FISTS
    if back == trooper.active and back in state.arms.explosives:
        back = FISTS  # an explosive is never active unasked
    trooper.active, trooper.switched_from = back, None


@dataclass(frozen=True)
class Taking:
    """A checked Take: from a trooper (`giver`) or a dropped item (`item`)."""

    name: str
    giver: Trooper | None = None
    item: Item | None = None


def check_take(state: State, taker: Trooper, source: str, name: str) -> Taking:
    assert taker.dot is not None
    dot = _as_dot(source)
    if dot is not None and not any(t.id.casefold() == source.casefold() for t in state.troopers):
        return _check_item(state, taker, dot, name)
    giver = state.trooper(source)
    if giver is taker or giver.dot is None:
        raise IllegalCommand(f"{taker.id} cannot take from {giver.id}.")
    if giver.seat != taker.seat and giver.able:
        raise IllegalCommand(
            f"{giver.id} is an able enemy: take only from a friend or from the fallen."
        )
    _check_near(taker, giver.dot, giver.level, giver.id)
    match = next((w for w in carried(giver) if w.casefold() == name.casefold()), None)
    if match is None:
        have = ", ".join(carried(giver)) or "nothing"
        raise IllegalCommand(f"{giver.id} carries {have}; not a {name}.")
    _check_room(state, taker, match)
    return Taking(match, giver=giver)


def _as_dot(text: str) -> Dot | None:
    try:
        return Dot.parse(text)
    except RulesError:
        return None


def _check_item(state: State, taker: Trooper, dot: Dot, name: str) -> Taking:
    here = [i for i in state.items if i.dot == dot and i.level == taker.level]
    item = next((i for i in here if i.name.casefold() == name.casefold()), None)
    if item is None:
        lying = ", ".join(i.name for i in here) or "nothing"
        raise IllegalCommand(f"On {dot} at level {taker.level} lies {lying}; not a {name}.")
    _check_near(taker, dot, taker.level, str(dot))
    _check_room(state, taker, item.name)
    return Taking(item.name, item=item)


def _check_near(taker: Trooper, dot: Dot, level: int, what: str) -> None:
    assert taker.dot is not None
    if taker.dot.distance(dot) > 1 or level != taker.level:
        raise IllegalCommand(
            f"{what} is not within reach of {taker.id}: the same or a neighbouring dot, at "
            "the same level."
        )


def slot(state: State, name: str) -> str:
    """Where a weapon is carried: "primary", "secondary" or "grenades" (W&E ¶1)."""
    if name == GRENADE:
        return "grenades"
    if name in state.arms.weapons and state.arms.weapons[name].kind == PRIMARY:
        return "primary"
    return "secondary"


def _check_room(state: State, taker: Trooper, name: str) -> None:
    where = slot(state, name)
    full = (
        taker.grenades >= state.arms.grenades
        if where == "grenades"
        else getattr(taker, where) is not None
    )
    if full:
        raise IllegalCommand(
            f"{taker.id} cannot carry another {where} weapon ({name}): drop one first (0 AP)."
        )


def do_take(state: State, taker: Trooper, taking: Taking) -> int:
    """Move the weapon to the taker; how many (hand grenades: as many as fit)."""
    count = 1
    if taking.item is not None:
        state.items.remove(taking.item)
    elif taking.giver is not None and slot(state, taking.name) == "grenades":
        count = min(taking.giver.grenades, state.arms.grenades - taker.grenades)
        taking.giver.grenades -= count
    elif taking.giver is not None:
        _lose(state, taking.giver, taking.name)
    _gain(state, taker, taking.name, count)
    return count


def _gain(state: State, trooper: Trooper, name: str, count: int) -> None:
    where = slot(state, name)
    if where == "grenades":
        trooper.grenades += count
    else:
        setattr(trooper, where, name)


def _lose(state: State, trooper: Trooper, name: str) -> None:
    setattr(trooper, slot(state, name), None)
    if trooper.active == name:
        trooper.active = trooper.primary or trooper.secondary or FISTS
        trooper.switched_from = None


def check_drop(state: State, trooper: Trooper, name: str) -> str:
    match = next(
        (w for w in (trooper.primary, trooper.secondary) if w and w.casefold() == name.casefold()),
        None,
    )
    if match is None:
        held = ", ".join(w for w in (trooper.primary, trooper.secondary) if w) or "no weapon"
        raise IllegalCommand(f"{trooper.id} can drop {held}; not a {name}.")
    return match


def do_drop(state: State, trooper: Trooper, name: str) -> None:
    assert trooper.dot is not None
    _lose(state, trooper, name)
    state.items.append(Item(trooper.dot, trooper.level, name))
