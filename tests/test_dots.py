"""The hex grid of dots (skirmbot/rules/dots.py), for rulebook 002's Movement, Firing Arcs,
Line of Sight and Explosives: examples from the rulebook's words, then properties."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

# skewed and _touches: the exact segment/hexagon test, to check `line`'s choice of candidates.
from skirmbot.rules.dots import (
    ARC_WIDTHS,
    Direction,
    Dot,
    _touches,
    bearing,
    centre,
    direction_to,
    edge,
    in_arc,
    line,
    path_length,
    reachable,
    skewed,
)
from skirmbot.rules.errors import RulesError

dots = st.builds(Dot, st.integers(0, 25), st.integers(0, 25))
facings = st.floats(0, 360, exclude_max=True, allow_nan=False)


def one_ap(_a: Dot, _b: Dot) -> int:
    return 1


def box_around(a: Dot, b: Dot) -> tuple[int, int, int, int]:
    """A rectangle holding both dots and a margin wide enough for every shortest path."""
    margin = a.distance(b) + 2
    return (
        min(a.x, b.x) - margin,
        max(a.x, b.x) + margin,
        min(a.y, b.y) - margin,
        max(a.y, b.y) + margin,
    )


# --- notation --------------------------------------------------------------------------------


def test_notation_reads_and_writes_like_squares() -> None:
    assert Dot.parse("C4") == Dot(2, 3)
    assert Dot.parse(" c4 ") == Dot(2, 3)
    assert str(Dot(2, 3)) == "C4"


@pytest.mark.parametrize("text", ["", "4C", "C", "CC4", "C0", "C123", "?"])
def test_bad_notation_says_what_to_write(text: str) -> None:
    with pytest.raises(RulesError, match="column letter and a row number, like C4"):
        Dot.parse(text)


# --- the rulebook's words --------------------------------------------------------------------


def test_scatter_roll_one_is_north_east_then_clockwise() -> None:
    """Explosives: "Roll 1D6 to determine the scatter direction, identifying one direction to
    correspond to a result of 1 and proceeding clockwise with the other values.\""""
    rolled = [Direction.from_scatter(roll) for roll in range(1, 7)]
    assert rolled == [
        Direction.NORTH_EAST,
        Direction.EAST,
        Direction.SOUTH_EAST,
        Direction.SOUTH_WEST,
        Direction.WEST,
        Direction.NORTH_WEST,
    ]
    centre_dot = Dot.parse("D4")  # an even row: row 4 sits half a dot right of row 3
    assert [str(centre_dot.neighbour(d)) for d in rolled] == ["E3", "E4", "E5", "D5", "C4", "D3"]
    odd_row = Dot.parse("D3")
    assert [str(odd_row.neighbour(d)) for d in rolled] == ["D2", "E3", "D4", "C4", "C3", "C2"]


@pytest.mark.parametrize("roll", [0, 7, -1])
def test_scatter_roll_outside_a_die_is_refused(roll: int) -> None:
    with pytest.raises(RulesError, match="1 to 6"):
        Direction.from_scatter(roll)


def test_blast_rings_are_the_adjacent_dots_then_the_dots_two_away() -> None:
    """Explosives table: damage "for the point of detonation, the adjacent dots, the dots 2 away
    from the detonation, and so on"."""
    blast = Dot.parse("H8")
    assert blast.ring(0) == [blast]
    assert set(blast.ring(1)) == set(blast.neighbours())
    assert len(blast.ring(2)) == 12
    assert all(blast.distance(dot) == 2 for dot in blast.ring(2))
    assert len(blast.within(2)) == 19
    assert blast.within(1) == [blast, *blast.ring(1)]


def test_ring_runs_clockwise_from_north_east() -> None:
    blast = Dot.parse("H8")
    assert blast.ring(1) == blast.neighbours()
    two_north_east = blast.neighbour(Direction.NORTH_EAST).neighbour(Direction.NORTH_EAST)
    assert blast.ring(2)[0] == two_north_east


def test_range_counts_dots_in_the_shortest_path() -> None:
    """Resolving Fire: "Count the number of dots in the shortest path between the firing
    trooper and target trooper to determine the range."""
    assert Dot.parse("A1").distance(Dot.parse("A3")) == 2
    assert Dot.parse("A1").distance(Dot.parse("E1")) == 4
    # Going down the rows zig-zags, so two rows down from B2 reaches C4 in two steps.
    assert Dot.parse("B2").distance(Dot.parse("C4")) == 2


def test_a_wall_on_the_side_between_makes_the_way_round_longer() -> None:
    """Basic Movement: "the path between the dots does not pass though an impassible
    obstacle"; movement with "an obstruction between costs 2 AP"."""
    a, b = Dot.parse("C3"), Dot.parse("D3")
    wall = edge(a, b)
    on_map = box_filter(Dot(0, 0), Dot(9, 9))

    def walled(x: Dot, y: Dot) -> int | None:
        return None if edge(x, y) == wall else 1

    def low_wall(x: Dot, y: Dot) -> int | None:
        return 2 if edge(x, y) == wall else 1

    assert path_length(a, b, on_map, one_ap) == 1
    assert path_length(a, b, on_map, walled) == 2
    assert path_length(a, b, on_map, low_wall) == 2
    assert path_length(a, b, lambda dot: dot == a, one_ap) is None


def test_basic_movement_reaches_eight_ap_of_dots() -> None:
    """Basic Movement: "Troopers can use a maximum of 8 AP for movement"; a step with "an
    obstruction between costs 2 AP"."""
    start = Dot.parse("M13")
    on_map = box_filter(Dot(0, 0), Dot(25, 25))
    assert set(reachable(start, 8, on_map, one_ap)) == set(start.within(8))
    assert reachable(start, 0, on_map, one_ap) == {start: 0}

    def obstructed(_a: Dot, _b: Dot) -> int:
        return 2

    costs = reachable(start, 8, on_map, obstructed)
    assert set(costs) == set(start.within(4))
    assert all(costs[dot] == 2 * start.distance(dot) for dot in costs)


def test_firing_arc_table_widths() -> None:
    """Firing Arcs: "a 30 degree, 60 degree, or 150 degree firing arc"."""
    assert ARC_WIDTHS == (30, 60, 150)


def test_arc_vertex_is_on_the_troopers_dot_and_edges_are_in() -> None:
    """Firing Arcs: "the vertex of the arc is the dot the trooper is standing on and can be
    oriented in any direction"."""
    trooper = Dot.parse("E5")
    east = trooper.neighbour(Direction.EAST)
    assert not in_arc(trooper, 60, 30, trooper)
    assert in_arc(trooper, 60, 30, east)
    # 30 degrees either side of east is on a 60-degree arc's edge: in.
    assert in_arc(trooper, 90, 60, east)
    assert not in_arc(trooper, 90.5, 60, east)
    # Any orientation: an arc facing between two neighbours.
    assert in_arc(trooper, 30, 60, trooper.neighbour(Direction.NORTH_EAST))
    assert in_arc(trooper, 30, 60, east)
    assert not in_arc(trooper, 30, 60, trooper.neighbour(Direction.SOUTH_EAST))


def test_line_along_a_side_passes_both_dots_beside_it() -> None:
    """Straight north from D4 to D2 runs along the side between D3 and E3's hexagons
    (odd-r layout): both dots and every side it touches are on the line."""
    a, b = Dot.parse("D4"), Dot.parse("D2")
    assert bearing(a, b) == 330.0  # due north, 30 degrees anticlockwise of north-east
    seen = line(a, b)
    assert seen.dots == {a, b, Dot.parse("D3"), Dot.parse("E3")}
    assert edge(Dot.parse("D3"), Dot.parse("E3")) in seen.edges
    assert len(seen.edges) == 5


def test_line_between_neighbours_is_their_side() -> None:
    a = Dot.parse("C3")
    b = a.neighbour(Direction.EAST)
    assert line(a, b) == (frozenset({a, b}), frozenset({edge(a, b)}))


def test_centre_draws_odd_rows_half_a_dot_right() -> None:
    x1, y1 = centre(Dot.parse("A1"), 10)
    x2, y2 = centre(Dot.parse("A2"), 10)
    assert (x1, y1) == pytest.approx((10 * 3**0.5 / 2, 10))
    assert (x2 - x1, y2 - y1) == pytest.approx((10 * 3**0.5 / 2, 15))


def test_direction_to_and_edge_refuse_dots_apart() -> None:
    with pytest.raises(ValueError):
        direction_to(Dot(0, 0), Dot(5, 5))
    with pytest.raises(ValueError):
        edge(Dot(0, 0), Dot(5, 5))


# --- properties ------------------------------------------------------------------------------


def box_filter(low: Dot, high: Dot) -> Callable[[Dot], bool]:
    def inside(dot: Dot) -> bool:
        return low.x <= dot.x <= high.x and low.y <= dot.y <= high.y

    return inside


@given(dots)
def test_notation_round_trips(dot: Dot) -> None:
    assert Dot.parse(str(dot)) == dot


@given(dots)
def test_six_neighbours_clockwise_one_away_and_back(dot: Dot) -> None:
    around = dot.neighbours()
    assert len(set(around)) == 6
    for direction, neighbour in zip(Direction, around, strict=True):
        assert dot.distance(neighbour) == 1
        assert neighbour.neighbour(direction.opposite) == dot
        assert direction_to(dot, neighbour) == direction
        assert bearing(dot, neighbour) == direction.angle
    # Clockwise: each bearing is 60 degrees on from the last.
    bearings = [bearing(dot, neighbour) for neighbour in around]
    assert bearings == [0, 60, 120, 180, 240, 300]


@given(dots, dots)
def test_distance_is_symmetric_and_the_empty_board_shortest_path(a: Dot, b: Dot) -> None:
    assert a.distance(b) == b.distance(a)
    left, right, top, bottom = box_around(a, b)

    def inside(dot: Dot) -> bool:
        return left <= dot.x <= right and top <= dot.y <= bottom

    assert path_length(a, b, inside, one_ap) == a.distance(b)


@given(dots, st.integers(0, 4))
def test_ring_holds_every_dot_n_away_once(dot: Dot, n: int) -> None:
    ring = dot.ring(n)
    assert len(ring) == len(set(ring)) == max(1, 6 * n)
    assert all(dot.distance(other) == n for other in ring)
    assert len(dot.within(n)) == 1 + 3 * n * (n + 1)


@given(dots, dots)
def test_line_is_the_same_from_either_end(a: Dot, b: Dot) -> None:
    assert line(a, b) == line(b, a)


@given(dots, dots)
def test_line_holds_both_ends_and_is_connected(a: Dot, b: Dot) -> None:
    seen = line(a, b)
    assert {a, b} <= seen.dots
    # Every side on the line joins two of its dots, and those sides join a to b.
    reached, frontier = {a}, [a]
    sides = {side for side in seen.edges}
    while frontier:
        here = frontier.pop()
        for there in here.neighbours():
            if there not in reached and edge(here, there) in sides:
                reached.add(there)
                frontier.append(there)
    assert b in reached


@given(dots, dots)
def test_line_misses_no_dot_beyond_the_ones_it_tries(a: Dot, b: Dot) -> None:
    """`line` only tries dots next to points along it (a float shortcut); the exact test over
    every dot within two of the ends' distance finds nothing more."""
    ends = skewed(a), skewed(b)
    wider = {dot for dot in a.within(a.distance(b) + 2) if _touches(dot, *ends)}
    assert wider == line(a, b).dots


@given(dots, dots, facings)
def test_a_dot_in_a_narrow_arc_is_in_the_wider_ones(
    vertex: Dot, target: Dot, facing: float
) -> None:
    narrow, middle, wide = (in_arc(vertex, facing, width, target) for width in ARC_WIDTHS)
    assert (not narrow or middle) and (not middle or wide)
    if vertex == target:
        assert not wide


@given(dots, dots)
def test_a_target_is_in_the_arc_facing_it(vertex: Dot, target: Dot) -> None:
    if vertex != target:
        assert in_arc(vertex, bearing(vertex, target), 30, target)
        assert 0 <= bearing(vertex, target) < 360


@given(dots, dots, st.sets(st.builds(Dot, st.integers(0, 9), st.integers(0, 9)), max_size=30))
def test_path_length_agrees_with_reachable_and_is_never_shorter_than_distance(
    a: Dot, b: Dot, blocked: set[Dot]
) -> None:
    a, b = Dot(a.x % 10, a.y % 10), Dot(b.x % 10, b.y % 10)

    def open_dot(dot: Dot) -> bool:
        return 0 <= dot.x < 10 and 0 <= dot.y < 10 and dot not in blocked

    def rough_going(x: Dot, _y: Dot) -> int:
        return 1 + (x.x + x.y) % 3

    length = path_length(a, b, open_dot, rough_going)
    assert length == reachable(a, 10_000, open_dot, rough_going).get(b)
    if length is not None:
        assert length >= a.distance(b)
