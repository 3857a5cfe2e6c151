"""The infantry weapons tables (rulebook 002, "Weapons and Equipment", "Body Armor"), shipped as
skirmbot/content/infantry/weapons.json and read by skirmbot.rules.infantry.arms: every row is
the rulebook's, and a bad file is refused in plain words. No dice are rolled here."""

from __future__ import annotations

import copy
import fnmatch
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from skirmbot.rules.errors import ContentError
from skirmbot.rules.infantry.arms import (
    MELEE,
    PRIMARY,
    SECONDARY,
    load_arms,
    loadout,
    parse_arms,
    points,
)

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "skirmbot" / "content" / "infantry" / "weapons.json"


def shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FILE.read_text("utf-8"))
    return data


# Primary Weapons table: name, lethal (X), shots (xN), short range, long range, PV.
PRIMARIES = [
    ("SMG", 3, 3, 5, 17, 23),
    ("Rifle", 4, 1, 26, 85, 159),
    ("Laser SMG", 4, 3, 43, 127, 76),
    ("Laser Rifle", 5, 1, 66, 232, 143),
    ("Gyrojet Rifle", 6, 1, 31, 137, 107),
]
# Ranged Secondary Weapons table, the same columns.
SECONDARIES = [
    ("Pistol", 2, 2, 7, 20, 13),
    ("Auto Pistol", 3, 3, 6, 22, 19),
    ("Laser Pistol", 4, 2, 11, 40, 64),
]
# Melee Secondary Weapons table: name, lethal (X), bludgeoning (\), PV (None: no PV printed).
MELEES = [
    ("Bayonet/Knife", 3, 0, None),
    ("Blackjack", 0, 5, 5),
    ("Club", 1, 4, 2),
    ("Stun Baton", 0, 8, 6),
    ("Sword", 4, 0, 6),
    ("Vibroblade", 5, 0, 19),
]


@pytest.mark.parametrize(("name", "lethal", "shots", "short", "long", "pv"), PRIMARIES)
def test_primary_weapons_are_the_rulebooks_table(
    name: str, lethal: int, shots: int, short: int, long: int, pv: int
) -> None:
    """Primary Weapons table: "SMG 3X x3 5 17 23 ... Gyrojet Rifle 6X x1 31 137 107"."""
    weapon = load_arms().weapon(name)
    assert (weapon.kind, weapon.lethal, weapon.blunt) == (PRIMARY, lethal, 0)
    assert (weapon.shots, weapon.short, weapon.long, weapon.pv) == (shots, short, long, pv)


def test_the_primary_table_has_five_rows_and_each_comes_with_a_bayonet() -> None:
    """Unit Card ¶7: "Any rifle or SMG automatically comes with a bayonet attached" - our
    ruling (proposed in docs/plans/infantry.md): all five primaries are rifles or SMGs."""
    primaries = load_arms().of_kind(PRIMARY)
    assert [w.name for w in primaries] == [row[0] for row in PRIMARIES]
    assert all(w.has_bayonet for w in primaries)
    assert not any(w.has_bayonet for w in load_arms().of_kind(SECONDARY))


@pytest.mark.parametrize(("name", "lethal", "shots", "short", "long", "pv"), SECONDARIES)
def test_ranged_secondaries_are_the_rulebooks_table(
    name: str, lethal: int, shots: int, short: int, long: int, pv: int
) -> None:
    """Ranged Secondary Weapons table: "Pistol 2X x2 7 20 13 ... Laser Pistol 4X x2 11 40 64"."""
    weapon = load_arms().weapon(name)
    assert (weapon.kind, weapon.lethal, weapon.blunt) == (SECONDARY, lethal, 0)
    assert (weapon.shots, weapon.short, weapon.long, weapon.pv) == (shots, short, long, pv)
    assert [w.name for w in load_arms().of_kind(SECONDARY)] == [row[0] for row in SECONDARIES]


@pytest.mark.parametrize(("name", "lethal", "blunt", "pv"), MELEES)
def test_melee_weapons_are_the_rulebooks_table(
    name: str, lethal: int, blunt: int, pv: int | None
) -> None:
    """Melee Secondary Weapons table: "Bayonet/Knife 3X 5 1 ... Club 1X, 4\\ 5 1 2 ... Vibroblade
    5X 5 1 19": 5 AP, short range 1, no long range."""
    weapon = load_arms().weapon(name)
    assert (weapon.kind, weapon.lethal, weapon.blunt, weapon.pv) == (MELEE, lethal, blunt, pv)
    assert (weapon.ap, weapon.short, weapon.long, weapon.shots) == (5, 1, None, 0)
    assert weapon.damage(8) == (lethal, blunt)


def test_fists_hit_for_half_the_max_ap_rounded_down() -> None:
    """Melee table: "Fists (max AP/2)\\ 5 1" and Melee ¶1: "half the attacking trooper's
    current maximum AP"; rounded down (our ruling, proposed in docs/plans/infantry.md)."""
    fists = load_arms().weapon("Fists")
    assert (fists.ap, fists.short, fists.long, fists.pv) == (5, 1, None, None)
    assert [fists.damage(ap) for ap in (8, 7, 5)] == [(0, 4), (0, 3), (0, 2)]


def test_every_trooper_carries_4_grenades_fists_a_knife_and_a_helmet() -> None:
    """W&E ¶1: "one primary weapon, one secondary weapon, and 4 hand grenades. All troopers
    have a helmet and combat knife"; Melee table note: "always has their fists and a
    bayonet/knife"."""
    arms = load_arms()
    assert arms.grenades == 4
    assert arms.always_melee == ("Fists", "Bayonet/Knife")
    assert arms.always_equipment == ("Helmet",)


def test_explosives_are_the_rulebooks_table() -> None:
    """Explosive Weapons table: "Hand Grenade 6X/3X/1X AP 4 AP 44; Satchel Charge 10X/5X/2X
    3 or AP 1 AP/2 88"; Explosives ¶1: "1 AP per dot to throw a hand grenade and ... 2 AP per
    dot to throw a satchel charge"."""
    grenade = load_arms().explosive("Hand Grenade")
    satchel = load_arms().explosive("Satchel Charge")
    assert (grenade.blast, grenade.ap_per_dot, grenade.ammo, grenade.pv) == ((6, 3, 1), 1, 4, 44)
    assert (satchel.blast, satchel.ap_per_dot, satchel.ammo, satchel.pv) == ((10, 5, 2), 2, 1, 88)
    assert (grenade.ap_text, satchel.ap_text) == ("AP", "3 or AP")


@pytest.mark.parametrize(
    ("name", "cells", "ap"), [("Basic", 2, 1), ("Standard", 4, 2), ("Heavy", 6, 3)]
)
def test_armour_types_are_the_rulebooks_table(name: str, cells: int, ap: int) -> None:
    """Body Armor AP Costs table: "Basic 2 1, Standard 4 2, Heavy 6 3"."""
    armour = load_arms().armour_type(name)
    assert (armour.cells, armour.ap) == (cells, ap)


def test_the_file_is_exactly_the_tables_and_nothing_more() -> None:
    """Every row above and no other: the shipped file has the tables' row counts."""
    arms = load_arms()
    assert len(arms.weapons) == len(PRIMARIES) + len(SECONDARIES) + len(MELEES) + 1  # fists
    assert list(arms.explosives) == ["Hand Grenade", "Satchel Charge"]
    assert list(arms.armour) == ["Basic", "Standard", "Heavy"]


def test_the_weapons_file_ships_in_the_wheel() -> None:
    """pyproject's package data names content/infantry/*.json (else an installed bot has no
    weapons)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["skirmbot.content"]
    assert any(fnmatch.fnmatch("infantry/weapons.json", pattern) for pattern in patterns)


def test_an_unknown_name_is_refused_in_words() -> None:
    with pytest.raises(ContentError, match="There is no weapon called 'Blaster': there are SMG"):
        load_arms().weapon("Blaster")
    with pytest.raises(ContentError, match="no body armour called 'Power'"):
        load_arms().armour_type("Power")


def broken(section: str, index: int, field: str, value: object) -> dict[str, Any]:
    data = copy.deepcopy(shipped())
    data[section][index][field] = value
    return data


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "must be an object of tables"),
        ({k: v for k, v in shipped().items() if k != "armour"}, "it lacks armour"),
        ({**shipped(), "vehicles": []}, "it has unknown vehicles"),
        ({**shipped(), "melee": []}, "The melee table must be a list of rows"),
        (broken("primary", 0, "damage", "3Y"), "SMG's damage '3Y' is not written as the tables"),
        (broken("melee", 3, "damage", "1X, 2X"), "Club's damage"),
        (broken("primary", 1, "shots", "3"), "Rifle's shots must be written x1, x2, x3"),
        (broken("primary", 1, "long", 20), r"Rifle's long range \(20\) is shorter than its short"),
        (broken("secondary", 0, "pv", -1), "Pistol's pv must be a whole number of at least 1"),
        (broken("secondary", 0, "short", True), "Pistol's short must be a whole number"),
        (broken("secondary", 2, "name", "Pistol"), "two of the weapon called Pistol"),
        (broken("secondary", 2, "name", ""), "A row of the secondary table has no name"),
        (broken("melee", 2, "range", 1), r"Blackjack \(melee\) needs .*it has unknown range"),
        (broken("explosives", 0, "damage", "6X/3"), "Hand Grenade's damage must be written as"),
        (broken("explosives", 1, "range", "AP/3"), "range must be AP or AP/2"),
        (broken("armour", 2, "cells", 8), "Heavy has 8 cells: a card has room for 6"),
        ({**shipped(), "always_carried": {"melee": ["Sword"]}}, "always_carried needs melee"),
    ],
)
def test_bad_data_is_refused_in_words(data: Any, words: str) -> None:
    """Content is refused with a sentence that names what is wrong (ContentError)."""
    with pytest.raises(ContentError, match=words):
        parse_arms(data)


def test_an_always_carried_weapon_must_be_a_melee_one() -> None:
    data = shipped()
    data["always_carried"]["melee"] = ["Fists", "Rifle"]
    with pytest.raises(ContentError, match="Rifle is always carried as a melee weapon"):
        parse_arms(data)
    data["always_carried"]["melee"] = ["Fists", "Lance"]
    with pytest.raises(ContentError, match="no weapon called 'Lance'"):
        parse_arms(data)


def test_a_file_without_hand_grenades_is_refused() -> None:
    """W&E ¶1: every trooper carries "4 hand grenades", so the table must have them."""
    data = shipped()
    data["explosives"] = data["explosives"][1:]
    with pytest.raises(ContentError, match="no explosive called 'Hand Grenade'"):
        parse_arms(data)


def test_a_rifleman_is_a_rifle_a_pistol_4_grenades_and_basic_armour() -> None:
    """W&E ¶1: "one primary weapon, one secondary weapon, and 4 hand grenades"; our ruling
    (proposed in docs/plans/infantry.md): PV = weapons' PV + 44 for the grenades, armour free:
    Rifle 159 + Pistol 13 + 44 = 216."""
    arms = load_arms()
    kit = loadout(arms, "Rifle", "Pistol", "Basic", ("Radio",))
    assert (kit.primary.name, kit.grenades, kit.equipment) == ("Rifle", 4, ("Radio",))
    assert (kit.armour_cells, kit.armour_cost) == (2, 1)
    assert points(arms, kit) == 216
    bare = loadout(arms, "SMG")
    assert (bare.secondary, bare.armour_cells, bare.armour_cost) == (None, 0, 0)
    assert points(arms, bare) == 23 + 44


def test_a_sword_is_the_secondary_and_a_pistol_cannot_be_carried_with_it() -> None:
    """Melee table note: "The other melee weapons take the place of a secondary weapon"; W&E
    ¶1: "one secondary weapon" (a loadout has one secondary slot, so a second one has no
    place); fists and the knife are always carried and never fill it."""
    arms = load_arms()
    kit = loadout(arms, "Rifle", "Sword")
    assert kit.secondary == arms.weapon("Sword") and points(arms, kit) == 159 + 6 + 44
    with pytest.raises(ContentError, match="Bayonet/Knife is always carried"):
        loadout(arms, "Rifle", "Bayonet/Knife")


def test_a_satchel_is_the_secondary() -> None:
    """Explosives ¶2: "A satchel charge is a secondary weapon, so a trooper cannot carry another
    secondary weapon"; "carries 4 grenades in addition"."""
    arms = load_arms()
    kit = loadout(arms, "SMG", "Satchel Charge", "Standard")
    assert kit.secondary == arms.explosive("Satchel Charge") and kit.grenades == 4
    assert points(arms, kit) == 23 + 88 + 44
    with pytest.raises(ContentError, match="Hand grenades are carried besides the secondary"):
        loadout(arms, "SMG", "Hand Grenade")


def test_a_loadout_with_a_wrong_slot_is_refused_in_words() -> None:
    """W&E ¶1: "Each trooper carries a single primary weapon"."""
    arms = load_arms()
    with pytest.raises(ContentError, match="Pistol is not a primary weapon: those are SMG, Rifle"):
        loadout(arms, "Pistol")
    with pytest.raises(ContentError, match="Laser Rifle is a primary weapon: a trooper carries"):
        loadout(arms, "Rifle", "Laser Rifle")
    with pytest.raises(ContentError, match="no body armour called 'Power'"):
        loadout(arms, "Rifle", None, "Power")
