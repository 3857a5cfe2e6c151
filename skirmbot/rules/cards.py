"""Stat cards: units, weapons and their special rules, as data (rulebook Stat Cards, Special Rules).

Special rules are written as on the card: a code, with a number for the `x` rules (`LD2`, `RG6`,
`BR1`). Every code in the rulebook's two tables is known here, so a card with a typo is refused
when the squad is loaded rather than silently ignored in play.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.skills import Skill, skill_from_json

# Rulebook: Unit Special Rules. The value says whether the rule takes a number (LDx, ...).
UNIT_RULES: dict[str, bool] = {
    "2MC": False, "2RC": False, "BLS": False, "BR": True, "CAM": False, "CTR": False,
    "DLS": False, "FLY": False, "INF": False, "LD": True, "LP": True, "NEQ": False,
    "NMB": False, "PAR": False, "PR": True, "RGR": False, "SWF": False, "TCH": False,
    "TG": True, "UNQ": False,
}  # fmt: skip
# Rulebook: Weapon/Gear Special Rules, plus XPL (rulings: the Rocket Launcher Turret's blast).
WEAPON_RULES: dict[str, bool] = {
    "*": False, "+SK": False, "2MC": False, "2RC": False, "AH": True, "BLS": False,
    "BR": True, "CR": True, "DD": True, "HVY": False, "LIM": False, "LNR": False,
    "MCR": False, "NCV": False, "PR": True, "RG": True, "RLT": False, "RND": False,
    "SK": True, "SPR": False, "STN": False, "UWD": False, "XP": True, "XPL": False,
}  # fmt: skip

_RULE = re.compile(r"^(\*|\+SK|2MC|2RC|[A-Z]{2,3}?)(\d*)$")

RANGED = "ranged"
MELEE = "melee"


@dataclass(frozen=True, slots=True)
class SpecialRule:
    code: str
    value: int | None = None

    def __str__(self) -> str:
        return self.code if self.value is None else f"{self.code}{self.value}"


def parse_rule(text: str, known: dict[str, bool], owner: str) -> SpecialRule:
    """Read `LD2`, `RG6`, `CAM` or `*` against a table of known codes."""
    match = _RULE.match(text.strip().upper())
    if match is not None:
        code, number = match.group(1), match.group(2)
        if code in known and known[code] == bool(number):
            return SpecialRule(code, int(number) if number else None)
    names = ", ".join(code + ("x" if takes_number else "") for code, takes_number in known.items())
    raise ContentError(f"{owner}: '{text}' is not a special rule here. Known rules: {names}.")


def has_rule(rules: tuple[SpecialRule, ...], code: str) -> bool:
    return any(rule.code == code for rule in rules)


def rule_value(rules: tuple[SpecialRule, ...], code: str) -> int:
    """The x of an `x` rule (0 when the rule is absent)."""
    return sum(rule.value or 0 for rule in rules if rule.code == code)


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    kind: str  # RANGED or MELEE
    roa: int
    dam: int
    specials: tuple[SpecialRule, ...] = ()
    ep: int = 0
    gear: bool = False  # an Equipment item such as a grenade (campaign medal Geared Up)

    @property
    def range(self) -> int:
        """RGx: the longest distance a ranged weapon reaches (melee weapons: 1)."""
        return rule_value(self.specials, "RG") if self.kind == RANGED else 1

    def has(self, code: str) -> bool:
        return has_rule(self.specials, code)

    def value(self, code: str) -> int:
        return rule_value(self.specials, code)

    def summary(self) -> str:
        rules = " ".join(str(rule) for rule in self.specials)
        return f"{self.name} ({self.kind}, ROA {self.roa}, DAM {self.dam}{', ' + rules if rules else ''})"


@dataclass(frozen=True, slots=True)
class UnitCard:
    name: str
    unit_type: str
    ep: int
    act: int
    msk: int
    rsk: int
    arm: int
    hit: int
    specials: tuple[SpecialRule, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    xp: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    skills: tuple[Skill, ...] = ()

    def has(self, code: str) -> bool:
        return has_rule(self.specials, code)

    def value(self, code: str) -> int:
        return rule_value(self.specials, code)

    @property
    def is_leader(self) -> bool:
        return self.has("LD")

    @property
    def total_ep(self) -> int:
        """The card's EP: the unit itself plus its gear (rulebook Stat Cards, EP)."""
        return self.ep + sum(weapon.ep for weapon in self.weapons) + sum(s.ep for s in self.skills)

    def skill(self, name: str) -> Skill | None:
        wanted = name.strip().casefold()
        return next((s for s in self.skills if s.name.casefold() == wanted), None)

    def weapons_of(self, kind: str) -> tuple[Weapon, ...]:
        return tuple(weapon for weapon in self.weapons if weapon.kind == kind)

    def weapon(self, name: str) -> Weapon | None:
        wanted = name.strip().casefold()
        return next((w for w in self.weapons if w.name.casefold() == wanted), None)


# Stat ranges for cards: skills and ARM are rolled against a D6, so 1..5 (6 always fails).
STAT_RANGES: dict[str, tuple[int, int]] = {
    "act": (1, 4), "msk": (1, 5), "rsk": (1, 5), "arm": (1, 5), "hit": (1, 6), "ep": (0, 60),
}  # fmt: skip
WEAPON_RANGES: dict[str, tuple[int, int]] = {"roa": (1, 8), "dam": (1, 5), "ep": (0, 30)}


def _int_field(data: dict[str, Any], key: str, bounds: tuple[int, int], owner: str) -> int:
    value = data.get(key)
    low, high = bounds
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ContentError(
            f"{owner}: '{key}' must be a whole number from {low} to {high}, not {value!r}."
        )
    return value


def _text_field(data: dict[str, Any], key: str, owner: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{owner}: '{key}' must be a non-empty text.")
    return value.strip()


def _rules_field(
    data: dict[str, Any], known: dict[str, bool], owner: str
) -> tuple[SpecialRule, ...]:
    raw = data.get("specials", [])
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise ContentError(f'{owner}: \'specials\' must be a list of texts like ["LD2", "SWF"].')
    return tuple(parse_rule(item, known, owner) for item in raw)


def _gear_field(data: dict[str, Any], owner: str) -> bool:
    """`"gear": true` marks an Equipment item (a grenade, a mine) rather than a weapon."""
    gear = data.get("gear", False)
    if not isinstance(gear, bool):
        raise ContentError(f"{owner}: 'gear' must be true or false, not {gear!r}.")
    return gear


def weapon_from_json(data: dict[str, Any], owner: str) -> Weapon:
    if not isinstance(data, dict):
        raise ContentError(f"{owner}: each weapon must be an object with name, type, roa, dam.")
    name = _text_field(data, "name", owner)
    where = f"{owner}, weapon {name}"
    kind = data.get("type")
    if kind not in (RANGED, MELEE):
        raise ContentError(f'{where}: \'type\' must be "ranged" or "melee", not {kind!r}.')
    specials = _rules_field(data, WEAPON_RULES, where)
    weapon = Weapon(
        name=name,
        kind=kind,
        roa=_int_field(data, "roa", WEAPON_RANGES["roa"], where),
        dam=_int_field(data, "dam", WEAPON_RANGES["dam"], where),
        specials=specials,
        ep=_int_field(data, "ep", WEAPON_RANGES["ep"], where) if "ep" in data else 0,
        gear=_gear_field(data, where),
    )
    if kind == RANGED and weapon.range < 2:
        raise ContentError(f"{where}: a ranged weapon needs a range of at least 2 (RG2 or more).")
    if kind == MELEE and weapon.has("RG"):
        raise ContentError(f"{where}: a melee weapon has no range (RGx).")
    return weapon


def card_from_json(data: dict[str, Any], owner: str) -> UnitCard:
    if not isinstance(data, dict):
        raise ContentError(f"{owner}: each unit must be an object.")
    name = _text_field(data, "name", owner)
    where = f"{owner}, unit {name}"
    weapons_raw = data.get("weapons", [])
    if not isinstance(weapons_raw, list) or not weapons_raw:
        raise ContentError(f"{where}: 'weapons' must list at least one weapon.")
    weapons = tuple(weapon_from_json(item, where) for item in weapons_raw)
    names = [weapon.name.casefold() for weapon in weapons]
    if len(set(names)) != len(names):
        raise ContentError(f"{where}: two weapons share a name; give each weapon its own name.")
    xp = data.get("xp", 0)
    if not isinstance(xp, int) or xp < 0:
        raise ContentError(f"{where}: 'xp' must be a whole number, 0 or more.")
    skills = _skills_field(data, weapons, where)
    return UnitCard(
        name=name,
        unit_type=_text_field(data, "type", where, default="Trooper"),
        ep=_int_field(data, "ep", STAT_RANGES["ep"], where),
        act=_int_field(data, "act", STAT_RANGES["act"], where),
        msk=_int_field(data, "msk", STAT_RANGES["msk"], where),
        rsk=_int_field(data, "rsk", STAT_RANGES["rsk"], where),
        arm=_int_field(data, "arm", STAT_RANGES["arm"], where),
        hit=_int_field(data, "hit", STAT_RANGES["hit"], where),
        specials=_rules_field(data, UNIT_RULES, where),
        weapons=weapons,
        xp=xp,
        skills=skills,
    )


def _skills_field(
    data: dict[str, Any], weapons: tuple[Weapon, ...], where: str
) -> tuple[Skill, ...]:
    raw = data.get("skills", [])
    if not isinstance(raw, list):
        raise ContentError(f"{where}: 'skills' must be a list.")
    skills = tuple(skill_from_json(item, where) for item in raw)
    names = [s.name.casefold() for s in skills]
    if len(set(names)) != len(names):
        raise ContentError(f"{where}: two skills share a name.")
    known = {w.name.casefold() for w in weapons}
    for skill in skills:
        if skill.weapon is not None and skill.weapon.casefold() not in known:
            raise ContentError(
                f"{where}: skill {skill.name} attacks with '{skill.weapon}', which the unit does not carry."
            )
    return skills
