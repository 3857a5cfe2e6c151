"""The preview picture (issue 21): reachable squares tinted by action, see-through, and the
live state left as it was."""

from __future__ import annotations

import io
from typing import Any

import pytest
from builders import skirm_match, unit
from PIL import Image, ImageDraw

from skirmbot.render import preview as preview_module
from skirmbot.render.battlemap import HEADER, Layout
from skirmbot.render.palette import NAMES
from skirmbot.render.preview import TINTS, PreviewRenderer
from skirmbot.rules.errors import RulesError
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
    image = Image.open(io.BytesIO(PreviewRenderer().png(ruleset("skirm").view(state), found)))
    assert image.mode == "P"
    layout = Layout(state.board.width, state.board.height)
    blocks = {action: number for number, action in enumerate(TINTS, start=1)}
    dash, move = found.reach_by(DASH)[0].square, found.reach_by(MOVE)[0].square
    assert tint_of(image, layout, dash) == blocks[DASH]
    assert tint_of(image, layout, move) == blocks[MOVE]
    assert tint_of(image, layout, Square.parse("L1")) == 0, "out of reach: no tint"
    assert state.to_json() == before, "drawn from a copy: Ada still stands on F6"


def crowded(rules: str, map_name: str, seed: int, steps: int) -> tuple[Any, Any]:
    """A demo moment and the preview in it with the most labels (attacks and threats)."""
    from test_preview import played_to

    state = played_to(rules, map_name, seed, steps).state
    best = None
    for mine in state.on_map():
        for square in [None, *list(state.board.squares())[::3]]:
            try:
                found = ruleset(rules).preview(state, mine.id, square)
            except RulesError:
                continue
            if best is None or len(found.attacks) + len(found.threats) > best[0]:
                best = (len(found.attacks) + len(found.threats), found)
    assert best is not None and best[0] >= 8, "a crowded picture"
    return state, best[1]


@pytest.mark.parametrize(
    ("rules", "map_name", "seed", "steps"),
    [("skirm", "foundry", 3, 30), ("lite", "ruined-chapel", 5, 25)],
)
def test_labels_are_named_and_hide_no_token_nor_each_other(
    rules: str, map_name: str, seed: int, steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21 (the picture is readable on a crowded map): each label starts with its enemy's
    name (it may be moved away from its token), covers no unit (its token and HIT marks), not
    the previewed unit's squares, and no other label; all stay on the map, off its legend."""
    state, found = crowded(rules, map_name, seed, steps)
    seen = preview_module._as_previewed(ruleset(rules).view(state), found)
    layout = Layout(state.board.width, state.board.height)
    blocked = preview_module.obstacles(layout, seen, found)
    taken = list(blocked)
    image = Image.new("P", layout.map_size)
    drawn: list[tuple[int, int, int, int]] = []

    class Watch(ImageDraw.ImageDraw):
        def rectangle(self, xy: Any, *args: Any, **kwargs: Any) -> None:
            drawn.append(tuple(xy))  # type: ignore[arg-type]
            super().rectangle(xy, *args, **kwargs)

    draw = Watch(image)
    written: list[str] = []
    monkeypatch.setattr(preview_module, "draw_text", lambda _d, _xy, text, *_: written.append(text))
    area = (image.width, layout.map_size[1])
    preview_module._labels(draw, area, layout, seen, found.attacks, taken, below=True)
    preview_module._labels(draw, area, layout, seen, found.threats, taken, below=False)
    labels = taken[len(blocked) :]
    assert labels == drawn
    assert len(labels) == len({c.target for c in found.attacks}) + len(
        {c.attacker for c in found.threats}
    )
    for number, box in enumerate(labels):
        assert not any(preview_module._overlap(box, other) for other in blocked), box
        assert not any(preview_module._overlap(box, other) for other in labels[:number]), box
        assert box[1] > HEADER and box[3] < layout.map_size[1], "on the map, off the legend"
    names = {state.units[c.target].name for c in found.attacks}
    names |= {state.units[c.attacker].name for c in found.threats}
    assert names <= {line.strip() for line in written}, "each box is headed by its enemy's name"
    monkeypatch.undo()
    png = PreviewRenderer().png(ruleset(rules).view(state), found)
    assert png.startswith(b"\x89PNG")
