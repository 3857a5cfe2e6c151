"""Missions as data: deployment zones, scoring and length (rulebook Game Cycle, Scoring)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.board import Board
from skirmbot.rules.errors import ContentError
from skirmbot.rules.squads import DEFAULT_EP_LIMIT
from skirmbot.rules.squares import Square

EDGES = ("top", "bottom", "left", "right")
# Scoring kinds: "control" scores `points` per Objective a squad controls at the end of each
# turn from `from_turn` on (rulebook Scoring Mission Points); "take_out" scores `points` per enemy
# unit taken out during the turn.
SCORING_KINDS = ("control", "take_out")
MATCH_TURNS = 4


@dataclass(frozen=True, slots=True)
class Zone:
    edge: str
    depth: int

    def squares(self, board: Board) -> list[Square]:
        """The open squares of the zone, row by row."""
        return [
            square
            for square in board.squares()
            if board.is_open(square) and self.contains(board, square)
        ]

    def contains(self, board: Board, square: Square) -> bool:
        if self.edge == "top":
            return square.y < self.depth
        if self.edge == "bottom":
            return square.y >= board.height - self.depth
        if self.edge == "left":
            return square.x < self.depth
        return square.x >= board.width - self.depth

    def describe(self) -> str:
        return f"the {self.depth} {'rows' if self.edge in ('top', 'bottom') else 'columns'} at the {self.edge}"


@dataclass(frozen=True, slots=True)
class Scoring:
    kind: str
    points: int = 1
    from_turn: int = 1


@dataclass(frozen=True, slots=True)
class Mission:
    name: str
    briefing: str
    zones: tuple[Zone, Zone]
    scoring: tuple[Scoring, ...]
    ep_limit: int
    turns: int
    source: dict[str, Any]


def mission_from_json(data: Any) -> Mission:
    if not isinstance(data, dict):
        raise ContentError("A mission must be an object with 'name', 'deployment' and 'scoring'.")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ContentError("The mission needs a 'name'.")
    where = f"Mission {name}"
    zones_raw = data.get("deployment")
    if not isinstance(zones_raw, list) or len(zones_raw) != 2:
        raise ContentError(f"{where}: 'deployment' must give two zones, one per squad.")
    zones = (_zone(zones_raw[0], where), _zone(zones_raw[1], where))
    scoring_raw = data.get("scoring")
    if not isinstance(scoring_raw, list) or not scoring_raw:
        raise ContentError(f"{where}: 'scoring' must list at least one way to score.")
    ep_limit = data.get("ep_limit", DEFAULT_EP_LIMIT)
    if not isinstance(ep_limit, int) or ep_limit < 1:
        raise ContentError(f"{where}: 'ep_limit' must be a positive whole number.")
    return Mission(
        name=name.strip(),
        briefing=str(data.get("briefing", "")),
        zones=zones,
        scoring=tuple(_scoring(item, where) for item in scoring_raw),
        ep_limit=ep_limit,
        turns=MATCH_TURNS,
        source=data,
    )


def _zone(data: Any, where: str) -> Zone:
    if not isinstance(data, dict) or data.get("edge") not in EDGES:
        raise ContentError(f"{where}: a deployment zone needs an 'edge' of {', '.join(EDGES)}.")
    depth = data.get("depth", 2)
    if not isinstance(depth, int) or not 1 <= depth <= 4:
        raise ContentError(f"{where}: a deployment zone's 'depth' is 1 to 4 rows or columns.")
    return Zone(data["edge"], depth)


def _scoring(data: Any, where: str) -> Scoring:
    if not isinstance(data, dict) or data.get("kind") not in SCORING_KINDS:
        raise ContentError(
            f"{where}: each scoring entry needs a 'kind' of {', '.join(SCORING_KINDS)}."
        )
    points, from_turn = data.get("points", 1), data.get("from_turn", 1)
    if not isinstance(points, int) or not 1 <= points <= 5:
        raise ContentError(f"{where}: 'points' must be 1 to 5.")
    if not isinstance(from_turn, int) or not 1 <= from_turn <= MATCH_TURNS:
        raise ContentError(f"{where}: 'from_turn' must be 1 to {MATCH_TURNS}.")
    return Scoring(data["kind"], points, from_turn)


def check_map_fits(mission: Mission, board: Board, squad_sizes: tuple[int, int]) -> None:
    """Each squad's deployment zone must hold all of its units."""
    for side, zone in enumerate(mission.zones):
        room = len(zone.squares(board))
        if room < squad_sizes[side]:
            raise ContentError(
                f"Mission {mission.name}: squad {side + 1}'s zone ({zone.describe()}) has {room} open "
                f"squares for {squad_sizes[side]} units."
            )
