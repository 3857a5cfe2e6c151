"""LPx Leap and INF Infiltrator (issue 6; rulebook Unit Special Rules)."""

from __future__ import annotations

from builders import refused, skirm_match, unit

from skirmbot.rules.commands import Deploy
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.skirm.commands import Infiltrate, Leap
from skirmbot.rules.skirm.engine import Match, infiltration_squares
from skirmbot.rules.skirm.missions import mission_from_json
from skirmbot.rules.skirm.squads import squad_from_json
from skirmbot.rules.squares import Square


def test_leap_goes_straight_over_walls_for_two_act() -> None:
    """LPx: spend 2 ACT to move up to x squares in a straight line, ignoring vertical movement
    (a 3-high wall) and difficult terrain."""
    match = skirm_match(
        {0: [unit("Ada", "C3", specials=["LP3"])], 1: [unit("Bo", "L12")]},
        edges=["C4|C5: wall=3"],
    )
    events = match.apply(Leap(0, "Ada", "C6"))
    assert str(match.state.units["Ada"].square) == "C6"
    paid = next(e for e in events if e.kind == "cost_paid")
    assert paid.data["act"] == 2 and "leaps C3 → C4 → C5 → C6" in events[-1].text


def test_leap_stays_on_its_line_and_stops_at_closed_doors() -> None:
    """LPx is straight (no bends); like FLY it does not pass closed doors (docs/rulings.md)."""
    match = skirm_match(
        {0: [unit("Ada", "C3", specials=["LP3"])], 1: [unit("Bo", "L12")]},
        edges=["C4|C5: door=closed"],
    )
    refused(match, Leap(0, "Ada", "D5"), "straight line")
    refused(match, Leap(0, "Ada", "C6"), "can leap to")


def test_only_leapers_leap() -> None:
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "L12")]})
    refused(match, Leap(0, "Ada", "C5"), "no LPx rule")


def infiltration_match(inf_squad: int = 1) -> Match:
    """Two squads deploying on a 12x12 map (zones: top and bottom rows); squad 2's Vex is INF."""
    rows = [" ".join(["."] * 12)] * 12
    battle_map = map_from_json({"name": "Field", "rows": rows, "edges": [], "objectives": ["F6"]})
    mission = mission_from_json(
        {
            "name": "M",
            "deployment": [{"edge": "top", "depth": 1}, {"edge": "bottom", "depth": 1}],
            "scoring": [{"kind": "control"}],
        }
    )

    def card(name: str, specials: list[str]) -> dict[str, object]:
        return {"name": name, "ep": 5, "act": 3, "msk": 3, "rsk": 3, "arm": 3, "hit": 3, "specials": specials,
                "weapons": [{"name": "Knife", "type": "melee", "roa": 1, "dam": 1}]}  # fmt: skip

    red = squad_from_json({"name": "Red", "units": [card("Ada", ["LD1"]), card("Cy", [])]})
    blue = squad_from_json({"name": "Blue", "units": [card("Bo", ["LD1"]), card("Vex", ["INF"])]})
    return Match(battle_map, mission, (red, blue), ScriptedDice([1, 2] + [6] * 8))


def test_infiltrators_deploy_after_both_squads_three_squares_from_enemies_and_objectives() -> None:
    """INF: deploy anywhere at least 3 squares away from enemy units and objectives, after the
    normal deployment (rulings: Deployment)."""
    match = infiltration_match()
    match.apply(Deploy(0, {"Ada": "A1", "Cy": "L1"}))
    events = match.apply(Deploy(1, {"Bo": "A12"}))  # Vex stays out: it will infiltrate
    assert events[-1].kind == "infiltration" and match.state.infiltrators == ["Vex"]
    allowed = {str(s) for s in infiltration_squares(match.state, 1)}
    assert {"F9", "F3"} <= allowed and not {"F7", "F4", "B3"} & allowed  # F6 objective, A1 enemy
    refused(match, Infiltrate(1, {"Vex": "B2"}), "at least 3 squares")
    events = match.apply(Infiltrate(1, {"Vex": "F3"}))
    assert str(match.state.units["Vex"].square) == "F3" and "turn_started" in [
        e.kind for e in events
    ]


def test_an_infiltrator_may_also_deploy_in_its_zone() -> None:
    match = infiltration_match()
    match.apply(Deploy(0, {"Ada": "A1", "Cy": "L1"}))
    events = match.apply(Deploy(1, {"Bo": "A12", "Vex": "B12"}))
    assert "turn_started" in [e.kind for e in events] and match.state.infiltrators == []


def test_when_no_square_is_far_enough_the_farthest_ones_are_allowed() -> None:
    """INF: 'If it cannot be deployed in this way, deploy it as far as possible'."""
    match = infiltration_match()
    state = match.state
    match.apply(Deploy(0, {"Ada": "A1", "Cy": "L1"}))
    match.apply(Deploy(1, {"Bo": "A12"}))
    for square in ["A6", "D6", "I6", "L6", "F2", "F10", "C10", "J10", "C3", "J3"]:
        state.objectives.append(Square.parse(square))
    allowed = infiltration_squares(state, 1)
    assert allowed and all(min(s.distance(o) for o in state.objectives) < 3 for s in allowed)
