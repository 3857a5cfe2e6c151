"""Line of sight and cover (rulings: Line of sight and cover), beyond the shared examples.

The fast implementation prunes terrain and works in scaled integers; here a slow reference
written straight from the rulings, with Fractions and every square and edge of the board,
must agree with it on random boards.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_boards import random_boards

from skirmbot.rules.board import Board, edge_key, parse_board
from skirmbot.rules.sight import in_cover, line_of_sight, sight
from skirmbot.rules.squares import Square
from skirmbot.rules.targeting import ranged_target_problem

FLAT = [". . . . . ."] * 6
TENTH = Fraction(1, 10)
Interval = tuple[Fraction, Fraction]


# --- a slow reference, word for word ---------------------------------------------------------


def sight_points(square: Square) -> list[tuple[Fraction, Fraction]]:
    """TL, TR, BL, BR: 1/10 inside each corner (rulings: Sight points)."""
    return [
        (square.x + dx, square.y + dy) for dy in (TENTH, 1 - TENTH) for dx in (TENTH, 1 - TENTH)
    ]


def box_meeting(
    p: tuple[Fraction, Fraction], q: tuple[Fraction, Fraction], box: tuple[Fraction, ...]
) -> Interval | None:
    """Where (as fractions t of the way from p to q) the closed segment meets the closed box."""
    low, high = Fraction(0), Fraction(1)
    for axis in (0, 1):
        start, delta = p[axis], q[axis] - p[axis]
        near, far = box[axis], box[axis + 2]
        if delta == 0:
            if not near <= start <= far:
                return None
            continue
        a, b = (near - start) / delta, (far - start) / delta
        low, high = max(low, min(a, b)), min(high, max(a, b))
    return (low, high) if low <= high else None


def reference_obstructed(
    board: Board,
    p: tuple[Fraction, Fraction],
    q: tuple[Fraction, Fraction],
    attacker: Square,
    target: Square,
    occupied: Collection[Square],
) -> bool:
    la, lt = board.level(attacker), board.level(target)

    def lowest(meeting: Interval) -> Fraction:
        return min((la + 1) + t * (lt - la) for t in meeting)

    # Only squares (and their right and lower edges) touching the segment's bounding box can
    # meet it; sight points are never on a grid line, so that is the squares between the
    # columns and rows of its two ends. This saves time, not cases.
    x_min, x_max = sorted((int(p[0]), int(q[0])))
    y_min, y_max = sorted((int(p[1]), int(q[1])))
    nearby = [
        square
        for square in board.squares()
        if x_min <= square.x <= x_max and y_min <= square.y <= y_max
    ]
    for square in nearby:
        meeting = box_meeting(p, q, (square.x, square.y, square.x + 1, square.y + 1))
        if meeting is None:
            continue
        if not board.is_open(square):
            return True  # (b)
        level = board.level(square)
        if level > lowest(meeting):
            return True  # (c)
        in_the_way = square in occupied and square not in (attacker, target)
        if in_the_way and level + 1 >= lowest(meeting):
            return True  # (d)
    for a in nearby:
        for b in (a.offset(1, 0), a.offset(0, 1)):
            if not (board.is_open(a) and board.is_open(b)):
                continue  # off the board, or meeting it means meeting an impassable square
            box = (a.x, b.y, a.x + 1, b.y) if a.x == b.x else (b.x, a.y, b.x, a.y + 1)
            meeting = box_meeting(p, q, tuple(Fraction(v) for v in box))
            if meeting is None:
                continue
            top = board.top(a, b)
            own = [level + 1 for sq, level in ((attacker, la), (target, lt)) if sq in (a, b)]
            if top > lowest(meeting) and (not own or top > max(own)):
                return True  # (a)
    return False


def target_edges(target: Square) -> list[tuple[Square, tuple[int, int, int, int], int]]:
    """The target's edges: the square across, the edge as a flat box, which side (0 top,
    1 bottom, 2 left, 3 right)."""
    x, y = target.x, target.y
    return [
        (target.offset(0, -1), (x, y, x + 1, y), 0),
        (target.offset(0, 1), (x, y + 1, x + 1, y + 1), 1),
        (target.offset(-1, 0), (x, y, x, y + 1), 2),
        (target.offset(1, 0), (x + 1, y, x + 1, y + 1), 3),
    ]


def reference_sight(
    board: Board, attacker: Square, target: Square, occupied: Collection[Square]
) -> tuple[bool, bool]:
    """(visible, cover) straight from the rulings."""
    targets = sight_points(target)
    next_to = {0: (0, 1), 1: (2, 3), 2: (0, 2), 3: (1, 3)}
    head = board.level(target) + 1
    cover_boxes = [
        tuple(Fraction(v) for v in box)
        for other, box, _ in target_edges(target)
        if board.is_open(other) and board.top(target, other) >= head
    ]
    pairs_seen, pairs_covered = 0, 0
    for p in sight_points(attacker):
        for _, box, side in target_edges(target):
            faces = {0: p[1] < box[1], 1: p[1] > box[1], 2: p[0] < box[0], 3: p[0] > box[0]}[side]
            if not faces:
                continue
            ends = [targets[j] for j in next_to[side]]
            if any(reference_obstructed(board, p, q, attacker, target, occupied) for q in ends):
                continue
            pairs_seen += 1
            if any(box_meeting(p, q, cb) is not None for q in ends for cb in cover_boxes):
                pairs_covered += 1
    visible = pairs_seen > 0
    high_ground = board.level(attacker) - board.level(target) >= 2
    return visible, visible and pairs_covered == pairs_seen and not high_ground


# --- random boards -----------------------------------------------------------------------------

CELLS = [".", ".", ".", ".", "~", "#", "1", "1", "2", "3"]


@st.composite
def boards_and_units(draw: st.DrawFn) -> tuple[Board, list[Square]]:
    features = ["wall=1", "wall=2", "wall=3", "door=closed", "door=open"]
    board, open_squares = draw(
        random_boards(CELLS, features, sides=(6, 7), max_edges=12, open_corner=2)
    )
    units = draw(st.lists(st.sampled_from(open_squares), unique=True, min_size=2, max_size=8))
    return board, units


@settings(
    max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(boards_and_units())
def test_sight_agrees_with_a_word_for_word_reference(drawn: tuple[Board, list[Square]]) -> None:
    """Rulings: Line of sight, What obstructs a segment (a)-(d), Cover, High ground."""
    board, units = drawn
    occupied = set(units)
    for attacker in units[:3]:
        for target in units:
            if target == attacker:
                continue
            seen = sight(board, attacker, target, occupied)
            expected = reference_sight(board, attacker, target, occupied)
            assert (seen.visible, seen.cover) == expected, (attacker, target)


# --- focused cases -----------------------------------------------------------------------------


def test_toggling_a_door_changes_line_of_sight() -> None:
    """Rulings: Doors. A closed door hides what is behind it, an open one counts as no wall;
    the remembered terrain must follow the door's state both ways."""
    board = parse_board(FLAT, ["C1|D1, C3|D3, C4|D4, C5|D5, C6|D6: wall=2", "C2|D2: door=closed"])
    attacker, target = Square.parse("A2"), Square.parse("F2")
    assert not line_of_sight(board, attacker, target, [])
    board.doors[edge_key(Square.parse("C2"), Square.parse("D2"))] = True
    assert line_of_sight(board, attacker, target, [])
    board.doors[edge_key(Square.parse("C2"), Square.parse("D2"))] = False
    assert not line_of_sight(board, attacker, target, [])


def test_board_copies_keep_their_own_door_states() -> None:
    """Rulings: Doors; Board.copy shares the terrain but not the doors."""
    board = parse_board(FLAT, ["C1|D1, C3|D3, C4|D4, C5|D5, C6|D6: wall=2", "C2|D2: door=closed"])
    opened = board.copy()
    opened.doors[edge_key(Square.parse("C2"), Square.parse("D2"))] = True
    attacker, target = Square.parse("A2"), Square.parse("F2")
    assert line_of_sight(opened, attacker, target, [])
    assert not line_of_sight(board, attacker, target, [])


def test_units_in_the_way_block_but_attacker_and_target_do_not() -> None:
    """Rulings: (d) a Unit other than attacker and target blocks when its head reaches."""
    board = parse_board(FLAT, [])
    attacker, target = Square.parse("A3"), Square.parse("F3")
    assert line_of_sight(board, attacker, target, {attacker, target})
    assert not line_of_sight(board, attacker, target, {attacker, target, Square.parse("C3")})
    # A model on the row beside still leaves the lines along row 3 clear.
    assert line_of_sight(board, attacker, target, {Square.parse("C1")})


def test_high_ground_ignores_cover_but_one_level_does_not() -> None:
    """Rulings: Cover / High ground: 2 or more levels above the target ignores cover."""
    for level, covered in (("1", True), ("2", False), ("3", False)):
        rows = [f"{level} . . . . ."] + [". . . . . ."] * 5
        board = parse_board(rows, ["C4|D4, D3|D4: wall=1"])
        assert in_cover(board, Square.parse("A1"), Square.parse("D4"), []) is covered, level


def test_lines_are_exact_sight_points_of_both_squares() -> None:
    """Rulings: Sight points; the drawn lines start at an attacker sight point and end at the
    two target sight points next to one facing edge."""
    board = parse_board(FLAT, ["C4|D4: wall=1"])
    seen = sight(board, Square.parse("A2"), Square.parse("D4"), [])
    assert seen.visible and seen.cover
    assert len(seen.lines) == 2
    (p1, q1), (p2, q2) = seen.lines
    assert p1 == p2 and p1 in sight_points(Square.parse("A2"))
    assert q1 in sight_points(Square.parse("D4")) and q2 in sight_points(Square.parse("D4"))
    assert all(isinstance(c, Fraction) for point in (p1, q1, q2) for c in point)


def test_a_pair_without_cover_is_drawn_when_not_in_cover() -> None:
    """Rulings: Cover needs every pair covered; the picture shows the pair that is not."""
    board = parse_board(FLAT, ["D3|D4: wall=1"])
    attacker, target = Square.parse("A2"), Square.parse("D4")
    seen = sight(board, attacker, target, [])
    assert seen.visible and not seen.cover
    (p, q1), (_, q2) = seen.lines
    # The drawn pair ends next to the left edge, the one without the low wall.
    assert q1[0] == q2[0] == Fraction(31, 10)


def test_no_sight_to_or_from_impassable_or_own_square() -> None:
    """Rulings: Blocking squares; a square does not face itself."""
    board = parse_board([". # . . . ."] + [". . . . . ."] * 5, [])
    assert not line_of_sight(board, Square.parse("A1"), Square.parse("B1"), [])
    assert not line_of_sight(board, Square.parse("A3"), Square.parse("A3"), [])


def test_repeated_queries_give_the_same_answer_with_and_without_units() -> None:
    """The remembered terrain answer is not changed by a query with Units in the way."""
    board = parse_board(FLAT, [])
    attacker, target = Square.parse("A1"), Square.parse("E5")
    first = sight(board, attacker, target, [])
    assert not sight(board, attacker, target, [Square.parse("C3")]).visible
    assert sight(board, attacker, target, []) == first


# --- ranged restrictions -----------------------------------------------------------------------


def test_a_target_across_a_cliff_at_distance_1_may_be_shot() -> None:
    """Rulings: Ranged restrictions; a target across a cliff at distance 1 is not adjacent,
    and from the cliff top the near sight points see over the edge."""
    board = parse_board([". . . . . .", ". 2 . . . ."] + FLAT[2:], [])
    a, t = Square.parse("B2"), Square.parse("C2")
    assert ranged_target_problem(board, a, t, 3, {a: "red", t: "blue"}, "red") is None


def test_a_target_behind_a_closed_door_at_distance_1_is_not_adjacent_but_unseen() -> None:
    """Rulings: Ranged restrictions and Doors: not adjacent, but hidden by the door."""
    board = parse_board(FLAT, ["B2|C2: door=closed"])
    units = {Square.parse("B2"): "red", Square.parse("C2"): "blue"}
    problem = ranged_target_problem(board, Square.parse("B2"), Square.parse("C2"), 3, units, "red")
    assert problem == "No line of sight from B2 to C2."


def test_each_ranged_restriction_says_why() -> None:
    """Rulings: Ranged restrictions: adjacency, enemy next to the attacker, range, squadmate
    next to the target; cover is no restriction."""
    board = parse_board(FLAT, ["D3|E3: wall=1"])
    a, t = Square.parse("B3"), Square.parse("E3")

    def problem(units: dict[str, str], weapon_range: int = 6, target: Square = t) -> str | None:
        placed = {a: "red", target: "blue"} | {Square.parse(k): v for k, v in units.items()}
        return ranged_target_problem(board, a, target, weapon_range, placed, "red")

    assert problem({}) is None  # in cover behind the low wall, still a fair shot
    assert problem({}, target=Square.parse("C3")) == (
        "The target on C3 is adjacent to B3: ranged attacks need a target that is not adjacent."
    )
    assert problem({"A2": "blue"}) == (
        "An enemy on A2 is adjacent to the attacker on B3: ranged attacks need no enemy "
        "adjacent to the attacker."
    )
    assert problem({}, weapon_range=2) == "E3 is 3 squares away; this weapon's range is 2."
    assert problem({"F4": "red"}) == (
        "A squadmate on F4 is adjacent to the target on E3: ranged attacks need no squadmate "
        "adjacent to the target."
    )
    assert problem({"D3": "green"}) == "No line of sight from B3 to E3."
