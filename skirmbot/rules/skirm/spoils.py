"""Spoils Of War (rulebook Spoils Of War): gear a unit takes between matches as its XP grows.

The rulebook gives each faction its own rewards, marked XPx, and defines none: the shipped list
(`content/skirm/spoils/`) is our own (docs/rulings.md, Spoils Of War). A unit may hold one
Spoil per 5 XP; its XPx gear counts among them (skirmbot.rules.skirm.squads).
"""

from __future__ import annotations

import copy
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.skirm.cards import UnitCard, Weapon, weapon_from_json
from skirmbot.rules.skirm.squads import (
    SPOILS_XP_STEP,
    spoils_allowed,
    spoils_taken_field,
    spoils_used,
)


def spoils_from_json(data: Any) -> list[tuple[Weapon, dict[str, Any]]]:
    """A list of Spoils: each reward as a weapon, with the data it is written with into a
    squad file when taken. Every reward must be XPx gear."""
    gear = data.get("gear") if isinstance(data, dict) else None
    if not isinstance(gear, list) or not gear:
        raise ContentError("A list of Spoils Of War needs 'gear': a list of weapons.")
    rewards = []
    for number, item in enumerate(gear, start=1):
        weapon = weapon_from_json(item, "Spoils Of War", number=number)
        if not weapon.has("XP"):
            raise ContentError(f"Spoils Of War, {weapon.name}: a reward needs its XPx rule.")
        rewards.append((weapon, item))
    return rewards


def available(card: UnitCard, unit: dict[str, Any]) -> int:
    """How many more Spoils the unit may take now (none for NEQ units)."""
    if card.has("NEQ"):
        return 0
    taken = spoils_used(card, spoils_taken_field(unit, f"Unit {card.name}"))
    return max(0, spoils_allowed(int(unit.get("xp", 0))) - taken)


def next_at(xp: int) -> int:
    """The XP at which the unit's next Spoil comes."""
    return (xp // SPOILS_XP_STEP + 1) * SPOILS_XP_STEP


def offered(
    card: UnitCard, unit: dict[str, Any], rewards: list[tuple[Weapon, dict[str, Any]]]
) -> list[Weapon]:
    """The rewards the unit may take now: it has a Spoil to take, the XP the reward asks for,
    and does not carry that gear yet."""
    if available(card, unit) == 0:
        return []
    xp = int(unit.get("xp", 0))
    held = {weapon.name.casefold() for weapon in card.weapons}
    return [
        weapon
        for weapon, _ in rewards
        if weapon.value("XP") <= xp and weapon.name.casefold() not in held
    ]


def take(
    card: UnitCard,
    unit: dict[str, Any],
    reward: str,
    rewards: list[tuple[Weapon, dict[str, Any]]],
) -> dict[str, Any]:
    """The unit's data with the reward added to its weapons; ContentError saying why not."""
    found = next(
        ((w, data) for w, data in rewards if w.name.casefold() == reward.strip().casefold()), None
    )
    if found is None:
        names = ", ".join(weapon.name for weapon, _ in rewards)
        raise ContentError(f"'{reward}' is not a Spoil Of War here; the rewards are: {names}.")
    weapon, data = found
    xp = int(unit.get("xp", 0))
    if card.has("NEQ"):
        raise ContentError(f"{card.name} has No Equipment (NEQ): it takes no Spoils Of War.")
    if available(card, unit) == 0:
        raise ContentError(
            f"{card.name} has {xp} XP and holds all the Spoils it may ({spoils_allowed(xp)}); "
            f"its next comes at {next_at(xp)} XP."
        )
    if weapon.value("XP") > xp:
        raise ContentError(
            f"{weapon.name} needs {weapon.value('XP')} XP (XP{weapon.value('XP')}); "
            f"{card.name} has {xp}."
        )
    if weapon.name.casefold() in {w.name.casefold() for w in card.weapons}:
        raise ContentError(f"{card.name} already carries {weapon.name}.")
    changed = copy.deepcopy(unit)
    changed.setdefault("weapons", []).append(copy.deepcopy(data))
    return changed
