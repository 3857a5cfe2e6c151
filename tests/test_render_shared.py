"""Tokens and the key under the map are drawn once per process and shared by every match's
MapRenderer (issue 32), as the terrain is (tests/test_render_terrains.py): a thousand matches
kept a thousand copies of the same drawings (about 290 KB a match)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from skirmbot.demo import play_demo
from skirmbot.render import battlemap
from skirmbot.render.battlemap import LEGENDS, TOKENS, MapRenderer
from skirmbot.render.replay import activation_steps


@pytest.fixture(autouse=True)
def empty_caches() -> Iterator[None]:
    TOKENS.clear()
    LEGENDS.clear()
    yield
    TOKENS.clear()
    LEGENDS.clear()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many tokens and keys were drawn."""
    counts = {"tokens": 0, "keys": 0}
    draw_token, draw_legend = battlemap.draw_token, battlemap.draw_legend

    def token(*look: Any) -> tuple[Image.Image, Image.Image]:
        counts["tokens"] += 1
        return draw_token(*look)

    def legend(*args: Any) -> Image.Image:
        counts["keys"] += 1
        return draw_legend(*args)

    monkeypatch.setattr(battlemap, "draw_token", token)
    monkeypatch.setattr(battlemap, "draw_legend", legend)
    return counts


def test_a_second_match_renderer_draws_no_token_or_key_the_first_drew(
    drawn: dict[str, int],
) -> None:
    view, events = next(iter(activation_steps(play_demo(1)[1])))
    first = MapRenderer().png(view, events)
    once = dict(drawn)
    second = MapRenderer().png(view, events)

    assert once["tokens"] > 0 and once["keys"] == 1
    assert drawn == once, "the second renderer drew again what the process keeps"
    assert first == second
    assert TOKENS.size[0] == once["tokens"] and LEGENDS.size[0] == 1


def test_the_shared_tokens_stay_within_their_bounds() -> None:
    """A process drawing many matches keeps at most the caches' count and bytes."""
    for seed in range(3):
        for view, events in list(activation_steps(play_demo(seed)[1]))[:5]:
            MapRenderer().png(view, events)
    for cache in (TOKENS, LEGENDS):
        count, size = cache.size
        assert 0 < count <= cache.count and size <= cache.budget
