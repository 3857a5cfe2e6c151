"""The terrain layers of the process's maps, drawn once and shared by every MapRenderer (issue 32).

A terrain layer (levels, walls, doors, grid and coordinates) depends only on the map it is
drawn from, its door states, its grid and the layout's size; yet every picture of a fresh
renderer (the web's step pictures, a match whose renderer was dropped) drew it again: 14 ms a
picture instead of 5. One cache per process keeps the layers, bounded by a count and by the
bytes of their pixels, the least recently used dropped first.

Pictures are drawn in worker threads: the cache is one of the process's shared drawings
(skirmbot.render.drawings), which draws a new layer once however many threads ask for it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from PIL import Image

from skirmbot.render.drawings import SharedDrawings, image_bytes
from skirmbot.render.legend import LegendEntry

LAYERS_KEPT = 128  # distinct maps, door states and seat counts a busy process draws at once
BYTES_KEPT = 64 * 1024 * 1024  # a 12x12 map's layer is about 0.4 MB (one byte a pixel)

Layer = tuple[Image.Image, tuple[LegendEntry, ...]]


def source_key(source: dict[str, Any]) -> str:
    """A digest of everything a map was read from: two maps drawn alike share it, and a map
    edited under the same name does not."""
    text = json.dumps(source, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def layer_bytes(layer: Layer) -> int:
    """What a layer's pixels hold in memory (its key's entries are small beside them)."""
    return image_bytes(layer[0])


class TerrainCache(SharedDrawings[Layer]):
    """Terrain layers by what they are drawn from; at most `count` of them and `budget` bytes."""

    def __init__(self, count: int = LAYERS_KEPT, budget: int = BYTES_KEPT) -> None:
        super().__init__(layer_bytes, count, budget)


TERRAINS = TerrainCache()  # the process's: every MapRenderer draws its terrain through it
