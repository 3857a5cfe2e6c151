"""Adjacency (rulings: Board and geometry / Adjacent), beyond the shared examples."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from random_boards import random_boards

from skirmbot.rules.adjacency import adjacent, adjacent_squares, edge_cut
from skirmbot.rules.board import Board, edge_key, parse_board
from skirmbot.rules.squares import Square

FLAT = [". . . . . ."] * 6


def sq(name: str) -> Square:
    return Square.parse(name)


def boards() -> st.SearchStrategy[Board]:
    drawn = random_boards(
        [".", ".", "~", "#", "1", "2"], ["wall=1", "wall=2", "door=open", "door=closed"]
    )
    return drawn.map(lambda pair: pair[0])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(boards())
def test_adjacency_is_symmetric_and_never_reflexive(board: Board) -> None:
    """Rulings: Adjacent is a relation between two different squares, the same both ways."""
    for a in board.squares():
        assert not adjacent(board, a, a)
        for b in a.around():
            assert adjacent(board, a, b) == adjacent(board, b, a)
        assert adjacent_squares(board, a) == [b for b in a.around() if adjacent(board, a, b)]


def test_neighbours_come_row_by_row() -> None:
    """adjacent_squares is ordered by row, then column."""
    names = [str(square) for square in adjacent_squares(parse_board(FLAT, []), sq("C3"))]
    assert names == ["B2", "C2", "D2", "B3", "D3", "B4", "C4", "D4"]


def test_a_door_cuts_adjacency_only_while_closed() -> None:
    """Rulings: Doors; a closed door breaks adjacency, an open door counts as no wall."""
    board = parse_board(FLAT, ["B2|C2: door=closed"])
    assert edge_cut(board, sq("B2"), sq("C2"))
    assert not adjacent(board, sq("B2"), sq("C2"))
    board.doors[edge_key(sq("B2"), sq("C2"))] = True
    assert not edge_cut(board, sq("B2"), sq("C2"))
    assert adjacent(board, sq("B2"), sq("C2"))


def test_a_low_wall_on_a_ledge_cuts_adjacency() -> None:
    """Rulings: Adjacent; barrier = higher level + wall - lower level: 1 + 1 - 0 = 2 > 1."""
    rows = [". 1 . . . ."] + FLAT[1:]
    assert adjacent(parse_board(rows, []), sq("A1"), sq("B1"))
    assert adjacent(parse_board(FLAT, ["A1|B1: wall=1"]), sq("A1"), sq("B1"))
    assert not adjacent(parse_board(rows, ["A1|B1: wall=1"]), sq("A1"), sq("B1"))


def test_one_open_route_keeps_a_diagonal_adjacent() -> None:
    """Rulings: Adjacent, diagonal: not adjacent only when both routes around are cut."""
    pillar = parse_board([". . . . . .", ". . # . . ."] + FLAT[2:], [])
    assert adjacent(pillar, sq("B2"), sq("C3"))
    both = parse_board([". . . . . .", ". . # . . ."] + FLAT[2:], ["B2|B3: door=closed"])
    assert not adjacent(both, sq("B2"), sq("C3"))


def test_a_diagonal_one_level_apart_is_adjacent() -> None:
    """Rulings: Adjacent; levels may differ by 1 on a diagonal."""
    board = parse_board([". . . . . .", ". . 1 . . .", ". 1 1 . . ."] + FLAT[3:], [])
    assert adjacent(board, sq("B2"), sq("C3"))


def test_off_board_squares_are_adjacent_to_nothing() -> None:
    board = parse_board(FLAT, [])
    assert not adjacent(board, sq("A1"), Square(-1, 0))
    assert not adjacent(board, Square(6, 5), sq("F6"))
    assert [str(s) for s in adjacent_squares(board, sq("A1"))] == ["B1", "A2", "B2"]
