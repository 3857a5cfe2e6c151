"""Taking back the last action of the turn in progress (a d20 turn is one seat's: its
purchases and its models' activations), with the defender's decision about it, and never
past the turn's start."""

from __future__ import annotations

from typing import Any

from skirmbot.rules.d20.engine import TURN_ACTIONS
from skirmbot.rules.d20.state import State
from skirmbot.rules.errors import RulesError

# Recorded commands that are decisions about an action (or set at any time), not actions.
DECISIONS = ("defend", "standing_orders")
# The kernel's verbs, as a record keeps them when a slash command sent them.
KERNEL_ACTIONS = ("shoot", "melee")
NOTHING_YET = "Nothing to take back yet in this turn."


def undo_point(state: State, recorded: list[dict[str, Any]], side: int) -> int:
    """How many recorded commands to keep to take back `side`'s last action."""
    if state.over or state.to_act != side:
        raise RulesError("Only the last action of your turn in progress can be taken back.")
    if state.acted == 0:
        raise RulesError(NOTHING_YET)
    for index in range(len(recorded) - 1, -1, -1):
        kind = recorded[index].get("type")
        if kind in DECISIONS:
            continue
        if recorded[index].get("side") == side and (kind in TURN_ACTIONS or kind in KERNEL_ACTIONS):
            return index
        break
    raise RulesError(NOTHING_YET)
