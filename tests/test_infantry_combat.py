"""Resolving fire and melee (skirmbot/rules/infantry/combat.py), rulebook 002: every row of
the plan's "Resolving fire, melee, explosives" table that is arithmetic and dice, each test
citing its sentence and scripting its dice (docs/plans/infantry.md, section 1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skirmbot.rules.dice import DiceExhausted, ScriptedDice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry.combat import (
    BASE_FIRE,
    BASE_MELEE,
    MELEE_AP,
    MODIFIERS,
    Modifier,
    arc_shots,
    attack,
    fire_target_number,
    fists_bludgeoning,
    has_bayonet,
    melee_target_number,
    melee_weapons,
    odds,
)

# The Rifle's ranges (Primary Weapons table: 26/85) and the SMG's (5/17).
RIFLE = {"short": 26, "long": 85}
SMG = {"short": 5, "long": 17}


def shot(**changes: object) -> int | None:
    """A standing, unhurt firer's shot at a standing target 3 dots off with an SMG, no cover,
    with the given arguments changed."""
    arguments: dict[str, object] = {
        "distance": 3,
        **SMG,
        "damage_modifier": 0,
        "cover": 0,
        "firer_prone": False,
        "target_prone": False,
    }
    arguments.update(changes)
    return fire_target_number(**arguments)  # type: ignore[arg-type]


def test_the_modifier_table() -> None:
    """Target Number Modifiers table: Short Range +0, Long Range +2, Cover +1 per, Attacker
    Prone -1, Target Prone +1, Target Prone Adjacent -1."""
    assert MODIFIERS == {
        Modifier.SHORT_RANGE: 0,
        Modifier.LONG_RANGE: 2,
        Modifier.COVER: 1,
        Modifier.ATTACKER_PRONE: -1,
        Modifier.TARGET_PRONE: 1,
        Modifier.TARGET_PRONE_ADJACENT: -1,
    }


def test_tn_6_at_short_range() -> None:
    """Resolving Fire ¶4: "The base target number for ranged attacks is 6 ... no modifier ...
    if the weapon is in short range" (the last dot of short range included)."""
    assert BASE_FIRE == 6
    assert shot() == 6
    assert shot(distance=5) == 6


def test_long_range_adds_2() -> None:
    """Resolving Fire ¶4: "If the weapon is in long range, then add a +2 modifier"."""
    assert shot(distance=6) == 8
    assert shot(distance=17) == 8


def test_beyond_long_range_no_shot() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): beyond long range there is no shot."""
    assert shot(distance=18) is None
    assert shot(distance=85, **RIFLE) == 8
    assert shot(distance=86, **RIFLE) is None


def test_the_firers_damage_modifier_adds_to_the_target_number() -> None:
    """Resolving Fire ¶5: "Apply any modifier for damage to the firing trooper" (Unit Card ¶5:
    at 5 HP "add +2 to all target numbers")."""
    assert shot(damage_modifier=2) == 8
    assert shot(distance=6, damage_modifier=2) == 10


def test_cover_plus_1_per_obstruction() -> None:
    """Resolving Fire ¶5: "Add a +1 modifier for each obstruction in the path of fire" (the
    count comes from sight, which leaves out "any obstruction between the firing trooper and
    any adjacent dots")."""
    assert shot(cover=1) == 7
    assert shot(cover=3) == 9


def test_firer_prone_minus_1() -> None:
    """Resolving Fire ¶5: "Use a -1 modifier if the firing trooper is prone"."""
    assert shot(firer_prone=True) == 5


def test_target_prone_far_plus_1_adjacent_minus_1() -> None:
    """Resolving Fire ¶5: "+1 ... if the targeted trooper is prone and greater than 1 dot away.
    ... -1 ... if the targeted trooper is prone and 1 dot away"."""
    assert shot(distance=2, target_prone=True) == 7
    assert shot(distance=1, target_prone=True) == 5
    assert shot(distance=1, target_prone=False) == 6


def test_every_modifier_at_once() -> None:
    """Resolving Fire ¶4-5 together: 6 + long 2 + damage 1 + cover 2 - prone firer 1 + prone
    target far 1 = 11."""
    assert shot(distance=10, damage_modifier=1, cover=2, firer_prone=True, target_prone=True) == 11


def test_a_roll_equal_to_the_target_number_hits() -> None:
    """Resolving Fire ¶3: "If the roll meets or exceeds the target number, then the attack
    succeeds"; ¶6: "If the attack succeeds, roll an additional 2D6"."""
    hit = attack(ScriptedDice([3, 4, 5, 5]), 7)
    assert (hit.roll, hit.hit, hit.damage_roll) == (7, True, 10)


def test_a_roll_below_the_target_number_misses_and_rolls_no_damage() -> None:
    """Resolving Fire ¶3: a roll below the target number fails; only a success rolls the
    damage 2D6 (¶6), so a miss draws exactly two dice."""
    dice = ScriptedDice([3, 3, 6, 6])
    miss = attack(dice, 7)
    assert (miss.roll, miss.hit, miss.damage_roll) == (6, False, None)
    assert dice.remaining == 2


def test_the_damage_roll_names_the_first_cell() -> None:
    """Resolving Fire ¶6: "roll an additional 2D6. This is the initial cell to apply damage
    in" (the card starts 11 and 12 at cell 10: our ruling, the card's test)."""
    assert attack(ScriptedDice([6, 6, 1, 2]), 6).damage_roll == 3
    assert attack(ScriptedDice([6, 6, 6, 6]), 6).damage_roll == 12


def test_scripted_dice_must_cover_the_damage_roll() -> None:
    """A hit always rolls its damage: a script of two faces for a hit runs out."""
    with pytest.raises(DiceExhausted):
        attack(ScriptedDice([6, 6]), 6)


@pytest.mark.parametrize("target_number", range(0, 15))
def test_odds_match_counted_outcomes(target_number: int) -> None:
    """The exact chance of 2D6 >= target number equals the share of the 36 scripted outcomes
    that `attack` calls hits (the damage roll scripted 1, 1)."""
    hits = sum(
        attack(ScriptedDice([a, b, 1, 1]), target_number).hit
        for a in range(1, 7)
        for b in range(1, 7)
    )
    assert odds(target_number) == Fraction(hits, 36)


def test_the_odds_of_well_known_numbers() -> None:
    """2D6: 7 or more is 21 of 36, 12 is 1 of 36, 2 or less always, 13 never."""
    assert odds(7) == Fraction(21, 36)
    assert odds(12) == Fraction(1, 36)
    assert odds(2) == 1
    assert odds(13) == 0


def test_melee_tn_4_without_cover() -> None:
    """Melee Combat ¶3: "The base target number for melee attacks is 4. Apply all appropriate
    modifiers given above, except any modifiers for cover"; the target is 1 dot away, so a
    prone target is -1 (and range never counts)."""
    assert BASE_MELEE == 4
    assert melee_target_number(damage_modifier=0, attacker_prone=False, target_prone=False) == 4
    assert melee_target_number(damage_modifier=2, attacker_prone=False, target_prone=False) == 6
    assert melee_target_number(damage_modifier=0, attacker_prone=True, target_prone=False) == 3
    assert melee_target_number(damage_modifier=0, attacker_prone=False, target_prone=True) == 3


def test_melee_costs_5_ap() -> None:
    """Melee Combat ¶1: "It costs 5 AP to make a melee attack"."""
    assert MELEE_AP == 5


@pytest.mark.parametrize(("max_ap", "bludgeoning"), [(8, 4), (7, 3), (6, 3), (5, 2), (1, 0)])
def test_fists_hit_for_half_the_current_max_ap_rounded_down(max_ap: int, bludgeoning: int) -> None:
    """Melee Combat ¶1: "bludgeoning damage ... with fists is given by half the attacking
    trooper's current maximum AP"; rounded down: our ruling (proposed in
    docs/plans/infantry.md)."""
    assert fists_bludgeoning(max_ap) == bludgeoning


@pytest.mark.parametrize("weapon", ["Rifle", "SMG", "Laser Rifle", "Laser SMG", "Gyrojet Rifle"])
def test_a_rifle_or_smg_has_a_bayonet(weapon: str) -> None:
    """W&E ¶1: "a bayonet if ... rifle or SMG"; every long arm: our ruling (proposed in
    docs/plans/infantry.md)."""
    assert has_bayonet(weapon)


@pytest.mark.parametrize("weapon", ["Pistol", "Auto Pistol", "Laser Pistol", "Sword", None])
def test_a_pistol_or_a_sword_has_no_bayonet(weapon: str | None) -> None:
    """W&E ¶1: the bayonet goes only on a rifle or SMG."""
    assert not has_bayonet(weapon)


def test_melee_weapons_offered_by_the_active_weapon() -> None:
    """Melee Combat ¶2: "may use a bayonet attached to their current active weapon or use their
    active weapon as a club. ... can always make a melee attack with their fists"; W&E ¶1: a
    knife is always carried; the melee secondary only when it is the active weapon."""
    assert melee_weapons("Rifle", None) == ("Fists", "Knife", "Bayonet", "Club")
    assert melee_weapons("Pistol", None) == ("Fists", "Knife")
    assert melee_weapons("Rifle", "Sword") == ("Fists", "Knife", "Bayonet", "Club")
    assert melee_weapons("Sword", "Sword") == ("Fists", "Knife", "Sword")
    assert melee_weapons(None, None) == ("Fists", "Knife")


@pytest.mark.parametrize(
    ("width", "weapon_shots", "shots"),
    [(30, 1, 1), (60, 1, 2), (150, 1, 4), (60, 2, 4), (60, 3, 6), (150, 3, 12)],
)
def test_arc_shots_are_base_times_modifier(width: int, weapon_shots: int, shots: int) -> None:
    """Firing Arcs ¶1: "a 60 degree firing arc has a base of 2 shots. ... pistol ... 4 times
    ... SMG ... 6 times"."""
    assert arc_shots(width, weapon_shots) == shots


def test_an_arc_of_another_width_is_refused_in_words() -> None:
    """Firing Arcs ¶1: only 30, 60 or 150 degrees."""
    with pytest.raises(RulesError, match="30, 60 or 150"):
        arc_shots(90, 1)
