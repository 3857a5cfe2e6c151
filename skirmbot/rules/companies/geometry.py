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
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from skirmbot.rules.board import Board
from skirmbot.rules.companies.state import SIDES
from skirmbot.rules.maps import BattleMap, scaled
from skirmbot.rules.squares import Square

MAP_SQUARE = 2  # table squares along each side of one map square
COHESION = 3  # inches: "within 3" of at least one other model", "at least 3" from enemy Groups"
OBSTACLE_COVER = 3  # inches: "within 3" of an obstacle ... count as being in Cover"
OBSCURING_DEPTH = 3  # inches: Groups cannot see "more than 3" into" Obscuring terrain
CAPTAIN_REACH = 12  # inches: "+1 if the Captain's Group is within 12""
DEPLOYMENT_DEPTH = 4  # inches: each side's zone along its table edge (our ruling, Deployment)
_ANY_DISTANCE = 10_000  # a Move long enough to reach anything reachable (to say how far it is)


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


def in_contact(terrain: Terrain, a: Sequence[Square], b: Sequence[Square]) -> bool:
    """Whether a model of each Group stands in base contact with one of the other: in melee.
    Our ruling (Charge): not across Impassable terrain, as `charge` holds, so Groups either side
    of a high wall or a closed door are not in melee; across a low wall they are."""
    return any(touches(terrain, one, other) for one in a for other in b)


def touches(terrain: Terrain, model: Square, other: Square) -> bool:
    """Two models in base contact: on neighbouring squares, with no Impassable terrain between
    them (a step one could take from the other's square, obstacles aside)."""
    return model.distance(other) == 1 and terrain.step(model, other, True) is not None


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
        if self.impassable(a) or self.impassable(b) or self.board.wall_height(a, b) >= 2:
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

    def steps_from(self, square: Square, ignore_obstacles: bool) -> tuple[tuple[Square, int], ...]:
        """Every step a model can take from here over the terrain, with its cost."""
        return self.board.memo(
            (Terrain, "steps", square, ignore_obstacles),
            lambda: tuple(
                (there, cost)
                for there in square.around()
                if (cost := self.step(square, there, ignore_obstacles)) is not None
            ),
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
    pairs = sorted(
        ((viewer, target) for viewer in viewers for target in targets),
        key=lambda pair: pair[0].distance(pair[1]),
    )
    return any(sees(terrain, viewer, target) for viewer, target in pairs)


def sees(terrain: Terrain, viewer: Square, target: Square) -> bool:
    """Whether one model sees another (our ruling, Sight). The line runs from centre to centre
    through every square it enters (exactly, not sampled). It is blocked by an Impassable square
    between them, by an edge that is Impassable or Obscuring (walls of 2 or more, closed doors,
    drops of more than one level), and through a corner point only when both routes round it
    are. Obscuring squares: the line may run through the viewer's own patch as it leaves and
    into the target's as it arrives, but past no other ("cannot see past Obscuring terrain");
    and at most 3 of the squares it enters, the target's counted, may be Obscuring ("or more
    than 3" into it"). Models do not block sight."""
    return terrain.board.memo((sees, viewer, target), lambda: _sees(terrain, viewer, target))


def _sees(terrain: Terrain, viewer: Square, target: Square) -> bool:
    squares = [viewer]
    for here, there in _crossings(viewer, target):
        if here.x != there.x and here.y != there.y:
            corners = (Square(there.x, here.y), Square(here.x, there.y))
            if all(_sight_cut(terrain, here, via, there) for via in corners):
                return False
        elif terrain.edge_impassable(here, there) or terrain.edge_obscuring(here, there):
            return False
        if there != target and terrain.impassable(there):
            return False
        squares.append(there)
    return _obscuring_ok([terrain.obscuring(square) for square in squares])


def _obscuring_ok(obscuring: list[bool]) -> bool:
    """The line's squares (viewer first, target last), Obscuring or not: a run of Obscuring
    squares may only lead out of the viewer's own patch or end at the target; 3 at most, beyond
    the viewer's own square."""
    inside = obscuring[1:]
    depth = sum(inside)
    if depth > OBSCURING_DEPTH:
        return False
    trailing = _run(reversed(inside))
    leading = _run(inside) if obscuring[0] else 0
    return trailing == len(inside) or depth == leading + trailing


def _run(flags: Iterable[bool]) -> int:
    """How many flags are set before the first unset one."""
    count = 0
    for flag in flags:
        if not flag:
            break
        count += 1
    return count


def _sight_cut(terrain: Terrain, a: Square, via: Square, b: Square) -> bool:
    if terrain.impassable(via):
        return True
    return any(
        terrain.edge_impassable(s, t) or terrain.edge_obscuring(s, t)
        for s, t in ((a, via), (via, b))
    )


def _crossings(a: Square, b: Square) -> list[tuple[Square, Square]]:
    """Each step of the line from a's centre to b's centre into the next square it enters; a
    diagonal step where it passes exactly through a corner point (a supercover walk, exact in
    whole numbers)."""
    nx, ny = abs(b.x - a.x), abs(b.y - a.y)
    sx, sy = (1 if b.x > a.x else -1), (1 if b.y > a.y else -1)
    ix = iy = 0
    here = a
    steps: list[tuple[Square, Square]] = []
    while ix < nx or iy < ny:
        # Which boundary the line meets first: a column's (x), a row's (y) or both at a corner.
        decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if decision == 0:
            there = here.offset(sx, sy)
            ix, iy = ix + 1, iy + 1
        elif decision < 0:
            there = here.offset(sx, 0)
            ix += 1
        else:
            there = here.offset(0, sy)
            iy += 1
        steps.append((here, there))
        here = there
    return steps


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
    return {
        square: path
        for square, (_cost, path) in _routes(terrain, start, mo, blocked, ignore_obstacles).items()
    }


def _routes(
    terrain: Terrain, start: Square, mo: int, blocked: Collection[Square], ignore_obstacles: bool
) -> dict[Square, tuple[int, tuple[Square, ...]]]:
    """`reach` with each square's cost in inches."""
    found: dict[Square, tuple[int, tuple[Square, ...]]] = {}
    # (cost, steps, square, path): of equally cheap paths the one with fewest steps, then the
    # smaller squares, so a replay redraws the very same path.
    queue: list[tuple[int, int, Square, tuple[Square, ...]]] = [(0, 0, start, (start,))]
    while queue:
        cost, steps, here, path = heapq.heappop(queue)
        if here in found:
            continue
        found[here] = (cost, path)
        if here != start and not ignore_obstacles and terrain.obstacle_contact(here):
            continue  # "it stops its Move for this activation"
        for there, price in terrain.steps_from(here, ignore_obstacles):
            if cost + price <= mo and there not in found and there not in blocked:
                heapq.heappush(queue, (cost + price, steps + 1, there, (*path, there)))
    return found


def model_reach(
    terrain: Terrain, start: Square, mo: int, blocked: Collection[Square]
) -> dict[Square, tuple[Square, ...]]:
    """`reach` for a model beginning its Move here: it ignores obstacles if it begins in
    contact with one (rulebook Obstacle)."""
    return reach(terrain, start, mo, blocked, ignore_obstacles=terrain.obstacle_contact(start))


def cohesive(models: Sequence[Square]) -> bool:
    """Every model within 3" of at least one other model of its Group (one model: always)."""
    return stray(models) is None


def stray(models: Sequence[Square]) -> int | None:
    """The first model (its index) not within 3" of any other model of its Group, or None."""
    if len(models) < 2:
        return None
    return next(
        (
            i
            for i, model in enumerate(models)
            if all(model.distance(other) > COHESION for j, other in enumerate(models) if j != i)
        ),
        None,
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
    reaches = [model_reach(terrain, model, mo, blocked) for model in models]
    moves: dict[Square, tuple[Square, ...]] = {}
    if not cohesive(models):
        return moves  # a shape out of Cohesion stays out of it wherever it goes
    for dy in range(-mo, mo + 1):
        for dx in range(-mo, mo + 1):
            squares = tuple(model.offset(dx, dy) for model in models)
            # In its reach means open, not another Group's and within its Move.
            reached = all(square in found for square, found in zip(squares, reaches, strict=True))
            if reached and clear_of(squares, enemies):
                moves[squares[0]] = squares
    return moves


def formation_paths(
    terrain: Terrain,
    models: Sequence[Square],
    squares: Sequence[Square],
    mo: int,
    blocked: Collection[Square],
) -> tuple[tuple[Square, ...], ...]:
    """Each model's path to its square (for the `moved` event's picture): of a legal Move
    (`formation_moves`, `check_placed_move`) or a charge (`charge`, with the defender's models
    among `blocked`)."""
    return tuple(
        model_reach(terrain, model, mo, blocked)[square]
        for model, square in zip(models, squares, strict=True)
    )


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
    if len(destinations) != len(models):
        return f"Give {len(models)} squares, one for each model of the Group in order."
    for number, (model, square) in enumerate(zip(models, destinations, strict=True), start=1):
        problem = _placed_problem(terrain, number, model, square, mo, blocked)
        if problem:
            return problem
        if square in destinations[: number - 1]:
            return f"Two models cannot both end on {square}."
    alone = stray(destinations)
    if alone is not None:
        return (
            f'Model {alone + 1} on {destinations[alone]} would be more than 3" from every other '
            "model of its Group: a Group ends its Move in Cohesion."
        )
    for number, square in enumerate(destinations, start=1):
        near = [enemy for enemy in enemies if square.distance(enemy) < COHESION]
        if near:
            return (
                f'Model {number} on {square} would be {square.distance(min(near))}" from the '
                f'enemy model on {min(near)}: a Group ends its Move at least 3" from enemy Groups.'
            )
    return None


def _placed_problem(
    terrain: Terrain,
    number: int,
    model: Square,
    square: Square,
    mo: int,
    blocked: Collection[Square],
) -> str | None:
    """Why one model cannot end its Move on `square`, or None."""
    if not terrain.board.on_board(square):
        return f"Model {number} cannot go to {square}: it is off the table."
    if terrain.impassable(square):
        return f"Model {number} cannot go to {square}: it is Impassable terrain."
    if square in blocked:
        return f"Model {number} cannot go to {square}: another model stands there."
    ignore = terrain.obstacle_contact(model)
    if square in reach(terrain, model, mo, blocked, ignore_obstacles=ignore):
        return None
    unlimited = _routes(terrain, model, _ANY_DISTANCE, blocked, ignore)
    if square not in unlimited:
        return f"Model {number} cannot reach {square}: the way there is blocked."
    cost = unlimited[square][0]
    return f'Model {number} cannot reach {square}: it is {cost}" away, its Move is {mo}".'


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
    can reach base contact (the target is not within its movement distance).

    Our ruling (Charge): as many models as possible end in contact (a maximum matching of
    models to the free squares touching the defender that each reaches within `mo`, nearest
    squares first); contact is not across Impassable terrain but is across a low wall. Each
    model's path: `formation_paths`. Models already in contact may stay where they are."""
    taken = set(blocked) | set(targets)
    routes = [_routes(terrain, m, mo, taken, terrain.obstacle_contact(m)) for m in models]
    contacts = _contact_squares(terrain, targets, taken)
    options = [
        _nearest_first(model, found, contacts) for model, found in zip(models, routes, strict=True)
    ]
    matched = _match(options)
    if not matched:
        return None
    placed: dict[int, Square] = dict(matched)
    for index in range(len(models)):
        if index not in placed:
            placed[index] = _closing_square(
                models[index], routes[index], list(placed.values()), targets
            )
    return tuple(placed[index] for index in range(len(models)))


def _nearest_first(
    model: Square, found: dict[Square, tuple[int, tuple[Square, ...]]], contacts: set[Square]
) -> list[Square]:
    """The contact squares a model reaches, the cheapest first, then the straightest."""

    def preference(square: Square) -> tuple[int, int, Square]:
        return (found[square][0], _straightness(model, square), square)

    return sorted((square for square in found if square in contacts), key=preference)


def _straightness(frm: Square, to: Square) -> int:
    """Of equally long moves, the straighter one first (the square distance as the crow flies)."""
    return (to.x - frm.x) ** 2 + (to.y - frm.y) ** 2


def _contact_squares(
    terrain: Terrain, targets: Sequence[Square], taken: Collection[Square]
) -> set[Square]:
    """Free squares in base contact with a target model (our ruling: not across Impassable
    terrain; across a low wall is contact, fighting over the obstacle)."""
    return {
        square
        for target in targets
        for square in target.around()
        if square not in taken
        and not terrain.impassable(square)
        and touches(terrain, square, target)
    }


def _match(options: list[list[Square]]) -> dict[int, Square]:
    """As many models as possible each on its own contact square (a maximum matching, each
    model trying its nearest squares first, in model order)."""
    owner: dict[Square, int] = {}
    for index in range(len(options)):
        _assign(options, owner, index, set())
    return {index: square for square, index in owner.items()}


def _assign(
    options: list[list[Square]], owner: dict[Square, int], index: int, seen: set[Square]
) -> bool:
    """Give model `index` a square, moving the models that hold its options on along an
    augmenting path if that frees one (a function of the module, not a closure that calls
    itself: that would be a reference cycle left to the garbage collector at every charge)."""
    for square in options[index]:
        if square in seen:
            continue
        seen.add(square)
        if square not in owner or _assign(options, owner, owner[square], seen):
            owner[square] = index
            return True
    return False


def _closing_square(
    model: Square,
    found: dict[Square, tuple[int, tuple[Square, ...]]],
    placed: list[Square],
    targets: Sequence[Square],
) -> Square:
    """A model that reaches no contact square moves as close to the defender as it can while
    staying within 3" of a model of its Group (if it can get within 3" of none, as close to one
    as it can); of those, the cheapest move, then the straightest."""
    free = [square for square in found if square not in placed]

    def score(square: Square) -> tuple[int, int, int, int, Square]:
        apart = max(0, min(square.distance(other) for other in placed) - COHESION)
        cost = found[square][0]
        return (
            apart,
            group_distance([square], targets),
            cost,
            _straightness(model, square),
            square,
        )

    return min(free, key=score)


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
    *,
    home_edge: int | None = None,
) -> RetreatMove:
    """The Group moves `inches` (half its MO) "directly away from the cause of Retreat",
    without passing within 3" of any enemy Group (rulebook Retreating; our ruling: how
    "directly away" and "pass within" read on squares).

    Our ruling (Retreat): the direction runs from the cause's closest model to the Group's
    closest model (`closest_pair`); every model walks that same line of single steps
    (Bresenham), all a step at a time, `inches` steps, a Difficult square costing 2 of a
    model's inches (a model with too few left stops there; the others go on). A step into
    Impassable terrain or onto another Group's model (`blocked`), across an Impassable edge or
    a low wall, or one that ends less than 3" from an enemy model and nearer to it than before,
    is blocked: the whole Group stops where it is. A step off the table: `off_table`. With no
    cause (no enemy Group left), it retreats toward its own side's table edge: `home_edge` is
    the side (0: the top edge, 1: the bottom)."""
    if cause:
        away_from, nearest = closest_pair(cause, models)
        dx, dy = nearest.x - away_from.x, nearest.y - away_from.y
    elif home_edge is not None:
        dx, dy = 0, (-1 if home_edge == 0 else 1)
    else:
        raise ValueError("A Retreat with no cause needs the Group's home edge.")
    offsets = _straight_steps(dx, dy, inches)
    here = list(models)
    paths = [[model] for model in models]
    left = [inches] * len(models)
    others = set(blocked)
    for step_x, step_y in offsets:
        moving = [index for index in range(len(here)) if left[index] > 0]
        targets = {index: here[index].offset(step_x, step_y) for index in moving}
        if any(not terrain.board.on_board(square) for square in targets.values()):
            return _retreat_move(here, paths, blocked=False, off_table=True)
        costs: dict[int, int] = {}
        for index in moving:
            cost = terrain.step(here[index], targets[index], False)
            if cost is None:
                return _retreat_move(here, paths, blocked=True, off_table=False)
            if cost > left[index]:
                left[index] = 0  # too few of its inches left for difficult ground: it stops
                del targets[index]
            costs[index] = cost
        standing = {here[index] for index in range(len(here)) if index not in targets}
        for index, square in targets.items():
            if square in others or square in standing or _nearing(here[index], square, enemies):
                return _retreat_move(here, paths, blocked=True, off_table=False)
        for index, square in targets.items():
            left[index] -= costs[index]
            here[index] = square
            paths[index].append(square)
        if not any(left):
            break
    return _retreat_move(here, paths, blocked=False, off_table=False)


def _retreat_move(
    here: list[Square], paths: list[list[Square]], *, blocked: bool, off_table: bool
) -> RetreatMove:
    return RetreatMove(tuple(here), tuple(tuple(path) for path in paths), blocked, off_table)


def _nearing(frm: Square, to: Square, enemies: Collection[Square]) -> bool:
    """A step that ends within 3" of an enemy model and closer to it than before ("may not pass
    within 3" of any enemy Groups"; moving away from one it is already near is allowed)."""
    return any(
        to.distance(enemy) < COHESION and to.distance(enemy) < frm.distance(enemy)
        for enemy in enemies
    )


def _straight_steps(dx: int, dy: int, steps: int) -> list[tuple[int, int]]:
    """`steps` single-square steps as straight as squares allow along the direction (dx, dy):
    the direction stretched to `steps` squares along its longer side, walked Bresenham-wise."""
    longest = max(abs(dx), abs(dy))
    tx, ty = _rounded(dx * steps, longest), _rounded(dy * steps, longest)
    offsets: list[tuple[int, int]] = []
    x = y = 0
    for n in range(1, steps + 1):
        nx, ny = _rounded(tx * n, steps), _rounded(ty * n, steps)
        offsets.append((nx - x, ny - y))
        x, y = nx, ny
    return offsets


def _rounded(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded half away from zero (the same both ways, so a Retreat
    to the west mirrors one to the east)."""
    sign = -1 if numerator < 0 else 1
    return sign * ((2 * abs(numerator) + denominator) // (2 * denominator))


def deployment_zones(board: Board, seats: int) -> tuple[frozenset[Square], ...]:
    """Each seat's deployment zone (our ruling, Deployment): side 0 along the top edge, side 1
    along the bottom, 4" deep; a side's seats share its zone in column bands of (nearly) equal
    width side by side, in seat order west to east (seat 0 west of seat 2). Open squares only;
    the zones are indexed by seat."""
    per_side = seats // SIDES
    top = range(0, DEPLOYMENT_DEPTH)
    bottom = range(board.height - DEPLOYMENT_DEPTH, board.height)
    zones = []
    for seat in range(seats):
        side, band = seat % SIDES, seat // SIDES
        columns = range(band * board.width // per_side, (band + 1) * board.width // per_side)
        rows = top if side == 0 else bottom
        zones.append(
            frozenset(
                square for y in rows for x in columns if board.is_open(square := Square(x, y))
            )
        )
    return tuple(zones)


def formation_at(
    terrain: Terrain,
    anchor: Square,
    count: int,
    allowed: Collection[Square],
    blocked: Collection[Square],
) -> tuple[Square, ...] | None:
    """A Group of `count` models placed from its first model's square (deployment typed as one
    square): the nearest free squares of `allowed` in Cohesion; None if it does not fit."""
    free = sorted(
        (square for square in allowed if square not in blocked and not terrain.impassable(square)),
        key=lambda square: (square.distance(anchor), square.y, square.x),
    )
    if anchor not in free:
        return None
    placed = [anchor]
    while len(placed) < count:
        joining = next(
            (
                square
                for square in free
                if square not in placed
                and any(square.distance(model) <= COHESION for model in placed)
            ),
            None,
        )
        if joining is None:
            return None
        placed.append(joining)
    return tuple(placed)
