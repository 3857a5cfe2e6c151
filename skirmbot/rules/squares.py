"""Squares and their A1 notation (rulings: Board and geometry / Coordinates)."""

from __future__ import annotations

import re
from typing import NamedTuple

from skirmbot.rules.errors import RulesError

_NOTATION = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")
MAX_BOARD_SIDE = 26


class Square(NamedTuple):
    """A square of the battle map: 0-based column `x` (A = 0) and row `y` (1 = 0, growing down).

    A NamedTuple rather than a dataclass: squares are dictionary keys in every path search and
    sight check, and tuple hashing and comparison run in C (replays got twice as fast).
    """

    x: int
    y: int

    @classmethod
    def parse(cls, text: str) -> Square:
        """Read `C4` or `c4`; raise a RulesError that shows the expected form otherwise."""
        match = _NOTATION.match(text)
        if match is None:
            raise RulesError(
                f"'{text}' is not a square: write a column letter and a row number, like C4."
            )
        return cls(ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1)

    def __str__(self) -> str:
        return f"{chr(ord('A') + self.x)}{self.y + 1}"

    def distance(self, other: Square) -> int:
        """Chebyshev distance on the horizontal plane; height is ignored (rulebook Distances)."""
        return max(abs(self.x - other.x), abs(self.y - other.y))

    def offset(self, dx: int, dy: int) -> Square:
        return Square(self.x + dx, self.y + dy)

    def around(self) -> list[Square]:
        """The 8 surrounding squares (some may lie off the board)."""
        return [self.offset(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


def own_square(where: object) -> Square | None:
    """A position a square ruleset gave out (`Ruleset.position`) back as the Square it is, or
    None for none. The seam holds positions opaque, so the ruleset checks that one it reads is
    its own: a position of another grid is a programming error, not a player's."""
    if where is None or isinstance(where, Square):
        return where
    raise TypeError(f"{where!r} is not a square: a position goes back to the ruleset it came from.")
