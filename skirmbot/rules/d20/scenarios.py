"""d20 scenarios: how many rounds, how to win, where each seat deploys (our rulings: the
rulebook says a game has "a predetermined number of rounds" and no more).

A scenario file is `{"name", "briefing", "rounds", "points_limit", "scoring": [{"kind",
"points"}]}`. Scoring kinds, counted after each Recovery Phase:
- `control`: each map objective a seat's standing models alone are within 1 square of;
- `casualties`: each enemy model the seat's models removed (a Big Model counts `points` x 3);
- `survivors`: in the last round only, each of the seat's models still on the map.
Seats deploy along the map's edges, 2 squares deep, leaving 2 squares at each corner: seat 1 the
top, 2 the bottom, 3 the left, 4 the right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.board import Board
from skirmbot.rules.errors import ContentError
from skirmbot.rules.squares import Square

KINDS = ("control", "casualties", "survivors")
EDGES = ("top", "bottom", "left", "right")  # seat n deploys on EDGES[n]
DEPTH = 2
CORNER = 2
BIG_CASUALTY = 3  # a Big Model removed is worth three Small ones


@dataclass(frozen=True)
class Scoring:
    kind: str
    points: int


@dataclass(frozen=True)
class Scenario:
    name: str
    briefing: str
    rounds: int
    points_limit: int
    scoring: tuple[Scoring, ...]
    source: dict[str, Any]

    def __deepcopy__(self, memo: dict[int, Any]) -> Scenario:
        return self  # never changes during a match

    def scores(self, kind: str) -> int:
        return sum(rule.points for rule in self.scoring if rule.kind == kind)


def scenario_from_json(data: Any) -> Scenario:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ContentError("A d20 scenario must be an object with a 'name'.")
    name = data["name"].strip()
    where = f"Scenario {name}"
    rounds, limit = data.get("rounds"), data.get("points_limit")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 10:
        raise ContentError(f"{where}: 'rounds' must be a whole number from 1 to 10.")
    if not isinstance(limit, int) or isinstance(limit, bool) or not 20 <= limit <= 1000:
        raise ContentError(f"{where}: 'points_limit' must be a whole number from 20 to 1000.")
    raw = data.get("scoring")
    if not isinstance(raw, list) or not raw:
        raise ContentError(f"{where}: 'scoring' must say how the scenario is won.")
    scoring = tuple(_scoring(item, where) for item in raw)
    return Scenario(name, str(data.get("briefing", "")), rounds, limit, scoring, data)


def _scoring(data: Any, where: str) -> Scoring:
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        raise ContentError(f"{where}: each scoring rule needs a 'kind' of {', '.join(KINDS)}.")
    points = data.get("points", 1)
    if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= 10:
        raise ContentError(f"{where}: a scoring rule's 'points' must be from 1 to 10.")
    return Scoring(data["kind"], points)


def zones(board: Board, seats: int) -> tuple[frozenset[Square], ...]:
    """Each seat's deployment zone: its edge, DEPTH deep, without the CORNER squares at each
    end (so four zones never touch), open squares only."""
    found = []
    for edge in EDGES[:seats]:
        across = range(
            CORNER, (board.width if edge in ("top", "bottom") else board.height) - CORNER
        )
        deep = {
            "top": range(DEPTH),
            "left": range(DEPTH),
            "bottom": range(board.height - DEPTH, board.height),
            "right": range(board.width - DEPTH, board.width),
        }[edge]
        cells = (
            (Square(a, d) for a in across for d in deep)
            if edge in ("top", "bottom")
            else (Square(d, a) for a in across for d in deep)
        )
        found.append(frozenset(cell for cell in cells if board.is_open(cell)))
    return tuple(found)
