"""Marks on the edges between squares: steps of stairs and ladders never cover a square's level
label (`L1`, `L2`), on the shipped maps and in every orientation."""

from __future__ import annotations

import pytest

from skirmbot.content import load_map, names
from skirmbot.render.battlemap import Layout, ladder_line, level_label_box, stair_lines
from skirmbot.render.symbols import LADDER_HALF_WIDTH, STEP_WIDTH, Box
from skirmbot.rules.board import Board, parse_board
from skirmbot.rules.squares import Square


def intersects(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def labels(board: Board, layout: Layout) -> list[Box]:
    return [box for s in board.squares() if (box := level_label_box(board, layout, s)) is not None]


def stair_boxes(board: Board, layout: Layout, a: Square, b: Square) -> list[Box]:
    half = STEP_WIDTH // 2 + 1
    return [
        (
            min(p[0], q[0]) - half,
            min(p[1], q[1]) - half,
            max(p[0], q[0]) + half,
            max(p[1], q[1]) + half,
        )
        for p, q in stair_lines(board, layout, a, b)
    ]


def ladder_box(board: Board, layout: Layout, a: Square, b: Square) -> Box:
    (x0, y0), (x1, y1) = ladder_line(board, layout, a, b)
    reach = LADDER_HALF_WIDTH + 2
    if x0 == x1:
        return x0 - reach, y0 - 1, x0 + reach, y1 + 1
    return x0 - 1, y0 - reach, x1 + 1, y0 + reach


def edge_marks(board: Board, layout: Layout) -> list[tuple[str, Box]]:
    marks = []
    for (a, b), feature in board.edges():
        if feature.stairs:
            marks += [(f"stairs {a}|{b}", box) for box in stair_boxes(board, layout, a, b)]
        if feature.climbable:
            marks.append((f"ladder {a}|{b}", ladder_box(board, layout, a, b)))
    return marks


@pytest.mark.parametrize("name", names("maps"))
def test_no_stair_or_ladder_mark_covers_a_level_label_on_a_shipped_map(name: str) -> None:
    board = load_map(name).board
    layout = Layout(board.width, board.height)
    marks = edge_marks(board, layout)
    assert marks, f"{name} has stairs or ladders to check"
    for what, box in marks:
        for label in labels(board, layout):
            assert not intersects(box, label), f"{name}: {what} covers a level label"


# Stairs up and down in all four directions, between raised squares that both carry labels,
# and ladders on the edges of raised squares.
ROWS = [
    "1 2 . 2 1 . . . . . . .",
    "2 . . . . . . . . . . .",
    "1 . . . . . 1 . . . . .",
    ". . . . . . 2 . . . . .",
    *[" ".join(["."] * 12)] * 8,
]
EDGES = [
    "A1|B1, D1|E1, A1|A2, A2|A3: stairs",
    "G3|G4, F3|G3: climbable",
    "B1|B2: climbable",
]


def test_steps_lie_in_the_lower_square_clear_of_both_labels_in_every_orientation() -> None:
    board = parse_board(ROWS, EDGES)
    layout = Layout(12, 12)
    for (a, b), feature in board.edges():
        if not feature.stairs:
            continue
        lower = a if board.level(a) < board.level(b) else b
        x0, y0, x1, y1 = layout.box(lower)
        for box in stair_boxes(board, layout, a, b):
            assert x0 - 1 <= box[0] and box[2] <= x1 + 1 and y0 - 1 <= box[1] and box[3] <= y1 + 1
            for label in labels(board, layout):
                assert not intersects(box, label), f"stairs {a}|{b} cover a level label"
        lines = stair_lines(board, layout, a, b)
        assert len(lines) >= 3 and all(
            abs(p[0] - q[0]) + abs(p[1] - q[1]) >= 24 for p, q in lines
        ), "the steps stay long enough to read"
    for what, box in edge_marks(board, layout):
        for label in labels(board, layout):
            assert not intersects(box, label), f"{what} covers a level label"
