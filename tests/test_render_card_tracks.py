"""A card's tracks drawn as rulebook 002's sample unit card draws them (skirmbot.render.card):
HP cells labelled 10 to 1, X over a fully crossed cell, one diagonal over a half crossed one,
the unused armour cells marked off, the AP and modifier rows under the cells in the same
columns; and read out as words from the same TrackView (`card_lines`, the /card reply's alt)."""

from __future__ import annotations

import pytest
from PIL import Image

from skirmbot.render.card import (
    CELL,
    WIDTH,
    Text,
    card_lines,
    card_texts,
    render_card,
)
from skirmbot.render.palette import colour
from skirmbot.rules.infantry import views
from skirmbot.rules.infantry.card import Mark, Track
from skirmbot.rules.infantry.setup import new_state
from skirmbot.rules.view import CardView, TrackView, track_words
from tests.infantry_boards import deployed
from tests.infantry_helpers import content

Box = tuple[float, float, float, float]

LABELS = tuple(str(hp) for hp in range(10, 0, -1))
# The rulebook's example (Unit Card ¶3): HP 9, 7 and 6 fully crossed, HP 5 half crossed.
EXAMPLE = ("", "full", "", "full", "full", "half", "", "", "", "")
HP = TrackView(
    title="HP",
    labels=LABELS,
    marks=EXAMPLE,
    rows=(("AP", ("8", "8", "8", "7", "7", "7", "6", "6", "6", "5")),),
    column=5,
)
ARMOUR = TrackView(
    title="Armour",
    labels=("1", "2", "3", "4", "5", "6"),
    marks=("", "full", "unused", "unused", "unused", "unused"),
    note="Basic",
)


def _card(*tracks: TrackView) -> CardView:
    return CardView("Rossi", "Corporal", 0, "Riflemen", (("HP", "5/10"),), tracks=tracks)


def _cell(card: CardView, track: int, label: str) -> Box:
    """The box of the cell labelled `label` of the card's track: its label is its centre."""
    text = next(t for t in _track_texts(card, track) if t.text == label and t.anchor == "mm")
    half = CELL / 2
    return (text.x - half, text.y - half, text.x + half, text.y + half)


def _track_texts(card: CardView, track: int) -> list[Text]:
    return [text for text in card_texts(card) if text.track == track]


def _pixel(image: Image.Image, x: float, y: float) -> int:
    value = image.getpixel((round(x), round(y)))
    assert isinstance(value, int)
    return value


def _on(image: Image.Image, box: Box, fx: float, fy: float) -> int:
    """The pixel at fractions (fx, fy) of the box's width and height."""
    x0, y0, x1, y1 = box
    return _pixel(image, x0 + fx * (x1 - x0), y0 + fy * (y1 - y0))


def _colours_in(image: Image.Image, box: Box) -> set[int]:
    x0, y0, x1, y1 = (round(v) for v in box)
    return {_pixel(image, x, y) for x in range(x0 + 3, x1 - 2) for y in range(y0 + 3, y1 - 2)}


def test_a_fully_crossed_cell_has_an_x_over_both_diagonals() -> None:
    """Unit Card ¶3: "HP cells are fully crossed out when the trooper takes lethal damage (X)":
    both diagonals of cells 9, 7 and 6 are inked in the cross's colour."""
    card = _card(HP)
    image = render_card(card)
    for label in ("9", "7", "6"):
        box = _cell(card, 0, label)
        for f in (0.2, 0.35, 0.65, 0.8):
            assert _on(image, box, f, f) == colour("hit"), (label, f)  # the \ diagonal
            assert _on(image, box, f, 1 - f) == colour("hit"), (label, f)  # the / diagonal


def test_a_half_crossed_cell_has_one_diagonal_only() -> None:
    """Unit Card ¶3: "partially crossed out when the trooper takes bludgeoning damage (\\)":
    cell 5 has the \\ diagonal and not the / one."""
    card = _card(HP)
    image = render_card(card)
    box = _cell(card, 0, "5")
    for f in (0.2, 0.35, 0.65, 0.8):
        assert _on(image, box, f, f) == colour("hit")
        assert _on(image, box, f, 1 - f) != colour("hit")


def test_a_clean_cell_has_no_cross() -> None:
    """Unit Card ¶3: only damage crosses a cell: 10, 8 and 4 to 1 are clean, labels on white."""
    card = _card(HP)
    image = render_card(card)
    for label in ("10", "8", "4", "3", "2", "1"):
        found = _colours_in(image, _cell(card, 0, label))
        assert colour("hit") not in found and colour("white") in found, label
        assert colour("ink") in found, label  # its label is drawn in it


def test_unused_armour_cells_are_hatched() -> None:
    """Unit Card ¶6: "Mark off any unused cells of armor before the game": cells 3 to 6 are
    greyed and hatched; cell 1 (left) is clean, cell 2 (destroyed) crossed, neither hatched."""
    card = _card(HP, ARMOUR)
    image = render_card(card)
    for label in ("3", "4", "5", "6"):
        found = _colours_in(image, _cell(card, 1, label))
        assert colour("grid") in found and colour("level1") in found, label
        assert colour("white") not in found and colour("hit") not in found, label
    for label in ("1", "2"):
        found = _colours_in(image, _cell(card, 1, label))
        assert colour("grid") not in found and colour("level1") not in found, label
    assert _on(image, _cell(card, 1, "2"), 0.2, 0.8) == colour("hit")


def test_the_cells_are_labelled_10_to_1_from_left_to_right() -> None:
    """Unit Card ¶3: "HP cells are labeled by their HP value, from highest to lowest, 10 to 1,
    from left to right"; all ten fit the card's width."""
    card = _card(HP)
    boxes = [_cell(card, 0, label) for label in LABELS]
    assert [box[0] for box in boxes] == sorted(box[0] for box in boxes)
    assert all(b[0] == pytest.approx(a[2]) for a, b in zip(boxes, boxes[1:], strict=False))
    assert boxes[-1][2] <= WIDTH - 18


def test_the_rows_are_aligned_under_the_cells_with_their_titles_at_the_left() -> None:
    """Unit Card ¶4: "Use the AP value in the column corresponding to the trooper's current
    HP": each AP value is centred under its HP cell, below the cells; the row's title left."""
    card = _card(HP)
    texts = _track_texts(card, 0)
    cells = [_cell(card, 0, label) for label in LABELS]
    title = next(t for t in texts if t.text == "AP")
    values = [t for t in texts if t.y == title.y and t is not title]
    assert [t.text for t in values] == list(HP.rows[0][1])
    for value, box in zip(values, cells, strict=True):
        assert value.x == pytest.approx((box[0] + box[2]) / 2)
        assert value.y > box[3]
    assert title.x < cells[0][0] and title.anchor == "lm"
    for text in card_texts(card):
        left, _, right, _ = text.bbox
        assert left >= 0 and right <= WIDTH, text.text


def test_the_track_reads_as_words_from_the_same_view() -> None:
    """The /card reply's words (its picture's alt text) read a track as a screen reader can:
    one line per track and row, not ten bare numbers."""
    lines = card_lines(_card(HP, ARMOUR))
    assert "HP: 10, 9 crossed, 8, 7 crossed, 6 crossed, 5 half crossed, 4, 3, 2, 1" in lines
    assert "AP 7 now: 8 8 8 7 7 7 6 6 6 5" in lines
    assert "Armour (Basic): 1, 2 crossed, 3 unused, 4 unused, 5 unused, 6 unused" in lines
    assert lines.index("HP: 10, 9 crossed, 8, 7 crossed, 6 crossed, 5 half crossed, 4, 3, 2, 1")
    assert "10" not in lines and "Basic" not in lines
    assert list(track_words(HP)) == lines[lines.index("HP: 10, 9 crossed, 8, 7 crossed, 6 "
                                                      "crossed, 5 half crossed, 4, 3, 2, 1"):][:2]  # fmt: skip


def test_a_card_without_tracks_draws_none() -> None:
    """Other rulesets leave `tracks` empty: no cell, no line, no track text."""
    card = _card()
    assert all(text.track == -1 for text in card_texts(card))
    assert card_lines(card) == [text.text for text in card_texts(card)]


def test_a_track_view_refuses_a_wrong_shape() -> None:
    """A TrackView is one value per cell in every row, marks of TRACK_MARKS only."""
    with pytest.raises(ValueError, match="10 cells, 9 marks"):
        TrackView("HP", LABELS, EXAMPLE[:9])
    with pytest.raises(ValueError, match="mark is one of"):
        TrackView("HP", LABELS, ("X",) * 10)
    with pytest.raises(ValueError, match="a value under each cell"):
        TrackView("HP", LABELS, EXAMPLE, rows=(("AP", ("8",)),))
    with pytest.raises(ValueError, match="no column 10"):
        TrackView("HP", LABELS, EXAMPLE, column=10)


def test_a_hurt_troopers_card_is_drawn_with_its_crossed_cells() -> None:
    """Unit Card ¶3's example on a trooper of the riflemen: the infantry card's picture crosses
    9, 7, 6 and half crosses 5; its armour's unused cells are hatched."""
    state = deployed()
    rossi = state.trooper("Rossi")
    cells = [Mark.CLEAN] * 10
    for hp, mark in ((9, Mark.FULL), (7, Mark.FULL), (6, Mark.FULL), (5, Mark.HALF)):
        cells[10 - hp] = mark
    rossi.track = Track(tuple(cells), 1)
    card = views.card(state, "Rossi")
    image = render_card(card)
    assert _on(image, _cell(card, 0, "9"), 0.2, 0.8) == colour("hit")
    assert _on(image, _cell(card, 0, "5"), 0.2, 0.8) != colour("hit")
    assert _on(image, _cell(card, 0, "5"), 0.2, 0.2) == colour("hit")
    assert colour("grid") in _colours_in(image, _cell(card, 1, "6"))


@pytest.mark.parametrize(
    "squads", [("riflemen", "laser-team"), ("assault-section", "mixed-fireteam")]
)
def test_every_shipped_troopers_card_fits_its_tracks_on_the_card(squads: tuple[str, str]) -> None:
    """Unit Card ¶1: "formatted in any way so long as it contains all the essential
    information": every shipped trooper's HP and armour cells, rows and armour's name are
    drawn inside the card's width."""
    state = new_state(content(squads))
    for trooper in state.troopers:
        card = views.card(state, trooper.id)
        texts = [text for text in card_texts(card) if text.track >= 0]
        assert {text.track for text in texts} == {0, 1}
        for text in texts:
            left, _, right, _ = text.bbox
            assert left >= 0 and right <= WIDTH - 10, (trooper.id, text.text)
