"""Line of sight and cover (rulings: Line of sight and cover).

Models stand about a square tall: a line of sight runs from the top of the attacker's head (its
level + 1) to the top of the target's head. It is obstructed by (a) an edge whose top rises
above it, (b) an impassable square, (c) ground higher than the line, and (d) another Unit whose
head reaches the line.

Exact arithmetic without Fraction objects: coordinates are scaled by 10, so every sight point
(1/10 inside a corner) and every grid line has integer coordinates. A segment from P to Q is
walked by an integer parameter `s` from 0 at P to `span` at Q, chosen so that every grid line
is crossed at an integer `s`; heights along it are kept multiplied by `span`. Every decision is
then a comparison of integers.

Terrain never changes during a match except for doors, so the terrain part of each
attacker/target answer is remembered in the board's memo, which the board clears when a door
opens or closes; Units are checked on each call.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction

from skirmbot.rules.board import Board, EdgeKey
from skirmbot.rules.squares import Square

# A point on the map in squares: A1 spans (0, 0)..(1, 1). Exact, for drawing lines.
Point = tuple[Fraction, Fraction]

SCALE = 10
# Sight points of a square scaled by SCALE, from its top-left corner: TL, TR, BL, BR.
_SIGHT_OFFSETS = ((1, 1), (9, 1), (1, 9), (9, 9))
# Sight points lie within this distance (scaled, along x and along y) of their square's centre.
_SIGHT_SPREAD = 4
# The target square's edges in the order tried, with the indices of the two sight points next
# to each: top, bottom, left, right.
_TOP, _BOTTOM, _LEFT, _RIGHT = (0, 1), (2, 3), (0, 2), (1, 3)
# High ground: an attacker this many levels above the target ignores cover.
HIGH_GROUND = 2
# Beyond this many remembered attacker/target answers, start afresh.
_MEMORY_LIMIT = 100_000


@dataclass(frozen=True, slots=True)
class Sight:
    """What an attacker sees of a target.

    `cover` is the final terrain cover (high ground already applied), False when not visible;
    `terrain_cover` is the terrain's cover before high ground takes it away (Skirm Lite, whose
    High Ground only adds to the attacker's SKL).
    `lines` are the two segments of one sight-point/edge pair that gave line of sight, in
    squares, for drawing (a pair without cover when the target is not in cover); empty when
    not visible.
    """

    visible: bool
    cover: bool
    lines: tuple[tuple[Point, Point], ...]
    terrain_cover: bool = False


NOT_VISIBLE = Sight(False, False, ())


def sight(board: Board, attacker: Square, target: Square, occupied: Collection[Square]) -> Sight:
    """Line of sight and cover from the Unit on `attacker` to the Unit on `target`.

    `occupied` holds every square with a Unit on it; the attacker's and target's squares
    never block, whether listed or not.
    """
    if not (board.is_open(attacker) and board.is_open(target)):
        return NOT_VISIBLE
    view = _view(board, attacker, target)
    if not view.pairs:
        return NOT_VISIBLE
    corridor = view.corridor
    # Impassable squares hold nobody and obstruct anyway.
    in_the_way = [
        square
        for square in occupied
        if corridor.near_square(square)
        and square != attacker
        and square != target
        and board.is_open(square)
    ]
    if not in_the_way:
        return view.terrain_verdict()
    clear = list(view.clear)
    for square in in_the_way:
        x0, y0, head = square.x * SCALE, square.y * SCALE, board.level(square) + 1
        for index, segment in enumerate(view.segments):
            if clear[index] and segment.reaches_head(x0, y0, head):
                clear[index] = False
    return view.verdict(clear)


def line_of_sight(
    board: Board, attacker: Square, target: Square, occupied: Collection[Square]
) -> bool:
    """Whether the Unit on `attacker` has line of sight to the Unit on `target`."""
    return sight(board, attacker, target, occupied).visible


def in_cover(board: Board, attacker: Square, target: Square, occupied: Collection[Square]) -> bool:
    """Whether the target is visible and in cover from the attacker (high ground applied)."""
    return sight(board, attacker, target, occupied).cover


# --- segments and edges --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Edge:
    """An edge between two squares, scaled: on the grid line x = `line` (vertical) or
    y = `line`, from `start` to `start + SCALE` along it."""

    vertical: bool
    line: int
    start: int
    squares: EdgeKey

    def box(self) -> tuple[int, int, int, int]:
        """The edge as a flat box (x0, y0, x1, y1)."""
        if self.vertical:
            return (self.line, self.start, self.line, self.start + SCALE)
        return (self.start, self.line, self.start + SCALE, self.line)


def _edge_between(a: Square, b: Square) -> _Edge:
    if a.y == b.y:
        return _Edge(True, max(a.x, b.x) * SCALE, a.y * SCALE, (a, b))
    return _Edge(False, max(a.y, b.y) * SCALE, a.x * SCALE, (a, b))


class _Segment:
    """A closed segment from P to Q, scaled by SCALE, with the heights of a line of sight
    from a Unit on level `la` to one on level `lt` along it.

    `s` runs from 0 at P to `span` at Q; x = px + s * dx / span (likewise y). The line's
    height at `s`, times `span`, is `base + s * rise` (rulings: Height along a line).
    """

    __slots__ = ("px", "py", "qx", "qy", "dx", "dy", "span", "kx", "ky", "base", "rise")

    def __init__(self, p: tuple[int, int], q: tuple[int, int], la: int, lt: int) -> None:
        self.px, self.py = p
        self.qx, self.qy = q
        self.dx, self.dy = q[0] - p[0], q[1] - p[1]
        # span is a multiple of |dx| and |dy| so that kx = span / dx and ky = span / dy are
        # integers: the grid line x = X is crossed at s = (X - px) * kx.
        self.span = abs(self.dx * self.dy) if self.dx and self.dy else abs(self.dx or self.dy)
        self.kx = self.span // self.dx if self.dx else 0
        self.ky = self.span // self.dy if self.dy else 0
        self.base = (la + 1) * self.span
        self.rise = lt - la

    def meeting(self, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int] | None:
        """The range of s where the segment meets the closed box [x0, x1] x [y0, y1]."""
        low, high = 0, self.span
        for k, start, near, far in ((self.kx, self.px, x0, x1), (self.ky, self.py, y0, y1)):
            if k == 0:
                if not near <= start <= far:
                    return None
                continue
            if k < 0:
                near, far = far, near
            enter, leave = (near - start) * k, (far - start) * k
            if enter > low:
                low = enter
            if leave < high:
                high = leave
        return (low, high) if low <= high else None

    def meets(self, x0: int, y0: int, x1: int, y1: int) -> bool:
        return self.meeting(x0, y0, x1, y1) is not None

    def lowest_over(self, x0: int, y0: int) -> int | None:
        """The lowest height (times span) of the line where it meets the square with top-left
        corner (x0, y0), or None if it misses it. Heights are linear in s: take an end."""
        meeting = self.meeting(x0, y0, x0 + SCALE, y0 + SCALE)
        if meeting is None:
            return None
        s = meeting[0] if self.rise >= 0 else meeting[1]
        return self.base + s * self.rise

    def below_ground(self, x0: int, y0: int, level: int) -> bool:
        """(c): the square's ground is higher than the line somewhere they meet."""
        lowest = self.lowest_over(x0, y0)
        return lowest is not None and level * self.span > lowest

    def reaches_head(self, x0: int, y0: int, head: int) -> bool:
        """(d): a model on the square has its head at or above the line where they meet."""
        lowest = self.lowest_over(x0, y0)
        return lowest is not None and head * self.span >= lowest

    def crossing(self, edge: _Edge) -> int | None:
        """The s where the segment meets the edge. The segment is never along a grid line
        (sight points are not on one), so it meets an edge at most once."""
        if edge.vertical:
            k, start, along, step = self.kx, self.px, self.py, self.dy
        else:
            k, start, along, step = self.ky, self.py, self.px, self.dx
        if k == 0:
            return None
        s = (edge.line - start) * k
        if not 0 <= s <= self.span:
            return None
        # Where along the grid line it is crossed, times span.
        at = along * self.span + s * step
        return s if edge.start * self.span <= at <= (edge.start + SCALE) * self.span else None

    def below_top(self, edge: _Edge, top: int) -> bool:
        """(a): the edge's top is higher than the line where they meet."""
        s = self.crossing(edge)
        return s is not None and top * self.span > self.base + s * self.rise

    def points(self) -> tuple[Point, Point]:
        return (
            (Fraction(self.px, SCALE), Fraction(self.py, SCALE)),
            (Fraction(self.qx, SCALE), Fraction(self.qy, SCALE)),
        )


class _Corridor:
    """Where the lines between two squares run: strictly inside the box of the two squares
    (x and y in squares), and near the line between their centres."""

    __slots__ = ("x_min", "x_max", "y_min", "y_max", "centre")

    def __init__(self, attacker: Square, target: Square) -> None:
        self.x_min, self.x_max = sorted((attacker.x, target.x))
        self.y_min, self.y_max = sorted((attacker.y, target.y))
        half = SCALE // 2
        self.centre = _Segment(
            (attacker.x * SCALE + half, attacker.y * SCALE + half),
            (target.x * SCALE + half, target.y * SCALE + half),
            0,
            0,
        )

    def holds(self, square: Square) -> bool:
        """Whether the square is in the box: squares outside it meet no line."""
        return self.x_min <= square.x <= self.x_max and self.y_min <= square.y <= self.y_max

    def near(self, x0: int, y0: int, x1: int, y1: int) -> bool:
        """Whether some line may meet the scaled box [x0, x1] x [y0, y1]. The lines between
        sight points fill the centre line widened by the sight points' spread around their
        square's centre, so a box they meet is within that spread of the centre line."""
        spread = _SIGHT_SPREAD
        return self.centre.meets(x0 - spread, y0 - spread, x1 + spread, y1 + spread)

    def near_square(self, square: Square) -> bool:
        x0, y0 = square.x * SCALE, square.y * SCALE
        return self.holds(square) and self.near(x0, y0, x0 + SCALE, y0 + SCALE)


# --- the terrain of one board and door state -----------------------------------------------


@dataclass(frozen=True, slots=True)
class _Wall:
    edge: _Edge
    top: int


class _Terrain:
    """What can obstruct a line on one board with its doors as they are, Units aside."""

    def __init__(self, board: Board) -> None:
        self.impassable = sorted(board.impassable)
        # Ground no higher than 1 is never above a line, which is at least 1 high.
        self.raised = [
            (square, level)
            for square in board.squares()
            if board.is_open(square) and (level := board.level(square)) > 1
        ]
        # Edges without a wall need no test of their own: ground higher than the line at an
        # edge is higher than the line where it meets the higher square, test (c).
        self.walls = [
            _Wall(_edge_between(a, b), board.top(a, b))
            for (a, b), _ in sorted(board.edges())
            if board.wall_height(a, b) > 0
        ]
        self.views: dict[tuple[Square, Square], _View] = {}
        self._cover_edges: dict[Square, list[_Edge]] = {}

    def cover_edges(self, board: Board, target: Square) -> list[_Edge]:
        """The target's own edges whose top reaches its head: a low wall or ledge (rulings:
        Cover). Edges to impassable squares are left out: a line meeting one is obstructed."""
        edges = self._cover_edges.get(target)
        if edges is None:
            head = board.level(target) + 1
            edges = self._cover_edges[target] = [
                _edge_between(target, other)
                for other in (
                    target.offset(0, -1),
                    target.offset(0, 1),
                    target.offset(-1, 0),
                    target.offset(1, 0),
                )
                if board.is_open(other) and board.top(target, other) >= head
            ]
        return edges


class _View:
    """The terrain-only answer for one attacker square and target square."""

    __slots__ = (
        "segments",
        "pairs",
        "clear",
        "covered",
        "high_ground",
        "corridor",
        "_terrain_verdict",
    )

    def __init__(
        self,
        segments: list[_Segment],
        pairs: list[tuple[int, int]],
        clear: list[bool],
        covered: list[bool],
        high_ground: bool,
        corridor: _Corridor,
    ) -> None:
        self.segments = segments
        self.pairs = pairs  # sight-point/edge pairs, as the indices of their two segments
        self.clear = clear  # per segment: no terrain obstructs it
        self.covered = covered  # per segment: clear, and meets a target edge that gives cover
        self.high_ground = high_ground
        self.corridor = corridor
        self._terrain_verdict: Sight | None = None

    def terrain_verdict(self) -> Sight:
        """The answer when no Unit stands in the way."""
        if self._terrain_verdict is None:
            self._terrain_verdict = self.verdict(self.clear)
        return self._terrain_verdict

    def verdict(self, clear: list[bool]) -> Sight:
        """Line of sight and cover from the fates of the segments (rulings: Cover)."""
        seen = [(first, second) for first, second in self.pairs if clear[first] and clear[second]]
        if not seen:
            return NOT_VISIBLE
        covered = self.covered
        exposed = [pair for pair in seen if not (covered[pair[0]] or covered[pair[1]])]
        first, second = exposed[0] if exposed else seen[0]
        lines = (self.segments[first].points(), self.segments[second].points())
        return Sight(True, not exposed and not self.high_ground, lines, not exposed)


def _view(board: Board, attacker: Square, target: Square) -> _View:
    # The board forgets its memo whenever a door opens or closes.
    terrain = board.memo(_Terrain, lambda: _Terrain(board))
    view = terrain.views.get((attacker, target))
    if view is None:
        if len(terrain.views) >= _MEMORY_LIMIT:
            terrain.views.clear()
        view = terrain.views[(attacker, target)] = _build_view(board, terrain, attacker, target)
    return view


def _build_view(board: Board, terrain: _Terrain, attacker: Square, target: Square) -> _View:
    la, lt = board.level(attacker), board.level(target)
    ax, ay, tx, ty = attacker.x * SCALE, attacker.y * SCALE, target.x * SCALE, target.y * SCALE
    facing = _facing_edges(attacker, target)
    ends = sorted({j for edge in facing for j in edge})
    segments: list[_Segment] = []
    pairs: list[tuple[int, int]] = []
    for dx, dy in _SIGHT_OFFSETS:
        p = (ax + dx, ay + dy)
        number = {j: len(segments) + n for n, j in enumerate(ends)}
        segments.extend(
            _Segment(p, (tx + _SIGHT_OFFSETS[j][0], ty + _SIGHT_OFFSETS[j][1]), la, lt)
            for j in ends
        )
        pairs.extend((number[first], number[second]) for first, second in facing)
    corridor = _Corridor(attacker, target)
    obstacles = _Obstacles(board, terrain, attacker, target, corridor)
    clear = [not obstacles.obstruct(segment) for segment in segments]
    cover_edges = terrain.cover_edges(board, target)
    covered = [
        is_clear and any(segment.crossing(edge) is not None for edge in cover_edges)
        for segment, is_clear in zip(segments, clear, strict=True)
    ]
    high_ground = la - lt >= HIGH_GROUND
    return _View(segments, pairs, clear, covered, high_ground, corridor)


def _facing_edges(attacker: Square, target: Square) -> list[tuple[int, int]]:
    """The target's edges that face the attacker's sight points (rulings: Line of sight).

    A sight point lies strictly on the outer side of the line through a target edge exactly
    when its whole square does, as sight points are inside their squares and edges on grid
    lines: all four sight points face the same edges.
    """
    facing = []
    if attacker.y < target.y:
        facing.append(_TOP)
    if attacker.y > target.y:
        facing.append(_BOTTOM)
    if attacker.x < target.x:
        facing.append(_LEFT)
    if attacker.x > target.x:
        facing.append(_RIGHT)
    return facing


class _Obstacles:
    """Terrain that may obstruct lines between two squares: (a) walls, (b) impassable squares
    and (c) raised ground, scaled, with squares by their top-left corners.

    Lines run in the corridor between the two squares and none is lower than the lower
    Unit's head: anything else is left out.
    """

    __slots__ = ("blocks", "walls", "ground")

    def __init__(
        self,
        board: Board,
        terrain: _Terrain,
        attacker: Square,
        target: Square,
        corridor: _Corridor,
    ) -> None:
        la, lt = board.level(attacker), board.level(target)
        lowest_line = min(la, lt) + 1
        near = corridor.near_square

        def obstructing(wall: _Wall) -> bool:
            a, b = wall.edge.squares
            if wall.top <= lowest_line or not (corridor.holds(a) and corridor.holds(b)):
                return False
            if not corridor.near(*wall.edge.box()):
                return False
            # A parapet no higher than a model does not hide it (rulings: own edges).
            heads = [level + 1 for own, level in ((attacker, la), (target, lt)) if own in (a, b)]
            return not heads or wall.top > max(heads)

        self.blocks = [(sq.x * SCALE, sq.y * SCALE) for sq in terrain.impassable if near(sq)]
        self.walls = [wall for wall in terrain.walls if obstructing(wall)]
        self.ground = [
            (sq.x * SCALE, sq.y * SCALE, level)
            for sq, level in terrain.raised
            if level > lowest_line and near(sq)
        ]

    def obstruct(self, segment: _Segment) -> bool:
        return (
            any(segment.meets(x0, y0, x0 + SCALE, y0 + SCALE) for x0, y0 in self.blocks)
            or any(segment.below_top(wall.edge, wall.top) for wall in self.walls)
            or any(segment.below_ground(x0, y0, level) for x0, y0, level in self.ground)
        )
