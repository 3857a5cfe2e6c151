"""A campaign squad's roster card: what `/squad show` draws, in the unit stat card's look.

Top to bottom: a title band (the squad's name; its owner, ruleset and matches played), then one
panel per unit: its name and type, its XP with a bar towards the next Spoil Of War, the Spoils it
has taken, its medals as chips (the medal's XP in the pill, repeats counted: "Marksman x2") and,
when it may take one, a highlighted "1 Spoil Of War to choose".

Laid out with the unit card's builder (`skirmbot.render.card`): `roster_layout` places every
shape and text, `render_layout` draws it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from skirmbot.render.card import (
    BODY_SIZE,
    CHIP_SIZE,
    MARGIN,
    NAME_SIZE,
    STAT_LABEL_SIZE,
    SUBTITLE_SIZE,
    WEAPON_NAME_SIZE,
    WEAPON_STAT_SIZE,
    WIDTH,
    Layout,
    Shape,
    Text,
    _Builder,
    _line_height,
    _section,
    wrap,
)
from skirmbot.render.palette import colour, font
from skirmbot.render.standings import layout_png

INNER = WIDTH - 2 * MARGIN
BAR_HEIGHT = 16
SEGMENTS_MAX = 10  # a bar spanning more XP than this is drawn without segments


@dataclass(frozen=True)
class RosterUnit:
    name: str
    unit_type: str
    xp: int
    medals: tuple[str, ...]  # medal names earned so far, most recent last
    spoils_taken: int
    spoils_available: int  # Spoils Of War it may still take (each 5 XP gives one)
    next_spoil_at: int  # XP at which the next Spoil becomes available


@dataclass(frozen=True)
class Roster:
    squad: str
    owner: str
    ruleset: str  # "Skirm"
    matches: int  # matches played with this stored squad
    units: tuple[RosterUnit, ...]
    # The ruleset's campaign numbers (Skirm: MEDAL_XP, SPOILS_XP_STEP), passed in by the service
    # so the picture knows no rulebook: each medal's XP, and the XP between two Spoils.
    medal_xp: Mapping[str, int] = field(default_factory=dict)
    spoil_step: int = 1


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def medal_chips(medals: tuple[str, ...], known: Mapping[str, int]) -> list[tuple[str, str, bool]]:
    """The medals as chips (pill, title, alert): one per medal, in the order each was last
    earned, the pill its XP ("+2") when the ruleset's list (`known`) has it, repeats counted."""
    counts = Counter(medals)
    latest_last = list(dict.fromkeys(reversed(medals)))[::-1]
    chips: list[tuple[str, str, bool]] = []
    for medal in latest_last:
        count = counts[medal]
        xp = known.get(medal)
        pill = f"+{xp}" if xp is not None else "XP"
        chips.append((pill, f"{medal} x{count}" if count > 1 else medal, False))
    return chips


def spoils_text(available: int) -> str:
    return f"{_plural(available, 'Spoil', 'Spoils')} Of War to choose"


def _title_band(b: _Builder, roster: Roster) -> None:
    top = b.y
    start = len(b.items)
    b.y += 12
    ink = colour("header_text")
    for line in wrap(roster.squad, NAME_SIZE, INNER):
        b.text(MARGIN, b.y, line, NAME_SIZE, ink)
        b.y += _line_height(NAME_SIZE)
    b.y += 2
    played = _plural(roster.matches, "match", "matches")
    b.paragraph(MARGIN, roster.owner, SUBTITLE_SIZE, ink, INNER)
    b.paragraph(MARGIN, f"{roster.ruleset} · {played} played", SUBTITLE_SIZE, colour("gold"),
                INNER)  # fmt: skip
    b.y += 10
    b.items[start:start] = [
        Shape("rect", (0, top, WIDTH - 1, b.y - 1), colour("header")),
        Shape("rect", (0, b.y - 4, WIDTH - 1, b.y - 1), colour("gold")),
    ]


def _xp_bar(b: _Builder, unit: RosterUnit, step: int, left: float, right: float) -> None:
    """The unit's XP between the last Spoil's mark and the next, in segments of one XP."""
    start = max(0, unit.next_spoil_at - step)
    span = max(1, unit.next_spoil_at - start)
    gained = max(0, min(span, unit.xp - start))
    top, bottom = b.y, b.y + BAR_HEIGHT
    b.rect((left, top, right, bottom), colour("pip_empty"), radius=4)
    if gained:
        filled = left + (right - left) * gained / span
        b.rect((left, top, round(filled, 2), bottom), colour("objective"), radius=4)
    if span <= SEGMENTS_MAX:
        for k in range(1, span):
            x = round(left + (right - left) * k / span, 2)
            b.rect((x - 1, top, x + 1, bottom), colour("white"))
    b.rect((left, top, right, bottom), None, colour("grid"), 1, 4)
    b.y = bottom


def _unit(b: _Builder, unit: RosterUnit, roster: Roster) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    inner_left, inner_right = left + 12, right - 12
    width = inner_right - inner_left
    top = b.y
    start = len(b.items)
    b.y += 10
    b.paragraph(inner_left, unit.name, WEAPON_NAME_SIZE, colour("ink"), width)
    b.paragraph(inner_left, unit.unit_type, BODY_SIZE, colour("label"), width)
    b.y += 8

    # XP: the figure, where the next Spoil is, then the bar towards it.
    middle = b.y + _line_height(WEAPON_STAT_SIZE) / 2
    b.text(inner_left, middle, "XP", STAT_LABEL_SIZE, colour("label"), "lm")
    x = inner_left + font(STAT_LABEL_SIZE).getlength("XP") + 6
    b.text(x, middle, str(unit.xp), WEAPON_STAT_SIZE, colour("ink"), "lm")
    x += font(WEAPON_STAT_SIZE).getlength(str(unit.xp)) + 16
    to_go = unit.next_spoil_at - unit.xp
    goal = f"next Spoil at {unit.next_spoil_at} XP" + (f" ({to_go} to go)" if to_go > 0 else "")
    goal = goal if font(STAT_LABEL_SIZE).getlength(goal) <= inner_right - x else goal.split(" (")[0]
    b.text(inner_right, middle, goal, STAT_LABEL_SIZE, colour("label"), "rm")
    b.y += _line_height(WEAPON_STAT_SIZE) + 2
    _xp_bar(b, unit, roster.spoil_step, inner_left, inner_right)
    b.y += 8
    taken = f"{_plural(unit.spoils_taken, 'Spoil', 'Spoils')} Of War taken"
    b.paragraph(inner_left, taken, STAT_LABEL_SIZE, colour("label"), width)

    # Medals.
    b.y += 6
    chips = medal_chips(unit.medals, roster.medal_xp)
    if chips:
        b.chips(chips, inner_left, inner_right, CHIP_SIZE, colour("gold"))
    else:
        b.paragraph(inner_left, "No medals yet", BODY_SIZE, colour("label"), width)

    # A Spoil to choose: highlighted.
    if unit.spoils_available > 0:
        b.y += 8
        box_top = b.y
        box_start = len(b.items)
        b.y += 6
        for line in wrap(spoils_text(unit.spoils_available), BODY_SIZE, width - 20):
            b.text(inner_left + 10, b.y + _line_height(BODY_SIZE) / 2, line, BODY_SIZE,
                   colour("ink"), "lm")  # fmt: skip
            b.y += _line_height(BODY_SIZE)
        b.y += 6
        b.items.insert(
            box_start,
            Shape("rect", (inner_left, box_top, inner_right, b.y), colour("gold"),
                  colour("side1_dark"), 2, 6),
        )  # fmt: skip
    b.y += 12
    b.items.insert(
        start, Shape("rect", (left, top, right, b.y), colour("white"), colour("grid"), 1, 8)
    )


def roster_layout(roster: Roster) -> Layout:
    """Where every shape and text of the roster card goes; the height fits the units."""
    b = _Builder()
    _title_band(b, roster)
    _section(b, f"UNITS ({len(roster.units)})" if roster.units else "UNITS")
    if not roster.units:
        b.paragraph(MARGIN, "No units", BODY_SIZE, colour("label"), INNER)
    for number, unit in enumerate(roster.units):
        if number:
            b.y += 10
        _unit(b, unit, roster)
    b.y += 16
    return Layout(WIDTH, b.y, tuple(b.items))


def roster_texts(roster: Roster) -> list[Text]:
    return roster_layout(roster).texts


def roster_lines(roster: Roster) -> list[str]:
    """The card's texts in drawing order, as words."""
    return [text.text for text in roster_texts(roster)]


def roster_png(roster: Roster) -> bytes:
    """The roster card as PNG bytes (equal rosters give equal bytes)."""
    return layout_png(roster_layout(roster))
