"""Inches on the square grid for the group rules: distance, terrain, sight, moving with
Cohesion, charging into contact and Retreat (our rulings: docs/rulings.md, the group rules:
Scale and Terrain).

Scale: the table is the map at 2x2 squares per map square, one square an inch (a 12x12 map is a
24-inch table). A model stands on one square. The distance between two models is counted as the
kernel counts squares (`Square.distance`: a diagonal step is one square), so models on
neighbouring squares are 1" apart and in base contact. Between two Groups it is the distance of
their closest models (rulebook General), exact in whole inches.

STUB (issue 30 foundation): the geometry helper fills in every body; the signatures are the
contract the engine codes against.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from skirmbot.rules.board import Board
from skirmbot.rules.maps import BattleMap
from skirmbot.rules.squares import Square

MAP_SQUARE = 2  # table squares along each side of one map square
COHESION = 3  # inches: "within 3" of at least one other model", "at least 3" from enemy Groups"
OBSTACLE_COVER = 3  # inches: "within 3" of an obstacle ... count as being in Cover"
OBSCURING_DEPTH = 3  # inches: Groups cannot see "more than 3" into" Obscuring terrain
CAPTAIN_REACH = 12  # inches: "+1 if the Captain's Group is within 12""


def table_of(battle_map: BattleMap) -> BattleMap:
    """The map as the table the group rules play on: each map square 2x2 squares of an inch,
    walls and doors along the enlarged edges, objectives on the top-left square of theirs."""
    raise NotImplementedError


def distance(a: Square, b: Square) -> int:
    """Inches between two models."""
    raise NotImplementedError


def group_distance(a: Sequence[Square], b: Sequence[Square]) -> int:
    """Inches between the closest models of two Groups (rulebook General)."""
    raise NotImplementedError


def closest_pair(a: Sequence[Square], b: Sequence[Square]) -> tuple[Square, Square]:
    """The closest model of each Group (ties: the first in each Group's order)."""
    raise NotImplementedError


def in_contact(a: Sequence[Square], b: Sequence[Square]) -> bool:
    """Whether a model of each Group stand in base contact (neighbouring squares): in melee."""
    raise NotImplementedError


class Terrain:
    """The table's terrain as the rulebook's kinds (our ruling, Terrain): difficult squares
    (`~`) are Difficult and Obscuring (woods, overgrowth); impassable squares (`#`), walls of
    height 2 or more and closed doors are Impassable and Obscuring; walls of height 1 are
    Obstacles; levels are ground a model walks over (a step between levels more than 1 apart,
    without stairs, is Impassable)."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def difficult(self, square: Square) -> bool:
        raise NotImplementedError

    def obscuring(self, square: Square) -> bool:
        raise NotImplementedError

    def obstacle_contact(self, square: Square) -> bool:
        """A model here is in base contact with an obstacle (a low wall on one of its sides)."""
        raise NotImplementedError

    def in_cover(self, models: Sequence[Square]) -> bool:
        """Our ruling (Cover): a Group counts as in Cover when at least half its models are
        within 3" of an obstacle."""
        raise NotImplementedError


def can_see(terrain: Terrain, viewers: Sequence[Square], targets: Sequence[Square]) -> bool:
    """Whether a Group can see another (our ruling, Sight): some model of the one sees some
    model of the other; sight runs centre to centre, stops at Impassable/Obscuring edges and
    squares, and reaches at most 3" into Obscuring squares (never past them)."""
    raise NotImplementedError


def reach(
    terrain: Terrain,
    start: Square,
    mo: int,
    blocked: Collection[Square],
    *,
    ignore_obstacles: bool = False,
) -> dict[Square, tuple[Square, ...]]:
    """Where one model can end a Move of `mo` inches from `start`, each square with its path
    (start first): Difficult squares cost 2", it never passes a `blocked` square (another
    model) or Impassable terrain, and it stops on coming into base contact with an obstacle
    unless it began its Move in contact (`ignore_obstacles`: the rulebook's Obstacle)."""
    raise NotImplementedError


def cohesive(models: Sequence[Square]) -> bool:
    """Every model within 3" of at least one other model of its Group (one model: always)."""
    raise NotImplementedError


def clear_of(models: Sequence[Square], enemies: Collection[Square]) -> bool:
    """Every model at least 3" from every enemy model (Cohesion)."""
    raise NotImplementedError


def formation_moves(
    terrain: Terrain,
    models: Sequence[Square],
    mo: int,
    blocked: Collection[Square],
    enemies: Collection[Square],
) -> dict[Square, tuple[Square, ...]]:
    """Every way a Group can Move keeping its shape: for each square its first model can end
    on, every model's square (in model order). Each model reaches its square within `mo` (its
    own path, as `reach`); the Group ends in Cohesion and at least 3" from `enemies`. A Group's
    own models step aside for each other (our ruling): only `blocked` (other Groups' models)
    stop a path."""
    raise NotImplementedError


def check_placed_move(
    terrain: Terrain,
    models: Sequence[Square],
    destinations: Sequence[Square],
    mo: int,
    blocked: Collection[Square],
    enemies: Collection[Square],
) -> str | None:
    """Why moving each model to its own square (in model order) breaks the rules, in plain words
    for a player ("Model 3 cannot reach K12: it is 7" away, its Move is 5"."); None if legal."""
    raise NotImplementedError


def charge(
    terrain: Terrain,
    models: Sequence[Square],
    mo: int,
    targets: Sequence[Square],
    blocked: Collection[Square],
) -> tuple[Square, ...] | None:
    """The attacking Group's squares after moving "as many models as possible into base
    contact with the defending Group" (rulebook Attacking 1); the others move as close to the
    defender as they can while staying within 3" of a model of their Group. None: no model
    can reach base contact (the target is not within its movement distance)."""
    raise NotImplementedError


@dataclass(frozen=True)
class RetreatMove:
    """Where a retreating Group ends, and whether it was stopped short or left the table."""

    models: tuple[Square, ...]  # each model's square after the Retreat (as far as it went)
    paths: tuple[tuple[Square, ...], ...]  # each model's path, for the picture
    blocked: bool  # stopped by terrain or enemy Groups before going the whole distance
    off_table: bool  # a model retreated off the table: the Group Routs


def retreat(
    terrain: Terrain,
    models: Sequence[Square],
    cause: Sequence[Square],
    inches: int,
    blocked: Collection[Square],
    enemies: Collection[Square],
) -> RetreatMove:
    """The Group moves `inches` (half its MO) "directly away from the cause of Retreat",
    without passing within 3" of any enemy Group (rulebook Retreating; our ruling: how
    "directly away" and "pass within" read on squares)."""
    raise NotImplementedError


def deployment_zones(board: Board, seats: int) -> tuple[frozenset[Square], ...]:
    """Each seat's deployment zone (our ruling, Deployment): side 0 along the top edge, side 1
    along the bottom, 4" deep; a side's seats share its zone in bands side by side."""
    raise NotImplementedError


def formation_at(
    terrain: Terrain,
    anchor: Square,
    count: int,
    allowed: Collection[Square],
    blocked: Collection[Square],
) -> tuple[Square, ...] | None:
    """A Group of `count` models placed from its first model's square (deployment typed as one
    square): the nearest free squares of `allowed` in Cohesion; None if it does not fit."""
    raise NotImplementedError
