"""Resolving fire and melee (rulebook 002: Resolving Fire, Melee Combat, Firing Arcs).

Pure arithmetic and dice: every input is a plain value the caller already knows (the range in
dots, the cover count from sight, the firer's damage modifier from its card, prone flags), so
this module needs neither the map nor the card, and its dice come from an injected `Dice`.
Applying the damage to the target's card is the card's job (`card.apply_damage`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import RulesError

# Resolving Fire ¶4: "The base target number for ranged attacks is 6."
BASE_FIRE = 6
# Melee Combat ¶3: "The base target number for melee attacks is 4."
BASE_MELEE = 4
# Melee Combat ¶1: "It costs 5 AP to make a melee attack."
MELEE_AP = 5


class Modifier(StrEnum):
    """The rows of the rulebook's Target Number Modifiers table."""

    SHORT_RANGE = "Short Range"
    LONG_RANGE = "Long Range"
    COVER = "Cover"  # per obstruction
    ATTACKER_PRONE = "Attacker Prone"
    TARGET_PRONE = "Target Prone"
    TARGET_PRONE_ADJACENT = "Target Prone Adjacent"


# The Target Number Modifiers table, exactly as printed; the code reads these, never literals.
MODIFIERS: dict[Modifier, int] = {
    Modifier.SHORT_RANGE: 0,
    Modifier.LONG_RANGE: 2,
    Modifier.COVER: 1,
    Modifier.ATTACKER_PRONE: -1,
    Modifier.TARGET_PRONE: 1,
    Modifier.TARGET_PRONE_ADJACENT: -1,
}

# Firing Arcs ¶1: a 30, 60 or 150 degree arc has a base of 1, 2 or 4 shots ("a 60 degree
# firing arc has a base of 2 shots"), scaled by the weapon's shots modifier.
ARC_BASE_SHOTS: dict[int, int] = {30: 1, 60: 2, 150: 4}

# W&E ¶1 gives a bayonet to a trooper "with a rifle or SMG"; our ruling (proposed in
# docs/plans/infantry.md): every long arm of the Primary Weapons table counts.
LONG_ARMS = frozenset({"Rifle", "SMG", "Laser Rifle", "Laser SMG", "Gyrojet Rifle"})
FISTS = "Fists"
KNIFE = "Knife"
BAYONET = "Bayonet"
CLUB = "Club"  # the active long arm swung as a club (Melee Combat ¶2): the Club's 1X, 4\


def arc_shots(width: int, weapon_shots: int) -> int:
    """Firing Arcs ¶1: the arc's base shots times the weapon's shots modifier (x1, x2, x3)."""
    if width not in ARC_BASE_SHOTS:
        raise RulesError(f"A firing arc is 30, 60 or 150 degrees wide, not {width}.")
    return ARC_BASE_SHOTS[width] * weapon_shots


def range_modifier(distance: int, short: int, long: int) -> int | None:
    """Resolving Fire ¶4: +0 within short range, +2 within long range; None beyond long range,
    where there is no shot at all (our ruling, proposed in docs/plans/infantry.md)."""
    if distance <= short:
        return MODIFIERS[Modifier.SHORT_RANGE]
    if distance <= long:
        return MODIFIERS[Modifier.LONG_RANGE]
    return None


def prone_target_modifier(distance: int, target_prone: bool) -> int:
    """Resolving Fire ¶5: a prone target is +1 more than 1 dot away and -1 at 1 dot."""
    if not target_prone:
        return 0
    if distance <= 1:
        return MODIFIERS[Modifier.TARGET_PRONE_ADJACENT]
    return MODIFIERS[Modifier.TARGET_PRONE]


def attacker_modifiers(damage_modifier: int, attacker_prone: bool) -> int:
    """Resolving Fire ¶5: the firer's damage modifier (its card) and -1 if it is prone; every
    attack (fire, melee, explosive) takes both."""
    prone = MODIFIERS[Modifier.ATTACKER_PRONE] if attacker_prone else 0
    return damage_modifier + prone


def fire_target_number(
    *,
    distance: int,
    short: int,
    long: int,
    damage_modifier: int,
    cover: int,
    firer_prone: bool,
    target_prone: bool,
) -> int | None:
    """The 2D6 target number of a shot, or None when the target is beyond long range.

    `distance` is the range in dots (levels are not counted for fire: our ruling), `cover` the
    obstructions in the path not touching the firer's dot (sight's count, Resolving Fire ¶5).
    """
    band = range_modifier(distance, short, long)
    if band is None:
        return None
    return (
        BASE_FIRE
        + band
        + attacker_modifiers(damage_modifier, firer_prone)
        + cover * MODIFIERS[Modifier.COVER]
        + prone_target_modifier(distance, target_prone)
    )


def melee_target_number(*, damage_modifier: int, attacker_prone: bool, target_prone: bool) -> int:
    """Melee Combat ¶3: base 4 with "all appropriate modifiers ... except ... cover"; a melee
    target is always 1 dot away, so a prone one is -1, and range never applies."""
    return (
        BASE_MELEE
        + attacker_modifiers(damage_modifier, attacker_prone)
        + prone_target_modifier(1, target_prone)
    )


def fists_bludgeoning(max_ap: int) -> int:
    """Melee table: fists hit for "(max AP/2)\\", half the attacker's current maximum AP,
    rounded down (our ruling, proposed in docs/plans/infantry.md)."""
    return max_ap // 2


def has_bayonet(weapon: str | None) -> bool:
    """W&E ¶1: a trooper with a rifle or SMG (any long arm, our ruling) has a bayonet on it."""
    return weapon in LONG_ARMS


def melee_weapons(active: str | None, melee_secondary: str | None) -> tuple[str, ...]:
    """What a trooper may attack with in melee (Melee Combat ¶2, W&E ¶1): always fists and the
    knife; a bayonet on, or a club swing of, the active long arm; the melee secondary (sword,
    baton...) when it is the active weapon."""
    offered = [FISTS, KNIFE]
    if has_bayonet(active):
        offered += [BAYONET, CLUB]
    if melee_secondary is not None and active == melee_secondary:
        offered.append(melee_secondary)
    return tuple(offered)


def roll_2d6(dice: Dice) -> int:
    return dice.roll(6) + dice.roll(6)


def odds(target_number: int) -> Fraction:
    """The exact chance that 2D6 meets or exceeds the target number (for previews)."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= target_number)
    return Fraction(ways, 36)


@dataclass(frozen=True, slots=True)
class Attack:
    """One 2D6 check (Resolving Fire ¶3) and, on a hit, the 2D6 naming the initial cell
    (¶6): the raw roll, 2 to 12; the card starts 11 and 12 at cell 10 (our ruling)."""

    target_number: int
    roll: int
    damage_roll: int | None

    @property
    def hit(self) -> bool:
        return self.damage_roll is not None


def attack(dice: Dice, target_number: int) -> Attack:
    """Roll the check: "If the roll meets or exceeds the target number, then the attack
    succeeds"; only a hit rolls the damage 2D6, so a miss draws two dice and a hit four."""
    roll = roll_2d6(dice)
    if roll < target_number:
        return Attack(target_number, roll, None)
    return Attack(target_number, roll, roll_2d6(dice))
