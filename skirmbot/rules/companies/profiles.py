"""Group profiles, traits, Captain traits, ambitions: the content the rulebook names and never
defines (our rulings, docs/rulings.md, the group rules: Content). The shipped data is
`skirmbot/content/companies/profiles.json`; each loader checks a file and says in plain words
what is wrong (ContentError).

Orders a Group can be given (`ORDERS`): the rulebook's Move, Shoot, Attack and Retreat, and the
special orders Cast and Summon of the Groups whose traits give them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from skirmbot.rules.companies.reading import whole, words
from skirmbot.rules.errors import ContentError

MOVE, SHOOT, ATTACK, RETREAT, CAST, SUMMON = "move", "shoot", "attack", "retreat", "cast", "summon"
ORDERS = (MOVE, SHOOT, ATTACK, RETREAT, CAST, SUMMON)
# The traits the rules play (rulebook: Turns, Attacking; our content for the others).
RECKLESS, DEFIANT, ELUSIVE = "reckless", "defiant", "elusive"
INTERRUPTS = (DEFIANT, ELUSIVE)  # traits a defending Group may test to interrupt an Attack
# Traits that give a Group a special order of the same name (our content).
ORDER_TRAITS = (CAST, SUMMON)
TRAITS = (RECKLESS, DEFIANT, ELUSIVE, CAST, SUMMON)
# Captain traits (our content), in the order of the 1d6 face that gives each (rulebook Setup 4).
CAPTAIN_TRAITS = ("bold", "steady", "commanding", "marksman", "hardy", "swift")
BOLD, STEADY, COMMANDING, MARKSMAN, HARDY, SWIFT = CAPTAIN_TRAITS
# Ambitions (our content: rulebook Setup 7 names them and gives none).
GLORY, REGICIDE, UNBROKEN, GROUND = "glory", "regicide", "unbroken", "ground"
AMBITIONS = (GLORY, REGICIDE, UNBROKEN, GROUND)


@dataclass(frozen=True)
class Trait:
    key: str  # "defiant"
    name: str  # "Defiant"
    text: str  # what it does, one or two sentences
    minimum: int = 0  # the 2d6 result its test needs (an interrupt's), 0: no test


@dataclass(frozen=True)
class Profile:
    """One kind of Group: how many models it fields and its numbers (inches, 2d6 minimums)."""

    key: str  # "spearmen"
    name: str  # "Spearmen"
    models: int  # models in the Group
    mo: int  # Move, inches
    mi: int | None  # Shooting: a die hits on this or more; None: no MI profile (cannot Shoot)
    range: int  # Shooting range in inches (0 without MI)
    me_attack: int | None  # Attacking: a die hits on this or more; None: cannot Attack
    me_defend: int  # Defending in melee: a die hits on this or more
    t: int  # hits that take 1 R
    r: int  # Resilience at full strength
    points: int
    activation: Mapping[str, int]  # each order it can be given -> the 2d6 minimum result
    traits: tuple[str, ...] = ()  # trait keys
    summons: str | None = None  # the profile key its Summon order brings (SUMMON only)
    # Only a Summon order brings it (our content: Spirits), so no company list may field it.
    summoned: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Profile:
        return self  # frozen all through: a copied match shares its Groups' profiles

    def can(self, order: str) -> bool:
        return order in self.activation

    def has(self, trait: str) -> bool:
        return trait in self.traits


@dataclass(frozen=True)
class CaptainTrait:
    """Rolled on 1d6 at set-up (rulebook Setup 4): `roll` is its face."""

    roll: int
    key: str
    name: str
    text: str


@dataclass(frozen=True)
class Ambition:
    """Chosen by each player after deployment (rulebook Setup 7); scores `vp` if achieved."""

    key: str
    name: str
    text: str
    vp: int


@dataclass(frozen=True)
class Catalogue:
    """Everything `profiles.json` holds: the content a company list and a match read."""

    profiles: Mapping[str, Profile]
    traits: Mapping[str, Trait]
    captain_traits: tuple[CaptainTrait, ...]  # one per face of 1d6, in order
    ambitions: Mapping[str, Ambition]
    source: Mapping[str, Any]  # the data it was read from, kept in a match's record

    def __deepcopy__(self, memo: dict[int, Any]) -> Catalogue:
        return self


# Sane bounds: a number outside them is a typing slip, never a design (our content's scale).
MODELS = (1, 6)
MOVE_INCHES = (1, 12)
TO_HIT = (2, 6)  # a d6 face: MI and ME hit on this or more
RANGE = (0, 36)
TOUGHNESS = (1, 6)
RESILIENCE = (2, 12)
POINTS = (1, 30)
MINIMUM = (2, 12)  # a 2d6 result
AMBITION_VP = (1, 5)
WHERE = "The group rules' profiles"


def catalogue_from_json(data: Any) -> Catalogue:
    """Read a `profiles.json`; ContentError names the first mistake in plain words."""
    if not isinstance(data, dict):
        raise ContentError(
            f"{WHERE} must be an object with traits, captain_traits, ambitions and profiles."
        )
    traits = _keyed((_trait(item) for item in _list(data, "traits")), "trait")
    captains = _captain_traits(_list(data, "captain_traits"))
    ambitions = _keyed((_ambition(item) for item in _list(data, "ambitions")), "ambition")
    if set(ambitions) != set(AMBITIONS):
        raise ContentError(f"{WHERE}: the ambitions must be {', '.join(AMBITIONS)}.")
    profiles = _keyed((_profile(item, traits) for item in _list(data, "profiles")), "profile")
    _check_summons(profiles)
    if not any(not profile.summoned for profile in profiles.values()):
        raise ContentError(f"{WHERE}: at least one profile must be one a Company can field.")
    return Catalogue(profiles, traits, captains, ambitions, data)


@cache
def shipped_catalogue() -> Catalogue:
    """The profiles skirmbot ships (package data, read once: it never changes while running)."""
    folder = resources.files("skirmbot.content").joinpath("companies")
    return catalogue_from_json(json.loads(folder.joinpath("profiles.json").read_text("utf-8")))


def catalogue_of(content: Mapping[str, Any]) -> Catalogue:
    """The record's own catalogue when it carries one (so a later change to the shipped profiles
    never changes an old match), else the shipped one."""
    if "catalogue" in content:
        return catalogue_from_json(content["catalogue"])
    return shipped_catalogue()


def with_catalogue(content: dict[str, Any]) -> dict[str, Any]:
    """The content with the shipped catalogue in it, unless it carries one (`catalogue_of`)."""
    if "catalogue" in content:
        return content
    return {**content, "catalogue": copy.deepcopy(dict(shipped_catalogue().source))}


def _list(data: dict[str, Any], key: str) -> list[Any]:
    found = data.get(key)
    if not isinstance(found, list) or not found:
        raise ContentError(f"{WHERE} need a list of '{key}'.")
    return found


def _keyed(items: Any, what: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    names: set[str] = set()
    for item in items:
        if item.key in found or item.name.lower() in names:
            raise ContentError(f"{WHERE} name the {what} '{item.name}' twice.")
        found[item.key] = item
        names.add(item.name.lower())
    return found


def _key(data: Any, where: str) -> str:
    key = words(data, "key", where)
    if key != key.lower() or not key.replace("-", "").isalnum():
        raise ContentError(
            f"{where}: its 'key' is lower-case letters, digits and hyphens, not {key!r}."
        )
    return key


def _number(data: dict[str, Any], key: str, where: str, bounds: tuple[int, int]) -> int:
    return whole(data.get(key), key, where, bounds)


def _optional(data: dict[str, Any], key: str, where: str, bounds: tuple[int, int]) -> int | None:
    return None if data.get(key) is None else _number(data, key, where, bounds)


def _trait(data: Any) -> Trait:
    key = _key(data, "A trait")
    where = f"Trait {key}"
    if key not in TRAITS:
        raise ContentError(f"{where} is not a trait the rules play; use {', '.join(TRAITS)}.")
    minimum = _number(data, "minimum", where, MINIMUM) if key in INTERRUPTS else 0
    if key not in INTERRUPTS and "minimum" in data:
        raise ContentError(
            f"{where}: only {' and '.join(INTERRUPTS)} are tested, with a 'minimum'."
        )
    return Trait(key, words(data, "name", where), words(data, "text", where), minimum)


def _captain_traits(items: list[Any]) -> tuple[CaptainTrait, ...]:
    found = tuple(_captain_trait(item) for item in items)
    if tuple(trait.key for trait in found) != CAPTAIN_TRAITS or tuple(
        trait.roll for trait in found
    ) != tuple(range(1, 7)):
        raise ContentError(
            f"{WHERE}: 'captain_traits' must be {', '.join(CAPTAIN_TRAITS)}, "
            "with rolls 1 to 6 in that order."
        )
    return found


def _captain_trait(data: Any) -> CaptainTrait:
    key = _key(data, "A Captain trait")
    where = f"Captain trait {key}"
    return CaptainTrait(
        _number(data, "roll", where, (1, 6)),
        key,
        words(data, "name", where),
        words(data, "text", where),
    )


def _ambition(data: Any) -> Ambition:
    key = _key(data, "An ambition")
    where = f"Ambition {key}"
    return Ambition(
        key,
        words(data, "name", where),
        words(data, "text", where),
        _number(data, "vp", where, AMBITION_VP),
    )


def _profile(data: Any, traits: Mapping[str, Trait]) -> Profile:
    key = _key(data, "A profile")
    where = f"Profile {key}"
    mi = _optional(data, "mi", where, TO_HIT)
    me_attack = _optional(data, "me_attack", where, TO_HIT)
    keys = _trait_keys(data.get("traits", []), traits, where)
    profile = Profile(
        key=key,
        name=words(data, "name", where),
        models=_number(data, "models", where, MODELS),
        mo=_number(data, "mo", where, MOVE_INCHES),
        mi=mi,
        range=_number(data, "range", where, RANGE) if "range" in data else 0,
        me_attack=me_attack,
        me_defend=_number(data, "me_defend", where, TO_HIT),
        t=_number(data, "t", where, TOUGHNESS),
        r=_number(data, "r", where, RESILIENCE),
        points=_number(data, "points", where, POINTS),
        activation=_activation(data.get("activation"), where),
        traits=keys,
        summons=_summons(data.get("summons"), where),
        summoned=_flag(data, "summoned", where),
    )
    _check_orders(profile, where)
    return profile


def _flag(data: dict[str, Any], key: str, where: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ContentError(f"{where}: '{key}' is true or false.")
    return value


def _trait_keys(value: Any, traits: Mapping[str, Trait], where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ContentError(f"{where}: 'traits' is a list of trait keys.")
    for key in value:
        if not isinstance(key, str) or key not in traits:
            raise ContentError(
                f"{where}: there is no trait {key!r}; the traits are {', '.join(traits)}."
            )
    if len(set(value)) != len(value):
        raise ContentError(f"{where} names a trait twice.")
    return tuple(value)


def _summons(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{where}: 'summons' is the key of the profile its Summon brings.")
    return value.strip()


def _activation(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, dict) or not value:
        raise ContentError(
            f"{where} needs 'activation': each order it can be given with its 2d6 minimum."
        )
    for order in value:
        if order not in ORDERS:
            raise ContentError(f"{where}: '{order}' is not an order; use {', '.join(ORDERS)}.")
        _number(value, order, f"{where}'s activation", MINIMUM)
    for order in (MOVE, RETREAT):
        if order not in value:
            raise ContentError(f"{where}: every Group can be ordered to {order}; give its minimum.")
    return {order: value[order] for order in ORDERS if order in value}


def _check_orders(profile: Profile, where: str) -> None:
    """Each order the profile may be given has what it needs, and each ability has its order."""
    shoots = profile.mi is not None or profile.range > 0
    if shoots and (profile.mi is None or profile.range == 0):
        raise ContentError(f"{where}: a Group that shoots needs both 'mi' and a 'range' above 0.")
    if profile.can(SHOOT) != shoots:
        raise ContentError(f"{where}: a 'shoot' minimum goes with 'mi' and 'range', and only so.")
    if profile.can(ATTACK) != (profile.me_attack is not None):
        raise ContentError(f"{where}: an 'attack' minimum goes with 'me_attack', and only so.")
    for order in ORDER_TRAITS:
        if profile.can(order) != profile.has(order):
            raise ContentError(
                f"{where}: a '{order}' minimum goes with the {order} trait, and only so."
            )
    if profile.has(SUMMON) != (profile.summons is not None):
        raise ContentError(f"{where}: the summon trait goes with 'summons', and only so.")


def _check_summons(profiles: Mapping[str, Profile]) -> None:
    for profile in profiles.values():
        if profile.summons is None:
            continue
        summoned = profiles.get(profile.summons)
        if summoned is None or summoned is profile:
            raise ContentError(
                f"Profile {profile.key}: it summons {profile.summons!r}, which is not another profile."
            )
        if summoned.has(SUMMON):
            raise ContentError(f"Profile {profile.key}: what it summons cannot summon in turn.")
