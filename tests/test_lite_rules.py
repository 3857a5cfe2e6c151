"""Skirm Lite's core rules with scripted dice (Lite rulebook Turns, Actions, Tactical Orders,
Combat, Modifiers, Damage, Sentry Actions; docs/rulings.md, Skirm Lite).

Red (side 0) acts; Blue defends. Default Agents: MOV 3, ACT 3, ARM 3, HIT 3; Rifle ROA 2, SKL 3,
DAM 1, RG8; Knife ROA 2, SKL 3, DAM 1. An attack die of 1 is critical (two hits); a save die of
1-2 saves, 3-6 loses a HIT.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from builders import refused
from lite_builders import FLAT_12, agent, gun, lite_match, new_turn_faces

from skirmbot.demo import default_content
from skirmbot.rules.commands import (
    Accept,
    Dash,
    Deploy,
    EndActivation,
    Melee,
    Modify,
    Move,
    Reroll,
    Shoot,
)
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.lite import RULESET
from skirmbot.rules.lite.commands import Revive, Sentry
from skirmbot.rules.lite.engine import LiteMatch
from skirmbot.rules.record import RECORD_VERSION, MatchRecord, start_match
from skirmbot.rules.skirm.state import ACTIVATED, DOWNED, ENDED, READY, TAKEN_OUT


def one(events: list[Event], kind: str) -> dict[str, Any]:
    found = [e.data for e in events if e.kind == kind]
    assert len(found) == 1, [e.kind for e in events]
    return found[0]


def duel(
    red: dict[str, Any] | None = None,
    blue: dict[str, Any] | None = None,
    *,
    faces: list[int],
    red_square: str = "C3",
    blue_square: str = "C8",
    **options: Any,
) -> LiteMatch:
    """Ada (Red) and Bo (Blue), 5 squares apart on open ground unless told otherwise."""
    return lite_match(
        {
            0: [agent("Ada", red_square, **(red or {}))],
            1: [agent("Bo", blue_square, **(blue or {}))],
        },
        faces=faces,
        **options,
    )


def hit_of(match: LiteMatch, name: str) -> int:
    return match.state.units[name].hit


# --- Start of Turn -----------------------------------------------------------------------------
def _content(squads: tuple[list[dict[str, Any]], list[dict[str, Any]]]) -> dict[str, Any]:
    return {
        "map": {"name": "Flat", "rows": FLAT_12, "edges": [], "objectives": []},
        "mission": {
            "name": "Test",
            "deployment": [{"edge": "top", "depth": 1}, {"edge": "bottom", "depth": 1}],
            "scoring": [{"kind": "take_out", "points": 1}],
        },
        "squads": [{"name": "Red", "agents": squads[0]}, {"name": "Blue", "agents": squads[1]}],
    }


def _deployed(faces: list[int], red_specials: list[str] | None = None) -> LiteMatch:
    content = _content(([agent("Ada", "A1", specials=red_specials)[0]], [agent("Bo", "A12")[0]]))
    match = RULESET.new_match(content, ScriptedDice(faces))
    match.apply(Deploy(0, {"Ada": "A1"}))
    match.apply(Deploy(1, {"Bo": "A12"}))
    return match


def test_initiative_highest_roll_wins() -> None:
    """Lite rulebook Start of Turn: "Highest score wins Initiative" (Skirm: lowest)."""
    match = _deployed([3, 5] + [6] * 6)
    assert match.state.initiative == 1 and match.state.to_act == 1


def test_initiative_ties_are_rerolled() -> None:
    """Lite rulebook Start of Turn: both sides re-roll any ties until a winner is determined."""
    match = _deployed([4, 4, 6, 2] + [6] * 6)
    assert match.state.initiative == 0
    assert one(match.log, "initiative")["rolls"] == [[4, 4], [6, 2]]


def test_tactical_orders_three_dice_plus_leader_dice() -> None:
    """Lite rulebook Tactical Orders: 3D6 plus 1 die per LDx of a Standing Agent; each 1-3 is
    one Tactical Order."""
    match = _deployed([2, 1] + [1, 3, 4, 2] + [6, 6, 1], red_specials=["LD1"])
    rolled = [e.data for e in match.log if e.kind == "orders_rolled"]
    assert rolled[0] == {"side": 0, "faces": [1, 3, 4, 2], "orders": 3}
    assert rolled[1]["orders"] == 1 and len(rolled[1]["faces"]) == 3
    assert match.state.squads[0].orders == 3


def test_leader_dice_only_while_standing() -> None:
    """Lite rulebook LDx: "While this Agent is Standing" — a Downed leader adds no die."""
    match = duel(
        blue={"specials": ["LD1"], "hit": 1},
        faces=[3, 6, 4] + [2, 1] + [6] * 7,
        blue_square="C4",
    )
    match.apply(Melee(0, "Ada", "Bo"))  # 3 hits, 6 misses; save 4 fails: Bo Downed
    assert match.state.units["Bo"].status == DOWNED
    match.apply(EndActivation(0))
    # Bo is Downed at the end of the turn and removed: the match ends (Blue has no Agent left)
    assert match.state.phase == ENDED


# --- Actions -------------------------------------------------------------------------------------
def test_move_goes_up_to_mov_squares() -> None:
    """Lite rulebook Move: "moves a number of squares up to its MOV stat"."""
    match = duel({"mov": 4}, faces=[])
    match.apply(Move(0, "Ada", "C7"))
    assert str(match.state.units["Ada"].square) == "C7"


def test_move_refused_beyond_mov() -> None:
    """Lite rulebook Move: MOV 2 cannot reach 3 squares away."""
    match = duel({"mov": 2}, faces=[])
    refused(match, Move(0, "Ada", "C6"), "cannot reach C6")


def test_dash_moves_two_squares() -> None:
    """Lite rulebook Dash: "moves up to 2 Squares" (Skirm: 1)."""
    match = duel(faces=[])
    match.apply(Dash(0, "Ada", "C5"))
    assert str(match.state.units["Ada"].square) == "C5"
    match2 = duel(faces=[])
    refused(match2, Dash(0, "Ada", "C6"), "cannot reach C6")


def test_no_action_twice_in_an_activation() -> None:
    """Lite rulebook Actions: an Agent may not perform the same Action more than once during its
    activation (no Skirm surcharge: it is refused even with ACT left)."""
    match = duel(faces=[], orders=(3, 0))
    match.apply(Move(0, "Ada", "C4"))
    refused(match, Move(0, "Ada", "C5"), "may not repeat")
    refused(match, Move(0, "Ada", "C5", orders=1), "may not repeat")


def test_second_shot_refused_without_2r() -> None:
    """Lite rulebook Actions: Shoot once per activation without 2R."""
    match = duel(faces=[4, 4, 4, 4])
    match.apply(Shoot(0, "Ada", "Bo"))
    refused(match, Shoot(0, "Ada", "Bo"), "may not repeat")


def test_2r_shoots_twice() -> None:
    """Lite rulebook 2R: the Agent can perform Ranged Combat twice in its activation (1 ACT each)."""
    match = duel({"specials": ["2R"]}, faces=[4, 4, 4, 4])
    match.apply(Shoot(0, "Ada", "Bo"))
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert one(events, "cost_paid")["act"] == 1 and match.state.activation is not None
    assert match.state.activation.uses["ranged"] == 2


def test_2m_melees_twice() -> None:
    """Lite rulebook 2M: the Agent can perform the Melee Action twice in its activation."""
    match = duel({"specials": ["2M"]}, faces=[4, 4, 4, 4], blue_square="C4")
    match.apply(Melee(0, "Ada", "Bo"))
    match.apply(Melee(0, "Ada", "Bo"))
    refused(match, Melee(0, "Ada", "Bo", orders=1), "twice")


def test_tactical_order_pays_for_an_extra_action() -> None:
    """Lite rulebook Actions: an action may be paid with ACT, TO or both."""
    match = duel({"act": 1}, faces=[4, 4], orders=(1, 0))
    match.apply(Move(0, "Ada", "C4"))
    match.apply(Shoot(0, "Ada", "Bo", orders=1))
    assert match.state.squads[0].orders == 0


# --- Combat --------------------------------------------------------------------------------------
def test_hits_at_or_under_skl_and_saves_against_arm_minus_dam() -> None:
    """Lite rulebook Combat: each die at or under the weapon's SKL hits; each hit makes the
    target roll a save; a save higher than ARM - DAM loses a HIT. SKL 3: 3 hits, 4 misses;
    ARM 3 - DAM 1 = 2: a save of 3 loses a HIT."""
    match = duel(faces=[3, 4, 3])
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert one(events, "attack")["strikes"] == 1
    assert one(events, "saves")["faces"] == [3] and one(events, "saves")["needed"] == 2
    assert hit_of(match, "Bo") == 2


def test_save_at_arm_minus_dam_saves() -> None:
    """Lite rulebook Combat: a save die of ARM - DAM or lower does not lose a HIT."""
    match = duel(faces=[2, 5, 2])
    match.apply(Shoot(0, "Ada", "Bo"))
    assert hit_of(match, "Bo") == 3


def test_higher_damage_lowers_the_save() -> None:
    """Lite rulebook Combat: ARM 3 - DAM 2 = 1: a save of 2 fails."""
    rifle = gun("Cannon", "ranged", 1, 3, 2, "RG8")
    match = duel({"weapons": [rifle]}, faces=[2, 2])
    match.apply(Shoot(0, "Ada", "Bo"))
    assert hit_of(match, "Bo") == 2


def test_a_one_is_critical_two_hits() -> None:
    """Lite rulebook CRx: "(instead of only 1)" — a 1 is a Critical: a double success, so two
    save dice."""
    match = duel(faces=[1, 6, 3, 3])
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert one(events, "attack")["strikes"] == 2 and one(events, "attack")["criticals"] == 1
    assert hit_of(match, "Bo") == 1


def test_six_always_misses_and_fails() -> None:
    """Our ruling (Lite is silent): as in the full rules, an attack die of 6 always misses, and
    a save die of 6 always fails, even against a target number of 6."""
    match = duel(
        {"weapons": [gun("Laser", "ranged", 2, 5, 0, "RG8")]},
        {"arm": 6},
        faces=[6, 5, 6],
        rows=[". . 2 . . . . . . . . ."] + FLAT_12[1:],
        red_square="C1",
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    roll = one(events, "roll")
    assert roll["skill"] == 6  # SKL 5 + High Ground
    assert one(events, "attack")["strikes"] == 1  # the 6 missed, the 5 hit
    assert one(events, "saves")["needed"] == 6 and hit_of(match, "Bo") == 2  # a 6 still fails


def test_dam_zero_against_arm_one_saves_on_one() -> None:
    """Our ruling: a 1 always saves (ARM 1 - DAM 1 = 0 still saves on a 1)."""
    match = duel(blue={"arm": 1}, faces=[2, 6, 1])
    match.apply(Shoot(0, "Ada", "Bo"))
    assert hit_of(match, "Bo") == 3


def test_to_reroll_and_modify_attack_dice() -> None:
    """Lite rulebook Tactical Orders: re-roll any one die, or change a die by +/-1 (1 TO each)."""
    match = duel(faces=[4, 5, 2, 3, 3], orders=(2, 0))
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert "attack" not in [e.kind for e in events]  # waits for Red's decision
    match.apply(Reroll(0, 1))  # 4 -> 2
    events = match.apply(Modify(0, 2, -1))  # 5 -> 4: still a miss; no TO left: resolved
    assert one(events, "attack")["strikes"] == 1
    assert hit_of(match, "Bo") == 2
    assert match.state.squads[0].orders == 0


def test_accept_resolves_the_roll() -> None:
    match = duel(faces=[4, 5], orders=(1, 0))
    match.apply(Shoot(0, "Ada", "Bo"))
    events = match.apply(Accept(0))
    assert one(events, "attack")["strikes"] == 0


# --- Modifiers -----------------------------------------------------------------------------------
def test_ranged_high_ground_two_levels() -> None:
    """Lite rulebook Ranged Combat Modifiers, High Ground: target at least 2 squares lower:
    SKL +1 (a 4 hits with SKL 3)."""
    rows = [". . 2 . . . . . . . . ."] + FLAT_12[1:]
    match = duel(faces=[4, 6, 6], rows=rows, red_square="C1")
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert one(events, "roll")["skill"] == 4 and one(events, "attack")["strikes"] == 1


def test_ranged_one_level_is_not_high_ground() -> None:
    rows = [". . 1 . . . . . . . . ."] + FLAT_12[1:]
    match = duel(faces=[4, 6], rows=rows, red_square="C1")
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert one(events, "roll")["skill"] == 3


def test_friendly_fire_costs_one_die() -> None:
    """Lite rulebook Ranged Combat Modifiers, Friendly Fire: a squadmate of the attacker adjacent
    to the target: ROA -1 (and, unlike Skirm, the shot is allowed)."""
    match = lite_match(
        {0: [agent("Ada", "C3"), agent("Cy", "D8")], 1: [agent("Bo", "C8")]}, faces=[4]
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert len(one(events, "roll")["faces"]) == 1


LOW_WALL = ["C7|C8: wall=1"]  # on the edge of Bo's square facing Ada


def test_cover_adds_one_to_arm() -> None:
    """Lite rulebook Ranged Combat Modifiers, Cover: Target ARM +1 (cover as the full rules
    and our sight code decide): ARM 3 + 1 - DAM 1 = 3, so a save of 3 saves."""
    match = duel(faces=[2, 6, 3], edges=LOW_WALL)
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert one(events, "attack")["cover"] is True
    assert one(events, "saves")["needed"] == 3 and hit_of(match, "Bo") == 3


def test_high_ground_does_not_take_cover_away() -> None:
    """Lite rulebook Ranged Combat Modifiers: High Ground gives "Attacker SKL +1" and Cover
    "Target ARM +1"; the full rules' "Target does not benefit from Cover" is not in Lite. Ada two
    levels up hits with a 4 (SKL 3 + 1), and Bo behind the low wall saves a 3 (ARM 3 + 1 - DAM 1)."""
    rows = [". . 2 . . . . . . . . ."] + FLAT_12[1:]
    match = duel(faces=[4, 6, 3], rows=rows, red_square="C1", edges=LOW_WALL)
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert one(events, "roll")["skill"] == 4 and one(events, "attack")["cover"] is True
    assert one(events, "saves")["needed"] == 3 and hit_of(match, "Bo") == 3


def test_ncv_denies_cover() -> None:
    """Lite rulebook NCV: the target is never considered to be in Cover."""
    match = duel(
        {"weapons": [gun("Flamer", "ranged", 2, 3, 1, "RG8", "NCV")]},
        faces=[2, 6, 3],
        edges=LOW_WALL,
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert one(events, "attack")["cover"] is False and hit_of(match, "Bo") == 2


def test_no_cover_in_melee() -> None:
    match = duel(faces=[2, 6, 3], edges=["C3|C4: wall=1"], blue_square="C4")
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert one(events, "attack")["cover"] is False


def test_melee_high_ground_one_level() -> None:
    """Lite rulebook Melee Combat Modifiers, High Ground: target 1 square lower: SKL +1."""
    rows = FLAT_12[:2] + [". . 1 . . . . . . . . ."] + FLAT_12[3:]
    match = duel(faces=[4, 6, 6], rows=rows, blue_square="C4")
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert one(events, "roll")["skill"] == 4


def test_melee_support_adds_a_die() -> None:
    """Lite rulebook Melee Combat Modifiers, Support: a squadmate adjacent to the target: ROA +1."""
    match = lite_match(
        {0: [agent("Ada", "C3"), agent("Cy", "D5")], 1: [agent("Bo", "C4")]}, faces=[6, 6, 6]
    )
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert len(one(events, "roll")["faces"]) == 3 and one(events, "attack")["support"] is True


def test_ranged_target_must_not_be_adjacent() -> None:
    """Our ruling (full rules' Ranged restrictions): not an adjacent target."""
    match = duel(faces=[], blue_square="C4")
    refused(match, Shoot(0, "Ada", "Bo"), "adjacent")


def test_range_rgx_limits_the_target() -> None:
    """Lite rulebook RGx: the weapon's maximum range."""
    match = duel({"weapons": [gun("Pistol", "ranged", 1, 3, 1, "RG4")]}, faces=[])
    refused(match, Shoot(0, "Ada", "Bo"), "RG4")


# --- Damage: Downed, Revive, removal -------------------------------------------------------------
def _down_bo(match: LiteMatch) -> None:
    match.apply(Melee(0, "Ada", "Bo"))
    assert match.state.units["Bo"].status == DOWNED


def test_zero_hit_is_downed_and_cannot_activate() -> None:
    """Lite rulebook Damage: at zero HIT the Agent is Downed and cannot be activated."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "J10")]},
        faces=[3, 6, 4],
    )
    _down_bo(match)
    match.apply(EndActivation(0))
    refused(match, Move(1, "Bo", "C6"), "Downed")
    assert str(match.state.units["Bo"].square) == "C4"


def test_downed_agent_is_no_target() -> None:
    """Our ruling: a Downed Agent is no target of Melee or Ranged Combat."""
    match = lite_match(
        {
            0: [agent("Ada", "C3"), agent("Cy", "C10")],
            1: [agent("Bo", "C4", hit=1), agent("Di", "L12")],
        },
        faces=[3, 6, 4],
    )
    _down_bo(match)
    match.apply(EndActivation(0))
    match.apply(EndActivation(1, "Di"))
    refused(match, Shoot(0, "Cy", "Bo"), "Downed")


def test_downed_agents_removed_at_end_of_turn() -> None:
    """Lite rulebook End of Turn: remove all Downed Agents (they can no longer be revived)."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "J12")]},
        faces=[3, 6, 4] + new_turn_faces(0),
        scoring=[{"kind": "take_out", "points": 1}],
    )
    _down_bo(match)
    match.apply(EndActivation(0))
    events = match.apply(EndActivation(1, "Di"))
    assert match.state.units["Bo"].status == TAKEN_OUT and match.state.units["Bo"].square is None
    assert any(e.kind == "taken_out" and e.data["unit"] == "Bo" for e in events)
    assert match.state.squads[0].mp == 1  # take_out scoring counts the removed Agent


def test_revive_costs_two_orders_and_returns_with_1d3_hit() -> None:
    """Lite rulebook Revive (2 TO): an adjacent Downed squadmate returns with 1D3 HIT and counts
    as already activated."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=2), agent("Di", "D5")]},
        faces=[1, 6, 4, 4, 2],
        orders=(0, 2),
    )
    _down_bo(match)
    match.apply(Move(0, "Ada", "C1"))  # steps away from Bo so the revive is allowed
    match.apply(EndActivation(0))
    events = match.apply(Revive(1, "Di", "Bo"))
    assert one(events, "revived")["roll"] == 2
    bo = match.state.units["Bo"]
    assert (bo.status, bo.hit) == (ACTIVATED, 2)
    assert match.state.squads[1].orders == 0
    assert match.state.taken_out_this_turn == []


def test_revive_refused_with_one_order() -> None:
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "D5")]},
        faces=[3, 6, 4],
        orders=(0, 1),
    )
    _down_bo(match)
    match.apply(Move(0, "Ada", "C1"))
    match.apply(EndActivation(0))
    refused(match, Revive(1, "Di", "Bo"), "2 TO")


def test_revive_refused_next_to_a_standing_enemy() -> None:
    """Lite rulebook Revive: not if the Downed Agent is adjacent to a Standing enemy."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "D5")]},
        faces=[3, 6, 4],
        orders=(0, 2),
    )
    _down_bo(match)
    match.apply(EndActivation(0))
    refused(match, Revive(1, "Di", "Bo"), "Standing enemy")


def test_revive_refused_for_a_standing_agent() -> None:
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "H8"), agent("Di", "H9")]}, orders=(0, 2)
    )
    match.apply(EndActivation(0, "Ada"))
    refused(match, Revive(1, "Di", "Bo"), "not Downed")


def test_downed_agent_drops_its_marker() -> None:
    """Our ruling: a Downed Agent drops the marker it carries on its square."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "J12")]},
        faces=[3, 6, 4],
        objectives=["C4"],
        mission_extra={"markers": [1]},
    )
    bo = match.state.units["Bo"]
    marker = next(iter(match.state.items.values()))
    marker.square, marker.carried_by, bo.carrying = None, "Bo", marker.id
    _down_bo(match)
    assert bo.carrying is None and str(marker.square) == "C4"


# --- what a Downed Agent does to the board (our rulings) -----------------------------------------
def test_downed_agent_blocks_no_line_of_sight() -> None:
    """Our ruling: a Downed Agent lies on its side and hides nothing (a Standing one would)."""
    match = lite_match(
        {
            0: [agent("Ada", "C3"), agent("Cy", "D5")],
            1: [agent("Bo", "C6", hit=1), agent("Di", "C9")],
        },
        faces=[3, 6, 4, 5, 5],
    )
    match.apply(Melee(0, "Cy", "Bo"))  # Bo Downed on C6, between Ada and Di
    match.apply(EndActivation(0))
    match.apply(EndActivation(1, "Di"))
    events = match.apply(Shoot(0, "Ada", "Di"))
    assert one(events, "roll")["faces"] == [5, 5]


def test_no_move_ends_on_a_downed_agent_but_may_pass_over() -> None:
    """Our ruling: any Agent may pass over a Downed Agent's square; none may end a move on it."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "L12")]},
        faces=[3, 6, 4],
    )
    _down_bo(match)
    refused(match, Dash(0, "Ada", "C4"), "cannot reach C4")
    match.apply(Dash(0, "Ada", "C5"))  # straight over Bo
    assert str(match.state.units["Ada"].square) == "C5"


def test_downed_agent_holds_no_objective() -> None:
    """Our ruling: a Downed Agent neither controls nor contests an objective."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "L12")]},
        faces=[3, 6, 4] + new_turn_faces(0),
        objectives=["C4", "C3"],
    )
    _down_bo(match)
    match.apply(EndActivation(0))
    match.apply(EndActivation(1, "Di"))
    assert [s.mp for s in match.state.squads] == [1, 0]  # Ada holds C3; Bo's C4 nobody's


# --- Sentry Actions ------------------------------------------------------------------------------
def _sentry_match(faces: list[int]) -> LiteMatch:
    """Red: one Agent; Blue: two. After Ada activates, Blue activates Bo; then Red, with fewer
    Agents in play and none to activate, may make a Sentry Action before Di activates."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C8"), agent("Di", "J12")]}, faces=faces
    )
    match.apply(EndActivation(0, "Ada"))
    match.apply(EndActivation(1, "Bo"))
    return match


def test_sentry_turn_goes_to_the_smaller_squad() -> None:
    """Lite rulebook Sentry Actions: when it is your turn but all your Agents have activated."""
    match = _sentry_match([])
    assert match.state.to_act == 0 and match.state.activation is None


def test_sentry_shoot_is_free() -> None:
    """Lite rulebook Sentry Actions: no ACT or TO; Ranged Combat allowed even if done already."""
    match = _sentry_match([3, 6, 3])
    events = match.apply(Sentry(0, "Ada", "shoot", "Bo"))
    assert "cost_paid" not in [e.kind for e in events]
    assert hit_of(match, "Bo") == 2
    assert match.state.to_act == 1 and match.state.activation is None


def test_sentry_dash_then_not_again() -> None:
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C8"), agent("Di", "J12"), agent("Ed", "L12")]}
    )
    match.apply(EndActivation(0, "Ada"))
    match.apply(EndActivation(1, "Bo"))
    match.apply(Sentry(0, "Ada", "dash", square="C5"))
    match.apply(EndActivation(1, "Di"))
    # Lite rulebook Sentry Actions: at most one per Agent per Turn, so Blue goes on with Ed
    assert match.state.to_act == 1
    refused(match, Sentry(0, "Ada", "dash", square="C6"), "Blue's activation")


def test_sentry_pass_with_end() -> None:
    match = _sentry_match([])
    events = match.apply(EndActivation(0))
    assert one(events, "sentry_passed")["side"] == 0 and match.state.to_act == 1


def test_sentry_refused_when_not_smaller() -> None:
    match = lite_match({0: [agent("Ada", "C3")], 1: [agent("Bo", "C8")]})
    refused(match, Sentry(0, "Ada", "dash", square="C4"), "fewer Agents")


def test_sentry_no_other_action() -> None:
    match = _sentry_match([])
    refused(match, Sentry(0, "Ada", "move", square="C5"), "not a Sentry Action")


# --- Skirm refuses Lite's commands --------------------------------------------------------------
def test_skirm_refuses_revive_and_sentry() -> None:
    """A Skirm match has no Revive or Sentry: a plain error, and nothing changes."""
    from builders import skirm_match, unit

    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C8")]})
    refused(match, Revive(0, "Remus", "Vex"), "no 'revive' action in Skirm")
    refused(match, Sentry(0, "Remus", "dash", square="C4"), "no 'sentry' action in Skirm")


def test_lite_refuses_skirm_only_commands() -> None:
    from skirmbot.rules.skirm.commands import Delay, Leap

    match = duel(faces=[])
    with pytest.raises(IllegalCommand, match="no 'leap' action in Skirm Lite"):
        match.apply(Leap(0, "Ada", "C5"))
    with pytest.raises(IllegalCommand, match="no 'delay' action"):
        match.apply(Delay(0))


def test_ready_after_new_turn() -> None:
    match = duel(faces=new_turn_faces(0))
    match.apply(EndActivation(0, "Ada"))
    match.apply(EndActivation(1, "Bo"))
    assert match.state.turn == 2 and match.state.units["Ada"].status == READY


def test_move_and_dash_are_different_actions() -> None:
    """Our ruling: Move and Dash are listed apart, so both may be done in one activation."""
    match = duel(faces=[])
    match.apply(Move(0, "Ada", "C5"))
    match.apply(Dash(0, "Ada", "C7"))
    assert str(match.state.units["Ada"].square) == "C7"


def test_pick_up_and_drop_are_different_actions() -> None:
    """Our ruling: Lite lists Pick Up and Drop as two actions."""
    from skirmbot.rules.commands import Drop, PickUp

    match = duel(faces=[], objectives=["C3"], mission_extra={"markers": [1]})
    match.apply(PickUp(0, "Ada"))
    match.apply(Drop(0, "Ada"))
    refused(match, PickUp(0, "Ada"), "may not repeat")


def test_changed_die_is_never_critical() -> None:
    """Our ruling: a die changed to 1 with a Tactical Order hits but is not a Critical."""
    match = duel(faces=[2, 6, 6], orders=(1, 0))
    match.apply(Shoot(0, "Ada", "Bo"))
    events = match.apply(Modify(0, 1, -1))
    assert one(events, "attack")["strikes"] == 1 and one(events, "attack")["criticals"] == 0


def test_revive_never_above_card_hit() -> None:
    """Our ruling: Revive's 1D3 HIT never exceeds the card's HIT."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "D5")]},
        faces=[3, 6, 4, 3],
        orders=(0, 2),
    )
    _down_bo(match)
    match.apply(Move(0, "Ada", "C1"))
    match.apply(EndActivation(0))
    match.apply(Revive(1, "Di", "Bo"))
    assert match.state.units["Bo"].hit == 1


def test_revive_refused_when_reviver_next_to_a_standing_enemy() -> None:
    """Lite rulebook Revive: not if the reviving Agent is adjacent to a Standing enemy."""
    match = lite_match(
        {
            0: [agent("Ada", "C3"), agent("Cy", "E6")],
            1: [agent("Bo", "C4", hit=1), agent("Di", "E5")],
        },
        faces=[3, 6, 4],
        orders=(0, 2),
    )
    match.apply(Melee(0, "Ada", "Bo"))
    match.apply(Move(0, "Ada", "A1"))
    match.apply(EndActivation(0))
    match.apply(Dash(1, "Di", "D5"))
    refused(match, Revive(1, "Di", "Bo"), "Di is adjacent to Cy")


def test_a_record_before_version_4_replays_with_the_full_games_cover() -> None:
    """A Lite match stored before Lite's own cover rule (record version 4, issue 28) replays as
    it was played: there, High Ground took Bo's cover away, so a 3 did not save (ARM 3 - DAM 1)."""
    rows = [". . 2 . . . . . . . . ."] + FLAT_12[1:]
    match = duel(faces=[4, 6, 3], rows=rows, red_square="C1", edges=LOW_WALL)
    match.started_under(3)
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert one(events, "attack")["cover"] is False and hit_of(match, "Bo") == 2
    now = duel(faces=[4, 6, 3], rows=rows, red_square="C1", edges=LOW_WALL)
    now.started_under(RECORD_VERSION)
    assert one(now.apply(Shoot(0, "Ada", "Bo")), "attack")["cover"] is True


@pytest.mark.parametrize(("version", "full_game"), [(2, True), (3, True), (RECORD_VERSION, False)])
def test_a_lite_records_version_says_whose_cover_it_plays(version: int, full_game: bool) -> None:
    record = MatchRecord(default_content(rules=RULESET.name), {"seed": 1}, ruleset=RULESET.name)
    assert record.version == RECORD_VERSION  # a new match plays Lite's own cover
    assert start_match(replace(record, version=version)).state.full_game_cover is full_game
