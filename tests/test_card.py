"""The unit stat card picture: size, squad colour, HIT, determinism, PNG size, text fitting."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO
from typing import Any

import pytest
from PIL import Image

from skirmbot.content import load_squad, names
from skirmbot.render.card import (
    MARGIN,
    WIDTH,
    Shape,
    card_layout,
    card_lines,
    card_png,
    card_texts,
    render_card,
)
from skirmbot.render.palette import colour, side_colour
from skirmbot.rules.skirm.cards import UNIT_RULES, WEAPON_RULES, UnitCard, card_from_json
from skirmbot.rules.skirm.state import ACTIVATED, TAKEN_OUT, UnitState
from skirmbot.rules.skirm.view import SKIRM, unit_card_view
from skirmbot.rules.view import CardView

SHIPPED = [
    (squad.name, side, card)
    for side, name in enumerate(names("squads"))
    for squad in [load_squad(name)]
    for card in squad.units
]


def _card(name: str = "Halden", squad: str = "iron-wardens") -> UnitCard:
    card = next(c for c in load_squad(squad).units if c.name == name)
    return card


LONG_NAME = "Maximilianus Aurelius the Unbreakable Wallbreaker of Everlasting Iron"
LONG_WEAPON = "Supercalifragilisticexpialidociousandthensomemoreletters Cannon of Doom"
LONG_TYPE = "Ultra Heavy Siege Commander of the Iron Gate and the Seven Towers"


def _huge_card() -> UnitCard:
    """Every rule, long names, a word too long for any line: the worst case for fitting. Squad
    files now limit names to 32 characters, so the long names are put on the card after it is
    read (a record from before the limit may still hold them)."""
    weapon: dict[str, Any] = {
        "name": "Cannon",
        "type": "ranged",
        "roa": 8,
        "dam": 5,
        "ep": 30,
        "specials": [
            "RG12", "*", "+SK", "2RC", "AH1", "BLS", "CR2", "DD1", "HVY", "LIM", "LNR", "MCR",
            "NCV", "PR1", "RLT", "RND", "SK4", "SPR", "STN", "UWD", "XP10", "XPL",
        ],
    }  # fmt: skip
    card = card_from_json(
        {
            "name": "Maximilianus",
            "type": "Ultra Heavy Siege Commander",
            "ep": 40, "act": 4, "msk": 5, "rsk": 5, "arm": 5, "hit": 6,
            "specials": [
                "LD3", "UNQ", "2MC", "2RC", "BLS", "BR2", "CAM", "CTR", "DLS", "FLY", "INF",
                "LP4", "NEQ", "NMB", "PAR", "PR2", "RGR", "SWF", "TCH", "TG2",
            ],
            "weapons": [weapon, {"name": "Fist", "type": "melee", "roa": 2, "dam": 1}],
        },
        "test",
    )  # fmt: skip
    cannon, fist = card.weapons
    weapons = (replace(cannon, name=LONG_WEAPON), fist)
    return replace(card, name=LONG_NAME, unit_type=LONG_TYPE, weapons=weapons)


def _assert_fits(unit: UnitState, squad_name: str) -> None:
    layout = card_layout(cv(unit, squad_name))
    assert layout.width == WIDTH
    for text in layout.texts:
        left, top, right, bottom = text.bbox
        where = f"{unit.card.name}: {text.text!r} at {text.bbox}"
        assert left >= MARGIN / 2 and right <= WIDTH - MARGIN / 2, where
        assert top >= 0 and bottom <= layout.height, where
    for shape in layout.items:
        if isinstance(shape, Shape):
            xs = shape.points[0::2]
            assert min(xs) >= 0 and max(xs) <= WIDTH - 1, f"{unit.card.name}: {shape}"


def cv(unit: UnitState, squad_name: str) -> CardView:
    """The unit's card as Skirm shows it (what the service gets from `Ruleset.card`)."""
    return unit_card_view(unit, squad_name, SKIRM)


def _pixel(image: Image.Image, x: int, y: int) -> int:
    value = image.getpixel((x, y))
    assert isinstance(value, int)
    return value


def test_width_is_fixed_and_height_grows_with_weapons_and_rules() -> None:
    halden = _card()
    base = render_card(cv(UnitState("Halden", 0, halden, 3), "Iron Wardens"))
    assert 480 <= base.width <= 560
    assert base.mode == "P"
    more_weapons = replace(halden, weapons=halden.weapons + _card("Osk").weapons)
    more_rules = replace(halden, specials=_huge_card().specials)
    for bigger in (more_weapons, more_rules):
        image = render_card(cv(UnitState("Halden", 0, bigger, 3), "Iron Wardens"))
        assert image.width == base.width
        assert image.height > base.height
    assert 300 <= base.height <= 1200


def test_title_band_has_the_squad_colour() -> None:
    card = _card()
    blue = render_card(cv(UnitState("Halden", 0, card, 3), "Iron Wardens"))
    orange = render_card(cv(UnitState("Halden", 1, card, 3), "Iron Wardens"))
    for x, y in ((3, 3), (WIDTH // 2, 6), (WIDTH - 4, 50)):
        assert _pixel(blue, x, y) == side_colour(0)
        assert _pixel(orange, x, y) == side_colour(1)
    assert side_colour(0) != side_colour(1)


def test_current_hit_changes_the_picture() -> None:
    card = _card()
    full, hurt = (UnitState("Halden", 0, card, hit) for hit in (3, 2))
    assert card_png(cv(full, "Iron Wardens")) != card_png(cv(hurt, "Iron Wardens"))
    assert "3/3" in card_lines(cv(full, "Iron Wardens"))
    assert "2/3" in card_lines(cv(hurt, "Iron Wardens"))


def test_hit_pips_are_filled_for_remaining_and_hollow_for_lost() -> None:
    unit = UnitState("Halden", 1, _card(), 1)
    items = card_layout(cv(unit, "Iron Wardens")).items
    pips = [s for s in items if isinstance(s, Shape) and s.kind == "ellipse"][:3]
    assert [s.fill for s in pips] == [side_colour(1), colour("white"), colour("white")]


def test_equal_units_give_equal_bytes() -> None:
    one = UnitState("Osk", 0, _card("Osk"), 1, status=ACTIVATED, lim_uses_left={"Frag Grenade": 0})
    two = UnitState("Osk", 0, _card("Osk"), 1, status=ACTIVATED, lim_uses_left={"Frag Grenade": 0})
    assert card_png(cv(one, "Iron Wardens")) == card_png(cv(two, "Iron Wardens"))


@pytest.mark.parametrize("squad_name,side,card", SHIPPED, ids=[c.name for _, _, c in SHIPPED])
def test_every_shipped_unit_renders_within_the_card(
    squad_name: str, side: int, card: UnitCard
) -> None:
    lim_spent = {w.name: 0 for w in card.weapons if w.has("LIM")}
    states = [
        UnitState(card.name, side, card, card.hit),
        UnitState(card.name, side, card, 0, status=TAKEN_OUT, lim_uses_left=lim_spent),
        UnitState(card.name, side, card, 1, status=ACTIVATED, carrying=0),
    ]
    for unit in states:
        _assert_fits(unit, squad_name)
        data = card_png(cv(unit, squad_name))
        assert len(data) < 60_000
        image = Image.open(BytesIO(data))
        assert image.size == (WIDTH, card_layout(cv(unit, squad_name)).height)


def test_long_names_and_many_rules_wrap_inside_the_card() -> None:
    unit = UnitState("Max", 1, _huge_card(), 4, lim_uses_left={}, carrying=2)
    squad = "The Exceedingly Long Squad Name That Goes On And On"
    _assert_fits(unit, squad)
    lines = card_lines(cv(unit, squad))
    assert LONG_NAME not in lines
    assert "Maximilianus" in " ".join(lines)
    assert len(card_png(cv(unit, squad))) < 60_000


def test_special_rules_show_code_and_title() -> None:
    vex = card_lines(cv(UnitState("Vex", 1, _card("Vex", "ash-runners"), 3), "Ash Runners"))
    for word in ("LD1", "Leader 1", "SWF", "Swift", "UNQ", "Unique", "2MC", "Double Melee"):
        assert word in vex
    assert "LEADER" in vex
    assert "RG" in vex and "5" in vex  # the crossbow's range as a stat
    assert "RG5" not in vex  # ... not repeated as a rule
    pell = card_lines(cv(UnitState("Pell", 0, _card("Pell"), 2), "Iron Wardens"))
    assert "LEADER" not in pell


def test_every_rule_code_has_a_title() -> None:
    assert set(UNIT_RULES) <= set(SKIRM.unit_rule_titles)
    assert set(WEAPON_RULES) <= set(SKIRM.weapon_rule_titles)


def test_used_limited_ammo_is_marked_used() -> None:
    osk = _card("Osk")
    fresh = card_lines(cv(UnitState("Osk", 0, osk, 2, lim_uses_left={"Frag Grenade": 1}), "IW"))
    spent = card_lines(cv(UnitState("Osk", 0, osk, 2, lim_uses_left={"Frag Grenade": 0}), "IW"))
    assert "Limited Ammo" in fresh and "Limited Ammo: used" not in fresh
    assert "Limited Ammo: used" in spent


def test_status_line() -> None:
    card = _card("Pell")
    assert "Ready" in card_lines(cv(UnitState("Pell", 0, card, 2), "IW"))
    assert "Activated" in card_lines(cv(UnitState("Pell", 0, card, 2, status=ACTIVATED), "IW"))
    assert "Taken Out" in card_lines(cv(UnitState("Pell", 0, card, 0, status=TAKEN_OUT), "IW"))
    carrying = card_lines(cv(UnitState("Pell", 0, card, 2, carrying=4), "IW"))
    assert any("carrying a marker" in line for line in carrying)


def test_ep_shows_unit_gear_and_total() -> None:
    lines = card_lines(cv(UnitState("Halden", 0, _card(), 3), "Iron Wardens"))
    assert "19 unit + 7 gear = 26" in lines


def test_texts_are_placed_for_every_line() -> None:
    unit = UnitState("Halden", 0, _card(), 3)
    assert [t.text for t in card_texts(cv(unit, "Iron Wardens"))] == card_lines(
        cv(unit, "Iron Wardens")
    )
