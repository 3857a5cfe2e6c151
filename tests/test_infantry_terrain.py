"""Maps of dots and what moving on them costs (rulebook 002: Basic Movement, Movement AP table).

No dice are rolled here: moving costs AP and nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmbot.rules.dots import Direction, Dot, edge
from skirmbot.rules.errors import ContentError
from skirmbot.rules.infantry.maps import DotMap, Feature, Ground, map_from_json
from skirmbot.rules.infantry.terrain import (
    MOVE_CAP,
    MOVE_COSTS,
    PRONE_FACTOR,
    climb_cost,
    path_cost,
    reach,
    route,
    step_cost,
)

D = Dot.parse


def board(
    rows: list[str], edges: Sequence[str] = (), levels: dict[str, int] | None = None
) -> DotMap:
    return map_from_json(
        {
            "name": "Test",
            "width": len(rows[0]),
            "height": len(rows),
            "dots": rows,
            "levels": levels or {},
            "edges": list(edges),
        }
    )


def barrier(width: int, height: int, cut: float, kind: str = "wall") -> list[str]:
    """Every side between a dot whose centre lies left of `cut` (in dot spacings) and one right
    of it: a building's wall from the top of the map to the bottom."""

    def left(dot: Dot) -> bool:
        return dot.x + 0.5 * (dot.y & 1) < cut

    found: set[tuple[Dot, Dot]] = set()
    for y in range(height):
        for x in range(width):
            dot = Dot(x, y)
            for other in dot.neighbours():
                if 0 <= other.x < width and 0 <= other.y < height and left(dot) != left(other):
                    found.add(edge(dot, other))
    return [f"{a} {b} {kind}" for a, b in sorted(found)]


# --- the table ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "ap"),
    [
        ("standard", 1),
        ("obstructed", 2),
        ("door", 2),
        ("window", 4),
        ("level", 3),
        ("prone", 1),
        ("stand", 2),
    ],
)
def test_the_movement_table(row: str, ap: int) -> None:
    """Movement AP Costs table: Standard 1, Obstructed 2, Through doorway 2, Through window 4,
    Change level 3, Go prone 1, Stand from prone 2, Move while prone 2x."""
    assert MOVE_COSTS[row] == ap
    assert PRONE_FACTOR == 2
    assert set(MOVE_COSTS) == {
        "standard",
        "obstructed",
        "door",
        "window",
        "level",
        "prone",
        "stand",
    }


def test_a_plain_step_costs_1() -> None:
    """Basic Movement ¶2: "Movement between adjacent dots with no obstructions between them
    costs 1 AP." Every one of the six neighbours."""
    flat = board(["....."] * 5)
    for neighbour in D("C3").neighbours():
        assert step_cost(flat, D("C3"), neighbour) == 1


@pytest.mark.parametrize("kind", ["low", "light"])
def test_a_step_across_a_low_wall_or_hedge_costs_2(kind: str) -> None:
    """Basic Movement ¶2: "an obstruction between costs 2 AP. Obstructions include ...
    furniture, light vegetation, and low walls." Either way across."""
    row = board(["...."], [f"B1 C1 {kind}"])
    assert step_cost(row, D("B1"), D("C1")) == 2
    assert step_cost(row, D("C1"), D("B1")) == 2
    assert step_cost(row, D("A1"), D("B1")) == 1


def test_a_doorway_costs_2_and_a_window_4() -> None:
    """Basic Movement ¶3: "passes through a doorway costs 2 AP ... through a window costs 4 AP"."""
    row = board(["....."], ["A1 B1 door", "C1 D1 window"])
    assert step_cost(row, D("A1"), D("B1")) == 2
    assert step_cost(row, D("D1"), D("C1")) == 4


def test_a_step_to_an_impassable_dot_or_across_a_wall_is_refused() -> None:
    """Basic Movement ¶1: "so long as the the new location is on valid terrain and the path ...
    does not pass though an impassible obstacle, such as a solid high wall or the truck of a
    tree"; and only between adjacent dots."""
    row = board(["..#.."], ["D1 E1 wall"])
    assert step_cost(row, D("B1"), D("C1")) is None  # a tree trunk
    assert step_cost(row, D("D1"), D("E1")) is None  # a high wall
    assert step_cost(row, D("A1"), D("C1")) is None  # not adjacent
    assert step_cost(row, D("E1"), Dot(5, 0)) is None  # off the map
    assert route(row, D("A1"), D("E1")) is None  # no way round on one row


def test_a_building_wall_is_crossed_only_at_doors_and_windows() -> None:
    """Basic Movement ¶3: "Troopers may only enter and exit buildings through doorways and
    windows." A wall across the whole map with one door: the route goes through the door."""
    walls = barrier(6, 5, 3.0)
    door = next(entry for entry in walls if entry.startswith("C3 D3"))
    walled = board(["......"] * 5, [entry for entry in walls if entry != door] + ["C3 D3 door"])
    steps = route(walled, D("B1"), D("E1"))
    assert steps is not None
    assert edge(D("C3"), D("D3")) in {
        edge(a, b) for a, b in zip([D("B1"), *steps], steps, strict=False)
    }
    shut = board(["......"] * 5, walls)
    assert route(shut, D("B1"), D("E1"), budget=100) is None


def test_no_step_out_of_an_upper_window_or_off_a_roof() -> None:
    """Basic Movement ¶3: "troopers cannot voluntarily fall out of an upper story window or off
    of a building": at level 1 a step needs a dot with level 1 (plan: a window step only between
    equal levels)."""
    house = board(["S..."], ["C1 D1 window @1"], {"A1": 1, "B1": 1, "C1": 1})
    assert step_cost(house, D("A1"), D("B1"), level=1) == 1
    assert step_cost(house, D("C1"), D("D1"), level=1) is None  # out of the upper window
    assert step_cost(house, D("C1"), D("D1"), level=0) == 1  # the window is upstairs only
    assert step_cost(house, D("B1"), D("A1"), level=1) == 1
    roof = board(["L.."], [], {"A1": 1, "B1": 1})
    assert step_cost(roof, D("B1"), D("C1"), level=1) is None  # off the roof's edge


def test_changing_level_on_stairs_costs_3_and_keeps_the_dot() -> None:
    """Basic Movement ¶4: "use stairs and ladders to change levels ... costs 3 AP. The trooper
    stays on the same dot." One level at a time, only on stairs or a ladder, only to a level
    the dot has."""
    house = board(["SL."], [], {"A1": 2, "B1": 1, "C1": 1})
    assert climb_cost(house, D("A1"), 0, 1) == 3
    assert climb_cost(house, D("A1"), 2, 1) == 3
    assert climb_cost(house, D("B1"), 0, 1) == 3  # a ladder
    assert climb_cost(house, D("A1"), 0, 2) is None  # one level at a time
    assert climb_cost(house, D("B1"), 1, 2) is None  # the ladder's dot has no level 2
    assert climb_cost(house, D("C1"), 0, 1) is None  # no stairs on a plain floor


def test_prone_1_stand_2_and_prone_steps_cost_double() -> None:
    """Basic Movement ¶5: "It costs 1 AP to go prone. It costs 2 AP to stand from a prone
    position. Movement while prone costs double the standard AP." Our ruling (proposed in
    docs/plans/infantry.md): every step's cost doubles, and a level change too (6)."""
    assert (MOVE_COSTS["prone"], MOVE_COSTS["stand"]) == (1, 2)
    field = board(["S...."], ["C1 D1 low", "D1 E1 window"], {"A1": 1})
    assert step_cost(field, D("A1"), D("B1"), prone=True) == 2
    assert step_cost(field, D("C1"), D("D1"), prone=True) == 4
    assert step_cost(field, D("D1"), D("E1"), prone=True) == 8
    assert climb_cost(field, D("A1"), 0, 1, prone=True) == 6


def test_reach_and_route_stop_at_8_ap() -> None:
    """Basic Movement ¶1: "Troopers can use a maximum of 8 AP for movement"."""
    long_row = board(["." * 12])
    costs = reach(long_row, D("A1"))
    assert MOVE_CAP == 8
    assert max(costs.values()) == 8 and D("I1") in costs and D("J1") not in costs
    assert route(long_row, D("A1"), D("J1")) is None
    assert route(long_row, D("A1"), D("J1"), budget=9) is not None
    assert reach(long_row, D("A1"), prone=True)[D("E1")] == 8


def test_a_route_is_the_cheapest_and_priced_as_its_steps() -> None:
    """Basic Movement ¶2: the cheapest way round a low wall, checked step by step."""
    walls = barrier(6, 5, 3.0, "low")
    field = board(["......"] * 5, walls)
    steps = route(field, D("B3"), D("E3"))
    assert steps is not None and steps[-1] == D("E3")
    assert path_cost(field, D("B3"), steps) == reach(field, D("B3"))[D("E3")] == 4
    assert path_cost(field, D("B3"), [D("D3")]) is None  # not a neighbour of B3


def test_a_step_one_direction_and_back_costs_the_same() -> None:
    """Basic Movement ¶2-3: a side's feature costs the same from either side."""
    field = board(["......"] * 5, ["C3 D3 window", "C2 C3 low", "D2 D3 door"])
    for a in field.dots():
        for direction in Direction:
            b = a.neighbour(direction)
            if field.on_map(b):
                assert step_cost(field, a, b) == step_cost(field, b, a)


# --- the map format -------------------------------------------------------------------------


def valid() -> dict[str, Any]:
    return {
        "name": "Tiny",
        "width": 3,
        "height": 2,
        "dots": ["S.#", "..."],
        "levels": {"A1": 1},
        "edges": ["A1 B1 low", "A1 B1 wall @1", "B2 C2 door"],
    }


def test_a_valid_map_is_read_with_its_features_at_their_levels() -> None:
    """Plan section 5: dots rows, levels and edges "at level n"."""
    tiny = map_from_json(valid())
    assert tiny.ground(D("A1")) is Ground.STAIRS and tiny.impassable(D("C1"))
    assert tiny.top(D("A1")) == 1 and tiny.top(D("B1")) == 0
    assert tiny.feature(D("B1"), D("A1")) is Feature.LOW
    assert tiny.feature(D("A1"), D("B1"), 1) is Feature.WALL
    assert tiny.features_on(edge(D("A1"), D("B1"))) == {0: Feature.LOW, 1: Feature.WALL}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"width": 27}, "width must be a whole number from 1 to 26"),
        ({"dots": ["S.#"]}, "'dots' must be a list of 2 rows"),
        ({"dots": ["S.#", ".."]}, "row 2 must be 3 characters long"),
        ({"dots": ["S.x", "..."]}, "row 1 has 'x'"),
        ({"levels": {"C1": 1}}, "C1 is impassable"),
        ({"levels": {"A1": 0}}, "level of A1 must be a whole number, 1 or more"),
        ({"levels": {}}, "the stairs on A1 need a level"),
        ({"levels": {"A1": 1, "D1": 1}}, "D1 is off the map"),
        ({"edges": ["A1 C1 low"]}, "A1 and C1 are not neighbouring dots"),
        ({"edges": ["A1 B1 fence"]}, "'fence' is not an edge kind"),
        ({"edges": ["A1 B1"]}, "is not an edge"),
        ({"edges": ["A1 B1 low", "B1 A1 low"]}, "is given twice"),
        ({"edges": ["B2 C2 wall @1"]}, "neither B2 nor C2 has level 1"),
        ({"edges": ["A1 B1 wall @x"]}, "must be @ and a number"),
        ({"name": ""}, "needs a 'name'"),
    ],
)
def test_a_bad_map_is_refused_in_plain_words(change: dict[str, Any], words: str) -> None:
    """Plan part 3: "a loader refusing bad maps in plain words"."""
    with pytest.raises(ContentError, match=words.replace("(", r"\(")):
        map_from_json(valid() | change)


def test_crossroads_ships_and_reads() -> None:
    """Plan section 5: "Crossroads" (low walls, hedges, trees: cover and prone play)."""
    text = resources.files("skirmbot.content").joinpath("infantry/maps/crossroads.json").read_text()
    crossroads = map_from_json(json.loads(text))
    assert crossroads.name == "Crossroads"
    kinds = set(crossroads.features.values())
    assert {Feature.LOW, Feature.LIGHT} <= kinds
    assert any(crossroads.impassable(dot) for dot in crossroads.dots())
    # Every open dot can be reached from every other (no trooper is walled in at deployment).
    start = D("A1")
    assert set(reach(crossroads, start, budget=1000)) == {
        dot for dot in crossroads.dots() if not crossroads.impassable(dot)
    }


SIDE = 6
_ALL = [Dot(x, y) for y in range(SIDE) for x in range(SIDE)]
_SIDES = sorted(
    {edge(a, b) for a in _ALL for b in a.neighbours() if 0 <= b.x < SIDE and 0 <= b.y < SIDE}
)


@st.composite
def fields(draw: st.DrawFn) -> tuple[DotMap, Dot, Dot, bool]:
    start, goal = draw(st.lists(st.sampled_from(_ALL), min_size=2, max_size=2, unique=True))
    trees = draw(st.sets(st.sampled_from(_ALL), max_size=6)) - {start}
    kinds = st.sampled_from([feature.value for feature in Feature])
    features = draw(st.dictionaries(st.sampled_from(_SIDES), kinds, max_size=14))
    rows = ["".join("#" if Dot(x, y) in trees else "." for x in range(SIDE)) for y in range(SIDE)]
    edges = [f"{a} {b} {kind}" for (a, b), kind in features.items()]
    return board(rows, edges), start, goal, draw(st.booleans())


@settings(max_examples=200, deadline=None)
@given(fields())
def test_a_route_exists_exactly_within_reach_and_costs_what_reach_says(
    scene: tuple[DotMap, Dot, Dot, bool],
) -> None:
    """Basic Movement ¶1-5: the route the engine walks and the reach the preview tints agree,
    within the 8 AP movement cap, prone or standing."""
    field, start, goal, prone = scene
    costs = reach(field, start, prone=prone)
    steps = route(field, start, goal, prone=prone)
    assert (steps is not None) == (goal in costs)
    if steps is not None:
        assert path_cost(field, start, steps, prone=prone) == costs[goal] <= MOVE_CAP
