"""The Board type itself (rulings: Board and geometry)."""

import copy

from skirmbot.rules.board import edge_key, parse_board
from skirmbot.rules.squares import Square

ROWS = [". . . . . ."] * 6


def test_a_copy_has_its_own_doors_and_forgets_nothing_of_the_original() -> None:
    """Doors are the one mutable part of a board: a copy opens its doors on its own."""
    board = parse_board(ROWS, ["A1|B1: door=closed"])
    key = edge_key(Square(0, 0), Square(1, 0))
    for clone in (board.copy(), copy.deepcopy(board)):
        clone.doors[key] = True
        assert board.door_closed(*key) and not clone.door_closed(*key)


def test_memo_is_forgotten_when_a_door_changes() -> None:
    board = parse_board(ROWS, ["A1|B1: door=closed"])
    assert board.memo("answer", lambda: 1) == 1
    assert board.memo("answer", lambda: 2) == 1
    board.doors[edge_key(Square(0, 0), Square(1, 0))] = True
    assert board.memo("answer", lambda: 3) == 3
