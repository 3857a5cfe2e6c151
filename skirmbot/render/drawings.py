"""Drawings shared by every MapRenderer of the process, drawn once (issue 32): the terrain
layers of its maps (skirmbot.render.terrains), the tokens and the keys under the map
(skirmbot.render.battlemap).

Each is drawn from a few values (a map and its doors; a token's side, label and state; a key's
entries and width), the same for many matches at once; drawn per match, a process with a
thousand matches kept a thousand copies of the same tokens and keys (about 290 KB a match) and
drew each again for every match. One cache per kind of drawing keeps them, bounded by a count
and by the bytes of their pixels, the least recently used dropped first.

Pictures are drawn in worker threads, so a cache takes a lock; a drawing being drawn holds a
lock of its own, so two threads asking for the same new drawing draw it once and the others wait
for it, while drawings already kept are handed out without waiting for that draw.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from PIL import Image

V = TypeVar("V")


def image_bytes(image: Image.Image) -> int:
    """What an image's pixels hold in memory."""
    return image.width * image.height * len(image.getbands())


class SharedDrawings(Generic[V]):
    """Drawings by what they are drawn from; at most `count` of them and `budget` bytes, as
    `measure` counts a drawing's."""

    def __init__(self, measure: Callable[[V], int], count: int, budget: int) -> None:
        self.measure, self.count, self.budget = measure, count, budget
        self._kept_drawings: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._drawing: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, draw: Callable[[], V]) -> V:
        """The drawing kept under `key`, drawn by `draw` (once) when it is not kept."""
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
                drawn = draw()
                with self._lock:
                    self._keep(key, drawn)
            finally:
                with self._lock:
                    self._drawing.pop(key, None)
        return drawn

    @property
    def size(self) -> tuple[int, int]:
        """How many drawings are kept and their bytes."""
        with self._lock:
            return len(self._kept_drawings), self._bytes

    def clear(self) -> None:
        with self._lock:
            self._kept_drawings.clear()
            self._bytes = 0

    def _kept(self, key: Hashable) -> V | None:
        """The kept drawing, now the most recently used (call with the lock held)."""
        found = self._kept_drawings.get(key)
        if found is None:
            return None
        self._kept_drawings.move_to_end(key)
        return found[0]

    def _keep(self, key: Hashable, drawn: V) -> None:
        """Keep the drawing, then drop the least recently used past the bounds (lock held). A
        drawing larger than the whole budget is handed out but not kept."""
        size = self.measure(drawn)
        if size > self.budget:
            return
        old = self._kept_drawings.pop(key, None)
        if old is not None:
            self._bytes -= old[1]
        self._kept_drawings[key] = (drawn, size)
        self._bytes += size
        while len(self._kept_drawings) > self.count or self._bytes > self.budget:
            _, (_, dropped) = self._kept_drawings.popitem(last=False)
            self._bytes -= dropped


__all__ = ["SharedDrawings", "image_bytes"]
