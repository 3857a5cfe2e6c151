"""The hex picture (issue 31, docs/plans/infantry.md part 6): a board of dots drawn from a
hand-built MatchView, probed pixel by pixel at `dots.centre` (through `HexLayout`), so each
feature and mark is known to be where the rules put its dot."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from PIL import Image

from skirmbot.render import dotsymbols
from skirmbot.render.battlemap import MapRenderer, layout_of
from skirmbot.render.hexmap import ARC_REACH, HEX, ROOT3, HexLayout
from skirmbot.render.legend import legend_entries
from skirmbot.render.palette import colour, side_colour
from skirmbot.render.preview import TABLES, PreviewRenderer
from skirmbot.render.symbols import Point
from skirmbot.rules.dots import Direction, Dot, centre
from skirmbot.rules.events import Event
from skirmbot.rules.preview import DASH, MOVE, Preview, Reach
from skirmbot.rules.view import (
    ACTIVATED,
    DOTS,
    PLAYING,
    ArcView,
    DotBoardView,
    EdgeView,
    MarkerView,
    MatchView,
    PieceView,
    SideView,
)

MAPS = Path(__file__).resolve().parent.parent / "skirmbot" / "content" / "infantry" / "maps"
GROUND = {"#": "impassable", "S": "stairs", "L": "ladder"}


def board_of(data: dict[str, object]) -> DotBoardView:
    """A shipped dot map's JSON (content/infantry/maps) as the view a ruleset would give."""
    rows = data["dots"]
    assert isinstance(rows, list)
    ground = tuple(
        (str(Dot(x, y)), GROUND[c])
        for y, row in enumerate(rows)
        for x, c in enumerate(row)
        if c in GROUND
    )
    edges = []
    for entry in data.get("edges", []):  # type: ignore[attr-defined]
        words = entry.split()
        level = int(words[3].removeprefix("@")) if len(words) > 3 else 0
        edges.append(EdgeView(words[0], words[1], words[2], level))
    levels = tuple(data.get("levels", {}).items())  # type: ignore[attr-defined]
    return DotBoardView(data["width"], data["height"], ground, levels, tuple(edges))  # type: ignore[arg-type]


def view_of(
    board: DotBoardView,
    pieces: tuple[PieceView, ...] = (),
    markers: tuple[MarkerView, ...] = (),
    arcs: tuple[ArcView, ...] = (),
) -> MatchView:
    sides = (SideView(0, "Riflemen", "0 PV"), SideView(1, "Assault Section", "0 PV"))
    return MatchView("infantry", PLAYING, 1, 6, "Firefight", board, "Test", sides, pieces,
                     markers, to_act=0, grid=DOTS, arcs=arcs)  # fmt: skip


def drawn(view: MatchView, events: list[Event] | None = None) -> tuple[Image.Image, HexLayout]:
    image = MapRenderer().render(view, events or [])
    layout = layout_of(view)
    assert isinstance(layout, HexLayout)
    return image, layout


def pixel(image: Image.Image, at: Point) -> int:
    found = image.getpixel(at)
    assert isinstance(found, int)
    return found


def trooper(dot: Dot, side: int = 0, **marks: object) -> PieceView:
    return PieceView(f"T{dot}", side, "Rifleman", (dot,), **marks)  # type: ignore[arg-type]


EMPTY = DotBoardView(8, 6)


# --- the layout ----------------------------------------------------------------------------
def test_the_layout_puts_each_dot_where_dots_centre_does() -> None:
    """The picture and the rules agree on every dot: the layout's centre is `dots.centre` moved
    past the margin and the header, odd rows half a dot to the right."""
    layout = layout_of(view_of(EMPTY))
    assert isinstance(layout, HexLayout)
    for dot in (Dot(0, 0), Dot(3, 1), Dot(7, 5)):
        x, y = centre(dot, HEX)
        assert layout.centre(dot) == (round(26 + x), round(layout.header + 26 + y))
    assert layout.point(Dot(0, 1))[0] - layout.point(Dot(0, 0))[0] == pytest.approx(ROOT3 * HEX / 2)
    assert layout.parse("c4") == Dot(2, 3)


def test_an_edge_line_is_the_side_the_two_dots_share() -> None:
    """A side between neighbours is drawn where their hexagons meet: the same two corners seen
    from either dot, and its middle halfway between the two centres."""
    layout = layout_of(view_of(EMPTY))
    a = Dot(3, 2)
    for direction in Direction:
        b = a.neighbour(direction)
        start, end = layout.edge_line(a, b)
        assert {start, end} == set(layout.edge_line(b, a))
        (ax, ay), (bx, by) = layout.centre(a), layout.centre(b)
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        assert math.dist(middle, ((ax + bx) / 2, (ay + by) / 2)) <= 1.5


def test_a_26_by_20_board_of_dots_is_drawn_whole() -> None:
    """The widest board dots.py names (A-Z) and twenty rows: every dot's hexagon is on the
    picture, the last row's too, and the picture is the layout's size."""
    view = view_of(DotBoardView(26, 20), pieces=(trooper(Dot(25, 19)),))
    image, layout = drawn(view)
    assert image.size == layout.size
    for dot in (Dot(0, 0), Dot(25, 0), Dot(0, 19), Dot(25, 19), Dot(25, 18)):
        x, y = layout.centre(dot)
        corners = layout.outline(dot)
        assert all(0 <= cx < image.width and cy < layout.map_size[1] for cx, cy in corners)
        if dot != Dot(25, 19):
            assert pixel(image, (x - 20, y)) == colour("level0")


# --- the terrain ---------------------------------------------------------------------------
def test_each_dot_feature_is_drawn_on_its_dot() -> None:
    """Plan section 5: '#' impassable (a tree trunk, a rock), 'S' stairs, 'L' ladder, and a
    dot's top level shaded with its number."""
    board = DotBoardView(
        8, 6,
        ground=(("B2", "impassable"), ("D3", "stairs"), ("F4", "ladder")),
        levels=(("C5", 1), ("D5", 2)),
    )  # fmt: skip
    image, layout = drawn(view_of(board))
    bx, by = layout.centre(Dot.parse("B2"))
    assert pixel(image, (bx, by)) == colour("impassable_mark")  # the rock
    assert pixel(image, (bx, by - HEX + 4)) == colour("impassable")
    sx, sy = layout.centre(Dot.parse("D3"))
    assert pixel(image, (sx, sy + 16)) == colour("stairs")  # the lowest tread
    lx, ly = layout.centre(Dot.parse("F4"))
    assert pixel(image, (lx - 8, ly + 2)) == colour("ladder")  # a rail
    for name, level in (("C5", 1), ("D5", 2)):
        x, y = layout.centre(Dot.parse(name))
        assert pixel(image, (x + 20, y + 10)) == colour(f"level{level}")
        label = image.crop((x - 12, y - HEX + 6, x + 12, y - HEX + 22))
        assert colour("label") in {c for _, c in label.getcolors() or []}
    x, y = layout.centre(Dot.parse("A1"))
    assert pixel(image, (x + 20, y + 10)) == colour("level0")


EDGE_KINDS = {"low": "wall_low", "light": "difficult", "wall": "wall_high", "door": "door",
              "window": "turret"}  # fmt: skip


@pytest.mark.parametrize(("kind", "ink"), EDGE_KINDS.items())
def test_each_edge_feature_is_drawn_on_its_side(kind: str, ink: str) -> None:
    """Plan section 5's edges ("C4 D4 low", "F2 F3 light", "C4 C5 wall", "D5 D6 door",
    "E5 E6 window"), each in its own colour on the side the two dots share; a door and a window
    between stubs of wall."""
    a, b = Dot.parse("D3"), Dot.parse("E3")
    image, layout = drawn(view_of(DotBoardView(8, 6, edges=(EdgeView("D3", "E3", kind),))))
    start, end = layout.edge_line(a, b)
    middle = dotsymbols._towards(start, end, 0.42)  # between a hedge's leaves
    assert pixel(image, middle) == colour(ink)
    stub = dotsymbols._towards(start, end, 0.1)
    assert pixel(image, stub) == colour("wall_high" if kind in ("door", "window") else ink)
    bare = layout.edge_line(Dot.parse("D4"), Dot.parse("E4"))
    assert pixel(image, ((bare[0][0] + bare[1][0]) // 2, (bare[0][1] + bare[1][1]) // 2)) not in {
        colour(ink),
        colour("wall_high"),
    }


def test_an_edge_above_level_0_is_drawn_in_toward_the_higher_dot() -> None:
    """Plan section 5: "C4 D4 wall @1", a wall at level 1 (a building's upper floor) is drawn
    moved in from the side toward the dot that has the level, so both floors' walls show."""
    board = DotBoardView(8, 6, levels=(("E3", 1),), edges=(EdgeView("D3", "E3", "wall", 1),))
    image, layout = drawn(view_of(board))
    start, end = layout.edge_line(Dot.parse("D3"), Dot.parse("E3"))
    middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    inside = (middle[0] + dotsymbols.UPPER_SHIFT, middle[1])
    outside = (middle[0] - dotsymbols.UPPER_SHIFT, middle[1])
    assert pixel(image, inside) == colour("wall_high")
    assert pixel(image, outside) != colour("wall_high")


# --- firing arcs ---------------------------------------------------------------------------
@pytest.mark.parametrize("side", [0, 1])
def test_a_firing_arc_is_a_see_through_wedge_in_its_owners_colour(side: int) -> None:
    """Firing Arcs ¶1: an arc has its vertex on the trooper's dot and a width; drawn as a wedge
    of its side's colour over every other pixel (the terrain shows through), none outside it."""
    arc = ArcView("Rossi", side, "B3", 0, 60.0, 60, 3)  # facing east, 60 degrees wide
    image, layout = drawn(view_of(DotBoardView(10, 6), arcs=(arc,)))
    vertex = layout.centre(Dot.parse("B3"))
    reach = ARC_REACH * ROOT3 * HEX
    inside = dotsymbols.arc_point(vertex, 60.0, reach / 2)
    outside = dotsymbols.arc_point(vertex, 240.0, reach / 2)  # behind the trooper
    wedge = side_colour(side, "dim")

    def block(at: Point) -> list[int]:
        return [pixel(image, (at[0] + dx, at[1] + dy)) for dx in range(4) for dy in range(4)]

    assert block(inside).count(wedge) == 8  # every second pixel: the terrain shows through
    assert wedge not in block(outside)
    beside = dotsymbols.arc_point(vertex, 60.0 + 45, reach / 2)  # past its edge (30 degrees)
    assert wedge not in {pixel(image, (beside[0] + dx, beside[1])) for dx in (0, 1)}


def test_a_wedge_stays_on_the_map() -> None:
    """An arc facing off the board is drawn on the map only: nothing of it on the coordinates'
    margin under the map (nor, so, on the key under that)."""
    arc = ArcView("Rossi", 0, "C5", 0, 150.0, 150, 3)  # from the bottom row, facing down
    pieces = (trooper(Dot.parse("C5"), hit=10, max_hit=10),)  # so the picture has a key
    image, layout = drawn(view_of(DotBoardView(8, 5), pieces=pieces, arcs=(arc,)))
    _, bottom = layout.map_size
    below = image.crop((0, bottom - 26, image.width, bottom))
    assert side_colour(0, "dim") not in {c for _, c in below.getcolors() or []}
    x, y = layout.centre(Dot.parse("C5"))
    assert pixel(image, (x, y + HEX - 6)) in (side_colour(0, "dim"), colour("level0"))


def test_the_shots_left_are_written_at_the_wedge() -> None:
    """Firing Arcs: an arc holds a number of shots; the picture writes what is left of them on
    a disc in the owner's colour at the wedge's far end."""
    arc = ArcView("Rossi", 1, "B3", 0, 60.0, 30, 2)
    image, layout = drawn(view_of(DotBoardView(10, 6), arcs=(arc,)))
    vertex = layout.centre(Dot.parse("B3"))
    reach = ARC_REACH * ROOT3 * HEX
    x, y = dotsymbols.arc_point(vertex, 60.0, reach - dotsymbols.ARC_LABEL - 4)
    assert pixel(image, (x - 6, y)) == side_colour(1, "dark")
    assert pixel(image, (x - dotsymbols.ARC_LABEL, y)) == colour("white")


# --- a trooper's marks ---------------------------------------------------------------------
def test_hp_and_armour_are_pips_under_the_token() -> None:
    """Unit Card ¶3 and ¶6: ten HP cells and the armour cells left: a row of pips each, filled
    for what is left (HP in the side's dark colour, armour grey) and hollow for what is lost."""
    dot = Dot.parse("C3")
    piece = trooper(dot, hit=3, max_hit=10, armour=1, max_armour=4)
    image, layout = drawn(view_of(EMPTY, pieces=(piece,)))
    x, y = layout.centre(dot)
    first, last = x - (9 * dotsymbols.PIP_STEP) // 2, x - (9 * dotsymbols.PIP_STEP) // 2 + 45
    assert pixel(image, (first, y + 23)) == side_colour(0, "dark")
    assert pixel(image, (first + 2 * dotsymbols.PIP_STEP, y + 23)) == side_colour(0, "dark")
    assert pixel(image, (first + 3 * dotsymbols.PIP_STEP, y + 23)) == colour("pip_empty")
    assert pixel(image, (last, y + 23)) == colour("pip_empty")
    armour = x - (3 * dotsymbols.PIP_STEP) // 2
    assert pixel(image, (armour, y + 29)) == colour("label")
    assert pixel(image, (armour + dotsymbols.PIP_STEP, y + 29)) == colour("pip_empty")


def test_a_prone_trooper_wears_a_p_and_a_raised_one_its_level() -> None:
    """Movement: a trooper may go prone (our picture: a "P" chip on its token's top-right) and
    stand on a level above the ground (an "L1" chip on its top-left); neither when it has none."""
    lying, up, plain = Dot.parse("B2"), Dot.parse("E2"), Dot.parse("C5")
    pieces = (trooper(lying, prone=True), trooper(up, 1, level=1), trooper(plain))
    image, layout = drawn(view_of(EMPTY, pieces=pieces))

    def corners(dot: Dot) -> tuple[int, int]:
        x0, y0, x1, _ = layout.box(dot)
        return pixel(image, (x1 - 4, y0 + 3)), pixel(image, (x0 + 4, y0 + 3))

    assert corners(lying)[0] == colour("ink")
    assert corners(up)[1] == colour("label")
    assert corners(plain)[0] != colour("ink") and corners(plain)[1] != colour("label")


@pytest.mark.parametrize(("kind", "probe", "ink"), [("grenade", (-5, 0), "difficult"),
                                                     ("satchel", (-7, 6), "crate")])  # fmt: skip
def test_a_thrown_explosive_is_a_token_on_its_dot(
    kind: str, probe: tuple[int, int], ink: str
) -> None:
    """Explosives ¶3: a thrown grenade or satchel charge is resolved at the end of its side's
    turn, so it lies on its dot till then: a token drawn over any trooper standing there."""
    dot = Dot.parse("D4")
    marker = MarkerView(kind, dot, f"{kind} on D4")
    image, layout = drawn(view_of(EMPTY, pieces=(trooper(dot, 1),), markers=(marker,)))
    _, _, x1, y1 = layout.box(dot)
    x, y = x1 - 12, y1 - 14
    assert pixel(image, (x + probe[0], y + probe[1])) == colour(ink)
    bare, _ = drawn(view_of(EMPTY, pieces=(trooper(dot, 1),)))
    assert pixel(bare, (x + probe[0], y + probe[1])) != colour(ink)


def test_a_dropped_weapon_is_a_marker_on_its_dot() -> None:
    """Special Actions ¶2: a dropped weapon stays on its dot to be taken: a gold marker."""
    dot = Dot.parse("D4")
    image, layout = drawn(view_of(EMPTY, markers=(MarkerView("item", dot, "Rifle on D4"),)))
    x0, _, _, y1 = layout.box(dot)
    assert pixel(image, (x0 + 12, y1 - 11)) == colour("gold")


# --- the last activation -------------------------------------------------------------------
def test_the_last_path_and_shot_are_drawn_through_the_dots_centres() -> None:
    """The last activation on dots: its path through the centres of the dots it crossed (event
    "moved"), its shot as a line from the firer's dot to the target's ("attack")."""
    mover, target = trooper(Dot.parse("B5"), 1), trooper(Dot.parse("G2"), 0)
    events = [
        Event("moved", "It moves.", {"unit": mover.id, "path": ["B2", "B3", "B4", "B5"]}),
        Event("attack", "It fires: hit.", {"attacker": mover.id, "target": target.id,
              "weapon": "Rifle", "kind": "fire", "from": "B5", "to": "G2", "outcome": "hit",
              "hit": True, "damage": 3})]  # fmt: skip
    image, layout = drawn(view_of(EMPTY, pieces=(mover, target)), events)
    assert pixel(image, layout.centre(Dot.parse("B3"))) == side_colour(1, "dark")
    a, b = layout.centre(Dot.parse("B5")), layout.centre(Dot.parse("G2"))
    middle = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    near = {
        pixel(image, (middle[0] + dx, middle[1] + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
    }
    assert near & {colour("hit"), colour("miss"), colour("taken_out")}


def test_a_throw_and_its_scatter_are_drawn_from_dot_to_dot() -> None:
    """Explosives ¶1-¶3: a thrown explosive flies from the thrower to its target dot (a gold
    dashed line, event "thrown") and may scatter from there to where it lands (a vermilion
    dashed line, event "scatter")."""
    thrower = trooper(Dot.parse("B2"))
    events = [
        Event("thrown", "It throws.", {"unit": thrower.id, "target": "B5", "level": 0}),
        Event("scatter", "It scatters.", {"unit": thrower.id, "from": "B5", "to": "E5"}),
    ]
    image, layout = drawn(view_of(EMPTY, pieces=(thrower,)), events)
    bare, _ = drawn(view_of(EMPTY, pieces=(thrower,)))

    def along(a: str, b: str, ink: str) -> int:
        (ax, ay), (bx, by) = layout.centre(Dot.parse(a)), layout.centre(Dot.parse(b))
        points = [(ax + (bx - ax) * n // 40, ay + (by - ay) * n // 40) for n in range(8, 32)]
        assert all(pixel(bare, at) != colour(ink) for at in points)
        return sum(pixel(image, at) == colour(ink) for at in points)

    assert along("B2", "B5", "gold") >= 8  # dashed: about half of it
    assert along("B5", "E5", "hit") >= 8
    words = {entry.text for entry in legend_entries(view_of(EMPTY, (thrower,)), events)}
    assert {"thrown", "scattered"} <= words


# --- the key -------------------------------------------------------------------------------
def test_the_key_names_the_dot_features_and_marks_on_the_picture() -> None:
    """The key lists what this picture shows of a board of dots, in the map's words."""
    board = DotBoardView(
        8, 6, ground=(("B2", "impassable"), ("D3", "stairs")), levels=(("C5", 1),),
        edges=(EdgeView("D3", "E3", "light"), EdgeView("C4", "D4", "window", 1)),
    )  # fmt: skip
    pieces = (trooper(Dot.parse("B4"), prone=True, hit=9, max_hit=10, armour=2, max_armour=2,
                      level=1, status=ACTIVATED),)  # fmt: skip
    view = view_of(board, pieces, (MarkerView("grenade", Dot.parse("E5"), "grenade"),),
                   (ArcView("TB4", 0, "B4", 1, 0.0, 30, 1),))  # fmt: skip
    words = {entry.text for entry in legend_entries(view)}
    assert {"level 1", "impassable", "stairs", "hedge", "window", "upper floor", "HP left",
            "HP lost", "armour", "on a level", "prone", "activated", "firing arc, shots left",
            "grenade (at turn end)"} <= words  # fmt: skip
    assert not {"ladder", "wall", "satchel charge (at turn end)", "HIT left"} & words
    image, _ = drawn(view)  # the key draws each of them
    assert image.height > layout_of(view).map_size[1]


# --- the preview ---------------------------------------------------------------------------
def test_the_preview_tints_the_hexagons_a_trooper_can_reach() -> None:
    """The preview on dots: each reachable dot's hexagon is tinted inside its outline; a dot
    out of reach keeps its ground."""
    here, there, far = Dot.parse("C3"), Dot.parse("D3"), Dot.parse("G5")
    view = view_of(EMPTY, pieces=(trooper(here),))
    preview = Preview("TC3", 0, here, False, (Reach(there, MOVE, 2),), ())
    image = PreviewRenderer().render(view, preview)
    layout = layout_of(view)
    x, y = layout.centre(there)
    assert pixel(image, (x + 20, y + 10)) == TABLES[MOVE][colour("level0")]
    fx, fy = layout.centre(far)
    assert pixel(image, (fx + 20, fy + 10)) == colour("level0")
    start, end = layout.edge_line(there, there.neighbour(Direction.EAST))
    middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    assert pixel(image, middle) == colour("grid")  # its outline, the grid line, stays clear


def test_the_preview_key_names_only_the_movements_the_trooper_has() -> None:
    """The infantry rules have no Dash: the preview's key shows the Move swatch and not the
    Dash one (a key names only what the picture holds)."""
    here, there = Dot.parse("C3"), Dot.parse("D3")
    view = view_of(EMPTY, pieces=(trooper(here),))
    preview = Preview("TC3", 0, here, False, (Reach(there, MOVE, 2),), ())
    image = PreviewRenderer().render(view, preview)
    used = {c for _, c in image.getcolors(maxcolors=256) or []}
    assert TABLES[MOVE][colour("level0")] in used
    assert TABLES[DASH][colour("level0")] not in used


# --- the shipped maps ----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["crossroads", "farmhouse", "ruins"])
def test_each_shipped_dot_map_is_drawn(name: str) -> None:
    """Every map of content/infantry/maps draws: the picture has its dots and every wall's
    colour is on it."""
    data = json.loads((MAPS / f"{name}.json").read_text(encoding="utf-8"))
    board = board_of(data)
    image, layout = drawn(view_of(board, pieces=(trooper(Dot(0, 0)),)))
    assert image.width == layout.map_size[0] and image.height > layout.map_size[1]  # and a key
    used = {c for _, c in image.getcolors(maxcolors=256) or []}
    inks = {colour(EDGE_KINDS[edge.kind]) for edge in board.edges}
    assert inks <= used
    assert len(board.dots()) == board.width * board.height
