"""A campaign squad's roster card: the squad and owner, each unit's XP bar, medals as chips, a
Spoil to choose highlighted, texts inside the card and not overlapping, equal bytes."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO
from itertools import combinations

from PIL import Image

from skirmbot.render.card import MARGIN, WIDTH, Layout, Shape, Text
from skirmbot.render.palette import colour
from skirmbot.render.roster import (
    Roster,
    RosterUnit,
    medal_chips,
    roster_layout,
    roster_lines,
    roster_png,
)
from skirmbot.rules.skirm.medals import MEDAL_XP
from skirmbot.rules.skirm.squads import SPOILS_XP_STEP

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

HALDEN = RosterUnit(
    "Halden", "Warden Captain", 7, ("First Blood", "Victor", "Marksman", "Victor"), 1, 0, 10
)
OSK = RosterUnit("Osk", "Grenadier", 5, ("Geared Up",), 0, 1, 10)
PELL = RosterUnit("Pell", "Scout", 0, (), 0, 0, 5)
ROSTER = Roster("Iron Wardens", "Ada", "Skirm", 3, (HALDEN, OSK, PELL), MEDAL_XP, SPOILS_XP_STEP)


def _huge() -> Roster:
    """Long names (32 and 64 characters, as squad files allow), every medal, many spoils."""
    unit = RosterUnit(
        name="Maximilianus Aurelius the Unbrea",
        unit_type="Ultra Heavy Siege Commander of the Iron Gate and the Seven Towers",
        xp=123,
        medals=tuple(MEDAL_XP) * 2,
        spoils_taken=20,
        spoils_available=4,
        next_spoil_at=125,
    )
    cjk = replace(unit, name="漢字" * 16, unit_type="😀" * 64, medals=("Veteran",) * 30)
    return Roster("Supercalifragilisticexpialidocious" * 2, "👨\u200d👩\u200d👧 " * 12, "Skirm",
                  1, (unit, cjk), MEDAL_XP, SPOILS_XP_STEP)  # fmt: skip


def _overlaps(a: Text, b: Text) -> bool:
    al, at, ar, ab = a.bbox
    bl, bt, br, bb = b.bbox
    return al < br and bl < ar and at < bb and bt < ab


def _assert_fits(layout: Layout) -> None:
    assert layout.width == WIDTH
    for text in layout.texts:
        left, top, right, bottom = text.bbox
        where = f"{text.text!r} at {text.bbox}"
        assert left >= MARGIN / 2 and right <= WIDTH - MARGIN / 2, where
        assert top >= 0 and bottom <= layout.height, where
    for a, b in combinations(layout.texts, 2):
        assert not _overlaps(a, b), f"{a.text!r} {a.bbox} overlaps {b.text!r} {b.bbox}"
    for item in layout.items:
        if isinstance(item, Shape):
            xs, ys = item.points[0::2], item.points[1::2]
            assert min(xs) >= 0 and max(xs) <= WIDTH - 1, item
            assert min(ys) >= 0 and max(ys) <= layout.height, item


def _shapes(layout: Layout, fill: int) -> list[Shape]:
    return [s for s in layout.items if isinstance(s, Shape) and s.fill == fill]


def test_the_card_names_the_squad_owner_and_units() -> None:
    lines = roster_lines(ROSTER)
    assert lines[:3] == ["Iron Wardens", "Ada", "Skirm · 3 matches played"]
    for word in ("Halden", "Warden Captain", "Osk", "Grenadier", "Pell", "Scout", "UNITS (3)"):
        assert word in lines
    assert "Skirm · 1 match played" in roster_lines(replace(ROSTER, matches=1))
    _assert_fits(roster_layout(ROSTER))


def test_xp_and_the_next_spoil() -> None:
    lines = roster_lines(ROSTER)
    assert "7" in lines and "next Spoil at 10 XP (3 to go)" in lines
    assert "next Spoil at 5 XP (5 to go)" in lines
    assert "1 Spoil Of War taken" in lines and "0 Spoils Of War taken" in lines


def test_the_xp_bar_fills_towards_the_next_spoil() -> None:
    def filled(unit: RosterUnit) -> float:
        layout = roster_layout(replace(ROSTER, units=(unit,)))
        (track,) = [s for s in _shapes(layout, colour("pip_empty")) if s.points[3] > s.points[1]]
        fills = _shapes(layout, colour("objective"))
        if not fills:
            return 0.0
        (bar,) = fills
        return (bar.points[2] - bar.points[0]) / (track.points[2] - track.points[0])

    assert filled(HALDEN) == 0.4  # 7 XP: 2 of the 5 between 5 and 10
    assert filled(OSK) == 0.0  # 5 XP: the Spoil at 5 reached, none towards 10 yet
    assert filled(replace(PELL, xp=4)) == 0.8
    assert filled(replace(PELL, xp=9)) == 1.0  # more than the mark (a Spoil not yet counted)
    assert filled(replace(PELL, next_spoil_at=0)) == 0.0  # nonsense in: no crash


def test_medals_are_chips_with_their_xp_most_recent_last() -> None:
    assert medal_chips(HALDEN.medals, MEDAL_XP) == [
        ("+2", "First Blood", False),
        ("+2", "Marksman", False),
        ("+1", "Victor x2", False),
    ]
    assert medal_chips(("Shiny",), MEDAL_XP) == [("XP", "Shiny", False)]
    assert medal_chips(("Victor",), {}) == [("XP", "Victor", False)]
    lines = roster_lines(ROSTER)
    for word in ("+2", "First Blood", "Marksman", "+1", "Victor x2", "Geared Up", "No medals yet"):
        assert word in lines
    assert lines.count("No medals yet") == 1  # only Pell


def test_a_spoil_to_choose_is_highlighted() -> None:
    layout = roster_layout(ROSTER)
    lines = [t.text for t in layout.texts]
    assert lines.count("1 Spoil Of War to choose") == 1  # Osk only
    spoil = next(t for t in layout.texts if t.text == "1 Spoil Of War to choose")
    left, top, right, bottom = spoil.bbox
    boxes = [
        s for s in _shapes(layout, colour("gold"))
        if s.points[0] <= left and s.points[1] <= top
        and s.points[2] >= right and s.points[3] >= bottom
    ]  # fmt: skip
    assert boxes, "the Spoil line sits on a highlighted box"
    two = roster_lines(replace(ROSTER, units=(replace(OSK, spoils_available=2),)))
    assert "2 Spoils Of War to choose" in two
    none = roster_lines(replace(ROSTER, units=(HALDEN, PELL)))
    assert not any("to choose" in line for line in none)


def test_long_names_many_medals_and_emoji_stay_inside_the_card() -> None:
    roster = _huge()
    layout = roster_layout(roster)
    _assert_fits(layout)
    lines = [t.text for t in layout.texts]
    assert "4 Spoils Of War to choose" in lines
    assert "Veteran x30" in lines
    for medal in MEDAL_XP:
        assert f"{medal} x2" in lines
    assert layout.height > roster_layout(ROSTER).height


def test_a_roster_without_units() -> None:
    roster = replace(ROSTER, units=())
    layout = roster_layout(roster)
    assert [t.text for t in layout.texts][-2:] == ["UNITS", "No units"]
    _assert_fits(layout)


def test_the_title_band_is_dark() -> None:
    image = Image.open(BytesIO(roster_png(ROSTER)))
    assert image.mode == "P"
    assert image.getpixel((3, 3)) == colour("header")
    assert image.size == (WIDTH, roster_layout(ROSTER).height)


def test_equal_rosters_give_equal_png_bytes() -> None:
    one = roster_png(ROSTER)
    assert one == roster_png(replace(ROSTER, units=tuple(replace(u) for u in ROSTER.units)))
    assert one.startswith(PNG_SIGNATURE)
    assert one != roster_png(replace(ROSTER, units=(replace(HALDEN, xp=8), OSK, PELL)))
    assert roster_png(_huge()).startswith(PNG_SIGNATURE)
