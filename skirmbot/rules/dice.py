"""Dice sources: every die the engine rolls comes from one of these, never from global random.

A seeded source gives the same faces for the same seed on every machine (random.Random with an
integer seed is stable across Python versions); a scripted source gives exact faces for tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from skirmbot.rules.errors import RulesError


class DiceExhausted(RulesError):
    """A scripted dice list ran out: the test or record did not script enough faces."""


class Dice(Protocol):
    def roll(self, sides: int = 6) -> int:
        """One die with `sides` faces, 1..sides."""
        ...

    def to_json(self) -> dict[str, object]:
        """How to build this source again from the start (for the match record)."""
        ...


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll(self, sides: int = 6) -> int:
        return self._random.randint(1, sides)

    def to_json(self) -> dict[str, object]:
        return {"seed": self.seed}


class ScriptedDice:
    """Faces in the order they will be rolled; a D3 face is scripted as 1-3 directly."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self._next = 0

    def roll(self, sides: int = 6) -> int:
        if self._next >= len(self.faces):
            raise DiceExhausted(f"The scripted dice ran out after {len(self.faces)} faces.")
        face = self.faces[self._next]
        self._next += 1
        if not 1 <= face <= sides:
            raise DiceExhausted(f"Scripted face {face} cannot come up on a D{sides}.")
        return face

    @property
    def remaining(self) -> int:
        return len(self.faces) - self._next

    def to_json(self) -> dict[str, object]:
        return {"script": list(self.faces)}


def dice_from_json(data: dict[str, object]) -> Dice:
    """Build the dice source a record names: {"seed": N} or {"script": [faces]}."""
    if "seed" in data and isinstance(data["seed"], int):
        return SeededDice(data["seed"])
    script = data.get("script")
    if isinstance(script, list) and all(isinstance(face, int) for face in script):
        return ScriptedDice(script)
    raise RulesError('The record\'s dice must be {"seed": N} or {"script": [faces]}.')


def succeeds(value: int, stat: int) -> bool:
    """A roll against a stat (rulebook Successes and Failures): at or under the stat succeeds,
    a 1 always succeeds and a 6 always fails, judged after all modifiers."""
    if value <= 1:
        return True
    if value >= 6:
        return False
    return value <= stat
