"""Taking back a seat's last order of its side's turn in progress (or its ambition before the
first round), never past the turn's start nor past a teammate's later order. The service
refuses it when a die was rolled since (rulings: Rolled dice stand), so in practice only an
order that rolled nothing comes back: ending one's part of the turn, choosing an ambition."""

from __future__ import annotations

from typing import Any

from skirmbot.rules.companies.commands import ChooseAmbition, Interrupt, StandingOrders
from skirmbot.rules.companies.engine import TURN_ACTIONS
from skirmbot.rules.companies.state import State, side_of_seat
from skirmbot.rules.errors import RulesError

SET_UP_ACTIONS = frozenset({ChooseAmbition.type})
# Decisions about another's order, or set at any time: passed over, never taken back alone.
DECISIONS = frozenset({Interrupt.type, StandingOrders.type})
NOTHING_YET = "Nothing to take back yet in this turn."


def undo_point(state: State, recorded: list[dict[str, Any]], seat: int) -> int:
    """How many recorded commands to keep to take back `seat`'s last order."""
    if state.over:
        raise RulesError("The match is over: nothing can be taken back.")
    if state.round == 0:
        if state.seats[seat].ambition is None:
            raise RulesError("Nothing to take back yet.")
        return _last(recorded, seat, SET_UP_ACTIONS)
    if state.active != side_of_seat(seat):
        raise RulesError("Only the last order of your side's turn in progress can be taken back.")
    if state.acted == 0:
        raise RulesError(NOTHING_YET)
    return _last(recorded, seat, TURN_ACTIONS)


def _last(recorded: list[dict[str, Any]], seat: int, kinds: frozenset[str]) -> int:
    """The index of the seat's last command of `kinds`, if nobody's command but a decision
    came after it."""
    for index in range(len(recorded) - 1, -1, -1):
        kind = recorded[index].get("type")
        if kind in DECISIONS:
            continue
        if recorded[index].get("side") == seat and kind in kinds:
            return index
        break
    raise RulesError(NOTHING_YET)
