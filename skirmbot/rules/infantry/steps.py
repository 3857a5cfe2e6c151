"""Moving under fire (plan section 3): a move is checked whole, then taken step by step, and at
each new position every enemy arc that holds it gets its chance before the next step (Firing
Arcs ¶2, Resolving Fire ¶1: "resolved before the targeted trooper continues").

`State.moving` is the move in progress: the steps still to take and the arc owners still to
decide at the present position. `advance` runs it until it is done, or until a chance belongs
to a seat that asked to be prompted (`Seat.prompt`): then it stops with `State.moving` kept,
and the owner's `FireAt` (`answer`) resumes it. Unprompted chances are decided at once by the
arc's order. Dice are drawn in that order, so a replay draws the same.

Routes: `route` is `terrain.route`'s cheapest route with one more rule, ours (plan §2): no two
able troopers share a dot at one level, so a route never passes through one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from skirmbot.rules.commands import Command
from skirmbot.rules.dice import Dice
from skirmbot.rules.dots import Dot, reachable
from skirmbot.rules.events import Event
from skirmbot.rules.infantry import arcs, terrain
from skirmbot.rules.infantry.state import Moving, State, Trooper

# What resumes after the chances at a position: the rest of a move, or nothing more.
MOVE, ACTIVATE, STAND, CLIMB = "move", "activate", "stand", "climb"


def blocked(state: State, mover: Trooper) -> Callable[[Dot], bool]:
    """Whether another able trooper stands on a dot at the mover's level."""
    taken = {t.dot for t in state.troopers if t.able and t.level == mover.level and t is not mover}
    return lambda dot: dot in taken


def route(state: State, mover: Trooper, goal: Dot, budget: int) -> list[Dot] | None:
    """The cheapest steps to `goal` within `budget` AP, around other troopers; None if none."""
    assert mover.dot is not None
    board, level, prone = state.board, mover.level, mover.prone
    occupied = blocked(state, mover)

    def passable(dot: Dot) -> bool:
        return board.has_level(dot, level) and not occupied(dot)

    def price(a: Dot, b: Dot) -> int | None:
        return terrain.step_cost(board, a, b, level, prone)

    costs = reachable(mover.dot, budget, passable, price)
    if goal not in costs or goal == mover.dot:
        return None
    steps = [goal]
    while steps[-1] != mover.dot:
        here = steps[-1]
        steps.append(
            next(
                before
                for before in here.neighbours()
                if before in costs
                and (cost := price(before, here)) is not None
                and costs[before] + cost == costs[here]
            )
        )
    return steps[-2::-1]


def start(
    state: State,
    mover: Trooper,
    steps: tuple[Dot, ...],
    action: str,
    then: Command | None = None,
) -> None:
    """A move (or a new position: `steps` empty) with the chances at its present position;
    `then`: the order to carry out once the move is done (one that started an activation)."""
    chances = tuple(arc.owner for arc in arcs.chances_at(state, mover))
    state.moving = Moving(mover.id, steps, chances, action, then)


def advance(state: State, dice: Dice) -> list[Event]:
    """Run the move in progress until it is done or waits for a prompted arc's owner."""
    assert state.moving is not None, "a move in progress"
    mover = state.trooper(state.moving.unit)
    events: list[Event] = []
    walked: list[tuple[Dot, int]] = []
    while state.moving is not None:
        moving = state.moving
        if moving.chances:
            owner = moving.chances[0]
            arc = state.arc_of(owner)
            if arc is None or arc not in arcs.chances_at(state, mover):
                state.moving = replace(moving, chances=moving.chances[1:])  # gone meanwhile
                continue
            if state.seats[state.trooper(owner).seat].prompt:
                break  # its owner answers live (FireAt)
            events += _flush(mover, walked, moving.action)
            events += decide(state, dice, arcs.wants(state, arc, mover))
        elif moving.steps:
            before = mover.dot
            cost = _step(state, mover, moving.steps[0])
            if cost is None:
                events += _flush(mover, walked, moving.action)
                events += _halt(state, mover, moving.steps[0])
                continue
            if not walked:
                assert before is not None
                walked.append((before, 0))
            walked.append((moving.steps[0], cost))
            start(state, mover, moving.steps[1:], moving.action, moving.then)
        else:
            state.moving = None
    return events + _flush(mover, walked, MOVE)


def decide(state: State, dice: Dice, fire: bool) -> list[Event]:
    """The first chance waiting at the present position: fire one shot, or hold."""
    moving = state.moving
    assert moving is not None and moving.chances
    owner = moving.chances[0]
    state.moving = replace(moving, chances=moving.chances[1:])
    mover = state.trooper(moving.unit)
    arc = state.arc_of(owner)
    if arc is None or arc not in arcs.chances_at(state, mover):
        return []
    if not fire:
        return [
            Event(
                "held",
                f"{owner} holds its fire at {mover.id} ({arcs.shots_words(arc.shots_left)} kept).",
                {"unit": owner, "target": mover.id},
            )
        ]
    return arcs.shoot(state, dice, arc, mover)


def _step(state: State, mover: Trooper, dot: Dot) -> int | None:
    """Pay for and take one step to `dot`, giving its cost; None (nothing changed) if it can no
    longer be taken: AP or the movement cap run out after a hit, or a trooper stands there."""
    assert mover.dot is not None
    cost = terrain.step_cost(state.board, mover.dot, dot, mover.level, mover.prone)
    if cost is None or cost > mover.left or mover.moved + cost > terrain.MOVE_CAP:
        return None
    if blocked(state, mover)(dot):
        return None
    mover.spent += cost
    mover.moved += cost
    mover.dot = dot
    mover.attacked_here = ()
    return cost


def _halt(state: State, mover: Trooper, dot: Dot) -> list[Event]:
    state.moving = None
    return [
        Event(
            "halted",
            f"{mover.id} cannot go on to {dot}: it stops on {mover.dot}.",
            {"unit": mover.id, "square": str(mover.dot)},
        )
    ]


def _flush(mover: Trooper, walked: list[tuple[Dot, int]], action: str) -> list[Event]:
    """The `moved` event of the steps walked since the last one (from its start), if any."""
    if not walked:
        return []
    path = [str(dot) for dot, _ in walked]
    cost = sum(paid for _, paid in walked)
    walked.clear()
    return [
        Event(
            "moved",
            f"{mover.id} moves {' '.join(path[1:])} ({cost} AP).",
            {"unit": mover.id, "path": path, "cost": cost, "action": action},
        )
    ]
