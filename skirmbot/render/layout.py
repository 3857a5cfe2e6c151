"""Where things go on a battlemap picture, whichever grid the board is.

The picture's bands are fixed (the header band, the caption line, the coordinate margins); the
map between them is laid out by the board's grid: `render/squaremap.py` for the kernel's squares,
`render/hexmap.py` for the infantry rules' dots. Everything drawn on the map (tokens, paths,
lines of attack, objectives, the preview's tints) asks its `MapLayout` where a position is, so
it never knows which grid it is drawing on.
"""

from __future__ import annotations

from typing import Protocol

from skirmbot.render.symbols import Box, Point
from skirmbot.rules.view import Position

MARGIN = 26  # the coordinate strips on all four sides
TITLE = 36  # the header's first line: the turn and mission
SIDE_LINE = 28  # then one line per squad (seat)
BAND = TITLE + 2 * SIDE_LINE + 2  # the dark header band of two seats
CAPTION = 36  # the caption line under the band
HEADER = BAND + CAPTION


def band_height(seats: int) -> int:
    return TITLE + max(2, seats) * SIDE_LINE + 2


class MapLayout(Protocol):
    """A board's layout on the picture: pixel places of its positions, and the picture's size."""

    @property
    def band(self) -> int: ...

    @property
    def legend(self) -> int: ...

    @property
    def header(self) -> int:
        """The band and the caption: where the map's coordinates begin."""
        ...

    @property
    def map_size(self) -> tuple[int, int]:
        """The header and the map with its coordinates, without the key."""
        ...

    @property
    def size(self) -> tuple[int, int]: ...

    def centre(self, p: Position) -> Point: ...

    def outline(self, p: Position) -> list[Point]:
        """The position's cell as a polygon (a square's four corners, a hexagon's six)."""
        ...

    def box(self, p: Position) -> Box:
        """The bounding box of the position's cell, right and bottom inclusive."""
        ...

    def edge_line(self, a: Position, b: Position) -> tuple[Point, Point]:
        """The side between neighbouring cells a and b."""
        ...

    def parse(self, text: str) -> Position:
        """A position's name as events write it ("C4") read back on this grid."""
        ...
