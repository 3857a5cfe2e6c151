"""Inches on the square grid for the group rules: distance, terrain, sight, moving with
Cohesion, charging into contact and Retreat (our rulings: docs/rulings.md, the group rules:
Scale and Terrain).

Scale: the table is the map at 2x2 squares per map square, one square an inch (a 12x12 map is a
24-inch table). A model stands on one square. The distance between two models is counted as the
kernel counts squares (`Square.distance`: a diagonal step is one square), so models on
neighbouring squares are 1" apart and in base contact. Between two Groups it is the distance of
their closest models (rulebook General), exact in whole inches.

Our rulings here, on squares (docs/rulings.md, the group rules: Scale and Terrain):
- A step goes to any of the 8 neighbouring squares and costs 1", or 2" into a Difficult square
  (the inch moved through difficult terrain is the one that ends in it).
- A diagonal step may not go round a corner where either two-step route past it is cut by
  Impassable terrain (no squeezing past a wall's end); it crosses an obstacle only when both
  routes cross a low wall (going round the end of a low wall is not crossing it).
- Only terrain cuts a corner: models on the two corner squares do not.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from skirmbot.rules.board import Board
from skirmbot.rules.maps import BattleMap, scaled
from skirmbot.rules.squares import Square

MAP_SQUARE = 2  # table squares along each side of one map square
COHESION = 3  # inches: "within 3" of at least one other model", "at least 3" from enemy Groups"
OBSTACLE_COVER = 3  # inches: "within 3" of an obstacle ... count as being in Cover"
OBSCURING_DEPTH = 3  # inches: Groups cannot see "more than 3" into" Obscuring terrain
CAPTAIN_REACH = 12  # inches: "+1 if the Captain's Group is within 12""


def table_of(battle_map: BattleMap) -> BattleMap:
    """The map as the table the group rules play on: each map square 2x2 squares of an inch,
    walls and doors along the enlarged edges, objectives on the top-left square of theirs.
    Items are dropped: the group rules use none."""
    table = scaled(battle_map, MAP_SQUARE)
    return replace(table, items=(), source={**table.source, "items": []})


def distance(a: Square, b: Square) -> int:
    """Inches between two models."""
    return a.distance(b)


def group_distance(a: Sequence[Square], b: Sequence[Square]) -> int:
    """Inches between the closest models of two Groups (rulebook General)."""
    return min(one.distance(other) for one in a for other in b)


def closest_pair(a: Sequence[Square], b: Sequence[Square]) -> tuple[Square, Square]:
    """The closest model of each Group (ties: the first in each Group's order)."""
    return min(
        ((one, other) for one in a for other in b), key=lambda pair: pair[0].distance(pair[1])
    )


def in_contact(a: Sequence[Square], b: Sequence[Square]) -> bool:
    """Whether a model of each Group stand in base contact (neighbouring squares): in melee."""
    return group_distance(a, b) <= 1


class Terrain:
    """The table's terrain as the rulebook's kinds (our ruling, Terrain): difficult squares
    (`~`) are Difficult and Obscuring (woods, overgrowth); impassable squares (`#`), walls of
    height 2 or more and closed doors are Impassable and Obscuring; walls of height 1 are
    Obstacles; levels are ground a model walks over (a step between levels more than 1 apart,
    without stairs, is Impassable). Open doors are nothing at all.

    What it works out from the terrain is kept in the board's memo (cleared when a door opens
    or closes): moves and sight ask the same questions many times an activation."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def difficult(self, square: Square) -> bool:
        return square in self.board.difficult

    def obscuring(self, square: Square) -> bool:
        return square in self.board.difficult or square in self.board.impassable

    def impassable(self, square: Square) -> bool:
        """Models cannot stand on or move through it (off the table counts too)."""
        return not self.board.is_open(square)

    def edge_impassable(self, a: Square, b: Square) -> bool:
        """The edge between orthogonal neighbours: a wall of 2 or more, a closed door, or a
        drop of more than one level without stairs."""
        if self.board.wall_height(a, b) >= 2:
            return True
        board = self.board
        return abs(board.level(a) - board.level(b)) > 1 and not board.feature(a, b).stairs

    def edge_obscuring(self, a: Square, b: Square) -> bool:
        """A wall of 2 or more or a closed door on the edge between orthogonal neighbours."""
        return self.board.wall_height(a, b) >= 2

    def low_wall(self, a: Square, b: Square) -> bool:
        """An obstacle on the edge between orthogonal neighbours: a wall of height 1."""
        return self.board.wall_height(a, b) == 1

    def obstacle_contact(self, square: Square) -> bool:
        """A model here is in base contact with an obstacle (a low wall on one of its sides)."""
        return square in self._obstacle_squares()

    def near_obstacle(self, square: Square) -> bool:
        """Within 3" of an obstacle: at most 3 squares from a square with a low wall on one of
        its sides (a model there touches the obstacle)."""
        return any(square.distance(other) <= OBSTACLE_COVER for other in self._obstacle_squares())

    def in_cover(self, models: Sequence[Square]) -> bool:
        """Our ruling (Cover): a Group counts as in Cover when at least half its models are
        within 3" of an obstacle (`near_obstacle`)."""
        near = sum(1 for model in models if self.near_obstacle(model))
        return bool(models) and 2 * near >= len(models)

    def _obstacle_squares(self) -> frozenset[Square]:
        return self.board.memo((Terrain, "obstacles"), self._find_obstacle_squares)

    def _find_obstacle_squares(self) -> frozenset[Square]:
        found: set[Square] = set()
        for (a, b), _feature in self.board.edges():
            if self.low_wall(a, b):
                found.update((a, b))
        return frozenset(found)

    def step(self, a: Square, b: Square, ignore_obstacles: bool) -> int | None:
        """The cost in inches of one model's step from `a` to its neighbour `b` over the
        terrain (models aside); None: it cannot step there."""
        return self.board.memo(
            (Terrain, "step", a, b, ignore_obstacles), lambda: self._step(a, b, ignore_obstacles)
        )

    def _step(self, a: Square, b: Square, ignore_obstacles: bool) -> int | None:
        if self.impassable(b):
            return None
        if a.x == b.x or a.y == b.y:
            if self.edge_impassable(a, b) or (self.low_wall(a, b) and not ignore_obstacles):
                return None
        else:
            routes = (Square(b.x, a.y), Square(a.x, b.y))
            if any(self._route_cut(a, via, b) for via in routes):
                return None
            crossing = all(self.low_wall(a, via) or self.low_wall(via, b) for via in routes)
            if crossing and not ignore_obstacles:
                return None
        return 2 if self.difficult(b) else 1

    def _route_cut(self, a: Square, via: Square, b: Square) -> bool:
        """The two-step route a-via-b round a corner is cut by Impassable terrain."""
        return self.impassable(via) or self.edge_impassable(a, via) or self.edge_impassable(via, b)


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
    found: dict[Square, tuple[Square, ...]] = {}
    # (cost, steps, square, path): of equally cheap paths the one with fewest steps, then the
    # smaller squares, so a replay redraws the very same path.
    queue: list[tuple[int, int, Square, tuple[Square, ...]]] = [(0, 0, start, (start,))]
    while queue:
        cost, steps, here, path = heapq.heappop(queue)
        if here in found:
            continue
        found[here] = path
        if here != start and not ignore_obstacles and terrain.obstacle_contact(here):
            continue  # "it stops its Move for this activation"
        for there in here.around():
            if there in found or there in blocked:
                continue
            price = terrain.step(here, there, ignore_obstacles)
            if price is not None and cost + price <= mo:
                heapq.heappush(queue, (cost + price, steps + 1, there, (*path, there)))
    return found


def cohesive(models: Sequence[Square]) -> bool:
    """Every model within 3" of at least one other model of its Group (one model: always)."""
    return (
        all(
            any(model.distance(other) <= COHESION for j, other in enumerate(models) if j != i)
            for i, model in enumerate(models)
        )
        if len(models) > 1
        else True
    )


def clear_of(models: Sequence[Square], enemies: Collection[Square]) -> bool:
    """Every model at least 3" from every enemy model (Cohesion)."""
    return all(model.distance(enemy) >= COHESION for model in models for enemy in enemies)


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
