"""Group profiles, traits, Captain traits, ambitions: the content the rulebook names and never
defines (our rulings, docs/rulings.md, the group rules: Content). The shipped data is
`skirmbot/content/companies/profiles.json`; each loader checks a file and says in plain words
what is wrong (ContentError).

Orders a Group can be given (`ORDERS`): the rulebook's Move, Shoot, Attack and Retreat, and the
special orders Cast and Summon of the Groups whose traits give them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MOVE, SHOOT, ATTACK, RETREAT, CAST, SUMMON = "move", "shoot", "attack", "retreat", "cast", "summon"
ORDERS = (MOVE, SHOOT, ATTACK, RETREAT, CAST, SUMMON)
# The traits the rules play (rulebook: Turns, Attacking; our content for the others).
RECKLESS, DEFIANT, ELUSIVE = "reckless", "defiant", "elusive"
INTERRUPTS = (DEFIANT, ELUSIVE)  # traits a defending Group may test to interrupt an Attack


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
