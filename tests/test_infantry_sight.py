"""Line of sight and cover on a map of dots (rulebook 002: Line of Sight ¶1-3, Resolving Fire ¶5).

No dice are rolled here: sight decides whether a shot may be taken and its cover, not the shot.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from skirmbot.rules.dots import Direction, Dot, edge, line
from skirmbot.rules.infantry.maps import DotMap, Feature, map_from_json
from skirmbot.rules.infantry.sight import Body, Sight, _readings, sight

D = Dot.parse


def board(
    rows: list[str], edges: Sequence[str] = (), levels: dict[str, int] | None = None
) -> DotMap:
    return map_from_json(
        {
            "name": "Test",
            "width": len(rows[0]),
            "height": len(rows),
            "dots": rows,
            "levels": levels or {},
            "edges": list(edges),
        }
    )


def at(text: str, level: int = 0, prone: bool = False) -> Body:
    return Body(D(text), level, prone)


ROW = ["......."]


def test_a_clear_straight_line_is_sight_without_cover() -> None:
    """LoS ¶1: "Draw a straight line between the firing trooper and the targeted trooper."."""
    assert sight(board(ROW), at("A1"), at("F1")) == Sight(True, 0)
    assert sight(board(["....."] * 5), at("A1"), at("E5")) == Sight(True, 0)


def test_a_low_wall_on_the_line_is_cover_not_a_block() -> None:
    """LoS ¶1: "Obstructions, such as furniture, light vegetation, and low walls, provide cover
    but do not block line of sight." +1 each (Resolving Fire ¶5)."""
    assert sight(board(ROW, ["C1 D1 low"]), at("A1"), at("F1")) == Sight(True, 1)
    assert sight(board(ROW, ["C1 D1 light", "D1 E1 low"]), at("A1"), at("F1")) == Sight(True, 2)


def test_cover_plus_1_each_but_not_the_firers_own_wall() -> None:
    """Resolving Fire ¶5: "+1 modifier for each obstruction in the path of fire ... except for
    any obstruction between the firing trooper and any adjacent dots"."""
    walled = board(ROW, ["C1 D1 low"])
    assert sight(walled, at("C1"), at("F1")) == Sight(True, 0)
    assert sight(walled, at("F1"), at("C1")) == Sight(True, 1)  # the target's wall covers it


def test_a_doorway_is_no_cover_and_a_window_is() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): "a doorway never blocks sight and gives
    no cover; a window is a low solid obstruction"."""
    assert sight(board(ROW, ["C1 D1 door"]), at("A1"), at("F1")) == Sight(True, 0)
    assert sight(board(ROW, ["C1 D1 window"]), at("A1"), at("F1")) == Sight(True, 1)


def test_a_high_wall_or_tree_blocks() -> None:
    """LoS ¶1: "Impassible obstacles, such as a solid high wall, the truck of a tree ... block
    line of sight"."""
    assert not sight(board(ROW, ["C1 D1 wall"]), at("A1"), at("F1")).clear
    assert not sight(board(["..#...."]), at("A1"), at("F1")).clear


def test_a_trooper_between_is_cover() -> None:
    """LoS ¶1: "Additional troopers, enemy or friendly, between the firing trooper and the
    targeted trooper also provide cover": +1 each on the line, none off it."""
    assert sight(board(ROW), at("A1"), at("F1"), [at("C1")]) == Sight(True, 1)
    assert sight(board(ROW), at("A1"), at("F1"), [at("C2")]) == Sight(True, 0)  # off the line


def test_a_trooper_between_is_cover_not_a_block() -> None:
    """LoS ¶1 ends "Impassible obstacles, such as ... a trooper, block line of sight"; our
    ruling (proposed in docs/plans/infantry.md): the specific sentence before it wins, so even
    a file of troopers is cover and never a block."""
    crowd = [at("B1"), at("C1"), at("D1"), at("E1")]
    assert sight(board(ROW), at("A1"), at("F1"), crowd) == Sight(True, 4)


def test_a_prone_trooper_between_is_no_cover_to_a_standing_firer() -> None:
    """LoS ¶1: "... unless the firing trooper is standing and the intervening trooper is prone"."""
    lying = [at("C1", prone=True)]
    assert sight(board(ROW), at("A1"), at("F1"), lying) == Sight(True, 0)
    assert sight(board(ROW), at("A1", prone=True), at("F1"), lying) == Sight(True, 1)


def test_a_prone_target_behind_the_firers_own_low_wall_is_out_of_sight() -> None:
    """LoS ¶2: "If the firing trooper or targeted trooper is prone, then any solid low
    obstructions ... that are adjacent to firing trooper block line of sight." As written (the
    plan's flag): only the firer's; a hedge is not solid."""
    walled = board(ROW, ["A1 B1 low"])
    assert not sight(walled, at("A1"), at("F1", prone=True)).clear
    assert not sight(walled, at("A1", prone=True), at("F1")).clear
    assert sight(walled, at("A1"), at("F1")) == Sight(True, 0)
    hedge = board(ROW, ["A1 B1 light"])
    assert sight(hedge, at("A1", prone=True), at("F1")).clear
    # The target's own low wall: cover, not a block, when only the target is prone.
    assert sight(board(ROW, ["E1 F1 low"]), at("A1"), at("F1", prone=True)) == Sight(True, 1)


def test_both_prone_any_low_wall_blocks() -> None:
    """LoS ¶2: "If the firing trooper and the targeted trooper are prone, then any solid low
    obstructions block line of sight."."""
    assert not sight(board(ROW, ["C1 D1 low"]), at("A1", prone=True), at("F1", prone=True)).clear
    assert not sight(board(ROW, ["C1 D1 window"]), at("A1", prone=True), at("F1", prone=True)).clear
    hedge = board(ROW, ["C1 D1 light"])
    assert sight(hedge, at("A1", prone=True), at("F1", prone=True)) == Sight(True, 1)


def test_from_a_window_ground_low_walls_are_ignored() -> None:
    """LoS ¶3: "If either ... is at a higher level ... only obstructions and obstacles at the
    same level of the higher trooper provide cover or block line of sight."."""
    house = board(["S.#...."], ["B1 C1 low", "C1 D1 wall"], {"A1": 1})
    assert sight(house, at("A1", level=1), at("G1")) == Sight(True, 0)
    # Shooting up at the window, B1|C1 ends beside the target: it covers (the ¶3 exception).
    assert sight(house, at("G1"), at("A1", level=1)) == Sight(True, 1)
    assert not sight(house, at("A1"), at("G1")).clear  # from the ground floor the wall blocks


def test_a_wall_at_the_higher_level_blocks() -> None:
    """LoS ¶3: obstacles "at the same level of the higher trooper ... block"."""
    house = board(["SS....."], ["B1 C1 wall @1"], {"A1": 1, "B1": 1})
    assert not sight(house, at("A1", level=1), at("G1")).clear
    assert sight(house, at("A1"), at("G1")).clear  # on the ground there is no wall there


def test_a_low_wall_beside_the_target_still_covers_a_shot_from_above() -> None:
    """LoS ¶3: "However, all obstructions and obstacles within one dot of the targeted trooper
    always provides cover or blocks line of sight." Our ruling (proposed in
    docs/plans/infantry.md): a side with an end on the target's dot or a neighbour of it."""
    house = board(["S......"], ["E1 F1 low", "B1 C1 low"], {"A1": 1})
    assert sight(house, at("A1", level=1), at("F1")) == Sight(True, 1)
    assert sight(house, at("A1", level=1), at("G1")) == Sight(True, 1)  # E1|F1 ends beside G1
    walled = board(["S......"], ["F1 G1 wall"], {"A1": 1})
    assert not sight(walled, at("A1", level=1), at("G1")).clear


def test_a_line_along_a_side_takes_the_clearer_side_from_both_ends() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): a line along a side or through a corner
    "is blocked only if it is blocked on both sides, and its cover is the lesser of the two
    sides'", the same from both ends. C3 to D2 runs along the side between C2 and D3."""
    firer, target = D("C3"), D("C3").neighbour(Direction.NORTH_EAST).neighbour(Direction.EAST)
    left, right = D("C3").neighbour(Direction.NORTH_EAST), D("C3").neighbour(Direction.EAST)
    assert (str(target), str(left), str(right)) == ("D2", "C2", "D3")

    def both(rows: list[str], edges: Sequence[str] = ()) -> set[Sight]:
        field = board(rows, edges)
        return {sight(field, Body(firer), Body(target)), sight(field, Body(target), Body(firer))}

    five = ["....."] * 5
    assert both(five[:1] + ["..#.."] + five[2:]) == {Sight(True, 0)}  # a tree on C2
    assert both(five[:1] + ["..#.."] + ["...#."] + five[3:]) == {Sight(False, 0)}  # C2 and D3
    # A wall the line runs exactly along stands beside it, on neither reading.
    assert both(five, ["C2 D3 wall"]) == {Sight(True, 0)}
    # Cover on one hand only: the lesser (0); on both hands: 1.
    assert both(five, [f"{left} {target} low"]) == {Sight(True, 0)}
    assert both(five, [f"{left} {target} low", f"{right} {target} low"]) == {
        Sight(True, 1),
        Sight(True, 0),  # from D2 those are the firer's own sides
    }


def test_beside_each_other_nothing_but_a_wall_or_prone_rule_counts() -> None:
    """Resolving Fire ¶5 and LoS ¶1-2 between neighbours: the only side is the firer's own."""
    assert sight(board(ROW, ["A1 B1 low"]), at("A1"), at("B1")) == Sight(True, 0)
    assert not sight(board(ROW, ["A1 B1 wall"]), at("A1"), at("B1")).clear
    assert sight(board(ROW), at("A1"), at("A1")) == Sight(True, 0)


# --- property: symmetric when both stand on one level -----------------------------------------

SIDE = 6
_DOTS = [Dot(x, y) for y in range(SIDE) for x in range(SIDE)]
_SIDES = sorted(
    {edge(a, b) for a in _DOTS for b in a.neighbours() if 0 <= b.x < SIDE and 0 <= b.y < SIDE}
)


@st.composite
def scenes(draw: st.DrawFn) -> tuple[DotMap, Body, Body, list[Body]]:
    firer, target = draw(st.lists(st.sampled_from(_DOTS), min_size=2, max_size=2, unique=True))
    trees = draw(st.sets(st.sampled_from(_DOTS), max_size=5)) - {firer, target}
    kinds = st.sampled_from([feature.value for feature in Feature])
    features = draw(st.dictionaries(st.sampled_from(_SIDES), kinds, max_size=12))
    rows = ["".join("#" if Dot(x, y) in trees else "." for x in range(SIDE)) for y in range(SIDE)]
    edges = [f"{a} {b} {kind}" for (a, b), kind in features.items()]
    others = draw(st.lists(st.sampled_from(_DOTS), max_size=3))
    lying = draw(st.lists(st.booleans(), min_size=len(others), max_size=len(others)))
    bodies = [Body(dot, 0, prone) for dot, prone in zip(others, lying, strict=True)]
    return board(rows, edges), Body(firer), Body(target), bodies


@settings(max_examples=300, deadline=None)
@given(scenes())
def test_sight_is_symmetric_when_both_stand_on_one_level(
    scene: tuple[DotMap, Body, Body, list[Body]],
) -> None:
    """LoS ¶1 draws one straight line between the two troopers: when neither is prone and both
    are on one level, each sees the other or neither does; the cover is the same too unless a
    feature stands on a side of either trooper's own dot (Resolving Fire ¶5 drops the firer's)."""
    field, a, b, others = scene
    there, back = sight(field, a, b, others), sight(field, b, a, others)
    assert there.clear == back.clear
    own = any(a.dot in side or b.dot in side for side, _ in field.features)
    if not own:
        assert there == back


def test_each_reading_of_a_line_is_a_chain_of_dots_from_end_to_end() -> None:
    """Our ruling (proposed in docs/plans/infantry.md), the clearer side: each of a line's two
    readings must still be a line, a chain of its dots joined by the sides it crosses, and the
    two together hold every dot dots.line found. Every pair of dots on an 8 by 8 map."""
    dots = [Dot(x, y) for y in range(8) for x in range(8)]
    for a in dots:
        for b in dots:
            if a == b:
                continue
            readings = _readings(Body(a), Body(b))
            assert readings[0].dots | readings[1].dots == line(a, b).dots
            for reading in readings:
                assert b in _chain(a, reading.dots, reading.edges)


def _chain(start: Dot, dots: frozenset[Dot], sides: frozenset[tuple[Dot, Dot]]) -> set[Dot]:
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for there in here.neighbours():
            if there in dots and there not in seen and edge(here, there) in sides:
                seen.add(there)
                todo.append(there)
    return seen
