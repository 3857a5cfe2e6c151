"""The preview picture (issue 21): the battlemap with a unit's options drawn on it.

The battlemap as `MapRenderer` draws it (with the previewed unit on the square it is previewed
on), then: every square the unit can reach tinted by the first action that reaches it (Dash,
Move, Leap: three tints, see-through, so the terrain stays readable), the unit ringed in gold,
each enemy it could attack labelled with each weapon's "62% · 1.4 dmg" (the chance to hit and
the expected HIT lost) under its token, each enemy that could attack it there labelled above
its token in vermilion, and a key of these marks under the map.

The tints are extra entries of the picture's palette: each tint maps every colour of the fixed
palette to the colour seen through it, so a square is tinted by remapping its pixels (no RGB
image, no blending, no quantizing).
"""

from __future__ import annotations

import copy
import io
from collections import defaultdict
from dataclasses import replace

from PIL import Image, ImageDraw

from skirmbot.render.battlemap import BAND, CAPTION, HEADER, MARGIN, Layout, MapRenderer
from skirmbot.render.palette import COLOURS, NAMES, colour, draw_text, font, palette_bytes
from skirmbot.render.symbols import Box
from skirmbot.rules.preview import DASH, LEAP, MOVE, MOVEMENTS, Chance, Preview
from skirmbot.rules.skirm.state import MatchState
from skirmbot.rules.squares import Square

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
WEAPON_LETTERS = 9  # a weapon's name on a label is cut to this many letters


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


class PreviewRenderer:
    """Draws preview pictures; keeps a MapRenderer (its terrain and tokens) between them."""

    def __init__(self, maps: MapRenderer | None = None) -> None:
        self.maps = maps or MapRenderer()

    def render(self, state: MatchState, preview: Preview) -> Image.Image:
        seen = _as_previewed(state, preview)
        base = self.maps.render(seen)
        layout = Layout(seen.board.width, seen.board.height)
        image = Image.new("P", (base.width, base.height + KEY_HEIGHT), colour("background"))
        image.putpalette(PALETTE)
        image.paste(base, (0, 0))
        for reach in preview.reach:
            _tint(image, layout, reach.square, reach.action)
        draw = ImageDraw.Draw(image)
        _ring(draw, layout, preview.square, colour("gold"), 4)
        if preview.as_if:
            _ring(draw, layout, state.units[preview.unit].square, colour("gold"), 1)
        _caption(draw, base.width, preview)
        taken: list[Box] = []
        _labels(draw, image.size, layout, seen, preview.attacks, taken, below=True)
        _labels(draw, image.size, layout, seen, preview.threats, taken, below=False)
        _key(draw, base.width, base.height, preview)
        return image

    def png(self, state: MatchState, preview: Preview) -> bytes:
        buffer = io.BytesIO()
        self.render(state, preview).save(buffer, "PNG", compress_level=1)
        return buffer.getvalue()


def _as_previewed(state: MatchState, preview: Preview) -> MatchState:
    """The state to draw: the unit on the square it is previewed on (a shallow copy: the live
    state and its units are left as they are)."""
    unit = state.units[preview.unit]
    if unit.square == preview.square:
        return state
    seen = copy.copy(state)
    seen.units = {**state.units, unit.id: replace(unit, square=preview.square)}
    return seen


def _tint(image: Image.Image, layout: Layout, square: Square, action: str) -> None:
    table = TABLES.get(action)
    x0, y0, x1, y1 = layout.box(square)
    box = (x0 + 1, y0 + 1, x1, y1)  # inside the grid lines
    if table is None:  # no room for tints in the palette: a frame instead
        ImageDraw.Draw(image).rectangle(box, outline=colour("objective"), width=3)
        return
    image.paste(image.crop(box).point(table), box[:2])


def _ring(
    draw: ImageDraw.ImageDraw, layout: Layout, square: Square | None, fill: int, width: int
) -> None:
    if square is None:
        return
    x0, y0, x1, y1 = layout.box(square)
    draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=fill, width=width)


def _caption(draw: ImageDraw.ImageDraw, width: int, preview: Preview) -> None:
    where = f"as if on {preview.square}" if preview.as_if else f"on {preview.square}"
    targets = len({c.target for c in preview.attacks})
    text = (
        f"Preview: {preview.unit} {where} · {len(preview.reach)} squares to reach · "
        f"{targets} {'target' if targets == 1 else 'targets'}"
    )
    if preview.as_if:
        threats = len({c.attacker for c in preview.threats})
        text += f" · {threats} {'threat' if threats == 1 else 'threats'} there"
    draw.rectangle((0, BAND, width, BAND + CAPTION - 2), fill=colour("caption"))
    draw_text(draw, (12, BAND + CAPTION // 2), text, colour("ink"), 17, "lm")


def _labels(
    draw: ImageDraw.ImageDraw,
    size: tuple[int, int],
    layout: Layout,
    state: MatchState,
    chances: tuple[Chance, ...],
    taken: list[Box],
    *,
    below: bool,
) -> None:
    """One box per enemy: a line per weapon, under its square (its odds against the enemy) or
    above it (the enemy's odds against the previewed unit), moved along until it covers no box
    drawn before (`taken`: neighbours' labels stay readable)."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for chance in chances:
        enemy = chance.target if below else chance.attacker
        grouped[enemy].append(f"{chance.weapon[:WEAPON_LETTERS]} {chance.short()}")
    face = font(LABEL_SIZE)
    line_height = LABEL_SIZE + 4
    ink = colour("ink") if below else colour("hit")
    for enemy, lines in grouped.items():
        square = state.units[enemy].square
        if square is None:
            continue
        x0, y0, x1, y1 = layout.box(square)
        width = int(max(face.getlength(line) for line in lines)) + 20  # the glyphs overhang
        height = line_height * len(lines) + 8
        left = min(max(2, (x0 + x1) // 2 - width // 2), size[0] - width - 2)
        top = y1 - 14 if below else y0 - height + 14
        box = _free_box(left, top, width, height, taken, size, 1 if below else -1)
        taken.append(box)
        draw.rectangle(box, fill=colour("white"), outline=ink, width=2)
        for number, line in enumerate(lines):
            draw_text(draw, (box[0] + 6, box[1] + 4 + number * line_height), line, ink, LABEL_SIZE)


def _free_box(
    left: int, top: int, width: int, height: int, taken: list[Box], size: tuple[int, int], step: int
) -> Box:
    """The box at (left, top), or moved down (`step` 1) or up (-1) a few pixels at a time
    until it overlaps none of `taken`; kept on the picture above the key."""
    lowest = size[1] - KEY_HEIGHT - height - 2
    box = (left, top, left + width, top + height)
    for shift in range(0, 8 * height, 4):
        y = min(max(HEADER + 2, top + step * shift), lowest)
        box = (left, y, left + width, y + height)
        if not any(_overlap(box, other) for other in taken):
            return box
    return box


def _overlap(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _key(draw: ImageDraw.ImageDraw, width: int, top: int, preview: Preview) -> None:
    """Under the map: the three tints, and what the labels' numbers are."""
    draw.line((0, top, width, top), fill=colour("grid"))
    x, y = MARGIN, top + 10
    for action in MOVEMENTS:
        if action == LEAP and not preview.reach_by(LEAP):
            continue
        tint = TABLES.get(action)
        fill = tint[colour("level0")] if tint else colour("objective")
        draw.rectangle((x, y, x + 18, y + 18), fill=fill, outline=colour("grid"))
        draw_text(draw, (x + 24, y + 9), WORDS[action], colour("ink"), KEY_SIZE, "lm")
        x += 24 + int(font(KEY_SIZE).getlength(WORDS[action])) + 24
    draw.rectangle((x, y, x + 18, y + 18), outline=colour("gold"), width=3)
    draw_text(draw, (x + 24, y + 9), preview.unit, colour("ink"), KEY_SIZE, "lm")
    y += 26
    text = "Labels: chance to hit · expected HIT lost, without TO"
    draw_text(draw, (MARGIN, y + 9), text, colour("ink"), KEY_SIZE, "lm")
    if preview.as_if:
        x = MARGIN + int(font(KEY_SIZE).getlength(text)) + 16
        draw_text(draw, (x, y + 9), "red: against it", colour("hit"), KEY_SIZE, "lm")
