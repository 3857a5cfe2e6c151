"""The d20 armory: weapons, traits and model profiles as data (rulebook Models, Armory, Traits).

The rulebook leaves Armory and Traits empty and names only "weapon profiles" with a range and an
Armor Penetration value; what is written here is our ruling (docs/rulings.md, the d20 rules):
a weapon is melee or ranged, has a range in inches and an Armour Penetration value (0: none); a
trait adds to one kind of roll or to movement. A profile is a Small or a Big Model; a Big Model
has armour front, side and rear. The shipped armory is `skirmbot/content/d20/armory.json`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from skirmbot.rules.errors import ContentError

SMALL_MOVE = 6  # inches (rulebook Movement: "Small Models can move 6 inches")
BIG_MOVE = 12  # inches ("Big Models can move 12 inches")
# What a trait may add to (our ruling): the attack roll by kind, the defence roll, movement in
# inches, the Recovery Phase roll.
TRAIT_EFFECTS = ("ranged_attack", "melee_attack", "defence", "move", "recovery")
MAX_BONUS = 3  # a trait adds at most +3: a d10 roll must still decide most fights


@dataclass(frozen=True)
class Weapon:
    name: str
    melee: bool
    range: int  # inches
    penetration: int  # Armour Penetration value; 0: the weapon has none
    points: int


@dataclass(frozen=True)
class Trait:
    name: str
    text: str
    effects: tuple[tuple[str, int], ...]  # (effect, bonus)

    def bonus(self, effect: str) -> int:
        return sum(value for name, value in self.effects if name == effect)


@dataclass(frozen=True)
class Profile:
    name: str
    big: bool
    weapons: tuple[Weapon, ...]
    traits: tuple[Trait, ...]
    points: int
    armour: tuple[int, int, int] | None = None  # front, side, rear (Big Models only)

    def __deepcopy__(self, memo: dict[int, Any]) -> Profile:
        return self  # frozen all through: a copied match shares its models' profiles

    @property
    def move(self) -> int:
        """Inches per movement, traits included."""
        return (BIG_MOVE if self.big else SMALL_MOVE) + self.bonus("move")

    def bonus(self, effect: str) -> int:
        return sum(trait.bonus(effect) for trait in self.traits)

    def weapon(self, name: str | None) -> Weapon | None:
        """The weapon called `name` (any case), or its first weapon when `name` is None."""
        if name is None:
            return self.weapons[0] if self.weapons else None
        return next((w for w in self.weapons if w.name.lower() == name.lower()), None)


@dataclass(frozen=True)
class Armory:
    weapons: dict[str, Weapon]
    traits: dict[str, Trait]
    profiles: dict[str, Profile]
    source: dict[str, Any]


def armory_from_json(data: Any) -> Armory:
    """Read an armory; ContentError names the first mistake in plain words."""
    if not isinstance(data, dict):
        raise ContentError("The d20 armory must be an object with weapons, traits and profiles.")
    weapons = _by_name(_weapon(item) for item in _list(data, "weapons"))
    traits = _by_name(_trait(item) for item in _list(data, "traits"))
    profiles = _by_name(_profile(item, weapons, traits) for item in _list(data, "profiles"))
    return Armory(weapons, traits, profiles, data)


@cache
def shipped_armory() -> Armory:
    """The armory skirmbot ships (package data, read once: it never changes while running)."""
    text = resources.files("skirmbot.content").joinpath("d20", "armory.json").read_text("utf-8")
    return armory_from_json(json.loads(text))


def _list(data: dict[str, Any], key: str) -> list[Any]:
    found = data.get(key)
    if not isinstance(found, list) or not found:
        raise ContentError(f"The d20 armory needs a list of '{key}'.")
    return found


def _by_name(items: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in items:
        if item.name.lower() in found:
            raise ContentError(f"The d20 armory names '{item.name}' twice.")
        found[item.name.lower()] = item
    return found


def _text(data: Any, key: str, where: str) -> str:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{where} needs a '{key}' in words.")
    return value.strip()


def _number(data: dict[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = data.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ContentError(f"{where}: '{key}' must be a whole number from {low} to {high}.")
    return value


def _weapon(data: Any) -> Weapon:
    name = _text(data, "name", "A weapon")
    where = f"Weapon {name}"
    if data.get("kind") not in ("melee", "ranged"):
        raise ContentError(f"{where}: 'kind' must be melee or ranged.")
    melee = data["kind"] == "melee"
    reach = _number(data, "range", where, 1, 2 if melee else 48)
    return Weapon(
        name,
        melee,
        reach,
        _number(data, "penetration", where, 0, 6),
        _number(data, "points", where, 0, 50),
    )


def _trait(data: Any) -> Trait:
    name = _text(data, "name", "A trait")
    effects = data.get("effects")
    if not isinstance(effects, dict) or not effects:
        raise ContentError(
            f"Trait {name}: 'effects' must give at least one of {', '.join(TRAIT_EFFECTS)}."
        )
    for effect in effects:
        if effect not in TRAIT_EFFECTS:
            raise ContentError(
                f"Trait {name}: '{effect}' is not an effect; use {', '.join(TRAIT_EFFECTS)}."
            )
        _number(effects, effect, f"Trait {name}", 1, MAX_BONUS if effect != "move" else 6)
    return Trait(name, _text(data, "text", f"Trait {name}"), tuple(sorted(effects.items())))


def _profile(data: Any, weapons: dict[str, Weapon], traits: dict[str, Trait]) -> Profile:
    name = _text(data, "name", "A profile")
    where = f"Profile {name}"
    if data.get("size") not in ("small", "big"):
        raise ContentError(f"{where}: 'size' must be small or big.")
    big = data["size"] == "big"
    armour = _armour(data.get("armour"), where) if big else None
    if not big and "armour" in data:
        raise ContentError(f"{where}: only Big Models have armour.")
    return Profile(
        name,
        big,
        tuple(_named(weapons, item, where, "weapon") for item in data.get("weapons", [])),
        tuple(_named(traits, item, where, "trait") for item in data.get("traits", [])),
        _number(data, "points", where, 1, 200),
        armour,
    )


def _armour(value: Any, where: str) -> tuple[int, int, int]:
    if not isinstance(value, dict):
        raise ContentError(f"{where}: a Big Model needs 'armour' with front, side and rear.")
    front, side, rear = (
        _number(value, arc, where + " armour", 0, 6) for arc in ("front", "side", "rear")
    )
    return front, side, rear


Named = TypeVar("Named", Weapon, Trait)


def _named(known: dict[str, Named], name: Any, where: str, what: str) -> Named:
    if not isinstance(name, str) or name.lower() not in known:
        raise ContentError(f"{where}: there is no {what} called {name!r} in the armory.")
    return known[name.lower()]
