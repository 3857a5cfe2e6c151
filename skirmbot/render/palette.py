"""The fixed palette and fonts every picture uses.

Pictures are drawn in palette mode ("P") with this one palette: a PNG of one byte per pixel
encodes several times faster than RGB, needs no quantizing, and every frame of an animated replay
shares it. The squad colours are the Okabe-Ito blue and orange, told apart with the common
forms of colour blindness; hits, misses and Taken Out differ by line style as well as colour.
A third and fourth seat take the Okabe-Ito reddish purple and vermillion: those sit at the top
of the palette and are written into it only for a picture of more than two seats, so a picture
of two squads keeps its palette (and its bytes) as it was.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from functools import cache, lru_cache
from importlib.resources import files
from io import BytesIO
from typing import TYPE_CHECKING, Any, overload

from PIL import Image, ImageDraw, ImageFont

if TYPE_CHECKING:  # only Pillow's type stubs name the class of a drawn mask
    from PIL._imaging import ImagingCore

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

# The third and fourth seats (Okabe-Ito reddish purple and vermillion), at fixed indices at the
# palette's top: clear of the preview's tint blocks, which follow the fixed colours.
SEAT_COLOURS: dict[str, tuple[int, int, int]] = {
    "side2": (204, 121, 167),
    "side2_dim": (230, 190, 212),
    "side2_dark": (140, 60, 105),
    "side3": (213, 94, 0),
    "side3_dim": (236, 180, 140),
    "side3_dark": (135, 55, 0),
}
INDEX.update({name: 256 - len(SEAT_COLOURS) + n for n, name in enumerate(SEAT_COLOURS)})

# Team play (issue 30): a side of several seats is drawn in shades of its first seat's colour
# (side 0's seats blue, side 1's orange), each seat (Company) a shade of its own: lighter or
# darker, the hue kept, so a player tells the sides apart first and then the Companies. The
# shades are written at the seats' own indices, so everything drawn by `side_colour` takes them
# without knowing of teams; a fifth and sixth seat (three a side) get indices below the others.
MORE_SEATS = ("side4", "side4_dim", "side4_dark", "side5", "side5_dim", "side5_dark")
INDEX.update({name: 256 - len(SEAT_COLOURS) - len(MORE_SEATS) + n
              for n, name in enumerate(MORE_SEATS)})  # fmt: skip
SEATS = 2 + (len(SEAT_COLOURS) + len(MORE_SEATS)) // 3  # the most seats a picture has colours for
Shade = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]  # base, dim, dark
TEAM_SHADES: tuple[tuple[Shade, ...], ...] = (
    (  # side 0: Okabe-Ito blue, then a deep blue, then a light blue
        (COLOURS["side0"], COLOURS["side0_dim"], COLOURS["side0_dark"]),
        ((30, 62, 150), (165, 178, 218), (14, 34, 96)),
        ((70, 168, 214), (180, 218, 235), (20, 100, 135)),
    ),
    (  # side 1: Okabe-Ito orange, then a burnt orange, then a light amber
        (COLOURS["side1"], COLOURS["side1_dim"], COLOURS["side1_dark"]),
        ((176, 100, 0), (218, 184, 140), (110, 60, 0)),
        ((246, 188, 72), (250, 224, 170), (172, 118, 12)),
    ),
)


def colour(name: str) -> int:
    """The palette index of a named colour (what ImageDraw wants on a "P" image)."""
    return INDEX[name]


def side_colour(side: int, shade: str = "") -> int:
    return INDEX[f"side{side}{'_' + shade if shade else ''}"]


@cache
def palette_bytes(seats: int = 2, teams: tuple[tuple[int, ...], ...] = ()) -> bytes:
    """The palette of a picture of `seats` players: the seat colours past the second only when
    drawn (a two-seat picture's palette, and so its bytes, stay as they were); `teams` (seats
    grouped into sides, `MatchView.teams`): each seat in its side's shade instead."""
    flat = [channel for name in NAMES for channel in COLOURS[name]]
    palette = bytes(flat + [0] * (768 - len(flat)))
    if teams:
        return with_team_shades(palette, teams)
    return with_seat_colours(palette) if seats > 2 else palette


def team_shade(teams: tuple[tuple[int, ...], ...], seat: int) -> Shade:
    """The seat's colours in team play: its side's family, the shade of its place in the side."""
    side = next(number for number, team in enumerate(teams) if seat in team)
    family = TEAM_SHADES[side % len(TEAM_SHADES)]
    return family[teams[side].index(seat) % len(family)]


def with_team_shades(palette: bytes, teams: tuple[tuple[int, ...], ...]) -> bytes:
    """The palette with every seat of `teams` written in its side's shade at its own indices."""
    written = bytearray(palette)
    for team in teams:
        for seat in team:
            for shade, rgb in zip(("", "_dim", "_dark"), team_shade(teams, seat), strict=True):
                at = 3 * INDEX[f"side{seat}{shade}"]
                written[at : at + 3] = bytes(rgb)
    return bytes(written)


def with_seat_colours(palette: bytes) -> bytes:
    """The palette with the colours of the seats past the second written at their indices."""
    written = bytearray(palette)
    for name, rgb in SEAT_COLOURS.items():
        written[3 * INDEX[name] : 3 * INDEX[name] + 3] = bytes(rgb)
    return bytes(written)


def new_image(width: int, height: int, fill: str = "background", seats: int = 2) -> Image.Image:
    image = Image.new("P", (width, height), colour(fill))
    image.putpalette(palette_bytes(seats))
    return image


# The font every picture draws with, shipped with the package (skirmbot/render/fonts: Noto Sans
# and the common CJK of Noto Sans CJK, merged into one file by scripts/build_fonts.py, as Pillow
# cannot fall back from one font file to another), and the characters it has glyphs for.
FONTS = files("skirmbot.render") / "fonts"
FONT_FILE = "SkirmSans.ttf"
COVERAGE_FILE = "coverage.txt"
# Characters with no glyph that are drawn as nothing: marks NFC could not compose, joiners,
# variation selectors and emoji skin tones (all of which only change the character before them).
UNSEEN = {"Mn", "Me", "Cf", "Cc", "Sk"}
FLAG = re.compile("[\U0001f1e6-\U0001f1ff]{2}")  # two regional indicator letters


class NamedFont(ImageFont.FreeTypeFont):
    """Skirm Sans, drawing a character it has no glyph for by its name (`drawable`), never as a
    box: measuring and drawing go through the same stand-ins, so text fits as it is drawn."""

    def getlength(self, text: str | bytes, *args: Any, **kwargs: Any) -> float:
        return super().getlength(drawable(text), *args, **kwargs)

    def getbbox(
        self, text: str | bytes | bytearray, *args: Any, **kwargs: Any
    ) -> tuple[float, float, float, float]:
        return super().getbbox(drawable(text), *args, **kwargs)

    def getmask(self, text: str | bytes, *args: Any, **kwargs: Any) -> ImagingCore:
        mask: ImagingCore = super().getmask(drawable(text), *args, **kwargs)
        return mask

    def getmask2(
        self, text: str | bytes, *args: Any, **kwargs: Any
    ) -> tuple[ImagingCore, tuple[int, int]]:
        return super().getmask2(drawable(text), *args, **kwargs)


@cache
def font(size: int) -> NamedFont:
    """Skirm Sans at a size. Pillow's basic layout, as its own default font used: the same
    pixels whether or not the host has libraqm."""
    return NamedFont(BytesIO(_font_data()), size, layout_engine=ImageFont.Layout.BASIC)


@cache
def _font_data() -> bytes:
    return FONTS.joinpath(FONT_FILE).read_bytes()


@cache
def _coverage() -> tuple[list[int], list[int]]:
    """The first and last code points of each range of characters the font has glyphs for."""
    firsts, lasts = [], []
    for line in FONTS.joinpath(COVERAGE_FILE).read_text().split():
        first, last = line.split("-")
        firsts.append(int(first, 16))
        lasts.append(int(last, 16))
    return firsts, lasts


def has_glyph(char: str) -> bool:
    """Whether the font draws the character itself (else `drawable` gives a stand-in)."""
    firsts, lasts = _coverage()
    found = bisect_right(firsts, ord(char)) - 1
    return found >= 0 and ord(char) <= lasts[found]


@overload
def drawable(text: str) -> str: ...
@overload
def drawable(text: bytes) -> bytes: ...
@overload
def drawable(text: bytearray) -> bytearray: ...
def drawable(text: str | bytes | bytearray) -> str | bytes | bytearray:
    """The text as the font draws it: composed (NFC: "e" and a combining diaeresis are one "ë"),
    and each character it has no glyph for (an emoji, a rare ideograph) written as its name in
    brackets ("🐺 Wolves" draws "[wolf face] Wolves"; a flag, its country code: "[FR]"), or
    left out when it only changes the one before it (`UNSEEN`)."""
    return _drawable(text) if isinstance(text, str) else text


@lru_cache(maxsize=4096)  # every measure and draw asks, the same few texts again and again
def _drawable(text: str) -> str:
    text = unicodedata.normalize("NFC", text)
    if all(map(has_glyph, text)):
        return text
    text = FLAG.sub(_country_code, text)
    return "".join(map(_stand_in, text))


def _country_code(flag: re.Match[str]) -> str:
    """A flag, a pair of regional indicator letters, as its country code: 🇫🇷 is "[FR]"."""
    return "[" + "".join(chr(ord(letter) - ord("🇦") + ord("A")) for letter in flag[0]) + "]"


@lru_cache(maxsize=4096)
def _stand_in(char: str) -> str:
    if unicodedata.category(char) == "Cf":
        return ""  # a joiner or a tag, next to a stand-in: it joins or changes nothing drawn
    if has_glyph(char):
        return char
    if unicodedata.category(char) in UNSEEN:
        return ""
    return f"[{unicodedata.name(char, 'character ' + hex(ord(char))).lower()}]"


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


LONG_LINE = 1100  # pixels: wider than any line on a picture of a board of 16 squares a side


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image | None, tuple[int, int]]:
    left, top, right, bottom = (round(v) for v in font(size).getbbox(text, anchor=anchor))
    if right <= left or bottom <= top:
        return None, (0, 0)
    pad = size // 2  # glyphs may reach out of the box of their advances (the last "y" or "n")
    # Drawn in one bit, a line runs a little longer than measured (up to 1 in 100: hinted
    # advances); room on the right keeps a long line's last letter whole. Only past the widest
    # line of a board of 16 squares a side: those pictures are pinned as they were drawn.
    more = (right - left) // 50 if right - left > LONG_LINE else 0
    mask = Image.new("1", (right - left + 2 * pad + more, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(mask).text((pad - left, pad - top), text, fill=1, font=font(size), anchor=anchor)
    return mask, (left - pad, top - pad)
