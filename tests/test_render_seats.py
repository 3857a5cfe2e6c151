"""Pictures of matches of more than two seats (issue 29), drawn from a hand-built MatchView: no
ruleset needed. Four header lines in four colours safe for colour blindness, a seat that is out
greyed, a Big Model's one token over its cells, a facing wedge, a Downed piece."""

from __future__ import annotations

import io
from dataclasses import replace
from itertools import combinations

from PIL import Image

from skirmbot.render.battlemap import (
    BAND,
    CAPTION,
    MARGIN,
    SIDE_LINE,
    TITLE,
    Layout,
    MapRenderer,
    alt_text,
    band_height,
)
from skirmbot.render.palette import COLOURS, SEAT_COLOURS, colour, side_colour
from skirmbot.render.preview import TABLES, PreviewRenderer
from skirmbot.render.symbols import SQUARE, TOKEN_RADIUS
from skirmbot.rules.board import parse_board
from skirmbot.rules.preview import DASH, Preview, Reach
from skirmbot.rules.squares import Square
from skirmbot.rules.view import DOWNED, PLAYING, MatchView, PieceView, SideView

ROWS = [". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
        ". . . . . . . .", ". . . . . . . ."]  # fmt: skip
SIDES = (
    SideView(0, "Iron Wardens", "AP 7 · 3 bonus dice"),
    SideView(1, "Ash Runners", "AP 5 · 1 bonus die"),
    SideView(2, "Red Company", "AP 6 · 2 bonus dice"),
    SideView(3, "Grey Band", "eliminated", out=True),
)
BIG = (Square(4, 2), Square(5, 2), Square(4, 3), Square(5, 3))


def four_seats() -> MatchView:
    return MatchView(
        ruleset="d20",
        phase=PLAYING,
        turn=2,
        turns=None,
        title="Crossing",
        board=parse_board(ROWS, []),
        map_name="Open Field",
        sides=SIDES,
        pieces=(
            PieceView("Ada", 0, "Scout", (Square(1, 1),), hit=2, max_hit=2),
            PieceView("Bo", 1, "Gunner", (Square(1, 4),), hit=1, max_hit=2, status=DOWNED),
            PieceView("Ogre", 2, "Big Model", BIG, hit=6, max_hit=6),
            PieceView("Cy", 3, "Knight", (Square(7, 0),), hit=2, max_hit=2, facing="E"),
        ),
        to_act=2,
        turn_word="Round",
    )


def drawn(view: MatchView) -> tuple[Image.Image, Layout]:
    image = Image.open(io.BytesIO(MapRenderer().png(view)))
    image.load()
    return image, Layout.of(view)


def index(image: Image.Image, xy: tuple[float, float]) -> int:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, int)
    return value


def rgb(image: Image.Image, number: int) -> tuple[int, int, int]:
    palette = image.getpalette()
    assert palette is not None
    red, green, blue = palette[3 * number : 3 * number + 3]
    return red, green, blue


def test_each_seat_has_a_header_line_with_its_colour_and_an_out_seat_is_greyed() -> None:
    image, layout = drawn(four_seats())
    assert layout.band == band_height(4) == TITLE + 4 * SIDE_LINE + 2
    assert band_height(2) == BAND, "two seats keep today's band"
    assert index(image, (2, layout.band + CAPTION // 2)) == colour("caption"), "caption below"
    swatches = [index(image, (21, TITLE + n * SIDE_LINE + 11)) for n in range(4)]
    assert swatches == [side_colour(0), side_colour(1), side_colour(2), colour("neutral")]
    assert rgb(image, swatches[2]) == SEAT_COLOURS["side2"], "the seat colour is in the palette"
    for number in range(4):  # the line's words: light ink, grey for the seat that is out
        top = TITLE + number * SIDE_LINE
        inks = {index(image, (x, y)) for x in range(38, 300) for y in range(top, top + 22)}
        live = colour("header_text") in inks
        assert live is (number < 3), number
        assert (colour("grid") in inks) is (number == 3), number
    assert "Grey Band: eliminated" in alt_text(four_seats())
    assert "Round 2 · Crossing · Next: Red Company (1 ready)" in alt_text(four_seats())


def test_a_big_model_is_one_token_over_its_cells() -> None:
    image, layout = drawn(four_seats())
    x0, y0, _, _ = layout.box(BIG[0])
    _, _, x1, y1 = layout.box(BIG[-1])
    centre = ((x0 + x1) / 2, (y0 + y1) / 2 - 8)  # a token's body sits a little above centre
    # Where four cells meet, a one-square token would leave the ground (or a grid line) showing
    # (under the label, drawn in white at the centre).
    assert index(image, (centre[0], centre[1] + 28)) == side_colour(2)
    assert index(image, (x0 + SQUARE, y0 + SQUARE // 2 - 4)) == side_colour(2), "on E3|F3's line"
    body = {index(image, (x, centre[1])) for x in range(x0 + 8, x1 - 8)}
    assert colour("grid") not in body, "no grid line crosses the token"


def test_a_piece_with_a_facing_shows_a_wedge_on_that_edge() -> None:
    image, layout = drawn(four_seats())
    cx, cy = layout.centre(Square(7, 0))
    front = (cx + TOKEN_RADIUS + 3, cy - 4)
    back = (cx - TOKEN_RADIUS - 3, cy - 4)
    assert index(image, front) == colour("ink")
    assert index(image, back) != colour("ink")
    facing_west = four_seats()
    pieces = tuple(
        PieceView(p.id, p.side, p.kind, p.squares, facing="W", hit=2, max_hit=2)
        if p.id == "Cy"
        else p
        for p in facing_west.pieces
    )
    turned, _ = drawn(replace(facing_west, pieces=pieces))
    assert index(turned, back) == colour("ink")
    assert index(turned, front) != colour("ink")


def test_a_downed_piece_lies_flat_ringed_in_red() -> None:
    image, layout = drawn(four_seats())
    x0, y0, x1, y1 = layout.box(Square(1, 4))
    inside = {index(image, (x, y)) for x in range(x0, x1) for y in range(y0, y1)}
    assert colour("hit") in inside
    assert side_colour(1, "dim") in inside
    assert side_colour(1) not in inside, "the full colour is for a piece standing"


def test_the_four_seat_colours_stay_apart_for_colour_blind_eyes_and_from_the_terrain() -> None:
    seats = [COLOURS["side0"], COLOURS["side1"], SEAT_COLOURS["side2"], SEAT_COLOURS["side3"]]
    assert seats[:2] == [(0, 114, 178), (230, 159, 0)], "sides 0 and 1 as ever"
    terrain = [COLOURS[name] for name in COLOURS if name.startswith("level")]
    terrain += [COLOURS["difficult"], COLOURS["impassable"]]
    for seeing in (_normal, _deuteranope, _protanope, _tritanope):
        for a, b in combinations(seats, 2):
            assert _distance(seeing(a), seeing(b)) > 40, (seeing.__name__, a, b)
        for seat in seats:
            for ground in terrain:
                assert _distance(seeing(seat), seeing(ground)) > 40, (seeing.__name__, seat)


def test_two_seats_keep_the_palette_of_two() -> None:
    two = replace(four_seats(), sides=SIDES[:2], pieces=(), to_act=0)
    image, layout = drawn(two)
    assert layout.band == BAND
    assert rgb(image, side_colour(2)) == (0, 0, 0), "no third seat colour written"
    assert image.size[1] > layout.header + 2 * MARGIN


# --- colour vision (Machado, Oliveira and Fernandes 2009, severity 1) ---------------------
Matrix = tuple[tuple[float, float, float], ...]
DEUTERANOPIA: Matrix = ((0.367, 0.861, -0.228), (0.280, 0.673, 0.047), (-0.012, 0.043, 0.969))
PROTANOPIA: Matrix = ((0.152, 1.053, -0.205), (0.115, 0.786, 0.099), (-0.004, -0.048, 1.052))
TRITANOPIA: Matrix = ((1.256, -0.077, -0.179), (-0.078, 0.931, 0.148), (0.005, 0.691, 0.304))


def _seen(matrix: Matrix, colour: tuple[int, int, int]) -> tuple[float, ...]:
    return tuple(
        max(0.0, min(255.0, sum(m * c for m, c in zip(row, colour, strict=True)))) for row in matrix
    )


def _normal(colour: tuple[int, int, int]) -> tuple[float, ...]:
    return tuple(float(c) for c in colour)


def _deuteranope(colour: tuple[int, int, int]) -> tuple[float, ...]:
    return _seen(DEUTERANOPIA, colour)


def _protanope(colour: tuple[int, int, int]) -> tuple[float, ...]:
    return _seen(PROTANOPIA, colour)


def _tritanope(colour: tuple[int, int, int]) -> tuple[float, ...]:
    return _seen(TRITANOPIA, colour)


def _distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5)


def test_a_preview_of_four_seats_keeps_the_seat_colours_and_its_tints() -> None:
    """The preview's palette has its tint blocks and the third and fourth seats' colours, and
    its caption sits under the taller band."""
    preview = Preview("Ogre", 2, BIG[0], False, (Reach(Square(6, 2), DASH, 1),), ())
    image = Image.open(io.BytesIO(PreviewRenderer().png(four_seats(), preview)))
    image.load()
    layout = Layout.of(four_seats())
    assert rgb(image, side_colour(2)) == SEAT_COLOURS["side2"]
    assert rgb(image, side_colour(3)) == SEAT_COLOURS["side3"]
    x0, y0, _, _ = layout.box(Square(6, 2))
    tinted = index(image, (x0 + 10, y0 + 10))
    assert tinted == TABLES[DASH][colour("level0")], "the reachable square is tinted"
    assert index(image, (2, layout.band + CAPTION // 2)) == colour("caption")
