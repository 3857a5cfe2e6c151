"""A hexagonal grid of dots (rulebook 002: Movement, Firing Arcs, Line of Sight, Explosives).

Rulebook 002's troopers "move between adjacent dots" and a scatter roll of 1D6 picks one of six
directions "proceeding clockwise", so every dot has six neighbours: the dots are the centres of
a hexagonal grid. This module is that grid's geometry and nothing else (no terrain, no rules).

Layout: pointy-top hexagons in rows ("odd-r"): row 1 is the top row, and every second row
(rows 2, 4, ...) sits half a dot to the right, so a rectangular map is a rectangle of dots named
like squares, column letter and row number ("C4").

Directions, clockwise from the first (the scatter's 1): north-east, east, south-east,
south-west, west, north-west. Bearings are degrees clockwise from north-east, so a neighbour's
bearing is 60 times its direction's number.

Exact arithmetic for lines: in the skewed integer coordinates u = 2q + r, v = 3r (q, r axial),
every dot centre and every hexagon corner has integer coordinates and straight lines stay
straight, so whether a line touches a hexagon is decided by integer cross products.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Callable, Iterator
from enum import IntEnum
from typing import NamedTuple

from skirmbot.rules.errors import RulesError

_NOTATION = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")
MAX_BOARD_SIDE = 26
# The firing arcs of rulebook 002's Firing Arc table, in degrees.
ARC_WIDTHS = (30, 60, 150)
# Bearings are floats from atan2; a dot this close to an arc's edge counts as on the edge.
_ANGLE_TOLERANCE = 1e-9
# A hexagon's corners around its centre in the skewed (u, v) coordinates, clockwise from the
# top corner; side i (corner i to corner i + 1) faces Direction(i).
CORNERS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
# Screen angle (clockwise from straight up) of the first direction, north-east.
_FIRST_DIRECTION_COMPASS = 30.0


class Direction(IntEnum):
    """The six directions from a dot, clockwise; NORTH_EAST is the scatter roll's 1."""

    NORTH_EAST = 0
    EAST = 1
    SOUTH_EAST = 2
    SOUTH_WEST = 3
    WEST = 4
    NORTH_WEST = 5

    @property
    def opposite(self) -> Direction:
        return Direction((self + 3) % 6)

    @property
    def angle(self) -> int:
        """The bearing of this direction: degrees clockwise from north-east."""
        return 60 * self.value

    @classmethod
    def from_scatter(cls, roll: int) -> Direction:
        """The direction a 1D6 scatter roll picks: 1 is north-east, then clockwise."""
        if not 1 <= roll <= 6:
            raise RulesError(f"A scatter roll is 1 to 6, not {roll}.")
        return cls(roll - 1)


# Axial (q, r) steps of the six directions, in Direction order.
_AXIAL_STEPS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


class Dot(NamedTuple):
    """A dot of the map: 0-based column `x` (A = 0) and row `y` (1 = 0, growing down).

    Offset coordinates, like Square, rather than axial: maps, the A1 notation and "is it on the
    board" are all rectangles in offset coordinates, and a NamedTuple keeps dots fast dictionary
    keys. The arithmetic (distance, neighbours, lines) converts to axial, where it is simple.
    """

    x: int
    y: int

    @classmethod
    def parse(cls, text: str) -> Dot:
        """Read `C4` or `c4`; raise a RulesError that shows the expected form otherwise."""
        match = _NOTATION.match(text)
        if match is None or int(match.group(2)) < 1:
            raise RulesError(
                f"'{text}' is not a dot: write a column letter and a row number, like C4."
            )
        return cls(ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1)

    def __str__(self) -> str:
        return f"{chr(ord('A') + self.x)}{self.y + 1}"

    @classmethod
    def from_axial(cls, q: int, r: int) -> Dot:
        return cls(q + (r - (r & 1)) // 2, r)

    @property
    def axial(self) -> tuple[int, int]:
        """(q, r): odd rows are shifted right, so q falls by one every two rows down."""
        return self.x - (self.y - (self.y & 1)) // 2, self.y

    def neighbour(self, direction: Direction) -> Dot:
        q, r = self.axial
        dq, dr = _AXIAL_STEPS[direction]
        return Dot.from_axial(q + dq, r + dr)

    def neighbours(self) -> list[Dot]:
        """The six adjacent dots in Direction order (some may lie off the map)."""
        return [self.neighbour(direction) for direction in Direction]

    def distance(self, other: Dot) -> int:
        """Steps between the dots on an empty map (the rulebook's "dots 2 away")."""
        q1, r1 = self.axial
        q2, r2 = other.axial
        dq, dr = q2 - q1, r2 - r1
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def ring(self, n: int) -> list[Dot]:
        """The dots exactly n away, clockwise from the one n steps north-east."""
        if n < 0:
            raise ValueError(f"a ring's radius is not negative: {n}")
        if n == 0:
            return [self]
        dot = self
        for _ in range(n):
            dot = dot.neighbour(Direction.NORTH_EAST)
        found: list[Dot] = []
        # Each side of the ring runs from one corner to the next clockwise: two directions on.
        for side in Direction:
            for _ in range(n):
                found.append(dot)
                dot = dot.neighbour(Direction((side + 2) % 6))
        return found

    def within(self, n: int) -> list[Dot]:
        """The dots at most n away, nearest first (a blast's damage falls off by distance)."""
        return [dot for radius in range(n + 1) for dot in self.ring(radius)]


# A side shared by two neighbouring dots, the smaller dot first so each side has one key.
Edge = tuple[Dot, Dot]


def edge(a: Dot, b: Dot) -> Edge:
    """The key of the side between two neighbouring dots (where a wall or window sits)."""
    if a.distance(b) != 1:
        raise ValueError(f"{a} and {b} are not neighbours")
    return (a, b) if a < b else (b, a)


def direction_to(a: Dot, b: Dot) -> Direction:
    """Which of a's six directions b lies in, for neighbouring dots."""
    for direction in Direction:
        if a.neighbour(direction) == b:
            return direction
    raise ValueError(f"{a} and {b} are not neighbours")


# --- lines -----------------------------------------------------------------------------------


class Line(NamedTuple):
    """What a straight centre-to-centre line passes through: dots (both ends included) and the
    sides between neighbouring dots it meets."""

    dots: frozenset[Dot]
    edges: frozenset[Edge]


Point = tuple[int, int]  # a point in the skewed (u, v) coordinates: every centre and corner is one


def skewed(dot: Dot) -> Point:
    """The dot's centre in whole-number coordinates u = 2q + r, v = 3r, where every centre and
    hexagon corner is an integer point (so lines are decided exactly; sight reads them too)."""
    q, r = dot.axial
    return 2 * q + r, 3 * r


def _cross(o: Point, a: Point, b: Point) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    """p lies on the closed segment ab, given that it is on ab's line."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def _segments_meet(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """The closed segments p1p2 and q1q2 share at least one point."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return (
        (d1 == 0 and _on_segment(p1, q1, q2))
        or (d2 == 0 and _on_segment(p2, q1, q2))
        or (d3 == 0 and _on_segment(q1, p1, p2))
        or (d4 == 0 and _on_segment(q2, p1, p2))
    )


def _side(dot: Dot, direction: Direction) -> tuple[Point, Point]:
    """The side of dot's hexagon that faces `direction`, as its two corners."""
    u, v = skewed(dot)
    (du1, dv1), (du2, dv2) = CORNERS[direction], CORNERS[(direction + 1) % 6]
    return (u + du1, v + dv1), (u + du2, v + dv2)


def _touches(dot: Dot, a: Point, b: Point) -> bool:
    """The closed segment ab meets dot's closed hexagon. a and b are dot centres, so a segment
    that meets the hexagon either ends at its centre or meets one of its sides."""
    if skewed(dot) in (a, b):
        return True
    return any(_segments_meet(a, b, *_side(dot, direction)) for direction in Direction)


def _round_axial(q: float, r: float) -> Dot:
    """The dot whose hexagon holds the axial point (q, r): round in cube coordinates and fix
    the coordinate that rounded furthest, so the three still sum to zero."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Dot.from_axial(rq, rr)


def _near_line(a: Dot, b: Dot) -> set[Dot]:
    """Every dot the line from a to b could touch, and a few more.

    Points every half step along the line land in dots; any point of the line is within a
    quarter of a dot spacing of one of them, so every dot the line touches is one of them or
    their neighbour (floats only choose candidates: the exact test decides).
    """
    (q1, r1), (q2, r2) = a.axial, b.axial
    steps = 2 * max(1, a.distance(b))
    near: set[Dot] = set()
    for i in range(steps + 1):
        t = i / steps
        near.update(_round_axial(q1 + (q2 - q1) * t, r1 + (r2 - r1) * t).within(1))
    return near


def line(a: Dot, b: Dot) -> Line:
    """The dots and sides a straight line from a's centre to b's centre passes through.

    The line is the closed segment, decided exactly, so the answer is the same whichever end it
    starts from. A line that runs exactly along a side, or through a corner where three dots
    meet, touches the dots on both sides: it passes through all of them and meets every side it
    touches, even at a corner (the cautious reading; a rule that wants the clearer side can
    choose among them, and does so the same way from both ends).
    """
    start, end = skewed(a), skewed(b)
    dots = frozenset(dot for dot in _near_line(a, b) if _touches(dot, start, end))
    edges: set[Edge] = set()
    for dot in dots:
        for direction in Direction:
            other = dot.neighbour(direction)
            if other in dots and _segments_meet(start, end, *_side(dot, direction)):
                edges.add(edge(dot, other))
    return Line(dots, frozenset(edges))


# --- bearings and arcs -----------------------------------------------------------------------


def _screen_offset(a: Dot, b: Dot) -> tuple[float, float]:
    """b's centre relative to a's, in dot spacings, y growing down the map."""
    (u1, v1), (u2, v2) = skewed(a), skewed(b)
    return (u2 - u1) * math.sqrt(3) / 2, (v2 - v1) / 2


def bearing(a: Dot, b: Dot) -> float:
    """Degrees clockwise from north-east, in [0, 360), from a's centre to b's."""
    if a == b:
        raise ValueError(f"no bearing from {a} to itself")
    dx, dy = _screen_offset(a, b)
    compass = math.degrees(math.atan2(dx, -dy))
    angle = (compass - _FIRST_DIRECTION_COMPASS) % 360.0
    # atan2's rounding would put a neighbour at 59.99999999999999 or 360 - tiny: snap to whole
    # degrees when that close, so neighbours have exactly their direction's angle.
    nearest = round(angle)
    if abs(angle - nearest) < _ANGLE_TOLERANCE:
        angle = float(nearest % 360)
    return angle


def in_arc(vertex: Dot, facing: float, width: float, target: Dot) -> bool:
    """Whether target lies in the firing arc with its vertex on `vertex`, centred on the bearing
    `facing` (any orientation) and `width` degrees wide.

    A dot exactly on the arc's edge is in it (the arc is closed, so a 30-degree arc facing a
    neighbour's direction holds that line of dots, and the arc the player drew includes the
    dots its edge runs through). The vertex's own dot is not in the arc: it has no bearing.
    """
    if not 0 < width < 360:
        raise ValueError(f"an arc is wider than 0 and narrower than 360 degrees, not {width}")
    if target == vertex:
        return False
    off = (bearing(vertex, target) - facing + 180.0) % 360.0 - 180.0
    return abs(off) <= width / 2 + _ANGLE_TOLERANCE


# --- paths and drawing -----------------------------------------------------------------------


def path_length(
    a: Dot,
    b: Dot,
    passable: Callable[[Dot], bool],
    cost: Callable[[Dot, Dot], int | None],
) -> int | None:
    """The least total cost of stepping from a to b between neighbouring dots, or None.

    `passable(dot)` says whether a dot may be entered (it must be False off the map, which is
    what keeps the search finite); `cost(from, to)` is one step's cost, never negative, None
    where the step is barred (a high wall on the side between). a itself need not be passable:
    a trooper stands on it. A small Dijkstra rather than networkx: the grid is implicit, and
    building a graph of the whole map for every question would cost more than the search.
    """
    return _search(a, passable, cost, goal=b).get(b)


def reachable(
    a: Dot,
    budget: int,
    passable: Callable[[Dot], bool],
    cost: Callable[[Dot, Dot], int | None],
) -> dict[Dot, int]:
    """Every dot a trooper on a can reach for at most `budget` (e.g. its 8 AP of movement), with
    the least cost of reaching it; a itself costs 0. Arguments as for `path_length`."""
    return _search(a, passable, cost, budget=budget)


def _search(
    a: Dot,
    passable: Callable[[Dot], bool],
    cost: Callable[[Dot, Dot], int | None],
    goal: Dot | None = None,
    budget: int | None = None,
) -> dict[Dot, int]:
    """Dijkstra from a: the least costs found, final for every dot popped; stops at `goal`."""
    best: dict[Dot, int] = {a: 0}
    done: dict[Dot, int] = {}
    queue: list[tuple[int, Dot]] = [(0, a)]
    while queue:
        spent, dot = heapq.heappop(queue)
        if dot in done:
            continue
        done[dot] = spent
        if dot == goal:
            break
        for to, price in _steps(dot, passable, cost):
            total = spent + price
            if (budget is None or total <= budget) and total < best.get(to, total + 1):
                best[to] = total
                heapq.heappush(queue, (total, to))
    return done


def _steps(
    dot: Dot, passable: Callable[[Dot], bool], cost: Callable[[Dot, Dot], int | None]
) -> Iterator[tuple[Dot, int]]:
    for to in dot.neighbours():
        if passable(to):
            price = cost(dot, to)
            if price is not None:
                yield to, price


def centre(dot: Dot, size: float) -> tuple[float, float]:
    """The pixel centre of dot's pointy-top hexagon of circumradius `size`, placed so that A1's
    hexagon touches the picture's top and left edges."""
    x = size * math.sqrt(3) * (dot.x + 0.5 * (dot.y & 1) + 0.5)
    y = size * (1.0 + 1.5 * dot.y)
    return x, y
