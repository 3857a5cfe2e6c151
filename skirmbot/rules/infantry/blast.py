"""Explosives: throws, scatter and blasts (rulebook 002: Explosives).

Pure: the map comes in as two plain questions the terrain part answers, `barred(a, b)` (does a
one-dot step from a to b meet an impassable obstacle: a high wall on the side, an impassable
dot, the map's edge) and `between(centre, dot)` (the kinds of features on the straight line
from the blast's centre to a trooper), so this module needs no map class and its dice come
from an injected `Dice`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from skirmbot.rules import dots
from skirmbot.rules.dice import Dice
from skirmbot.rules.dots import Direction, Dot, Edge
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry.combat import attacker_modifiers, roll_2d6

# Explosives ¶2: a throw up one level or down stairs/a ladder costs 3 AP.
LEVEL_THROW_AP = 3
# Explosives ¶1: "Double these AP costs if the attacking trooper is prone."
PRONE_FACTOR = 2
# Explosives table: damage for the point of detonation, the adjacent dots, the dots 2 away.
BLAST_REACH = 2
# Feature kinds (the terrain part's names): what stops a blast outright (Explosives ¶6: "a solid
# high wall or the trunk of a tree")...
IMPASSABLE = frozenset({"wall", "impassable"})
# ...and what stops it only for a prone trooper ("Low solid obstructions such as furniture and
# windows"). A hedge ("light") is not solid: it does not shield (our ruling).
LOW_SOLID = frozenset({"low", "window"})
SCATTER_DIE = 6

Barred = Callable[[Dot, Dot], bool]
Between = Callable[[Dot, Dot], frozenset[str]]


def throw_ap(distance: int, ap_per_dot: int, prone: bool) -> int:
    """Explosives ¶1: 1 AP a dot for a grenade, 2 for a satchel, doubled when prone."""
    return distance * ap_per_dot * (PRONE_FACTOR if prone else 1)


def level_throw_ap(prone: bool) -> int:
    """Explosives ¶2: 3 AP up or down levels; doubled prone like every throw (¶1)."""
    return LEVEL_THROW_AP * (PRONE_FACTOR if prone else 1)


def level_throw_allowed(levels: int, on_stairs: bool, beside_stairs: bool) -> bool:
    """Explosives ¶2: "down ... any number of levels or up one level ... must be standing on
    the stairwell or ladder to throw ... up a level and may be on or adjacent ... to throw ...
    down". `levels` is the target's level minus the thrower's (not 0)."""
    if levels == 1:
        return on_stairs
    if levels < 0:
        return on_stairs or beside_stairs
    return False


def throw_target_number(
    *, ap_used: int, damage_modifier: int, cover: int, thrower_prone: bool
) -> int:
    """Explosives ¶5: "The base target number is the number of AP used to throw", with the
    firer's modifiers and cover, "do not apply any modifiers for a prone target"."""
    return ap_used + attacker_modifiers(damage_modifier, thrower_prone) + cover


def blast_distance(centre: Dot, dot: Dot, levels_apart: int) -> int:
    """Explosives ¶6: "Treat each level of height as one dot further away"."""
    return centre.distance(dot) + abs(levels_apart)


def blast_value(blast: Sequence[int], distance: int) -> int:
    """Explosives table: the lethal damage at the centre, 1 and 2 dots away; none beyond."""
    if len(blast) != BLAST_REACH + 1:
        raise RulesError(f"A blast gives {BLAST_REACH + 1} damage values, not {len(blast)}.")
    return blast[distance] if 0 <= distance <= BLAST_REACH else 0


def shielded(features: Iterable[str], prone: bool) -> bool:
    """Explosives ¶6: an impassable obstacle on the line blocks the blast; a low solid one
    blocks it too when the trooper is prone."""
    kinds = frozenset(features)
    return bool(kinds & IMPASSABLE) or (prone and bool(kinds & LOW_SOLID))


def _along(a: Dot, b: Dot, dot: Dot) -> float:
    """How far dot's centre lies along the line from a's to b's (a projection, for order)."""
    ax, ay = dots.centre(a, 1.0)
    bx, by = dots.centre(b, 1.0)
    x, y = dots.centre(dot, 1.0)
    return (x - ax) * (bx - ax) + (y - ay) * (by - ay)


def scatter_start(thrower: Dot, target: Dot, windows: Iterable[Edge]) -> Dot:
    """Explosives ¶7: a miss scatters "from the targeted dot", or, thrown "through a window,
    ... from the first dot before the window along the line of sight": the thrower's side of
    the window side nearest the thrower on the throw line (`windows`: the map's window sides)."""
    crossed = dots.line(thrower, target).edges & frozenset(windows)
    if not crossed:
        return target

    def near_end(side: Edge) -> Dot:
        return min(side, key=lambda dot: (_along(thrower, target, dot), dot))

    def order(side: Edge) -> tuple[float, Dot]:
        end = near_end(side)
        return _along(thrower, target, end), end

    return near_end(min(crossed, key=order))


@dataclass(frozen=True, slots=True)
class Scatter:
    """A scatter roll, the direction it picks and where the blast's centre ends up."""

    roll: int
    direction: Direction
    centre: Dot


def scatter(dice: Dice, target: Dot, start: Dot, barred: Barred) -> Scatter:
    """Explosives ¶7: 1D6, 1 = north-east then clockwise (`Direction.from_scatter`), one dot
    (our ruling) from `start`; "If the path of scatter intersects an impassible obstacle ...
    the center of the explosion stays on the targeted dot" (as written, even after a window)."""
    roll = dice.roll(SCATTER_DIE)
    direction = Direction.from_scatter(roll)
    landing = start.neighbour(direction)
    return Scatter(roll, direction, target if barred(start, landing) else landing)


@dataclass(frozen=True, slots=True)
class Exposed:
    """A trooper the blast may reach: where it is, and whether it lies prone."""

    name: str
    dot: Dot
    level: int
    prone: bool


@dataclass(frozen=True, slots=True)
class BlastHit:
    """One trooper's share of a blast: its distance (levels counted), the lethal damage and
    the 2D6 naming its initial cell (Resolving Fire ¶6, "Damage is applied as above")."""

    name: str
    distance: int
    lethal: int
    damage_roll: int


def blast(
    dice: Dice,
    centre: Dot,
    level: int,
    values: Sequence[int],
    troopers: Sequence[Exposed],
    between: Between,
) -> tuple[BlastHit, ...]:
    """Explosives ¶6: damage "starting at the targeted dot and moving outwards": every trooper
    within reach and not shielded, nearest first (equal distances in the order given), each
    with its own damage 2D6 (our ruling, proposed in docs/plans/infantry.md)."""
    reached = sorted(
        (
            (blast_distance(centre, trooper.dot, trooper.level - level), index, trooper)
            for index, trooper in enumerate(troopers)
        ),
        key=lambda entry: (entry[0], entry[1]),
    )
    hits: list[BlastHit] = []
    for distance, _, trooper in reached:
        lethal = blast_value(values, distance)
        if lethal == 0 or _shields(trooper, centre, between):
            continue
        hits.append(BlastHit(trooper.name, distance, lethal, roll_2d6(dice)))
    return tuple(hits)


def _shields(trooper: Exposed, centre: Dot, between: Between) -> bool:
    """Nothing stands between a blast and a trooper on its centre dot."""
    if trooper.dot == centre:
        return False
    return shielded(between(centre, trooper.dot), trooper.prone)


@dataclass(frozen=True, slots=True)
class Explosion:
    """A resolved explosive token: the 2D6 check, the scatter on a miss, the centre, the hits.
    (Not a combat.Attack: a hit rolls no damage 2D6 of its own, each trooper rolls one.)"""

    target_number: int
    roll: int
    scatter: Scatter | None
    centre: Dot
    hits: tuple[BlastHit, ...]

    @property
    def hit(self) -> bool:
        return self.roll >= self.target_number


@dataclass(frozen=True, slots=True)
class Token:
    """An explosive token as placed (Explosives ¶3): the targeted dot and level, where a miss
    scatters from, the target number fixed at the throw, and the weapon's blast values."""

    target: Dot
    level: int
    start: Dot
    target_number: int
    values: tuple[int, int, int]


def explode(
    dice: Dice,
    token: Token,
    troopers: Sequence[Exposed],
    barred: Barred,
    between: Between,
) -> Explosion:
    """Resolve one token at the end of its side's turn (Explosives ¶3-7). Dice in order: the
    2D6 check (no damage roll of its own: each trooper rolls its own), on a miss the 1D6
    scatter, then each hit trooper's 2D6."""
    roll = roll_2d6(dice)
    missed = roll < token.target_number
    moved = scatter(dice, token.target, token.start, barred) if missed else None
    centre = token.target if moved is None else moved.centre
    hits = blast(dice, centre, token.level, token.values, troopers, between)
    return Explosion(token.target_number, roll, moved, centre, hits)
