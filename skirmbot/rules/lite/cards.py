"""Skirm Lite stat cards (Lite rulebook Actions, Combat, Appendix: Special Rules).

A Lite Agent has MOV, ACT, ARM and HIT; the skill is on the weapon (SKL), beside its ROA and DAM.
The cards are Skirm's `UnitCard` and `Weapon` (so the renderer and the service read both
rulesets alike): `mov` and `Weapon.skl` carry Lite's stats, MSK/RSK are 0 and EP 0 (Lite has
neither). Special rules are read against Lite's own two tables, so a Skirm-only code is refused.
"""

from __future__ import annotations

import re
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.skirm.cards import (
    MELEE,
    RANGED,
    TYPE_LIMIT,
    SpecialRule,
    UnitCard,
    Weapon,
    check_distinct,
    int_field,
    named_object,
    read_name,
)

# Lite rulebook, Agent Special Rules; the value says whether the rule takes a number (LDx).
AGENT_RULES: dict[str, bool] = {
    "LD": True, "2R": False, "2M": False, "HL": True, "CAM": False, "DOD": False, "TF": True,
}  # fmt: skip
# Lite rulebook, Weapon Special Rules.
WEAPON_RULES: dict[str, bool] = {
    "RR": True, "CR": True, "RG": True, "XPL": False, "LIM": False, "AP": True, "VA": True,
    "HVY": False, "LIN": False, "NCV": False,
}  # fmt: skip

_RULE = re.compile(r"^(2R|2M|[A-Z]{2,3}?)(\d*)$")

AGENT_KEYS = ("name", "type", "mov", "act", "arm", "hit", "specials", "weapons")
WEAPON_KEYS = ("name", "type", "roa", "skl", "dam", "specials")

# Dice are D6: a stat rolled against must leave room for a 1 to succeed and a 6 to fail.
STAT_RANGES: dict[str, tuple[int, int]] = {
    "mov": (1, 6), "act": (1, 4), "arm": (1, 6), "hit": (1, 6),
}  # fmt: skip
WEAPON_RANGES: dict[str, tuple[int, int]] = {"roa": (1, 8), "skl": (1, 5), "dam": (0, 5)}


def parse_rule(text: str, known: dict[str, bool], owner: str) -> SpecialRule:
    """Read `LD2`, `2R`, `XPL` against one of Lite's tables; anything else is refused."""
    match = _RULE.match(text.strip().upper())
    if match is not None:
        code, number = match.group(1), match.group(2)
        if code in known and known[code] == bool(number):
            return SpecialRule(code, int(number) if number else None)
    names = ", ".join(code + ("x" if takes_number else "") for code, takes_number in known.items())
    raise ContentError(
        f"{owner}: '{text}' is not a Skirm Lite special rule here. Known rules: {names}."
    )


def _rules_field(
    data: dict[str, Any], known: dict[str, bool], owner: str
) -> tuple[SpecialRule, ...]:
    raw = data.get("specials", [])
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise ContentError(f'{owner}: \'specials\' must be a list of texts like ["LD1", "2R"].')
    return tuple(parse_rule(item, known, owner) for item in raw)


def weapon_from_json(data: Any, owner: str, label: str, number: int, strict: bool) -> Weapon:
    """One weapon of a Lite Agent: ROA, SKL, DAM and Lite's weapon special rules."""
    if not isinstance(data, dict):
        raise ContentError(
            f"{owner}: each weapon must be an object with name, type, roa, skl, dam."
        )
    name = named_object(data, WEAPON_KEYS, "weapon", label, number, strict)
    where = f"{owner}, weapon {name}"
    kind = data.get("type")
    if kind not in (RANGED, MELEE):
        raise ContentError(f'{where}: \'type\' must be "ranged" or "melee", not {kind!r}.')
    weapon = Weapon(
        name=name,
        kind=kind,
        roa=int_field(data, "roa", WEAPON_RANGES["roa"], where),
        dam=int_field(data, "dam", WEAPON_RANGES["dam"], where),
        specials=_rules_field(data, WEAPON_RULES, where),
        skl=int_field(data, "skl", WEAPON_RANGES["skl"], where),
    )
    if kind == RANGED and weapon.range < 2:
        raise ContentError(f"{where}: a ranged weapon needs a range of at least 2 (RG2 or more).")
    if kind == MELEE and any(weapon.has(code) for code in ("RG", "XPL", "LIN")):
        raise ContentError(f"{where}: RGx, XPL and LIN are for ranged weapons only.")
    return weapon


def agent_from_json(data: Any, owner: str, number: int, strict: bool = True) -> UnitCard:
    """One Agent of a Lite squad file, as a `UnitCard` with Lite's stats."""
    if not isinstance(data, dict):
        raise ContentError(f"{owner}: each agent must be an object.")
    name = named_object(data, AGENT_KEYS, "agent", None, number, strict)
    label = f"Agent '{name}'"
    where = f"{owner}, agent {name}"
    raw = data.get("weapons", [])
    if not isinstance(raw, list) or not raw:
        raise ContentError(f"{where}: 'weapons' must list at least one weapon.")
    weapons = tuple(
        weapon_from_json(item, where, label, n, strict) for n, item in enumerate(raw, start=1)
    )
    check_distinct([weapon.name for weapon in weapons], label, "weapons")
    agent_type = read_name(
        data.get("type", "Agent"), label, "type", strict=strict, commands=False, limit=TYPE_LIMIT
    )
    return UnitCard(
        name=name,
        unit_type=agent_type,
        ep=0,
        act=int_field(data, "act", STAT_RANGES["act"], where),
        msk=0,  # Lite: the skill is the weapon's SKL
        rsk=0,
        arm=int_field(data, "arm", STAT_RANGES["arm"], where),
        hit=int_field(data, "hit", STAT_RANGES["hit"], where),
        specials=_rules_field(data, AGENT_RULES, where),
        weapons=weapons,
        mov=int_field(data, "mov", STAT_RANGES["mov"], where),
    )


def weapon_skill(weapon: Weapon) -> int:
    """The weapon's SKL (a Lite weapon always has one; 3 for a weapon of another making)."""
    return weapon.skl if weapon.skl is not None else 3


def leader_dice(card: UnitCard) -> int:
    """LDx: extra Tactical Order dice while the Agent is Standing."""
    return card.value("LD")


__all__ = ["AGENT_RULES", "WEAPON_RULES", "SpecialRule", "agent_from_json", "weapon_skill"]
