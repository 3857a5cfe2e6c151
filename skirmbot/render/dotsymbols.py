"""The marks of a board of dots (the infantry rules, rulebook 002), drawn by the hex picture
(`hexmap`) and by its key (`legend`): edge features, stairs and ladders on a dot, firing arcs,
grenade and satchel tokens, and a trooper's HP, armour, level and prone marks.

Everything in the fixed palette of `palette`, so a picture of dots stays a small "P" image; a
firing arc is "translucent" by a checkerboard of its side's colour over the terrain (a palette
image cannot blend, and the preview's tint blocks are spent on its own three tints).
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageChops, ImageDraw

from skirmbot.render.palette import colour, draw_text, font, side_colour
from skirmbot.render.symbols import LADDER_HALF_WIDTH, Box, Point

EDGE_WIDTHS = {"low": 5, "light": 7, "wall": 9, "door": 9, "window": 9}
EDGE_COLOURS = {"low": "wall_low", "light": "difficult", "wall": "wall_high"}
OPENING = 0.25  # a door or window fills the middle half of its side, wall stubs either side
UPPER_SHIFT = 6  # pixels an edge above level 0 is drawn in toward the higher dot
CHIP_SIZE = 10  # the letters of a chip ("L1", "P")
PIP = 4  # a trooper's HP and armour pips: squares this wide...
PIP_STEP = 5  # ...this far apart (ten HP cells fit a hexagon's width)
ARC_LABEL = 10  # the radius of the disc that says how many shots an arc has left


# --- edges and dots ------------------------------------------------------------------------
def _towards(start: Point, end: Point, part: float) -> Point:
    return (
        round(start[0] + (end[0] - start[0]) * part),
        round(start[1] + (end[1] - start[1]) * part),
    )


def edge_feature(draw: ImageDraw.ImageDraw, start: Point, end: Point, kind: str) -> None:
    """A feature along a side between dots: a low wall (thin, brown), a hedge or fence ("light"
    cover: green), a wall (thick, dark), a door (a brown leaf between wall stubs) or a window
    (glass between wall stubs)."""
    width = EDGE_WIDTHS.get(kind, 5)
    if kind in EDGE_COLOURS:
        draw.line((*start, *end), fill=colour(EDGE_COLOURS[kind]), width=width)
        if kind == "light":  # a hedge's leaves: light dots along it, so it reads without colour
            for n in range(1, 6):
                x, y = _towards(start, end, n / 6)
                draw.ellipse((x - 1, y - 1, x + 1, y + 1), fill=colour("white"))
        return
    left, right = _towards(start, end, OPENING), _towards(start, end, 1 - OPENING)
    draw.line((*start, *left), fill=colour("wall_high"), width=width)
    draw.line((*right, *end), fill=colour("wall_high"), width=width)
    if kind == "door":
        draw.line((*left, *right), fill=colour("ink"), width=width)
        draw.line((*left, *right), fill=colour("door"), width=width - 4)
    else:  # a window: a pane with a glint of sky blue
        draw.line((*left, *right), fill=colour("ink"), width=width - 2)
        draw.line((*left, *right), fill=colour("turret"), width=width - 6)


def dot_stairs(draw: ImageDraw.ImageDraw, centre: Point) -> None:
    """Stairs on a dot: four treads, narrowing as they climb."""
    cx, cy = centre
    for n in range(4):
        half = 16 - 3 * n
        y = cy + 16 - 7 * n
        draw.line((cx - half, y, cx + half, y), fill=colour("stairs"), width=3)


def dot_ladder(draw: ImageDraw.ImageDraw, centre: Point) -> None:
    """A ladder on a dot: two rails and gold rungs, upright through the dot."""
    cx, cy = centre
    h = LADDER_HALF_WIDTH
    draw.line((cx - h, cy - 20, cx - h, cy + 20), fill=colour("ladder"), width=2)
    draw.line((cx + h, cy - 20, cx + h, cy + 20), fill=colour("ladder"), width=2)
    for y in range(cy - 16, cy + 20, 7):
        draw.line((cx - h, y, cx + h, y), fill=colour("gold"), width=3)


def rock(draw: ImageDraw.ImageDraw, centre: Point, radius: int) -> None:
    """The mark of an impassable dot (a tree trunk, a rock) on its dark ground."""
    draw.regular_polygon((*centre, radius), 6, rotation=30, fill=colour("impassable_mark"))


# --- firing arcs ---------------------------------------------------------------------------
def compass(facing: float) -> float:
    """A `dots.bearing` (degrees clockwise from north-east) as degrees clockwise from north."""
    return (facing + 30.0) % 360.0


def arc_point(vertex: Point, facing: float, reach: float) -> Point:
    """The point `reach` pixels from `vertex` along the bearing `facing`."""
    angle = math.radians(compass(facing))
    return round(vertex[0] + reach * math.sin(angle)), round(vertex[1] - reach * math.cos(angle))


@cache
def _checker(width: int, height: int) -> Image.Image:
    """Every second pixel set, as a chess board: what lets the terrain show through a wedge."""
    row = (b"\xff\x00" * (width // 2 + 1))[:width]
    other = (b"\x00\xff" * (width // 2 + 1))[:width]
    data = (row + other) * (height // 2) + (row if height % 2 else b"")
    return Image.frombytes("L", (width, height), data).convert("1")


def arc_wedge(
    image: Image.Image, vertex: Point, facing: float, width: int, reach: float, side: int
) -> None:
    """A firing arc: a see-through wedge in its side's colour from `vertex`, `width` degrees
    wide round the bearing `facing`, `reach` pixels long, with its two edges drawn solid."""
    box = (
        max(0, math.floor(vertex[0] - reach)),
        max(0, math.floor(vertex[1] - reach)),
        min(image.width, math.ceil(vertex[0] + reach) + 1),
        min(image.height, math.ceil(vertex[1] + reach) + 1),
    )
    if box[2] <= box[0] or box[3] <= box[1]:
        return
    size = (box[2] - box[0], box[3] - box[1])
    wedge = Image.new("1", size, 0)
    # PIL's angles run clockwise from east; a compass angle runs clockwise from north.
    start = compass(facing) - 90.0 - width / 2
    local = (vertex[0] - box[0], vertex[1] - box[1])
    bounds = (local[0] - reach, local[1] - reach, local[0] + reach, local[1] + reach)
    ImageDraw.Draw(wedge).pieslice(bounds, start, start + width, fill=1)
    # The checkerboard in the picture's own pixel grid, so neighbouring wedges line up.
    checker = _checker(image.width + 1, image.height + 1).crop(box)
    image.paste(side_colour(side, "dim"), box, ImageChops.logical_and(wedge, checker))
    draw = ImageDraw.Draw(image)
    for edge in (-width / 2, width / 2):
        draw.line((*vertex, *arc_point(vertex, facing + edge, reach)), fill=side_colour(side),
                  width=2)  # fmt: skip


def arc_shots(draw: ImageDraw.ImageDraw, at: Point, shots: int, side: int) -> None:
    """How many shots an arc has left: a number on a disc of its side's colour."""
    x, y = at
    r = ARC_LABEL
    draw.ellipse((x - r, y - r, x + r, y + r), fill=side_colour(side, "dark"),
                 outline=colour("white"), width=2)  # fmt: skip
    draw_text(draw, (x, y), str(shots), colour("white"), 13, "mm")


# --- explosives ----------------------------------------------------------------------------
def explosive(draw: ImageDraw.ImageDraw, centre: Point, kind: str) -> None:
    """A thrown grenade (a green egg, "G") or satchel charge (a brown bag, "S") waiting for the
    end of its side's turn (rulebook 002, Explosives)."""
    x, y = centre
    if kind == "satchel":
        draw.rectangle((x - 9, y - 7, x + 9, y + 8), fill=colour("crate"), outline=colour("ink"),
                       width=2)  # fmt: skip
        draw.line((x - 5, y - 7, x - 2, y - 11, x + 2, y - 11, x + 5, y - 7), fill=colour("ink"),
                  width=2)  # fmt: skip
        draw_text(draw, (x, y + 1), "S", colour("white"), 11, "mm")
        return
    draw.ellipse((x - 8, y - 10, x + 8, y + 10), fill=colour("difficult"), outline=colour("ink"),
                 width=2)  # fmt: skip
    draw.rectangle((x - 3, y - 13, x + 3, y - 9), fill=colour("ink"))
    draw_text(draw, (x, y + 1), "G", colour("white"), 11, "mm")


# --- a trooper's marks ---------------------------------------------------------------------
def chip(draw: ImageDraw.ImageDraw, at: Point, text: str, fill: str, *, right: bool) -> Box:
    """A small label on a token's corner: its top-left at `at`, or its top-right (`right`)."""
    width = round(font(CHIP_SIZE).getlength(text)) + 6
    x, y = at
    x0 = x - width if right else x
    box = (x0, y, x0 + width, y + CHIP_SIZE + 3)
    draw.rectangle(box, fill=colour(fill), outline=colour("white"))
    draw_text(draw, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2 + 1), text, colour("white"),
              CHIP_SIZE, "mm")  # fmt: skip
    return box


def pip_row(draw: ImageDraw.ImageDraw, centre: Point, left: int, most: int, fill: int) -> None:
    """`left` of `most` cells as a row of small squares round `centre`: filled, then hollow."""
    x = centre[0] - ((most - 1) * PIP_STEP) // 2
    y = centre[1]
    for n in range(most):
        box = (x - PIP // 2, y - PIP // 2, x + PIP // 2 - 1, y + PIP // 2 - 1)
        if n < left:
            draw.rectangle(box, fill=fill)
        else:
            draw.rectangle(box, fill=colour("pip_empty"), outline=colour("ink"))
        x += PIP_STEP
