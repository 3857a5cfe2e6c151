"""Scenarios: how many rounds, who takes the first turn, how Victory Points are scored (rulebook
Setup 3 and End of Game name them and leave them to us: docs/rulings.md, the group rules).

A scenario file is `{"name", "briefing", "rounds", "points", "first", "scoring": [{"kind",
"vp"}]}`: `points` is each side's points total (Setup 1, typically 24), `first` "attackers" or
"defenders" (Setup 5: the attackers unless the scenario says otherwise). Scoring kinds:
- `routed`: each enemy Group Routed scores its points (x `vp`);
- `objectives`: at the end of each round, each map objective a side alone has a model within 3"
  of scores `vp`;
- `breakthrough`: at the end of the game, each of the side's Groups with a model within 3" of
  the enemy's table edge scores `vp`.
The game ends after the last round, or when a side has no Group left on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

ROUTED, OBJECTIVES, BREAKTHROUGH = "routed", "objectives", "breakthrough"
KINDS = (ROUTED, OBJECTIVES, BREAKTHROUGH)
ATTACKERS, DEFENDERS = "attackers", "defenders"


@dataclass(frozen=True)
class Scoring:
    kind: str
    vp: int


@dataclass(frozen=True)
class Scenario:
    name: str
    briefing: str
    rounds: int
    points: int  # each side's points total
    first: str  # ATTACKERS or DEFENDERS: who takes the first turn
    scoring: tuple[Scoring, ...]
