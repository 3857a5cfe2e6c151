"""Every name is drawn in glyphs (issue 28): the pictures' font draws Latin with its diacritics,
Greek, Cyrillic and the common Chinese, Japanese and Korean, and a character it has no glyph for
(an emoji) as a readable stand-in, never as the missing-glyph box."""

from __future__ import annotations

from collections.abc import Iterator
from io import BytesIO
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from skirmbot.demo import default_content, new_demo_match, play_out
from skirmbot.render import palette
from skirmbot.render.battlemap import MapRenderer, unit_labels
from skirmbot.render.card import card_png
from skirmbot.render.palette import drawable, font, has_glyph
from skirmbot.render.replay import activation_steps
from skirmbot.render.roster import Roster, RosterUnit, roster_png
from skirmbot.render.standings import COLUMNS, StandingsRow, StandingsTable, standings_png
from skirmbot.rules.record import record_of
from skirmbot.rules.ruleset import ruleset

NAMES = [
    "Zoë",
    "Ørjan",
    "Ярослав",
    "Σπάρτη",
    "鉄の守り",
    "🐺 Wolves",
    "김민준",
    "Nguyễn",
    "Zoe\u0308",
]
SIZE = 20
PRIVATE_USE = "\ue000"  # no font has it: FreeType draws the font's missing-glyph box


def _drawn(face: ImageFont.FreeTypeFont, text: str) -> bytes:
    image = Image.new("L", (SIZE * 16, SIZE * 2), 0)
    ImageDraw.Draw(image).text((SIZE // 2, SIZE // 2), text, fill=255, font=face)
    return image.tobytes()


def _box(face: ImageFont.FreeTypeFont) -> bytes:
    """The missing-glyph box of the face's font file, drawn by Pillow's own font class (which
    draws a character as the file has it, stand-ins aside)."""
    raw = ImageFont.FreeTypeFont(
        BytesIO(face.font_bytes), face.size, layout_engine=ImageFont.Layout.BASIC
    )
    return _drawn(raw, PRIVATE_USE)


@pytest.mark.parametrize("name", NAMES)
def test_each_character_of_a_name_draws_as_a_glyph_not_the_box(name: str) -> None:
    face = font(SIZE)
    assert isinstance(face, ImageFont.FreeTypeFont)
    box, blank = _box(face), _drawn(face, "")
    for char in name:
        assert _drawn(face, char) not in (box, blank) or char.isspace(), f"{char!r} of {name!r}"


@pytest.mark.parametrize("name", NAMES)
def test_the_font_has_every_character_a_name_is_drawn_with(name: str) -> None:
    assert all(map(has_glyph, drawable(name)))


def test_an_emoji_is_drawn_as_its_name_and_what_only_changes_it_as_nothing() -> None:
    assert drawable("🐺 Wolves") == "[wolf face] Wolves"
    assert drawable("👍🏽") == "[thumbs up sign]"  # the skin tone modifier changes the hand
    assert drawable("★\ufe0f") == "★"  # the font has the star; the emoji presentation selector goes
    assert drawable("👨\u200d👧") == "[man][girl]"  # the joiner goes
    assert drawable("🇫🇷 Bleus") == "[FR] Bleus"  # a flag is two letters, its country code
    assert drawable("Zoe\u0308") == "Zoë"  # the composed letter, which the font has


def test_text_is_measured_as_it_is_drawn() -> None:
    face = font(SIZE)
    assert face.getlength("🐺") == face.getlength("[wolf face]")
    assert face.getbbox("🐺 Wolves") == face.getbbox("[wolf face] Wolves")


def test_every_range_the_coverage_lists_draws_glyphs_and_past_it_the_box() -> None:
    """coverage.txt is written by scripts/build_fonts.py with the font: both ends of each
    range draw a glyph, and the character after a range (when not a space) draws the box."""
    face = font(SIZE)
    raw = ImageFont.FreeTypeFont(
        BytesIO(face.font_bytes), SIZE, layout_engine=ImageFont.Layout.BASIC
    )
    box = _box(face)
    firsts, lasts = palette._coverage()
    assert len(firsts) > 100
    for first, last in zip(firsts, lasts, strict=True):
        for point in (first, last):
            if chr(point).isprintable() and not chr(point).isspace():
                assert _drawn(raw, chr(point)) != box, hex(point)
    assert _drawn(raw, chr(lasts[-1] + 1)) == box
    assert _drawn(raw, "🐺") == box


# --- the pictures: a demo match and the cards with names in every script ----------------------
SQUADS = ("Zoë's Ørjan Ярослав", "🐺 Wolves 鉄の守り Σπάρτη")
UNITS = ("Zoë", "鉄の守り", "🐺", "김민준")


@pytest.fixture
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the pictures draw, as given to the font (stand-ins not yet applied)."""
    texts: list[str] = []
    draw = palette.NamedFont.getmask2

    def recorded(self: palette.NamedFont, text: str, *args: Any, **kwargs: Any) -> Any:
        texts.append(text)
        return draw(self, text, *args, **kwargs)

    monkeypatch.setattr(palette.NamedFont, "getmask2", recorded)
    palette._text_mask.cache_clear()
    yield texts
    palette._text_mask.cache_clear()


def _assert_drawn_in_glyphs(texts: list[str], names: tuple[str, ...]) -> None:
    joined = "\n".join(texts)
    for word in " ".join(names).split():  # a long name may be drawn on two lines
        assert word in joined, f"{word!r} is not drawn"
    for text in texts:
        assert all(map(has_glyph, drawable(text))), text


@pytest.mark.parametrize("rules", ["skirm", "lite"])
def test_the_demo_pictures_draw_renamed_squads_and_units_in_glyphs(
    rules: str, drawn_texts: list[str]
) -> None:
    """What `skirmbot demo --seed 1` (and `--ruleset lite`) draws, with the squads and units
    renamed in every script: the battlemap's header, caption and tokens, and a stat card."""
    data = default_content(rules=rules)
    squads: Any = data["squads"]
    units = "units" if "units" in squads[0] else "agents"
    for squad, name in zip(squads, SQUADS, strict=True):
        squad["name"] = name
    squads[0][units][0]["name"], squads[0][units][1]["name"] = UNITS[:2]
    squads[1][units][0]["name"], squads[1][units][1]["name"] = UNITS[2:]
    match, data = new_demo_match(1, data, rules=rules)
    play_out(match, rules)
    record = record_of(match, data, ["Ørjan", "김민준"], ruleset(rules).name)
    renderer = MapRenderer()
    for state, events in list(activation_steps(record))[1::4]:
        renderer.png(state, events)
    card_png(ruleset(rules).card(match.state, next(iter(match.state.units))))
    _assert_drawn_in_glyphs(drawn_texts, SQUADS)
    assert "wol" in unit_labels(state).values()  # a token has no room for "[wolf face]"


def test_the_roster_and_standings_draw_names_in_every_script(drawn_texts: list[str]) -> None:
    units = tuple(RosterUnit(name, "Scout", 3, ("Veteran",), 0, 0, 5) for name in UNITS)
    roster_png(Roster(SQUADS[1], "Ørjan", "Skirm", 1, units))
    rows = tuple(
        StandingsRow(rank, name, 1, 0, 0, 3, 2, 1, 25.0) for rank, name in enumerate(UNITS, 1)
    )
    standings_png(StandingsTable("Лига Σπάρτη", "Skirm · Swiss", COLUMNS, rows))
    _assert_drawn_in_glyphs(drawn_texts, (SQUADS[1], "Ørjan", "Лига Σπάρτη", *UNITS))
