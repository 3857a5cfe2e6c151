"""Weapons that hit more than one target: Blast (BLS, and the rocket turret's XPL), Chain
Reaction (CRx), Linear (LNR) and Spread (SPR) (rulebook Weapon/Gear Special Rules).

Each affected target gets its own attack roll, in the order listed here: the primary target
first. Units with the Blast Shield rule (BLS on the unit) are never hit as secondary targets.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from skirmbot.rules.adjacency import adjacent, adjacent_squares
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.maps import BARREL, TURRET
from skirmbot.rules.sight import line_of_sight
from skirmbot.rules.skirm.cards import Weapon
from skirmbot.rules.skirm.state import MatchState, UnitState
from skirmbot.rules.squares import Square


@dataclass(frozen=True, slots=True)
class Aim:
    """One target of a multi-target attack: where, what stands there, and its attack dice."""

    square: Square
    unit: str | None
    item: int | None
    dice: int
    no_cover: bool


def is_blast(weapon: Weapon) -> bool:
    return weapon.has("BLS") or weapon.has("XPL")


def secondary_aims(
    state: MatchState, attacker: UnitState, weapon: Weapon, primary: Square, chosen: list[Square]
) -> list[Aim]:
    """The further targets the weapon hits besides the primary one (`chosen`: the squares the
    attacker picked for CRx or SPR)."""
    if is_blast(weapon):
        return _blast(state, attacker, weapon, primary)
    if weapon.has("CR"):
        return _chain(state, attacker, weapon, primary, chosen)
    if weapon.has("LNR"):
        return _linear(state, attacker, weapon, primary)
    return []


def spread_dice(weapon: Weapon, targets: int) -> list[int]:
    """SPR: the weapon's ROA shared out between the targets, the first ones getting the rest."""
    share, rest = divmod(weapon.roa, targets)
    return [share + (1 if n < rest else 0) for n in range(targets)]


def check_spread(state: MatchState, weapon: Weapon, squares: list[Square]) -> None:
    """SPR: every selected target adjacent to another selected one, and no more targets than
    attack dice."""
    if not weapon.has("SPR") and len(squares) > 1:
        raise IllegalCommand(f"{weapon.name} attacks one target (it has no Spread, SPR).")
    if len(squares) > weapon.roa:
        raise IllegalCommand(
            f"{weapon.name} has {weapon.roa} attack dice to spread; pick at most {weapon.roa} targets."
        )
    for square in squares:
        if len(squares) > 1 and not any(
            adjacent(state.board, square, other) for other in squares if other != square
        ):
            raise IllegalCommand(
                f"Spread (SPR) targets must each be adjacent to another target; {square} is not."
            )


def _aim_at(state: MatchState, square: Square, dice: int, no_cover: bool) -> Aim | None:
    unit = state.unit_at(square)
    if unit is not None:
        if unit.card.has("BLS"):
            return None  # Blast Shield: never hit as a secondary target
        return Aim(square, unit.id, None, dice, no_cover)
    items = [i for i in state.items_at(square) if i.kind in (BARREL, TURRET)]
    return Aim(square, None, items[0].id, dice, no_cover) if items else None


def _blast(state: MatchState, attacker: UnitState, weapon: Weapon, primary: Square) -> list[Aim]:
    """Every unit (squadmates too) and targetable item on a square adjacent to the primary
    target and visible from it; nobody hit by a blast has cover."""
    occupied = set(state.occupancy())
    aims = []
    for square in adjacent_squares(state.board, primary):
        if square == attacker.square or not line_of_sight(state.board, primary, square, occupied):
            continue
        aim = _aim_at(state, square, weapon.roa, no_cover=True)
        if aim is not None:
            aims.append(aim)
    return aims


def _chain(
    state: MatchState, attacker: UnitState, weapon: Weapon, primary: Square, chosen: list[Square]
) -> list[Aim]:
    """CRx: up to x other targets adjacent to the original target; the attacker's picks, or
    else the enemies next to it in reading order."""
    limit = weapon.value("CR")
    near = [s for s in adjacent_squares(state.board, primary) if s != attacker.square]
    if chosen:
        for square in chosen:
            if square not in near:
                raise IllegalCommand(
                    f"Chain Reaction targets must be adjacent to the first target; {square} is not."
                )
        if len(chosen) > limit:
            raise IllegalCommand(
                f"{weapon.name} chains to at most {limit} more target{'s' if limit > 1 else ''}."
            )
        picks = chosen
    else:
        picks = [
            s for s in near if (u := state.unit_at(s)) is not None and u.side != attacker.side
        ][:limit]
    return [
        aim
        for square in picks
        if (aim := _aim_at(state, square, weapon.roa, no_cover=False)) is not None
    ]


def _linear(state: MatchState, attacker: UnitState, weapon: Weapon, primary: Square) -> list[Aim]:
    """LNR: when attacker and target stand on the same level, every unit and item on a square
    the line between their centres crosses, nearest first (squadmates too)."""
    assert attacker.square is not None
    if not state.board.is_open(primary) or state.board.level(attacker.square) != state.board.level(
        primary
    ):
        return []
    aims = []
    for square in crossed_squares(attacker.square, primary):
        aim = _aim_at(state, square, weapon.roa, no_cover=False)
        if aim is not None:
            aims.append(aim)
    return aims


def crossed_squares(start: Square, end: Square) -> list[Square]:
    """Squares whose inside the segment between the two squares' centres passes through, from
    the start, both ends left out (exact: the line is sampled at every grid crossing)."""
    (x0, y0), (x1, y1) = (
        (Fraction(2 * start.x + 1, 2), Fraction(2 * start.y + 1, 2)),
        (Fraction(2 * end.x + 1, 2), Fraction(2 * end.y + 1, 2)),
    )
    cuts = {Fraction(0), Fraction(1)}
    for a, b in ((x0, x1), (y0, y1)):
        if a != b:
            low, high = sorted((a, b))
            cuts.update((Fraction(k) - a) / (b - a) for k in range(int(low) + 1, int(high) + 1))
    ordered = sorted(cuts)
    squares: list[Square] = []
    for t0, t1 in zip(ordered, ordered[1:], strict=False):
        mid = (t0 + t1) / 2  # inside one square between two grid crossings
        square = Square(int(x0 + (x1 - x0) * mid), int(y0 + (y1 - y0) * mid))
        if square not in (start, end) and square not in squares:
            squares.append(square)
    return squares
