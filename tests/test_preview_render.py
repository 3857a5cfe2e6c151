"""The preview picture (issue 21): reachable squares tinted by action, see-through, and the
live state left as it was."""

from __future__ import annotations

import io

from builders import skirm_match, unit
from PIL import Image

from skirmbot.render.battlemap import Layout
from skirmbot.render.palette import NAMES
from skirmbot.render.preview import TINTS, PreviewRenderer
from skirmbot.rules.preview import DASH, MOVE
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.squares import Square


def tint_of(image: Image.Image, layout: Layout, square: Square) -> int:
    """Which tint block the pixel near a square's top-left corner is in (0: none)."""
    x0, y0, _, _ = layout.box(square)
    index = image.getpixel((x0 + 3, y0 + 3))
    assert isinstance(index, int)
    return index // len(NAMES)


def test_reachable_squares_are_tinted_by_action_and_others_are_not() -> None:
    match = skirm_match({0: [unit("Ada", "F6")], 1: [unit("Bo", "A12")]})
    state = match.state
    before = state.to_json()
    found = ruleset("skirm").preview(state, "Ada", Square.parse("F5"))
    image = Image.open(io.BytesIO(PreviewRenderer().png(state, found)))
    assert image.mode == "P"
    layout = Layout(state.board.width, state.board.height)
    blocks = {action: number for number, action in enumerate(TINTS, start=1)}
    dash, move = found.reach_by(DASH)[0].square, found.reach_by(MOVE)[0].square
    assert tint_of(image, layout, dash) == blocks[DASH]
    assert tint_of(image, layout, move) == blocks[MOVE]
    assert tint_of(image, layout, Square.parse("L1")) == 0, "out of reach: no tint"
    assert state.to_json() == before, "drawn from a copy: Ada still stands on F6"
