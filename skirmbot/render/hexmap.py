"""A board of dots on the picture (the infantry rules, rulebook 002): its layout and its layers.

The dots are pointy-top hexagons in odd-r rows, placed by `dots.centre` (skirmbot.rules.dots),
so the picture and the rules agree on where every dot is and which way a bearing points. The
layers: the terrain (each dot a hexagon shaded by its level with the level's number, impassable
dots dark with a rock, stairs and ladders marked on their dot, the features on the sides
between dots drawn by kind at their level, the coordinates A-Z across and 1-n down), the firing
arcs (see-through wedges in their side's colour with the shots left written at the wedge), a
trooper's own marks (HP and armour pips, its level, prone) and the thrown explosives waiting
for the end of the turn. What every grid shares (tokens, paths, lines of attack, the header and
the key) is drawn by `battlemap` through this layout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from skirmbot.render import dotsymbols
from skirmbot.render.layout import BAND, CAPTION, MARGIN, band_height
from skirmbot.render.palette import colour, draw_text, font, new_image, side_colour
from skirmbot.render.symbols import SQUARE, Box, Point
from skirmbot.rules.dots import Dot, centre, direction_to
from skirmbot.rules.view import (
    DOTS,
    ArcView,
    DotBoardView,
    MarkerView,
    MatchView,
    PieceView,
    Position,
)

HEX = 40  # a hexagon's circumradius in pixels: a token (46 across) and its pips fit inside
ROOT3 = math.sqrt(3)
ARC_REACH = 5  # dots: how far a firing arc's wedge is drawn (the arc itself reaches further)
LEVEL_SIZE = 13
EXPLOSIVES = ("grenade", "satchel")  # MarkerView kinds of a thrown explosive's token


def as_dot(p: Position) -> Dot:
    """A position of this board, as the dot it is (a square here is a programming error)."""
    if isinstance(p, Dot):
        return p
    raise TypeError(f"{p!r} is not a dot: a position goes back to the board it came from.")


@dataclass(frozen=True, slots=True)
class HexLayout:
    width: int  # dots across
    height: int  # rows of dots
    legend: int = 0  # the key's height in pixels, under the map
    band: int = BAND  # the header band's height: a line more for each seat past two

    @staticmethod
    def of(view: MatchView, legend: int = 0) -> HexLayout:
        if view.grid != DOTS:
            raise ValueError(f"A board of {view.grid} is not laid out as dots.")
        return HexLayout(view.board.width, view.board.height, legend, band_height(len(view.sides)))

    @property
    def header(self) -> int:
        return self.band + CAPTION

    @property
    def map_size(self) -> tuple[int, int]:
        # Odd rows sit half a dot to the right, so a board of two rows or more is that wider.
        across = self.width + (0.5 if self.height > 1 else 0.0)
        down = 2 + 1.5 * (self.height - 1)
        return (
            2 * MARGIN + math.ceil(ROOT3 * HEX * across),
            self.header + 2 * MARGIN + math.ceil(HEX * down),
        )

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.map_size
        return width, height + self.legend

    def point(self, p: Position) -> tuple[float, float]:
        """The dot's centre in the picture, unrounded (where wedges and hexagons are built)."""
        x, y = centre(as_dot(p), HEX)
        return MARGIN + x, self.header + MARGIN + y

    def centre(self, p: Position) -> Point:
        x, y = self.point(p)
        return round(x), round(y)

    def outline(self, p: Position) -> list[Point]:
        """The hexagon's six corners clockwise from the top (as `dots.CORNERS`): side i, from
        corner i to corner i + 1, faces `Direction(i)`."""
        x, y = self.point(p)
        return [
            (round(x + HEX * math.cos(math.radians(a))), round(y + HEX * math.sin(math.radians(a))))
            for a in range(-90, 270, 60)
        ]

    def box(self, p: Position) -> Box:
        """The token's tile on the dot: a SQUARE-sided box centred on it (inside the hexagon
        but for its corners), where a token is pasted and labels keep clear of."""
        x, y = self.centre(p)
        x0, y0 = x - SQUARE // 2, y - SQUARE // 2
        return x0, y0, x0 + SQUARE - 1, y0 + SQUARE - 1

    def edge_line(self, a: Position, b: Position) -> tuple[Point, Point]:
        """The side between neighbouring dots a and b, as two corners of a's hexagon."""
        direction = direction_to(as_dot(a), as_dot(b))
        corners = self.outline(a)
        return corners[direction], corners[(direction + 1) % 6]

    def parse(self, text: str) -> Dot:
        return Dot.parse(text)


# --- terrain -------------------------------------------------------------------------------
def draw_terrain(board: DotBoardView, layout: HexLayout) -> Image.Image:
    """The map of dots with its coordinates (no key): the header band is drawn over it later."""
    image = new_image(*layout.map_size)
    draw = ImageDraw.Draw(image)
    for dot in board.dots():
        _draw_dot(draw, board, layout, dot)
    for edge in sorted(board.edges, key=lambda e: e.level):  # upper floors over lower ones
        a, b = Dot.parse(edge.a), Dot.parse(edge.b)
        start, end = _edge_at_level(board, layout, a, b, edge.level)
        dotsymbols.edge_feature(draw, start, end, edge.kind)
    _draw_coordinates(draw, board, layout)
    return image


def _draw_dot(draw: ImageDraw.ImageDraw, board: DotBoardView, layout: HexLayout, dot: Dot) -> None:
    ground, level = board.ground_of(dot), board.level(dot)
    fill = "impassable" if ground == "impassable" else f"level{min(level, 4)}"
    draw.polygon(layout.outline(dot), fill=colour(fill), outline=colour("grid"))
    cx, cy = layout.centre(dot)
    if ground == "impassable":
        dotsymbols.rock(draw, (cx, cy), HEX // 2)
    elif ground == "stairs":
        dotsymbols.dot_stairs(draw, (cx, cy))
    elif ground == "ladder":
        dotsymbols.dot_ladder(draw, (cx, cy))
    if level and ground != "impassable":  # the level's number under the top corner
        draw_text(draw, (cx, cy - HEX + 14), f"L{level}", colour("label"), LEVEL_SIZE, "mm")


def _edge_at_level(
    board: DotBoardView, layout: HexLayout, a: Dot, b: Dot, level: int
) -> tuple[Point, Point]:
    """Where a side's feature is drawn: on the side at level 0; above it, moved in toward the
    higher dot (a building's upper floor), so a wall on each floor shows as two lines."""
    start, end = layout.edge_line(a, b)
    if level <= 0:
        return start, end
    inner = b if board.level(b) > board.level(a) else a
    cx, cy = layout.centre(inner)
    mx, my = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
    length = max(1.0, math.hypot(cx - mx, cy - my))
    dx = round((cx - mx) / length * dotsymbols.UPPER_SHIFT)
    dy = round((cy - my) / length * dotsymbols.UPPER_SHIFT)
    return (start[0] + dx, start[1] + dy), (end[0] + dx, end[1] + dy)


def _draw_coordinates(draw: ImageDraw.ImageDraw, board: DotBoardView, layout: HexLayout) -> None:
    width, height = layout.map_size
    top, bottom = layout.header + MARGIN // 2, height - MARGIN // 2
    face = font(17)
    for x in range(board.width):
        cx, _ = layout.centre(Dot(x, 0))
        for y in (top, bottom):
            draw.text((cx, y), chr(ord("A") + x), fill=colour("label"), font=face, anchor="mm")
    for y in range(board.height):
        _, cy = layout.centre(Dot(0, y))
        for x in (MARGIN // 2, width - MARGIN // 2):
            draw.text((x, cy), str(y + 1), fill=colour("label"), font=face, anchor="mm")


# --- firing arcs ---------------------------------------------------------------------------
def draw_arcs(image: Image.Image, layout: HexLayout, arcs: tuple[ArcView, ...]) -> None:
    """Every firing arc as a see-through wedge from its vertex, the shots left at its far end;
    kept to the map inside its coordinates (a wedge never spills onto the margins or the key)."""
    if not arcs:
        return
    width, height = layout.map_size
    left, top = MARGIN, layout.header + MARGIN
    area = image.crop((left, top, width - MARGIN, height - MARGIN))
    reach = ARC_REACH * ROOT3 * HEX

    def vertex(arc: ArcView) -> Point:
        x, y = layout.centre(Dot.parse(arc.vertex))
        return x - left, y - top

    for arc in arcs:
        dotsymbols.arc_wedge(area, vertex(arc), arc.facing, arc.width, reach, arc.side)
    draw = ImageDraw.Draw(area)
    for arc in arcs:  # the numbers over every wedge
        at = dotsymbols.arc_point(vertex(arc), arc.facing, reach - dotsymbols.ARC_LABEL - 4)
        dotsymbols.arc_shots(draw, at, arc.shots, arc.side)
    image.paste(area, (left, top))


# --- a trooper's marks and the explosives --------------------------------------------------
def trooper_marks(draw: ImageDraw.ImageDraw, layout: HexLayout, piece: PieceView) -> None:
    """Over a trooper's token: HP pips under it (`hit` of `max_hit`), armour pips under those,
    its level on the token's top-left ("L1") and a "P" on its top-right when prone."""
    if piece.square is None:
        return
    cx, cy = layout.centre(piece.square)
    x0, y0, x1, _ = layout.box(piece.square)
    if piece.max_hit:
        fill = side_colour(piece.side, "dark")
        dotsymbols.pip_row(draw, (cx, cy + 23), piece.hit or 0, piece.max_hit, fill)
    if piece.max_armour:
        dotsymbols.pip_row(draw, (cx, cy + 29), piece.armour or 0, piece.max_armour,
                           colour("label"))  # fmt: skip
    if piece.level:
        dotsymbols.chip(draw, (x0 + 2, y0 + 1), f"L{piece.level}", "label", right=False)
    if piece.prone:
        dotsymbols.chip(draw, (x1 - 2, y0 + 1), "P", "ink", right=True)


def draw_explosives(
    draw: ImageDraw.ImageDraw, layout: HexLayout, markers: tuple[MarkerView, ...]
) -> None:
    """Thrown grenades and satchel charges on their dots, over the tokens (a trooper on the dot
    is what the token threatens), at the tile's bottom-right."""
    for marker in markers:
        if marker.kind in EXPLOSIVES and marker.square is not None:
            _, _, x1, y1 = layout.box(marker.square)
            dotsymbols.explosive(draw, (x1 - 12, y1 - 14), marker.kind)
