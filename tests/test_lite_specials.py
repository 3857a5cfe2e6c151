"""Skirm Lite special rules with scripted dice (Lite rulebook Appendix: Agent and Weapon Special
Rules; docs/rulings.md, Skirm Lite).

Default Agents: ARM 3, HIT 3; a save die of 1-2 saves against DAM 1, 3-6 loses a HIT.
"""

from __future__ import annotations

from typing import Any

from builders import refused
from lite_builders import agent, gun, lite_match, new_turn_faces

from skirmbot.rules.commands import Dash, EndActivation, Melee, Move, Shoot
from skirmbot.rules.events import Event
from skirmbot.rules.lite.engine import LiteMatch
from skirmbot.rules.skirm.state import DOWNED


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def hit_of(match: LiteMatch, name: str) -> int:
    return match.state.units[name].hit


def duel(
    red: dict[str, Any] | None = None,
    blue: dict[str, Any] | None = None,
    *,
    faces: list[int],
    blue_square: str = "C8",
    **options: Any,
) -> LiteMatch:
    return lite_match(
        {0: [agent("Ada", "C3", **(red or {}))], 1: [agent("Bo", blue_square, **(blue or {}))]},
        faces=faces,
        **options,
    )


# --- Agent special rules --------------------------------------------------------------------------
def test_hl_heals_at_end_of_turn() -> None:
    """Lite rulebook HLx: regains x lost HIT at the end of every Turn."""
    match = duel(blue={"specials": ["HL1"]}, faces=[3, 6, 5] + new_turn_faces(0))
    match.apply(Shoot(0, "Ada", "Bo"))
    assert hit_of(match, "Bo") == 2
    match.apply(EndActivation(0))
    events = match.apply(EndActivation(1, "Bo"))
    assert of(events, "healed")[0]["regained"] == 1 and hit_of(match, "Bo") == 3


def test_hl_never_above_card_hit() -> None:
    match = duel(blue={"specials": ["HL2"]}, faces=new_turn_faces(0))
    match.apply(EndActivation(0, "Ada"))
    events = match.apply(EndActivation(1, "Bo"))
    assert of(events, "healed") == [] and hit_of(match, "Bo") == 3


def test_cam_automatic_save_beyond_three_squares() -> None:
    """Lite rulebook CAM: attacker more than 3 squares away: one automatic save."""
    match = duel(blue={"specials": ["CAM"]}, faces=[3, 3, 6])
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert of(events, "attack")[0]["automatic_saves"] == 1
    assert of(events, "saves")[0]["faces"] == [6] and hit_of(match, "Bo") == 2


def test_cam_not_at_three_squares() -> None:
    match = duel(blue={"specials": ["CAM"]}, faces=[3, 3, 6, 6], blue_square="C6")
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert of(events, "attack")[0]["automatic_saves"] == 0 and hit_of(match, "Bo") == 1


def test_cam_not_against_armour_piercing() -> None:
    """Lite rulebook CAM/APx: the automatic save does not save an AP hit."""
    piercer = gun("Needle", "ranged", 1, 3, 1, "RG8", "AP1")
    match = duel({"weapons": [piercer]}, {"specials": ["CAM"]}, faces=[3])
    events = match.apply(Shoot(0, "Ada", "Bo"))
    attack = of(events, "attack")[0]
    assert (attack["piercing"], attack["automatic_saves"]) == (1, 0)
    assert hit_of(match, "Bo") == 2


def test_dod_automatic_save_in_melee() -> None:
    """Lite rulebook DOD: one automatic save against a Melee attack."""
    match = duel(blue={"specials": ["DOD"]}, faces=[3, 6], blue_square="C4")
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert of(events, "attack")[0]["automatic_saves"] == 1 and of(events, "saves") == []
    assert hit_of(match, "Bo") == 3


def test_dod_not_against_ranged() -> None:
    match = duel(blue={"specials": ["DOD"]}, faces=[3, 6, 6])
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert of(events, "attack")[0]["automatic_saves"] == 0 and hit_of(match, "Bo") == 2


def test_tf_keeps_a_hit_on_x_or_lower() -> None:
    """Lite rulebook TFx: each HIT it would lose, 1D6: x or lower keeps it."""
    match = duel(blue={"specials": ["TF2"]}, faces=[3, 3, 6, 6, 2, 3])
    events = match.apply(Shoot(0, "Ada", "Bo"))
    lost = of(events, "hit_lost")[0]
    assert (lost["tough_faces"], lost["kept"], lost["lost"]) == ([2, 3], 1, 1)
    assert hit_of(match, "Bo") == 2


def test_ld_adds_order_dice() -> None:
    """Lite rulebook LDx: roll x more Tactical Order dice."""
    match = duel({"specials": ["LD2"]}, faces=[])
    assert len(of(match.log, "orders_rolled")[0]["faces"]) == 5


# --- Weapon special rules -------------------------------------------------------------------------
def test_rr_rerolls_missed_dice_by_itself() -> None:
    """Lite rulebook RRx: re-roll up to x attack dice; our ruling: the missed ones, first to
    last, at once (nothing waits for the player)."""
    rifle = gun("Rifle", "ranged", 3, 3, 1, "RG8", "RR1")
    match = duel({"weapons": [rifle]}, faces=[5, 6, 2, 3, 6, 6], orders=(0, 0))
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert [r["old"] for r in of(events, "reroll")] == [5]
    assert of(events, "attack")[0]["strikes"] == 2  # the re-rolled 3 and the 2
    assert hit_of(match, "Bo") == 1


def test_cr_results_up_to_x_are_critical() -> None:
    """Lite rulebook CRx: results up to x are Critical (double success)."""
    blade = gun("Blade", "melee", 2, 3, 1, "CR2")
    match = duel({"weapons": [blade]}, faces=[2, 3, 1, 1, 1], blue_square="C4")
    events = match.apply(Melee(0, "Ada", "Bo"))
    attack = of(events, "attack")[0]
    assert (attack["strikes"], attack["criticals"]) == (3, 1)


def test_xpl_hits_target_and_every_adjacent_agent() -> None:
    """Lite rulebook XPL: the target and every other Agent adjacent to it, squadmates too, each
    with its own attack roll."""
    grenade = gun("Grenade", "ranged", 1, 3, 1, "RG6", "XPL")
    match = lite_match(
        {
            0: [agent("Ada", "C3", weapons=[grenade]), agent("Cy", "D9")],
            1: [agent("Bo", "C8"), agent("Di", "C9"), agent("Ed", "L12")],
        },
        # Friendly Fire: Cy (D9) is next to Bo (C8) and Di (C9): ROA 1 - 1 = 0 for both;
        # Cy, a squadmate caught in the blast, rolls 1 die
        faces=[3, 5],
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    targets = [a["target"] for a in of(events, "attack")]
    assert targets == ["Bo", "Di", "Cy"]  # then reading order: C9 before D9
    assert (hit_of(match, "Cy"), hit_of(match, "Di")) == (2, 3)
    assert match.dice.remaining == 0  # type: ignore[attr-defined]


def test_xpl_leaves_the_caught_agents_their_cover() -> None:
    """Lite rulebook XPL ("it fires against the target and any other Agent ... in adjacent
    Squares") takes no Cover away, unlike the full rules' BLS ("valid targets do not benefit from
    Cover"): Di, caught behind a low wall, saves a 3 (ARM 3 + 1 - DAM 1), as if it were shot."""
    grenade = gun("Grenade", "ranged", 1, 3, 1, "RG6", "XPL")
    match = lite_match(
        {0: [agent("Ada", "C3", weapons=[grenade])], 1: [agent("Bo", "C8"), agent("Di", "D8")]},
        edges=["D7|D8: wall=1"],
        faces=[6, 2, 3],  # Bo: a miss; Di: a hit, then its save
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    caught = of(events, "attack")[1]
    assert (caught["target"], caught["cover"]) == ("Di", True)
    assert of(events, "saves")[0]["needed"] == 3 and hit_of(match, "Di") == 3


def test_an_agent_the_blast_catches_out_of_sight_is_in_cover() -> None:
    """Our ruling (Lite's XPL needs no sight of the Agents it catches): one the attacker cannot
    see at all, here Di behind Bo, is in Cover, as what hides it shelters it (ARM 3 + 1 - DAM 1)."""
    grenade = gun("Grenade", "ranged", 1, 3, 1, "RG6", "XPL")
    match = lite_match(
        {0: [agent("Ada", "C3", weapons=[grenade])], 1: [agent("Bo", "C8"), agent("Di", "C9")]},
        faces=[6, 2, 3],
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert [(a["target"], a["cover"]) for a in of(events, "attack")] == [("Bo", False), ("Di", True)]
    assert hit_of(match, "Di") == 3


def test_xpl_may_target_an_empty_square() -> None:
    grenade = gun("Grenade", "ranged", 1, 3, 1, "RG6", "XPL")
    match = duel({"weapons": [grenade]}, faces=[3, 5])
    events = match.apply(Shoot(0, "Ada", "D8"))
    assert of(events, "blast")[0]["square"] == "D8"
    assert [a["target"] for a in of(events, "attack")] == ["Bo"] and hit_of(match, "Bo") == 2


def test_lim_once_per_battle() -> None:
    """Lite rulebook LIM: the weapon can only be used once during the battle."""
    flask = gun("Flask", "ranged", 1, 3, 1, "RG6", "LIM")
    match = duel({"weapons": [flask], "specials": ["2R"]}, faces=[6])
    match.apply(Shoot(0, "Ada", "Bo"))
    refused(match, Shoot(0, "Ada", "Bo"), "Limited Ammo")


def test_ap_hits_cannot_be_saved() -> None:
    """Lite rulebook APx: x successful attacks cannot be saved (one fewer save die)."""
    piercer = gun("Lance", "ranged", 2, 3, 1, "RG8", "AP1")
    match = duel({"weapons": [piercer]}, faces=[3, 3, 1])
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert of(events, "saves")[0]["faces"] == [1] and hit_of(match, "Bo") == 2


def test_va_regains_hit_when_damage_is_done() -> None:
    """Lite rulebook VAx: if at least one success inflicts Damage, the attacker regains x HIT."""
    glaive = gun("Glaive", "melee", 1, 3, 1, "VA1")
    match = duel({"weapons": [glaive]}, faces=[3, 5], blue_square="C4")
    match.state.units["Ada"].hit = 1
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert of(events, "healed")[0]["regained"] == 1 and hit_of(match, "Ada") == 2


def test_va_nothing_when_all_saved() -> None:
    glaive = gun("Glaive", "melee", 1, 3, 1, "VA1")
    match = duel({"weapons": [glaive]}, faces=[3, 1], blue_square="C4")
    match.state.units["Ada"].hit = 1
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert of(events, "healed") == [] and hit_of(match, "Ada") == 1


HEAVY = gun("Cannon", "ranged", 1, 3, 1, "RG10", "HVY")


def test_hvy_shooting_after_a_move_costs_two() -> None:
    """Lite rulebook HVY: shooting after a Move costs 2 ACT."""
    match = duel({"weapons": [HEAVY]}, faces=[6])
    match.apply(Move(0, "Ada", "C2"))
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert of(events, "cost_paid")[0]["act"] == 2


def test_hvy_move_after_shooting_costs_two() -> None:
    match = duel({"weapons": [HEAVY]}, faces=[6])
    match.apply(Shoot(0, "Ada", "Bo"))
    events = match.apply(Move(0, "Ada", "C2"))
    assert of(events, "cost_paid")[0]["act"] == 2


def test_hvy_dash_has_no_penalty() -> None:
    match = duel({"weapons": [HEAVY]}, faces=[6])
    match.apply(Dash(0, "Ada", "C2"))
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert of(events, "cost_paid")[0]["act"] == 1


def test_lin_targets_every_agent_on_the_line() -> None:
    """Lite rulebook LIN: every Agent (squadmates too) on a square the line crosses between
    attacker and target is a target (our ruling: they do not block the LIN weapon's sight)."""
    beam = gun("Beam", "ranged", 1, 3, 1, "RG10", "LIN")
    match = lite_match(
        {
            0: [agent("Ada", "C2", weapons=[beam]), agent("Cy", "C4")],
            1: [agent("Bo", "C9"), agent("Di", "C6")],
        },
        faces=[6, 6, 6],
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert [a["target"] for a in of(events, "attack")] == ["Bo", "Cy", "Di"]


def test_downed_by_xpl_is_not_rolled_for_again() -> None:
    """A target Downed earlier in the same attack is skipped (it is no longer a target)."""
    grenade = gun("Grenade", "ranged", 2, 3, 1, "RG6", "XPL")
    match = lite_match(
        {
            0: [agent("Ada", "C3", weapons=[grenade])],
            1: [agent("Bo", "C8", hit=1), agent("Di", "C9")],
        },
        faces=[3, 6, 5, 6, 6],
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert match.state.units["Bo"].status == DOWNED
    assert [a["target"] for a in of(events, "attack")] == ["Bo", "Di"]
