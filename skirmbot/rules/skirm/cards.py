"""Stat cards: units, weapons and their special rules, as data (rulebook Stat Cards, Special Rules).

Special rules are written as on the card: a code, with a number for the `x` rules (`LD2`, `RG6`,
`BR1`). Every code in the rulebook's two tables is known here, so a card with a typo is refused
when the squad is loaded rather than silently ignored in play.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.names import check_text_name
from skirmbot.rules.skirm.skills import Skill, skill_from_json
from skirmbot.words import name_key

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

# The keys each object of a squad file may have; anything else is a typo to report.
SQUAD_KEYS = ("name", "description", "units")
UNIT_KEYS = (
    "name", "type", "ep", "act", "msk", "rsk", "arm", "hit", "specials", "weapons", "skills",
    "xp", "spoils_taken",
)  # fmt: skip
WEAPON_KEYS = ("name", "type", "roa", "dam", "ep", "specials", "gear")
SKILL_KEYS = ("name", "effect", "amount", "act", "to", "reach", "weapon", "ep", "once_per_turn")

NAME_LIMIT = 32  # visible characters in a squad, unit, weapon or skill name
TYPE_LIMIT = 64  # visible characters in a unit's type ("Warden Captain")
SEPARATORS = ",;@"  # commands separate names with , and ; and name items as barrel@E5
_SQUARE_NAME = re.compile(r"^[A-Za-z]\d{1,2}$")

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


# --- keys and names in squad files ---------------------------------------------------------


def check_keys(data: dict[str, Any], known: Iterable[str], label: str, kind: str) -> None:
    """Refuse a key that is not one of `known` (a typo such as `wepons` would otherwise drop
    the weapons silently), suggesting the closest known key."""
    allowed = tuple(known)
    for key in data:
        if key in allowed:
            continue
        text = str(key)
        ranged = difflib.get_close_matches(text.strip().casefold(), ("range",), cutoff=0.75)
        if (ranged or text.strip().casefold() == "rg") and "specials" in allowed:
            raise ContentError(
                f"{label}: unknown key '{text}'; a weapon's range is a special rule, like "
                '"specials": ["RG6"].'
            )
        close = difflib.get_close_matches(text.casefold(), allowed, n=1, cutoff=0.6)
        if close:
            raise ContentError(f"{label}: unknown key '{text}' (did you mean '{close[0]}'?)")
        raise ContentError(
            f"{label}: unknown key '{text}'. The keys of {kind} are: {', '.join(allowed)}."
        )








def reads_like_square(name: str) -> bool:
    """Whether a command that takes a unit or a square could read `name` as a square (C4)."""
    plain = "".join(char for char in name_key(name) if not char.isspace())
    return bool(_SQUARE_NAME.match(plain)) or bool(_SQUARE_NAME.match(name.strip()))




def check_name(
    value: Any, label: str, what: str = "name", *, commands: bool = True, limit: int = NAME_LIMIT
) -> str:
    """A name from a squad file, trimmed: 1 to NAME_LIMIT visible characters on one line, no
    invisible characters inside; with `commands` (units, weapons, skills: names that commands
    take) also not a square's name and without the separators commands use. `label` says whose
    name it is in the error."""
    name = check_text_name(value, label, what, limit)
    if commands and reads_like_square(name):
        raise ContentError(
            f"{label}: the {what} '{name}' reads like a square of the map; commands that take "
            "a unit or a square would mistake one for the other. Choose another name."
        )
    if commands and any(char in SEPARATORS for char in name):
        raise ContentError(
            f"{label}: the {what} '{name}' holds one of {' '.join(SEPARATORS)}, which commands "
            "use to separate names. Choose another name."
        )
    return name


def read_name(
    value: Any,
    label: str,
    what: str = "name",
    *,
    strict: bool = True,
    commands: bool = True,
    limit: int = NAME_LIMIT,
) -> str:
    """A name as `check_name` reads it; not `strict` (a squad inside a match record, accepted
    when the match began, perhaps before names were checked), any text with a visible
    character, trimmed, so that a saved match always replays."""
    if strict:
        return check_name(value, label, what, commands=commands, limit=limit)
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{label}: the {what} must be a non-empty text.")
    return value.strip()


def valid_name(value: Any, commands: bool = True) -> str | None:
    """The name as `check_name` gives it, or None when it is not allowed."""
    try:
        return check_name(value, "", commands=commands)
    except ContentError:
        return None


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    kind: str  # RANGED or MELEE
    roa: int
    dam: int
    specials: tuple[SpecialRule, ...] = ()
    ep: int = 0
    gear: bool = False  # an Equipment item such as a grenade (campaign medal Geared Up)
    # Skirm Lite puts the skill on the weapon (SKL); None: the unit's MSK/RSK, as in Skirm.
    skl: int | None = None

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
    mov: int = 3  # squares a Move covers: Skirm's 3, Skirm Lite's MOV stat

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


def int_field(data: dict[str, Any], key: str, bounds: tuple[int, int], owner: str) -> int:
    """A squad file's whole-number field within `bounds`, or ContentError naming `owner`
    (Skirm Lite's cards read theirs with it too)."""
    value = data.get(key)
    low, high = bounds
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ContentError(
            f"{owner}: '{key}' must be a whole number from {low} to {high}, not {value!r}."
        )
    return value


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


def _label(within: str | None, kind: str, name: Any, number: int | None) -> str:
    """How a new-style error names an object: `Unit 'Halden'`, `Unit 'Halden', weapon 2`."""
    valid = valid_name(name)
    if valid is not None:
        own = f"{kind} '{valid}'"
    else:
        own = f"{kind} {number}" if number is not None else f"a {kind}"
    return f"{within}, {own}" if within else own[:1].upper() + own[1:]


def named_object(
    data: dict[str, Any],
    known: tuple[str, ...],
    kind: str,
    within: str | None,
    number: int | None,
    strict: bool,
) -> str:
    """What every named object of a squad file (unit, weapon, skill) goes through first: its
    keys checked (when `strict`) and its name read; errors name it by `within` and `number`.
    Skirm Lite's agents and weapons go through it too."""
    label = _label(within, kind, data.get("name"), number)
    if strict:
        check_keys(data, known, label, f"a {kind}")
    if "name" not in data:
        raise ContentError(f"{label}: a {kind} needs a 'name'.")
    return read_name(
        data["name"], _label(within, kind, None, number), f"{kind} name", strict=strict
    )


def weapon_from_json(
    data: dict[str, Any],
    owner: str,
    *,
    unit_label: str | None = None,
    number: int | None = None,
    strict: bool = True,
) -> Weapon:
    """A weapon of a squad file. `owner` names the unit for the rules' errors ("Squad X, unit
    Y"); `unit_label` ("Unit 'Y'") and `number` (its place in the list) name it for errors
    about its keys and name; not `strict`: keys and names as a match record holds them
    (`read_name`)."""
    if not isinstance(data, dict):
        raise ContentError(f"{owner}: each weapon must be an object with name, type, roa, dam.")
    name = named_object(data, WEAPON_KEYS, "weapon", unit_label, number, strict)
    where = f"{owner}, weapon {name}"
    kind = data.get("type")
    if kind not in (RANGED, MELEE):
        raise ContentError(f'{where}: \'type\' must be "ranged" or "melee", not {kind!r}.')
    specials = _rules_field(data, WEAPON_RULES, where)
    weapon = Weapon(
        name=name,
        kind=kind,
        roa=int_field(data, "roa", WEAPON_RANGES["roa"], where),
        dam=int_field(data, "dam", WEAPON_RANGES["dam"], where),
        specials=specials,
        ep=int_field(data, "ep", WEAPON_RANGES["ep"], where) if "ep" in data else 0,
        gear=_gear_field(data, where),
    )
    if kind == RANGED and weapon.range < 2:
        raise ContentError(f"{where}: a ranged weapon needs a range of at least 2 (RG2 or more).")
    if kind == MELEE and weapon.has("RG"):
        raise ContentError(f"{where}: a melee weapon has no range (RGx).")
    return weapon


def card_from_json(
    data: dict[str, Any], owner: str, *, number: int | None = None, strict: bool = True
) -> UnitCard:
    """A unit of a squad file. `owner` names the squad ("Squad X"); `number` is the unit's
    place in the squad's list, to name a unit whose name is missing or not allowed; not
    `strict`: keys and names as a match record holds them (`read_name`)."""
    if not isinstance(data, dict):
        raise ContentError(f"{owner}: each unit must be an object.")
    name = named_object(data, UNIT_KEYS, "unit", None, number, strict)
    label = f"Unit '{name}'"
    where = f"{owner}, unit {name}"
    weapons_raw = data.get("weapons", [])
    if not isinstance(weapons_raw, list) or not weapons_raw:
        raise ContentError(f"{where}: 'weapons' must list at least one weapon.")
    weapons = tuple(
        weapon_from_json(item, where, unit_label=label, number=n, strict=strict)
        for n, item in enumerate(weapons_raw, start=1)
    )
    check_distinct([weapon.name for weapon in weapons], label, "weapons")
    xp = data.get("xp", 0)
    if not isinstance(xp, int) or isinstance(xp, bool) or xp < 0:
        raise ContentError(f"{where}: 'xp' must be a whole number, 0 or more.")
    skills = _skills_field(data, weapons, where, label, strict)
    unit_type = read_name(
        data.get("type", "Trooper"), label, "type", strict=strict, commands=False, limit=TYPE_LIMIT
    )
    return UnitCard(
        name=name,
        unit_type=unit_type,
        ep=int_field(data, "ep", STAT_RANGES["ep"], where),
        act=int_field(data, "act", STAT_RANGES["act"], where),
        msk=int_field(data, "msk", STAT_RANGES["msk"], where),
        rsk=int_field(data, "rsk", STAT_RANGES["rsk"], where),
        arm=int_field(data, "arm", STAT_RANGES["arm"], where),
        hit=int_field(data, "hit", STAT_RANGES["hit"], where),
        specials=_rules_field(data, UNIT_RULES, where),
        weapons=weapons,
        xp=xp,
        skills=skills,
    )


def check_distinct(names: list[str], label: str, what: str) -> None:
    """Refuse two names that read the same (case, zero-width characters and width aside); Skirm
    Lite's cards hold their weapons to it too."""
    seen: dict[str, str] = {}
    for name in names:
        first = seen.get(name_key(name))
        seen.setdefault(name_key(name), name)
        if first is not None:
            same = f"'{first}' and '{name}'" if first != name else f"'{name}'"
            raise ContentError(
                f"{label}: two {what} are called {same}; give each of its {what} its own name."
            )


def _skills_field(
    data: dict[str, Any], weapons: tuple[Weapon, ...], where: str, label: str, strict: bool
) -> tuple[Skill, ...]:
    raw = data.get("skills", [])
    if not isinstance(raw, list):
        raise ContentError(f"{where}: 'skills' must be a list.")
    skills = tuple(_skill(item, where, label, n, strict) for n, item in enumerate(raw, start=1))
    check_distinct([s.name for s in skills], label, "skills")
    known = {w.name.casefold() for w in weapons}
    for skill in skills:
        if skill.weapon is not None and skill.weapon.casefold() not in known:
            raise ContentError(
                f"{where}: skill {skill.name} attacks with '{skill.weapon}', which the unit does not carry."
            )
    return skills


def _skill(item: Any, where: str, unit_label: str, number: int, strict: bool) -> Skill:
    """One skill: its keys and name checked here, the rest by `skill_from_json`."""
    if not isinstance(item, dict):
        return skill_from_json(item, where)
    name = named_object(item, SKILL_KEYS, "skill", unit_label, number, strict)
    return skill_from_json({**item, "name": name}, where)
