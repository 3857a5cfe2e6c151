"""A board of squares on the picture (Skirm, Lite, the d20 rules, the group rules): its layout,
and its terrain layer (levels, difficult and impassable squares, walls, doors, ladders, stairs,
the grid and the coordinates)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from skirmbot.render import symbols
from skirmbot.render.layout import BAND, CAPTION, MARGIN, band_height
from skirmbot.render.palette import colour, font, new_image
from skirmbot.render.symbols import SQUARE, Box, Point
from skirmbot.rules.board import Board
from skirmbot.rules.squares import Square, own_square
from skirmbot.rules.view import SQUARES, MatchView, Position


def as_square(p: Position) -> Square:
    """A position of this board, as the square it is (a dot here is a programming error)."""
    square = own_square(p)
    if square is None:
        raise TypeError("a square board lays out squares, not None")
    return square


@dataclass(frozen=True, slots=True)
class SquareLayout:
    width: int  # squares
    height: int
    legend: int = 0  # the key's height in pixels, under the map
    band: int = BAND  # the header band's height: a line more for each seat past two

    @staticmethod
    def of(view: MatchView, legend: int = 0) -> SquareLayout:
        """The layout of the view's board of squares; a board of another grid is refused
        (`battlemap.layout_of` picks the layout for any grid)."""
        if view.grid != SQUARES:
            raise ValueError(f"A board of {view.grid} is not laid out as squares.")
        return SquareLayout(
            view.board.width, view.board.height, legend, band_height(len(view.sides))
        )

    @property
    def header(self) -> int:
        """The band and the caption: where the map's coordinates begin."""
        return self.band + CAPTION

    @property
    def map_size(self) -> tuple[int, int]:
        """The header and the map with its coordinates, without the key."""
        return 2 * MARGIN + self.width * SQUARE, self.header + 2 * MARGIN + self.height * SQUARE

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.map_size
        return width, height + self.legend

    def box(self, p: Position) -> Box:
        square = as_square(p)
        x0, y0 = MARGIN + square.x * SQUARE, self.header + MARGIN + square.y * SQUARE
        return x0, y0, x0 + SQUARE - 1, y0 + SQUARE - 1

    def centre(self, p: Position) -> Point:
        x0, y0, _, _ = self.box(p)
        return x0 + SQUARE // 2, y0 + SQUARE // 2

    def outline(self, p: Position) -> list[Point]:
        x0, y0, x1, y1 = self.box(p)
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

    def edge_line(self, a: Position, b: Position) -> tuple[Point, Point]:
        """The grid line between orthogonal neighbours a and b."""
        first, second = as_square(a), as_square(b)
        low, high = (first, second) if first < second else (second, first)
        x0, y0, x1, y1 = self.box(high)
        if low.y == high.y:  # side by side: the vertical line on high's left
            return (x0, y0), (x0, y1 + 1)
        return (x0, y0), (x1 + 1, y0)  # one above the other: the horizontal line on high's top

    def parse(self, text: str) -> Square:
        return Square.parse(text)


EDGE_MARK_GAP = 3  # pixels kept clear between a level label and a stair or ladder mark


# --- terrain -------------------------------------------------------------------------------
def draw_terrain(board: Board, layout: SquareLayout) -> Image.Image:
    """The header band's background, the squares, edges and coordinates (no key)."""
    image = new_image(*layout.map_size)
    draw = ImageDraw.Draw(image)
    for square in board.squares():
        _draw_square(image, board, layout, square)
    for square in board.squares():
        x0, y0, x1, y1 = layout.box(square)
        draw.rectangle((x0, y0, x1 + 1, y1 + 1), outline=colour("grid"))
    _draw_level_faces(draw, board, layout)
    for (a, b), feature in board.edges():
        if feature.stairs:
            symbols.steps(draw, stair_lines(board, layout, a, b))
        elif board.has_door(a, b):
            symbols.door(draw, *layout.edge_line(a, b), is_open=not board.door_closed(a, b))
        elif feature.wall:
            symbols.wall(draw, *layout.edge_line(a, b), feature.wall)
        if feature.climbable:
            symbols.ladder(draw, *ladder_line(board, layout, a, b))
    _draw_coordinates(draw, board, layout)
    return image


def _draw_square(image: Image.Image, board: Board, layout: SquareLayout, square: Square) -> None:
    x0, y0, _, _ = layout.box(square)
    if square in board.impassable:
        image.paste(symbols.impassable_tile(), (x0, y0))
        return
    level = board.level(square)
    image.paste(symbols.ground_tile(level, square in board.difficult), (x0, y0))
    if level:
        symbols.level_label(ImageDraw.Draw(image), x0, y0, level)


def level_label_box(board: Board, layout: SquareLayout, square: Square) -> Box | None:
    """Where the square's level label (`L1`, `L2`...) is drawn; None on level 0 or impassable."""
    if not board.is_open(square) or not board.level(square):
        return None
    x0, y0, _, _ = layout.box(square)
    return symbols.level_label_box(x0, y0, board.level(square))


def _clear_span(
    board: Board, layout: SquareLayout, a: Square, b: Square, across: tuple[int, int], inset: int
) -> tuple[int, int]:
    """The stretch along the edge between a and b (pixel coordinates along it, `inset` in from
    each end) where a mark reaching `across` pixels either side of the edge (negative: left or
    up) touches neither square's level label."""
    (x0, y0), (x1, y1) = layout.edge_line(a, b)
    vertical = x0 == x1
    line = x0 if vertical else y0
    low, high = (y0, y1) if vertical else (x0, x1)
    low, high = low + inset, high - inset
    for square in (a, b):
        label = level_label_box(board, layout, square)
        if label is None:
            continue
        near, far = (label[0], label[2]) if vertical else (label[1], label[3])  # across the edge
        start, end = (label[1], label[3]) if vertical else (label[0], label[2])  # along it
        if far < line + across[0] - EDGE_MARK_GAP or near > line + across[1] + EDGE_MARK_GAP:
            continue
        if end < low - EDGE_MARK_GAP or start > high + EDGE_MARK_GAP:
            continue
        if start - low < high - end:  # the label sits near the start of the edge
            low = end + EDGE_MARK_GAP + 1
        else:
            high = start - EDGE_MARK_GAP - 1
    return low, high


def stair_lines(
    board: Board, layout: SquareLayout, a: Square, b: Square
) -> list[tuple[Point, Point]]:
    """Steps: lines parallel to the edge in the lower square, clear of the level labels."""
    lower, upper = (a, b) if board.level(a) <= board.level(b) else (b, a)
    (x0, y0), (x1, _) = layout.edge_line(a, b)
    vertical = x0 == x1
    # Into the lower square: left or up when it is the left or upper one, else right or down.
    sign = -1 if (lower.x < upper.x if vertical else lower.y < upper.y) else 1
    offsets = [sign * d for d in symbols.STEP_OFFSETS]
    half = symbols.STEP_WIDTH // 2 + 1
    low, high = _clear_span(board, layout, a, b, (min(offsets) - half, max(offsets) + half), 8)
    if vertical:
        return [((x0 + d, low), (x0 + d, high)) for d in offsets]
    return [((low, y0 + d), (high, y0 + d)) for d in offsets]


def ladder_line(board: Board, layout: SquareLayout, a: Square, b: Square) -> tuple[Point, Point]:
    """Where a ladder's rails run along the edge, clear of the level labels."""
    reach = symbols.LADDER_HALF_WIDTH + 2
    low, high = _clear_span(board, layout, a, b, (-reach, reach), 14)
    (x0, y0), (x1, _) = layout.edge_line(a, b)
    return ((x0, low), (x0, high)) if x0 == x1 else ((low, y0), (high, y0))


def _draw_level_faces(draw: ImageDraw.ImageDraw, board: Board, layout: SquareLayout) -> None:
    """A drop between levels without a wall: a dark line on the edge, thicker for higher drops."""
    for square in board.squares():
        for other in (square.offset(1, 0), square.offset(0, 1)):
            if not (board.is_open(square) and board.is_open(other)):
                continue
            drop = abs(board.level(square) - board.level(other))
            if drop and not board.feature(square, other).wall and not board.has_door(square, other):
                symbols.ledge(draw, *layout.edge_line(square, other), drop)


def _draw_coordinates(draw: ImageDraw.ImageDraw, board: Board, layout: SquareLayout) -> None:
    width, height = layout.map_size
    top, bottom = layout.header + MARGIN // 2, height - MARGIN // 2
    for x in range(board.width):
        cx = MARGIN + x * SQUARE + SQUARE // 2
        letter = chr(ord("A") + x)
        for y in (top, bottom):
            draw.text((cx, y), letter, fill=colour("label"), font=font(17), anchor="mm")
    for y in range(board.height):
        cy = layout.header + MARGIN + y * SQUARE + SQUARE // 2
        for x in (MARGIN // 2, width - MARGIN // 2):
            draw.text((x, cy), str(y + 1), fill=colour("label"), font=font(17), anchor="mm")
