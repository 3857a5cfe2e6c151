"""The league standings picture: columns in the configured order, shared ranks, dropped players,
long names shortened, many rows, an empty table, texts inside the picture, equal bytes."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO
from itertools import combinations
from typing import Any

import pytest
from PIL import Image

from skirmbot.render.card import Layout, Shape, Text
from skirmbot.render.palette import colour, font
from skirmbot.render.standings import (
    COLUMNS,
    ELLIPSIS,
    MARGIN,
    MAX_ROWS,
    PAD,
    ROW_SIZE,
    WIDTH,
    StandingsRow,
    StandingsTable,
    shorten,
    standings_layout,
    standings_lines,
    standings_png,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
HEADINGS = ["#", "Player", "W-D-L", "Pts", "MP±", "SoS", "Rating"]


def _row(rank: int, name: str, **changes: Any) -> StandingsRow:
    row = StandingsRow(
        rank=rank, name=name, wins=3, draws=1, losses=0, points=10, mp_difference=12,
        strength_of_schedule=20, rating=25.44,
    )  # fmt: skip
    return replace(row, **changes)


def _table(
    rows: tuple[StandingsRow, ...] | list[StandingsRow],
    columns: tuple[str, ...] = COLUMNS,
) -> StandingsTable:
    return StandingsTable("Autumn League", "Skirm · Swiss, round 3 of 5", columns, tuple(rows))


SAMPLE = [
    _row(1, "Ada"),
    _row(2, "Bo", wins=2, draws=2, points=8, mp_difference=-3, rating=-0.04),
    _row(2, "Cy", wins=2, draws=2, points=8, mp_difference=0, rating=19.0),
    _row(4, "Dee", wins=1, draws=0, losses=3, points=3, dropped=True),
    _row(5, "Eve", wins=0, draws=0, losses=4, points=0, mp_difference=-30),
]


def _overlaps(a: Text, b: Text) -> bool:
    al, at, ar, ab = a.bbox
    bl, bt, br, bb = b.bbox
    return al < br and bl < ar and at < bb and bt < ab


def _assert_fits(layout: Layout) -> None:
    """Every text inside the picture (off its side margins), no two texts overlapping, every
    shape inside the picture."""
    for text in layout.texts:
        left, top, right, bottom = text.bbox
        where = f"{text.text!r} at {text.bbox}"
        assert left >= MARGIN / 2 and right <= layout.width - MARGIN / 2, where
        assert top >= 0 and bottom <= layout.height, where
    for a, b in combinations(layout.texts, 2):
        assert not _overlaps(a, b), f"{a.text!r} {a.bbox} overlaps {b.text!r} {b.bbox}"
    for item in layout.items:
        if isinstance(item, Shape):
            xs, ys = item.points[0::2], item.points[1::2]
            assert min(xs) >= 0 and max(xs) <= layout.width - 1, item
            assert min(ys) >= 0 and max(ys) <= layout.height, item


def _texts_of_row(layout: Layout, name: str) -> list[Text]:
    """The texts of the row whose player column starts with `name`, left to right."""
    player = next(t for t in layout.texts if t.text.startswith(name) and t.anchor == "lm")
    row = [t for t in layout.texts if t.y == player.y]
    return sorted(row, key=lambda t: t.bbox[0])


def _name_cell_width(layout: Layout) -> float:
    """The player column's room for text: from the heading "Player" to the next column."""
    headings = sorted(
        (t for t in layout.texts if t.text in HEADINGS and t.size != ROW_SIZE),
        key=lambda t: t.x,
    )
    player = next(t for t in headings if t.text == "Player")
    following = headings[headings.index(player) + 1]
    return following.bbox[0] - player.x  # the next heading is right-aligned: a bound


def test_header_headings_and_rows_in_the_configured_order() -> None:
    layout = standings_layout(_table(SAMPLE))
    lines = [t.text for t in layout.texts]
    assert lines[:3] == ["Autumn League", "Skirm · Swiss, round 3 of 5", "5 players"]
    assert lines[3:10] == HEADINGS
    assert lines[10:17] == ["1", "Ada", "3-1-0", "10", "+12", "20", "25.4"]
    assert layout.width == WIDTH
    _assert_fits(layout)


def test_columns_follow_the_configured_tiebreak_order() -> None:
    columns = ("rank", "name", "rating", "mp_difference", "points", "record")
    layout = standings_layout(_table(SAMPLE, columns))
    lines = [t.text for t in layout.texts]
    assert lines[3:9] == ["#", "Player", "Rating", "MP±", "Pts", "W-D-L"]
    assert "SoS" not in lines and "20" not in lines  # strength of schedule is not shown
    row = _texts_of_row(layout, "Bo")
    assert [t.text for t in row] == ["=2", "Bo", "0.0", "-3", "8", "2-2-0"]
    headings = [t for t in layout.texts if t.text in HEADINGS]
    assert [h.text for h in sorted(headings, key=lambda t: t.x)] == [h.text for h in headings]
    _assert_fits(layout)


def test_any_subset_and_order_of_columns_fits() -> None:
    for columns in (("points", "rank"), ("name",), ("rating", "name", "rank"), COLUMNS[::-1]):
        layout = standings_layout(_table(SAMPLE, columns))
        assert [t.text for t in layout.texts][3 : 3 + len(columns)] == [
            HEADINGS[COLUMNS.index(c)] for c in columns
        ]
        _assert_fits(layout)


def test_unknown_or_repeated_columns_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown"):
        standings_layout(_table(SAMPLE, ("rank", "elo")))
    with pytest.raises(ValueError, match="repeated"):
        standings_layout(_table(SAMPLE, ("rank", "rank")))
    with pytest.raises(ValueError):
        standings_layout(_table(SAMPLE, ()))


def test_shared_ranks_read_equal() -> None:
    lines = standings_lines(_table(SAMPLE))
    assert lines.count("=2") == 2
    assert "1" in lines and "4" in lines and "=1" not in lines and "=4" not in lines


def test_numbers_are_signed_and_rounded() -> None:
    layout = standings_layout(_table(SAMPLE))
    assert [t.text for t in _texts_of_row(layout, "Eve")] == [
        "5", "Eve", "0-0-4", "0", "-30", "20", "25.4",
    ]  # fmt: skip
    assert [t.text for t in _texts_of_row(layout, "Cy")][4:] == ["0", "20", "19.0"]
    assert [t.text for t in _texts_of_row(layout, "Bo")][-1] == "0.0"  # never "-0.0"


def test_dropped_players_are_greyed_and_marked() -> None:
    layout = standings_layout(_table(SAMPLE))
    dee = _texts_of_row(layout, "Dee")
    assert dee[1].text == "Dee (dropped)"
    assert {t.fill for t in dee} == {colour("miss")}
    assert {t.fill for t in _texts_of_row(layout, "Ada")} == {colour("ink")}


@pytest.mark.parametrize(
    "name",
    [
        "Maximilianus Aurelius the Unbreakable Wa",  # 40 letters
        "漢字" * 20,  # 40 CJK characters
        "😀" * 40,
        "👨\u200d👩\u200d👧" * 14,  # family emoji: zero-width joiner sequences
        "🇫🇷🇩🇪🇯🇵🇧🇷" * 10,  # flags: regional indicator pairs
        "Jose\u0301 Mari\u0301a " * 5,  # letters with combining accents
    ],
    ids=["latin", "cjk", "emoji", "zwj", "flags", "accents"],
)
@pytest.mark.parametrize("dropped", [False, True])
def test_long_names_are_shortened_to_fit(name: str, dropped: bool) -> None:
    rows = [_row(1, "Ada"), _row(2, name, dropped=dropped), _row(3, "Cy")]
    layout = standings_layout(_table(rows))
    _assert_fits(layout)
    cell = _texts_of_row(layout, name[:1])[1]
    keep = " (dropped)" if dropped else ""
    assert cell.text.endswith(ELLIPSIS + keep)
    shown = cell.text.removesuffix(ELLIPSIS + keep)
    assert shown and name.startswith(shown)
    assert font(ROW_SIZE).getlength(cell.text) <= _name_cell_width(layout) - PAD
    # Never cut inside a character: no dangling joiner, half flag or accent without its letter.
    rest = name[len(shown) :].lstrip()
    assert not shown.endswith("\u200d")
    assert rest[:1] not in ("\u200d", "\u0301")
    flags = sum(1 for c in shown if 0x1F1E6 <= ord(c) <= 0x1F1FF)
    assert flags % 2 == 0


def test_short_names_and_names_with_odd_spaces_are_whole() -> None:
    rows = [_row(1, "Ada  Lovelace"), _row(2, "Bo\nBo"), _row(3, "😀 Cy")]
    lines = standings_lines(_table(rows))
    assert "Ada Lovelace" in lines and "Bo Bo" in lines and "😀 Cy" in lines


def test_shorten_in_small_rooms() -> None:
    assert shorten("Ada", ROW_SIZE, 1000) == "Ada"
    assert shorten("Ada Lovelace", ROW_SIZE, font(ROW_SIZE).getlength("Ada L…")) == "Ada L…"
    assert shorten("Ada Lovelace", ROW_SIZE, font(ROW_SIZE).getlength("Ada …")) == "Ada…"
    assert shorten("Ada Lovelace", ROW_SIZE, 1) == ""


def test_sixty_four_rows_then_how_many_more() -> None:
    rows = [_row(n + 1, f"Player {n + 1}", rating=30 - n / 3) for n in range(MAX_ROWS + 6)]
    full = standings_layout(_table(rows[:MAX_ROWS]))
    over = standings_layout(_table(rows))
    _assert_fits(over)
    full_lines = [t.text for t in full.texts]
    over_lines = [t.text for t in over.texts]
    assert f"Player {MAX_ROWS}" in full_lines and not any("more" in x for x in full_lines)
    assert over_lines[-1] == "+6 more"
    assert f"Player {MAX_ROWS}" in over_lines and f"Player {MAX_ROWS + 1}" not in over_lines
    assert over_lines[2] == f"{MAX_ROWS + 6} players"
    assert over.height > full.height
    assert over.width == WIDTH


def test_shared_ranks_count_rows_past_the_last_drawn() -> None:
    rows = [_row(n + 1, f"P{n + 1}") for n in range(MAX_ROWS - 1)]
    rows += [_row(MAX_ROWS, "Last shown"), _row(MAX_ROWS, "Not shown")]
    layout = standings_layout(_table(rows))
    assert _texts_of_row(layout, "Last shown")[0].text == f"={MAX_ROWS}"


def test_an_empty_table() -> None:
    layout = standings_layout(_table([]))
    lines = [t.text for t in layout.texts]
    assert lines == ["Autumn League", "Skirm · Swiss, round 3 of 5", "0 players", *HEADINGS,
                     "No players yet"]  # fmt: skip
    _assert_fits(layout)
    image = Image.open(BytesIO(standings_png(_table([]))))
    assert image.size == (layout.width, layout.height)


def test_long_league_name_and_subtitle_are_shortened() -> None:
    table = StandingsTable("The " + "Very " * 40 + "Long League", "after round 2 " * 20, COLUMNS,
                           tuple(SAMPLE))  # fmt: skip
    layout = standings_layout(table)
    _assert_fits(layout)
    assert layout.texts[0].text.endswith(ELLIPSIS)
    assert layout.texts[1].text.endswith(ELLIPSIS)


def test_huge_numbers_widen_the_picture_rather_than_overflow() -> None:
    rows = [_row(1, "Ada", wins=10**9, points=10**12, mp_difference=-(10**12), rating=1e12)]
    layout = standings_layout(_table(rows))
    _assert_fits(layout)
    assert layout.width >= WIDTH


def test_rows_alternate_their_shading_and_the_band_is_dark() -> None:
    layout = standings_layout(_table(SAMPLE))
    image = Image.open(BytesIO(standings_png(_table(SAMPLE))))
    assert image.mode == "P"
    assert image.getpixel((3, 3)) == colour("header")
    ada, bo = _texts_of_row(layout, "Ada")[0], _texts_of_row(layout, "Bo")[0]
    assert image.getpixel((3, round(ada.y))) == colour("background")
    assert image.getpixel((3, round(bo.y))) == colour("level0")


def test_equal_tables_give_equal_png_bytes() -> None:
    one = standings_png(_table(SAMPLE))
    two = standings_png(_table([replace(row) for row in SAMPLE]))
    assert one == two
    assert one.startswith(PNG_SIGNATURE)
    assert one != standings_png(_table(SAMPLE[:-1]))
    big = standings_png(_table([_row(n, f"Player {n}") for n in range(1, 80)]))
    assert big.startswith(PNG_SIGNATURE) and len(big) < 200_000


@pytest.mark.parametrize(
    "name",
    ["👨\u200d👩\u200d👧" * 6, "🇫🇷🇩🇪🇯🇵" * 4, "Jose\u0301" * 8, "👍🏽" * 10, "❤\ufe0f" * 10],
    ids=["zwj", "flags", "accents", "skin-tone", "variation"],
)
def test_shorten_never_cuts_inside_a_character(name: str) -> None:
    joiners = {"\u200d", "\u0301", "\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))}
    for width in range(10, round(font(ROW_SIZE).getlength(name)), 3):
        shown = shorten(name, ROW_SIZE, width).removesuffix(ELLIPSIS)
        assert name.startswith(shown)
        following = name[len(shown) : len(shown) + 1]
        assert following not in joiners and not shown.endswith("\u200d"), (width, shown)
        assert sum(1 for c in shown if 0x1F1E6 <= ord(c) <= 0x1F1FF) % 2 == 0, (width, shown)
