"""Firing arcs in play (rulebook 002: Firing Arcs, Resolving Fire; plan section 3).

The board is the shipped Crossroads map; the Riflemen (seat 0) set arcs in their turn, the Laser
Team walks into them in the next. A 30-degree arc from G2 toward G10 holds, on row 6, only G6:
a walk along row 6 enters it at G6 and leaves it at F6.
"""

from __future__ import annotations

import pytest

from skirmbot.rules.commands import Activate, EndActivation
from skirmbot.rules.dots import Dot, bearing, in_arc
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.infantry import arcs, combat
from skirmbot.rules.infantry.commands import (
    Arc,
    ChangeWeapon,
    Climb,
    FireAt,
    Move,
    Prone,
    Stand,
    StandingOrders,
)
from skirmbot.rules.infantry.engine import InfantryMatch
from skirmbot.rules.infantry.export import state_json
from skirmbot.rules.infantry.sight import sight
from tests.infantry_helpers import dice_left, fresh, kinds, of_kind, pass_turn, play, put

G6 = Dot.parse("G6")
MISS = [1, 1]  # 2 on 2D6 misses every shot


def watching(
    faces: list[int], *arcs_: tuple[str, str, int, str, str], prompt: bool = False
) -> InfantryMatch:
    """Seat 0's troopers set these arcs (trooper, vertex, width, toward, order), in order; then
    it is the Laser Team's turn. `faces`: every die after the roll-off."""
    match = fresh(faces)
    for unit, vertex, width, toward, order in arcs_:
        put(match, unit, vertex)
        n = 1 if order == "first" else 0
        play(match, Arc(0, unit, width, toward, order, n), EndActivation(0))
    if prompt:
        play(match, StandingOrders(0, True))
    pass_turn(match)
    assert match.state.to_act == 1
    return match


OKAFOR_30 = ("Okafor", "G2", 30, "G10", "every")


@pytest.mark.parametrize(("width", "ap"), [(30, 2), (60, 4), (150, 6)])
def test_arc_ap_2_4_6(width: int, ap: int) -> None:
    """Firing Arcs ¶1: "a 30 degree, 60 degree, or 150 degree firing arc by paying the
    corresponding AP" (the table: 2, 4, 6); any other width is refused, nothing spent."""
    match = fresh()
    play(match, Arc(0, "Okafor", width, "G10"))
    okafor = match.state.trooper("Okafor")
    assert okafor.spent == ap and match.state.arcs[0].width == width
    with pytest.raises(IllegalCommand, match="30, 60 or 150"):
        match.apply(Arc(0, "Okafor", 90, "G10"))
    assert okafor.spent == ap


def test_the_arc_table() -> None:
    """Firing Arc AP Costs table: 30° 1 shot 2 AP; 60° 2 shots 4 AP; 150° 4 shots 6 AP."""
    assert arcs.ARC_AP == {30: 2, 60: 4, 150: 6}
    assert combat.ARC_BASE_SHOTS == {30: 1, 60: 2, 150: 4}


@pytest.mark.parametrize("toward", ["G10", "A2", "N1", "K7", "B12", "G1"])
def test_an_arc_points_any_way_and_holds_the_dots_dots_in_arc_gives(toward: str) -> None:
    """Firing Arcs ¶1: "The vertex of the firing arc is the dot the trooper is standing on and
    can be oriented in any direction": its facing is the bearing to the dot named, and it holds
    exactly the dots `dots.in_arc` gives (never the vertex)."""
    match = fresh()
    put(match, "Okafor", "G2")
    play(match, Arc(0, "Okafor", 60, toward))
    arc = match.state.arcs[0]
    vertex = Dot.parse("G2")
    assert arc.vertex == vertex and arc.facing == bearing(vertex, Dot.parse(toward))
    board = match.state.board
    for dot in board.dots():
        assert arcs.covers(arc, dot) == in_arc(vertex, arc.facing, 60, dot)
    assert not arcs.covers(arc, vertex) and arcs.covers(arc, Dot.parse(toward))


def test_a_60_degree_arc_gives_a_pistol_4_shots_and_an_smg_6() -> None:
    """Firing Arcs ¶1: "a 60 degree firing arc has a base of 2 shots. ... pistol ... 4 times
    ... SMG ... 6 times"."""
    match = fresh()
    play(match, ChangeWeapon(0, "Hale", "Pistol"), Arc(0, "Hale", 60, "G10"))
    assert match.state.arcs[0].weapon == "Pistol" and match.state.arcs[0].shots_left == 4
    match = fresh(squads=("assault-section", "laser-team"))
    play(match, Arc(0, "Kade", 60, "G10"))
    assert match.state.arcs[0].weapon == "SMG" and match.state.arcs[0].shots_left == 6


def test_a_trooper_is_shot_at_the_dot_it_enters_before_its_next_step() -> None:
    """Firing Arcs ¶2: "When an enemy trooper ... moves into the firing arc, the firing trooper
    may fire"; Resolving Fire ¶1: "resolved before the targeted trooper continues"."""
    match = watching(MISS, OKAFOR_30)
    put(match, "Sorensen", "J6")
    events = match.apply(Move(1, "Sorensen", path="I6 H6 G6 F6 E6"))
    assert kinds(events) == ["activation_started", "moved", "attack", "arc_removed", "moved"]
    first, shot, rest = events[1].data, events[2].data, events[4].data
    assert first["path"] == ["J6", "I6", "H6", "G6"]
    assert (shot["attacker"], shot["to"], shot["hit"]) == ("Okafor", "G6", False)
    assert rest["path"] == ["G6", "F6", "E6"]
    assert str(match.state.trooper("Sorensen").dot) == "E6" and dice_left(match) == 0


def test_a_trooper_activating_in_an_arc_is_shot_before_it_moves() -> None:
    """Firing Arcs ¶2: "When an enemy trooper activates in ... the firing arc, the firing
    trooper may fire"; the shot comes before its first step."""
    match = watching(MISS, OKAFOR_30)
    put(match, "Sorensen", "G6")
    events = match.apply(Move(1, "Sorensen", path="F6 E6"))
    assert kinds(events) == ["activation_started", "attack", "arc_removed", "moved"]
    assert events[1].data["to"] == "G6" and events[3].data["path"] == ["G6", "F6", "E6"]


def test_an_arc_never_fires_in_its_own_sides_turn() -> None:
    """Resolving Fire ¶1: "Players resolve fire during the enemy movement, which occurs during
    your opponent's turn"."""
    match = fresh()
    put(match, "Okafor", "G2")
    play(match, Arc(0, "Okafor", 30, "G10"))
    sorensen = put(match, "Sorensen", "G6")
    assert arcs.chances_at(match.state, sorensen) == []
    pass_turn(match)
    assert [a.owner for a in arcs.chances_at(match.state, sorensen)] == ["Okafor"]


def test_no_chance_without_sight() -> None:
    """Resolving Fire ¶2: "may choose to fire as long as ... valid line of sight": the tree on
    B4 hides B8 from B2, though B8 lies in the arc."""
    match = watching([], ("Hale", "B2", 30, "B9", "every"))
    sorensen = put(match, "Sorensen", "B8")
    arc = match.state.arcs[0]
    assert (
        arcs.covers(arc, sorensen.dot)
        and not sight(
            match.state.board, arcs.body(match.state.trooper("Hale")), arcs.body(sorensen)
        ).clear
    )
    events = match.apply(Activate(1, "Sorensen"))
    assert "attack" not in kinds(events) and match.state.arcs[0].shots_left == 1


@pytest.mark.parametrize("order", [("Okafor", "Hale"), ("Hale", "Okafor")])
def test_two_arcs_each_get_a_chance_oldest_first(order: tuple[str, str]) -> None:
    """Resolving Fire ¶2: "in multiple firing arcs ... may all choose to fire, in any order";
    our ruling: in the order the arcs were established, so replays agree."""
    where = {"Okafor": OKAFOR_30, "Hale": ("Hale", "A6", 30, "G6", "every")}
    match = watching(MISS * 2, *(where[name] for name in order))
    put(match, "Sorensen", "G6")
    events = match.apply(Activate(1, "Sorensen"))
    assert [shot["attacker"] for shot in of_kind(events, "attack")] == list(order)


def test_standing_up_gives_a_chance_only_to_arcs_that_have_not_fired_here() -> None:
    """Resolving Fire ¶2: "stands from prone ... may be shot by any firing trooper that did not
    previously attack them on the current dot"."""
    okafor_150 = ("Okafor", "G2", 150, "G10", "every")  # 4 shots: one left after the first
    match = watching(MISS * 2, okafor_150, ("Hale", "A6", 30, "G6", "every"), prompt=True)
    put(match, "Sorensen", "G6", prone=True)
    match.apply(Activate(1, "Sorensen"))
    assert match.state.moving is not None and match.state.moving.chances == ("Okafor", "Hale")
    play(match, FireAt(0, "Okafor", True), FireAt(0, "Hale", False))
    assert match.state.moving is None
    match.apply(Stand(1, "Sorensen"))
    assert match.state.moving is not None and match.state.moving.chances == ("Hale",)
    events = match.apply(FireAt(0, "Hale", True))
    assert [shot["attacker"] for shot in of_kind(events, "attack")] == ["Hale"]
    assert dice_left(match) == 0


def test_holding_keeps_the_shots() -> None:
    """Resolving Fire ¶2/¶8: "may decide to not fire ... to preserve the firing arc": an arc
    ordered to hold never fires unasked, and a prompted owner's "hold" keeps the shot."""
    match = watching([], ("Okafor", "G2", 30, "G10", "hold"))
    put(match, "Sorensen", "J6")
    events = match.apply(Move(1, "Sorensen", path="I6 H6 G6 F6"))
    assert "attack" not in kinds(events) and match.state.arcs[0].shots_left == 1
    match = watching([], OKAFOR_30, prompt=True)
    put(match, "Sorensen", "J6")
    match.apply(Move(1, "Sorensen", path="I6 H6 G6 F6"))
    events = match.apply(FireAt(0, "Okafor", False))
    assert kinds(events) == ["held", "moved"] and match.state.arcs[0].shots_left == 1
    assert "(1 shot kept)" in events[0].text, events[0].text


def test_an_arc_of_one_shot_says_shot() -> None:
    """Firing Arcs ¶1: a 30 degree arc has a base of 1 shot; a rifle's one is "1 shot"."""
    match = fresh()
    events = match.apply(Arc(0, "Okafor", 30, "G10"))
    assert events[-1].text.endswith("with its Rifle: 1 shot, every (2 AP)."), events[-1].text


def test_the_last_shot_removes_the_arc() -> None:
    """Resolving Fire ¶10: "fired the maximum number of shots ... remove the firing arc once the
    firing is resolved"."""
    match = watching(MISS, OKAFOR_30)
    put(match, "Sorensen", "G6")
    events = match.apply(Activate(1, "Sorensen"))
    assert kinds(events)[-2:] == ["attack", "arc_removed"] and match.state.arcs == []


def test_first_n_fires_at_the_first_n_troopers_only_and_at_each_of_them_every_time() -> None:
    """Plan section 3: the order "first N" fires only at the first N enemy troopers to enter
    the arc, at every chance each of them gives (our ruling)."""
    match = watching(MISS * 2, ("Okafor", "G2", 150, "G10", "first"))
    put(match, "Sorensen", "G6")
    events = play(match, Move(1, "Sorensen", path="G7"), EndActivation(1))
    assert [shot["to"] for shot in of_kind(events, "attack")] == ["G6", "G7"]
    put(match, "Nkemelu", "H8")
    events = match.apply(Activate(1, "Nkemelu"))
    assert "attack" not in kinds(events) and match.state.arcs[0].fired_at == ("Sorensen",)


def test_short_fires_only_within_the_weapons_short_range() -> None:
    """Plan section 3: the order "short" fires only at short range (no +2): a Pistol's 7 dots."""
    match = fresh(MISS)
    put(match, "Hale", "G2")
    play(match, ChangeWeapon(0, "Hale", "Pistol"), Arc(0, "Hale", 30, "G10", "short"))
    pass_turn(match)
    put(match, "Sorensen", "G11")
    events = match.apply(Move(1, "Sorensen", path="G10 G9"))
    shots = of_kind(events, "attack")
    assert [(s["to"], s["distance"]) for s in shots] == [("G9", 7)]


def test_a_prompted_chance_waits_for_its_owners_answer_and_nothing_else() -> None:
    """Plan section 3: with `prompt` on, the move stops at the chance (State.moving) until the
    owner's FireAt; only that answer, from that seat, is taken meanwhile."""
    match = watching(MISS, OKAFOR_30, prompt=True)
    put(match, "Sorensen", "J6")
    match.apply(Move(1, "Sorensen", path="I6 H6 G6 F6"))
    assert str(match.state.trooper("Sorensen").dot) == "G6"
    before = state_json(match.state)
    for wrong in [
        Move(1, "Sorensen", "F6"),
        EndActivation(1),
        FireAt(1, "Okafor", True),
        FireAt(0, "Hale", True),
    ]:
        with pytest.raises(IllegalCommand):
            match.apply(wrong)
        assert state_json(match.state) == before
    events = match.apply(FireAt(0, "Okafor", True))
    assert kinds(events) == ["attack", "arc_removed", "moved"]


def test_climbing_is_a_new_position_and_gives_a_new_chance() -> None:
    """Resolving Fire ¶2: an arc attacks a trooper once "on the current dot"; our ruling (plan
    section 3): a level change is a new position, so the arcs get a new chance after Climb."""
    match = fresh(MISS * 2, mission="the-farmhouse", battle_map="farmhouse")
    put(match, "Okafor", "I9", level=1)
    play(match, Arc(0, "Okafor", 150, "I7"), EndActivation(0))
    pass_turn(match)
    put(match, "Sorensen", "I7")
    events = play(match, Activate(1, "Sorensen"), Climb(1, "Sorensen", 1))
    shots = of_kind(events, "attack")
    assert [s["to"] for s in shots] == ["I7", "I7"] and kinds(events).index("climbed") > 1
    assert match.state.trooper("Sorensen").level == 1


def test_an_arc_faces_a_bearing_in_degrees_too() -> None:
    """Firing Arcs ¶1: "can be oriented in any direction"; plan section 3: `toward` a dot or
    degrees (clockwise from north-east, as dots.bearing counts)."""
    match = fresh()
    play(match, Arc(0, "Okafor", 60, "150"))
    assert match.state.arcs[0].facing == 150.0
    refused = fresh()
    with pytest.raises(IllegalCommand, match="0 to 359"):
        refused.apply(Arc(0, "Okafor", 60, "400"))


def test_the_order_that_starts_an_activation_comes_after_the_chances_there() -> None:
    """Firing Arcs ¶2 ("activates in") and plan section 3: the chances come first; the order
    that started the activation is carried out after them, or dropped in words if the shot left
    the trooper unable to carry it out (here: a 150-degree arc's 6 AP after a hit to cell 5)."""
    match = watching([6, 6, 2, 3], ("Okafor", "G2", 150, "G10", "every"), prompt=True)
    put(match, "Sorensen", "G6")
    events = match.apply(Arc(1, "Sorensen", 150, "G2"))
    assert kinds(events) == ["activation_started"] and match.state.arcs[0].owner == "Okafor"
    events = match.apply(FireAt(0, "Okafor", True))
    assert kinds(events)[-1] == "order_dropped" and "6" in events[-1].text
    sorensen = match.state.trooper("Sorensen")
    assert sorensen.max_ap == 5 and sorensen.spent == 0 and match.state.activating == "Sorensen"
    match = watching(MISS, ("Okafor", "G2", 150, "G10", "every"), prompt=True)
    put(match, "Sorensen", "G6")
    match.apply(Prone(1, "Sorensen"))
    assert not match.state.trooper("Sorensen").prone
    events = match.apply(FireAt(0, "Okafor", True))
    assert kinds(events) == ["attack", "prone"] and match.state.trooper("Sorensen").prone
