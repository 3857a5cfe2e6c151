"""The fixed palette and fonts every picture uses.

Pictures are drawn in palette mode ("P") with this one palette: a PNG of one byte per pixel
encodes several times faster than RGB, needs no quantizing, and every frame of an animated replay
shares it. The squad colours are the Okabe-Ito blue and orange, told apart with the common
forms of colour blindness; hits, misses and Taken Out differ by line style as well as colour.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

COLOURS: dict[str, tuple[int, int, int]] = {
    "background": (250, 248, 242),
    "ink": (30, 30, 34),
    "grid": (150, 146, 136),
    "label": (70, 68, 64),
    "white": (255, 255, 255),
    "header": (38, 42, 52),
    "header_text": (245, 245, 240),
    "level0": (236, 232, 222),
    "level1": (214, 206, 188),
    "level2": (190, 180, 158),
    "level3": (166, 154, 130),
    "level4": (142, 130, 106),
    "difficult": (120, 140, 90),
    "impassable": (64, 64, 70),
    "impassable_mark": (110, 110, 118),
    "wall_low": (120, 100, 80),
    "wall_high": (40, 34, 30),
    "door": (150, 90, 40),
    "door_open": (222, 190, 150),
    "ladder": (90, 70, 40),
    "stairs": (120, 110, 96),
    "side0": (0, 114, 178),  # Okabe-Ito blue
    "side0_dim": (150, 190, 215),
    "side0_dark": (0, 70, 115),
    "side1": (230, 159, 0),  # Okabe-Ito orange
    "side1_dim": (240, 205, 140),
    "side1_dark": (150, 95, 0),
    "neutral": (120, 120, 120),
    "hit": (213, 94, 0),  # Okabe-Ito vermillion
    "miss": (110, 110, 110),
    "taken_out": (20, 20, 20),
    "crate": (160, 110, 50),
    "barrel": (204, 121, 167),  # Okabe-Ito reddish purple
    "turret": (86, 180, 233),  # Okabe-Ito sky blue
    "objective": (0, 158, 115),  # Okabe-Ito bluish green
    "pip_empty": (200, 200, 200),
    "gold": (240, 228, 66),  # Okabe-Ito yellow
    "caption": (255, 246, 218),
}
NAMES = list(COLOURS)
INDEX = {name: number for number, name in enumerate(NAMES)}


def colour(name: str) -> int:
    """The palette index of a named colour (what ImageDraw wants on a "P" image)."""
    return INDEX[name]


def side_colour(side: int, shade: str = "") -> int:
    return INDEX[f"side{side}{'_' + shade if shade else ''}"]


@cache
def palette_bytes() -> bytes:
    flat = [channel for name in NAMES for channel in COLOURS[name]]
    return bytes(flat + [0] * (768 - len(flat)))


def new_image(width: int, height: int, fill: str = "background") -> Image.Image:
    image = Image.new("P", (width, height), colour(fill))
    image.putpalette(palette_bytes())
    return image


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at a size: no font files to ship or find on the host."""
    return ImageFont.load_default(size=size)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    fill: int,
    size: int,
    anchor: str = "la",
) -> None:
    """`draw.text` with the font at `size`, from a cache of drawn texts: the same few labels and
    header lines come back picture after picture, and drawing glyphs is the slow part."""
    mask, (dx, dy) = _text_mask(text, size, anchor)
    if mask is not None:
        draw.bitmap((xy[0] + dx, xy[1] + dy), mask, fill=fill)


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image | None, tuple[int, int]]:
    left, top, right, bottom = (round(v) for v in font(size).getbbox(text, anchor=anchor))
    if right <= left or bottom <= top:
        return None, (0, 0)
    pad = size // 2  # glyphs may reach out of the box of their advances (the last "y" or "n")
    mask = Image.new("1", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(mask).text((pad - left, pad - top), text, fill=1, font=font(size), anchor=anchor)
    return mask, (left - pad, top - pad)
