"""A medal a unit earned in a match: what campaign progress is made of, in any ruleset that
keeps it (Skirm's Medals and XP; a ruleset without campaigns awards none)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Medal:
    name: str
    xp: int
    reason: str  # in words, for the players: why this unit earned it

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "xp": self.xp, "reason": self.reason}
