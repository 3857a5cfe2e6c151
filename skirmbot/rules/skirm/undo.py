"""Taking back the last action of an activation in progress (Skirm's family): the action goes
with the decisions taken about its roll, and never past the activation's start."""

from __future__ import annotations

from typing import Any

from skirmbot.rules.errors import RulesError
from skirmbot.rules.skirm.state import MatchState

# Recorded commands that are decisions about an action (or set at any time), not actions.
DECISIONS = ("reroll", "modify", "accept", "standing_orders")
NOTHING_YET = "Nothing to take back yet in this activation."


def undo_point(state: MatchState, recorded: list[dict[str, Any]], side: int) -> int:
    """How many recorded commands to keep to take back `side`'s last action."""
    if state.activation is None or state.to_act != side:
        raise RulesError("Only the last action of your activation in progress can be taken back.")
    for index in range(len(recorded) - 1, -1, -1):
        kind = recorded[index]["type"]
        if kind in DECISIONS:
            continue
        if kind == "activate":
            raise RulesError(NOTHING_YET)
        return index
    raise RulesError(NOTHING_YET)
