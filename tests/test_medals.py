"""Campaign medals (rulebook Your Squad: the medals list; docs/rulings.md, Campaign medals).

Each medal is pinned by a scripted match that makes its exact situation happen, and by the
nearest situation that does not earn it. Faces are scripted in the order the rules roll them:
attack dice (ROA), then one save die per point of damage. Victims have 1 HIT and ARM 1, so a
save die of 6 fails and takes them out. The match ends by a concession or an agreed draw.
"""

from __future__ import annotations

from typing import Any

import pytest
from builders import skirm_match, unit, weapon

from skirmbot.rules.commands import AgreeDraw, Concede, EndActivation, Melee, Shoot
from skirmbot.rules.errors import ContentError
from skirmbot.rules.skirm.cards import weapon_from_json
from skirmbot.rules.skirm.commands import OpenCrate, UseTurret
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.medals import MEDAL_XP, medals
from skirmbot.rules.skirm.state import ENDED

GUN = weapon("Gun", "ranged", 1, 1, "RG8")
BLADE = weapon("Blade", "melee", 1, 1)
CANNON = weapon("Cannon", "ranged", 1, 3, "RG8")
GRENADE: dict[str, Any] = {**weapon("Grenade", "ranged", 1, 1, "RG6"), "gear": True}
TAKE_OUT = [2, 6]  # ROA 1 strikes (RSK/MSK 3), the one save die fails: a 1-HIT unit is out


def frail(name: str, square: str, **card: Any) -> tuple[dict[str, Any], str]:
    """A unit that falls to one unsaved point of damage."""
    return unit(name, square, **{"hit": 1, "arm": 1, "weapons": [GUN, BLADE], **card})


def shooter(name: str, square: str, *weapons: dict[str, Any], **card: Any) -> Any:
    return unit(name, square, **{"weapons": list(weapons) or [GUN, BLADE], **card})


def names(match: Match, unit_id: str) -> list[str]:
    return [medal.name for medal in medals(match)[unit_id]]


def reason(match: Match, unit_id: str, medal: str) -> str:
    return next(m.reason for m in medals(match)[unit_id] if m.name == medal)


def conceded_by(match: Match, side: int) -> Match:
    match.apply(Concede(side))
    assert match.state.phase == ENDED
    return match


def drawn(match: Match) -> Match:
    match.apply(AgreeDraw(0))
    return match


def next_turn_faces(match: Match) -> list[int]:
    """Dice for the next turn's start: side 0 wins the roll-off, nobody gets a Tactical Order."""
    order_dice = [3 + sum(u.card.value("LD") for u in match.state.on_map(s)) for s in (0, 1)]
    return [1, 2] + [6] * sum(order_dice)


# --- the list ------------------------------------------------------------------------------------
def test_the_medals_and_their_xp_are_the_rulebooks() -> None:
    assert MEDAL_XP == {
        "Assassin": 2, "Avenger": 1, "Berserker": 2, "Bloodthirsty": 1, "First Blood": 2,
        "Geared Up": 1, "Last Standing": 1, "Merciless": 1, "Marksman": 2, "Resourceful": 1,
        "Scavenger": 1, "Untouchable": 2, "Veteran": 1, "Victor": 1,
    }  # fmt: skip


def test_a_match_still_being_played_gives_no_medal_yet() -> None:
    match = skirm_match({0: [shooter("Remus", "C3")], 1: [frail("Vex", "C10")]}, faces=TAKE_OUT)
    match.apply(Shoot(0, "Remus", "Vex"))
    assert medals(match) == {"Remus": [], "Vex": []}


def test_every_medal_says_why_in_words() -> None:
    match = skirm_match({0: [shooter("Remus", "C3")], 1: [frail("Vex", "C10")]}, faces=TAKE_OUT)
    match.apply(Shoot(0, "Remus", "Vex"))
    match = conceded_by(match, 1)
    match_medals = medals(match)["Remus"]
    assert [m.name for m in match_medals] == [
        "Assassin", "First Blood", "Untouchable", "Veteran", "Victor",
    ]  # fmt: skip
    assert [m.xp for m in match_medals] == [2, 2, 2, 1, 1]
    assert match_medals[0].reason == "took out Vex, the enemy Leader"


# --- Assassin ------------------------------------------------------------------------------------
def test_assassin_took_out_an_enemy_leader() -> None:
    """Rulebook Assassin (2 XP): this Unit took out an enemy Leader in the battle."""
    match = skirm_match(
        {0: [shooter("Remus", "C3")], 1: [frail("Vex", "C10", specials=["LD2"])]},
        faces=TAKE_OUT,
    )
    match.apply(Shoot(0, "Remus", "Vex"))
    assert "Assassin" in names(conceded_by(match, 1), "Remus")


def test_taking_out_an_enemy_that_does_not_lead_is_no_assassin() -> None:
    match = skirm_match(
        {0: [shooter("Remus", "C3")], 1: [frail("Vex", "J10"), frail("Nox", "C10")]},
        faces=TAKE_OUT,
    )
    match.apply(Shoot(0, "Remus", "Nox"))
    assert "Assassin" not in names(conceded_by(match, 1), "Remus")


# --- Avenger -------------------------------------------------------------------------------------
def test_avenger_took_out_the_enemy_that_took_its_leader_out() -> None:
    """Rulebook Avenger (1 XP): this Unit took out an enemy Unit after that enemy Unit took
    their Leader out."""
    match = skirm_match(
        {
            0: [frail("Remus", "C3"), shooter("Cato", "E3")],
            1: [shooter("Vex", "C10", hit=1), frail("Nox", "J10")],
        },
        initiative=1,
        faces=TAKE_OUT + [2, 6],
    )
    match.apply(Shoot(1, "Vex", "Remus"))
    match.apply(EndActivation(1))
    match.apply(Shoot(0, "Cato", "Vex"))
    match = conceded_by(match, 1)
    assert "Avenger" in names(match, "Cato")
    assert reason(match, "Cato", "Avenger") == "took out Vex, who had taken out Remus, its Leader"
    assert "Assassin" in names(match, "Vex") and "Avenger" not in names(match, "Vex")


def test_taking_out_another_enemy_after_the_leader_fell_is_no_avenger() -> None:
    match = skirm_match(
        {
            0: [frail("Remus", "C3"), shooter("Cato", "E3")],
            1: [shooter("Vex", "C10"), frail("Nox", "J10")],
        },
        initiative=1,
        faces=TAKE_OUT + TAKE_OUT,
    )
    match.apply(Shoot(1, "Vex", "Remus"))
    match.apply(EndActivation(1))
    match.apply(Shoot(0, "Cato", "Nox"))
    assert "Avenger" not in names(conceded_by(match, 1), "Cato")


# --- Berserker and Bloodthirsty --------------------------------------------------------------------
def take_outs(kind: str, victims: int) -> Match:
    """Remus (ACT 4, 2 TO) takes out `victims` enemies in melee (adjacent ones) or at range
    (far ones): each attack costs 1, 2, then 3."""
    if kind == "melee":
        squares, remus, attack = ["F7", "G6", "E6"], shooter("Remus", "F6", BLADE, act=4), Melee
    else:
        squares, remus, attack = ["B10", "F10", "J10"], shooter("Remus", "F3", act=4), Shoot
    match = skirm_match(
        {
            0: [remus],
            1: [
                frail("Vex", "L12"),
                *(frail(f"Foe{n}", sq) for n, sq in enumerate(squares[:victims], 1)),
            ],
        },
        orders=(2, 0),
        faces=TAKE_OUT * victims,
    )
    for n in range(1, victims + 1):
        match.apply(attack(0, "Remus", f"Foe{n}", orders=2 if n == 3 else 0))
    return conceded_by(match, 1)


def melee_match(victims: int) -> Match:
    return take_outs("melee", victims)


def ranged_match(victims: int) -> Match:
    return take_outs("ranged", victims)


def test_berserker_took_three_enemies_out_in_melee() -> None:
    """Rulebook Berserker (2 XP): 3 or more enemies out with Melee attacks in the same battle."""
    match = melee_match(3)
    assert "Berserker" in names(match, "Remus")
    assert (
        reason(match, "Remus", "Berserker") == "took out 3 enemies in melee (Foe1, Foe2 and Foe3)"
    )


def test_two_melee_take_outs_are_no_berserker() -> None:
    assert "Berserker" not in names(melee_match(2), "Remus")


def test_bloodthirsty_took_out_two_enemies_in_the_same_turn() -> None:
    """Rulebook Bloodthirsty (1 XP): this Unit took out two enemy Units in the same Turn."""
    match = melee_match(2)
    assert "Bloodthirsty" in names(match, "Remus")
    assert reason(match, "Remus", "Bloodthirsty") == "took out Foe1 and Foe2 in turn 1"


def test_two_take_outs_in_different_turns_are_not_bloodthirsty() -> None:
    match = skirm_match(
        {
            0: [shooter("Remus", "C3")],
            1: [shooter("Vex", "L12"), frail("Foe1", "C10"), frail("Foe2", "E10")],
        },
        faces=TAKE_OUT,
    )
    match.apply(Shoot(0, "Remus", "Foe1"))
    match.apply(EndActivation(0))
    match.apply(EndActivation(1, "Vex"))
    match.dice.faces += next_turn_faces(match)  # type: ignore[attr-defined]
    match.apply(EndActivation(1, "Foe2"))  # the last Ready unit: turn 2 begins
    assert match.state.turn == 2
    match.dice.faces += TAKE_OUT  # type: ignore[attr-defined]
    match.apply(Shoot(0, "Remus", "Foe2"))
    match = conceded_by(match, 1)
    assert [t["turn"] for t in (e.data for e in match.log if e.kind == "taken_out")] == [1, 2]
    assert "Bloodthirsty" not in names(match, "Remus")


def test_two_take_outs_by_two_units_are_not_bloodthirsty() -> None:
    match = skirm_match(
        {
            0: [shooter("Remus", "C3"), shooter("Cato", "E3")],
            1: [shooter("Vex", "L12"), frail("Foe1", "C10"), frail("Foe2", "E10")],
        },
        faces=TAKE_OUT * 2,
    )
    match.apply(Shoot(0, "Remus", "Foe1"))
    match.apply(EndActivation(0))
    match.apply(EndActivation(1, "Vex"))
    match.apply(Shoot(0, "Cato", "Foe2"))
    match = conceded_by(match, 1)
    assert "Bloodthirsty" not in names(match, "Remus") + names(match, "Cato")


# --- First Blood ---------------------------------------------------------------------------------
def test_first_blood_goes_to_the_first_unit_to_take_an_enemy_out_only() -> None:
    """Rulebook First Blood (2 XP): this Unit was the first one to take an enemy out."""
    match = skirm_match(
        {
            0: [shooter("Remus", "C3"), shooter("Cato", "E3")],
            1: [shooter("Vex", "L12"), frail("Foe1", "C10"), frail("Foe2", "E10")],
        },
        faces=TAKE_OUT * 2,
    )
    match.apply(Shoot(0, "Remus", "Foe1"))
    match.apply(EndActivation(0))
    match.apply(EndActivation(1, "Vex"))
    match.apply(Shoot(0, "Cato", "Foe2"))
    match = conceded_by(match, 1)
    assert "First Blood" in names(match, "Remus")
    assert "First Blood" not in names(match, "Cato")


def test_taking_out_a_squadmate_is_no_first_blood() -> None:
    """docs/rulings.md: only enemies count. Remus cuts open a barrel (Cato's support gives the
    second strike): the blast takes out Cato (row 6 first) and Remus saves both; then Remus
    shoots Foe1."""
    match = skirm_match(
        {
            0: [shooter("Remus", "F8"), frail("Cato", "F6")],
            1: [shooter("Vex", "L12"), frail("Foe1", "C10")],
        },
        items=[{"kind": "barrel", "square": "F7"}],
        faces=[2, 6, 6, 1, 1] + TAKE_OUT,
    )
    match.apply(Melee(0, "Remus", "barrel@F7"))
    match.apply(Shoot(0, "Remus", "Foe1"))
    match = conceded_by(match, 1)
    assert [e.data["unit"] for e in match.log if e.kind == "taken_out"] == ["Cato", "Foe1"]
    assert "First Blood" in names(match, "Remus")
    assert "Resourceful" not in names(match, "Remus")  # a squadmate is not an enemy


# --- Geared Up -----------------------------------------------------------------------------------
def test_geared_up_took_an_enemy_out_with_equipment() -> None:
    """Rulebook Geared Up (1 XP): took out an enemy Unit using an Equipment item (e.g.
    Grenade): a weapon marked "gear": true in the squad file."""
    match = skirm_match(
        {0: [shooter("Remus", "C3", GRENADE, BLADE)], 1: [frail("Vex", "C8")]}, faces=TAKE_OUT
    )
    match.apply(Shoot(0, "Remus", "Vex", weapon="Grenade"))
    match = conceded_by(match, 1)
    assert "Geared Up" in names(match, "Remus")
    assert reason(match, "Remus", "Geared Up") == "took out Vex with its Grenade"


def test_a_weapon_that_is_not_gear_is_no_geared_up() -> None:
    match = skirm_match(
        {0: [shooter("Remus", "C3", GRENADE, GUN)], 1: [frail("Vex", "C8")]}, faces=TAKE_OUT
    )
    match.apply(Shoot(0, "Remus", "Vex", weapon="Gun"))
    assert "Geared Up" not in names(conceded_by(match, 1), "Remus")


def test_gear_is_marked_true_or_false() -> None:
    assert weapon_from_json(GRENADE, "Squad Red").gear is True
    assert weapon_from_json(GUN, "Squad Red").gear is False
    with pytest.raises(ContentError, match="'gear' must be true or false, not 'yes'"):
        weapon_from_json({**GUN, "gear": "yes"}, "Squad Red")


# --- Last Standing -------------------------------------------------------------------------------
def test_last_standing_is_the_only_unit_of_its_squad_left() -> None:
    """Rulebook Last Standing (1 XP): the last Standing Unit in its Squad at the end."""
    match = skirm_match(
        {0: [shooter("Remus", "C3")], 1: [frail("Vex", "C10"), frail("Nox", "J10")]},
        faces=TAKE_OUT,
    )
    match.apply(Shoot(0, "Remus", "Vex"))
    match = conceded_by(match, 1)
    assert "Last Standing" in names(match, "Nox")
    assert "Last Standing" not in names(match, "Vex")


def test_a_squad_of_one_or_with_two_standing_has_no_last_standing() -> None:
    match = conceded_by(
        skirm_match({0: [shooter("Remus", "C3")], 1: [frail("Vex", "C10"), frail("Nox", "J10")]}),
        1,
    )
    assert "Last Standing" not in names(match, "Remus")  # a squad of one
    assert "Last Standing" not in names(match, "Vex") + names(match, "Nox")


# --- Merciless -----------------------------------------------------------------------------------
def test_merciless_took_an_enemy_out_with_2_damage_to_spare() -> None:
    """Rulebook Merciless (1 XP): 2 or more DAM above the enemy's remaining HITs (3 DAM on a
    unit with 1 HIT left); docs/rulings.md: the damage that got through the saves."""
    match = skirm_match(
        {0: [shooter("Remus", "C3", CANNON)], 1: [frail("Vex", "C10")]}, faces=[2, 6, 6, 6]
    )
    match.apply(Shoot(0, "Remus", "Vex"))
    match = conceded_by(match, 1)
    taken_out = next(e.data for e in match.log if e.kind == "taken_out")
    assert (taken_out["unsaved"], taken_out["hit_before"], taken_out["overkill"]) == (3, 1, 2)
    assert "Merciless" in names(match, "Remus")


def test_saved_damage_does_not_make_merciless() -> None:
    """3 DAM on a 1-HIT unit, but two points saved: 1 unsaved, nothing to spare."""
    match = skirm_match(
        {0: [shooter("Remus", "C3", CANNON)], 1: [frail("Vex", "C10")]}, faces=[2, 6, 1, 1]
    )
    match.apply(Shoot(0, "Remus", "Vex"))
    match = conceded_by(match, 1)
    assert match.state.units["Vex"].status == "taken_out"
    assert "Merciless" not in names(match, "Remus")


def test_one_damage_to_spare_is_not_merciless() -> None:
    match = skirm_match(
        {0: [shooter("Remus", "C3", CANNON)], 1: [frail("Vex", "C10")]}, faces=[2, 6, 6, 1]
    )
    match.apply(Shoot(0, "Remus", "Vex"))
    assert "Merciless" not in names(conceded_by(match, 1), "Remus")


# --- Marksman ------------------------------------------------------------------------------------
def test_marksman_took_three_enemies_out_with_ranged_attacks() -> None:
    """Rulebook Marksman (2 XP): 3 or more enemies out with Ranged attacks in the same battle."""
    match = ranged_match(3)
    assert "Marksman" in names(match, "Remus") and "Berserker" not in names(match, "Remus")


def test_two_ranged_take_outs_are_no_marksman() -> None:
    assert "Marksman" not in names(ranged_match(2), "Remus")


def test_three_take_outs_with_a_turret_are_resourceful_not_marksman() -> None:
    """docs/rulings.md: a turret's shots are an Item's (Resourceful), not the unit's Ranged
    attacks. The Machine Gun Turret rolls 4 dice: one strike, then the save."""
    match = skirm_match(
        {
            0: [shooter("Remus", "F3")],
            1: [
                frail("Vex", "L12"),
                frail("Foe1", "B10"),
                frail("Foe2", "F10"),
                frail("Foe3", "J10"),
            ],
        },
        items=[{"kind": "turret", "square": "F3", "type": "machine_gun"}],
        faces=[2, 6, 6, 6, 6] * 3,
    )
    for target in ("Foe1", "Foe2", "Foe3"):
        match.apply(UseTurret(0, "Remus", target))
    match = conceded_by(match, 1)
    assert "Resourceful" in names(match, "Remus")
    assert "Marksman" not in names(match, "Remus")


# --- Resourceful ---------------------------------------------------------------------------------
def test_resourceful_took_an_enemy_out_with_a_barrel() -> None:
    """Rulebook Resourceful (1 XP): took out an enemy Unit using an Item (e.g. Barrel)."""
    match = skirm_match(
        {0: [shooter("Remus", "C3")], 1: [frail("Vex", "C10")]},
        items=[{"kind": "barrel", "square": "C9"}],
        faces=[2, 6, 6],  # the strike explodes the barrel; Vex fails both saves
    )
    match.apply(Shoot(0, "Remus", "barrel@C9"))
    match = conceded_by(match, 1)
    assert "Resourceful" in names(match, "Remus")
    assert reason(match, "Remus", "Resourceful") == "took out Vex with a barrel"


def test_a_plain_shot_is_not_resourceful() -> None:
    match = skirm_match(
        {0: [shooter("Remus", "C3")], 1: [frail("Vex", "C10")]},
        items=[{"kind": "barrel", "square": "J9"}],
        faces=TAKE_OUT,
    )
    match.apply(Shoot(0, "Remus", "Vex"))
    assert "Resourceful" not in names(conceded_by(match, 1), "Remus")


# --- Scavenger -----------------------------------------------------------------------------------
def test_scavenger_opened_a_crate() -> None:
    """Rulebook Scavenger (1 XP): this Unit opened a Crate in the battle."""
    match = skirm_match(
        {0: [shooter("Remus", "C3"), shooter("Cato", "E3")], 1: [frail("Vex", "C10")]},
        items=[{"kind": "crate", "square": "C3"}],
    )
    match.apply(OpenCrate(0, "Remus", option="mp"))
    match = conceded_by(match, 1)
    assert "Scavenger" in names(match, "Remus")
    assert "Scavenger" not in names(match, "Cato")


# --- Untouchable, Veteran ------------------------------------------------------------------------
def test_untouchable_and_veteran_at_the_end() -> None:
    """Rulebook Untouchable (2 XP): still Standing at the end with all its HIT; Veteran (1 XP):
    still Standing at the end. Remus lost a HIT: a Veteran only; Vex fell: neither."""
    match = skirm_match(
        {0: [shooter("Remus", "C3"), shooter("Cato", "E3")], 1: [frail("Vex", "C10")]},
        initiative=1,
        faces=[2, 6] + TAKE_OUT,
    )
    match.apply(Shoot(1, "Vex", "Remus"))
    match.apply(EndActivation(1))
    match.apply(Shoot(0, "Remus", "Vex"))
    match = drawn(match)
    assert match.state.units["Remus"].hit == 2
    assert "Untouchable" not in names(match, "Remus") and "Veteran" in names(match, "Remus")
    assert {"Untouchable", "Veteran"} <= set(names(match, "Cato"))
    assert not {"Untouchable", "Veteran"} & set(names(match, "Vex"))


# --- Victor --------------------------------------------------------------------------------------
def test_victor_is_every_unit_of_the_winning_squad() -> None:
    """Rulebook Victor (1 XP): this Unit's Squad won the battle, also its units Taken Out."""
    match = skirm_match(
        {0: [frail("Remus", "C3"), shooter("Cato", "E3")], 1: [shooter("Vex", "C10")]},
        initiative=1,
        faces=TAKE_OUT,
    )
    match.apply(Shoot(1, "Vex", "Remus"))
    match = conceded_by(match, 1)
    assert "Victor" in names(match, "Remus") and "Victor" in names(match, "Cato")
    assert "Victor" not in names(match, "Vex")


def test_a_draw_has_no_victor() -> None:
    match = drawn(skirm_match({0: [shooter("Remus", "C3")], 1: [shooter("Vex", "C10")]}))
    assert all("Victor" not in names(match, u) for u in ("Remus", "Vex"))
    assert names(match, "Remus") == ["Untouchable", "Veteran"]


def test_a_crate_stripped_by_a_mission_action_earns_scavenger() -> None:
    """Scavenger: 'This Unit opened a Crate'; a mission action that strips a crate counts as
    opening it (docs/rulings.md, missions)."""
    from skirmbot.rules.events import Event
    from skirmbot.rules.skirm.medals import medals

    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "L12")]})
    match.log.append(
        Event(
            "mission_action",
            "Ada strips the crate.",
            {
                "unit": "Ada",
                "side": 0,
                "action": "Strip",
                "effect": "salvage",
                "square": "C3",
                "item": 0,
            },
        )
    )
    match.log.append(Event("match_ended", "The end.", {"winner": None, "reason": "", "mp": [0, 0]}))
    assert "Scavenger" in [m.name for m in medals(match).get("Ada", [])]
