"""A league's standings as a picture, in the battlemap's look.

Top to bottom: the dark header band (the league's name, a subtitle such as "Swiss, round 3 of
5", and how many players), a strip of column headings in the caption colour, then one row per
player with alternating shading. The columns and their order are the league's: rank, player,
W-D-L, league points, Mission Point difference, strength of schedule and rating, as configured
(the tiebreak order). Shared ranks read "=2"; dropped players are greyed with "(dropped)"; a
name too wide for its column is shortened with "…". At most `MAX_ROWS` players are drawn, then
"+N more".

As with the unit card, `standings_layout` places every shape and text first (see
`skirmbot.render.card.Layout`), `render_layout` draws it; tests read the placed texts.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO

from PIL import Image, ImageDraw

from skirmbot.render.card import Layout, Shape, Text
from skirmbot.render.palette import colour, font, new_image

WIDTH = 720  # the least width; a table of very wide numbers gets wider
MARGIN = 18
PAD = 10  # each side of a cell's text
MAX_ROWS = 64

TITLE_SIZE = 26
SUBTITLE_SIZE = 18
HEADING_SIZE = 17
ROW_SIZE = 20
MORE_SIZE = 18

ROW_HEIGHT = 34
HEADING_HEIGHT = 34
BAND_PAD = 12
NAME_MIN = 160  # the player column is never narrower than this

ELLIPSIS = "…"
DROPPED = "(dropped)"

COLUMNS = ("rank", "name", "record", "points", "mp_difference", "strength_of_schedule", "rating")
HEADINGS: dict[str, str] = {
    "rank": "#",
    "name": "Player",
    "record": "W-D-L",
    "points": "Pts",
    "mp_difference": "MP±",
    "strength_of_schedule": "SoS",
    "rating": "Rating",
}


@dataclass(frozen=True)
class StandingsRow:
    rank: int
    name: str  # the player's display name (any Unicode, up to 32 visible characters)
    wins: int
    draws: int
    losses: int
    points: int  # league points
    mp_difference: int  # Mission Point difference
    strength_of_schedule: int
    rating: float  # the displayed rating (ordinal), shown with one decimal
    dropped: bool = False


@dataclass(frozen=True)
class StandingsTable:
    league: str  # the league's name
    subtitle: str  # e.g. "Skirm · Swiss, round 3 of 5" or "after round 2"
    columns: tuple[str, ...]  # which of COLUMNS to show, in this order
    rows: tuple[StandingsRow, ...]  # in standing order
    score: str = "MP"  # the ruleset's short name for a side's score (`Ruleset.score_words`)


# --- words ---------------------------------------------------------------------------------
def _heading(table: StandingsTable, key: str) -> str:
    return f"{table.score}±" if key == "mp_difference" else HEADINGS[key]


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _rating(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def cell_text(column: str, row: StandingsRow, shared: bool = False) -> str:
    """What a row shows in a column (the name in full: `shorten` fits it to the column)."""
    if column == "rank":
        return f"={row.rank}" if shared else str(row.rank)
    if column == "name":
        name = " ".join(row.name.split())  # no line breaks or runs of spaces in a cell
        return f"{name} {DROPPED}" if row.dropped else name
    if column == "record":
        return f"{row.wins}-{row.draws}-{row.losses}"
    if column == "points":
        return str(row.points)
    if column == "mp_difference":
        return _signed(row.mp_difference)
    if column == "strength_of_schedule":
        return str(row.strength_of_schedule)
    if column == "rating":
        return _rating(row.rating)
    raise ValueError(f"unknown standings column {column!r}")


def _joins_previous(text: str, i: int) -> bool:
    """Whether text[i] belongs to the character before it (a combining mark, a variation
    selector, a skin tone, an emoji tag, either side of a zero-width joiner, the second of a
    flag's pair of regional indicators): the text must not be cut before it."""
    char = text[i]
    code = ord(char)
    if unicodedata.category(char) in ("Mn", "Me", "Mc"):
        return True
    if (
        0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
        or char == "\u200d"
        or text[i - 1] == "\u200d"
    ):
        return True
    if 0x1F1E6 <= code <= 0x1F1FF:
        run = 0
        k = i - 1
        while k >= 0 and 0x1F1E6 <= ord(text[k]) <= 0x1F1FF:
            run += 1
            k -= 1
        return run % 2 == 1
    return False


def shorten(text: str, size: int, width: float, keep: str = "") -> str:
    """`text` (then `keep`, e.g. " (dropped)") no wider than `width` pixels at font `size`:
    when too wide, cut between whole characters (never inside an emoji sequence, a flag or a
    letter with its accents) and end with "…" before `keep`."""
    measure = font(size).getlength
    if measure(text + keep) <= width:
        return text + keep
    for cut in range(len(text) - 1, 0, -1):
        if _joins_previous(text, cut):
            continue
        candidate = text[:cut].rstrip() + ELLIPSIS + keep
        if measure(candidate) <= width:
            return candidate
    for candidate in (ELLIPSIS + keep, ELLIPSIS):
        if measure(candidate) <= width:
            return candidate
    return ""


# --- layout --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Column:
    key: str
    left: float
    right: float

    @property
    def anchor(self) -> str:
        return "lm" if self.key == "name" else "rm"

    @property
    def x(self) -> float:
        return self.left + PAD if self.key == "name" else self.right - PAD


def _check_columns(columns: tuple[str, ...]) -> None:
    unknown = [c for c in columns if c not in COLUMNS]
    if unknown:
        raise ValueError(f"unknown standings columns {unknown}; choose from {list(COLUMNS)}")
    if len(set(columns)) != len(columns):
        raise ValueError(f"a standings column is repeated: {list(columns)}")
    if not columns:
        raise ValueError("a standings table needs at least one column")


def _columns(
    table: StandingsTable, shown: tuple[StandingsRow, ...], shared: set[int]
) -> list[_Column]:
    """Each column's cell, left to right: the numbers as wide as their widest text, the player
    column takes the rest (never under NAME_MIN; a table of huge numbers grows wider)."""
    row_measure = font(ROW_SIZE).getlength
    heading_measure = font(HEADING_SIZE).getlength
    widths: dict[str, float] = {}
    for key in table.columns:
        if key == "name":
            continue
        widest = max(
            [heading_measure(_heading(table, key))]
            + [row_measure(cell_text(key, row, row.rank in shared)) for row in shown]
        )
        widths[key] = float(round(widest + 2 * PAD))
    fixed = sum(widths.values())
    width = max(WIDTH, round(2 * MARGIN + fixed + (NAME_MIN if "name" in table.columns else 0)))
    spare = width - 2 * MARGIN - fixed
    if "name" in table.columns:
        widths["name"] = spare
    else:  # share the spare room out, the last column taking what rounding leaves
        each = spare // len(table.columns)
        for key in table.columns:
            widths[key] += each
        widths[table.columns[-1]] += spare - each * len(table.columns)
    columns: list[_Column] = []
    x = float(MARGIN)
    for key in table.columns:
        columns.append(_Column(key, x, x + widths[key]))
        x += widths[key]
    return columns


def standings_layout(table: StandingsTable) -> Layout:
    """Where every shape and text of the standings picture goes; the height fits the rows."""
    _check_columns(table.columns)
    shown = table.rows[:MAX_ROWS]
    counts = Counter(row.rank for row in table.rows)
    shared = {rank for rank, count in counts.items() if count > 1}
    columns = _columns(table, shown, shared)
    width = round(columns[-1].right + MARGIN)
    items: list[Text | Shape] = []

    # The header band, as on the battlemap: the league, the subtitle, how many players.
    title_h, subtitle_h = round(TITLE_SIZE * 1.25), round(SUBTITLE_SIZE * 1.25)
    band = BAND_PAD + title_h + 4 + subtitle_h + BAND_PAD
    items.append(Shape("rect", (0, 0, width - 1, band - 1), colour("header")))
    players = len(table.rows)
    count = f"{players} player{'s' if players != 1 else ''}"
    count_w = font(SUBTITLE_SIZE).getlength(count)
    room = width - 2 * MARGIN
    title_y = BAND_PAD + title_h / 2
    items.append(
        Text(MARGIN, title_y, shorten(table.league, TITLE_SIZE, room), TITLE_SIZE,
             colour("header_text"), "lm")
    )  # fmt: skip
    subtitle_y = BAND_PAD + title_h + 4 + subtitle_h / 2
    subtitle = shorten(table.subtitle, SUBTITLE_SIZE, room - count_w - 16)
    if subtitle:
        items.append(Text(MARGIN, subtitle_y, subtitle, SUBTITLE_SIZE, colour("header_text"), "lm"))
    items.append(Text(width - MARGIN, subtitle_y, count, SUBTITLE_SIZE, colour("gold"), "rm"))

    # The column headings, on the caption colour with a rule under them.
    top = band
    items.append(Shape("rect", (0, top, width - 1, top + HEADING_HEIGHT - 1), colour("caption")))
    items.append(
        Shape("rect", (0, top + HEADING_HEIGHT - 1, width - 1, top + HEADING_HEIGHT - 1),
              colour("grid"))
    )  # fmt: skip
    middle = top + HEADING_HEIGHT / 2
    for column in columns:
        items.append(
            Text(column.x, middle, _heading(table, column.key), HEADING_SIZE, colour("label"),
                 column.anchor)
        )  # fmt: skip
    y = top + HEADING_HEIGHT

    # One row per player.
    if not table.rows:
        y += 8
        items.append(
            Text(
                MARGIN + PAD, y + ROW_HEIGHT / 2, "No players yet", ROW_SIZE, colour("label"), "lm"
            )
        )
        y += ROW_HEIGHT
    for number, row in enumerate(shown):
        if number % 2:
            items.append(Shape("rect", (0, y, width - 1, y + ROW_HEIGHT - 1), colour("level0")))
        ink = colour("miss") if row.dropped else colour("ink")
        middle = y + ROW_HEIGHT / 2
        for column in columns:
            if column.key == "name":
                keep = f" {DROPPED}" if row.dropped else ""
                name = " ".join(row.name.split())
                text = shorten(name, ROW_SIZE, column.right - column.left - 2 * PAD, keep)
            else:
                text = cell_text(column.key, row, row.rank in shared)
            if text:
                items.append(Text(column.x, middle, text, ROW_SIZE, ink, column.anchor))
        y += ROW_HEIGHT
    hidden = len(table.rows) - len(shown)
    if hidden > 0:
        items.append(Shape("rect", (0, y, width - 1, y), colour("grid")))
        items.append(
            Text(MARGIN + PAD, y + ROW_HEIGHT / 2, f"+{hidden} more", MORE_SIZE, colour("label"),
                 "lm")
        )  # fmt: skip
        y += ROW_HEIGHT
    return Layout(width, y + 10, tuple(items))


def standings_lines(table: StandingsTable) -> list[str]:
    """The picture's texts in drawing order: the header, the headings, then row by row."""
    return [text.text for text in standings_layout(table).texts]


# --- drawing -------------------------------------------------------------------------------
def render_layout(layout: Layout) -> Image.Image:
    """A placed layout drawn on the palette image (the drawing step of the unit card)."""
    image = new_image(layout.width, layout.height)
    draw = ImageDraw.Draw(image)
    shapes: dict[str, Callable[[Shape], None]] = {
        "ellipse": lambda s: draw.ellipse(s.points, s.fill, s.outline, s.width),
        "polygon": lambda s: draw.polygon(s.points, s.fill, s.outline),
    }
    for item in layout.items:
        if isinstance(item, Text):
            draw.text((item.x, item.y), item.text, fill=item.fill, font=font(item.size),
                      anchor=item.anchor)  # fmt: skip
        elif item.kind == "rect" and item.radius:
            draw.rounded_rectangle(item.points, item.radius, item.fill, item.outline, item.width)
        elif item.kind == "rect":
            draw.rectangle(item.points, item.fill, item.outline, item.width)
        else:
            shapes[item.kind](item)
    return image


def layout_png(layout: Layout) -> bytes:
    buffer = BytesIO()
    render_layout(layout).save(buffer, "PNG")
    return buffer.getvalue()


def standings_png(table: StandingsTable) -> bytes:
    """The standings picture as PNG bytes (equal tables give equal bytes)."""
    return layout_png(standings_layout(table))
