"""Squads and the squad building rules (rulebook Building Your Squad)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.skirm.cards import (
    SQUAD_KEYS,
    UnitCard,
    card_from_json,
    check_keys,
    read_name,
    reads_like_square,
    valid_name,
)
from skirmbot.words import name_key

DEFAULT_EP_LIMIT = 100
MIN_UNITS = 1
MAX_UNITS = 12
SPOILS_XP_STEP = 5  # rulebook Spoils Of War: one more Spoil for each increment of 5 XP


@dataclass(frozen=True, slots=True)
class Squad:
    name: str
    units: tuple[UnitCard, ...]

    @property
    def total_ep(self) -> int:
        return sum(card.total_ep for card in self.units)


def squad_from_json(data: Any, ep_limit: int = DEFAULT_EP_LIMIT, *, strict: bool = True) -> Squad:
    """Read a squad file's data and check it against the building rules. Not `strict`: a
    squad inside a match record, accepted when the match began, perhaps before squad files'
    keys and names were checked (rulings: Squad files), read as then so the match replays."""
    if not isinstance(data, dict):
        raise ContentError("A squad must be an object with a 'name' and a list of 'units'.")
    raw_name = data.get("name")
    shown = valid_name(raw_name, commands=False)
    if strict:
        check_keys(data, SQUAD_KEYS, f"Squad '{shown}'" if shown else "The squad file", "a squad")
    if "name" not in data:
        raise ContentError("The squad needs a 'name'.")
    name = read_name(raw_name, "The squad file", "squad name", strict=strict, commands=False)
    if strict and reads_like_square(name):
        raise ContentError(
            f"The squad file: the squad name '{name}' reads like a square of the map; "
            "choose another name."
        )
    description = data.get("description", "")
    if not isinstance(description, str):
        raise ContentError(f"Squad {name}: 'description' must be a text.")
    units_raw = data.get("units")
    if not isinstance(units_raw, list) or not units_raw:
        raise ContentError(f"Squad {name}: 'units' must list the squad's units.")
    squad = Squad(
        name,
        tuple(
            card_from_json(item, f"Squad {name}", number=n, strict=strict)
            for n, item in enumerate(units_raw, start=1)
        ),
    )
    taken = {
        card.name: spoils_taken_field(item, f"Squad {name}, unit {card.name}")
        for card, item in zip(squad.units, units_raw, strict=True)
    }
    check_building_rules(squad, ep_limit, taken)
    return squad


def spoils_taken_field(unit: Any, owner: str) -> int:
    """A unit's `spoils_taken`: the Spoils Of War it has taken that are not XPx gear on its card
    (a skill, an upgrade); its XPx gear counts as taken spoils by itself."""
    taken = unit.get("spoils_taken", 0) if isinstance(unit, dict) else 0
    if not isinstance(taken, int) or isinstance(taken, bool) or taken < 0:
        raise ContentError(f"{owner}: 'spoils_taken' must be a whole number, 0 or more.")
    return taken


def spoils_allowed(xp: int) -> int:
    """Rulebook Spoils Of War: a unit may take one Spoil for each increment of 5 XP."""
    return xp // SPOILS_XP_STEP


def spoils_used(card: UnitCard, taken: int = 0) -> int:
    """The Spoils Of War a unit holds: its XPx gear plus the other spoils it has taken."""
    return taken + sum(1 for weapon in card.weapons if weapon.has("XP"))


def check_building_rules(
    squad: Squad,
    ep_limit: int = DEFAULT_EP_LIMIT,
    spoils_taken: Mapping[str, int] | None = None,
) -> None:
    """Raise ContentError naming the first building rule the squad breaks. `spoils_taken` gives
    each unit's spoils other than XPx gear (the squad file's `spoils_taken`), by unit name."""
    where = f"Squad {squad.name}"
    if not MIN_UNITS <= len(squad.units) <= MAX_UNITS:
        raise ContentError(
            f"{where} has {len(squad.units)} units; a squad has {MIN_UNITS} to {MAX_UNITS}."
        )
    if squad.total_ep > ep_limit:
        costs = ", ".join(f"{card.name} {card.total_ep}" for card in squad.units)
        raise ContentError(
            f"{where} costs {squad.total_ep} EP, over the limit of {ep_limit} ({costs})."
        )
    check_unique_names(squad, where)
    _check_one_leader(squad, where)
    _check_unique_units(squad, where)
    _check_gear(squad, where)
    _check_experience(squad, where, spoils_taken or {})


def check_unique_names(squad: Squad, where: str) -> None:
    """Unit names are unique in the squad, read without case or zero-width characters (Skirm
    Lite's squads too)."""
    seen: dict[str, str] = {}
    for card in squad.units:
        first = seen.get(name_key(card.name))
        seen.setdefault(name_key(card.name), card.name)
        if first is not None:
            same = card.name if first == card.name else f"{first} and {card.name}"
            raise ContentError(
                f"{where}: two units are called {same}; give each unit its own name."
            )


def _check_one_leader(squad: Squad, where: str) -> None:
    leaders = [card.name for card in squad.units if card.is_leader]
    if len(leaders) != 1:
        found = ", ".join(leaders) if leaders else "none"
        raise ContentError(f"{where} needs exactly one Leader (a unit with LDx); it has {found}.")


def _check_unique_units(squad: Squad, where: str) -> None:
    seen: set[str] = set()
    for card in squad.units:
        if card.has("UNQ"):
            if card.unit_type in seen:
                raise ContentError(
                    f"{where}: {card.unit_type} is Unique (UNQ) and may be taken only once."
                )
            seen.add(card.unit_type)


def _check_gear(squad: Squad, where: str) -> None:
    unique_gear: set[str] = set()
    for card in squad.units:
        for weapon in card.weapons:
            if weapon.has("*"):
                if weapon.name.casefold() in unique_gear:
                    raise ContentError(
                        f"{where}: {weapon.name} is Unique gear (*) and may be taken only once."
                    )
                unique_gear.add(weapon.name.casefold())
            if card.has("NEQ") and weapon.ep > 0:
                raise ContentError(
                    f"{where}: {card.name} has No Equipment (NEQ) and cannot carry {weapon.name}, "
                    f"which costs {weapon.ep} EP."
                )
            if weapon.value("XP") > card.xp:
                raise ContentError(
                    f"{where}: {weapon.name} needs XP {weapon.value('XP')}; {card.name} has {card.xp} XP."
                )


def _check_experience(squad: Squad, where: str, spoils_taken: Mapping[str, int]) -> None:
    """NEQ units gain no XP and take no Spoils Of War; other units hold at most one Spoil for
    each increment of 5 XP (rulebook Spoils Of War)."""
    for card in squad.units:
        taken = spoils_taken.get(card.name, 0)
        used = spoils_used(card, taken)
        if card.has("NEQ") and (card.xp or used):
            raise ContentError(
                f"{where}: {card.name} has No Equipment (NEQ): it gains no XP and cannot take "
                f"Spoils Of War, so it must have 0 XP, no XPx gear and no spoils_taken."
            )
        allowed = spoils_allowed(card.xp)
        if used > allowed:
            gear = [weapon.name for weapon in card.weapons if weapon.has("XP")]
            held = ", ".join([*gear, *([f"{taken} more in spoils_taken"] if taken else [])])
            raise ContentError(
                f"{where}: {card.name} has {card.xp} XP, enough for {allowed} Spoil"
                f"{'s' if allowed != 1 else ''} Of War (one per {SPOILS_XP_STEP} XP), "
                f"but holds {used} ({held})."
            )
