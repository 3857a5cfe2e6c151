"""What moving costs on a map of dots (rulebook 002: Basic Movement and its Movement AP table).

Pure functions of a `DotMap`: the cost of one step, of a level change, of a typed path, the
cheapest route and everything reachable within the 8 AP movement cap. The engine charges the AP
and keeps the trooper's dot, level and prone state; this module only prices and refuses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from skirmbot.rules.dots import Dot, reachable
from skirmbot.rules.infantry.maps import DotMap, Feature, Ground

# The Movement AP Costs table, by its rows' names.
MOVE_COSTS: dict[str, int] = {
    "standard": 1,
    "obstructed": 2,
    "door": 2,
    "window": 4,
    "level": 3,
    "prone": 1,
    "stand": 2,
}
PRONE_FACTOR = 2  # "Move while prone: 2x"
MOVE_CAP = 8  # Basic Movement ¶1: "a maximum of 8 AP for movement"

# What crossing each side feature costs; a wall is not crossed at all.
_CROSSING: dict[Feature, int] = {
    Feature.LOW: MOVE_COSTS["obstructed"],
    Feature.LIGHT: MOVE_COSTS["obstructed"],
    Feature.DOOR: MOVE_COSTS["door"],
    Feature.WINDOW: MOVE_COSTS["window"],
}


def step_cost(board: DotMap, a: Dot, b: Dot, level: int = 0, prone: bool = False) -> int | None:
    """The AP of one step from a to neighbouring b at `level`, or None where it is refused.

    Refused: b not a neighbour, off the map, impassable, without a floor at `level` (no step out
    of an upper window or off a roof: Basic Movement ¶3), or across a wall at that level.
    """
    if a.distance(b) != 1 or not board.has_level(b, level):
        return None
    feature = board.feature(a, b, level)
    if feature is Feature.WALL:
        return None
    cost = MOVE_COSTS["standard"] if feature is None else _CROSSING[feature]
    return cost * PRONE_FACTOR if prone else cost


def climb_cost(board: DotMap, dot: Dot, level: int, to: int, prone: bool = False) -> int | None:
    """The AP of changing level on stairs or a ladder, one level at a time, staying on the dot
    (Basic Movement ¶4); while prone it doubles (our ruling: 6, plan row "prone")."""
    if board.ground(dot) not in (Ground.STAIRS, Ground.LADDER) or abs(to - level) != 1:
        return None
    if not (board.has_level(dot, level) and board.has_level(dot, to)):
        return None
    cost = MOVE_COSTS["level"]
    return cost * PRONE_FACTOR if prone else cost


def path_cost(
    board: DotMap, start: Dot, path: Sequence[Dot], level: int = 0, prone: bool = False
) -> int | None:
    """The AP of walking `path` (the dots after `start`, in order) at one level, or None when a
    step of it is refused."""
    total, here = 0, start
    for dot in path:
        cost = step_cost(board, here, dot, level, prone)
        if cost is None:
            return None
        total, here = total + cost, dot
    return total


def reach(
    board: DotMap, start: Dot, level: int = 0, prone: bool = False, budget: int = MOVE_CAP
) -> dict[Dot, int]:
    """Every dot reachable from `start` at `level` for at most `budget` AP, with its least cost."""
    return reachable(start, budget, _passable(board, level), _pricing(board, level, prone))


def route(
    board: DotMap,
    start: Dot,
    goal: Dot,
    level: int = 0,
    prone: bool = False,
    budget: int = MOVE_CAP,
) -> list[Dot] | None:
    """The cheapest steps from `start` to `goal` (the dots after `start`, goal last) within the
    budget, or None. Among equal routes the one through the earliest neighbours (dots.py's
    clockwise order, walked back from the goal), so the same question always gets one answer.
    """
    costs = reach(board, start, level, prone, budget)
    if goal not in costs:
        return None
    steps: list[Dot] = []
    here = goal
    while here != start:
        steps.append(here)
        here = _previous(board, costs, here, level, prone)
    return steps[::-1]


def _previous(board: DotMap, costs: dict[Dot, int], dot: Dot, level: int, prone: bool) -> Dot:
    # A dot on a cheapest route is entered from a neighbour whose least cost plus the step's
    # equals its own; Dijkstra's costs guarantee one exists.
    for before in dot.neighbours():
        cost = step_cost(board, before, dot, level, prone) if before in costs else None
        if cost is not None and costs[before] + cost == costs[dot]:
            return before
    raise AssertionError(f"no cheapest step into {dot}")


def _passable(board: DotMap, level: int) -> Callable[[Dot], bool]:
    return lambda dot: board.has_level(dot, level)


def _pricing(board: DotMap, level: int, prone: bool) -> Callable[[Dot, Dot], int | None]:
    return lambda a, b: step_cost(board, a, b, level, prone)
