"""The battle map: levels, difficult and impassable squares, and the edges between squares.

Rulings: Board and geometry. A board is written as text rows (one cell per column, top row
first) and edge lines, the notation of shared/design/geometry-examples.md, which the shipped
map files use too:

    cell  `.` level 0, `~` level 0 difficult, `#` impassable, `N` level N, `N~` level N difficult
    edge  "B1|C1, B2|C2: wall=2 climbable"   attributes: wall=N door=open door=closed climbable stairs

Terrain is fixed for a match; only doors open and close, so door states are the one mutable part.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from skirmbot.rules.errors import ContentError, RulesError
from skirmbot.rules.squares import MAX_BOARD_SIDE, Square

MIN_BOARD_SIDE = 6
# A closed door counts as a wall of height 2 (rulings: Doors).
CLOSED_DOOR_HEIGHT = 2

EdgeKey = tuple[Square, Square]
_CELL = re.compile(r"^(?:(\d+)(~?)|(~)|(\.)|(#))$")


def edge_key(a: Square, b: Square) -> EdgeKey:
    """The canonical key of the edge between two orthogonal neighbours."""
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, slots=True)
class EdgeFeature:
    """What stands on an edge as drawn on the map. `door` is the door's state at the start."""

    wall: int = 0
    door: str | None = None  # None, "open" or "closed"
    climbable: bool = False
    stairs: bool = False


NO_FEATURE = EdgeFeature()
T = TypeVar("T")


class DoorStates(dict[EdgeKey, bool]):
    """Door states (True: open) that clear their board's memo when a door opens or closes, so
    the board forgets what it worked out for the old doors. They hold the memo, not the board:
    a board and its doors pointing at each other would be a reference cycle, and a match
    dropped from memory would then wait for the garbage collector's full collection."""

    def __init__(self, states: dict[EdgeKey, bool], memo: dict[Any, Any]) -> None:
        super().__init__(states)
        self._memo = memo

    def __setitem__(self, key: EdgeKey, value: bool) -> None:
        super().__setitem__(key, value)
        self._memo.clear()

    def __reduce__(self) -> tuple[Any, ...]:
        # A dict subclass is unpickled item by item through __setitem__ before its attributes
        # are back; rebuilt from its states instead (its board gives it its memo back).
        return (DoorStates, (dict(self), {}))


class Board:
    """A rectangular grid of squares with levels and the features on the edges between them."""

    def __init__(
        self,
        width: int,
        height: int,
        levels: dict[Square, int],
        difficult: frozenset[Square],
        impassable: frozenset[Square],
        edges: dict[EdgeKey, EdgeFeature],
    ) -> None:
        self.width = width
        self.height = height
        self._levels = levels
        self.difficult = difficult
        self.impassable = impassable
        self._edges = edges
        # Doors are the only terrain that changes during a match: True means open.
        self._memo: dict[Any, Any] = {}
        self.doors: dict[EdgeKey, bool] = DoorStates(
            {key: feature.door == "open" for key, feature in edges.items() if feature.door},
            self._memo,
        )
        _validate(self)

    def memo(self, key: Any, compute: Callable[[], T]) -> T:
        """Remember a result that depends only on the terrain and the doors (adjacency, steps):
        path searches and sight checks ask the same questions thousands of times a match."""
        try:
            return self._memo[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    def __getstate__(self) -> dict[str, Any]:
        # What the board worked out is not kept in a pickled match: it is only a cache.
        return {**self.__dict__, "_memo": {}, "doors": dict(self.doors)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.doors = DoorStates(state["doors"], self._memo)

    # --- squares -------------------------------------------------------------------------
    def on_board(self, square: Square) -> bool:
        return 0 <= square.x < self.width and 0 <= square.y < self.height

    def squares(self) -> Iterator[Square]:
        """Every square, row by row from A1."""
        for y in range(self.height):
            for x in range(self.width):
                yield Square(x, y)

    def is_open(self, square: Square) -> bool:
        """On the board and not impassable: a unit may stand here."""
        return self.on_board(square) and square not in self.impassable

    def level(self, square: Square) -> int:
        """The level of a square a unit can stand on (impassable squares have none)."""
        return self._levels[square]

    def parse_square(self, text: str) -> Square:
        """Read a square in A1 notation and check that it lies on this board."""
        square = Square.parse(text)
        if not self.on_board(square):
            last = Square(self.width - 1, self.height - 1)
            raise RulesError(f"{square} is off the map: squares run from A1 to {last}.")
        return square

    # --- edges ---------------------------------------------------------------------------
    def feature(self, a: Square, b: Square) -> EdgeFeature:
        """What was drawn on the edge between orthogonal neighbours a and b."""
        return self._edges.get(edge_key(a, b), NO_FEATURE)

    def edges(self) -> Iterable[tuple[EdgeKey, EdgeFeature]]:
        return self._edges.items()

    def has_door(self, a: Square, b: Square) -> bool:
        return edge_key(a, b) in self.doors

    def door_closed(self, a: Square, b: Square) -> bool:
        key = edge_key(a, b)
        return key in self.doors and not self.doors[key]

    def wall_height(self, a: Square, b: Square) -> int:
        """Height of the wall on the edge, with a closed door counting as a wall of 2."""
        if self.door_closed(a, b):
            return CLOSED_DOOR_HEIGHT
        return self.feature(a, b).wall

    def top(self, a: Square, b: Square) -> int:
        """The top of the edge: the higher square's level plus the wall (rulings: Elevation)."""
        return max(self._levels[a], self._levels[b]) + self.wall_height(a, b)

    def barrier(self, a: Square, b: Square) -> int:
        """How high the edge rises above the lower square; 0 across stairs."""
        if self.feature(a, b).stairs:
            return 0
        return self.top(a, b) - min(self._levels[a], self._levels[b])

    # --- copies --------------------------------------------------------------------------
    def copy(self, keep_memo: bool = False) -> Board:
        """A board sharing this one's fixed terrain, with its own door states; `keep_memo`:
        with what this board has worked out so far too (each entry holds for the same doors)."""
        clone = object.__new__(Board)
        clone.__dict__.update(self.__dict__)
        clone._memo = dict(self._memo) if keep_memo else {}
        clone.doors = DoorStates(dict(self.doors), clone._memo)
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        # The terrain never changes, so a deep copy needs only its own doors (and memo).
        return self.copy()

    def door_states(self) -> dict[str, bool]:
        """Door states keyed `A1|B1`, for snapshots and JSON."""
        return {f"{a}|{b}": is_open for (a, b), is_open in sorted(self.doors.items())}


def parse_board(rows: list[str], edges: list[str]) -> Board:
    """Build a board from the text notation; raise ContentError naming the first mistake."""
    if not rows:
        raise ContentError("The map has no rows.")
    grid = [row.split() for row in rows]
    width = len(grid[0])
    levels: dict[Square, int] = {}
    difficult: set[Square] = set()
    impassable: set[Square] = set()
    for y, cells in enumerate(grid):
        if len(cells) != width:
            raise ContentError(
                f"Map row {y + 1} has {len(cells)} squares but row 1 has {width}: every row must be "
                "as wide as the first."
            )
        for x, cell in enumerate(cells):
            square = Square(x, y)
            match = _CELL.match(cell)
            if match is None:
                raise ContentError(
                    f"Square {square} is written '{cell}'; use '.', '~', '#', a level number like "
                    "'2', or a level with '~' for difficult ground like '1~'."
                )
            number, number_difficult, tilde, _dot, hash_ = match.groups()
            if hash_:
                impassable.add(square)
                continue
            levels[square] = int(number) if number else 0
            if number_difficult or tilde:
                difficult.add(square)
    return Board(
        width, len(grid), levels, frozenset(difficult), frozenset(impassable), _parse_edges(edges)
    )


def _parse_edges(lines: list[str]) -> dict[EdgeKey, EdgeFeature]:
    edges: dict[EdgeKey, EdgeFeature] = {}
    for line in lines:
        where, sep, attributes = line.partition(":")
        if not sep:
            raise ContentError(f"Edge line '{line}' needs a colon: 'B1|C1: wall=2'.")
        feature = _parse_edge_attributes(attributes, line)
        for pair in where.split(","):
            names = pair.split("|")
            if len(names) != 2:
                raise ContentError(
                    f"'{pair.strip()}' in edge line '{line}' is not two squares like B1|C1."
                )
            try:
                a, b = (Square.parse(name) for name in names)
            except RulesError as error:
                raise ContentError(f"In edge line '{line}': {error}") from error
            if a.distance(b) != 1 or (a.x != b.x and a.y != b.y):
                raise ContentError(f"Edge {a}|{b} joins squares that are not side by side.")
            key = edge_key(a, b)
            if key in edges:
                raise ContentError(
                    f"Edge {a}|{b} is described twice; give all its features on one line."
                )
            edges[key] = feature
    return edges


def _parse_edge_attributes(text: str, line: str) -> EdgeFeature:
    wall, door, climbable, stairs = 0, None, False, False
    for word in text.split():
        if word.startswith("wall=") and word[5:].isdigit() and int(word[5:]) > 0:
            wall = int(word[5:])
        elif word in ("door=open", "door=closed"):
            door = word[5:]
        elif word == "climbable":
            climbable = True
        elif word == "stairs":
            stairs = True
        else:
            raise ContentError(
                f"Unknown edge feature '{word}' in '{line}': use wall=N, door=open, door=closed, "
                "climbable or stairs."
            )
    return EdgeFeature(wall, door, climbable, stairs)


def _validate(board: Board) -> None:
    """Reject boards the rulings forbid (rulings: Board and geometry, Stairs, Doors, Blocking)."""
    side_ok = MIN_BOARD_SIDE <= board.width <= MAX_BOARD_SIDE
    if not (side_ok and MIN_BOARD_SIDE <= board.height <= MAX_BOARD_SIDE):
        raise ContentError(
            f"The map is {board.width}x{board.height}; maps are from {MIN_BOARD_SIDE}x{MIN_BOARD_SIDE} "
            f"to {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE} squares."
        )
    for (a, b), feature in board.edges():
        name = f"{a}|{b}"
        if not (board.on_board(a) and board.on_board(b)):
            raise ContentError(f"Edge {name} lies off the {board.width}x{board.height} map.")
        if a in board.impassable or b in board.impassable:
            raise ContentError(f"Edge {name} touches an impassable square; it can carry nothing.")
        if feature.door and feature.wall:
            raise ContentError(
                f"Edge {name} has both a wall and a door: a door stands in place of a wall."
            )
        if feature.door and (feature.climbable or feature.stairs):
            raise ContentError(f"Edge {name} has a door, so it cannot also be climbable or stairs.")
        if feature.stairs:
            if feature.wall:
                raise ContentError(f"Stairs on edge {name} cannot carry a wall.")
            if abs(board.level(a) - board.level(b)) != 1:
                raise ContentError(
                    f"Stairs on edge {name} join levels {board.level(a)} and {board.level(b)}; stairs "
                    "join squares exactly one level apart."
                )
