"""Inches on the square grid, movement, sight, cover and facing, as the d20 rulebook needs them.

Our rulings (docs/rulings.md, the d20 rules: Scale): one square is 2 inches (the shipped maps
are 12 by 12 squares, a 24-inch table); distance is counted as the kernel counts squares
(`Square.distance`: a diagonal step is one square), between the nearest cells of two models.
The kernel's movement (Skirm's movement points, climbing, leaping) and sight (Skirm's levels and
High Ground) are not used: the rulebook says nothing of them, so the smallest rules that fit its
words are written here. A model steps to any of the 8 neighbouring squares; walls, closed doors,
impassable squares and other models block it (there is no climbing); levels one apart or joined
by stairs are crossed freely.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator

from skirmbot.rules.board import Board
from skirmbot.rules.squares import Square
from skirmbot.rules.view import FACINGS

INCHES_PER_SQUARE = 2
SAMPLES_PER_SQUARE = 8  # points per square along a line of sight
NUDGE = 1e-3  # a line of sight never runs exactly through a corner
# Each facing's step; straight steps first, so of equally short paths the straightest is found.
_DIRECTIONS = {
    "N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0),
    "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1),
}  # fmt: skip


def squares_for(inches: int) -> int:
    """Whole squares a distance in inches covers (a part of a square does not count)."""
    return inches // INCHES_PER_SQUARE


def cells_at(anchor: Square, big: bool) -> tuple[Square, ...]:
    if not big:
        return (anchor,)
    return tuple(anchor.offset(dx, dy) for dy in (0, 1) for dx in (0, 1))


def gap(a: tuple[Square, ...], b: tuple[Square, ...]) -> int:
    """Squares between two models: the distance between their nearest cells."""
    return min(one.distance(other) for one in a for other in b)


def _edge_open(board: Board, a: Square, b: Square) -> bool:
    """An orthogonal step: no wall or closed door between, and levels one apart at most."""
    if board.wall_height(a, b) > 0:
        return False
    return abs(board.level(a) - board.level(b)) <= 1 or board.feature(a, b).stairs


def can_step(board: Board, a: Square, b: Square, blocked: set[Square]) -> bool:
    """One step of a model's cell from `a` to its neighbour `b`; a diagonal step must be open
    both ways round its corner (no squeezing past a wall's end)."""
    if not board.is_open(b) or b in blocked:
        return False
    if a.x == b.x or a.y == b.y:
        return _edge_open(board, a, b)
    corners = (Square(b.x, a.y), Square(a.x, b.y))
    return all(
        board.is_open(c)
        and c not in blocked
        and _edge_open(board, a, c)
        and _edge_open(board, c, b)
        for c in corners
    )


def can_shift(
    board: Board, anchor: Square, dx: int, dy: int, big: bool, blocked: set[Square]
) -> bool:
    """A whole model steps by (dx, dy): every cell steps."""
    return all(
        can_step(board, cell, cell.offset(dx, dy), blocked) for cell in cells_at(anchor, big)
    )


def paths(
    board: Board, start: Square, big: bool, blocked: set[Square], limit: int
) -> dict[Square, tuple[Square, ...]]:
    """Every square a model's top-left cell can reach in at most `limit` steps, with the
    shortest path there (start first), found breadth first in a fixed order of steps."""
    found: dict[Square, tuple[Square, ...]] = {start: (start,)}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if len(found[here]) > limit:
            continue
        for dx, dy in _DIRECTIONS.values():
            there = here.offset(dx, dy)
            if there not in found and can_shift(board, here, dx, dy, big, blocked):
                found[there] = (*found[here], there)
                queue.append(there)
    return found


def facing_of_step(frm: Square, to: Square) -> str:
    step = (to.x - frm.x, to.y - frm.y)
    return next(name for name, d in _DIRECTIONS.items() if d == step)


def centre(cells: tuple[Square, ...]) -> tuple[float, float]:
    xs = [cell.x + 0.5 for cell in cells]
    ys = [cell.y + 0.5 for cell in cells]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def direction(frm: tuple[Square, ...], to: tuple[Square, ...]) -> str:
    """The facing from one model's centre that points nearest to the other's."""
    (x0, y0), (x1, y1) = centre(frm), centre(to)
    index = round(math.atan2(x1 - x0, y0 - y1) / (math.pi / 4)) % 8
    return FACINGS[index]


def arc(facing: str, target: tuple[Square, ...], attacker: tuple[Square, ...]) -> str:
    """Which of a Big Model's armour values an attack meets (our ruling: Facing): "front" when
    the attacker is within one facing of where it looks, "rear" within one of behind it,
    "side" otherwise."""
    turn = (FACINGS.index(direction(target, attacker)) - FACINGS.index(facing)) % 8
    return "front" if turn in (0, 1, 7) else "rear" if turn in (3, 4, 5) else "side"


def _line(a: Square, b: Square) -> Iterator[Square]:
    """The squares a line from a's centre to b's centre passes through, in order, a and b
    included."""
    steps = max(1, a.distance(b)) * SAMPLES_PER_SQUARE
    last = a
    yield a
    for n in range(1, steps + 1):
        t = n / steps
        x = a.x + 0.5 + (b.x - a.x) * t + NUDGE
        y = a.y + 0.5 + (b.y - a.y) * t + NUDGE / 3
        here = Square(math.floor(x), math.floor(y))
        if here == last:
            continue
        if here.x != last.x and here.y != last.y:  # corner: pass through the square we touch
            wide = abs(b.x - a.x) >= abs(b.y - a.y)
            yield Square(here.x, last.y) if wide else Square(last.x, here.y)
        yield here
        last = here


def _crossings(a: Square, b: Square) -> list[tuple[Square, Square]]:
    line = list(_line(a, b))
    return list(zip(line, line[1:], strict=False))


def sight(board: Board, a: Square, b: Square) -> bool:
    """A line of sight (our ruling): between the two centres no wall or closed door 2 high, no
    impassable square, no ground 2 levels above both ends. Models do not block sight."""
    height = max(board.level(a), board.level(b))
    for frm, to in _crossings(a, b):
        if board.wall_height(frm, to) >= 2:
            return False
        if to != b and (not board.is_open(to) or board.level(to) - height >= 2):
            return False
    return True


def covered(board: Board, attacker: Square, target: Square) -> bool:
    """ "Models behind terrain features" (rulebook Cover): the line of sight's last crossing
    before the target's square, or the square before that, meets a wall, a closed door, a
    difficult square or higher ground (our ruling: within 1 square of the model)."""
    crossings = _crossings(attacker, target)
    near = crossings[-2:]
    height = board.level(target)
    for frm, to in near:
        if board.wall_height(frm, to) > 0:
            return True
        if to != target and (to in board.difficult or board.level(to) > height):
            return True
    return False


def best_line(
    board: Board, attacker: tuple[Square, ...], target: tuple[Square, ...]
) -> tuple[Square, Square] | None:
    """The nearest pair of cells (attacker's, target's) with a line of sight; None: none."""
    pairs = sorted(
        ((a, b) for a in attacker for b in target),
        key=lambda pair: (pair[0].distance(pair[1]), pair),
    )
    return next((pair for pair in pairs if sight(board, *pair)), None)
