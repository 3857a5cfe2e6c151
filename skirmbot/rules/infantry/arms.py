"""Weapons, explosives, body armour and what every trooper carries: the rulebook's tables
(rulebook 002, "Weapons and Equipment" and "Body Armor"), shipped as
`skirmbot/content/infantry/weapons.json` in the tables' own words ("3X", "1X, 4\\", "x3").
`parse_arms` checks a file and says in plain words what is wrong (ContentError); `load_arms`
reads the shipped one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, TypeVar

from skirmbot.rules.errors import ContentError
from skirmbot.rules.infantry.card import MAX_ARMOUR

PRIMARY, SECONDARY, MELEE = "primary", "secondary", "melee"
GRENADE = "Hand Grenade"  # carried by every trooper, besides the secondary (Explosives ¶2)
SECTIONS = (PRIMARY, SECONDARY, MELEE, "explosives", "armour", "always_carried")
# Fists hit for half the attacker's current maximum AP (Melee ¶1): no fixed number.
HALF_AP = "(max AP/2)\\"
_LETHAL = re.compile(r"(\d+)X")
_BLUNT = re.compile(r"(\d+)\\")
_SHOTS = re.compile(r"x(\d+)")
# An explosive's range column, "AP" or "AP/2", is the AP paid per dot thrown (Explosives ¶1).
_PER_DOT = {"AP": 1, "AP/2": 2}

T = TypeVar("T")
Row = TypeVar("Row", "Weapon", "Explosive", "Armour")


@dataclass(frozen=True)
class Weapon:
    """A row of the Primary, Ranged Secondary or Melee table. `shots` is the arc's multiplier
    (melee: 0); `long` is None for melee; `pv` is None for fists and knife, always carried."""

    name: str
    kind: str  # PRIMARY, SECONDARY (ranged) or MELEE
    lethal: int
    blunt: int
    shots: int
    short: int
    long: int | None
    pv: int | None
    ap: int | None = None  # a melee attack's AP cost; ranged weapons pay for their arc instead
    blunt_is_half_ap: bool = False  # fists

    @property
    def has_bayonet(self) -> bool:
        """Our ruling (proposed): every primary is a rifle or an SMG of some kind, so each one
        comes with the bayonet (Unit Card ¶7)."""
        return self.kind == PRIMARY

    def damage(self, max_ap: int) -> tuple[int, int]:
        """(lethal, bludgeoning) of one hit by a trooper whose current maximum AP is `max_ap`:
        fists give half of it, rounded down (our ruling); every other weapon its table value."""
        return (self.lethal, max_ap // 2) if self.blunt_is_half_ap else (self.lethal, self.blunt)


@dataclass(frozen=True)
class Explosive:
    """A row of the Explosive Weapons table: `blast` is the lethal damage at the point of
    detonation, the adjacent dots, the dots 2 away (Explosives ¶1)."""

    name: str
    blast: tuple[int, ...]
    ap_per_dot: int
    ammo: int
    pv: int
    ap_text: str  # the table's AP Cost column as printed ("AP", "3 or AP")


@dataclass(frozen=True)
class Armour:
    """A row of the Body Armor table: cells left on the card and AP taken from every column."""

    name: str
    cells: int
    ap: int


@dataclass(frozen=True)
class Arms:
    weapons: Mapping[str, Weapon]  # every primary, ranged secondary and melee weapon by name
    explosives: Mapping[str, Explosive]
    armour: Mapping[str, Armour]
    always_melee: tuple[str, ...]  # fists and knife (Melee table note)
    always_equipment: tuple[str, ...]  # the helmet (Weapons and Equipment ¶1)
    grenades: int  # hand grenades carried (Weapons and Equipment ¶1)

    def of_kind(self, kind: str) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons.values() if w.kind == kind)

    def weapon(self, name: str) -> Weapon:
        return _named(self.weapons, name, "weapon")

    def explosive(self, name: str) -> Explosive:
        return _named(self.explosives, name, "explosive")

    def armour_type(self, name: str) -> Armour:
        return _named(self.armour, name, "body armour")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (the service keeps snapshots of a live match) with its tables as plain dicts
        (a mappingproxy does not pickle), read back read-only."""
        tables = (dict(self.weapons), dict(self.explosives), dict(self.armour))
        return (_arms, (*tables, self.always_melee, self.always_equipment, self.grenades))


def _arms(
    weapons: dict[str, Weapon],
    explosives: dict[str, Explosive],
    armour: dict[str, Armour],
    always_melee: tuple[str, ...],
    always_equipment: tuple[str, ...],
    grenades: int,
) -> Arms:
    """An Arms unpickled: its tables read-only again."""
    return Arms(
        MappingProxyType(weapons), MappingProxyType(explosives), MappingProxyType(armour),
        always_melee, always_equipment, grenades,
    )  # fmt: skip


def _named(table: Mapping[str, T], name: str, what: str) -> T:
    if name not in table:
        raise ContentError(f"There is no {what} called {name!r}: there are {', '.join(table)}.")
    return table[name]


@cache
def load_arms() -> Arms:
    """The shipped tables (read once: the file is part of the package)."""
    text = (
        resources.files("skirmbot.content").joinpath("infantry", "weapons.json").read_text("utf-8")
    )
    return parse_arms(json.loads(text))


def parse_arms(data: Any) -> Arms:
    """The tables from a weapons file's JSON, refused in plain words if anything is wrong."""
    if not isinstance(data, dict):
        raise ContentError("The weapons file must be an object of tables.")
    missing = [s for s in SECTIONS if s not in data]
    extra = [s for s in data if s not in SECTIONS]
    if missing or extra:
        raise ContentError(
            f"The weapons file needs the tables {', '.join(SECTIONS)}"
            + (f"; it lacks {', '.join(missing)}" if missing else "")
            + (f"; it has unknown {', '.join(map(str, extra))}" if extra else "")
            + "."
        )
    weapons = [_ranged(row, PRIMARY) for row in _rows(data, PRIMARY)]
    weapons += [_ranged(row, SECONDARY) for row in _rows(data, SECONDARY)]
    weapons += [_melee(row) for row in _rows(data, MELEE)]
    arms = Arms(
        weapons=_by_name(weapons, "weapon"),
        explosives=_by_name([_explosive(r) for r in _rows(data, "explosives")], "explosive"),
        armour=_by_name([_armour(r) for r in _rows(data, "armour")], "body armour"),
        **_carried(data["always_carried"]),
    )
    arms.explosive(GRENADE)  # every trooper carries them: the table must price them
    for name in arms.always_melee:
        if arms.weapon(name).kind != MELEE:
            raise ContentError(f"{name} is always carried as a melee weapon but is not one.")
    return arms


def _rows(data: dict[str, Any], section: str) -> list[dict[str, Any]]:
    rows = data[section]
    if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
        raise ContentError(f"The {section} table must be a list of rows, each an object.")
    return rows


def _by_name(items: list[Row], what: str) -> Mapping[str, Row]:
    table: dict[str, Row] = {}
    for item in items:
        if item.name in table:
            raise ContentError(f"There are two of the {what} called {item.name}.")
        table[item.name] = item
    return MappingProxyType(table)


def _fields(row: dict[str, Any], section: str, needed: tuple[str, ...]) -> str:
    name = row.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ContentError(f"A row of the {section} table has no name.")
    missing = [f for f in needed if f not in row]
    extra = [f for f in row if f not in ("name", *needed)]
    if missing or extra:
        raise ContentError(
            f"{name} ({section}) needs {', '.join(needed)}"
            + (f"; it lacks {', '.join(missing)}" if missing else "")
            + (f"; it has unknown {', '.join(extra)}" if extra else "")
            + "."
        )
    return name


def _count(row: dict[str, Any], field: str, name: str, least: int = 1) -> int:
    value = row[field]
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ContentError(f"{name}'s {field} must be a whole number of at least {least}.")
    return value


def _damage(text: Any, name: str) -> tuple[int, int, bool]:
    """(lethal, bludgeoning, fists?) from the table's Damage column: "3X", "5\\", "1X, 4\\" or
    fists' "(max AP/2)\\"."""
    if text == HALF_AP:
        return 0, 0, True
    parts = text.split(", ") if isinstance(text, str) else []
    lethal = [m for p in parts if (m := _LETHAL.fullmatch(p))]
    blunt = [m for p in parts if (m := _BLUNT.fullmatch(p))]
    if not parts or len(lethal) > 1 or len(blunt) > 1 or len(lethal) + len(blunt) != len(parts):
        raise ContentError(
            f"{name}'s damage {text!r} is not written as the tables write it: "
            "lethal as 3X, bludgeoning as 4\\, both as 1X, 4\\."
        )
    return (int(lethal[0][1]) if lethal else 0), (int(blunt[0][1]) if blunt else 0), False


def _ranged(row: dict[str, Any], kind: str) -> Weapon:
    name = _fields(row, kind, ("damage", "shots", "short", "long", "pv"))
    lethal, blunt, _ = _damage(row["damage"], name)
    shots = _SHOTS.fullmatch(row["shots"]) if isinstance(row["shots"], str) else None
    if shots is None or int(shots[1]) < 1:
        raise ContentError(f"{name}'s shots must be written x1, x2, x3...")
    short, long = _count(row, "short", name), _count(row, "long", name)
    if long < short:
        raise ContentError(f"{name}'s long range ({long}) is shorter than its short ({short}).")
    pv = _count(row, "pv", name)
    return Weapon(name, kind, lethal, blunt, int(shots[1]), short, long, pv)


def _melee(row: dict[str, Any]) -> Weapon:
    name = _fields(row, MELEE, ("damage", "ap", "short", "pv"))
    lethal, blunt, half_ap = _damage(row["damage"], name)
    pv = None if row["pv"] is None else _count(row, "pv", name)
    ap, short = _count(row, "ap", name), _count(row, "short", name)
    return Weapon(name, MELEE, lethal, blunt, 0, short, None, pv, ap, half_ap)


def _explosive(row: dict[str, Any]) -> Explosive:
    name = _fields(row, "explosives", ("damage", "ap", "ammo", "range", "pv"))
    parts = row["damage"].split("/") if isinstance(row["damage"], str) else []
    blast = [m for p in parts if (m := _LETHAL.fullmatch(p))]
    if not parts or len(blast) != len(parts):
        raise ContentError(f"{name}'s damage must be written as 6X/3X/1X, outwards from the dot.")
    if row["range"] not in _PER_DOT:
        raise ContentError(f"{name}'s range must be AP or AP/2 (the AP paid per dot thrown).")
    if not isinstance(row["ap"], str) or not row["ap"]:
        raise ContentError(f"{name}'s AP cost must be written as the table writes it.")
    ammo, pv = _count(row, "ammo", name), _count(row, "pv", name)
    return Explosive(
        name, tuple(int(m[1]) for m in blast), _PER_DOT[row["range"]], ammo, pv, row["ap"]
    )


def _armour(row: dict[str, Any]) -> Armour:
    name = _fields(row, "armour", ("cells", "ap"))
    cells, ap = _count(row, "cells", name), _count(row, "ap", name)
    if cells > MAX_ARMOUR:
        raise ContentError(f"{name} has {cells} cells: a card has room for {MAX_ARMOUR}.")
    return Armour(name, cells, ap)


def _carried(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or set(data) != {"melee", "equipment", "grenades"}:
        raise ContentError("always_carried needs melee, equipment and grenades, and nothing more.")
    for field in ("melee", "equipment"):
        if not isinstance(data[field], list) or not all(isinstance(x, str) for x in data[field]):
            raise ContentError(f"always_carried's {field} must be a list of names.")
    return {
        "always_melee": tuple(data["melee"]),
        "always_equipment": tuple(data["equipment"]),
        "grenades": _count(data, "grenades", "always_carried", least=0),
    }


@dataclass(frozen=True)
class Loadout:
    """What one trooper carries into the game (W&E ¶1): one primary, at most one secondary (a
    ranged or melee weapon, or a satchel charge: Explosives ¶2), the hand grenades, body armour
    or none, and equipment shown on the card with no rule effect (our ruling)."""

    primary: Weapon
    secondary: Weapon | Explosive | None
    armour: Armour | None
    grenades: int
    equipment: tuple[str, ...] = ()

    @property
    def armour_cells(self) -> int:
        return 0 if self.armour is None else self.armour.cells

    @property
    def armour_cost(self) -> int:
        """AP taken from every column of the AP row (Body Armor ¶2)."""
        return 0 if self.armour is None else self.armour.ap


def loadout(
    arms: Arms,
    primary: str,
    secondary: str | None = None,
    armour: str | None = None,
    equipment: tuple[str, ...] = (),
) -> Loadout:
    """A trooper's loadout by the tables' names, refused in plain words if it breaks W&E ¶1
    ("one primary weapon, one secondary weapon, and 4 hand grenades") or the Melee table note
    ("The other melee weapons take the place of a secondary weapon")."""
    first = arms.weapon(primary)
    if first.kind != PRIMARY:
        raise ContentError(f"{primary} is not a primary weapon: those are {_names(arms, PRIMARY)}.")
    return Loadout(
        first,
        _secondary(arms, secondary),
        None if armour is None else arms.armour_type(armour),
        arms.grenades,
        equipment,
    )


def _secondary(arms: Arms, name: str | None) -> Weapon | Explosive | None:
    if name is None:
        return None
    if name in arms.explosives:
        if name == GRENADE:
            raise ContentError(
                f"Hand grenades are carried besides the secondary weapon ({arms.grenades})."
            )
        return arms.explosive(name)
    if name in arms.always_melee:
        raise ContentError(f"{name} is always carried: it cannot be the secondary weapon.")
    weapon = arms.weapon(name)
    if weapon.kind == PRIMARY:
        raise ContentError(f"{name} is a primary weapon: a trooper carries a single one.")
    return weapon


def _names(arms: Arms, kind: str) -> str:
    return ", ".join(w.name for w in arms.of_kind(kind))


def points(arms: Arms, kit: Loadout) -> int:
    """A trooper's PV, our ruling (proposed in docs/plans/infantry.md): its weapons' PV, the
    hand grenades' (the table prices the 4 as one row), body armour free (its price is AP)."""
    grenades = arms.explosive(GRENADE).pv if kit.grenades else 0
    second = 0 if kit.secondary is None else kit.secondary.pv or 0
    return (kit.primary.pv or 0) + second + grenades
