"""The group rules' geometry on squares of an inch (rulebook 003: General, Terrain, Moving,
Retreating; our rulings in skirmbot/rules/companies/geometry.py)."""

from __future__ import annotations

import json
from pathlib import Path

from skirmbot.rules.board import parse_board
from skirmbot.rules.companies import geometry as g
from skirmbot.rules.companies.geometry import Terrain
from skirmbot.rules.maps import map_from_json, scaled
from skirmbot.rules.squares import Square

MAPS = Path(__file__).parent.parent / "skirmbot" / "content" / "maps"


def sq(text: str) -> Square:
    return Square.parse(text)


def sqs(text: str) -> list[Square]:
    return [Square.parse(name) for name in text.split()]


def terrain(
    size: int = 12, cells: dict[str, str] | None = None, edges: list[str] | None = None
) -> Terrain:
    """An open table of `size` x `size` squares with some cells and edges drawn on it."""
    grid = [["."] * size for _ in range(size)]
    for name, cell in (cells or {}).items():
        square = sq(name)
        grid[square.y][square.x] = cell
    return Terrain(parse_board([" ".join(row) for row in grid], edges or []))


# --- General: "Distance and Range are measured between the closest models in each Group" ------


def test_distance_counts_a_diagonal_step_as_one_inch() -> None:
    """General: distance between models; our ruling: one square is 1", counted as the kernel
    counts squares."""
    assert g.distance(sq("A1"), sq("D4")) == 3
    assert g.distance(sq("A1"), sq("A2")) == 1


def test_group_distance_is_between_the_closest_models_and_exact_at_3_inches() -> None:
    """General: "measured between the closest models in each Group": closest models 3 apart
    diagonally are within 3"; 4 apart are not."""
    mine = sqs("A1 B1 C1")
    three = sqs("F4 J9")  # C1 to F4: 3 diagonally
    four = sqs("G5 J9")  # C1 to G5: 4
    assert g.group_distance(mine, three) == 3
    assert g.group_distance(mine, three) <= g.COHESION
    assert g.group_distance(mine, four) == 4
    assert not g.group_distance(mine, four) <= g.COHESION


def test_closest_pair_names_the_closest_models_first_in_order_on_ties() -> None:
    """General: "between the closest models"; our ruling: ties go to the first in each Group."""
    assert g.closest_pair(sqs("A1 H1"), sqs("E1 D5")) == (sq("H1"), sq("E1"))
    assert g.closest_pair(sqs("C3 E3"), sqs("D6 F6")) == (sq("C3"), sq("D6"))


def test_in_contact_is_neighbouring_squares() -> None:
    """Attacking: "base contact"; our ruling: models on neighbouring squares (diagonal too)."""
    assert g.in_contact(terrain(), sqs("A1 B1"), sqs("C2 H8"))
    assert not g.in_contact(terrain(), sqs("A1 B1"), sqs("D1"))


def test_no_base_contact_across_impassable_terrain() -> None:
    """Terrain, Impassable: "Models cannot move through Impassable terrain"; our ruling (as a
    charge holds): models either side of a high wall or a closed door are not in base contact,
    nor diagonally round its end; across a low wall (an obstacle) they are."""
    high = terrain(edges=["F5|G5, F6|G6: wall=2", "F7|G7: door=closed"])
    assert not g.in_contact(high, sqs("F6"), sqs("G6"))
    assert not g.in_contact(high, sqs("F7"), sqs("G7"))
    assert not g.in_contact(high, sqs("F5"), sqs("G6"))
    assert g.in_contact(high, sqs("F9"), sqs("G8"))  # clear of the door's end
    low = terrain(edges=["F6|G6: wall=1"])
    assert g.in_contact(low, sqs("F6"), sqs("G6"))


def test_cohesion_within_3_inches_of_another_model() -> None:
    """Moving, Cohesion: "all models in a Group must be within 3" of at least one other model"."""
    assert g.cohesive(sqs("A1 D4 G1"))
    assert not g.cohesive(sqs("A1 D4 H1"))
    assert g.cohesive(sqs("K8"))


def test_clear_of_enemies_at_least_3_inches() -> None:
    """Moving, Cohesion: "must be at least 3" from enemy Groups": 3 is enough, 2 is not."""
    assert g.clear_of(sqs("A1 B1"), sqs("E4"))
    assert not g.clear_of(sqs("A1 B1"), sqs("D3"))


# --- Terrain -------------------------------------------------------------------------------


def test_terrain_kinds_from_the_board() -> None:
    """Terrain (our ruling): `~` Difficult and Obscuring, `#` Impassable and Obscuring, a wall
    of 1 an Obstacle, walls of 2 and closed doors Impassable and Obscuring."""
    t = terrain(
        cells={"B2": "~", "C2": "#"},
        edges=["E5|E6: wall=1", "F5|F6: wall=2", "G5|G6: door=closed", "H5|H6: door=open"],
    )
    assert t.difficult(sq("B2")) and t.obscuring(sq("B2")) and not t.impassable(sq("B2"))
    assert t.impassable(sq("C2")) and t.obscuring(sq("C2"))
    assert t.low_wall(sq("E5"), sq("E6")) and not t.edge_impassable(sq("E5"), sq("E6"))
    assert t.edge_impassable(sq("F5"), sq("F6")) and t.edge_obscuring(sq("F5"), sq("F6"))
    assert t.edge_impassable(sq("G5"), sq("G6")) and t.edge_obscuring(sq("G5"), sq("G6"))
    assert not t.edge_impassable(sq("H5"), sq("H6")) and not t.low_wall(sq("H5"), sq("H6"))


def test_a_drop_of_two_levels_without_stairs_is_impassable() -> None:
    """Terrain (our ruling): levels are ground to walk over, but a step of more than 1 level
    without stairs is Impassable ("Models cannot move through Impassable terrain")."""
    t = terrain(cells={"B1": "1", "C1": "2", "D1": "2"})
    assert not t.edge_impassable(sq("A1"), sq("B1"))
    assert t.edge_impassable(sq("D1"), sq("E1"))
    stairs = terrain(cells={"B1": "1", "C1": "2"}, edges=["B1|C1: stairs"])
    assert not stairs.edge_impassable(sq("B1"), sq("C1"))


def test_obstacle_contact_is_a_low_wall_on_a_side_of_the_square() -> None:
    """Terrain, Obstacle: "comes into base contact with an obstacle"; our ruling: a low wall on
    one of the square's four sides."""
    t = terrain(edges=["E5|E6: wall=1"])
    assert t.obstacle_contact(sq("E5")) and t.obstacle_contact(sq("E6"))
    assert not t.obstacle_contact(sq("F5")) and not t.obstacle_contact(sq("E4"))


def test_cover_within_3_inches_of_an_obstacle_for_half_the_group() -> None:
    """Terrain, Obstacle: "If a model is within 3" of an obstacle, they count as being in
    Cover"; our ruling: a Group is in Cover when at least half its models are."""
    t = terrain(edges=["E5|E6: wall=1"])
    assert t.near_obstacle(sq("H8"))  # 3" from E6, which touches the wall
    assert not t.near_obstacle(sq("I9"))  # 4 from E6
    assert t.in_cover(sqs("H8 I9"))
    assert not t.in_cover(sqs("H8 I9 J9"))


# --- Moving: reach ---------------------------------------------------------------------------


def test_reach_open_ground_counts_inches_as_squares() -> None:
    """Moving: a model moves up to its MO; our ruling: one square is 1", a diagonal too."""
    found = g.reach(terrain(), sq("F6"), 3, set())
    assert sq("I9") in found and sq("C3") in found
    assert sq("J6") not in found
    assert found[sq("I9")] == (sq("F6"), sq("G7"), sq("H8"), sq("I9"))


def test_reach_difficult_costs_two_inches() -> None:
    """Terrain, Difficult: "Each inch of movement through difficult terrain costs 2" of a
    model's MO"."""
    t = terrain(cells={"B1": "~", "C1": "~"}, size=6)
    t_row = terrain(cells={f"{c}{r}": "~" for c in "BCDEF" for r in "123456"}, size=6)
    assert sq("C1") not in g.reach(t_row, sq("A1"), 3, set())  # 2 + 2
    assert sq("C1") in g.reach(t_row, sq("A1"), 4, set())
    assert sq("B1") in g.reach(t, sq("A1"), 2, set())
    assert sq("B1") not in g.reach(t, sq("A1"), 1, set())


def test_reach_never_through_impassable_or_other_models() -> None:
    """Terrain, Impassable: "Models cannot move through Impassable terrain"; Moving: "Models may
    not move through other models"."""
    t = terrain(cells={"B1": "#", "B2": "#", "B3": "#"}, size=6)
    found = g.reach(t, sq("A1"), 2, set())
    assert sq("C1") not in found and sq("B1") not in found
    wall = terrain(size=6, edges=["A1|B1, A2|B2, A3|B3: wall=2"])
    assert sq("B1") not in g.reach(wall, sq("A1"), 2, set())
    models = g.reach(terrain(size=6), sq("A1"), 2, set(sqs("B1 B2 A2")))
    assert set(models) == {sq("A1")}


def test_reach_no_squeezing_diagonally_past_a_wall_end() -> None:
    """Our ruling: a diagonal step may not pass a corner where either route round it is cut by
    Impassable terrain."""
    t = terrain(size=6, edges=["B2|C2: wall=2"])
    found = g.reach(t, sq("B2"), 1, set())
    assert sq("C3") not in found and sq("C1") not in found and sq("A3") in found


def test_reach_stops_on_contact_with_an_obstacle() -> None:
    """Terrain, Obstacle: "If a model comes into base contact with an obstacle, it stops its
    Move for this activation"."""
    t = terrain(size=8, edges=[", ".join(f"{c}1|{c}2" for c in "ABCDEFGH") + ": wall=1"])
    found = g.reach(t, sq("A4"), 4, set())
    assert sq("B2") in found  # it comes into contact ...
    assert not any(sq(f"{c}1") in found for c in "ABCDEFGH")  # ... never crosses ...
    assert all(not t.obstacle_contact(s) for path in found.values() for s in path[1:-1])
    assert found[sq("E2")] == (sq("A4"), sq("B3"), sq("C3"), sq("D3"), sq("E2"))  # ... stops


def test_reach_from_contact_ignores_the_obstacle() -> None:
    """Terrain, Obstacle: "If a model begins its Move in contact with an obstacle, it ignores the
    obstacle for the purposes of movement this activation"."""
    t = terrain(size=8, edges=["C1|C2, D1|D2, E1|E2: wall=1", "C4|C5: wall=1"])
    assert t.obstacle_contact(sq("D2"))
    found = g.reach(t, sq("D2"), 4, set(), ignore_obstacles=True)
    assert sq("D1") in found
    assert sq("C6") in found  # over the second wall too, without stopping at it


def test_a_diagonal_past_a_low_walls_end_is_not_crossing_but_along_it_is() -> None:
    """Terrain, Obstacle; our ruling: a diagonal step crosses an obstacle only when both routes
    round the corner cross a low wall."""
    end = terrain(size=6, edges=["B1|B2, C1|C2: wall=1"])
    assert end.step(sq("A1"), sq("B2"), False) == 1  # round the wall's west end
    assert end.step(sq("B1"), sq("C2"), False) is None  # over the wall
    assert end.step(sq("B1"), sq("C2"), True) == 1
    corner = terrain(size=6, edges=["B1|B2, B2|C2: wall=1"])
    assert corner.step(sq("C1"), sq("B2"), False) is None  # into the corner: both routes cross


# --- Scale: the map enlarged 2x ---------------------------------------------------------------


def test_scaled_map_enlarges_ground_edges_objectives_and_items() -> None:
    """Our ruling (Scale): each map square is 2x2 squares of an inch; walls, doors and stairs
    run along the whole enlarged edge; objectives and items stand on their top-left square."""
    foundry = map_from_json(json.loads((MAPS / "foundry.json").read_text()))
    big = scaled(foundry, 2)
    board, small = big.board, foundry.board
    assert (board.width, board.height) == (24, 24)
    for square in small.squares():
        for dx in (0, 1):
            for dy in (0, 1):
                there = Square(square.x * 2 + dx, square.y * 2 + dy)
                assert board.is_open(there) == small.is_open(square)
                assert (there in board.difficult) == (square in small.difficult)
                if small.is_open(square):
                    assert board.level(there) == small.level(square)
    # E4|E5 wall=2 becomes I8|I9 and J8|J9; F4|F5 door=closed becomes K8|K9 and L8|L9.
    assert board.wall_height(sq("I8"), sq("I9")) == 2 and board.wall_height(sq("J8"), sq("J9")) == 2
    assert board.wall_height(sq("H8"), sq("H9")) == 0 and board.wall_height(sq("I7"), sq("I8")) == 0
    assert board.door_closed(sq("K8"), sq("K9")) and board.door_closed(sq("L8"), sq("L9"))
    # D5|E5 wall=2 (a column boundary) becomes H9|I9 and H10|I10.
    assert (
        board.wall_height(sq("H9"), sq("I9")) == 2 and board.wall_height(sq("H10"), sq("I10")) == 2
    )
    assert board.feature(sq("V5"), sq("W5")).stairs  # K3|L3 stairs
    assert big.objectives[0] == sq("E11")  # C6
    assert big.items[0].square == sq("O9")  # H5
    assert map_from_json(big.source).board.width == 24  # the record rebuilds the same table


def test_table_of_is_the_map_at_two_squares_an_inch_without_items() -> None:
    """Our ruling (Scale): the table is the map at 2x2 squares per map square; the group rules
    use no items."""
    foundry = map_from_json(json.loads((MAPS / "foundry.json").read_text()))
    table = g.table_of(foundry)
    assert (table.board.width, table.board.height) == (24, 24)
    assert table.items == () and table.source["items"] == []
    assert len(table.objectives) == len(foundry.objectives)
    assert map_from_json(table.source).items == ()


# --- Sight: "Groups cannot see past Obscuring terrain, or more than 3" into it" ---------------


def test_sight_in_the_open_and_models_do_not_block() -> None:
    """Shooting: "a Group within range that they can see"; our ruling: models do not block
    sight (nothing in the line is a model's concern)."""
    assert g.sees(terrain(), sq("A1"), sq("L7"))


def test_sight_blocked_by_high_walls_closed_doors_and_impassable_squares() -> None:
    """Terrain: Impassable and Obscuring (our ruling: walls of 2+, closed doors, `#`); a low
    wall (an Obstacle) and an open door do not block sight."""
    assert not g.sees(terrain(edges=["C1|D1: wall=2"]), sq("A1"), sq("F1"))
    assert not g.sees(terrain(edges=["C1|D1: door=closed"]), sq("A1"), sq("F1"))
    assert not g.sees(terrain(cells={"C1": "#"}), sq("A1"), sq("F1"))
    assert g.sees(terrain(edges=["C1|D1: wall=1"]), sq("A1"), sq("F1"))
    assert g.sees(terrain(edges=["C1|D1: door=open"]), sq("A1"), sq("F1"))


def test_sight_blocked_by_an_impassable_drop_of_two_levels() -> None:
    """Terrain: "Models cannot move through Impassable terrain"; our ruling: sight stops at
    Impassable edges too, so a drop of 2 levels without stairs (a building's side) hides what
    lies beyond it; one level, or stairs, does not."""
    assert not g.sees(terrain(cells={"D1": "2", "E1": "2"}), sq("A1"), sq("E1"))
    assert g.sees(terrain(cells={"D1": "1", "E1": "1"}), sq("A1"), sq("E1"))
    stairs = terrain(cells={"C1": "1", "D1": "2"}, edges=["C1|D1: stairs"])
    assert g.sees(stairs, sq("A1"), sq("D1"))


def test_sight_past_a_wall_end_through_the_corner_point() -> None:
    """Our ruling (Sight): a line exactly through a corner point is blocked only when both
    routes round it are."""
    one_side = terrain(edges=["B1|C1: wall=2"])
    assert g.sees(one_side, sq("B1"), sq("D3"))  # B1-C2 grazes the wall's lower end
    both = terrain(edges=["B1|C1, B1|B2: wall=2"])
    assert not g.sees(both, sq("B1"), sq("D3"))


def test_sight_not_past_obscuring_terrain() -> None:
    """Terrain, Obscuring: "Groups cannot see past Obscuring terrain"."""
    woods = terrain(cells={"D1": "~", "E1": "~"})
    assert not g.sees(woods, sq("A1"), sq("H1"))
    assert not g.sees(woods, sq("H1"), sq("A1"))


def test_sight_at_most_3_inches_into_obscuring_terrain() -> None:
    """Terrain, Obscuring: "or more than 3" into it": a model 3 squares into woods is seen, 4 is
    not."""
    woods = terrain(cells={f"{c}1": "~" for c in "DEFGHI"})
    assert g.sees(woods, sq("A1"), sq("F1"))
    assert not g.sees(woods, sq("A1"), sq("G1"))


def test_sight_out_of_the_viewers_own_patch_counts_beyond_its_square() -> None:
    """Terrain, Obscuring; our ruling: a viewer in Obscuring terrain looks out through its own
    patch, its own square not counted, 3" at most."""
    woods = terrain(cells={f"{c}1": "~" for c in "DEFG"})
    assert g.sees(woods, sq("E1"), sq("K1"))  # F1 G1: 2"
    deep = terrain(cells={f"{c}1": "~" for c in "DEFGHI"})
    assert not g.sees(deep, sq("E1"), sq("K1"))  # F1 to I1: 4"
    assert g.sees(deep, sq("E1"), sq("H1"))  # within the same woods: 3"


def test_a_group_sees_another_when_any_model_sees_any_model() -> None:
    """Shooting: "a Group ... that they can see"; our ruling: some model sees some model."""
    t = terrain(edges=["C1|D1, C2|D2: wall=2"])
    assert not g.can_see(t, sqs("A1 A2"), sqs("F1"))
    assert g.can_see(t, sqs("A1 A2 A3"), sqs("F1 F4"))


# --- Moving a Group keeping its shape -------------------------------------------------------


def test_formation_moves_keep_the_shape_within_the_move() -> None:
    """Moving: "Move each model individually" (our ruling: `square` alone moves the Group keeping
    its shape); every model within its MO."""
    models = sqs("F6 G6 F7")
    moves = g.formation_moves(terrain(), models, 2, set(), [])
    assert moves[sq("H8")] == tuple(sqs("H8 I8 H9")) and len(moves) == 25
    assert sq("I6") not in moves


def test_formation_moves_step_through_their_own_models_not_others() -> None:
    """Moving: "Models may not move through other models"; our ruling: a Group's own models step
    aside for each other."""
    models = sqs("B2 C2")
    walled = terrain(size=8, edges=["B1|B2, B3|B2, C1|C2, C3|C2, D1|D2, D3|D2: wall=2"])
    assert g.formation_moves(walled, models, 1, set(), [])[sq("C2")] == tuple(sqs("C2 D2"))
    assert sq("C2") not in g.formation_moves(walled, models, 1, {sq("D2")}, [])


def test_formation_moves_end_clear_of_enemies() -> None:
    """Moving, Cohesion: "must be at least 3" from enemy Groups"."""
    moves = g.formation_moves(terrain(), sqs("A1 B1"), 4, set(), sqs("H1"))
    assert sq("D1") in moves  # E1 is 3 from H1
    assert sq("E1") not in moves


def test_formation_moves_stop_at_obstacles_unless_starting_in_contact() -> None:
    """Terrain, Obstacle: it "stops its Move" on contact; "If a model begins its Move in contact
    with an obstacle, it ignores the obstacle"."""
    t = terrain(size=8, edges=[", ".join(f"{c}3|{c}4" for c in "ABCDEFGH") + ": wall=1"])
    far = g.formation_moves(t, sqs("B6 C6"), 4, set(), [])
    assert sq("B4") in far and sq("B3") not in far and sq("B2") not in far
    near = g.formation_moves(t, sqs("B4 C4"), 4, set(), [])
    assert sq("B2") in near


def test_formation_moves_on_open_ground_are_every_shift_within_the_move() -> None:
    """Moving: a Group moves up to its MO; on open ground every shift of at most MO squares each
    way is a move (a 4-model Group with MO 7: 15 x 15)."""
    moves = g.formation_moves(terrain(size=24), sqs("L12 M12 L13 M13"), 7, set(), sqs("A24"))
    assert len(moves) == 15 * 15
    assert moves[sq("S5")] == tuple(sqs("S5 T5 S6 T6"))


def test_check_placed_move_says_what_is_wrong() -> None:
    """Moving: "Move each model individually"; Cohesion; "Models may not move through other
    models"; Impassable."""
    t = terrain(cells={"H1": "#"})
    models = sqs("A1 B1")
    assert g.check_placed_move(t, models, sqs("C1 D1"), 3, set(), []) is None
    assert g.check_placed_move(t, models, sqs("C1"), 3, set(), []) == (
        "Give 2 squares, one for each model of the Group in order."
    )
    assert g.check_placed_move(t, models, sqs("F1 D1"), 3, set(), []) == (
        'Model 1 cannot reach F1: it is 5" away, its Move is 3".'
    )
    assert "Impassable" in (g.check_placed_move(t, sqs("G2 B1"), sqs("H1 B2"), 3, set(), []) or "")
    assert "another model" in (
        g.check_placed_move(t, models, sqs("C1 D1"), 3, {sq("D1")}, []) or ""
    )
    assert "both end on" in (g.check_placed_move(t, models, sqs("C1 C1"), 3, set(), []) or "")
    assert g.check_placed_move(t, sqs("A1 B1 C1"), sqs("A2 B2 F1"), 3, set(), []) == (
        'Model 3 on F1 would be more than 3" from every other model of its Group: a Group ends '
        "its Move in Cohesion."
    )
    assert "enemy" in (g.check_placed_move(t, models, sqs("C1 D1"), 3, set(), sqs("F1")) or "")


# --- Charge: "Move as many models as possible into base contact" ---------------------------------


def test_charge_brings_as_many_models_as_possible_into_contact() -> None:
    """Attacking 1: "Move as many models as possible into base contact with the defending
    Group"."""
    t = terrain()
    after = g.charge(t, sqs("A5 A6 A7 A8"), 6, sqs("G6 G7"), set())
    assert after is not None
    assert after == tuple(sqs("F5 F6 F7 F8"))  # every model in contact, straight across


def test_charge_out_of_reach_is_none_and_never_shares_a_square() -> None:
    """Attacking: "a target within their movement distance"; Moving: "Models may not move
    through other models"."""
    t = terrain()
    assert g.charge(t, sqs("A5 A6"), 3, sqs("G6"), set()) is None
    # Only one free square (F6) touches G6; the other model closes in, in Cohesion.
    blocked = set(sqs("F5 F7 G5 G7 H5 H6 H7"))
    after = g.charge(t, sqs("A6 A7"), 6, sqs("G6"), blocked)
    assert after == (sq("F6"), sq("E7"))  # E7: 2" from G6, the closest a free square gets
    assert not set(after) & blocked


def test_charge_gives_way_so_more_models_reach_contact() -> None:
    """Attacking 1: "as many models as possible": the first model takes the contact square the
    second cannot do without only if it has no other (not first come, first served)."""
    blocked = set(sqs("F5 F7 G5 G7 H5 H7"))  # G6's free sides: F6 and H6
    after = g.charge(terrain(), sqs("G9 C6"), 3, sqs("G6"), blocked)
    assert after == (sq("H6"), sq("F6"))


def test_charge_not_across_a_high_wall() -> None:
    """Our ruling: base contact is not across Impassable terrain (a wall of 2)."""
    t = terrain(edges=["F5|G5, F6|G6, F7|G7: wall=2"])
    assert g.charge(t, sqs("A6"), 5, sqs("G6"), set()) is None


# --- Retreat: "half their MO distance directly away from the cause of Retreat" ---------------


def test_retreat_directly_away_from_the_cause() -> None:
    """Retreating: "The Group moves half their MO distance directly away from the cause"."""
    move = g.retreat(terrain(), sqs("F6 G6"), sqs("I6"), 3, set(), sqs("I6"))
    assert move.models == (sq("C6"), sq("D6")) and not move.blocked and not move.off_table
    assert move.paths[1] == tuple(sqs("G6 F6 E6 D6"))
    diagonal = g.retreat(terrain(), sqs("F6"), sqs("H8"), 2, set(), sqs("H8"))
    assert diagonal.models == (sq("D4"),)


def test_retreat_blocked_by_a_low_wall() -> None:
    """Retreating: "If blocked by terrain or enemy Groups ... stop moving" (our ruling: a low
    wall across its way blocks a Retreat, which has no Move's obstacle rules to climb it)."""
    low = terrain(edges=["D6|D7, E6|E7, F6|F7, G6|G7: wall=1"])
    move = g.retreat(low, sqs("F5 G5"), sqs("F2"), 3, set(), sqs("F2"))
    assert move.models == (sq("F6"), sq("G6")) and move.blocked


def test_retreat_blocked_by_terrain_stops_the_whole_group() -> None:
    """Retreating: "If blocked by terrain or enemy Groups ... stop moving"; our ruling: the whole
    Group stops where it is."""
    t = terrain(cells={"D5": "#"})
    move = g.retreat(t, sqs("F5 F6"), sqs("I6"), 3, set(), sqs("I6"))
    assert move.blocked and move.models == (sq("E5"), sq("E6"))
    low = g.retreat(terrain(edges=["E6|F6: wall=1"]), sqs("F6"), sqs("I6"), 3, set(), [])
    assert low.blocked and low.models == (sq("F6"),)


def test_retreat_may_not_pass_within_3_inches_of_enemies() -> None:
    """Retreating: "They may not pass within 3" of any enemy Groups"; our ruling: a step ending
    within 3" of an enemy model and nearer to it than before is blocked; stepping away from the
    enemy in contact is not."""
    move = g.retreat(terrain(), sqs("F6"), sqs("G6"), 3, set(), sqs("G6 B6"))
    assert move.blocked and move.models == (sq("E6"),)  # D6 would be 2" from B6
    free = g.retreat(terrain(), sqs("F6"), sqs("G6"), 3, set(), sqs("G6"))
    assert not free.blocked and free.models == (sq("C6"),)


def test_retreat_blocked_by_another_groups_model() -> None:
    """Retreating: "If blocked by ... enemy Groups"; Moving: "Models may not move through other
    models"."""
    move = g.retreat(terrain(), sqs("F6"), sqs("I6"), 3, {sq("D6")}, sqs("I6"))
    assert move.blocked and move.models == (sq("E6"),)


def test_retreat_difficult_costs_two_inches() -> None:
    """Terrain, Difficult: "Each inch of movement through difficult terrain costs 2""."""
    move = g.retreat(terrain(cells={"E6": "~"}), sqs("F6"), sqs("I6"), 3, set(), [])
    assert move.models == (sq("D6"),) and not move.blocked


def test_retreat_off_the_table() -> None:
    """Retreating: "If any member of the Retreating Group Retreats off of the table, the entire
    Group counts as having Routed"."""
    move = g.retreat(terrain(), sqs("B6 C6"), sqs("F6"), 3, set(), [])
    assert move.off_table


def test_retreat_with_no_enemy_left_goes_toward_home() -> None:
    """Our ruling: with no cause left, a Group retreats toward its own side's table edge."""
    assert g.retreat(terrain(), sqs("F6"), [], 3, set(), [], home_edge=0).models == (sq("F3"),)
    assert g.retreat(terrain(), sqs("F6"), [], 3, set(), [], home_edge=1).models == (sq("F9"),)


# --- Deployment -------------------------------------------------------------------------------


def test_deployment_zones_by_side_and_seat_bands() -> None:
    """Setup 6: "Deploy companies according to the scenario guidelines"; our ruling: side 0 along
    the top, side 1 along the bottom, 4" deep, a side's seats in bands west to east."""
    board = terrain(size=24, cells={"A1": "#"}).board
    one = g.deployment_zones(board, 2)
    assert len(one) == 2 and sq("X4") in one[0] and sq("A1") not in one[0]
    assert sq("A5") not in one[0] and sq("A21") in one[1] and sq("A20") not in one[1]
    two = g.deployment_zones(board, 4)
    assert sq("L1") in two[0] and sq("M1") in two[2] and sq("M24") in two[3]
    three = g.deployment_zones(board, 6)
    assert {len(zone) for zone in three[1::2]} == {32}
    assert sq("H24") in three[1] and sq("I24") in three[3] and sq("Q24") in three[5]


def test_formation_at_fills_the_nearest_free_squares_in_cohesion() -> None:
    """Moving, Cohesion: "within 3" of at least one other model"; our ruling: the nearest free
    squares of the zone by distance, then row, then column."""
    t = terrain()
    zone = g.deployment_zones(t.board, 2)[0]
    placed = g.formation_at(t, sq("C2"), 4, zone, {sq("B1")})
    assert placed == tuple(sqs("C2 C1 D1 B2"))
    assert g.formation_at(t, sq("C2"), 4, zone, {sq("C2")}) is None
    tiny = set(sqs("A1 B1"))
    assert g.formation_at(t, sq("A1"), 3, tiny, set()) is None


def test_formation_paths_follow_each_models_own_way() -> None:
    """Moving: "Move each model individually": each model's path, round what blocks it (our
    ruling: not diagonally past the corner of an Impassable square)."""
    t = terrain(cells={"C1": "#"})
    paths = g.formation_paths(t, sqs("A1 A2"), sqs("D1 D2"), 4, set())
    assert paths == (tuple(sqs("A1 B2 C2 D2 D1")), tuple(sqs("A2 B2 C2 D2")))
    assert sq("D1") not in g.formation_moves(t, sqs("A1 A2"), 3, set(), [])


def test_every_shipped_map_makes_a_table() -> None:
    """Our ruling (Scale): every shipped map doubles into a table the group rules can play on."""
    for path in sorted(MAPS.glob("*.json")):
        table = g.table_of(map_from_json(json.loads(path.read_text())))
        assert table.board.width == 24 and table.board.height == 24
        assert all(table.board.is_open(square) for square in table.objectives)
