"""A hypothesis strategy for random small boards, shared by the geometry property tests."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from skirmbot.rules.board import Board, edge_key, parse_board
from skirmbot.rules.squares import Square


def _level(cell: str) -> int:
    return int(cell.rstrip("~")) if cell.rstrip("~").isdigit() else 0


@st.composite
def random_boards(
    draw: st.DrawFn,
    cells: Sequence[str],
    features: Sequence[str],
    sides: tuple[int, int] = (6, 6),
    max_edges: int = 10,
    open_corner: int = 0,
) -> tuple[Board, list[Square]]:
    """A board of `cells` with up to `max_edges` random edge `features`, and its open squares.
    The first `open_corner` squares of row 1 are kept as open ground (room for units). Stairs
    drawn where the levels do not differ by exactly 1 become `climbable`, so the board loads."""
    width, height = draw(st.integers(*sides)), draw(st.integers(*sides))
    grid = [[draw(st.sampled_from(list(cells))) for _ in range(width)] for _ in range(height)]
    grid[0][:open_corner] = ["."] * open_corner
    open_squares = [Square(x, y) for y in range(height) for x in range(width) if grid[y][x] != "#"]
    levels = {sq: _level(grid[sq.y][sq.x]) for sq in open_squares}
    candidates = sorted(
        {
            edge_key(a, b)
            for a in open_squares
            for b in (a.offset(1, 0), a.offset(0, 1))
            if b in levels
        }
    )
    chosen = (
        draw(st.lists(st.sampled_from(candidates), unique=True, max_size=max_edges))
        if candidates
        else []
    )
    edges = []
    for a, b in chosen:
        feature = draw(st.sampled_from(list(features)))
        if feature == "stairs" and abs(levels[a] - levels[b]) != 1:
            feature = "climbable"
        edges.append(f"{a}|{b}: {feature}")
    return parse_board([" ".join(row) for row in grid], edges), open_squares
