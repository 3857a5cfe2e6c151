"""Lite's non-combat actions: Move (MOV squares), Dash (2 squares) and Revive (Lite rulebook
Basic Actions; Movement as in the full rules and docs/rulings.md). Open/Close Door, Pick Up and
Drop are Skirm's (skirmbot.rules.skirm.actions).

Each is split like Skirm's: `check_*` raises IllegalCommand and changes nothing; `do_*` changes
the state once every check passed and the cost was paid.
"""

from __future__ import annotations

from skirmbot.rules.adjacency import adjacent
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.lite.agents import (
    downed,
    is_downed,
    standing_enemy_next_to,
    standing_squares,
)
from skirmbot.rules.lite.costs import MOVE
from skirmbot.rules.movement import Mover, Route, reachable, route_to
from skirmbot.rules.skirm.state import ACTIVATED, MatchState, UnitState
from skirmbot.rules.squares import Square

DASH_SQUARES = 2  # Lite Dash: "moves up to 2 Squares"
REVIVE_DIE = 3  # "it returns with 1D3 HIT remaining"


def movement_budget(agent: UnitState, action: str) -> int:
    return agent.card.mov if action == MOVE else DASH_SQUARES


def routes(state: MatchState, agent: UnitState, action: str) -> dict[Square, Route]:
    """Every square the Agent may end a Move or Dash on (start included), with its path. Downed
    Agents are passed over by anyone and hold nothing, but no move ends on one (our ruling)."""
    assert agent.square is not None
    found = reachable(
        state.board,
        agent.square,
        movement_budget(agent, action),
        Mover(str(agent.side)),
        standing_squares(state),
    )
    lying = {u.square for u in downed(state)}
    return {square: route for square, route in found.items() if square not in lying}


def known_route(
    state: MatchState, agent: UnitState, action: str, destination: Square
) -> Route | None:
    """The route of a Move or Dash already accepted once (a trusted replay), as `check_move`
    gives it, without listing every square the Agent could reach; None when it finds none (the
    caller checks the move in full, to say why)."""
    assert agent.square is not None
    if destination == agent.square or any(u.square == destination for u in downed(state)):
        return None  # cheap to tell, so a corrupt record still gets check_move's refusal
    return route_to(
        state.board,
        agent.square,
        movement_budget(agent, action),
        Mover(str(agent.side)),
        standing_squares(state),
        destination,
    )


def check_move(state: MatchState, agent: UnitState, action: str, destination: Square) -> Route:
    if destination == agent.square:
        raise IllegalCommand(f"{agent.name} is already on {destination}.")
    options = routes(state, agent, action)
    route = options.get(destination)
    if route is None:
        verb = "a Move" if action == MOVE else "a Dash"
        budget = movement_budget(agent, action)
        ends = ", ".join(
            f"{square} ({r.cost})"
            for square, r in sorted(options.items(), key=lambda kv: (kv[0].y, kv[0].x))
            if square != agent.square
        )
        raise IllegalCommand(
            f"{agent.name} cannot reach {destination} with {verb} ({budget} squares of movement). "
            f"{agent.name} can reach: {ends or 'nowhere'}."
        )
    return route


def check_revive(state: MatchState, reviver: UnitState, name: str) -> UnitState:
    """The Downed squadmate to revive: adjacent, and neither it nor the reviver adjacent to a
    Standing enemy (Lite rulebook Revive)."""
    assert reviver.square is not None
    target = state.unit(name)
    if target.side != reviver.side:
        raise IllegalCommand(
            f"{target.name} is not in your squad; only a squadmate can be revived."
        )
    if not is_downed(target):
        raise IllegalCommand(f"{target.name} is not Downed.")
    assert target.square is not None
    if not adjacent(state.board, reviver.square, target.square):
        raise IllegalCommand(f"{target.name} is not adjacent to {reviver.name}.")
    for who in (reviver, target):
        assert who.square is not None
        enemy = standing_enemy_next_to(state, reviver.side, who.square)
        if enemy is not None:
            raise IllegalCommand(
                f"{who.name} is adjacent to {enemy.name}, a Standing enemy: no Revive then."
            )
    return target


def do_revive(state: MatchState, reviver: UnitState, target: UnitState, dice: Dice) -> Event:
    """Back with 1D3 HIT, counted as activated this turn, and no longer taken out."""
    roll = dice.roll(REVIVE_DIE)
    target.hit = min(roll, target.card.hit)
    target.status = ACTIVATED
    state.taken_out_this_turn = [
        entry for entry in state.taken_out_this_turn if entry[0] != target.id
    ]
    return Event(
        "revived",
        f"{reviver.name} revives {target.name}: rolls {roll} on 1D3, back with {target.hit} HIT "
        "(it counts as activated this turn).",
        {"unit": reviver.id, "target": target.id, "roll": roll, "hit": target.hit},
    )
