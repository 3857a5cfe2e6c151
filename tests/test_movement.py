"""Movement (rulings: Movement), beyond the shared examples.

`reachable` is checked against a brute force that tries every path within the budget, with a
step cost written straight from the rulings, on random boards.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_boards import random_boards

from skirmbot.rules.adjacency import adjacent
from skirmbot.rules.board import Board, edge_key, parse_board
from skirmbot.rules.movement import Mover, Route, reachable, step_cost
from skirmbot.rules.squares import Square

FLAT = [". . . . . ."] * 6
RED = Mover("red")

# --- a brute force, word for word ----------------------------------------------------------------


def reference_step(
    board: Board, frm: Square, to: Square, mover: Mover, units: Mapping[Square, str]
) -> int | None:
    """Rulings: Step cost, Doors, Diagonal steps, FLY, Units in the way."""
    if not (board.is_open(frm) and board.is_open(to)) or frm.distance(to) != 1:
        return None
    if to in units and units[to] != mover.squad and not mover.nimble:
        return None
    extra = 1 if frm in board.difficult and not (mover.ranger or mover.fly) else 0
    if frm.x != to.x and frm.y != to.y:
        beside = [Square(to.x, frm.y), Square(frm.x, to.y)]
        if any(not board.is_open(sq) or sq in units for sq in beside):
            return None
        corner = [(a, b) for a in beside for b in (frm, to)]
        if any(board.feature(a, b).wall or board.has_door(a, b) for a, b in corner):
            return None
        if any(board.level(a) != board.level(b) for a, b in corner):
            return None
        return 1 + extra
    if board.door_closed(frm, to):
        return None
    if mover.fly:
        return 1 + extra
    if board.feature(frm, to).stairs:
        up = down = 0
    else:
        top = board.top(frm, to)
        up, down = top - board.level(frm), top - board.level(to)
    if (up > 1 or down > 1) and not board.feature(frm, to).climbable:
        return None
    return 1 + up + max(0, down - 1) + extra


def brute_force_reachable(
    board: Board, start: Square, budget: int, mover: Mover, units: Mapping[Square, str]
) -> dict[Square, Route]:
    """Every path within the budget; per end square the least (cost, steps, path)."""
    others = {sq: squad for sq, squad in units.items() if sq != start}
    held: set[Square] = set()
    if not mover.nimble:
        for enemy, squad in others.items():
            if squad == mover.squad:
                continue
            supported = any(
                mate_squad == mover.squad and adjacent(board, mate, enemy)
                for mate, mate_squad in others.items()
            )
            if not supported:
                held.update(sq for sq in board.squares() if adjacent(board, sq, enemy))
    best: dict[Square, tuple[int, int, tuple[Square, ...]]] = {}

    def straightness(path: tuple[Square, ...]) -> tuple[tuple[int, Square], ...]:
        """Read back from the destination: squares nearest the straight line first."""
        dx, dy = path[-1].x - start.x, path[-1].y - start.y
        return tuple(
            (abs(dx * (s.y - start.y) - dy * (s.x - start.x)), s) for s in reversed(path[:-1])
        )

    best_key: dict[Square, tuple[int, int, tuple[tuple[int, Square], ...]]] = {}

    def walk(path: tuple[Square, ...], cost: int) -> None:
        here = path[-1]
        if here == start or here not in others:
            key = (cost, len(path), straightness(path))
            if here not in best or key < best_key[here]:
                best[here] = (cost, len(path), path)
                best_key[here] = key
        if here != start and here in held:
            return
        for to in here.around():
            if to in path:
                continue
            step = reference_step(board, here, to, mover, others)
            if step is not None and cost + step <= budget:
                walk((*path, to), cost + step)

    walk((start,), 0)
    return {sq: Route(cost, path) for sq, (cost, _, path) in best.items()}


# --- random boards -----------------------------------------------------------------------------

CELLS = [".", ".", ".", "~", "#", "1", "1", "2"]
FEATURES = [
    "wall=1",
    "wall=2",
    "wall=1 climbable",
    "wall=2 climbable",
    "climbable",
    "door=open",
    "door=closed",
    "stairs",
]


@st.composite
def moves(draw: st.DrawFn) -> tuple[Board, Square, int, Mover, dict[Square, str]]:
    board, open_squares = draw(random_boards(CELLS, FEATURES, open_corner=1))
    squares = draw(st.lists(st.sampled_from(open_squares), unique=True, min_size=1, max_size=6))
    units = {sq: draw(st.sampled_from(["red", "blue"])) for sq in squares[1:]}
    start = squares[0]
    units[start] = "red"
    mover = Mover(
        "red", fly=draw(st.booleans()), ranger=draw(st.booleans()), nimble=draw(st.booleans())
    )
    return board, start, draw(st.integers(1, 4)), mover, units


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(moves())
def test_reachable_matches_the_brute_force(
    drawn: tuple[Board, Square, int, Mover, dict[Square, str]],
) -> None:
    """Rulings: Movement (costs, diagonals, FLY, RGR, NMB, units in the way) and the
    deterministic tie-break: cheapest, then fewest steps, then the straightest path."""
    board, start, budget, mover, units = drawn
    assert reachable(board, start, budget, mover, units) == brute_force_reachable(
        board, start, budget, mover, units
    )


@settings(
    max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(moves())
def test_routes_are_legal_step_by_step(
    drawn: tuple[Board, Square, int, Mover, dict[Square, str]],
) -> None:
    """Rulings: Movement. Every path starts at the start, ends at its square, and its step
    costs (with the mover gone from its start square) add up to the route's cost."""
    board, start, budget, mover, units = drawn
    others = {sq: squad for sq, squad in units.items() if sq != start}
    for square, route in reachable(board, start, budget, mover, units).items():
        assert route.path[0] == start and route.path[-1] == square
        costs = [step_cost(board, a, b, mover, others) for a, b in pairwise(route.path)]
        assert None not in costs
        assert sum(c for c in costs if c is not None) == route.cost <= budget
        assert square == start or square not in units


@settings(max_examples=200, deadline=None, derandomize=True)
@given(moves(), st.integers(0, 35), st.integers(0, 7))
def test_step_cost_matches_the_rulings(
    drawn: tuple[Board, Square, int, Mover, dict[Square, str]], where: int, direction: int
) -> None:
    """Rulings: Step cost, Doors, Diagonal steps, FLY, Units in the way."""
    board, _, _, mover, units = drawn
    frm = Square(where % 6, where // 6)
    to = frm.around()[direction]
    assert step_cost(board, frm, to, mover, units) == reference_step(board, frm, to, mover, units)


# --- focused cases -----------------------------------------------------------------------------


def test_ties_go_to_the_straightest_path() -> None:
    """Deterministic paths: B2 to D2 costs 2 by C1, C2 or C3; C2 lies on the straight line.
    C3 to C6 goes straight down, not by B4 and B5 (players read the path on the picture)."""
    board = parse_board(FLAT, [])
    routes = reachable(board, Square.parse("B2"), 3, RED, {Square.parse("B2"): "red"})
    assert routes[Square.parse("D2")].path == tuple(map(Square.parse, ("B2", "C2", "D2")))
    routes = reachable(board, Square.parse("C3"), 3, RED, {})
    assert routes[Square.parse("C6")].path == tuple(map(Square.parse, ("C3", "C4", "C5", "C6")))


def test_equally_straight_paths_go_to_the_smaller_square() -> None:
    """Deterministic paths: B2 to C4 by B3 or C3 (both 1 off the line B2-C4 in the cross
    product); B3 is the smaller square (column first)."""
    board = parse_board(FLAT, [])
    routes = reachable(board, Square.parse("B2"), 3, RED, {})
    assert routes[Square.parse("C4")].path == tuple(map(Square.parse, ("B2", "B3", "C4")))
    assert routes[Square.parse("B2")] == Route(0, (Square.parse("B2"),))


def test_fewest_steps_wins_over_square_order() -> None:
    """Deterministic paths: B2 to D2 costs 3 over the 1-high wall (rulings: 2 for the wall)
    in 2 steps, or around it by B1 and C1 in 3 steps; the fewest steps win although B1 comes
    before C2 in Square order."""
    board = parse_board(FLAT, ["B2|C2: wall=1"])
    routes = reachable(board, Square.parse("B2"), 3, RED, {})
    assert routes[Square.parse("D2")] == Route(3, tuple(map(Square.parse, ("B2", "C2", "D2"))))


def test_opening_and_closing_a_door_changes_movement() -> None:
    """Rulings: Doors. A closed door cannot be crossed; open, it costs like no wall."""
    board = parse_board(FLAT, ["A2|A3, B2|B3, D2|D3, E2|E3, F2|F3: wall=2", "C2|C3: door=closed"])
    start, beyond = Square.parse("C2"), Square.parse("C3")
    assert beyond not in reachable(board, start, 3, RED, {})
    assert step_cost(board, start, beyond, RED, {}) is None
    board.doors[edge_key(start, beyond)] = True
    assert reachable(board, start, 3, RED, {})[beyond].cost == 1
    board.doors[edge_key(start, beyond)] = False
    assert beyond not in reachable(board, start, 3, RED, {})


def test_nimble_passes_enemies_but_ends_only_on_empty_squares() -> None:
    """Rulings: Units in the way; NMB ignores both restrictions on passing, nothing else."""
    board = parse_board(
        ["# # # # # #", "# # # # # #", ". . . . . .", "# # # # # #", "# # # # # #", "# # # # # #"],
        [],
    )
    units = {Square.parse("A3"): "red", Square.parse("B3"): "blue"}
    plain = reachable(board, Square.parse("A3"), 3, RED, units)
    nimble = reachable(board, Square.parse("A3"), 3, Mover("red", nimble=True), units)
    assert set(plain) == {Square.parse("A3")}
    assert Square.parse("B3") not in nimble
    assert nimble[Square.parse("C3")].path == tuple(map(Square.parse, ("A3", "B3", "C3")))
    assert nimble[Square.parse("D3")].cost == 3


def test_enemy_adjacent_squares_end_a_move_unless_supported() -> None:
    """Rulings: Units in the way; a squadmate adjacent to that enemy lets the mover pass."""
    board = parse_board(
        ["# # . # # #", "# # . # # #", ". . . . . .", "# # # # # #", "# # # # # #", "# # # # # #"],
        [],
    )
    units = {Square.parse("A3"): "red", Square.parse("C2"): "blue"}
    alone = reachable(board, Square.parse("A3"), 3, RED, units)
    assert set(map(str, alone)) == {"A3", "B3"}
    units[Square.parse("C1")] = "red"
    supported = reachable(board, Square.parse("A3"), 3, RED, units)
    assert set(map(str, supported)) == {"A3", "B3", "C3", "D3"}


def test_nothing_is_reachable_from_an_impassable_or_off_board_square() -> None:
    board = parse_board(["# . . . . ."] + FLAT[1:], [])
    assert reachable(board, Square.parse("A1"), 3, RED, {}) == {}
    assert reachable(board, Square(9, 9), 3, RED, {}) == {}
    assert step_cost(board, Square.parse("B1"), Square.parse("A1"), RED, {}) is None
    assert step_cost(board, Square.parse("B1"), Square.parse("D1"), RED, {}) is None
