"""The infantry rules' engine: the turn sequence, activations, movement and special actions,
melee, explosives, hits and victory (rulebook 002; plan sections 1-3).

Matches are built from the shipped content (Crossroads, Riflemen against the Laser Team, seat 0
first) with scripted dice; troopers are set down by hand where a test needs them.
"""

from __future__ import annotations

import pytest

from skirmbot.rules.commands import Activate, Concede, Deploy, EndActivation, Melee, Shoot
from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.infantry import card
from skirmbot.rules.infantry.commands import (
    Arc,
    ChangeWeapon,
    Climb,
    DropItem,
    Move,
    Prone,
    Stand,
    Take,
    Throw,
)
from skirmbot.rules.infantry.engine import InfantryMatch
from skirmbot.rules.infantry.export import recorded_result, state_json
from skirmbot.rules.infantry.setup import new_state
from skirmbot.rules.infantry.state import Arc as ArcState
from skirmbot.rules.infantry.state import PendingMelee, Trooper
from tests.infantry_helpers import (
    content,
    dice_left,
    fresh,
    kinds,
    knock_out,
    of_kind,
    pass_turn,
    play,
    put,
)

MISS = [1, 1]


def refused(match: InfantryMatch, command: object, words: str) -> None:
    """The command is refused in words and changes nothing, rolling no die."""
    before, dice = state_json(match.state), dice_left(match)
    with pytest.raises(IllegalCommand, match=words):
        match.apply(command)  # type: ignore[arg-type]
    assert state_json(match.state) == before and dice_left(match) == dice


# --- the turn sequence ---------------------------------------------------------------------------
def test_the_first_side_is_rolled_1d6_each_ties_rolled_again() -> None:
    """Our ruling (docs/plans/infantry.md §2, the turn sequence): "1D6 each side, reroll ties,
    higher goes first"."""
    match = InfantryMatch(new_state(content()), ScriptedDice([3, 3, 2, 5]))
    placements = [
        {"Hale": "A1", "Rossi": "B1", "Brandt": "D1", "Okafor": "E1"},
        {"Ishida": "A12", "Varga": "B12", "Nkemelu": "C12", "Sorensen": "E12"},
    ]
    events = play(match, Deploy(0, placements[0]), Deploy(1, placements[1]))
    assert of_kind(events, "roll_off") == [{"rolls": [[3, 3], [2, 5]], "first": 1}]
    assert match.state.to_act == 1 and match.state.round == 1


def test_every_able_trooper_activates_once_then_the_other_side_goes() -> None:
    """Our ruling (§2, the turn sequence): "each of its able troopers activates once, in any
    order the player picks ... When every trooper of the side has activated ... the other
    side's turn"; the dead and unconscious do not activate."""
    match = fresh()
    knock_out(match.state.trooper("Brandt"))
    for unit in ("Okafor", "Hale"):
        play(match, Activate(0, unit), EndActivation(0))
        refused(match, Activate(0, unit), "already activated")
    refused(match, Activate(0, "Brandt"), "unconscious")
    events = play(match, Activate(0, "Rossi"), EndActivation(0))
    assert kinds(events)[-2:] == ["turn_ended", "turn_started"] and match.state.to_act == 1


def test_end_with_no_activation_in_progress_ends_the_sides_turn() -> None:
    """Our ruling (§2): an activation ends by `end`; `end` with none in progress passes the
    rest of the side's turn."""
    match = fresh()
    play(match, Activate(0, "Okafor"))
    events = play(match, EndActivation(0), EndActivation(0))
    assert kinds(events) == [
        "activation_ended", "turn_passed", "turn_ended", "turn_started",
    ]  # fmt: skip
    refused(match, Activate(0, "Hale"), "Laser Team's turn")


def test_end_naming_a_trooper_not_yet_activated_lets_it_do_nothing() -> None:
    """Our ruling (§2): `end` naming a trooper activates it and ends its activation at once; the
    arcs it stands in still get their chance ("activates in", Firing Arcs ¶2)."""
    match = fresh(MISS)
    put(match, "Okafor", "G2")
    play(match, Arc(0, "Okafor", 150, "G10"), EndActivation(0), EndActivation(0, "Hale"))
    assert match.state.trooper("Hale").activated and match.state.to_act == 0
    pass_turn(match)
    put(match, "Sorensen", "G6")
    events = match.apply(EndActivation(1, "Sorensen"))
    assert kinds(events) == ["activation_started", "attack", "activation_ended"]


def test_ap_spent_start_afresh_each_turn_of_the_side() -> None:
    """Our ruling (§2): AP "spent this turn" is counted per turn."""
    match = fresh()
    play(match, Move(0, "Okafor", "H3"))
    assert match.state.trooper("Okafor").spent > 0
    pass_turn(match)
    pass_turn(match)
    assert match.state.trooper("Okafor").spent == 0 and match.state.round == 2


def test_an_activation_with_every_ap_spent_ends_by_itself() -> None:
    """Our ruling (§2): an activation "ends by `end`, or when no AP is left"."""
    match = fresh()
    events = play(match, Move(0, "Okafor", "H2"), Arc(0, "Okafor", 150, "G10"), Prone(0, "Hale"))
    assert "activation_ended" in kinds(events)
    assert match.state.trooper("Okafor").activated and match.state.activating == "Hale"


def test_one_activation_at_a_time() -> None:
    """Our ruling (§2): troopers activate one at a time; another's order waits for `end`."""
    match = fresh()
    play(match, Activate(0, "Okafor"))
    refused(match, Move(0, "Hale", "B3"), "Okafor is activating")


def test_after_the_last_round_the_pv_of_enemies_put_out_wins() -> None:
    """Our ruling (§2, victory): "after the last round each side scores the PV of enemy
    troopers dead or unconscious; more wins"."""
    data = content()
    data["mission"] = {**data["mission"], "rounds": 1}
    match = InfantryMatch(new_state(data), ScriptedDice([6, 1]))
    play(
        match,
        Deploy(0, {"Hale": "A1", "Rossi": "B1", "Brandt": "D1", "Okafor": "E1"}),
        Deploy(1, {"Ishida": "A12", "Varga": "B12", "Nkemelu": "C12", "Sorensen": "E12"}),
    )
    knock_out(match.state.trooper("Sorensen"))
    pass_turn(match)
    events = pass_turn(match)
    sorensen_pv = match.state.trooper("Sorensen").recruit.pv
    assert of_kind(events, "match_over")[0]["scores"] == [sorensen_pv, 0]
    assert match.state.over and match.state.winner == 0
    assert recorded_result(match.state) == {
        "winner": 0,
        "scores": [sorensen_pv, 0],
        "reason": match.state.result,
    }
    refused(match, Activate(0, "Hale"), "over")


def test_a_side_with_no_trooper_standing_loses_at_once() -> None:
    """Our ruling (§2, victory): "A side whose troopers are all dead, unconscious ... loses at
    once"."""
    match = fresh([6, 6, 6, 6])
    for unit in ("Ishida", "Varga", "Nkemelu"):
        knock_out(match.state.trooper(unit))
    put(match, "Okafor", "G2")
    play(match, Arc(0, "Okafor", 30, "G10"), EndActivation(0))
    pass_turn(match)
    sorensen = put(match, "Sorensen", "G6")
    sorensen.track = card.Track((card.Mark.FULL,) * 8 + (card.Mark.CLEAN,) * 2, 0)
    events = match.apply(Activate(1, "Sorensen"))
    assert kinds(events)[-1] == "match_over" and match.state.winner == 0


def test_a_concession_ends_the_match() -> None:
    """Our ruling (§2, victory): a side whose player conceded loses."""
    match = fresh()
    events = match.apply(Concede(0))
    assert match.state.over and match.state.winner == 1 and kinds(events)[-1] == "match_over"


def test_skirmishers_do_not_shoot_they_set_arcs() -> None:
    """Firing Arcs ¶1-2: fire comes from firing arcs only ("When an enemy trooper activates in
    or moves into the firing arc, the firing trooper may fire"); the kernel's Shoot is refused
    in words that say how to set one."""
    refused(fresh(), Shoot(0, "Okafor", "Sorensen"), "Skirmishers fire from firing arcs: /act arc")
    refused(fresh(), Shoot(0, "Okafor", "Sorensen"), "activates in it or moves into it")


def test_the_kernels_move_is_this_move() -> None:
    """/move sends the kernel's Move: it is played as this rulebook's Move to its square."""
    match = fresh()
    match.apply(KernelMove(0, "Okafor", "H2", 0))
    assert str(match.state.trooper("Okafor").dot) == "H2"


# --- movement --------------------------------------------------------------------------------------
def test_the_combat_actions() -> None:
    """Combat ¶1: "remaining AP for combat actions, such as establishing a firing arc, ... hand
    to hand ... explosives": each of Arc, Melee and Throw is one, so movement stops after it."""
    for setup, action in [
        ([], Arc(0, "Okafor", 30, "G10")),
        ([], Melee(0, "Okafor", "Sorensen", "Knife")),
        ([ChangeWeapon(0, "Okafor", "Hand Grenade")], Throw(0, "Okafor", "G7")),
    ]:
        match = fresh()
        put(match, "Okafor", "G5")
        put(match, "Sorensen", "G6")
        play(match, *setup, action)
        assert match.state.trooper("Okafor").combat
        refused(match, Move(0, "Okafor", "F5"), "combat action")


def test_no_move_after_a_combat_action() -> None:
    """Movement ¶1: "may move and take special actions prior to taking any combat actions"."""
    match = fresh()
    play(match, Move(0, "Okafor", "H2"), Arc(0, "Okafor", 30, "G10"))
    for order in [
        Move(0, "Okafor", "H3"),
        Prone(0, "Okafor"),
        ChangeWeapon(0, "Okafor", "Pistol"),
    ]:
        refused(match, order, "combat action")


def test_movement_stops_at_8_ap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Basic Movement ¶1: "can use a maximum of 8 AP for movement", besides the AP it has (a
    trooper given 10 AP by hand keeps 2 for combat)."""
    monkeypatch.setattr(Trooper, "max_ap", property(lambda self: 10))
    match = fresh()
    put(match, "Okafor", "N5")
    refused(match, Move(0, "Okafor", path="M5 L5 K5 J5 I5 H5 G5 F5 E5"), "8 AP for movement")
    play(match, Move(0, "Okafor", path="M5 L5 K5 J5 I5 H5 G5 F5"))
    refused(match, Move(0, "Okafor", "E5"), "0 AP of movement")
    refused(match, Prone(0, "Okafor"), "8 AP for movement")
    play(match, Arc(0, "Okafor", 30, "G10"))
    assert match.state.trooper("Okafor").spent == 10


def test_a_move_is_checked_whole_and_refused_whole() -> None:
    """Plan section 3: "The engine checks the whole path's cost first (refused whole, nothing
    changes)": a step into a tree or a trooper, or past the AP left, refuses the move."""
    match = fresh()
    put(match, "Okafor", "B6")
    put(match, "Hale", "B7")
    refused(match, Move(0, "Okafor", path="B5 B4"), "cannot walk")
    refused(match, Move(0, "Okafor", path="B7"), "trooper stands on B7")
    refused(match, Move(0, "Okafor", path="C6 D6 E6 F6 G6 H6 I6 J6"), "7 AP left")


def test_a_route_goes_around_troopers() -> None:
    """Our ruling (§2): no two troopers share a dot at one level, so the cheapest route to a
    dot goes around one in the way."""
    match = fresh()
    put(match, "Okafor", "G6")
    put(match, "Hale", "H6")
    events = play(match, Move(0, "Okafor", "I6"))
    assert "H6" not in of_kind(events, "moved")[0]["path"]


def test_prone_1_stand_2_and_prone_steps_double() -> None:
    """Basic Movement ¶5: "go prone 1 AP ... stand from a prone position 2 AP. Movement while
    prone costs double"."""
    match = fresh()
    put(match, "Okafor", "G5")
    play(match, Prone(0, "Okafor"), Move(0, "Okafor", "G6"), Stand(0, "Okafor"))
    okafor = match.state.trooper("Okafor")
    assert okafor.spent == 1 + 2 + 2 and not okafor.prone and okafor.moved == 5


def test_climbing_costs_3_on_the_stairs() -> None:
    """Basic Movement ¶4: "stairs and ladders to change levels ... costs 3 AP ... stays on the
    same dot"."""
    match = fresh(mission="the-farmhouse", battle_map="farmhouse")
    put(match, "Okafor", "I7")
    refused(match, Climb(0, "Okafor", 2), "one level at a time")
    play(match, Climb(0, "Okafor", 1))
    okafor = match.state.trooper("Okafor")
    assert (okafor.level, str(okafor.dot), okafor.spent) == (1, "I7", 3)


# --- special actions -----------------------------------------------------------------------------
def test_change_weapon_3_and_take_6() -> None:
    """Special Actions table: "Change Weapon 3, Exchange Equipment 6"."""
    match = fresh()
    play(match, ChangeWeapon(0, "Hale", "Pistol"), EndActivation(0))
    hale = match.state.trooper("Hale")
    assert (hale.active, hale.spent) == ("Pistol", 3)
    put(match, "Okafor", "G5")
    put(match, "Brandt", "G6")
    play(match, DropItem(0, "Okafor", "Pistol"), Take(0, "Okafor", "Brandt", "Pistol"))
    okafor, brandt = match.state.trooper("Okafor"), match.state.trooper("Brandt")
    assert (okafor.spent, okafor.secondary, brandt.secondary) == (6, "Pistol", None)


def test_after_a_throw_the_trooper_switches_back_free() -> None:
    """Special Actions ¶1: "switches back to their previous weapon after using a grenade or
    satchel charge, for 0 AP"."""
    match = fresh()
    put(match, "Okafor", "G2")
    play(match, ChangeWeapon(0, "Okafor", "Hand Grenade"), Throw(0, "Okafor", "G4"))
    okafor = match.state.trooper("Okafor")
    assert (okafor.active, okafor.spent, okafor.grenades) == ("Rifle", 3 + 2, 3)


def test_take_from_an_unconscious_trooper() -> None:
    """Special Actions ¶2: "take a weapon or equipment from another trooper, including a dead or
    unconscious trooper"; our ruling: not from an able enemy."""
    match = fresh()
    put(match, "Okafor", "G5")
    put(match, "Sorensen", "G6")
    refused(match, Take(0, "Okafor", "Sorensen", "Laser Pistol"), "able enemy")
    sorensen = match.state.trooper("Sorensen")  # a refusal restores the state: look again
    knock_out(sorensen)
    play(match, DropItem(0, "Okafor", "Pistol"), Take(0, "Okafor", "Sorensen", "Laser Pistol"))
    okafor = match.state.trooper("Okafor")
    assert (okafor.secondary, sorensen.secondary) == ("Laser Pistol", None)


def test_take_refused_past_the_carrying_limit() -> None:
    """Special Actions ¶2: "cannot exceed the basic carrying capabilities" (our ruling: one
    primary, one secondary, 4 hand grenades)."""
    match = fresh()
    put(match, "Okafor", "G5")
    knock_out(put(match, "Sorensen", "G6"))
    refused(match, Take(0, "Okafor", "Sorensen", "Laser SMG"), "another primary")
    refused(match, Take(0, "Okafor", "Sorensen", "Hand Grenade"), "another grenades")
    play(match, DropItem(0, "Okafor", "Rifle"), Take(0, "Okafor", "Sorensen", "Laser SMG"))
    assert match.state.trooper("Okafor").primary == "Laser SMG"


def test_a_dropped_rifle_is_picked_up_by_an_enemy() -> None:
    """Special Actions ¶2: "drop ... for 0 AP; ... any trooper, friendly or enemy, may pick
    up" (6 AP)."""
    match = fresh()
    put(match, "Okafor", "G5")
    events = play(match, DropItem(0, "Okafor", "Rifle"))
    assert of_kind(events, "dropped")[0]["square"] == "G5"
    assert match.state.trooper("Okafor").spent == 0
    pass_turn(match)
    put(match, "Sorensen", "G6")
    play(match, DropItem(1, "Sorensen", "Laser SMG"), Take(1, "Sorensen", "G5", "Rifle"))
    sorensen = match.state.trooper("Sorensen")
    assert (sorensen.primary, sorensen.spent) == ("Rifle", 6)
    assert [(str(i.dot), i.name) for i in match.state.items] == [("G6", "Laser SMG")]


# --- hits ----------------------------------------------------------------------------------------
def test_a_hit_that_leaves_no_ap_drops_the_mover_prone_and_ends_its_move() -> None:
    """Resolving Fire ¶9: "If this new AP value meets or exceeds the AP ... already spent ...
    immediately falls prone and can take no further actions"; our reading (§2): spent >= the
    new maximum. Varga (8 AP) has spent 7 entering G6; a Rifle's 4X from cell 10 leaves 6 HP and
    7 AP: it falls prone there and the last step is dropped."""
    match = fresh([6, 6, 5, 5])
    put(match, "Okafor", "G2")
    play(match, Arc(0, "Okafor", 30, "G10"), EndActivation(0))
    pass_turn(match)
    put(match, "Varga", "N6")
    events = match.apply(Move(1, "Varga", path="M6 L6 K6 J6 I6 H6 G6 F6"))
    varga = match.state.trooper("Varga")
    assert (str(varga.dot), varga.prone, varga.activated, varga.spent, varga.max_ap) == (
        "G6", True, True, 7, 7,
    )  # fmt: skip
    assert "prone" in kinds(events) and match.state.activating is None
    assert match.state.moving is None


def test_a_hit_that_leaves_ap_lets_the_move_go_on() -> None:
    """Resolving Fire ¶9 as we read it (§2): the same hit after 3 AP spent leaves AP to spend:
    the move goes on."""
    match = fresh([6, 6, 5, 5])
    put(match, "Okafor", "G2")
    play(match, Arc(0, "Okafor", 30, "G10"), EndActivation(0))
    pass_turn(match)
    put(match, "Varga", "J6")
    match.apply(Move(1, "Varga", path="I6 H6 G6 F6 E6"))
    varga = match.state.trooper("Varga")
    assert (str(varga.dot), varga.prone, card.current_hp(varga.track)) == ("E6", False, 6)


def test_a_hit_that_lowers_the_ap_stops_the_move_where_they_run_out() -> None:
    """Resolving Fire ¶9: "The corresponding maximum AP ... immediately applies": Varga, hit on
    G6 with 3 AP spent, has 7 AP now; the 8-step path it paid for stops when they run out."""
    match = fresh([6, 6, 5, 5])
    put(match, "Okafor", "G2")
    play(match, Arc(0, "Okafor", 30, "G10"), EndActivation(0))
    pass_turn(match)
    put(match, "Varga", "J6")
    events = match.apply(Move(1, "Varga", path="I6 H6 G6 F6 E6 D6 C6 B6"))
    varga = match.state.trooper("Varga")
    assert (str(varga.dot), varga.spent, varga.prone) == ("C6", 7, False)
    assert of_kind(events, "halted") == [{"unit": "Varga", "square": "C6"}]


def test_a_trooper_put_out_lies_prone_and_its_arc_and_melee_go() -> None:
    """Our ruling (§2, death and unconsciousness): "lies prone, never activates, its arc and
    pending melee are dropped"."""
    match = fresh([6, 6, 5, 5])
    put(match, "Okafor", "G2")
    sorensen = put(match, "Sorensen", "G6")
    sorensen.track = card.Track((card.Mark.FULL,) * 8 + (card.Mark.CLEAN,) * 2, 0)
    match.state.arcs.append(ArcState("Sorensen", sorensen.dot, 0, 180.0, 60, "Laser SMG", 6))
    match.state.melees.append(PendingMelee("Sorensen", "Hale", "Knife"))
    play(match, ChangeWeapon(0, "Okafor", "Hand Grenade"), Throw(0, "Okafor", "G6"))
    events = pass_turn(match)
    assert sorensen.dead and sorensen.prone and "arc_removed" in kinds(events)
    assert match.state.arcs == [] and match.state.melees == []
    refused(match, Activate(1, "Sorensen"), "dead")


# --- melee ---------------------------------------------------------------------------------------
def test_melee_waits_for_the_targets_activation() -> None:
    """Melee ¶1: "5 AP to make a melee attack ... resolved ... during the targeted trooper's
    turn when they activate, before ... any actions or movement"; Melee ¶3: base 4, no cover."""
    match = fresh([3, 3, 5, 5])
    put(match, "Okafor", "G5")
    put(match, "Sorensen", "G6")
    events = play(match, Melee(0, "Okafor", "Sorensen", "Knife"))
    assert kinds(events)[-1] == "melee_pending" and dice_left(match) == 4
    assert match.state.trooper("Okafor").spent == 5
    pass_turn(match)
    events = match.apply(Move(1, "Sorensen", path="H6"))
    assert kinds(events)[:3] == ["activation_started", "attack", "damage"]
    assert of_kind(events, "attack")[0]["tn"] == 4 and match.state.melees == []
    assert card.current_hp(match.state.trooper("Sorensen").track) == 9


def test_melee_needs_a_neighbouring_enemy_and_an_offered_weapon() -> None:
    """Melee ¶2 and our ruling (§1): a target on a neighbouring dot, the same level; a weapon the
    trooper has (fists, knife, the bayonet or club of its long arm, its active melee weapon)."""
    match = fresh()
    put(match, "Okafor", "G5")
    put(match, "Sorensen", "G7")
    refused(match, Melee(0, "Okafor", "Sorensen"), "not beside")
    put(match, "Sorensen", "G6")
    refused(match, Melee(0, "Okafor", "Sorensen", "Sword"), "Fists, Knife, Bayonet, Club")


# --- explosives ----------------------------------------------------------------------------------
def test_no_arc_after_a_throw() -> None:
    """Explosives ¶1: "cannot set up a firing arc after using an explosive"."""
    match = fresh()
    put(match, "Okafor", "G2")
    play(match, ChangeWeapon(0, "Okafor", "Hand Grenade"), Throw(0, "Okafor", "G3"))
    refused(match, Arc(0, "Okafor", 30, "G10"), "thrown an explosive")


def test_a_throw_needs_the_explosive_active() -> None:
    """Explosives ¶1: "The explosive must be the trooper's current active weapon"."""
    refused(fresh(), Throw(0, "Okafor", "H4"), "change to an explosive")


def test_a_satchel_charge_is_thrown_for_2_ap_a_dot_and_is_gone() -> None:
    """Explosives ¶1: "2 AP for each dot ... satchel charge"; the table: ammo 1, so the
    secondary it was is empty after the throw."""
    match = fresh(squads=("assault-section", "laser-team"))
    put(match, "Voss", "G2")
    play(match, ChangeWeapon(0, "Voss", "Satchel Charge"), Throw(0, "Voss", "G3"))
    voss = match.state.trooper("Voss")
    assert (voss.spent, voss.secondary, voss.active) == (3 + 2, None, "SMG")
    assert match.state.tokens[0].weapon == "Satchel Charge"


def test_a_throw_up_one_level_from_the_stairs_costs_3() -> None:
    """Explosives ¶2: "up one level, at a cost of 3 AP ... must be standing on the stairwell or
    ladder to throw ... up"; the token goes to the stairs' dot at that level."""
    match = fresh(mission="the-farmhouse", battle_map="farmhouse")
    put(match, "Okafor", "H7")
    play(match, ChangeWeapon(0, "Okafor", "Hand Grenade"))
    refused(match, Throw(0, "Okafor", "I7", 1), "standing on them")
    put(match, "Okafor", "I7")
    play(match, Throw(0, "Okafor", "I7", 1))
    token = match.state.tokens[0].token
    assert (str(token.target), token.level, match.state.trooper("Okafor").spent) == ("I7", 1, 6)


def test_grenades_resolve_at_the_end_of_the_turn_in_throw_order() -> None:
    """Explosives ¶3: "resolved at the end of the attacking side's turn. Place a token ...
    resolve ... after all troopers on your side have activated": nothing is rolled at the
    throw; at the turn's end the tokens go off in the order thrown."""
    match = fresh([6, 6, 6, 6])
    put(match, "Okafor", "G2")
    put(match, "Hale", "L2")
    for unit, target in (("Okafor", "G5"), ("Hale", "L5")):
        play(match, ChangeWeapon(0, unit, "Hand Grenade"), Throw(0, unit, target))
        play(match, EndActivation(0))
    assert dice_left(match) == 4 and len(match.state.tokens) == 2
    events = pass_turn(match)
    resolved = of_kind(events, "token_resolved")
    assert [(r["unit"], r["target"]) for r in resolved] == [("Okafor", "G5"), ("Hale", "L5")]
    assert kinds(events).index("turn_started") > kinds(events).index("blast")
    assert match.state.tokens == []


def test_a_grenade_blasts_the_troopers_near_where_it_lands() -> None:
    """Explosives ¶6: damage "starting at the targeted dot and moving outwards" (6X, 3X, 1X),
    each trooper with its own damage roll (our ruling)."""
    match = fresh([6, 6, 5, 5])
    put(match, "Okafor", "G2")
    sorensen = put(match, "Sorensen", "G6")
    play(match, ChangeWeapon(0, "Okafor", "Hand Grenade"), Throw(0, "Okafor", "G5"))
    events = pass_turn(match)
    assert of_kind(events, "damage")[0]["lethal"] == 3  # G6 is 1 dot from G5
    assert card.current_hp(sorensen.track) == 9  # 2 armour cells take 2 of the 3


# --- all or nothing ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "words"),
    [
        (Move(0, "Okafor", "Z9"), "cannot reach"),
        (Move(0, "Nobody", "B3"), "no trooper called"),
        (Move(1, "Sorensen", "B3"), "Riflemen's turn"),
        (Arc(0, "Okafor", 60, "nowhere"), "not a dot"),
        (Arc(0, "Okafor", 60, "G10", "sometimes"), "order is one of"),
        (Arc(0, "Okafor", 60, "G10", "first", 0), "how many"),
        (ChangeWeapon(0, "Okafor", "Rifle"), "already active"),
        (ChangeWeapon(0, "Okafor", "Sword"), "not a Sword"),
        (Stand(0, "Okafor"), "not prone"),
        (Climb(0, "Okafor", 1), "stairs or a ladder"),
        (DropItem(0, "Okafor", "Sword"), "not a Sword"),
    ],
)
def test_a_refused_order_changes_nothing(command: object, words: str) -> None:
    """Every order is checked before anything changes (docs/rulesets.md: a refusal in plain
    words, no change at all): not even the activation it would start."""
    match = fresh()
    refused(match, command, words)
    assert match.state.activating is None
