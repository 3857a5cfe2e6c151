"""Victory Points, ambitions and the end of the game under the group rules (rulebook 003: End of
Game, Setup 7; the scenarios and ambitions are our content: docs/rulings.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from companies_builders import profile, put, table

from skirmbot.rules.companies.resilience import rout
from skirmbot.rules.companies.scenarios import (
    BREAKTHROUGH,
    OBJECTIVES,
    ROUTED,
    Scenario,
    scenario_from_json,
)
from skirmbot.rules.companies.scoring import (
    ambition_met,
    end_of_round,
    finish,
    game_over,
    scores,
)
from skirmbot.rules.companies.state import State
from skirmbot.rules.dice import ScriptedDice

NO_DICE = ScriptedDice([])
CONTENT = Path(__file__).resolve().parent.parent / "skirmbot" / "content" / "companies"


def lines(state: State | None = None) -> State:
    """Raiders and Guard (Captain) for seat 0, Spearmen and Levy for seat 1, far apart."""
    state = state or table()
    put(state, 0, "Raiders", "C3 D3 E3")
    put(state, 0, "Guard", "K3 L3", captain=True)
    put(state, 1, "Spearmen", "C20 D20 E20", profile(points=8))
    put(state, 1, "Levy", "K20 L20", profile(points=10), captain=True)
    return state


def test_routed_enemy_groups_score_their_points() -> None:
    """Scenario kind `routed` (Clash): each enemy Group Routed scores its points x vp; a
    summoned Group was fielded for none."""
    state = lines()
    rout(state, ScriptedDice([6, 6]), state.group("Spearmen"), 0, "shoot")  # Levy is last: tests
    put(state, 1, "Spirits", "T20", summoned=True).routed = True
    assert scores(state) == (8, 0)


def test_objectives_score_at_the_end_of_each_round_for_one_side_alone_within_3() -> None:
    """Scenario kind `objectives` (Hold the Field): "at the end of each round, each map
    objective a side alone has a model within 3" of scores vp"."""
    state = lines(table(objectives=("F6", "F17", "T12"), scoring=((OBJECTIVES, 1),)))
    # F6: Raiders' E3 is 3" away; F17: Spearmen's E20 3" away; T12: nobody near.
    events = end_of_round(state)
    assert state.vp == [1, 1] and state.rounds_done == 1
    assert [e.data for e in events] == [
        {"side": 0, "points": 1, "reason": "objectives"},
        {"side": 1, "points": 1, "reason": "objectives"},
    ]
    state.group("Levy").models = [state.board.parse_square("F9")]  # F6 contested, F17 alone
    end_of_round(state)
    assert state.vp == [1, 2]


def test_breakthrough_scores_each_group_within_3_of_the_enemy_edge() -> None:
    """Scenario kind `breakthrough`: at the end, each of the side's Groups with a model within
    3" of the enemy's table edge (side 0's is the bottom row, 24) scores vp; 4" does not."""
    state = lines(table(scoring=((BREAKTHROUGH, 3),)))
    state.group("Raiders").models = [state.board.parse_square("C21")]  # 3" from row 24
    state.group("Guard").models = [state.board.parse_square("K20")]  # 4"
    state.group("Levy").models = [state.board.parse_square("K4")]  # 3" from row 1
    assert scores(state) == (3, 3)


def test_glory_needs_a_rout_by_an_attack_of_your_company() -> None:
    """Ambition glory: "A Group of your Company Routs an enemy Group by an Attack"."""
    state = lines()
    state.seats[0].ambition = "glory"
    rout(state, ScriptedDice([6, 6]), state.group("Spearmen"), 0, "shoot")
    assert not ambition_met(state, 0)
    rout(state, NO_DICE, state.group("Levy"), 0, "attack")
    assert ambition_met(state, 0)
    assert scores(state)[0] == 8 + 10 + 2


def test_regicide_needs_an_enemy_captains_group_routed() -> None:
    """Ambition regicide: "An enemy Captain's Group is Routed" (by any means but conceding)."""
    state = lines()
    state.seats[0].ambition = "regicide"
    assert not ambition_met(state, 0)
    # Spearmen test three times: the Captain's Group Routed, half the points, the last Group.
    rout(state, ScriptedDice([6, 6] * 3), state.group("Levy"), None, "test")
    assert ambition_met(state, 0)


def test_unbroken_fails_once_a_group_of_your_company_routs() -> None:
    """Ambition unbroken: "No Group of your Company is Routed"."""
    state = lines()
    state.seats[1].ambition = "unbroken"
    assert ambition_met(state, 1) and scores(state) == (0, 2)
    rout(state, ScriptedDice([6, 6]), state.group("Spearmen"), 0, "shoot")
    assert not ambition_met(state, 1)


def test_ground_needs_a_model_within_3_of_the_centre() -> None:
    """Ambition ground: "at the end a Group of your Company has a model within 3" of the
    table's centre squares" (L12, M12, L13, M13 on a 24" table)."""
    state = lines()
    state.seats[0].ambition = "ground"
    state.group("Guard").models = [state.board.parse_square("H12")]  # 4" from L12
    assert not ambition_met(state, 0)
    state.group("Guard").models = [state.board.parse_square("I12")]  # 3"
    assert ambition_met(state, 0)


def test_a_teammates_ambition_scores_for_the_side() -> None:
    """Team play (our ruling): each player's ambition scores its VP for their side."""
    state = table(seats=4)
    put(state, 0, "Raiders", "C3")
    put(state, 2, "Riders", "T3")
    put(state, 1, "Spearmen", "C20")
    put(state, 3, "Pikes", "T20")
    state.seats[2].ambition = "unbroken"
    assert scores(state) == (2, 0)


def test_game_over_after_the_last_round_or_when_a_side_has_no_group() -> None:
    """End of Game: the scenario's closing conditions (our content): its last round done, or a
    side with no Group on the table; never during set-up."""
    state = lines(table(rounds=2))
    assert not game_over(state)
    end_of_round(state)
    assert not game_over(state)
    end_of_round(state)
    assert game_over(state)
    state = lines()
    rout(state, ScriptedDice([6, 6]), state.group("Spearmen"), 0, "attack")
    assert not game_over(state)
    rout(state, NO_DICE, state.group("Levy"), 0, "attack")
    assert game_over(state)
    state = lines()
    state.round = 0
    for group in state.groups.values():
        group.models = []  # not yet deployed
    assert not game_over(state)


def test_finish_the_side_with_more_vp_wins() -> None:
    """End of Game: "total VP according to the scenario guidelines to determine the winning
    side"."""
    state = lines()
    rout(state, ScriptedDice([6, 6]), state.group("Spearmen"), 0, "attack")
    events = finish(state)
    assert [e.kind for e in events] == ["scored", "match_ended"]
    assert events[-1].data == {"winner": 0, "reason": "routed", "vp": [8, 0]}
    assert state.over and events[-1].text == "The attackers win (8 to 0 VP)."
    assert finish(state) == []


def test_finish_equal_vp_is_a_draw() -> None:
    """Our ruling: equal VP at the end is a draw."""
    state = lines(table(rounds=1))
    end_of_round(state)
    events = finish(state)
    assert events[-1].data == {"winner": None, "reason": "rounds", "vp": [0, 0]}


def test_a_side_whose_every_seat_conceded_loses_whatever_the_vp() -> None:
    """Our ruling (team play): "When every player of a side has conceded, the other side wins";
    the conceded Company's Groups still count as Routed for the scenario's VP."""
    state = table(seats=4, scoring=((ROUTED, 1),))
    put(state, 0, "Raiders", "C3")
    put(state, 2, "Riders", "T3")
    spearmen = put(state, 1, "Spearmen", "C20")
    put(state, 3, "Pikes", "T20")
    rout(state, ScriptedDice([6, 6]), spearmen, 0, "attack")  # side 0 leads 6 to 0
    for seat in (0, 2):
        state.seats[seat].out = True
        for group in state.groups_of(seat):
            rout(state, NO_DICE, group, None, "conceded")
    events = finish(state)
    assert events[-1].data == {"winner": 1, "reason": "conceded", "vp": [6, 12]}


def shipped_scenario(name: str) -> Scenario:
    path = CONTENT / "missions" / f"{name}.json"
    return scenario_from_json(json.loads(path.read_text("utf-8")))


@pytest.mark.parametrize(
    ("name", "vp"),
    [("clash", (8, 0)), ("hold-the-field", (8 + 6 * 1, 0)), ("breakthrough", (8 + 3, 0))],
)
def test_each_shipped_scenario_scores_and_ends_after_six_rounds(
    name: str, vp: tuple[int, int]
) -> None:
    """Our content (Scenarios): Clash scores Routed enemy Groups' points; Hold the Field also
    each objective one side alone holds at the end of a round; Breakthrough also 3 VP for each
    Group within 3" of the enemy's edge. Each ends after its sixth round (End of Game)."""
    state = lines(table(objectives=("F6",)))
    state.scenario = shipped_scenario(name)
    state.group("Raiders").models = [state.board.parse_square("C22")]  # 2" from the bottom edge
    state.group("Guard").models = [state.board.parse_square("F7")]  # 1" from the objective
    rout(state, ScriptedDice([6, 6]), state.group("Spearmen"), 0, "attack")
    for _ in range(5):
        end_of_round(state)
    assert not game_over(state)
    end_of_round(state)
    assert game_over(state) and scores(state) == vp
    assert finish(state)[-1].data["winner"] == 0


def test_a_conceding_company_meets_no_ambition_nor_gives_one() -> None:
    """Our rulings (Conceding): a conceded Company's Groups count as Routed for the scenario's
    VP only: its Captain's Group leaving is no enemy's regicide, and its own ambition scores
    nothing."""
    state = lines()
    state.seats[0].ambition = "regicide"
    state.seats[1].ambition = "unbroken"
    assert ambition_met(state, 1)
    state.seats[1].out = True
    for group in state.groups_of(1):
        rout(state, NO_DICE, group, None, "conceded")
    assert not ambition_met(state, 0) and not ambition_met(state, 1)
    assert scores(state) == (8 + 10, 0)
