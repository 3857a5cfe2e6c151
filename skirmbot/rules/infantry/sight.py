"""Line of sight and cover on a map of dots (rulebook 002: Line of Sight ¶1-3, Resolving Fire ¶5).

`sight(board, firer, target, others)` draws the straight line of `dots.line` and reads what
stands on it. A line that runs exactly along a side or through a corner touches the dots on both
sides (dots.py's cautious reading); our ruling (plan section 2) takes the clearer side, as a
player at a table would: the line is split into its left-hand and right-hand readings (the line
moved a hair to either side), and sight is clear if either reading is clear, with the lesser
cover of the clear ones. The readings do not depend on which end the line starts from, so sight
between two standing troopers on one level is symmetric.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

# The exact (skewed, integer) coordinates dots.line decides in: the readings must split the very
# dots and sides it found, by the same arithmetic, or a corner could be read two ways.
from skirmbot.rules.dots import CORNERS, Dot, Edge, direction_to, line, skewed
from skirmbot.rules.infantry.maps import DotMap, Feature

_OBSTRUCTIONS = (Feature.LOW, Feature.LIGHT, Feature.WINDOW)  # cover, no block (LoS ¶1)
_SOLID_LOW = (Feature.LOW, Feature.WINDOW)  # "solid low obstructions" (LoS ¶2; window: §2)


class Body(NamedTuple):
    """Where a trooper is, as sight needs it."""

    dot: Dot
    level: int = 0
    prone: bool = False


class Sight(NamedTuple):
    clear: bool
    cover: int  # +1 per obstruction or trooper on the line, not the firer's own sides


class _Reading(NamedTuple):
    dots: frozenset[Dot]
    edges: frozenset[Edge]


def sight(board: DotMap, firer: Body, target: Body, others: Iterable[Body] = ()) -> Sight:
    """Whether `firer` sees `target`, and the cover between them; `others` are the other
    troopers on the map (either side: both give cover, LoS ¶1)."""
    if firer.dot == target.dot:
        return Sight(True, 0)
    bodies = tuple(others)
    results = [_read(board, firer, target, bodies, reading) for reading in _readings(firer, target)]
    clear = [cover for blocked, cover in results if not blocked]
    return Sight(True, min(clear)) if clear else Sight(False, 0)


# --- the two readings of a line --------------------------------------------------------------


def _readings(firer: Body, target: Body) -> tuple[_Reading, _Reading]:
    """The line's dots and sides as seen by the line moved a hair left, then a hair right.

    Each dot and side is placed by the signs of its corners against the line: one with corners
    strictly on both sides is crossed by both readings; one touched only at its corners or along
    a side lies on one side and is met by that reading only. A side the line runs exactly along
    is met by neither (the moved line runs beside it, through the dots on either hand).
    """
    whole = line(firer.dot, target.dot)
    start, end = skewed(firer.dot), skewed(target.dot)
    left_dots: set[Dot] = set()
    right_dots: set[Dot] = set()
    for dot in whole.dots:
        signs = {_sign(start, end, corner) for corner in _hexagon(dot)}
        if dot in (firer.dot, target.dot) or {1, -1} <= signs:
            left_dots.add(dot)
            right_dots.add(dot)
        elif 1 in signs:
            left_dots.add(dot)
        else:
            right_dots.add(dot)
    left_edges: set[Edge] = set()
    right_edges: set[Edge] = set()
    for side in whole.edges:
        signs = {_sign(start, end, corner) for corner in _corners(side)}
        if 1 in signs:
            left_edges.add(side)
        if -1 in signs:
            right_edges.add(side)
    # From the other end left and right swap; sight takes the clearer, so the pair is enough.
    return (
        _Reading(frozenset(left_dots), frozenset(left_edges)),
        _Reading(frozenset(right_dots), frozenset(right_edges)),
    )


def _sign(start: tuple[int, int], end: tuple[int, int], point: tuple[int, int]) -> int:
    cross = (end[0] - start[0]) * (point[1] - start[1]) - (end[1] - start[1]) * (
        point[0] - start[0]
    )
    return (cross > 0) - (cross < 0)


def _hexagon(dot: Dot) -> list[tuple[int, int]]:
    u, v = skewed(dot)
    return [(u + du, v + dv) for du, dv in CORNERS]


def _corners(side: Edge) -> tuple[tuple[int, int], tuple[int, int]]:
    a, b = side
    corners = _hexagon(a)
    direction = direction_to(a, b)
    return corners[direction], corners[(direction + 1) % 6]


# --- what a reading passes ---------------------------------------------------------------------


def _read(
    board: DotMap, firer: Body, target: Body, others: tuple[Body, ...], reading: _Reading
) -> tuple[bool, int]:
    """(blocked, cover) along one reading."""
    blocked, cover = _sides(board, firer, target, reading)
    blocked = blocked or _obstacle_dots(board, firer, target, reading)
    return blocked, cover + _troopers(firer, target, others, reading)


def _counts(firer: Body, target: Body, dots: Iterable[Dot], level: int) -> bool:
    """LoS ¶3: on one level, that level's features count; across levels, only the higher
    trooper's level, except within one dot of the target (our ruling: a side with an end on the
    target's dot or a neighbour of it, at any level)."""
    high = max(firer.level, target.level)
    if level == high:
        return True
    return firer.level != target.level and any(dot.distance(target.dot) <= 1 for dot in dots)


def _sides(board: DotMap, firer: Body, target: Body, reading: _Reading) -> tuple[bool, int]:
    cover = 0
    for side in reading.edges:
        own = firer.dot in side  # Resolving Fire ¶5: not the firer's own sides
        for level, feature in board.features_on(side).items():
            if not _counts(firer, target, side, level):
                continue
            if feature is Feature.WALL or _prone_block(firer, target, feature, own):
                return True, 0
            if feature in _OBSTRUCTIONS and not own:
                cover += 1
    return False, cover


def _prone_block(firer: Body, target: Body, feature: Feature, own: bool) -> bool:
    """LoS ¶2: either prone, a solid low obstruction adjacent to the firer blocks (as written);
    both prone, any solid low obstruction blocks."""
    if feature not in _SOLID_LOW:
        return False
    if firer.prone and target.prone:
        return True
    return (firer.prone or target.prone) and own


def _obstacle_dots(board: DotMap, firer: Body, target: Body, reading: _Reading) -> bool:
    # An impassable dot (a tree trunk, a rock) stands on the ground, level 0.
    between = reading.dots - {firer.dot, target.dot}
    return any(board.impassable(dot) and _counts(firer, target, (dot,), 0) for dot in between)


def _troopers(firer: Body, target: Body, others: tuple[Body, ...], reading: _Reading) -> int:
    """LoS ¶1: a trooper between is cover (our ruling: not a block), unless the firer stands and
    it lies prone."""
    between = reading.dots - {firer.dot, target.dot}
    return sum(
        1
        for body in others
        if body.dot in between
        and _counts(firer, target, (body.dot,), body.level)
        and not (body.prone and not firer.prone)
    )
