"""Movement: the cost of single steps and the squares a Move or Dash can end on.

Rulings: Movement. A path is a sequence of steps to one of the 8 neighbours; the bot finds the
cheapest legal path itself (Dijkstra), so a player only names the destination. Replays must
redraw the very same path, so ties between equally cheap paths are broken deterministically:
fewest steps first, then the path that keeps nearest the straight line to the destination,
then the smaller squares.

Terrain only changes when a door opens or closes, so what terrain alone says about each step
is remembered in the board's memo, which the board clears when a door opens or closes; Units
are applied on every call. Inside, squares are
numbered `x * height + y`, which sorts exactly like `Square`.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from skirmbot.rules.adjacency import adjacent_squares
from skirmbot.rules.board import Board, edge_key
from skirmbot.rules.squares import Square

# Leaving a difficult square costs this much more (rulings: Step cost).
DIFFICULT_EXTRA = 1
# A path found by the search: (cost, steps, square numbers). Labels sort exactly as the
# tie-break wants, so the first label taken from the queue for a square is its route.
_Label = tuple[int, int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Mover:
    """The Unit that moves, as far as movement cares."""

    squad: str  # the mover's Squad id; Units of other Squads are enemies
    fly: bool = False  # FLY: no climbing costs, no climbable edges needed, no difficult terrain
    ranger: bool = False  # RGR: ignores difficult terrain
    nimble: bool = False  # NMB: ignores the restrictions on passing enemies


class Route:
    """The cheapest legal path to a square: start square first, destination last.

    The path is worked out when first asked for: listing where a unit can go needs only the
    costs, and a Move needs the path to one square.
    """

    __slots__ = ("cost", "_path", "_build")

    def __init__(
        self,
        cost: int,
        path: tuple[Square, ...] | None = None,
        build: Callable[[], tuple[Square, ...]] | None = None,
    ) -> None:
        self.cost = cost
        self._path = path
        self._build = build

    @property
    def path(self) -> tuple[Square, ...]:
        if self._path is None:
            assert self._build is not None
            self._path = self._build()
        return self._path

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Route) and (self.cost, self.path) == (other.cost, other.path)

    def __hash__(self) -> int:
        return hash((self.cost, self.path))

    def __repr__(self) -> str:
        return f"Route(cost={self.cost}, path={self.path!r})"


def step_cost(
    board: Board, frm: Square, to: Square, mover: Mover, units: Mapping[Square, str]
) -> int | None:
    """Movement points for one step from `frm` to the neighbour `to`, or None when the step
    is illegal. `units` maps occupied squares to their Unit's Squad id.

    Entering a squadmate's square is a legal step (passing through); ending there is not, and
    that is `reachable`'s business. Only an NMB mover may step onto an enemy's square.
    """
    if not (board.is_open(frm) and board.is_open(to)) or frm.distance(to) != 1:
        return None
    grid = _grid(board)
    occupancy = grid.occupancy(units)
    target = grid.index(to)
    for step in grid.steps_from(board, grid.index(frm)):
        if step.to == target:
            return _cost(grid, step, mover, occupancy)
    return None


def reachable(
    board: Board, start: Square, budget: int, mover: Mover, units: Mapping[Square, str]
) -> dict[Square, Route]:
    """Every square the mover may end on with at most `budget` movement points, with the
    cheapest path there; the start square is included at cost 0.

    `units` maps each occupied square to its Unit's Squad id, the mover's own `start` included;
    these are the positions as at the start of the move.
    """
    return _search(board, start, budget, mover, units, None)


def route_to(
    board: Board,
    start: Square,
    budget: int,
    mover: Mover,
    units: Mapping[Square, str],
    goal: Square,
) -> Route | None:
    """The route `reachable` gives to `goal` (None: it gives none), found without listing every
    other square: the search stops when it takes `goal` from the queue. The route is the very
    same: its path is built from the squares of smaller labels than `goal`'s, every one of them
    taken (and final) by then. For a move already known to be legal (a trusted replay)."""
    return _search(board, start, budget, mover, units, goal).get(goal)


def _search(
    board: Board,
    start: Square,
    budget: int,
    mover: Mover,
    units: Mapping[Square, str],
    goal: Square | None,
) -> dict[Square, Route]:
    """`reachable`'s search; with a `goal`, it stops once the goal's route is known."""
    if not board.is_open(start):
        return {}
    grid = _grid(board)
    origin = grid.index(start)
    # The mover has left its square: it no longer blocks diagonals or counts as a squadmate.
    occupancy = grid.occupancy(units)
    occupancy.pop(origin, None)
    no_passing: set[int] = set()
    if not mover.nimble:
        no_passing = _held_by_enemies(board, grid, start, budget, mover.squad, occupancy)
    best: dict[int, _Label] = {origin: (0, 0, (origin,))}
    done: set[int] = set()
    ends: dict[Square, Route] = {}
    queue: list[_Label] = [best[origin]]
    stop = None if goal is None or not grid.on_board(goal) else grid.index(goal)
    while queue:
        cost, steps, path = heapq.heappop(queue)
        here = path[-1]
        if here in done:
            continue
        done.add(here)
        if here == origin or here not in occupancy:
            ends[grid.squares[here]] = Route(cost)
            if here == stop:
                break
        # Non-NMB movers never step onto enemies, so these are the only squares reached
        # that may not be passed through (the start square never counts as passed).
        if here != origin and here in no_passing:
            continue
        for step in grid.steps_from(board, here):
            if step.to in done:
                continue
            extra = _cost(grid, step, mover, occupancy)
            if extra is None or cost + extra > budget:
                continue
            label = (cost + extra, steps + 1, (*path, step.to))
            known = best.get(step.to)
            if known is None or label < known:
                best[step.to] = label
                heapq.heappush(queue, label)
    passable = {n for n in done if n == origin or n not in no_passing}

    def path_to(square: Square) -> Callable[[], tuple[Square, ...]]:
        return lambda: _straightest(board, grid, mover, occupancy, best, passable, origin, square)

    return {square: Route(route.cost, build=path_to(square)) for square, route in ends.items()}


def _straightest(
    board: Board,
    grid: _Grid,
    mover: Mover,
    occupancy: Mapping[int, str],
    best: dict[int, _Label],
    passable: set[int],
    origin: int,
    destination: Square,
) -> tuple[Square, ...]:
    """Of all the cheapest paths with the fewest steps, the one that keeps nearest the straight
    line from start to destination: players expect C3 to C6 to go C4, C5, not B4, B5. Built
    backwards from the destination; remaining ties go to the smaller square, so replays draw
    the very same path."""
    start = grid.squares[origin]
    dx, dy = destination.x - start.x, destination.y - start.y

    def off_line(square: Square) -> int:
        return abs(dx * (square.y - start.y) - dy * (square.x - start.x))

    here = grid.index(destination)
    path = [destination]
    while here != origin:
        cost, steps, _ = best[here]
        options = []
        for before in passable:
            known = best[before]
            if known[1] + 1 != steps or grid.squares[before].distance(grid.squares[here]) != 1:
                continue
            step = next((s for s in grid.steps_from(board, before) if s.to == here), None)
            extra = None if step is None else _cost(grid, step, mover, occupancy)
            if extra is not None and known[0] + extra == cost:
                options.append((off_line(grid.squares[before]), grid.squares[before], before))
        _, square, here = min(options)
        path.append(square)
    return tuple(reversed(path))


# --- what terrain alone says about steps -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    """A step that terrain allows, by square number: its cost walking (None when only FLY can
    take it; FLY always pays 1), and for a diagonal the two squares beside the corner."""

    frm: int
    to: int
    walk: int | None
    beside: tuple[int, int] | None


class _Grid:
    """Square numbering and the remembered terrain steps of one board and door state."""

    __slots__ = ("width", "height", "squares", "levels", "difficult", "marked", "_steps")

    def __init__(self, board: Board) -> None:
        self.width, self.height = board.width, board.height
        self.squares = [Square(x, y) for x in range(board.width) for y in range(board.height)]
        # None for impassable squares, which have no level.
        self.levels = [board.level(sq) if board.is_open(sq) else None for sq in self.squares]
        self.difficult = [square in board.difficult for square in self.squares]
        # Edges whose wall or door (open or closed) forbids the diagonals past their ends.
        self.marked = frozenset(
            key for key, feature in board.edges() if feature.wall or feature.door
        )
        self._steps: dict[int, tuple[_Step, ...]] = {}

    def index(self, square: Square) -> int:
        return square.x * self.height + square.y

    def on_board(self, square: Square) -> bool:
        return 0 <= square.x < self.width and 0 <= square.y < self.height

    def occupancy(self, units: Mapping[Square, str]) -> dict[int, str]:
        return {
            self.index(square): squad for square, squad in units.items() if self.on_board(square)
        }

    def steps_from(self, board: Board, frm: int) -> tuple[_Step, ...]:
        steps = self._steps.get(frm)
        if steps is None:
            square = self.squares[frm]
            steps = self._steps[frm] = tuple(
                step
                for to in square.around()
                if (step := self._terrain_step(board, square, to)) is not None
            )
        return steps

    def _terrain_step(self, board: Board, frm: Square, to: Square) -> _Step | None:
        if not self.on_board(to) or self.levels[self.index(to)] is None:
            return None
        if frm.x != to.x and frm.y != to.y:
            beside = (Square(to.x, frm.y), Square(frm.x, to.y))
            if not self._corner_clear(frm, to, beside):
                return None
            numbers = (self.index(beside[0]), self.index(beside[1]))
            return _Step(self.index(frm), self.index(to), 1, numbers)
        if board.door_closed(frm, to):
            return None
        return _Step(self.index(frm), self.index(to), _climb_cost(board, frm, to), None)

    def _corner_clear(self, frm: Square, to: Square, beside: tuple[Square, Square]) -> bool:
        """Diagonal steps only between squares of one level across a corner with no wall,
        door or level difference on the four edges meeting there, and both squares beside the
        corner open (rulebook Diagonal Movement); whether those are empty is for `_cost`."""
        level = self.levels[self.index(frm)]
        if any(self.levels[self.index(square)] != level for square in (to, *beside)):
            return False  # impassable squares (None) included
        return not any(
            edge_key(square, end) in self.marked for square in beside for end in (frm, to)
        )


def _climb_cost(board: Board, frm: Square, to: Square) -> int | None:
    """1 + U + max(0, D - 1) across the edge; a climb or drop of more than 1 needs a
    climbable edge (rulings: Step cost)."""
    feature = board.feature(frm, to)
    if feature.stairs:
        return 1
    top = board.top(frm, to)
    up, down = top - board.level(frm), top - board.level(to)
    if (up > 1 or down > 1) and not feature.climbable:
        return None
    return 1 + up + max(0, down - 1)


def _cost(grid: _Grid, step: _Step, mover: Mover, occupancy: Mapping[int, str]) -> int | None:
    """The step's cost for this mover among these Units, or None when it may not take it."""
    squad = occupancy.get(step.to)
    if squad is not None and squad != mover.squad and not mover.nimble:
        return None
    if step.beside is not None and (step.beside[0] in occupancy or step.beside[1] in occupancy):
        return None
    # FLY pays U = D = 0, needs no climbable edge and ignores difficult terrain.
    cost = 1 if mover.fly else step.walk
    if cost is not None and grid.difficult[step.frm] and not (mover.fly or mover.ranger):
        cost += DIFFICULT_EXTRA
    return cost


def _held_by_enemies(
    board: Board, grid: _Grid, start: Square, budget: int, squad: str, others: Mapping[int, str]
) -> set[int]:
    """Squares adjacent to an enemy that no other squadmate of the mover stands adjacent to:
    a move may end there but not pass through (rulings: Units in the way). Enemies further
    than the budget + 1 from the start cannot hold any square the move could pass."""
    held: set[int] = set()
    for number, enemy_squad in others.items():
        enemy = grid.squares[number]
        if enemy_squad == squad or enemy.distance(start) > budget + 1:
            continue
        around = [grid.index(square) for square in adjacent_squares(board, enemy)]
        if not any(others.get(neighbour) == squad for neighbour in around):
            held.update(around)
    return held


def _grid(board: Board) -> _Grid:
    # The board forgets its memo whenever a door opens or closes.
    return board.memo(_Grid, lambda: _Grid(board))
