"""A unit's stat card as a picture a player reads on a phone (rulebook Stat Cards).

The card shows, top to bottom: a title band in the squad's colour (name, type, squad, a Leader
badge), the ruleset's stat boxes and HIT (Skirm: ACT MSK RSK ARM HIT; HIT as current/max with
pips), its cost lines (Skirm's EP: unit + gear = total), the unit's special rules with their
titles, one panel per weapon (type, its stats such as ROA, DAM, RG and its special rules; a
spent one-use weapon is marked "used"), and a status line. All of it comes from the ruleset's
`CardView` (`Ruleset.card`).

Drawing happens in two steps: `card_layout` places every shape and text on a fixed width (text is
wrapped there and measured with the palette's fonts), then `render_card` draws the layout. Tests
read `card_texts` to check that no text runs off the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO
from math import cos, pi, sin

from PIL import Image, ImageDraw

from skirmbot.render.palette import INDEX, colour, font, new_image, side_colour
from skirmbot.render.palette import palette_bytes as palette
from skirmbot.rules.view import (
    ACTIVATED,
    DOWNED,
    OUT,
    CardView,
    TrackView,
    WeaponView,
    track_words,
)

WIDTH = 520
MARGIN = 18
INNER = WIDTH - 2 * MARGIN

# Font sizes (pixels). The card is shown scaled down on a phone, so nothing is below 16.
NAME_SIZE = 32
SUBTITLE_SIZE = 19
BADGE_SIZE = 16
STAT_LABEL_SIZE = 16
STAT_SIZE = 40
SECTION_SIZE = 16
BODY_SIZE = 19
CHIP_SIZE = 18
WEAPON_NAME_SIZE = 23
WEAPON_STAT_SIZE = 24
STATUS_SIZE = 20
TRACK_SIZE = 18  # a track cell's label
ROW_SIZE = 17  # the values in the rows under a track

# A track (the infantry rules' HP and armour cells): the row titles' column at the left, then
# square cells at most CELL wide, so ten fit the card (rulebook 002's sample card).
TRACK_TITLES = 84  # "Modifier" is 63 px at STAT_LABEL_SIZE; 84 leaves ten cells of CELL
CELL = 40
CROSS_WIDTH = 3  # the pen of an X or a \ over a cell
HATCH_STEP = 8  # the spacing of the hatching over an unused cell


def wrap(text: str, size: int, width: float) -> list[str]:
    """Break text into lines no wider than `width` at font `size`; over-long words are split."""
    measure = font(size).getlength
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if measure(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while measure(word) > width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and measure(word[:cut]) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines or [""]


def _line_height(size: int) -> int:
    return round(size * 1.25)


def _contrast_ink(background: int) -> int:
    """White or dark ink, whichever reads better on a palette colour (WCAG contrast)."""

    def luminance(name: str) -> float:
        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

        start = 3 * INDEX[name]
        r, g, b = (channel(v) for v in palette(4)[start : start + 3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    names = {index: name for name, index in INDEX.items()}
    back = luminance(names[background])
    on_white = (luminance("white") + 0.05) / (back + 0.05)
    on_ink = (back + 0.05) / (luminance("ink") + 0.05)
    return colour("white") if on_white >= on_ink else colour("ink")


# --- layout --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Text:
    """A text placed on the card; `anchor` as in Pillow ("la": left, top of the ascender)."""

    x: float
    y: float
    text: str
    size: int
    fill: int
    anchor: str = "la"
    track: int = -1  # the index of the card's track it belongs to: read as one (`card_lines`)

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        left, top, right, bottom = font(self.size).getbbox(self.text, anchor=self.anchor)
        return (self.x + left, self.y + top, self.x + right, self.y + bottom)


@dataclass(frozen=True, slots=True)
class Shape:
    kind: str  # "rect", "ellipse", "polygon" or "line"
    points: tuple[float, ...]
    fill: int | None = None
    outline: int | None = None
    width: int = 1
    radius: int = 0


@dataclass(frozen=True, slots=True)
class Layout:
    width: int
    height: int
    items: tuple[Text | Shape, ...]

    @property
    def texts(self) -> list[Text]:
        return [item for item in self.items if isinstance(item, Text)]


class _Builder:
    def __init__(self) -> None:
        self.y = 0
        self.items: list[Text | Shape] = []

    def text(self, x: float, y: float, text: str, size: int, fill: int, anchor: str = "la") -> None:
        self.items.append(Text(x, y, text, size, fill, anchor))

    def track_text(
        self, track: int, x: float, y: float, text: str, size: int, fill: int, anchor: str = "mm"
    ) -> None:
        """A text of the card's track number `track`, centred on (x, y) unless `anchor` says."""
        self.items.append(Text(x, y, text, size, fill, anchor, track))

    def line(self, points: tuple[float, ...], fill: int, width: int) -> None:
        self.items.append(Shape("line", points, None, fill, width))

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: int | None = None,
        outline: int | None = None,
        width: int = 1,
        radius: int = 0,
    ) -> None:
        self.items.append(Shape("rect", box, fill, outline, width, radius))

    def ellipse(
        self, box: tuple[float, float, float, float], fill: int | None, outline: int, width: int
    ) -> None:
        self.items.append(Shape("ellipse", box, fill, outline, width))

    def polygon(self, points: tuple[float, ...], fill: int) -> None:
        self.items.append(Shape("polygon", points, fill))

    def paragraph(self, x: float, text: str, size: int, fill: int, width: float) -> None:
        """Wrapped text from the cursor down; the cursor moves below it."""
        for line in wrap(text, size, width):
            self.text(x, self.y, line, size, fill)
            self.y += _line_height(size)

    def chips(
        self,
        rules: list[tuple[str, str, bool]],
        left: float,
        right: float,
        size: int,
        code_fill: int,
    ) -> None:
        """Special rules as chips (code in a pill, title beside it) flowing left to right.

        Each rule is (code, title, alert); an alert chip is drawn in the "hit" colour.
        """
        pad, gap, row_gap = 6, 8, 6
        row = _line_height(size) + 4
        x = left
        for code, title, alert in rules:
            code_w = max(font(size).getlength(code) + 2 * pad, 30.0)
            title_w = font(size).getlength(title)
            chip_w = code_w + gap + title_w
            if x > left and x + chip_w > right:
                x = left
                self.y += row + row_gap
            lines = wrap(title, size, right - x - code_w - gap)
            pill_fill = colour("hit") if alert else code_fill
            self.rect((x, self.y, x + code_w, self.y + row), fill=pill_fill, radius=5)
            self.text(x + code_w / 2, self.y + row / 2, code, size, _contrast_ink(pill_fill), "mm")
            title_fill = colour("hit") if alert else colour("ink")
            for number, line in enumerate(lines):
                top = self.y + number * _line_height(size)
                self.text(x + code_w + gap, top + row / 2, line, size, title_fill, "lm")
            widest = max(font(size).getlength(line) for line in lines)
            if len(lines) > 1:
                self.y += (len(lines) - 1) * _line_height(size)
                x = right  # a wrapped chip ends its row
            else:
                x += code_w + gap + widest + 18
        self.y += row


def _title_band(b: _Builder, card: CardView) -> None:
    band = side_colour(card.side)
    ink = _contrast_ink(band)
    top = b.y
    items_start = len(b.items)
    b.y += 12
    badge_w = 0.0
    if card.leader:
        badge_w = font(BADGE_SIZE).getlength("LEADER") + 44
    name_lines = wrap(card.name, NAME_SIZE, INNER - (badge_w + 10 if badge_w else 0))
    name_top = b.y
    for line in name_lines:
        b.text(MARGIN, b.y, line, NAME_SIZE, ink)
        b.y += _line_height(NAME_SIZE)
    b.y += 2
    b.paragraph(MARGIN, f"{card.kind}  ·  {card.squad}", SUBTITLE_SIZE, ink, INNER)
    b.y += 10
    bottom = b.y
    # The band goes under its texts: insert its shapes before them.
    shapes: list[Text | Shape] = [
        Shape("rect", (0, top, WIDTH - 1, bottom - 1), band),
        Shape("rect", (0, bottom - 4, WIDTH - 1, bottom - 1), side_colour(card.side, "dark")),
    ]
    if card.leader:
        x1 = WIDTH - MARGIN
        x0 = x1 - badge_w
        y0 = name_top + 2
        y1 = y0 + 30
        shapes.append(Shape("rect", (x0, y0, x1, y1), colour("header"), radius=8))
        shapes.extend(_star(x0 + 17, (y0 + y1) / 2, 10))
        b.items.append(Text(x0 + 32, (y0 + y1) / 2, "LEADER", BADGE_SIZE, colour("gold"), "lm"))
    b.items[items_start:items_start] = shapes


def _star(cx: float, cy: float, r: float) -> list[Shape]:
    """A five-pointed star (the Leader mark) as a polygon."""
    points: list[float] = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -pi / 2 + k * pi / 5
        points += [round(cx + radius * cos(angle), 2), round(cy + radius * sin(angle), 2)]
    return [Shape("polygon", tuple(points), colour("gold"))]


def _stats(b: _Builder, card: CardView) -> None:
    b.y += 14
    most = card.max_hit or 0
    hit = max(0, min(card.hit or 0, most))
    shows_hit = card.max_hit is not None
    values = [*card.stats, *([("HIT", f"{hit}/{most}")] if shows_hit else [])]
    gap = 10
    box_w = (INNER - (len(values) - 1) * gap) / len(values)
    label_h = _line_height(STAT_LABEL_SIZE)
    box_h = 10 + label_h + STAT_SIZE + 34
    top = b.y
    for number, (label, value) in enumerate(values):
        x0 = MARGIN + number * (box_w + gap)
        x1 = x0 + box_w
        is_hit = label == "HIT"
        b.rect((x0, top, x1, top + box_h), colour("white"), colour("grid"), 1, 8)
        b.text((x0 + x1) / 2, top + 8, label, STAT_LABEL_SIZE, colour("label"), "ma")
        value_fill = colour("hit") if is_hit and hit < most else colour("ink")
        size = STAT_SIZE
        while font(size).getlength(value) > box_w - 8 and size > 20:
            size -= 2
        middle = top + 10 + label_h + STAT_SIZE / 2
        b.text((x0 + x1) / 2, middle + (0 if is_hit else 8), value, size, value_fill, "mm")
        if is_hit:
            _pips(b, (x0 + x1) / 2, top + box_h - 17, hit, most, box_w - 8, card.side)
    b.y = top + box_h


def _pips(b: _Builder, cx: float, cy: float, hit: int, most: int, room: float, side: int) -> None:
    """One pip per HIT: filled for those left, hollow for those lost."""
    step = min(18.0, room / max(most, 1))
    r = min(7.0, step / 2 - 1)
    start = cx - step * (most - 1) / 2
    for k in range(most):
        x = start + k * step
        box = (x - r, cy - r, x + r, cy + r)
        if k < hit:
            b.ellipse(box, side_colour(side), side_colour(side, "dark"), 1)
        else:
            b.ellipse(box, colour("white"), colour("grid"), 2)


def _tracks(b: _Builder, card: CardView) -> None:
    for number, track in enumerate(card.tracks):
        _track(b, number, track)


def _track(b: _Builder, number: int, track: TrackView) -> None:
    """The rulebook's card: a row of square cells, each with its label, crossed as marked, the
    rows of values under it in the same columns, every row's title at the left."""
    b.y += 14
    cell = min(CELL, (INNER - TRACK_TITLES) // max(len(track.labels), 1))
    left = MARGIN + TRACK_TITLES
    top = b.y
    middle = top + cell / 2
    b.track_text(number, MARGIN, middle, track.title, STAT_LABEL_SIZE, colour("label"), "lm")
    for k, (label, mark) in enumerate(zip(track.labels, track.marks, strict=True)):
        _cell(b, number, (left + k * cell, top, left + (k + 1) * cell, top + cell), label, mark)
    if track.note:
        note_x = left + len(track.labels) * cell + 12
        b.track_text(number, note_x, middle, track.note, BODY_SIZE, colour("ink"), "lm")
    b.y = top + cell
    for title, values in track.rows:
        _track_row(b, number, track, title, values, left, cell)


def _cell(
    b: _Builder, number: int, box: tuple[float, float, float, float], label: str, mark: str
) -> None:
    """One cell: clean; half crossed (one diagonal, \\); fully crossed (X); or unused (grey,
    hatched: marked off before the game)."""
    x0, y0, x1, y1 = box
    unused = mark == "unused"
    b.rect(box, colour("level1") if unused else colour("white"), colour("ink"), 2)
    if unused:
        _hatch(b, box)
    label_fill = colour("label") if unused else colour("ink")
    b.track_text(number, (x0 + x1) / 2, (y0 + y1) / 2, label, TRACK_SIZE, label_fill)
    inset = 5
    if mark in ("half", "full"):
        b.line((x0 + inset, y0 + inset, x1 - inset, y1 - inset), colour("hit"), CROSS_WIDTH)
    if mark == "full":
        b.line((x0 + inset, y1 - inset, x1 - inset, y0 + inset), colour("hit"), CROSS_WIDTH)


def _hatch(b: _Builder, box: tuple[float, float, float, float]) -> None:
    """Lines rising left to right across the cell, clipped to it: an unused cell."""
    x0, y0, x1, y1 = box
    size = x1 - x0
    for offset in range(HATCH_STEP, 2 * round(size), HATCH_STEP):
        # the line x + (y1 - y) = x0 + offset, cut to the box
        start = (x0 + max(0.0, offset - size), y1 - min(offset, size))
        end = (x0 + min(offset, size), y1 - max(0.0, offset - size))
        b.line((*start, *end), colour("grid"), 1)


def _track_row(
    b: _Builder,
    number: int,
    track: TrackView,
    title: str,
    values: tuple[str, ...],
    left: float,
    cell: float,
) -> None:
    """A row of values under a track's cells, one per column; the column of now shaded."""
    height = _line_height(ROW_SIZE) + 6
    middle = b.y + height / 2
    if track.column is not None:
        x0 = left + track.column * cell
        b.rect((x0 + 2, b.y + 2, x0 + cell - 2, b.y + height - 1), colour("level0"), radius=4)
    b.track_text(number, MARGIN, middle, title, STAT_LABEL_SIZE, colour("label"), "lm")
    for k, value in enumerate(values):
        b.track_text(number, left + (k + 0.5) * cell, middle, value, ROW_SIZE, colour("ink"))
    b.y += height


def _cost(b: _Builder, label: str, words: str) -> None:
    """A labelled line after the stats (Skirm's EP: unit + gear = total)."""
    b.y += 12
    label_w = font(BODY_SIZE).getlength(label) + 14
    b.text(MARGIN, b.y, label, BODY_SIZE, colour("label"))
    b.paragraph(MARGIN + label_w, words, BODY_SIZE, colour("ink"), INNER - label_w)


def _section(b: _Builder, title: str) -> None:
    b.y += 12
    b.rect((MARGIN, b.y + 8, WIDTH - MARGIN, b.y + 8), colour("pip_empty"))
    width = font(SECTION_SIZE).getlength(title)
    b.rect((MARGIN, b.y, MARGIN + width + 10, b.y + 17), colour("background"))
    b.text(MARGIN, b.y, title, SECTION_SIZE, colour("label"))
    b.y += _line_height(SECTION_SIZE) + 6


def _pill(codes: tuple[str, ...], number: int, title: str) -> str:
    """A rule's pill: its code, or its title's first letters when the ruleset gives no code."""
    return codes[number] if number < len(codes) else title[:3].upper()


def _unit_rules(b: _Builder, card: CardView) -> None:
    _section(b, "SPECIAL RULES")
    rules = [(_pill(card.codes, n, title), title, False) for n, title in enumerate(card.rules)]
    if not rules:
        b.paragraph(MARGIN, "None", BODY_SIZE, colour("label"), INNER)
        return
    b.chips(rules, MARGIN, WIDTH - MARGIN, CHIP_SIZE, side_colour(card.side, "dark"))


def _weapon(b: _Builder, card: CardView, weapon: WeaponView) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    inner_left, inner_right = left + 12, right - 12
    top = b.y
    start = len(b.items)
    b.y += 10
    ranged = not weapon.melee
    tag = "RANGED" if ranged else "MELEE"
    tag_w = font(BADGE_SIZE).getlength(tag) + 16
    tag_fill = side_colour(card.side, "dark") if ranged else colour("header")
    b.rect((inner_right - tag_w, b.y + 2, inner_right, b.y + 26), tag_fill, radius=5)
    b.text(inner_right - tag_w / 2, b.y + 14, tag, BADGE_SIZE, colour("white"), "mm")
    used = weapon.spent
    name_fill = colour("label") if used else colour("ink")
    b.paragraph(
        inner_left, weapon.name, WEAPON_NAME_SIZE, name_fill, inner_right - inner_left - tag_w - 10
    )
    b.y += 2
    stats = weapon.stats
    x: float = inner_left
    middle = b.y + WEAPON_STAT_SIZE / 2 + 2
    for label, value in stats:
        b.text(x, middle, label, STAT_LABEL_SIZE, colour("label"), "lm")
        x += font(STAT_LABEL_SIZE).getlength(label) + 6
        b.text(x, middle, str(value), WEAPON_STAT_SIZE, colour("ink"), "lm")
        x += font(WEAPON_STAT_SIZE).getlength(str(value)) + 24
    if not ranged:
        b.text(x, middle, "adjacent targets", STAT_LABEL_SIZE, colour("label"), "lm")
    b.y += _line_height(WEAPON_STAT_SIZE) + 4
    rules = []
    for number, title in enumerate(weapon.rules):
        code = _pill(weapon.codes, number, title)
        spends = used and bool(weapon.spent_by) and code == weapon.spent_by
        rules.append((code, title + (": used" if spends else ""), spends))
    if rules:
        b.y += 2
        b.chips(rules, inner_left, inner_right, CHIP_SIZE - 1, colour("label"))
    b.y += 10
    b.items.insert(
        start, Shape("rect", (left, top, right, b.y), colour("white"), colour("grid"), 1, 8)
    )


def _weapons(b: _Builder, card: CardView) -> None:
    _section(b, "WEAPONS")
    for number, weapon in enumerate(card.weapons):
        if number:
            b.y += 8
        _weapon(b, card, weapon)


def _status(b: _Builder, card: CardView) -> None:
    b.y += 16
    text = card.status
    if card.status_kind in (OUT, DOWNED):
        fill, dot = colour("taken_out"), colour("hit")
    elif card.status_kind == ACTIVATED:
        fill, dot = colour("level2"), colour("miss")
    else:
        fill, dot = colour("level0"), colour("objective")
    ink = _contrast_ink(fill)
    top = b.y
    start = len(b.items)
    b.y += 10
    text_left = MARGIN + 26
    lines = wrap(text, STATUS_SIZE, WIDTH - MARGIN - text_left)
    first_middle = b.y + _line_height(STATUS_SIZE) / 2
    b.ellipse((MARGIN + 2, first_middle - 7, MARGIN + 16, first_middle + 7), dot, ink, 1)
    for line in lines:
        b.text(text_left, b.y + _line_height(STATUS_SIZE) / 2, line, STATUS_SIZE, ink, "lm")
        b.y += _line_height(STATUS_SIZE)
    b.y += 10
    b.items.insert(start, Shape("rect", (0, top, WIDTH - 1, b.y - 1), fill))


def card_layout(card: CardView) -> Layout:
    """Where every shape and text of the unit's card goes (the ruleset chose what it shows);
    the height fits the content."""
    b = _Builder()
    _title_band(b, card)
    _stats(b, card)
    _tracks(b, card)
    for label, words in card.costs:
        _cost(b, label, words)
    _unit_rules(b, card)
    _weapons(b, card)
    _status(b, card)
    return Layout(WIDTH, b.y, tuple(b.items))


def card_texts(card: CardView) -> list[Text]:
    """Every text the card draws, placed (see `Text.bbox` to check it fits the card)."""
    return card_layout(card).texts


def card_lines(card: CardView) -> list[str]:
    """The card's texts in drawing order, as words; a track reads as its lines ("HP: 10, 9
    crossed, ..."; `track_words`), not as its cells' labels one by one."""
    lines: list[str] = []
    read: set[int] = set()
    for text in card_texts(card):
        if text.track < 0:
            lines.append(text.text)
        elif text.track not in read:
            read.add(text.track)
            lines.extend(track_words(card.tracks[text.track]))
    return lines


# --- drawing -------------------------------------------------------------------------------
def render_card(card: CardView) -> Image.Image:
    """The unit's stat card, a palette image WIDTH pixels wide."""
    layout = card_layout(card)
    image = new_image(layout.width, layout.height, seats=card.side + 1)
    draw = ImageDraw.Draw(image)
    for item in layout.items:
        if isinstance(item, Text):
            draw.text(
                (item.x, item.y),
                item.text,
                fill=item.fill,
                font=font(item.size),
                anchor=item.anchor,
            )
        elif item.kind == "rect":
            x0, y0, x1, y1 = item.points
            if item.radius:
                draw.rounded_rectangle(
                    (x0, y0, x1, y1), item.radius, item.fill, item.outline, item.width
                )
            else:
                draw.rectangle((x0, y0, x1, y1), item.fill, item.outline, item.width)
        elif item.kind == "ellipse":
            draw.ellipse(item.points, item.fill, item.outline, item.width)
        elif item.kind == "line":
            draw.line(item.points, item.outline, item.width)
        else:
            draw.polygon(item.points, item.fill, item.outline)
    return image


def card_png(card: CardView) -> bytes:
    """The unit's stat card as PNG bytes (equal units give equal bytes)."""
    buffer = BytesIO()
    render_card(card).save(buffer, "PNG")
    return buffer.getvalue()
