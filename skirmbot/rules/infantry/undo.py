"""Taking back a seat's last action of its side's turn in progress, never past the turn's start.

Rolled dice stand (docs/rulings.md, Fair play): the service refuses an undo when a die was
rolled since the point this module gives, so a command in which dice were rolled is never taken
back. Under these rules that is often: a move on which an enemy arc fired, an activation that
began inside an arc or with a melee waiting, the end of a turn whose grenades went off. In
practice what comes back is a move no arc fired at, a change of weapon, an arc set, a throw
(its token waits for the turn's end), going prone or standing up where no arc sees.
"""

from __future__ import annotations

from typing import Any

from skirmbot.rules.commands import Activate, EndActivation, Melee
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry.commands import (
    Arc,
    ChangeWeapon,
    Climb,
    DropItem,
    FireAt,
    Move,
    Prone,
    Stand,
    StandingOrders,
    Take,
    Throw,
)
from skirmbot.rules.infantry.state import State

# A trooper's actions in its side's turn, by their type in records.
ACTIONS = frozenset(
    kind.type
    for kind in (
        Activate, Move, Climb, Prone, Stand, ChangeWeapon, Take, DropItem, Arc, Throw, Melee,
        EndActivation,
    )
)  # fmt: skip
# Decisions in the turn that are not its actions: an arc owner's answer (the other seat's) and
# standing orders (set at any time). Passed over, never taken back alone.
DECISIONS = frozenset({FireAt.type, StandingOrders.type})
NOTHING_YET = "Nothing to take back yet in this turn."


def undo_point(state: State, recorded: list[dict[str, Any]], seat: int) -> int:
    """How many recorded commands to keep to take back `seat`'s last action of its turn."""
    if state.over:
        raise RulesError("The match is over: nothing can be taken back.")
    if state.to_act != seat:
        raise RulesError("Only the last action of your side's turn in progress can be taken back.")
    if state.moving is not None and state.moving.chances:
        raise RulesError(
            "A move waits for an arc's owner to fire or hold: it cannot be taken back now."
        )
    for index in range(len(recorded) - 1, -1, -1):
        kind = recorded[index].get("type")
        if kind in DECISIONS:
            continue
        if recorded[index].get("side") == seat and kind in ACTIONS:
            return index
        break
    raise RulesError(NOTHING_YET)
