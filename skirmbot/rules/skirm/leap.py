"""Leap (LPx), Skirm's own movement: the squares a Leap can end on (rulebook Leap; rulings:
Movement). The kernel's movement (skirmbot.rules.movement) knows only steps."""

from __future__ import annotations

from collections.abc import Mapping

from skirmbot.rules.board import Board
from skirmbot.rules.movement import Route
from skirmbot.rules.squares import Square


def leap_squares(
    board: Board, start: Square, reach: int, units: Mapping[Square, str]
) -> dict[Square, Route]:
    """LPx: squares up to `reach` away in a straight line (orthogonal or diagonal), over levels,
    walls and difficult ground, which a leap ignores. Like FLY, it is stopped by closed doors
    and impassable squares (docs/rulings.md); it passes over units but never ends on one.
    The cost of each is the number of squares leapt (the action costs 2 ACT whatever the
    distance)."""
    ends: dict[Square, Route] = {}
    for dx, dy in ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
        path = [start]
        for _ in range(reach):
            here, there = path[-1], path[-1].offset(dx, dy)
            if not board.is_open(there) or _door_in_the_way(board, here, there):
                break
            path.append(there)
            if there not in units:
                ends[there] = Route(len(path) - 1, tuple(path))
    return ends


def _door_in_the_way(board: Board, here: Square, there: Square) -> bool:
    """A closed door on any edge the step crosses (for a diagonal, the edges at the corner)."""
    if here.x == there.x or here.y == there.y:
        return board.door_closed(here, there)
    corner = (Square(there.x, here.y), Square(here.x, there.y))
    return any(board.door_closed(a, b) for a in (here, there) for b in corner)
