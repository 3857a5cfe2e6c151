"""The preview picture (issue 21): the battlemap with a unit's options drawn on it.

The battlemap as `MapRenderer` draws it (with the previewed unit on the square it is previewed
on), then: every square the unit can reach tinted by the first action that reaches it (Dash,
Move, Leap: three tints, see-through, so the terrain stays readable), the unit ringed in gold,
each enemy it could attack labelled with its name and each weapon's "62% · 1.4 dmg" (the
chance to hit and the expected HIT lost) under its token, each enemy that could attack it there
labelled above its token in vermilion (a label moves aside rather than cover a token or another
label), and a key of these marks under the map.

The tints are extra entries of the picture's palette: each tint maps every colour of the fixed
palette to the colour seen through it, so a square is tinted by remapping its pixels (no RGB
image, no blending, no quantizing).
"""

from __future__ import annotations

import io
import threading
from collections import defaultdict
from dataclasses import replace

from PIL import Image, ImageDraw

from skirmbot.render.battlemap import MapRenderer, layout_of
from skirmbot.render.layout import CAPTION, MARGIN, MapLayout
from skirmbot.render.palette import (
    COLOURS,
    NAMES,
    colour,
    draw_text,
    font,
    palette_bytes,
    with_seat_colours,
)
from skirmbot.render.squaremap import SquareLayout
from skirmbot.render.symbols import Box
from skirmbot.rules.preview import DASH, LEAP, MOVE, MOVEMENTS, Chance, Preview
from skirmbot.rules.view import DOTS, MatchView, Position

TINTS: dict[str, tuple[int, int, int]] = {
    DASH: (0, 158, 115),  # Okabe-Ito bluish green: the nearest squares
    MOVE: (86, 180, 233),  # Okabe-Ito sky blue
    LEAP: (204, 121, 167),  # Okabe-Ito reddish purple
}
WORDS = {DASH: "Dash", MOVE: "Move", LEAP: "Leap"}
STRENGTH = 0.38  # how much of the tint shows over the terrain
LABEL_SIZE = 13
KEY_SIZE = 15
KEY_HEIGHT = 64
WEAPON_LETTERS = 12  # a weapon's name on a label is cut to this many letters


def _blend(base: tuple[int, int, int], tint: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(round(b + (t - b) * STRENGTH) for b, t in zip(base, tint, strict=True))  # type: ignore[return-value]


def _tinted_palette() -> tuple[bytes, dict[str, list[int]]]:
    """The fixed palette, then one block per tint (each fixed colour seen through it), and the
    lookup tables that send a pixel to its tinted colour."""
    count = len(NAMES)
    if count * (1 + len(TINTS)) > 256:  # the palette grew past what tints fit in
        return palette_bytes(), {}
    flat = list(palette_bytes()[: 3 * count])
    tables: dict[str, list[int]] = {}
    for block, (action, tint) in enumerate(TINTS.items(), start=1):
        for name in NAMES:
            flat += _blend(COLOURS[name], tint)
        table = list(range(256))
        table[:count] = [block * count + i for i in range(count)]
        tables[action] = table
    return bytes(flat + [0] * (768 - len(flat))), tables


PALETTE, TABLES = _tinted_palette()


def _seats_palette(seats: int) -> bytes:
    """The tinted palette, with the colours of the seats past the second (never tinted: they
    sit at the palette's top, past the tint blocks) when the picture has them."""
    return with_seat_colours(PALETTE) if seats > 2 else PALETTE


class PreviewRenderer:
    """Draws preview pictures; keeps a MapRenderer (its terrain and tokens) between them."""

    def __init__(self, maps: MapRenderer | None = None) -> None:
        self.maps = maps or MapRenderer()
        # Previews are drawn in worker threads: both players of a match may ask at once, and
        # the MapRenderer's caches (it evicts old legends) are not for two threads at a time.
        self._lock = threading.Lock()

    def render(self, view: MatchView, preview: Preview) -> Image.Image:
        seen = _as_previewed(view, preview)
        base = self.maps.render(seen)
        layout = layout_of(seen)
        image = Image.new("P", (base.width, base.height + KEY_HEIGHT), colour("background"))
        image.putpalette(_seats_palette(len(view.sides)))
        image.paste(base, (0, 0))
        for reach in preview.reach:
            _tint(image, layout, reach.square, reach.action)
        draw = ImageDraw.Draw(image)
        _ring(draw, layout, preview.square, colour("gold"), 4)
        if preview.as_if:
            _ring(draw, layout, _square_of(view, preview.unit), colour("gold"), 1)
        _caption(draw, base.width, layout.band, preview, _places(view))
        taken = obstacles(layout, seen, preview)
        area = (image.width, layout.map_size[1])  # labels stay off the map's legend and key
        _labels(draw, area, layout, seen, preview.attacks, taken, below=True)
        _labels(draw, area, layout, seen, preview.threats, taken, below=False)
        _key(draw, base.width, base.height, preview)
        return image

    def png(self, view: MatchView, preview: Preview) -> bytes:
        with self._lock:
            image = self.render(view, preview)
        buffer = io.BytesIO()
        image.save(buffer, "PNG", compress_level=1)
        return buffer.getvalue()


def _as_previewed(view: MatchView, preview: Preview) -> MatchView:
    """The view to draw: the unit on the square it is previewed on."""
    piece = view.piece(preview.unit)
    if piece is None or piece.square == preview.square:
        return view
    moved = replace(piece, squares=(preview.square,))
    return replace(view, pieces=tuple(moved if p is piece else p for p in view.pieces))


def _square_of(view: MatchView, unit: str) -> Position | None:
    piece = view.piece(unit)
    return piece.square if piece is not None else None


def _tint(image: Image.Image, layout: MapLayout, where: Position, action: str) -> None:
    """Tint the cell's inside (its outline: a square or a hexagon), its grid line left clear."""
    table = TABLES.get(action)
    corners = layout.outline(where)
    if table is None:  # no room for tints in the palette: a frame instead
        ImageDraw.Draw(image).polygon(corners, outline=colour("objective"), width=3)
        return
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    box = (min(xs), min(ys), max(xs) + 1, max(ys) + 1)
    inside = Image.new("1", (box[2] - box[0], box[3] - box[1]), 0)
    local = [(x - box[0], y - box[1]) for x, y in corners]
    ImageDraw.Draw(inside).polygon(local, fill=1, outline=0)  # the outline stays untinted
    image.paste(image.crop(box).point(table), box[:2], inside)


def _ring(
    draw: ImageDraw.ImageDraw, layout: MapLayout, where: Position | None, fill: int, width: int
) -> None:
    if where is None:
        return
    if isinstance(layout, SquareLayout):
        x0, y0, x1, y1 = layout.box(where)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=fill, width=width)
    else:
        draw.polygon(layout.outline(where), outline=fill, width=width)


def _places(view: MatchView) -> str:
    """What the board's places are called, for the caption's count."""
    return "dots" if view.grid == DOTS else "squares"


def _caption(
    draw: ImageDraw.ImageDraw, width: int, band: int, preview: Preview, places: str
) -> None:
    where = f"as if on {preview.square}" if preview.as_if else f"on {preview.square}"
    targets = len({c.target for c in preview.attacks})
    text = (
        f"Preview: {preview.unit} {where} · {len(preview.reach)} {places} to reach · "
        f"{targets} {'target' if targets == 1 else 'targets'}"
    )
    if preview.as_if:
        threats = len({c.attacker for c in preview.threats})
        text += f" · {threats} {'threat' if threats == 1 else 'threats'} there"
    draw.rectangle((0, band, width, band + CAPTION - 2), fill=colour("caption"))
    draw_text(draw, (12, band + CAPTION // 2), text, colour("ink"), 17, "lm")


def _labels(
    draw: ImageDraw.ImageDraw,
    area: tuple[int, int],
    layout: MapLayout,
    view: MatchView,
    chances: tuple[Chance, ...],
    taken: list[Box],
    *,
    below: bool,
) -> None:
    """One box per enemy: its name, then a line per weapon (its odds against the enemy, in
    ink, or the enemy's against the previewed unit, in vermilion), under its square or above
    it, else beside it, else moved along: where it covers no token and no box drawn before
    (`taken`), so the units, their HIT left and the neighbours' labels stay readable. The
    name tells whose box it is when a crowded map moves it away from its unit."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for chance in chances:
        enemy = chance.target if below else chance.attacker
        grouped[enemy].append(f"{chance.weapon[:WEAPON_LETTERS].rstrip()} {chance.short()}")
    face = font(LABEL_SIZE)
    line_height = LABEL_SIZE + 4
    ink = colour("ink") if below else colour("hit")
    for enemy, weapons in grouped.items():
        square = _square_of(view, enemy)
        if square is None:
            continue
        lines = [enemy, *weapons]
        width = int(max(face.getlength(line) for line in lines)) + 20  # the glyphs overhang
        height = line_height * len(lines) + 8
        box = _free_box(layout.box(square), width, height, taken, area, below, layout.header)
        taken.append(box)
        draw.rectangle(box, fill=colour("white"), outline=ink, width=2)
        for number, line in enumerate(lines):
            at = (box[0] + 6, box[1] + 4 + number * line_height)
            draw_text(draw, at, line, ink, LABEL_SIZE)


def obstacles(layout: MapLayout, view: MatchView, preview: Preview) -> list[Box]:
    """What a label must not cover: every unit's token with its HIT marks, and the previewed
    unit's squares (where it is previewed and where it stands)."""
    squares: set[Position | None] = {
        square for p in view.pieces if p.on_map for square in p.squares
    }
    squares |= {preview.square, _square_of(view, preview.unit)}
    inset = 6  # a token's ring and marks stay inside its square
    return [
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
        for x0, y0, x1, y1 in (layout.box(square) for square in squares if square is not None)
    ]


def _free_box(
    square: Box,
    width: int,
    height: int,
    taken: list[Box],
    area: tuple[int, int],
    below: bool,
    header: int,
) -> Box:
    """Where a label of this size goes for the unit on `square`: under it (`below`) or above
    it, then on the other side, then beside it, then moved further down or up a few pixels at a
    time, the first place that overlaps none of `taken`; kept on the map (`area`: its width and
    bottom), under the header. Where every place overlaps something, the one overlapping least."""
    x0, y0, x1, y1 = square
    centre = (x0 + x1) // 2
    under, over = y1 + 1, y0 - height - 1
    first, second = (under, over) if below else (over, under)
    middle = (y0 + y1) // 2 - height // 2
    places = [
        (centre - width // 2, first),
        (centre - width // 2, second),
        (x1 + 1, middle),
        (x0 - width - 1, middle),
    ]
    step = 1 if below else -1
    places += [(centre - width // 2, first + step * shift) for shift in range(4, 8 * height, 4)]
    places += [(centre - width // 2, second - step * shift) for shift in range(4, 8 * height, 4)]
    lowest, rightmost = area[1] - height - 2, area[0] - width - 2
    best: Box | None = None
    fewest = len(taken) + 1
    for left, top in places:
        x = min(max(2, left), rightmost)
        y = min(max(header + 2, top), lowest)
        box = (x, y, x + width, y + height)
        overlaps = sum(1 for other in taken if _overlap(box, other))
        if overlaps == 0:
            return box
        if overlaps < fewest:
            best, fewest = box, overlaps
    assert best is not None
    return best


def _overlap(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def odds_words(preview: Preview, *, labels: bool = False) -> str:
    """What a preview's numbers are: Skirm's chance to hit and HIT lost (or a ruleset's own
    terms: `Preview.terms`), or the chance to win
    an opposed roll (the d20 rules), which the labels give without bonus dice and the text
    with each number of them."""
    if not any(chance.opposed for chance in (*preview.attacks, *preview.threats)):
        return preview.terms.heading
    if labels:
        return "chance to win the opposed roll, without bonus dice"
    return "chance to win the opposed roll, without and with bonus dice"


def _key(draw: ImageDraw.ImageDraw, width: int, top: int, preview: Preview) -> None:
    """Under the map: the three tints, and what the labels' numbers are."""
    draw.line((0, top, width, top), fill=colour("grid"))
    x, y = MARGIN, top + 10
    for action in MOVEMENTS:
        if action != MOVE and not preview.reach_by(action):  # no Dash in the infantry rules
            continue
        tint = TABLES.get(action)
        fill = tint[colour("level0")] if tint else colour("objective")
        draw.rectangle((x, y, x + 18, y + 18), fill=fill, outline=colour("grid"))
        draw_text(draw, (x + 24, y + 9), WORDS[action], colour("ink"), KEY_SIZE, "lm")
        x += 24 + int(font(KEY_SIZE).getlength(WORDS[action])) + 24
    draw.rectangle((x, y, x + 18, y + 18), outline=colour("gold"), width=3)
    draw_text(draw, (x + 24, y + 9), preview.unit, colour("ink"), KEY_SIZE, "lm")
    y += 26
    text = f"Labels: {odds_words(preview, labels=True)}"
    draw_text(draw, (MARGIN, y + 9), text, colour("ink"), KEY_SIZE, "lm")
    if preview.as_if:
        x = MARGIN + int(font(KEY_SIZE).getlength(text)) + 16
        draw_text(draw, (x, y + 9), "red: against it", colour("hit"), KEY_SIZE, "lm")
