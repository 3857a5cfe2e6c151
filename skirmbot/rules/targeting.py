"""Whether a ranged attack may be made at a square (rulings: Combat / Ranged restrictions).

Cover is not a restriction: it only changes the damage taken (see `sight.Sight.cover`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from skirmbot.rules.adjacency import adjacent, adjacent_squares
from skirmbot.rules.board import Board
from skirmbot.rules.sight import line_of_sight
from skirmbot.rules.squares import Square


def ranged_target_problem(
    board: Board,
    attacker: Square,
    target: Square,
    weapon_range: int,
    units: Mapping[Square, str],
    attacker_squad: str,
) -> str | None:
    """None when a ranged attack from `attacker` at `target` is allowed, otherwise a sentence
    saying why not. `units` maps occupied squares to their Unit's Squad id; Units of another
    Squad than `attacker_squad` are enemies. The cheap checks come first, line of sight last.
    """
    if adjacent(board, attacker, target):
        return (
            f"The target on {target} is adjacent to {attacker}: ranged attacks need a target "
            "that is not adjacent."
        )
    enemy = _first_adjacent(board, attacker, units, lambda squad: squad != attacker_squad)
    if enemy is not None:
        return (
            f"An enemy on {enemy} is adjacent to the attacker on {attacker}: ranged attacks "
            "need no enemy adjacent to the attacker."
        )
    distance = attacker.distance(target)
    if distance > weapon_range:
        return f"{target} is {distance} squares away; this weapon's range is {weapon_range}."
    squadmate = _first_adjacent(
        board, target, units, lambda squad: squad == attacker_squad, besides=attacker
    )
    if squadmate is not None:
        return (
            f"A squadmate on {squadmate} is adjacent to the target on {target}: ranged attacks "
            "need no squadmate adjacent to the target."
        )
    if not line_of_sight(board, attacker, target, units.keys()):
        return f"No line of sight from {attacker} to {target}."
    return None


def _first_adjacent(
    board: Board,
    square: Square,
    units: Mapping[Square, str],
    wanted: Callable[[str], bool],
    besides: Square | None = None,
) -> Square | None:
    """The first square adjacent to `square` holding a Unit of a wanted Squad."""
    for other in adjacent_squares(board, square):
        squad = units.get(other)
        if squad is not None and other != besides and wanted(squad):
            return other
    return None
