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
from typing import Any

from skirmbot.rules.companies.reading import whole
from skirmbot.rules.errors import ContentError

ROUTED, OBJECTIVES, BREAKTHROUGH = "routed", "objectives", "breakthrough"
KINDS = (ROUTED, OBJECTIVES, BREAKTHROUGH)
ATTACKERS, DEFENDERS = "attackers", "defenders"
FIRST = (ATTACKERS, DEFENDERS)
ROUNDS = (1, 12)
POINTS = (4, 100)  # each side's total
DEFAULT_POINTS = 24  # rulebook Setup 1: "Choose points total for each side (typically 24)"
VP = (1, 10)


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

    def scores(self, kind: str) -> int:
        """The VP a scoring kind gives (0: the scenario does not score it)."""
        return sum(rule.vp for rule in self.scoring if rule.kind == kind)


def scenario_from_json(data: Any) -> Scenario:
    """Read a scenario file; ContentError says what is wrong in plain words."""
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("name"), str)
        or not data["name"].strip()
    ):
        raise ContentError("A scenario for the group rules must be an object with a 'name'.")
    name = data["name"].strip()
    where = f"Scenario {name}"
    briefing = data.get("briefing", "")
    if not isinstance(briefing, str):
        raise ContentError(f"{where}: its 'briefing' is words.")
    first = data.get("first", ATTACKERS)
    if first not in FIRST:
        raise ContentError(f"{where}: 'first' must be {' or '.join(FIRST)}.")
    raw = data.get("scoring")
    if not isinstance(raw, list) or not raw:
        raise ContentError(f"{where}: 'scoring' must say how the scenario is won.")
    scoring = tuple(_scoring(item, where) for item in raw)
    if len({rule.kind for rule in scoring}) != len(scoring):
        raise ContentError(f"{where}: each scoring kind is given once.")
    return Scenario(
        name,
        briefing.strip(),
        whole(data.get("rounds"), "rounds", where, ROUNDS),
        whole(data.get("points", DEFAULT_POINTS), "points", where, POINTS),
        first,
        scoring,
    )


def _scoring(data: Any, where: str) -> Scoring:
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        raise ContentError(f"{where}: each scoring rule needs a 'kind' of {', '.join(KINDS)}.")
    return Scoring(data["kind"], whole(data.get("vp", 1), "vp", f"{where}'s scoring", VP))
