"""Explosives (skirmbot/rules/infantry/blast.py), rulebook 002: every Explosives row of the
plan's "Resolving fire, melee, explosives" table, each test citing its sentence and scripting
its dice (docs/plans/infantry.md, section 1). The map is a few sides with features, read
through dots.line the way the terrain part will."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.dots import Direction, Dot, Edge, edge, line
from skirmbot.rules.infantry.blast import (
    Barred,
    Between,
    BlastHit,
    Exposed,
    Token,
    blast,
    blast_distance,
    blast_value,
    explode,
    level_throw_allowed,
    level_throw_ap,
    scatter,
    scatter_start,
    shielded,
    throw_ap,
    throw_target_number,
)

GRENADE = (6, 3, 1)  # Explosives table: Hand Grenade 6X/3X/1X
SATCHEL = (10, 5, 2)  # Satchel Charge 10X/5X/2X
D4 = Dot.parse("D4")  # neighbours clockwise from north-east: E3 E4 E5 D5 C4 D3


def side(a: str, b: str) -> Edge:
    return edge(Dot.parse(a), Dot.parse(b))


def features(sides: dict[Edge, str]) -> tuple[Barred, Between]:
    """`barred` and `between` for a map that is open but for the given sides' features."""

    def barred(a: Dot, b: Dot) -> bool:
        return sides.get(edge(a, b)) == "wall"

    def between(a: Dot, b: Dot) -> frozenset[str]:
        return frozenset(sides[s] for s in line(a, b).edges if s in sides)

    return barred, between


OPEN_BARRED, OPEN_BETWEEN = features({})


def exposed(name: str, dot: str, level: int = 0, prone: bool = False) -> Exposed:
    return Exposed(name, Dot.parse(dot), level, prone)


def test_throw_ap_1_per_dot_grenade_2_per_dot_satchel() -> None:
    """Explosives ¶1: "A thrown grenade costs 1 AP for each dot its thrown, and a thrown
    satchel charge costs 2 AP for each dot"."""
    assert throw_ap(4, 1, prone=False) == 4
    assert throw_ap(3, 2, prone=False) == 6


def test_throw_ap_doubles_prone() -> None:
    """Explosives ¶1: "Double these AP costs if the attacking trooper is prone"."""
    assert throw_ap(4, 1, prone=True) == 8
    assert throw_ap(3, 2, prone=True) == 12


def test_a_throw_up_one_level_from_the_stairs_costs_3() -> None:
    """Explosives ¶2: "up one level, at a cost of 3 AP. The trooper must be standing on the
    stairwell or ladder to throw the explosive up a level" (doubled prone, ¶1)."""
    assert level_throw_ap(prone=False) == 3
    assert level_throw_ap(prone=True) == 6
    assert level_throw_allowed(1, on_stairs=True, beside_stairs=False)
    assert not level_throw_allowed(1, on_stairs=False, beside_stairs=True)
    assert not level_throw_allowed(2, on_stairs=True, beside_stairs=False)


def test_a_throw_down_two_levels_from_beside_the_stairs() -> None:
    """Explosives ¶2: "down ... any number of levels ... may be on or adjacent to the
    stairwell or ladder to throw the explosive down"."""
    assert level_throw_allowed(-2, on_stairs=False, beside_stairs=True)
    assert level_throw_allowed(-1, on_stairs=True, beside_stairs=False)
    assert not level_throw_allowed(-1, on_stairs=False, beside_stairs=False)


def test_a_grenade_thrown_4_dots_needs_4_plus_cover() -> None:
    """Explosives ¶5: "The base target number is the number of AP used to throw ... Apply all
    appropriate modifiers ... do not apply any modifiers for a prone target" (there is no
    target-prone argument at all): damage, cover and the thrower prone do apply."""
    assert throw_target_number(ap_used=4, damage_modifier=0, cover=0, thrower_prone=False) == 4
    assert throw_target_number(ap_used=4, damage_modifier=0, cover=1, thrower_prone=False) == 5
    assert throw_target_number(ap_used=4, damage_modifier=2, cover=1, thrower_prone=False) == 7
    assert throw_target_number(ap_used=8, damage_modifier=0, cover=0, thrower_prone=True) == 7


def test_blast_damage_by_distance_6_3_1() -> None:
    """Explosives ¶1 and table: damage "in descending order for the point of detonation, the
    adjacent dots, the dots 2 away": 6X/3X/1X for a grenade, 10X/5X/2X for a satchel."""
    assert [blast_value(GRENADE, d) for d in range(4)] == [6, 3, 1, 0]
    assert [blast_value(SATCHEL, d) for d in range(4)] == [10, 5, 2, 0]


def test_blast_damages_each_trooper_by_distance_nearest_first() -> None:
    """Explosives ¶6: "apply damage starting at the targeted dot and moving outwards"; each
    trooper its own damage 2D6: our ruling (proposed in docs/plans/infantry.md)."""
    troopers = [
        exposed("Far", "F4"),  # 2 away
        exposed("Out", "H4"),  # 4 away: untouched
        exposed("Near", "E4"),  # 1 away
        exposed("On", "D4"),
    ]
    hits = blast(ScriptedDice([1, 1, 2, 2, 3, 3]), D4, 0, GRENADE, troopers, OPEN_BETWEEN)
    assert hits == (
        BlastHit("On", 0, 6, 2),
        BlastHit("Near", 1, 3, 4),
        BlastHit("Far", 2, 1, 6),
    )


def test_a_wall_shields_from_the_blast() -> None:
    """Explosives ¶6: "Impassible obstacles between the center of the explosion and the
    affected trooper, such as a solid high wall ... block explosive damage"."""
    _, between = features({side("D4", "E4"): "wall"})
    hits = blast(ScriptedDice([3, 3]), D4, 0, GRENADE, [exposed("Behind", "E4")], between)
    assert hits == ()
    assert shielded({"impassable"}, prone=False)


def test_a_prone_trooper_behind_a_low_wall_is_shielded() -> None:
    """Explosives ¶6: "Low solid obstructions such as furniture and windows also block
    explosive damage if the affected trooper is prone"; a standing one is hit; a hedge is not
    solid: our ruling."""
    _, between = features({side("D4", "E4"): "low", side("D4", "C4"): "window"})
    troopers = [
        exposed("Standing", "E4"),
        exposed("Prone", "E4", prone=True),
        exposed("Under the window", "C4", prone=True),
    ]
    hits = blast(ScriptedDice([2, 3]), D4, 0, GRENADE, troopers, between)
    assert hits == (BlastHit("Standing", 1, 3, 5),)
    assert not shielded({"light"}, prone=True)


def test_a_trooper_one_level_up_takes_the_1_dot_value() -> None:
    """Explosives ¶6: "Explosive damage is also applied to troopers above or below ... Treat
    each level of height as one dot further away from the center of the explosion"."""
    troopers = [exposed("Above", "D4", level=1), exposed("Above beside", "E4", level=1)]
    hits = blast(ScriptedDice([4, 4, 5, 5]), D4, 0, GRENADE, troopers, OPEN_BETWEEN)
    assert hits == (BlastHit("Above", 1, 3, 8), BlastHit("Above beside", 2, 1, 10))
    assert blast_distance(D4, D4, -3) == 3


def test_a_grenade_on_target_blasts_the_targeted_dot() -> None:
    """Explosives ¶6: "If the target number is met, then apply damage starting at the
    targeted dot": the 2D6 check, then each trooper's damage 2D6, no scatter die."""
    token = Token(D4, 0, D4, 4, GRENADE)
    dice = ScriptedDice([2, 2, 6, 5])
    result = explode(dice, token, [exposed("On", "D4")], OPEN_BARRED, OPEN_BETWEEN)
    assert (result.hit, result.scatter, result.centre) == (True, None, D4)
    assert result.hits == (BlastHit("On", 0, 6, 11),)
    assert dice.remaining == 0


def test_a_missed_grenade_scatters() -> None:
    """Explosives ¶7: "If the target number is not met, then the explosive scatters. The
    explosive scatters from the targeted dot": 1D6 after the check (2 = east)."""
    token = Token(D4, 0, D4, 9, GRENADE)
    result = explode(ScriptedDice([4, 4, 2]), token, [], OPEN_BARRED, OPEN_BETWEEN)
    assert not result.hit
    assert result.scatter is not None
    assert (result.scatter.roll, result.scatter.direction) == (2, Direction.EAST)
    assert result.centre == Dot.parse("E4")


def test_a_scattered_grenade_blasts_where_it_lands() -> None:
    """Explosives ¶7: "Move the center of the explosion to the new dot and apply damage as
    above": the trooper on the targeted dot is now 1 away, the one beyond 0."""
    token = Token(D4, 0, D4, 12, GRENADE)
    troopers = [exposed("Target", "D4"), exposed("Beyond", "E4")]
    dice = ScriptedDice([1, 1, 2, 3, 3, 1, 1])
    result = explode(dice, token, troopers, OPEN_BARRED, OPEN_BETWEEN)
    assert result.centre == Dot.parse("E4")
    assert result.hits == (BlastHit("Beyond", 0, 6, 6), BlastHit("Target", 1, 3, 2))


@pytest.mark.parametrize(
    ("roll", "lands"), [(1, "E3"), (2, "E4"), (3, "E5"), (4, "D5"), (5, "C4"), (6, "D3")]
)
def test_scatter_1_to_6_goes_clockwise_one_dot(roll: int, lands: str) -> None:
    """Explosives ¶7: "Roll 1D6 ... identifying one direction to correspond to a result of 1
    and proceeding clockwise"; 1 is north-east (dots.py) and a scatter moves one dot: our
    ruling (proposed in docs/plans/infantry.md)."""
    assert scatter(ScriptedDice([roll]), D4, D4, OPEN_BARRED).centre == Dot.parse(lands)


def test_scatter_into_a_wall_stays() -> None:
    """Explosives ¶7: "If the path of scatter intersects an impassible obstacle, such as a
    solid high wall, then the explosive does not scatter and the center of the explosion stays
    on the targeted dot"."""
    barred, _ = features({side("D4", "E4"): "wall"})
    result = scatter(ScriptedDice([2]), D4, D4, barred)
    assert (result.roll, result.centre) == (2, D4)


def test_a_grenade_through_a_window_scatters_from_the_dot_before_it() -> None:
    """Explosives ¶7: "If the explosive was fired through a window, then the explosive scatters
    from the first dot before the window along the line of sight"."""
    thrower, target = Dot.parse("A1"), Dot.parse("F1")
    windows = [side("C1", "D1"), side("E1", "F1")]
    start = scatter_start(thrower, target, windows)
    assert start == Dot.parse("C1")
    assert scatter_start(target, thrower, windows) == Dot.parse("F1")
    assert scatter_start(thrower, target, [side("C4", "D4")]) == target
    result = scatter(ScriptedDice([5]), target, start, OPEN_BARRED)
    assert result.centre == Dot.parse("B1")


def test_a_scatter_from_before_a_window_into_a_wall_stays_on_the_target() -> None:
    """Explosives ¶7, as written: when the scatter is barred "the center of the explosion stays
    on the targeted dot", even when it scattered from before a window."""
    barred, _ = features({side("C1", "B1"): "wall"})
    target = Dot.parse("F1")
    result = scatter(ScriptedDice([5]), target, Dot.parse("C1"), barred)
    assert result.centre == target


@given(
    st.lists(
        st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(-2, 2), st.booleans()),
        max_size=8,
    )
)
def test_an_open_blast_hits_everyone_within_2_nearest_first_at_the_tables_value(
    places: list[tuple[int, int, int, bool]],
) -> None:
    """Explosives ¶6 on an open map: every trooper within 2 (levels counted) is hit, "starting
    at the targeted dot and moving outwards", each at the table's value for its distance."""
    troopers = [
        Exposed(f"T{i}", Dot(x, y), level, prone) for i, (x, y, level, prone) in enumerate(places)
    ]
    dice = ScriptedDice([1] * 2 * len(troopers))
    hits = blast(dice, D4, 0, GRENADE, troopers, OPEN_BETWEEN)
    near = [t for t in troopers if blast_distance(D4, t.dot, t.level) <= 2]
    assert sorted(hit.name for hit in hits) == sorted(t.name for t in near)
    assert [hit.distance for hit in hits] == sorted(hit.distance for hit in hits)
    assert all(hit.lethal == GRENADE[hit.distance] for hit in hits)
