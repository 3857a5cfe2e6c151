"""The marks the battlemap is drawn with, placed by pixel: the map puts them on its squares and
edges, and the key under the map draws the very same ones beside their names.

Every function here draws one kind of mark from pixel coordinates; what is on which square or
edge is decided by `battlemap` (the map) and `legend` (the key).
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from skirmbot.render.palette import colour, draw_text, font, new_image, side_colour

SQUARE = 64  # pixels per square: tokens and labels stay readable on a phone
TOKEN_RADIUS = 23
LABEL_WIDTH = 2 * TOKEN_RADIUS - 8  # wider labels (three ideographs) take the smaller size
LEVEL_FONT = 13
Box = tuple[int, int, int, int]
Point = tuple[int, int]


# --- ground --------------------------------------------------------------------------------
@cache
def impassable_tile() -> Image.Image:
    """Solid rock or a pillar: dark, cross-hatched."""
    tile = new_image(SQUARE, SQUARE, "impassable")
    draw = ImageDraw.Draw(tile)
    for offset in range(-SQUARE, SQUARE, 12):
        draw.line((offset, 0, offset + SQUARE, SQUARE), fill=colour("impassable_mark"), width=2)
    return tile


@cache
def ground_tile(level: int, difficult: bool) -> Image.Image:
    """Ground of a level; difficult ground is strewn with tufts all over the square."""
    tile = new_image(SQUARE, SQUARE, f"level{min(level, 4)}")
    if difficult:
        draw = ImageDraw.Draw(tile)
        for row, y in enumerate(range(10, SQUARE, 14)):
            for x in range(6 + (row % 2) * 7, SQUARE - 6, 14):
                draw.line((x - 3, y + 3, x, y - 3, x + 3, y + 3), fill=colour("difficult"), width=2)
    return tile


def level_label_box(x0: int, y0: int, level: int) -> Box:
    """Where a square's `L1`, `L2`... label is drawn, the square's top-left corner at x0, y0."""
    left, top, right, bottom = font(LEVEL_FONT).getbbox(f"L{level}")
    return (
        x0 + 3 + int(left),
        y0 + 1 + int(top),
        x0 + 3 + math.ceil(right),
        y0 + 1 + math.ceil(bottom),
    )


def level_label(draw: ImageDraw.ImageDraw, x0: int, y0: int, level: int) -> None:
    draw.text((x0 + 3, y0 + 1), f"L{level}", fill=colour("label"), font=font(LEVEL_FONT))


def ledge(draw: ImageDraw.ImageDraw, start: Point, end: Point, drop: int) -> None:
    """A drop between levels without a wall: a dark line, thicker for higher drops."""
    draw.line((*start, *end), fill=colour("label"), width=1 + 2 * min(drop, 2))


# --- edges ---------------------------------------------------------------------------------
def wall(draw: ImageDraw.ImageDraw, start: Point, end: Point, height: int) -> None:
    (x0, y0), (x1, y1) = start, end
    high = height >= 2
    draw.line(
        (x0, y0, x1, y1), fill=colour("wall_high" if high else "wall_low"), width=9 if high else 5
    )
    if height >= 3:  # 1 and 2 read from the thickness; taller walls say how tall
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        draw.rectangle((cx - 7, cy - 8, cx + 7, cy + 8), fill=colour("wall_high"))
        draw.text((cx, cy), str(height), fill=colour("white"), font=font(13), anchor="mm")


DOOR_HALF_WIDTH = 5


def door(draw: ImageDraw.ImageDraw, start: Point, end: Point, is_open: bool) -> None:
    """A door fills the middle of its edge, with wall stubs either side (a gap in a wall)."""
    (x0, y0), (x1, y1) = start, end
    inset = max(abs(x1 - x0), abs(y1 - y0)) // 6
    h = DOOR_HALF_WIDTH
    if x0 == x1:
        box = (x0 - h, y0 + inset, x0 + h, y1 - inset)
        draw.line((x0, y0, x0, y0 + inset), fill=colour("wall_high"), width=9)
        draw.line((x0, y1 - inset, x0, y1), fill=colour("wall_high"), width=9)
    else:
        box = (x0 + inset, y0 - h, x1 - inset, y0 + h)
        draw.line((x0, y0, x0 + inset, y0), fill=colour("wall_high"), width=9)
        draw.line((x1 - inset, y0, x1, y0), fill=colour("wall_high"), width=9)
    if is_open:
        draw.rectangle(box, fill=colour("door_open"), outline=colour("door"), width=2)
    else:
        draw.rectangle(box, fill=colour("door"), outline=colour("ink"), width=2)


LADDER_HALF_WIDTH = 8


def ladder(draw: ImageDraw.ImageDraw, start: Point, end: Point) -> None:
    """Two rails either side of an edge, from `start` to `end` along it, and gold rungs across."""
    (x0, y0), (x1, y1) = start, end
    h = LADDER_HALF_WIDTH
    if x0 == x1:
        draw.line((x0 - h, y0, x0 - h, y1), fill=colour("ladder"), width=2)
        draw.line((x0 + h, y0, x0 + h, y1), fill=colour("ladder"), width=2)
        for y in range(y0 + 4, y1, 7):
            draw.line((x0 - h, y, x0 + h, y), fill=colour("gold"), width=3)
    else:
        draw.line((x0, y0 - h, x1, y0 - h), fill=colour("ladder"), width=2)
        draw.line((x0, y0 + h, x1, y0 + h), fill=colour("ladder"), width=2)
        for x in range(x0 + 4, x1, 7):
            draw.line((x, y0 - h, x, y0 + h), fill=colour("gold"), width=3)


STEP_OFFSETS = (3, 9, 15, 21)  # pixels from the edge into the lower square
STEP_WIDTH = 2


def steps(draw: ImageDraw.ImageDraw, lines: list[tuple[Point, Point]]) -> None:
    for start, end in lines:
        draw.line((*start, *end), fill=colour("stairs"), width=STEP_WIDTH)


# --- objectives and items ------------------------------------------------------------------
def objective(draw: ImageDraw.ImageDraw, box: Box, ring: int, number: int) -> None:
    """A ring round the square and the objective's number in a badge at its top-right."""
    x0, y0, x1, y1 = box
    draw.ellipse((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=ring, width=4)
    draw.ellipse((x1 - 22, y0 + 1, x1 - 1, y0 + 22), fill=ring, outline=colour("white"), width=2)
    draw_text(draw, (x1 - 11, y0 + 12), str(number), colour("white"), 14, "mm")


def beacon(draw: ImageDraw.ImageDraw, at: Point, fill: int) -> None:
    x, y = at
    draw.line((x + 2, y, x + 2, y + 20), fill=colour("ink"), width=2)
    draw.polygon([(x + 3, y), (x + 16, y + 5), (x + 3, y + 10)], fill=fill, outline=colour("ink"))


ITEM_SIZE = 20


def item(draw: ImageDraw.ImageDraw, at: Point, kind: str, turret_type: str | None = None) -> None:
    """A crate, barrel, turret or marker in the ITEM_SIZE box whose top-left is `at`."""
    box = (at[0], at[1], at[0] + ITEM_SIZE - 1, at[1] + ITEM_SIZE - 1)
    cx, cy = at[0] + 10, at[1] + 10
    if kind == "crate":
        draw.rectangle(box, fill=colour("crate"), outline=colour("ink"), width=2)
        draw.line((box[0], box[1], box[2], box[3]), fill=colour("ink"), width=2)
        draw.line((box[0], box[3], box[2], box[1]), fill=colour("ink"), width=2)
    elif kind == "barrel":
        draw.ellipse(box, fill=colour("barrel"), outline=colour("ink"), width=2)
        draw_text(draw, (cx, cy), "B", colour("ink"), 12, "mm")
    elif kind == "turret":
        draw.regular_polygon((cx, cy, 11), 6, fill=colour("turret"), outline=colour("ink"))
        mark = "MG" if turret_type == "machine_gun" else "RL"
        draw_text(draw, (cx, cy), mark, colour("ink"), 10, "mm")
    elif kind == "marker":
        draw.regular_polygon((cx, cy, 9), 4, fill=colour("gold"), outline=colour("ink"))


# --- what the last activation did ----------------------------------------------------------
def path(draw: ImageDraw.ImageDraw, points: list[Point], fill: int, back: int) -> None:
    """A move: a thick line through the squares' centres, dots on each, an arrow at the end."""
    draw.line(points, fill=fill, width=5, joint="curve")
    for x, y in points[:-1]:
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=fill)
    if len(points) >= 2:
        arrow_head(draw, points[-2], points[-1], fill, back=back)


def arrow_head(draw: ImageDraw.ImageDraw, start: Point, end: Point, fill: int, back: int) -> None:
    """A triangle pointing at `end`, its tip `back` pixels before it (outside the token)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    tip = (end[0] - ux * back, end[1] - uy * back)
    base = (tip[0] - ux * 14, tip[1] - uy * 14)
    left = (base[0] - uy * 9, base[1] + ux * 9)
    right = (base[0] + uy * 9, base[1] - ux * 9)
    draw.polygon([tuple(map(round, p)) for p in (tip, left, right)], fill=fill)


def attack(draw: ImageDraw.ImageDraw, a: Point, b: Point, outcome: str, back: int) -> None:
    """A line of fire or of a melee blow: dashed grey for a miss (it reads without colour too),
    solid vermillion for a hit, thick solid black for a Taken Out."""
    if outcome == "miss":
        dashed(draw, a, b, colour("miss"), width=3)
        arrow_head(draw, a, b, colour("miss"), back=back)
        return
    fill = colour("taken_out" if outcome == "taken_out" else "hit")
    draw.line((*a, *b), fill=fill, width=6 if outcome == "taken_out" else 4)
    arrow_head(draw, a, b, fill, back=back)


def dashed(draw: ImageDraw.ImageDraw, a: Point, b: Point, fill: int, width: int) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    count = max(1, int(length // 10))
    for i in range(0, count, 2):
        p = (a[0] + dx * i / count, a[1] + dy * i / count)
        q = (a[0] + dx * min(i + 1, count) / count, a[1] + dy * min(i + 1, count) / count)
        draw.line((round(p[0]), round(p[1]), round(q[0]), round(q[1])), fill=fill, width=width)


def blast(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> None:
    """An explosion or a Blast weapon landing: a ring of `radius` round a burst."""
    x, y = centre
    draw.regular_polygon((x, y, radius), 12, fill=None, outline=colour("hit"), width=4)
    draw.regular_polygon((x, y, radius / 2), 8, fill=colour("hit"), outline=colour("gold"), width=3)


def taken_out_cross(draw: ImageDraw.ImageDraw, box: Box, inset: int) -> None:
    """A black cross on the square where a unit was Taken Out."""
    x0, y0, x1, y1 = box
    draw.line((x0 + inset, y0 + inset, x1 - inset, y1 - inset), fill=colour("taken_out"), width=6)
    draw.line((x0 + inset, y1 - inset, x1 - inset, y0 + inset), fill=colour("taken_out"), width=6)


def highlight(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A gold frame round a door used or a crate opened in the last activation."""
    draw.rectangle(box, outline=colour("gold"), width=3)


# --- unit tokens ---------------------------------------------------------------------------
STAR_CENTRE = (SQUARE // 2 - TOKEN_RADIUS + 3, SQUARE // 2 - TOKEN_RADIUS - 1)
TICK = ((SQUARE // 2 + 10, SQUARE // 2 + 9), (SQUARE // 2 + 14, SQUARE // 2 + 13),
        (SQUARE // 2 + 21, SQUARE // 2 + 4))  # fmt: skip
CARRY_CENTRE = (SQUARE // 2 + TOKEN_RADIUS - 2, SQUARE // 2 - TOKEN_RADIUS)
PIP_Y = SQUARE - 8


def draw_token(
    side: int,
    label: str,
    hit: int,
    max_hit: int,
    activated: bool,
    leader: bool,
    carrying: bool,
    downed: bool = False,
    facing: str | None = None,
) -> tuple[Image.Image, Image.Image]:
    """A unit's token on a square-sized tile, and the mask that pastes it. A Downed unit (Skirm
    Lite) lies on its side, as the rulebook has the model placed: a flat token ringed in red.
    A piece with a facing (the d20 rules) shows it by a wedge on its edge."""
    token = new_image(SQUARE, SQUARE)
    mask = Image.new("1", (SQUARE, SQUARE), 0)
    draw, shape = ImageDraw.Draw(token), ImageDraw.Draw(mask)
    c = SQUARE // 2
    tall = TOKEN_RADIUS // 2 if downed else TOKEN_RADIUS
    body = (c - TOKEN_RADIUS, c - tall - 4, c + TOKEN_RADIUS, c + tall - 4)
    fill = side_colour(side, "dim") if activated or downed else side_colour(side)
    ring = colour("hit") if downed else colour("ink") if activated else colour("white")
    draw.ellipse(body, fill=fill, outline=ring, width=3)
    shape.ellipse(body, fill=1, outline=1, width=3)
    size = 16 if len(label) <= 3 and font(16).getlength(label) <= LABEL_WIDTH else 13
    ink = colour("ink") if activated else colour("white")
    draw.text((c, c - 4), label, fill=ink, font=font(size), anchor="mm")
    pips(draw, shape, side, hit, max_hit, (c, PIP_Y))  # under the token
    if leader:  # a gold star on the token's shoulder
        points = _star(*STAR_CENTRE, 10, 4)
        draw.polygon(points, fill=colour("gold"), outline=colour("ink"))
        shape.polygon(points, fill=1, outline=1)
    if carrying:
        diamond = (*CARRY_CENTRE, 7)
        draw.regular_polygon(diamond, 4, fill=colour("gold"), outline=colour("ink"))
        shape.regular_polygon(diamond, 4, fill=1, outline=1)
    if activated:  # a tick: done for this turn, readable without the dimmed colour
        draw.line(list(TICK), fill=colour("ink"), width=3)
        shape.line(list(TICK), fill=1, width=3)
    if facing is not None:
        wedge = facing_wedge((c, c - 4), facing)
        draw.polygon(wedge, fill=colour("ink"), outline=colour("white"))
        shape.polygon(wedge, fill=1, outline=1)
    return token, mask


# Where each facing points, as a step on the screen (y grows downwards).
FACING_STEPS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1),
                "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}  # fmt: skip
WEDGE = 7  # the facing wedge's half width and how far it stands out of the token


def facing_wedge(centre: Point, facing: str) -> list[tuple[float, float]]:
    """A small wedge on the token's edge pointing where the piece faces (its front arc)."""
    dx, dy = FACING_STEPS[facing]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    cx, cy = centre
    tip = (cx + ux * (TOKEN_RADIUS + WEDGE), cy + uy * (TOKEN_RADIUS + WEDGE))
    base = (cx + ux * (TOKEN_RADIUS - 3), cy + uy * (TOKEN_RADIUS - 3))
    return [tip, (base[0] - uy * WEDGE, base[1] + ux * WEDGE),
            (base[0] + uy * WEDGE, base[1] - ux * WEDGE)]  # fmt: skip


def _star(x: int, y: int, outer: int, inner: int) -> list[tuple[float, float]]:
    points = []
    for n in range(10):
        radius = outer if n % 2 == 0 else inner
        angle = math.pi / 2 + n * math.pi / 5
        points.append((x + radius * math.cos(angle), y - radius * math.sin(angle)))
    return points


def pips(
    draw: ImageDraw.ImageDraw,
    shape: ImageDraw.ImageDraw | None,
    side: int,
    hit: int,
    max_hit: int,
    centre: Point,
) -> None:
    """Remaining HIT as filled pips in a row round `centre`, lost HIT as hollow ones (`shape`:
    the token's mask, if any)."""
    spacing = 10
    start = centre[0] - (max_hit - 1) * spacing // 2
    y = centre[1]
    for n in range(max_hit):
        x = start + n * spacing
        box = (x - 4, y - 4, x + 4, y + 4)
        if n < hit:
            draw.ellipse(box, fill=side_colour(side, "dark"), outline=colour("white"))
        else:
            draw.ellipse(box, fill=colour("pip_empty"), outline=colour("ink"))
        if shape is not None:
            shape.ellipse(box, fill=1)


# --- Groups (the group rules, issue 30) ----------------------------------------------------
MODEL_RADIUS = 14  # a Group's other models: smaller than the token that carries its label
PIPS_MAX = 6  # more R than this reads as a number: a row of pips would not fit the square
MARK_SIZE = 10  # the letters of a mark chip ("SHK", "BLD")
MARK_COLOURS = {"SHK": "hit", "BLD": "taken_out"}  # Shaken in vermillion, Bloodied in black


def model(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    side: int,
    activated: bool,
    radius: int = MODEL_RADIUS,
) -> None:
    """One of a Group's models past its first: a small disc in its seat's colour (dimmed and
    ringed in ink when the Group has activated, as a token is)."""
    x, y = centre
    box = (x - radius, y - radius, x + radius, y + radius)
    fill = side_colour(side, "dim") if activated else side_colour(side)
    ring = colour("ink") if activated else colour("white")
    draw.ellipse(box, fill=fill, outline=ring, width=2)


def ties(draw: ImageDraw.ImageDraw, points: list[Point], side: int) -> None:
    """A Group's models tied together: a line from each to the nearest one already tied (a
    spanning tree of the shortest ties), in its seat's dark shade."""
    for a, b in spanning_ties(points):
        draw.line((*a, *b), fill=side_colour(side, "dark"), width=4)


def spanning_ties(points: list[Point]) -> list[tuple[Point, Point]]:
    """The ties of a Group's models: from the first, each next the model nearest to any model
    already tied (so every model is tied, and no tie is longer than it must be)."""
    if not points:
        return []
    tied, left, lines = [points[0]], list(points[1:]), []
    while left:
        a, b = min(
            ((a, b) for a in tied for b in left),
            key=lambda pair: (pair[0][0] - pair[1][0]) ** 2 + (pair[0][1] - pair[1][1]) ** 2,
        )
        lines.append((a, b))
        tied.append(b)
        left.remove(b)
    return lines


def mark_chips(draw: ImageDraw.ImageDraw, at: Point, marks: tuple[str, ...]) -> None:
    """A Group's marks ("SHK" Shaken, "BLD" Bloodied) as chips in a row ending at `at`, the
    top-right corner of its first model's square: above the label, clear of its R."""
    x1, y = at
    for mark in reversed(marks):
        width = round(font(MARK_SIZE).getlength(mark)) + 5
        box = (x1 - width, y, x1, y + MARK_SIZE + 2)
        draw.rectangle(box, fill=colour(MARK_COLOURS.get(mark, "label")), outline=colour("white"))
        draw_text(draw, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2 + 1), mark,
                  colour("white"), MARK_SIZE, "mm")  # fmt: skip
        x1 = box[0] - 1


def resilience(draw: ImageDraw.ImageDraw, centre: Point, side: int, r: int, most: int) -> None:
    """A Group's R left under its first model: pips when they fit, else "R 7/9"."""
    if most <= PIPS_MAX:
        pips(draw, None, side, r, most, centre)
        return
    text = f"R {r}/{most}"
    width = round(font(MARK_SIZE).getlength(text)) + 6
    x, y = centre
    box = (x - width // 2, y - MARK_SIZE // 2 - 2, x + width // 2, y + MARK_SIZE // 2 + 2)
    draw.rectangle(box, fill=side_colour(side, "dark"), outline=colour("white"))
    draw_text(draw, (x, y + 1), text, colour("white"), MARK_SIZE, "mm")
