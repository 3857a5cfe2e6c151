"""Missions (rulebook Game Cycle, Scoring Mission Points And Controlling Objectives, Mission
Actions, Items, TCH; rulings: Turns and activations, Missions, secondary objectives, events;
docs/rulings.md, Missions).

Red (side 0) has the initiative unless a test says otherwise. Faces are scripted in the order
the rules roll them: at the start of a turn each squad's secondary card (missions with
secondaries), the roll-off, Tactical Orders, then the event roll (missions with events); then
the commands' dice.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from builders import FLAT_12, of, pass_turn, refused, skirm_match, unit

from skirmbot import content
from skirmbot.demo import default_content, new_demo_match, play_out
from skirmbot.rules.commands import Dash, EndActivation, Move, PickUp, Shoot, command_from_json
from skirmbot.rules.errors import ContentError
from skirmbot.rules.events import Event
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.record import record_of, replay
from skirmbot.rules.skirm import autoplayer, secondaries
from skirmbot.rules.skirm.commands import SKIRM_COMMANDS, MissionAction, OpenCrate
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.legal import legal_commands
from skirmbot.rules.skirm.missions import check_map_fits, mission_from_json, mission_items
from skirmbot.rules.skirm.state import ENDED

MAPS = content.names("maps")
MISSIONS = content.names("missions")




def table(effect: str, value: int | None = None, name: str = "Weather") -> list[dict[str, Any]]:
    """An event table where every face gives the same event."""
    entry: dict[str, Any] = {"roll": "1-6", "name": name, "text": "It happens.", "effect": effect}
    if value is not None:
        entry["value"] = value
    return [entry]


def mission(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Trial",
        "deployment": [{"edge": "top"}, {"edge": "bottom"}],
        "scoring": [{"kind": "control"}],
    }
    data.update(fields)
    return data


def refused_content(data: dict[str, Any], phrase: str) -> None:
    with pytest.raises(ContentError) as error:
        mission_from_json(data)
    assert phrase in str(error.value)


SHOT_TAKES_OUT = [2, 6, 6]  # Rifle: one strike (2), a miss (6); the 1-HIT target fails its save


# --- scoring kinds --------------------------------------------------------------------------------
def test_control_scores_each_objective_held() -> None:
    """Rulebook, Scoring Mission Points And Controlling Objectives (`control`): 1 MP per
    objective a unit stands on with no enemy adjacent, at the end of the turn."""
    match = skirm_match(
        {0: [unit("Remus", "C5")], 1: [unit("Vex", "J10")]},
        objectives=["C5", "F6"],
        scoring=[{"kind": "control", "points": 1}],
        turns_total=1,
    )
    events = pass_turn(match)
    assert of(events, "scored") == [{"side": 0, "points": 1, "reason": "control"}]


def test_take_out_scores_each_enemy_taken_out_this_turn() -> None:
    """docs/rulings.md, Missions (`take_out`): `points` per enemy unit the squad took out."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C6"), unit("Nyx", "H6", hit=1)]},
        scoring=[{"kind": "take_out", "points": 2}],
        faces=SHOT_TAKES_OUT,
        turns_total=1,
    )
    match.apply(Shoot(0, "Remus", "Nyx"))
    events = pass_turn(match)
    assert of(events, "scored") == [{"side": 0, "points": 2, "reason": "take_out"}]


def test_carry_scores_each_marker_carried_at_the_end_of_the_turn() -> None:
    """docs/rulings.md, Missions (`carry`) and rulebook Game Cycle (Prepare Battle Map: the
    mission places items): the mission puts a marker on objective 1; at the end of the turn each
    marker a unit of the squad carries scores `points`."""
    match = skirm_match(
        {0: [unit("Remus", "C5")], 1: [unit("Vex", "J10")]},
        objectives=["C5", "F6"],
        scoring=[{"kind": "carry", "points": 2}],
        mission_extra={"markers": [1]},
        turns_total=1,
    )
    markers = [i for i in match.state.items.values() if i.kind == "marker"]
    assert [str(i.square) for i in markers] == ["C5"]
    match.apply(PickUp(0, "Remus"))
    events = pass_turn(match)
    assert of(events, "scored") == [{"side": 0, "points": 2, "reason": "carry"}]
    assert "carries 1 marker (Remus)" in next(e.text for e in events if e.kind == "scored")


def test_carried_marker_dropped_when_the_carrier_is_taken_out_scores_nothing() -> None:
    """docs/rulings.md, Missions (`carry`): only a marker still carried at the end of the turn
    scores; a carrier Taken Out drops it where it fell."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10"), unit("Nyx", "C6", hit=1)]},
        objectives=["C6"],
        scoring=[{"kind": "carry", "points": 2}],
        mission_extra={"markers": [1]},
        faces=SHOT_TAKES_OUT,
        turns_total=1,
        initiative=1,
    )
    match.apply(PickUp(1, "Nyx"))
    match.apply(EndActivation(1))
    assert match.state.units["Nyx"].carrying == 0
    match.apply(Shoot(0, "Remus", "Nyx"))
    assert str(match.state.items[0].square) == "C6"
    events = pass_turn(match)
    assert of(events, "scored") == []


def test_leader_scores_once_for_taking_out_the_enemy_leader() -> None:
    """docs/rulings.md, Missions (`leader`): `points` for taking out the enemy Leader, scored
    at the end of that turn; a Leader is taken out only once, so it scores once."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C6", hit=1), unit("Nyx", "J10")]},
        scoring=[{"kind": "leader", "points": 4}],
        faces=[*SHOT_TAKES_OUT, 1, 2, *[6] * 4, *[6] * 3],  # turn 2: Blue has no LD dice left
        turns_total=2,
    )
    assert match.state.units["Vex"].card.is_leader
    match.apply(Shoot(0, "Remus", "Vex"))
    first = pass_turn(match)
    assert of(first, "scored") == [{"side": 0, "points": 4, "reason": "leader"}]
    assert "took out the enemy Leader (Vex)" in next(e.text for e in first if e.kind == "scored")
    second = pass_turn(match)
    assert of(second, "scored") == [] and match.state.squads[0].mp == 4
    assert match.dice.remaining == 0  # type: ignore[attr-defined]


def test_leader_scoring_ignores_other_units() -> None:
    """docs/rulings.md, Missions (`leader`): other enemy units score nothing under `leader`."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10"), unit("Nyx", "C6", hit=1)]},
        scoring=[{"kind": "leader", "points": 4}],
        faces=SHOT_TAKES_OUT,
        turns_total=1,
    )
    match.apply(Shoot(0, "Remus", "Nyx"))
    assert of(pass_turn(match), "scored") == []


def test_crates_score_each_crate_opened_this_turn() -> None:
    """docs/rulings.md, Missions (`crates`) and rulebook Items (Crate): each crate the squad
    opened during the turn scores `points` at its end; the mission may place crates."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        objectives=["F6"],
        items=[{"kind": "crate", "square": "C3"}],
        scoring=[{"kind": "crates", "points": 2}],
        mission_extra={"crates": [1]},
        turns_total=1,
    )
    assert sorted(str(i.square) for i in match.state.items.values() if i.kind == "crate") == [
        "C3",
        "F6",
    ]
    match.apply(OpenCrate(0, "Remus", "to"))
    events = pass_turn(match)
    assert of(events, "scored") == [{"side": 0, "points": 2, "reason": "crates"}]
    assert match.state.squads[0].mp == 2


def test_zone_scores_units_in_the_enemy_deployment_zone() -> None:
    """docs/rulings.md, Missions (`zone`, target enemy_deployment): each unit standing in the
    enemy's deployment zone at the end of the turn scores `points`."""
    match = skirm_match(
        {0: [unit("Remus", "C12"), unit("Ann", "E11")], 1: [unit("Vex", "J1")]},
        scoring=[{"kind": "zone", "target": "enemy_deployment", "points": 2}],
        turns_total=1,
    )
    events = pass_turn(match)  # the builder's zones are the top and bottom rows
    assert of(events, "scored") == [
        {"side": 0, "points": 2, "reason": "zone"},
        {"side": 1, "points": 2, "reason": "zone"},
    ]


def test_zone_centre_band_runs_between_the_deployment_zones() -> None:
    """docs/rulings.md, Missions (`zone`, target centre): with zones at the top and bottom, the
    band is the `depth` middle rows (rows 6 and 7 of 12 for depth 2)."""
    match = skirm_match(
        {0: [unit("Remus", "C6"), unit("Ann", "E7"), unit("Bo", "G5")], 1: [unit("Vex", "J8")]},
        scoring=[{"kind": "zone", "target": "centre", "depth": 2, "points": 1}],
        turns_total=1,
    )
    events = pass_turn(match)
    assert of(events, "scored") == [{"side": 0, "points": 2, "reason": "zone"}]


def test_scoring_waits_for_from_turn() -> None:
    """Missions (`from_turn`): a scoring entry counts only from that turn on."""
    match = skirm_match(
        {0: [unit("Remus", "C12")], 1: [unit("Vex", "J1")]},
        scoring=[{"kind": "zone", "target": "enemy_deployment", "from_turn": 2}],
        turns_total=1,
    )
    assert of(pass_turn(match), "scored") == []


# --- mission actions and TCH --------------------------------------------------------------------
ARM = {"name": "Arm the Beacon", "effect": "arm", "cost": 2, "text": "Arm it."}
STRIP = {"name": "Strip the Crate", "effect": "salvage", "cost": 2, "text": "Strip it."}


def beacon_match(**kwargs: Any) -> Match:
    placed = kwargs.pop("placed", None) or {
        0: [unit("Remus", "C5"), unit("Tek", "F6", specials=["TCH"])],
        1: [unit("Vex", "J10")],
    }
    return skirm_match(
        placed,
        objectives=kwargs.pop("objectives", ["C5", "F6", "J10"]),
        scoring=kwargs.pop("scoring", [{"kind": "beacons", "points": 1}]),
        mission_extra={"actions": [ARM, STRIP], **kwargs.pop("mission_extra", {})},
        **kwargs,
    )


def test_arm_the_beacon_costs_its_act_and_scores_every_turn() -> None:
    """Rulebook Mission Actions (a mission defines special actions) and docs/rulings.md,
    Missions (`arm`, `beacons`): 2 ACT on an objective the unit controls arms its beacon for
    the squad; each armed beacon scores at the end of every turn."""
    match = beacon_match(turns_total=2, faces=[1, 2, *[6] * 4, *[6] * 4])
    events = match.apply(MissionAction(0, "Remus", "arm the beacon"))
    assert of(events, "cost_paid") == [
        {"unit": "Remus", "action": "Arm the Beacon", "act": 2, "orders": 0}
    ]
    assert of(events, "mission_action")[0]["objective"] == 1
    assert match.state.beacons == {0: 0}
    assert match.state.to_json()["beacons"] == {"1": 0}
    first = pass_turn(match)
    assert of(first, "scored") == [{"side": 0, "points": 1, "reason": "beacons"}]
    second = pass_turn(match)
    assert of(second, "scored") == [{"side": 0, "points": 1, "reason": "beacons"}]


def test_arming_an_enemy_beacon_takes_it_over() -> None:
    """docs/rulings.md, Missions (`arm`): arming a beacon the enemy armed makes it yours."""
    match = beacon_match(
        placed={0: [unit("Remus", "J8"), unit("Tek", "F6")], 1: [unit("Vex", "J10")]},
        initiative=1,
    )
    match.apply(MissionAction(1, "Vex", "Arm the Beacon"))
    match.apply(Move(1, "Vex", "G10"))  # 3 ACT spent: the activation ends by itself
    assert match.state.beacons == {2: 1}
    match.apply(Move(0, "Remus", "J10"))
    events = match.apply(MissionAction(0, "Remus", "Arm the Beacon"))
    assert "armed for Red, taking it from Blue" in of_text(events, "mission_action")
    assert match.state.beacons == {2: 0}


def of_text(events: list[Event], kind: str) -> str:
    return next(e.text for e in events if e.kind == kind)


def test_mission_action_refusals_say_why_and_change_nothing() -> None:
    """Rulebook Mission Actions and Scoring (control): arming needs the unit to control the
    objective it stands on; an unknown name lists the mission's actions."""
    match = beacon_match(
        placed={
            0: [unit("Remus", "C5"), unit("Ann", "D8")],
            1: [unit("Vex", "D6"), unit("Nyx", "J9")],
        }
    )
    refused(match, MissionAction(0, "Remus", "Arm the Beacon"), "an enemy is adjacent")
    refused(match, MissionAction(0, "Ann", "Arm the Beacon"), "needs an objective")
    refused(match, MissionAction(0, "Ann", "Strip the Crate"), "needs a crate")
    refused(
        match,
        MissionAction(0, "Ann", "dance"),
        "Mission actions: Arm the Beacon (2 ACT), Strip the Crate (2 ACT)",
    )
    plain = skirm_match({0: [unit("Remus", "C5")], 1: [unit("Vex", "J10")]})
    refused(plain, MissionAction(0, "Remus", "Arm the Beacon"), "has no mission actions")


def test_beacon_already_armed_by_your_squad_is_refused() -> None:
    """docs/rulings.md, Missions (`arm`): arming your own beacon again would pay for nothing."""
    match = beacon_match()
    match.apply(MissionAction(0, "Remus", "Arm the Beacon"))
    refused(match, MissionAction(0, "Remus", "Arm the Beacon"), "already armed")


def test_tch_makes_one_mission_action_per_activation_1_act_cheaper() -> None:
    """Rulebook TCH ("During each of its Activations, this Unit may perform one Mission action
    for 1 less ACT"): the first mission action costs 1 less, the next one in the same
    activation its full cost."""
    match = beacon_match(mission_extra={"crates": [2]}, turns_total=1)
    events = match.apply(EndActivation(0, "Remus"))
    match.apply(EndActivation(1, "Vex"))
    events = match.apply(MissionAction(0, "Tek", "Arm the Beacon"))
    assert of(events, "cost_paid")[0]["act"] == 1
    events = match.apply(MissionAction(0, "Tek", "Strip the Crate"))
    assert of(events, "cost_paid")[0]["act"] == 2
    assert match.state.beacons == {1: 0}
    assert match.state.crates_opened_this_turn == [0]


def test_tch_discount_comes_back_next_activation_and_repeats_cost_more() -> None:
    """Rulebook TCH and rulings (An activation: each repeat of an action costs 1 more): a
    repeated mission action costs 1 more; TCH applies again in the unit's next activation."""
    crates = [{"kind": "crate", "square": "C3"}, {"kind": "crate", "square": "C4"}]
    match = skirm_match(
        {0: [unit("Tek", "C3", specials=["TCH"])], 1: [unit("Vex", "J10")]},
        items=crates,
        scoring=[{"kind": "crates", "points": 1}],
        mission_extra={"actions": [STRIP]},
        orders=(3, 0),
    )
    paid = of(match.apply(MissionAction(0, "Tek", "Strip the Crate")), "cost_paid")
    assert paid[0]["act"] == 1  # 2 ACT, TCH -1
    match.apply(Move(0, "Tek", "C4"))
    refused(match, MissionAction(0, "Tek", "Strip the Crate"), "spend 2 Tactical Orders")
    paid = of(match.apply(MissionAction(0, "Tek", "Strip the Crate", orders=2)), "cost_paid")
    assert paid == [{"unit": "Tek", "action": "Strip the Crate", "act": 1, "orders": 2}]


def test_strip_the_crate_counts_as_opening_it() -> None:
    """Rulebook Mission Actions, docs/rulings.md, Missions (`salvage`, `crates`): the crate is
    removed without taking an option and counts as a crate the squad opened this turn."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        items=[{"kind": "crate", "square": "C3"}],
        scoring=[{"kind": "crates", "points": 2}],
        mission_extra={"actions": [STRIP]},
        turns_total=1,
    )
    events = match.apply(MissionAction(0, "Remus", "Strip the Crate"))
    assert of(events, "mission_action")[0]["square"] == "C3"
    assert match.state.items[0].square is None and match.state.crate_options_taken == []
    assert of(pass_turn(match), "scored") == [{"side": 0, "points": 2, "reason": "crates"}]


def test_legal_commands_list_mission_actions_and_they_round_trip() -> None:
    """Rulebook Mission Actions: every mission action the unit can do here is a legal command
    (with the TO it needs), and the command reads back from its JSON."""
    match = beacon_match()
    listed = [c for c in legal_commands(match.state, 0) if isinstance(c, MissionAction)]
    assert listed == [
        MissionAction(0, "Remus", "Arm the Beacon", 0),
        MissionAction(0, "Tek", "Arm the Beacon", 0),
    ]
    assert command_from_json(listed[0].to_json(), SKIRM_COMMANDS) == listed[0]
    match.apply(listed[0])


# --- environment events ---------------------------------------------------------------------
def test_initiative_squad_rolls_the_event_after_tactical_orders() -> None:
    """Rulebook Game Cycle (The Squad with the Initiative rolls for the Mission's Events, after
    Tactical Orders): the roll picks the table's line; `none` changes nothing."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        initiative=1,
        mission_extra={
            "environment": "Fog bank",
            "events": [
                {"roll": "1-3", "name": "Calm", "text": "Nothing.", "effect": "none"},
                {"roll": "4-6", "name": "Mud", "text": "No Dash.", "effect": "no_dash"},
            ],
        },
        event_roll=5,
    )
    kinds = [e.kind for e in match.log]
    assert kinds.index("mission_event") > max(
        i for i, k in enumerate(kinds) if k == "orders_rolled"
    )
    event = of(match.log, "mission_event")[0]
    assert (event["side"], event["roll"], event["name"]) == (1, 5, "Mud")
    assert "Blue rolls 5 for the mission's events (Fog bank): Mud." in of_text(
        match.log, "mission_event"
    )
    assert match.state.to_json()["event"]["effect"] == "no_dash"


def test_no_dash_event() -> None:
    """docs/rulings.md, Missions (event `no_dash`): no unit may Dash this turn."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        mission_extra={"events": table("no_dash", name="Deep Mud")},
    )
    refused(match, Dash(0, "Remus", "C4"), "No unit may Dash this turn (Deep Mud).")
    assert not any(isinstance(c, Dash) for c in legal_commands(match.state, 0))
    assert any(isinstance(c, Move) for c in legal_commands(match.state, 0))


def test_orders_event_each_squad_loses_one_order_never_below_zero() -> None:
    """docs/rulings.md, Missions (event `orders`): every squad gains or loses `value` TO."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        orders=(2, 0),
        mission_extra={"events": table("orders", -1)},
    )
    assert [s.orders for s in match.state.squads] == [1, 0]
    assert "each squad loses 1 TO (Red 2 → 1, Blue 0 → 0)" in of_text(match.log, "event_effect")


def test_underdog_event_gives_orders_to_the_smaller_squad() -> None:
    """docs/rulings.md, Missions (event `underdog`): the squad with fewer units on the map
    gains `value` TO; with equal numbers nobody does."""
    match = skirm_match(
        {0: [unit("Remus", "C3"), unit("Ann", "D3")], 1: [unit("Vex", "J10")]},
        orders=(1, 1),
        mission_extra={"events": table("underdog", 2)},
    )
    assert [s.orders for s in match.state.squads] == [1, 3]
    even = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        orders=(1, 1),
        mission_extra={"events": table("underdog", 1)},
    )
    assert [s.orders for s in even.state.squads] == [1, 1]


def test_hazard_event_damages_units_on_difficult_ground_saved_as_usual() -> None:
    """docs/rulings.md, Missions (event `hazard`) and rulebook Combat (saves): each unit on
    difficult ground takes `value` damage and rolls its saves, in reading order; others are
    untouched; a unit the event takes out scores for nobody."""
    rows = list(FLAT_12)
    rows[2] = "~ ~ ~ . . . . . . . . ."
    match = skirm_match(
        {0: [unit("Remus", "C3"), unit("Ann", "B3", hit=1)], 1: [unit("Vex", "J10")]},
        rows=rows,
        scoring=[{"kind": "take_out"}],
        mission_extra={"events": table("hazard", 1, name="Acid Seep")},
        faces=[6, 1],  # Ann (B3) fails her save, Remus (C3) saves
        turns_total=1,
    )
    assert of_text(match.log, "event_effect") == (
        "Acid Seep: 1 damage to every unit on difficult ground: Ann on B3, Remus on C3."
    )
    saves = of(match.log, "saves")
    assert [(s["unit"], s["lost"]) for s in saves] == [("Ann", 1), ("Remus", 0)]
    taken = of(match.log, "taken_out")
    assert [(t["unit"], t["by_side"], t["kind"]) for t in taken] == [("Ann", None, "event")]
    assert match.dice.remaining == 0  # type: ignore[attr-defined]
    assert of(pass_turn(match), "scored") == []


def test_hazard_event_that_takes_out_the_initiative_squad_passes_the_turn() -> None:
    """Rulebook Alternate Activations and rulings (The match ends: at the end of the turn in
    which a squad has no unit left): the other squad activates, then the match ends."""
    rows = list(FLAT_12)
    rows[2] = "~ ~ ~ . . . . . . . . ."
    match = skirm_match(
        {0: [unit("Ann", "B3", hit=1)], 1: [unit("Vex", "J10")]},
        rows=rows,
        mission_extra={"events": table("hazard", 1)},
        faces=[6],
    )
    assert match.state.to_act == 1
    pass_turn(match)
    assert match.state.phase == ENDED


def test_max_range_event_shortens_ranged_attacks() -> None:
    """docs/rulings.md, Missions (event `max_range`): ranged attacks reach at most `value`
    squares this turn; closer targets are still fine, melee is not affected."""
    match = skirm_match(
        {0: [unit("Remus", "C1")], 1: [unit("Vex", "C6"), unit("Nyx", "H5")]},
        mission_extra={"events": table("max_range", 4, name="Pitch Dark")},
        faces=[6, 6],
    )
    refused(
        match,
        Shoot(0, "Remus", "Vex"),
        "ranged attacks reach at most 4 squares this turn (Pitch Dark)",
    )
    targets = {c.target for c in legal_commands(match.state, 0) if isinstance(c, Shoot)}
    assert "Vex" not in targets
    match.apply(Move(0, "Remus", "C2"))
    assert "Vex" in {c.target for c in legal_commands(match.state, 0) if isinstance(c, Shoot)}
    match.apply(Shoot(0, "Remus", "Vex"))  # 4 squares: allowed


def test_event_table_must_cover_every_face() -> None:
    """Rulebook Game Cycle (1D6 event roll), docs/rulings.md, Missions: a table gives each
    face exactly once, and each effect takes the value it needs."""
    gap = [{"roll": "1-5", "name": "A", "text": "", "effect": "none"}]
    refused_content(mission(events=gap), "must give each face of 1D6 exactly once")
    refused_content(mission(events=table("orders", 0)), "takes a 'value' of -2 to 2, not 0")
    refused_content(mission(events=table("none", 3)), "takes no 'value'")
    refused_content(mission(events=table("storm")), "needs an 'effect' of none, no_dash")
    bad_roll = [{"roll": "6-1", "name": "A", "text": "", "effect": "none"}]
    refused_content(mission(events=bad_roll), "an event's 'roll' is a face of 1D6")


# --- secondary objectives ---------------------------------------------------------------------
def test_deck_is_original_and_sized() -> None:
    """Rulings: Missions, secondary objectives (skirmbot's own deck): 8 to 12 cards with unique
    ids, each with a condition the engine knows and 1 to 3 MP."""
    deck = secondaries.DECK
    assert 8 <= len(deck) <= 12
    assert len({card.id for card in deck}) == len(deck)
    for card in deck:
        assert card.condition in secondaries.CONDITIONS and 1 <= card.points <= 3


def card_index(card_id: str) -> int:
    return [card.id for card in secondaries.DECK].index(card_id) + 1


def test_each_squad_draws_a_hidden_card_before_the_roll_off() -> None:
    """Rulebook Game Cycle (each Squad draws a Secondary Objective for the Turn, before Start of
    Turn): the draw's event and the state's JSON do not name the card; its owner can see it."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        mission_extra={"secondaries": True},
        draws=(card_index("deep-strike"), card_index("headhunter")),
    )
    kinds = [e.kind for e in match.log]
    assert kinds.index("secondary_drawn") < kinds.index("initiative")
    assert of(match.log, "secondary_drawn") == [
        {"side": 0, "turn": 1},
        {"side": 1, "turn": 1},
    ]
    public = json.dumps(match.state.to_json()) + json.dumps([e.to_json() for e in match.log])
    for card in ("deep-strike", "Deep Strike", "headhunter", "Headhunter"):
        assert card not in public
    assert match.state.to_json()["secondaries"][0] == {"card": None, "turn": 1, "revealed": False}
    card0, card1 = secondaries.card_of(match.state, 0), secondaries.card_of(match.state, 1)
    assert card0 is not None and card0.name == "Deep Strike"
    assert card1 is not None and card1.name == "Headhunter"


def test_achieved_card_is_revealed_and_scored_once() -> None:
    """Rulebook Game Cycle, End Of Turn ("reveal that Secondary Objective and score Mission
    Points. Once a Secondary Objective has been scored, it cannot be scored again"): the card
    is revealed with its MP; next turn it is no longer in that squad's deck, while the other
    squad's unscored card stays hidden and goes back into the deck."""
    first = card_index("opening-shot")
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10"), unit("Nyx", "C6", hit=1)]},
        mission_extra={"secondaries": True},
        scoring=[{"kind": "control"}],
        draws=(first, first),
        faces=[*SHOT_TAKES_OUT, 1, 1, 1, 2, *[6] * 4, *[6] * 4],
        turns_total=2,
    )
    match.apply(Shoot(0, "Remus", "Nyx"))
    events = pass_turn(match)
    scored = of(events, "scored")
    assert scored == [
        {
            "side": 0,
            "points": 1,
            "reason": "secondary",
            "card": "opening-shot",
            "name": "Opening Shot",
        }
    ]
    assert "reveals its secondary objective, Opening Shot" in of_text(events, "scored")
    assert match.state.secondaries_scored == [["opening-shot"], []]
    # turn 2: face 1 is now the first card Red has not scored; Blue draws Opening Shot again
    assert match.state.secondaries[0] is not None
    assert match.state.secondaries[0].card == secondaries.DECK[1].id
    assert match.state.secondaries[1] is not None
    assert match.state.secondaries[1].card == "opening-shot"
    assert match.state.to_json()["secondaries_scored"] == [["opening-shot"], []]
    assert match.dice.remaining == 0  # type: ignore[attr-defined]


def test_secondaries_score_before_the_mission() -> None:
    """Rulebook Game Cycle, End Of Turn: end-of-turn events, then secondary objectives, then
    the mission's scoring."""
    match = skirm_match(
        {0: [unit("Remus", "C5")], 1: [unit("Vex", "J10")]},
        objectives=["C5"],
        mission_extra={"secondaries": True},
        draws=(card_index("foothold"), card_index("foothold")),
        turns_total=1,
    )
    reasons = [d["reason"] for d in of(pass_turn(match), "scored")]
    assert reasons == ["secondary", "control"]


def test_secondary_conditions_are_engine_facts() -> None:
    """Rulings: Missions, secondary objectives: each card's condition reads the state at the
    end of the turn (units taken out, zones, objectives, crates, quarters, the centre)."""
    match = skirm_match(
        {
            0: [unit("Remus", "F6"), unit("Ann", "B12"), unit("Bo", "K2")],
            1: [unit("Vex", "J10"), unit("Nyx", "C6", hit=1)],
        },
        objectives=["F6", "B12"],
        faces=SHOT_TAKES_OUT,
    )
    state = match.state
    check = secondaries.CONDITIONS
    assert check["in_enemy_zone"](state, 0, 1) and not check["in_enemy_zone"](state, 1, 1)
    assert check["controls"](state, 0, 2) and not check["controls"](state, 1, 1)
    assert check["quarters"](state, 0, 3) and not check["quarters"](state, 1, 3)
    assert check["centre_majority"](state, 0, 1) and not check["centre_majority"](state, 1, 1)
    assert check["lost_none"](state, 1, 1)
    match.apply(Shoot(0, "Bo", "Nyx"))
    assert check["took_out"](state, 0, 1) and not check["took_out"](state, 0, 2)
    assert not check["took_out_leader"](state, 0, 1) and not check["lost_none"](state, 1, 1)
    assert not check["opened_crate"](state, 0, 1)
    state.crates_opened_this_turn.append(0)
    assert check["opened_crate"](state, 0, 1)


# --- mission data -------------------------------------------------------------------------------
def test_mission_data_errors_are_plain_words() -> None:
    """Rulebook Game Cycle (Select Mission, Prepare Battle Map), docs/rulings.md, Missions: a
    broken mission is refused with what is wrong."""
    refused_content(mission(scoring=[{"kind": "zone"}]), "'zone' scoring needs a 'target'")
    refused_content(
        mission(
            deployment=[{"edge": "top"}, {"edge": "left"}],
            scoring=[{"kind": "zone", "target": "centre"}],
        ),
        "a 'centre' target needs deployment zones on opposite edges",
    )
    refused_content(mission(scoring=[{"kind": "beacons"}]), "needs a mission action")
    refused_content(mission(actions=[{"name": "Move", "effect": "arm"}]), "a name of its own")
    refused_content(mission(actions=[{"name": "X", "effect": "fly"}]), "an 'effect' of arm")
    refused_content(mission(actions=[{"name": "X", "effect": "arm", "cost": 5}]), "1 to 3 ACT")
    refused_content(mission(markers=["C4"]), "'markers' lists objective numbers")
    refused_content(mission(markers=[1], crates=[1]), "both a marker and a crate")
    refused_content(mission(secondaries="yes"), "'secondaries' is true or false")


def test_mission_items_must_fit_the_map() -> None:
    """Rulebook Game Cycle (Prepare Battle Map): the mission's markers and crates go on the
    map's objectives; a map without that objective, or a crate on an occupied objective, or
    `carry` scoring without any marker is refused."""
    battle_map = map_from_json(
        {
            "name": "Small",
            "rows": FLAT_12,
            "objectives": ["C3", "D4"],
            "items": [{"kind": "barrel", "square": "D4"}],
        }
    )
    with pytest.raises(ContentError, match="places a marker on objective 3, but the map has 2"):
        mission_items(mission_from_json(mission(markers=[3])), battle_map)
    with pytest.raises(ContentError, match="already holds an item"):
        mission_items(mission_from_json(mission(crates=[2])), battle_map)
    with pytest.raises(ContentError, match="'carry' scoring needs markers"):
        mission_items(mission_from_json(mission(scoring=[{"kind": "carry"}])), battle_map)


# --- the shipped missions -------------------------------------------------------------------------
def test_shipped_missions_use_different_scoring() -> None:
    """Issue 6 (Missions): at least five missions holding objectives, carrying markers, taking
    out the leader, opening crates and reaching a zone; some with events, some with the
    secondary deck, one with mission actions."""
    loaded = [content.load_mission(name) for name in MISSIONS]
    assert len(loaded) >= 5
    kinds = {rule.kind for m in loaded for rule in m.scoring}
    assert {"control", "take_out", "carry", "leader", "crates", "zone", "beacons"} <= kinds
    assert sum(1 for m in loaded if m.events) >= 2
    assert sum(1 for m in loaded if m.secondaries) >= 2
    assert any(m.actions for m in loaded)
    for m in loaded:
        assert m.briefing


@pytest.mark.parametrize(("map_name", "mission_name"), list(itertools.product(MAPS, MISSIONS)))
def test_shipped_mission_fits_each_map(map_name: str, mission_name: str) -> None:
    """Rulebook Game Cycle (Prepare Battle Map) and Rulings, Deployment: on every map each
    mission's zones hold the largest shipped squad, a squad one unit larger than a zone's open
    squares is refused, and the mission's items fit the map."""
    battle_map, loaded = content.load_map(map_name), content.load_mission(mission_name)
    board = battle_map.board
    largest = max(len(content.load_squad(name).units) for name in content.names("squads"))
    rooms = [len(zone.squares(board)) for zone in loaded.zones]
    assert min(rooms) >= largest
    check_map_fits(loaded, board, (rooms[0], rooms[1]))
    for side in (0, 1):
        too_many = [rooms[0], rooms[1]]
        too_many[side] += 1
        with pytest.raises(
            ContentError, match=f"squad {side + 1}'s zone .* has {rooms[side]} open"
        ):
            check_map_fits(loaded, board, (too_many[0], too_many[1]))
    assert len(mission_items(loaded, battle_map)) == len(loaded.markers) + len(loaded.crates)


@pytest.mark.parametrize(("map_name", "mission_name"), list(itertools.product(MAPS, MISSIONS)))
def test_shipped_mission_plays_a_whole_automatic_match(map_name: str, mission_name: str) -> None:
    """Issue 6 (Missions) and rulings (The match ends): the automatic player finishes every
    shipped mission on every map, sometimes sending a random legal command; every listed
    command is accepted and the record replays to the same match."""
    data = default_content(map_name, mission_name)
    match, _ = new_demo_match(11, data)
    rng = random.Random(mission_name + map_name)
    state = match.state
    for _ in range(5000):
        if state.phase == ENDED:
            break
        side = (
            next(s for s in (0, 1) if not state.squads[s].deployed)
            if state.to_act is None
            else state.to_act
        )
        options = legal_commands(state, side)
        if options and rng.random() < 0.25:
            match.apply(rng.choice(options))
        else:
            match.apply(autoplayer.choose(state, side))
    assert state.phase == ENDED and state.result is not None
    again = replay(record_of(match, data))
    assert json.dumps(again.state.to_json()) == json.dumps(state.to_json())
    assert [e.to_json() for e in again.log] == [e.to_json() for e in match.log]
    plain, _ = new_demo_match(5, data)
    play_out(plain)
    assert plain.state.phase == ENDED
