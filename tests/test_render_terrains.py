"""The terrain of a map is drawn once per process and shared by every MapRenderer (issue 32):
counted draws, the cache's bounds (count, bytes, least recently used first) and its threads."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

from skirmbot.demo import play_demo
from skirmbot.render import battlemap
from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.replay import activation_steps
from skirmbot.render.terrains import TERRAINS, Layer, TerrainCache, layer_bytes, source_key
from skirmbot.rules.board import Board
from skirmbot.rules.view import MatchView


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    TERRAINS.clear()
    yield
    TERRAINS.clear()


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each terrain drawn, by its map's name."""
    drawn: list[str] = []
    real = battlemap._draw_terrain

    def counted(view: MatchView, layout: Any) -> Image.Image:
        drawn.append(view.map_name)
        return real(view, layout)

    monkeypatch.setattr(battlemap, "_draw_terrain", counted)
    return drawn


def steps(seed: int = 1, rules: str = "skirm") -> list[tuple[MatchView, list[Any]]]:
    _, record = play_demo(seed, rules)
    return [(view, list(events)) for view, events in activation_steps(record)]


def doors(view: MatchView) -> object:
    return view.board.door_states() if isinstance(view.board, Board) else ()


def test_two_renderers_of_one_map_draw_its_terrain_once(draws: list[str]) -> None:
    view, events = steps()[0]
    first = MapRenderer().png(view, events)
    second = MapRenderer().png(view, events)
    assert draws == [view.map_name]
    assert first == second


def test_a_map_of_dots_is_shared_too(draws: list[str]) -> None:
    view, events = steps(1, "infantry")[0]
    assert MapRenderer().png(view, events) == MapRenderer().png(view, events)
    assert len(draws) == 1


def test_each_door_state_is_drawn_once_and_the_pictures_match_a_renderer_of_its_own(
    draws: list[str],
) -> None:
    played = steps()
    states = {repr(doors(view)) for view, _ in played}
    shared = [MapRenderer().png(view, events) for view, events in played]
    assert len(draws) == len(states)
    TERRAINS.clear()
    alone = MapRenderer()
    assert [alone.png(view, events) for view, events in played] == shared


def test_a_map_edited_under_the_same_name_is_drawn_anew() -> None:
    source = {"name": "Yard", "rows": ["..", ".."]}
    edited = {"name": "Yard", "rows": ["..", ".#"]}
    assert source_key(source) == source_key(dict(source))
    assert source_key(source) != source_key(edited)


def layer(width: int, height: int = 10) -> Layer:
    return Image.new("P", (width, height)), ()


def drawer(made: list[int], width: int) -> Callable[[], Layer]:
    def draw() -> Layer:
        made.append(width)
        return layer(width)

    return draw


def test_the_cache_keeps_at_most_its_count_the_least_recently_used_dropped_first() -> None:
    cache, made = TerrainCache(count=2, budget=10**6), []
    cache.get("a", drawer(made, 1))
    cache.get("b", drawer(made, 2))
    cache.get("a", drawer(made, 1))  # a is now the most recently used
    cache.get("c", drawer(made, 3))  # b goes
    assert cache.size == (2, 10 + 30)
    cache.get("a", drawer(made, 1))
    cache.get("b", drawer(made, 2))
    assert made == [1, 2, 3, 2]


def test_the_cache_stays_in_its_byte_budget() -> None:
    cache, made = TerrainCache(count=100, budget=250), []
    for width in range(1, 11):  # 10 to 100 bytes each
        cache.get(width, drawer(made, width))
        assert cache.size[1] <= 250
    assert cache.size == (2, 90 + 100)  # 80 more would pass 250
    cache.get(10, drawer(made, 10))
    assert made == list(range(1, 11))  # the most recent is still kept
    cache.get("huge", drawer(made, 26))  # larger than the whole budget: handed out, not kept
    cache.get("huge", drawer(made, 26))
    assert made[-2:] == [26, 26]
    assert cache.size[1] <= 250
    assert layer_bytes(layer(4, 5)) == 20


def test_threads_asking_for_one_new_layer_draw_it_once() -> None:
    cache, made = TerrainCache(), []
    gate = threading.Barrier(8)

    def slow() -> Layer:
        made.append(1)
        threading.Event().wait(0.05)  # the others arrive while it is drawn
        return layer(5)

    def ask() -> None:
        gate.wait()
        cache.get("map", slow)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert made == [1]


def test_a_failed_draw_keeps_nothing_and_the_next_asks_again() -> None:
    cache, made = TerrainCache(), []

    def broken() -> Layer:
        raise ValueError("no such board")

    with pytest.raises(ValueError):
        cache.get("map", broken)
    cache.get("map", drawer(made, 2))
    assert made == [2]
    assert cache.size == (1, 20)
