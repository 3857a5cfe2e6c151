"""The terrain layers of the process's maps, drawn once and shared by every MapRenderer (issue 32).

A terrain layer (levels, walls, doors, grid and coordinates) depends only on the map it is
drawn from, its door states, its grid and the layout's size; yet every picture of a fresh
renderer (the web's step pictures, a match whose renderer was dropped) drew it again: 14 ms a
picture instead of 5. One cache per process keeps the layers, bounded by a count and by the
bytes of their pixels, the least recently used dropped first.

Pictures are drawn in worker threads, so the cache takes a lock; a layer being drawn holds a
lock of its own, so two threads asking for the same new layer draw it once and the others wait
for it, while layers already kept are handed out without waiting for that draw.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from PIL import Image

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
    image = layer[0]
    return image.width * image.height * len(image.getbands())


class TerrainCache:
    """Terrain layers by what they are drawn from; at most `count` of them and `budget` bytes."""

    def __init__(self, count: int = LAYERS_KEPT, budget: int = BYTES_KEPT) -> None:
        self.count, self.budget = count, budget
        self._layers: OrderedDict[Hashable, tuple[Layer, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._drawing: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, draw: Callable[[], Layer]) -> Layer:
        """The layer kept under `key`, drawn by `draw` (once) when it is not kept."""
        with self._lock:
            kept = self._kept(key)
            if kept is not None:
                return kept
            pending = self._drawing.setdefault(key, threading.Lock())
        with pending:
            with self._lock:
                kept = self._kept(key)
            if kept is not None:  # drawn by the thread this one waited for
                return kept
            try:
                layer = draw()
                with self._lock:
                    self._keep(key, layer)
            finally:
                with self._lock:
                    self._drawing.pop(key, None)
        return layer

    @property
    def size(self) -> tuple[int, int]:
        """How many layers are kept and their bytes."""
        with self._lock:
            return len(self._layers), self._bytes

    def clear(self) -> None:
        with self._lock:
            self._layers.clear()
            self._bytes = 0

    def _kept(self, key: Hashable) -> Layer | None:
        """The kept layer, now the most recently used (call with the lock held)."""
        found = self._layers.get(key)
        if found is None:
            return None
        self._layers.move_to_end(key)
        return found[0]

    def _keep(self, key: Hashable, layer: Layer) -> None:
        """Keep the layer, then drop the least recently used past the bounds (lock held). A layer
        larger than the whole budget is handed out but not kept."""
        size = layer_bytes(layer)
        if size > self.budget:
            return
        old = self._layers.pop(key, None)
        if old is not None:
            self._bytes -= old[1]
        self._layers[key] = (layer, size)
        self._bytes += size
        while len(self._layers) > self.count or self._bytes > self.budget:
            _, (_, dropped) = self._layers.popitem(last=False)
            self._bytes -= dropped


TERRAINS = TerrainCache()  # the process's: every MapRenderer draws its terrain through it
