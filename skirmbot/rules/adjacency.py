"""Which squares are adjacent (rulings: Board and geometry / Adjacent).

Adjacency decides melee, support, objective control and enemy-adjacency; it is not movement.
Two squares are adjacent when a model could reach over from one to the other: the 8 surrounding
squares, minus those behind a high edge or a closed door, a corner closed on both sides, or a
drop of more than one level.

Adjacency depends only on the terrain and the doors, so each square's adjacent squares are
remembered in the board's memo, which the board clears when a door opens or closes.
"""

from __future__ import annotations

from skirmbot.rules.board import Board
from skirmbot.rules.squares import Square


def edge_cut(board: Board, a: Square, b: Square) -> bool:
    """The edge between orthogonal neighbours rises more than 1 above the lower side, or is a
    closed door."""
    return board.door_closed(a, b) or board.barrier(a, b) > 1


def adjacent(board: Board, a: Square, b: Square) -> bool:
    """Whether the rulings' Adjacent holds between a and b (symmetric, never reflexive)."""
    return a.distance(b) == 1 and b in _adjacent_to(board, a)


def adjacent_squares(board: Board, square: Square) -> list[Square]:
    """The squares adjacent to `square`, row by row, then column by column."""
    return list(_adjacent_to(board, square))


def _adjacent_to(board: Board, square: Square) -> tuple[Square, ...]:
    if not board.is_open(square):
        return ()  # impassable and off-board squares are adjacent to nothing
    return board.memo(
        (_adjacent_to, square),
        lambda: tuple(other for other in square.around() if _decide(board, square, other)),
    )


def _decide(board: Board, a: Square, b: Square) -> bool:
    """Adjacent, worked out from the terrain for neighbours a and b."""
    if not (board.is_open(a) and board.is_open(b)):
        return False
    if a.x == b.x or a.y == b.y:
        return not edge_cut(board, a, b)
    if abs(board.level(a) - board.level(b)) > 1:
        return False
    return not (
        _route_cut(board, a, Square(b.x, a.y), b) and _route_cut(board, a, Square(a.x, b.y), b)
    )


def _route_cut(board: Board, a: Square, via: Square, b: Square) -> bool:
    """The two-step route a-via-b around a corner is cut (rulings: Adjacent, diagonal)."""
    if not board.is_open(via):
        return True
    return edge_cut(board, a, via) or edge_cut(board, via, b)
