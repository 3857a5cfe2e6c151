"""Standing and Downed Agents (Lite rulebook Damage) and what the geometry sees of them.

A Downed Agent lies on its side on its square until it is revived or removed at the end of the
turn. Our rulings (docs/rulings.md, Skirm Lite): it blocks no line of sight, gives no Support,
Friendly Fire or cover, holds and contests no objective, is no target, stops nobody passing and
is passed over by anyone, but no Agent may end a move on its square.
"""

from __future__ import annotations

from skirmbot.rules.adjacency import adjacent
from skirmbot.rules.skirm.state import DOWNED, MatchState, UnitState
from skirmbot.rules.squares import Square

SENTRY_MARK = "sentry"  # skills_used holds [turn, agent, "sentry"] for each Sentry Action


def is_standing(agent: UnitState) -> bool:
    return agent.on_map and agent.status != DOWNED


def is_downed(agent: UnitState) -> bool:
    return agent.on_map and agent.status == DOWNED


def standing(state: MatchState, side: int | None = None) -> list[UnitState]:
    return [u for u in state.on_map(side) if u.status != DOWNED]


def downed(state: MatchState, side: int | None = None) -> list[UnitState]:
    return [u for u in state.on_map(side) if u.status == DOWNED]


def standing_at(state: MatchState, square: Square) -> UnitState | None:
    return next((u for u in standing(state) if u.square == square), None)


def standing_squares(state: MatchState) -> dict[Square, str]:
    """Squares of Standing Agents and their squad (side as text), as the geometry wants them."""
    return {u.square: str(u.side) for u in standing(state) if u.square is not None}


def standing_enemy_next_to(state: MatchState, side: int, square: Square) -> UnitState | None:
    """A Standing Agent of the other squad adjacent to `square`, if any."""
    return next(
        (
            enemy
            for enemy in standing(state, 1 - side)
            if enemy.square is not None and adjacent(state.board, enemy.square, square)
        ),
        None,
    )


def sentry_used(state: MatchState, agent: UnitState) -> bool:
    return [state.turn, agent.id, SENTRY_MARK] in state.skills_used
