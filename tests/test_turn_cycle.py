"""The turn sequence (rulebook Game Cycle, Alternate Activations, Tactical Orders; rulings: Turns
and activations).

Every match here comes from `skirm_match`: turn 1 has already started with side 0 holding the
initiative. The dice a later turn rolls at its start are scripted in order: the initiative
roll-off (side 0's die, side 1's die, again on a tie), then the Tactical Orders dice of the squad
with the initiative, then the other squad's.
"""

from __future__ import annotations

from builders import FLAT_12, RIFLE, refused, skirm_match, unit

from skirmbot.rules.commands import (
    Accept,
    Activate,
    AgreeDraw,
    Concede,
    Deploy,
    EndActivation,
    Move,
    Shoot,
)
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.events import Event
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.skirm.commands import Delay
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.missions import mission_from_json
from skirmbot.rules.skirm.squads import squad_from_json
from skirmbot.rules.skirm.state import ACTIVATED, ENDED, PLAYING, READY

# Rifle ROA 2: faces 2 and 6 give one strike of 1 damage; a save of 6 fails.
ONE_DAMAGE_UNSAVED = [2, 6, 6]


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def pass_unit(match: Match, side: int, name: str) -> list[Event]:
    """The unit's player ends its activation without doing anything."""
    return match.apply(EndActivation(side, name))


def new_turn_faces(initiative: int, dice: tuple[int, int] = (4, 4)) -> list[int]:
    """A turn start with no tie, `initiative` winning, and no Tactical Orders for anyone."""
    first, second = (dice[0], dice[1]) if initiative == 0 else (dice[1], dice[0])
    return ([1, 2] if initiative == 0 else [2, 1]) + [6] * first + [6] * second


def pass_turn(match: Match) -> list[Event]:
    """Every remaining activation of the current turn ends at once."""
    events: list[Event] = []
    turn = match.state.turn
    while match.state.phase == PLAYING and match.state.turn == turn:
        side = match.state.to_act
        assert side is not None
        if match.state.activation is not None:
            events += match.apply(EndActivation(side))
        else:
            events += pass_unit(match, side, match.state.ready_units(side)[0].id)
    return events


# --- Tactical Orders at the start of each turn ------------------------------------------------
def test_orders_reset_and_rolled_3d6_plus_ldx_each_1_to_3_counts() -> None:
    """Rulebook Game Cycle 1 and Tactical Orders: TO reset to zero (unused ones are lost), then
    3D6 plus one die per LDx, each die of 1-3 giving one Tactical Order."""
    match = skirm_match(
        {0: [unit("Remus", "C3", specials=["LD2"])], 1: [unit("Vex", "C10")]},
        orders=(3, 2),
        faces=[
            *[5, 2],  # turn 2 initiative: Blue rolls lower
            *[3, 4, 1, 6],  # Blue, initiative first: 3D6 + LD1 = 4 dice, the 3 and the 1 count
            *[2, 3, 4, 5, 6],  # Red: 3D6 + LD2 = 5 dice, the 2 and the 3 count
        ],
    )
    assert [s.orders for s in match.state.squads] == [3, 2]
    events = pass_turn(match)
    rolled = [e.data for e in events if e.kind == "orders_rolled"]
    assert rolled == [
        {"side": 1, "faces": [3, 4, 1, 6], "orders": 2},
        {"side": 0, "faces": [2, 3, 4, 5, 6], "orders": 2},
    ]
    assert [s.orders for s in match.state.squads] == [2, 2]  # 3 and 2 unused TO did not carry over
    assert match.dice.remaining == 0


def test_orders_dice_no_order_on_4_to_6() -> None:
    """Rulebook Tactical Orders: only results of 1-3 give a Tactical Order."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]},
        faces=[1, 2, 4, 5, 6, 4, 3, 3, 3, 3],
    )
    pass_turn(match)
    assert [s.orders for s in match.state.squads] == [0, 4]
    assert match.dice.remaining == 0


def test_taken_out_leader_gives_no_ld_dice_next_turn() -> None:
    """Rulebook Tactical Orders / LDx: without the Leader on the map, only 3D6 are rolled."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3", hit=1, specials=["LD2"]), unit("Ann", "J3")],
            1: [unit("Vex", "C10"), unit("Bo", "J10")],
        },
        faces=[*ONE_DAMAGE_UNSAVED, 1, 2, 6, 6, 6, 6, 6, 6, 6],
    )
    pass_unit(match, 0, "Remus")
    events = match.apply(Shoot(1, "Vex", "Remus"))
    assert "taken_out" in kinds(events)
    match.apply(EndActivation(1))
    pass_unit(match, 0, "Ann")
    events = pass_unit(match, 1, "Bo")
    rolled = {e.data["side"]: e.data["faces"] for e in events if e.kind == "orders_rolled"}
    assert rolled == {0: [6, 6, 6], 1: [6, 6, 6, 6]}  # Red 3D6 only; Blue 3D6 + LD1
    assert match.dice.remaining == 0


# --- initiative -----------------------------------------------------------------------------------
def test_initiative_lowest_roll_wins() -> None:
    """Rulebook Game Cycle 3.3 (Roll-off): the lowest score wins the initiative."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]},
        faces=[5, 2, *[6] * 8],
    )
    events = pass_turn(match)
    initiative = next(e for e in events if e.kind == "initiative")
    assert initiative.data == {"rolls": [[5, 2]], "side": 1}
    assert (match.state.turn, match.state.initiative, match.state.to_act) == (2, 1, 1)
    assert match.dice.remaining == 0


def test_initiative_ties_are_rerolled() -> None:
    """Rulebook Game Cycle 3.3 and Roll-Off: both sides re-roll ties until a winner is found."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]},
        faces=[4, 4, 1, 1, 3, 2, *[6] * 8],
    )
    events = pass_turn(match)
    initiative = next(e for e in events if e.kind == "initiative")
    assert initiative.data == {"rolls": [[4, 4], [1, 1], [3, 2]], "side": 1}
    assert "Blue has the initiative" in initiative.text
    assert match.state.to_act == 1
    assert match.dice.remaining == 0


def test_first_turn_starts_when_both_squads_have_deployed() -> None:
    """Rulebook Game Cycle 3: the first turn starts (ready, initiative, orders) after set-up."""

    def squad(name: str, leader: str) -> dict[str, object]:
        card = unit(leader, "A1", specials=["LD1"])[0]
        return {"name": name, "units": [card]}

    mission = mission_from_json(
        {
            "name": "M",
            "deployment": [{"edge": "top", "depth": 1}, {"edge": "bottom", "depth": 1}],
            "scoring": [{"kind": "control"}],
        }
    )
    battle_map = map_from_json({"name": "Flat", "rows": FLAT_12})
    dice = ScriptedDice([2, 2, 6, 1, *[6] * 4, 1, 2, 3, 4])
    squads = (squad_from_json(squad("Red", "Remus")), squad_from_json(squad("Blue", "Vex")))
    match = Match(battle_map, mission, squads, dice)
    refused(match, Move(0, "Remus", "C2"), "both squads must deploy")
    refused(match, Deploy(0, {"Remus": "C5"}), "must deploy in your zone")
    refused(match, Deploy(0, {"Remus": "C13"}), "C13 is off the map")
    # A deployment names the squad's own units: a wrong name lists them (not the enemy's), and
    # a very long one is quoted short.
    refused(match, Deploy(0, {"Remis": "C1"}), "There is no unit called 'Remis'. Red's units: Remus.")
    refused(match, Deploy(0, {"R" * 500: "C1"}), f"There is no unit called '{'R' * 39}…'. Red's")
    refused(match, Deploy(0, {"Vex": "C1"}), "Vex is not in your squad")
    assert match.apply(Deploy(0, {"Remus": "C1"}))[0].kind == "deployed"
    events = match.apply(Deploy(1, {"Vex": "C12"}))
    assert kinds(events) == [
        "deployed",
        "turn_started",
        "initiative",
        "orders_rolled",
        "orders_rolled",
    ]
    assert events[2].data == {"rolls": [[2, 2], [6, 1]], "side": 1}
    assert [s.orders for s in match.state.squads] == [3, 0]
    assert (match.state.turn, match.state.to_act) == (1, 1)
    assert dice.remaining == 0


# --- alternate activations ------------------------------------------------------------------------
def test_squads_alternate_activations_from_the_initiative() -> None:
    """Rulebook Alternate Activations: the initiative squad activates a unit, then the squads
    alternate; each finished unit is marked Activated."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3"), unit("Ann", "E3")],
            1: [unit("Vex", "C10"), unit("Bo", "E10")],
        },
        faces=new_turn_faces(0),
    )
    state = match.state
    order = []
    goals = {"Remus": "C5", "Vex": "C8", "Ann": "E5", "Bo": "E8"}
    for side, name in ((0, "Remus"), (1, "Vex"), (0, "Ann"), (1, "Bo")):
        assert state.to_act == side
        order.append(state.to_act)
        match.apply(Move(side, name, goals[name]))
        assert state.units[name].status == READY  # still activating
        match.apply(EndActivation(side))
        if state.turn == 1:
            assert state.units[name].status == ACTIVATED
    assert order == [0, 1, 0, 1]
    assert state.turn == 2 and all(u.status == READY for u in state.units.values())
    assert match.dice.remaining == 0


def test_second_unit_of_the_same_squad_cannot_start_before_the_other_squad() -> None:
    """Rulebook Alternate Activations: after Red's unit, it is Blue's turn to activate."""
    match = skirm_match(
        {0: [unit("Remus", "C3"), unit("Ann", "E3")], 1: [unit("Vex", "C10"), unit("Bo", "E10")]}
    )
    pass_unit(match, 0, "Remus")
    refused(match, Activate(0, "Ann"), "It is Blue's activation, not yours.")
    refused(match, Move(0, "Remus", "C4"), "It is Blue's activation, not yours.")


def test_squad_without_ready_units_lets_the_other_activate_the_rest_in_a_row() -> None:
    """Rulings: Alternate activations. When a squad has no Ready unit left, the other squad
    activates its remaining units one after another."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3")],
            1: [unit("Vex", "C10"), unit("Bo", "E10"), unit("Cy", "G10")],
        },
        faces=new_turn_faces(0, (4, 4)),
    )
    state = match.state
    pass_unit(match, 0, "Remus")
    assert state.to_act == 1
    pass_unit(match, 1, "Vex")
    assert state.to_act == 1
    pass_unit(match, 1, "Bo")
    assert state.to_act == 1
    events = pass_unit(match, 1, "Cy")
    assert "turn_ended" in kinds(events) and state.turn == 2
    assert match.dice.remaining == 0


# --- delay ----------------------------------------------------------------------------------------
def test_delay_lets_the_bigger_squad_activate_two_units_in_a_row() -> None:
    """Rulebook Alternate Activations: a squad with at least 2 fewer units may delay one
    activation; the squad with more units then activates two of its units in a row."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3")],
            1: [unit("Vex", "C10"), unit("Bo", "E10"), unit("Cy", "G10")],
        }
    )
    state = match.state
    events = match.apply(Delay(0))
    assert [(e.kind, e.data) for e in events] == [("delayed", {"side": 0})]
    assert state.squads[0].delayed_this_turn
    assert state.to_act == 1
    pass_unit(match, 1, "Vex")
    assert state.to_act == 1  # the second of the two in a row
    pass_unit(match, 1, "Bo")
    assert state.to_act == 0  # then back to Red
    pass_unit(match, 0, "Remus")
    assert state.to_act == 1


def test_delay_only_once_per_turn() -> None:
    """Rulebook Alternate Activations: delay once per Turn."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3")],
            1: [unit("Vex", "C10"), unit("Bo", "E10"), unit("Cy", "G10")],
        }
    )
    match.apply(Delay(0))
    pass_unit(match, 1, "Vex")
    pass_unit(match, 1, "Bo")
    refused(match, Delay(0), "already delayed once this turn")


def test_delay_allowed_again_next_turn() -> None:
    """Rulebook Alternate Activations: the limit is once per Turn, so a new turn allows it."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3")],
            1: [unit("Vex", "C10"), unit("Bo", "E10"), unit("Cy", "G10")],
        },
        faces=new_turn_faces(0),
    )
    match.apply(Delay(0))
    pass_turn(match)
    assert match.state.turn == 2 and not match.state.squads[0].delayed_this_turn
    assert kinds(match.apply(Delay(0))) == ["delayed"]


def test_delay_refused_with_fewer_than_two_units_less() -> None:
    """Rulebook Alternate Activations: only with at least 2 more units on the other side."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3"), unit("Ann", "E3")],
            1: [unit("Vex", "C10"), unit("Bo", "E10"), unit("Cy", "G10")],
        }
    )
    refused(match, Delay(0), "at least 2 fewer units on the map may delay; you have 2, they have 3")


def test_delay_refused_to_the_bigger_squad() -> None:
    """Rulebook Alternate Activations: it is the squad with fewer units that may delay."""
    match = skirm_match(
        {
            0: [unit("Vex", "C10"), unit("Bo", "E10"), unit("Cy", "G10")],
            1: [unit("Remus", "C3")],
        }
    )
    refused(match, Delay(0), "you have 3, they have 1")


def test_delay_counts_units_on_the_map() -> None:
    """Rulings: Alternate activations: "at least 2 fewer units on the map": Taken Out units
    no longer count, so a squad that lost two of three units may delay next turn."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3"), unit("Ann", "E3", hit=1), unit("Cid", "G3", hit=1)],
            1: [unit("Vex", "E10"), unit("Bo", "G10"), unit("Cy", "J10")],
        },
        initiative=1,
        faces=[*ONE_DAMAGE_UNSAVED, *ONE_DAMAGE_UNSAVED, *new_turn_faces(0)],
    )
    match.apply(Shoot(1, "Vex", "Ann"))
    match.apply(EndActivation(1))
    refused(match, Delay(0), "you have 2, they have 3")
    pass_unit(match, 0, "Remus")
    match.apply(Shoot(1, "Bo", "Cid"))
    pass_turn(match)
    assert match.state.turn == 2 and match.state.to_act == 0
    refused(match, Move(0, "Ann", "E4"), "Ann has been Taken Out.")
    assert kinds(match.apply(Delay(0))) == ["delayed"]
    assert match.state.to_act == 1


def test_delay_refused_while_a_unit_activates_or_out_of_turn() -> None:
    """Rulebook Alternate Activations: delaying replaces an activation, so it comes before one."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3")],
            1: [unit("Vex", "C10"), unit("Bo", "E10"), unit("Cy", "G10")],
        }
    )
    refused(match, Delay(1), "It is Red's activation, not yours.")
    match.apply(Activate(0, "Remus"))
    refused(match, Delay(0), "A unit is activating")


# --- end of turn, end of match ---------------------------------------------------------------------
def test_mission_points_scored_at_the_end_of_the_turn() -> None:
    """Rulebook Game Cycle 5.3 and Scoring: Mission Points are scored at the end of the turn,
    after the last activation, then the next turn starts."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        objectives=["C5"],
        faces=new_turn_faces(0),
    )
    match.apply(Move(0, "Remus", "C5"))
    match.apply(EndActivation(0))
    assert match.state.squads[0].mp == 0  # not yet: Blue still has to activate
    events = pass_unit(match, 1, "Vex")
    assert kinds(events)[:5] == [
        "activation_started", "activation_ended", "scored", "turn_ended", "turn_started"
    ]  # fmt: skip
    assert events[2].data == {"side": 0, "points": 1, "reason": "control"}
    assert events[3].data == {"turn": 1}
    assert [s.mp for s in match.state.squads] == [1, 0]


def test_match_ends_after_turn_four_with_the_result() -> None:
    """Rulebook Game Cycle 3 (Mission End): after Turn 4 the squad with the most MP wins."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        objectives=["C3"],
        faces=new_turn_faces(0) * 3,
    )
    events: list[Event] = []
    for _ in range(4):
        events += pass_turn(match)
    assert [e.data["turn"] for e in events if e.kind == "turn_started"] == [2, 3, 4]
    assert [e.data["turn"] for e in events if e.kind == "turn_ended"] == [1, 2, 3, 4]
    assert events[-1].kind == "match_ended"
    assert events[-1].data["winner"] == 0 and events[-1].data["mp"] == [4, 0]
    assert "after the last turn" in events[-1].text and "Red wins" in events[-1].text
    state = match.state
    assert (state.phase, state.turn) == (ENDED, 4)
    assert state.result is not None and state.result.winner == 0
    assert match.dice.remaining == 0
    refused(match, Move(0, "Remus", "C4"), "The match is over.")


def test_equal_mission_points_is_a_draw() -> None:
    """Rulings: The match ends: equal MP is a draw."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "J10")]},
        objectives=["C3", "J10"],
        turns_total=1,
    )
    events = pass_turn(match)
    assert events[-1].kind == "match_ended"
    assert events[-1].data["winner"] is None and events[-1].data["mp"] == [1, 1]
    assert "a draw" in events[-1].text
    assert match.state.phase == ENDED


def test_wiped_out_squad_ends_the_match_at_the_end_of_that_turn() -> None:
    """Rulings: The match ends at the end of the turn in which a squad has no unit left on the
    map; the other squad still activates its remaining units first. Highest MP wins."""
    match = skirm_match(
        {0: [unit("Remus", "C3"), unit("Ann", "J3")], 1: [unit("Vex", "C10", hit=1)]},
        scoring=[{"kind": "take_out", "points": 1}],
        faces=ONE_DAMAGE_UNSAVED,
    )
    state = match.state
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert "taken_out" in kinds(events)
    assert state.phase == PLAYING and state.activation is not None  # Remus still activating
    events = match.apply(EndActivation(0))
    assert "match_ended" not in kinds(events)
    assert state.to_act == 0  # Blue has nobody left: Red activates Ann
    events = pass_unit(match, 0, "Ann")
    assert kinds(events) == ["activation_started", "activation_ended", "scored", "turn_ended",
                             "match_ended"]  # fmt: skip
    assert events[-1].data == {
        "winner": 0,
        "reason": events[-1].text,
        "mp": [1, 0],
    }
    assert "Blue has no unit left on the map" in events[-1].text
    assert (state.phase, state.turn) == (ENDED, 1)
    assert match.dice.remaining == 0


def test_concede_is_a_loss_at_any_time() -> None:
    """Rulings: The match ends: a player may concede at any time (a loss)."""
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]})
    match.apply(Move(0, "Remus", "C4"))  # Red is mid-activation; Blue concedes anyway
    events = match.apply(Concede(1))
    assert kinds(events) == ["match_ended"]
    assert events[0].data["winner"] == 0 and "Blue conceded: Red wins." in events[0].text
    assert match.state.phase == ENDED and match.state.activation is None
    refused(match, Concede(0), "The match is over.")
    refused(match, Move(0, "Remus", "C5"), "The match is over.")


def test_agreed_draw() -> None:
    """Rulings: The match ends: both players may agree to a draw."""
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]})
    events = match.apply(AgreeDraw(1))
    assert [(e.kind, e.data["winner"]) for e in events] == [("match_ended", None)]
    assert "agreed to a draw" in events[0].text
    assert match.state.result is not None and match.state.result.winner is None
    refused(match, AgreeDraw(0), "The match is over.")


# --- commands out of turn ----------------------------------------------------------------------------
def test_commands_out_of_turn_are_refused() -> None:
    """Rulebook Alternate Activations: only the squad whose turn it is activates, one unit at a
    time, each unit once per turn, and only its own units."""
    match = skirm_match(
        {
            0: [unit("Remus", "C3"), unit("Ann", "E3")],
            1: [unit("Vex", "C10", weapons=[RIFLE]), unit("Bo", "E10")],
        }
    )
    refused(match, Move(1, "Vex", "C9"), "It is Red's activation, not yours.")
    refused(match, Move(0, "Vex", "C9"), "Vex is not in your squad.")
    refused(match, EndActivation(1, "Vex"), "It is Red's activation, not yours.")
    refused(match, Accept(0), "No roll is waiting for a decision.")
    refused(match, EndActivation(0), "No unit is activating")
    refused(match, Move(0, "Nobody", "C4"), "There is no unit called 'Nobody'")
    match.apply(Move(0, "Remus", "C4"))
    refused(
        match,
        Move(0, "Ann", "E4"),
        "Remus is activating; end its activation before activating Ann.",
    )
    refused(match, Activate(0, "Remus"), "Remus is already activating.")
    refused(match, Deploy(0, {"Remus": "C1"}), "Deployment is over.")
    match.apply(EndActivation(0))
    pass_unit(match, 1, "Vex")
    refused(match, Move(0, "Remus", "C5"), "Remus has already activated this turn. Ready: Ann.")
    refused(match, Move(2, "Remus", "C5"), "side 0 or side 1")
