"""The shipped maps of dots besides Crossroads: "Farmhouse" and "Ruins" (plan section 5).

The maps are hand-made content, so these tests check what play relies on: each loads, no open
ground is walled off, the upper floor or roof is reached only by its stairs or ladder, an upper
window sees what the wall below hides, and doors and windows cost what the table says.
No dice are rolled here: maps and moving cost AP and nothing else.
"""

from __future__ import annotations

import json
from collections import deque
from importlib import resources

import pytest

from skirmbot.rules.dots import MAX_BOARD_SIDE, Dot
from skirmbot.rules.infantry.maps import DotMap, Feature, Ground, map_from_json
from skirmbot.rules.infantry.sight import Body, sight
from skirmbot.rules.infantry.terrain import climb_cost, reach, step_cost

D = Dot.parse
NAMES = ("farmhouse", "ruins")
EVERYWHERE = 10_000  # a budget no map of 26 by 26 dots can spend


def shipped(name: str) -> DotMap:
    path = resources.files("skirmbot.content").joinpath(f"infantry/maps/{name}.json")
    return map_from_json(json.loads(path.read_text()))


# A place a trooper can stand: its dot and its level.
Place = tuple[Dot, int]


def places_reached(board: DotMap, start: Place, avoid: Dot | None = None) -> set[Place]:
    """Every (dot, level) a trooper can walk and climb to from `start`, never entering `avoid`.

    terrain.reach walks one level; changing level is climb_cost's (stairs and ladders only), so
    this joins the two, as a trooper spending AP over several activations would."""
    seen = {start}
    queue = deque([start])
    while queue:
        dot, level = queue.popleft()
        steps: list[Place] = [
            (other, level)
            for other in dot.neighbours()
            if step_cost(board, dot, other, level) is not None
        ]
        steps += [
            (dot, to)
            for to in (level - 1, level + 1)
            if climb_cost(board, dot, level, to) is not None
        ]
        for place in steps:
            if place not in seen and place[0] != avoid:
                seen.add(place)
                queue.append(place)
    return seen


def climbs(board: DotMap, ground: Ground) -> list[Dot]:
    return [dot for dot in board.dots() if board.ground(dot) is ground]


@pytest.mark.parametrize("name", NAMES)
def test_each_map_loads_within_26_dots(name: str) -> None:
    # Plan section 5: "dots.py names columns A-Z, so a map is at most 26 dots wide".
    board = shipped(name)
    assert board.name == name.title()
    assert board.description
    assert 1 <= board.width <= MAX_BOARD_SIDE and 1 <= board.height <= MAX_BOARD_SIDE


@pytest.mark.parametrize("name", NAMES)
def test_every_open_ground_dot_reaches_every_other(name: str) -> None:
    # Basic Movement: troopers "move between adjacent dots"; a map that walls off open ground
    # would strand a trooper deployed there. Reaching is symmetric here (sides cost the same
    # both ways), so one start reaching every dot means every dot reaches every other.
    board = shipped(name)
    open_ground = {dot for dot in board.dots() if not board.impassable(dot)}
    for start in (min(open_ground), max(open_ground)):
        assert set(reach(board, start, budget=EVERYWHERE)) == open_ground


def test_farmhouse_upper_floor_only_by_the_stairs() -> None:
    # "Troopers may use stairs and ladders to change levels in or on a building" (Basic
    # Movement ¶4): the whole upper floor is reached, and only through the stairs dot.
    board = shipped("farmhouse")
    (stairs,) = climbs(board, Ground.STAIRS)
    assert climbs(board, Ground.LADDER) == []
    upper = {dot for dot in board.dots() if board.top(dot) >= 1}
    outside = (Dot(0, 0), 0)
    assert {dot for dot, level in places_reached(board, outside) if level == 1} == upper
    assert all(level == 0 for _, level in places_reached(board, outside, avoid=stairs))
    # From the stairs, at the upper level, every room upstairs (a door in the partition).
    assert set(reach(board, stairs, level=1, budget=EVERYWHERE)) == upper


def test_ruins_roof_only_by_the_ladder() -> None:
    # Basic Movement ¶4 again, with a ladder; and "troopers cannot voluntarily fall out of an
    # upper story window or off of a building" (¶3): no step from the roof to the ground.
    board = shipped("ruins")
    (ladder,) = climbs(board, Ground.LADDER)
    assert climbs(board, Ground.STAIRS) == []
    roof = {dot for dot in board.dots() if board.top(dot) >= 1}
    outside = (Dot(0, board.height - 1), 0)
    assert {dot for dot, level in places_reached(board, outside) if level == 1} == roof
    assert all(level == 0 for _, level in places_reached(board, outside, avoid=ladder))
    for dot in roof - {ladder}:
        assert all(
            step_cost(board, dot, other, 1) is None
            for other in dot.neighbours()
            if other not in roof
        )


def test_farmhouse_upper_window_sees_what_the_wall_below_hides() -> None:
    # Line of Sight ¶3: "If either the firing trooper or the targeted trooper is at a higher
    # level, such as at the window in a building, then only obstructions and obstacles at the
    # same level of the higher trooper provide cover or block line of sight."
    board = shipped("farmhouse")
    inside, outside, target = D("I6"), D("J5"), D("K3")
    assert board.feature(inside, outside, 1) is Feature.WINDOW
    assert board.feature(inside, outside, 0) is Feature.WALL
    assert sight(board, Body(inside, level=1), Body(target)).clear
    assert not sight(board, Body(inside, level=0), Body(target)).clear


def test_ruins_roof_sees_over_the_tower_walls() -> None:
    # Line of Sight ¶3, as above: from the roof the tower's ground-floor walls do not count, and
    # the parapet (a low wall at the roof's level) on the roof's far edge is cover, +1, since
    # only the firer's own sides give none (Resolving Fire ¶5). Inside, below, the wall blocks.
    board = shipped("ruins")
    roof, target = D("K7"), D("E9")
    assert board.top(roof) == 1
    assert sight(board, Body(roof, level=1), Body(target)) == (True, 1)
    assert not sight(board, Body(roof, level=0), Body(target)).clear


def test_farmhouse_door_costs_2_and_window_4() -> None:
    # Movement AP Costs: "Through door 2", "Through window 4"; Basic Movement ¶3: "Movement
    # between adjacent dots that passes through a doorway costs 2 AP ... through a window
    # costs 4 AP". Both ways, and a wall is not passed at all.
    board = shipped("farmhouse")
    assert board.feature(D("I9"), D("I10")) is Feature.DOOR
    assert step_cost(board, D("I10"), D("I9")) == 2
    assert step_cost(board, D("I9"), D("I10")) == 2
    assert board.feature(D("G7"), D("H7")) is Feature.WINDOW
    assert step_cost(board, D("G7"), D("H7")) == 4
    assert step_cost(board, D("H7"), D("G7")) == 4
    assert board.feature(D("I6"), D("J5")) is Feature.WALL
    assert step_cost(board, D("J5"), D("I6")) is None


def test_no_step_out_of_an_upper_window() -> None:
    # Basic Movement ¶3: "troopers cannot voluntarily fall out of an upper story window".
    board = shipped("farmhouse")
    assert step_cost(board, D("I6"), D("J5"), level=1) is None
