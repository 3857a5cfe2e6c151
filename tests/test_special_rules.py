"""Special rules (issue 6; rulebook Unit and Weapon/Gear Special Rules), each pinned with
scripted dice. Names: SKx, +SK, CAM, DLS, AHx, RLT, PRx, BRx, PAR, RND, DDx, STN, TGx, HVY,
MCR, CTR, UWD."""

from __future__ import annotations

from typing import Any

from builders import skirm_match, unit, weapon

from skirmbot.rules.commands import Activate, EndActivation, Melee, Move, Reroll, Shoot
from skirmbot.rules.skirm.commands import SetStandingOrders
from skirmbot.rules.skirm.engine import Match


def duel(attacker: dict[str, Any], target: dict[str, Any], faces: list[int], target_square: str = "C4", orders: tuple[int, int] = (0, 0)) -> Match:
    """Ada on C3 against Bo (adjacent on C4 unless moved), with the cards' changes applied."""
    return skirm_match(
        {0: [unit("Ada", "C3", **attacker)], 1: [unit("Bo", target_square, **target)]},
        faces=faces,
        orders=orders,
    )


def kinds(events: list[Any]) -> list[str]:
    return [event.kind for event in events]


def test_skx_replaces_the_skill() -> None:
    """SKx: use x as the skill with this weapon (MSK 2, SK5: a 5 strikes)."""
    match = duel({"msk": 2, "weapons": [weapon("Pike", "melee", 1, 1, "SK5")]}, {"arm": 1}, [5, 6])
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert match.state.units["Bo"].hit == 2 and "SK5" in events[2].text and match.dice.remaining == 0  # type: ignore[attr-defined]


def test_plus_sk_adds_one_up_to_five() -> None:
    """+SK: skill +1, maximum 5 (MSK 3 becomes 4: a 4 strikes)."""
    match = duel({"msk": 3, "weapons": [weapon("Blade", "melee", 1, 1, "+SK")]}, {"arm": 1}, [4, 6])
    match.apply(Melee(0, "Ada", "Bo"))
    assert match.state.units["Bo"].hit == 2


def test_camouflage_costs_one_rsk_at_four_squares_or_more() -> None:
    """CAM: the attacker gets -1 RSK when at least 4 squares away (RSK 4: a 4 misses)."""
    rifle = weapon("Rifle", "ranged", 1, 1, "RG8")
    far = duel({"rsk": 4, "weapons": [rifle]}, {"specials": ["CAM"], "arm": 1}, [4], target_square="C7")
    far.apply(Shoot(0, "Ada", "Bo"))
    assert far.state.units["Bo"].hit == 3
    near = duel({"rsk": 4, "weapons": [rifle]}, {"specials": ["CAM"], "arm": 1}, [4, 6], target_square="C6")
    near.apply(Shoot(0, "Ada", "Bo"))
    assert near.state.units["Bo"].hit == 2


def test_duellist_costs_the_attacker_one_msk() -> None:
    """DLS: each time this unit is the target of a Melee Attack, the attacker's MSK is -1."""
    match = duel({"msk": 4, "weapons": [weapon("Blade", "melee", 1, 1)]}, {"specials": ["DLS"]}, [4])
    match.apply(Melee(0, "Ada", "Bo"))
    assert match.state.units["Bo"].hit == 3 and match.dice.remaining == 0  # type: ignore[attr-defined]


def test_autohit_strikes_without_rolling() -> None:
    """AHx: x of the weapon's attack dice strike without being rolled (one die left to roll)."""
    match = duel({"weapons": [weapon("Flamer", "ranged", 2, 1, "RG4", "AH1")]}, {"arm": 1}, [6, 6], target_square="C6")
    match.apply(Shoot(0, "Ada", "Bo"))
    assert match.state.units["Bo"].hit == 2 and match.dice.remaining == 0  # type: ignore[attr-defined]


def test_relentless_rerolls_every_six() -> None:
    """RLT: all attack dice that show 6 are re-rolled (then final)."""
    match = duel({"weapons": [weapon("Chain", "melee", 2, 1, "RLT")]}, {"arm": 1}, [6, 6, 2, 3, 6, 6])
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert "RLT: 2 sixes re-rolled" in events[2].text and match.state.units["Bo"].hit == 1


def test_precise_gives_free_rerolls_without_tactical_orders() -> None:
    """PRx: the attacker may re-roll up to x ranged attack dice; the roll waits even at 0 TO."""
    match = duel({"rsk": 3, "specials": ["PR1"], "weapons": [weapon("Rifle", "ranged", 2, 1, "RG8")]}, {"arm": 1, "hit": 3}, [5, 2, 1, 6, 6, 6], target_square="C6")
    match.apply(Shoot(0, "Ada", "Bo"))
    assert match.state.activation is not None and match.state.activation.pending is not None
    events = match.apply(Reroll(0, 1))
    assert "for free (PR)" in events[0].text and match.state.squads[0].orders == 0
    assert match.state.units["Bo"].hit == 0  # 2 strikes, one a natural 1: 3 damage, 3 failed saves


def test_brutal_weapon_gives_free_melee_rerolls() -> None:
    """BRx (weapon): up to x melee attack dice re-rolled without TO."""
    match = duel({"weapons": [weapon("Axe", "melee", 1, 1, "BR1")]}, {"arm": 1}, [5, 3, 6])
    match.apply(Melee(0, "Ada", "Bo"))
    events = match.apply(Reroll(0, 1))
    assert "for free (BR)" in events[0].text and match.state.units["Bo"].hit == 2


def test_parry_rerolls_the_attackers_best_die() -> None:
    """PAR: the target re-rolls one attack die the attacker has not re-rolled, before saves."""
    match = duel({"weapons": [weapon("Blade", "melee", 2, 1)]}, {"specials": ["PAR"]}, [1, 5, 6])
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert "parry" in kinds(events) and match.state.units["Bo"].hit == 3
    assert match.dice.remaining == 0  # type: ignore[attr-defined]


def test_parry_follows_standing_orders() -> None:
    match = duel({"weapons": [weapon("Blade", "melee", 1, 1)]}, {"specials": ["PAR"], "arm": 1}, [2, 6])
    match.apply(SetStandingOrders(1, parry=False))
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert "parry" not in kinds(events) and match.state.units["Bo"].hit == 2


def test_rending_natural_ones_deal_two_more() -> None:
    """RND: attack rolls of 1 cause +2 DAM instead of +1."""
    match = duel({"weapons": [weapon("Saw", "melee", 1, 1, "RND")]}, {"arm": 1, "hit": 4}, [1, 6, 6, 6])
    match.apply(Melee(0, "Ada", "Bo"))
    assert match.state.units["Bo"].hit == 1


def test_deadly_adds_damage_only_when_something_strikes() -> None:
    """DDx: with at least one successful strike, x more DAM in all."""
    hit = duel({"weapons": [weapon("Maul", "melee", 2, 1, "DD2")]}, {"arm": 1, "hit": 4}, [2, 6, 6, 6, 6])
    hit.apply(Melee(0, "Ada", "Bo"))
    assert hit.state.units["Bo"].hit == 1
    miss = duel({"weapons": [weapon("Maul", "melee", 2, 1, "DD2")]}, {"arm": 1, "hit": 4}, [6, 6])
    miss.apply(Melee(0, "Ada", "Bo"))
    assert miss.state.units["Bo"].hit == 4 and miss.dice.remaining == 0  # type: ignore[attr-defined]


def test_stun_costs_the_target_one_act_next_activation() -> None:
    """STN: a natural 1 among the attack dice: -1 ACT in the target's next activation (min 2)."""
    match = duel({"weapons": [weapon("Shock", "melee", 1, 1, "STN")]}, {"act": 3, "arm": 5}, [1, 1, 1])
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert "stunned" in kinds(events) and match.state.units["Bo"].stunned
    match.apply(EndActivation(0))
    events = match.apply(Activate(1, "Bo"))
    assert match.state.activation is not None and match.state.activation.act_left == 2
    assert "stunned" in events[0].text and not match.state.units["Bo"].stunned


def test_tough_rerolls_failed_saves_for_free() -> None:
    """TGx: the target may re-roll up to x save dice (taken on failed dice, automatically)."""
    match = duel({"weapons": [weapon("Rifle", "ranged", 1, 1, "RG8")]}, {"specials": ["TG1"], "arm": 3}, [2, 6, 1], target_square="C6")
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert match.state.units["Bo"].hit == 3 and "Tough" in events[-1].text


def test_heavy_weapons_cost_more_around_a_move() -> None:
    """HVY: firing after a Move costs 1 more ACT; a Move after firing costs 1 more; Dash is free."""
    cannon = weapon("Cannon", "ranged", 1, 1, "RG8", "HVY")
    moved = duel({"act": 3, "weapons": [cannon]}, {"arm": 5}, [6], target_square="C9")
    moved.apply(Move(0, "Ada", "B3"))
    events = moved.apply(Shoot(0, "Ada", "Bo"))
    assert events[0].data["act"] == 2
    fired = duel({"act": 3, "weapons": [cannon]}, {"arm": 5}, [6], target_square="C9")
    fired.apply(Shoot(0, "Ada", "Bo"))
    assert fired.apply(Move(0, "Ada", "B3"))[0].data["act"] == 2
    dashed = duel({"act": 3, "weapons": [cannon]}, {"arm": 5}, [6], target_square="C9")
    dashed.apply(Shoot(0, "Ada", "Bo"))
    from skirmbot.rules.commands import Dash

    assert dashed.apply(Dash(0, "Ada", "B3"))[0].data["act"] == 1


def test_mcr_ranged_weapon_fights_in_melee() -> None:
    """MCR: this ranged weapon can attack an adjacent enemy in Melee Combat (with MSK)."""
    match = duel({"msk": 4, "rsk": 1, "weapons": [weapon("Bayonet", "ranged", 1, 1, "RG6", "MCR")]}, {"arm": 1}, [4, 6])
    match.apply(Melee(0, "Ada", "Bo", "Bayonet"))
    assert match.state.units["Bo"].hit == 2


def test_counter_strikes_back_after_a_melee_attack_once() -> None:
    """CTR: a target not Taken Out strikes back at its attacker at once; a counter-attack never
    provokes another (docs/rulings.md), even against a CTR attacker."""
    claws = weapon("Claws", "melee", 1, 1)
    match = duel({"specials": ["CTR"], "weapons": [claws]}, {"specials": ["CTR"], "weapons": [claws]}, [6, 2, 6])
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert any("strikes back" in e.text for e in events)
    assert match.state.units["Ada"].hit == 2 and match.dice.remaining == 0  # type: ignore[attr-defined]


def test_no_counter_with_unwieldy_weapons_or_when_told_not_to() -> None:
    """UWD weapons cannot be used outside the unit's activation; standing orders can say never."""
    unwieldy = duel({"weapons": [weapon("Claws", "melee", 1, 1)]}, {"specials": ["CTR"], "weapons": [weapon("Halberd", "melee", 1, 1, "UWD")]}, [6])
    assert not any("strikes back" in e.text for e in unwieldy.apply(Melee(0, "Ada", "Bo")))
    told = duel({"weapons": [weapon("Claws", "melee", 1, 1)]}, {"specials": ["CTR"]}, [6])
    told.apply(SetStandingOrders(1, counter=False))
    assert not any("strikes back" in e.text for e in told.apply(Melee(0, "Ada", "Bo")))
