"""The turn sequence (plan section 2, "The turn sequence", our ruling).

When both squads are deployed, each side rolls 1D6 (ties re-rolled); the higher takes the first
turn of every round. A side's turn: each of its able troopers activates once, in any order its
player picks. When every one has activated, or its player ends the turn, its explosive tokens
resolve in throw order (Explosives ¶3), then the other side's turn begins; a round is one turn
of each side. After the scenario's rounds, or as soon as a side has no able trooper, the match
is over (`scoring.outcome`).
"""

from __future__ import annotations

from skirmbot.rules.dice import Dice
from skirmbot.rules.events import Event
from skirmbot.rules.infantry import explosives, scoring
from skirmbot.rules.infantry.state import SIDES, State

ROLL_OFF_DIE = 6


def roll_off(state: State, dice: Dice) -> list[Event]:
    """Both squads are down: 1D6 each, re-rolling ties; the higher opens every round."""
    rolls: list[list[int]] = []
    while not rolls or rolls[-1][0] == rolls[-1][1]:
        rolls.append([dice.roll(ROLL_OFF_DIE) for _ in range(SIDES)])
    first = 0 if rolls[-1][0] > rolls[-1][1] else 1
    state.first = first
    told = "; ".join(f"{a} to {b}" for a, b in rolls)
    events = [
        Event(
            "roll_off",
            f"Both squads are deployed. Roll-off: {told}: {state.seats[first].name} goes first.",
            {"rolls": rolls, "first": first},
        )
    ]
    return events + start_round(state)


def start_round(state: State) -> list[Event]:
    state.round += 1
    assert state.first is not None
    event = Event(
        "round_started",
        f"Round {state.round} of {state.scenario.rounds}.",
        {"round": state.round},
    )
    return [event, *start_turn(state, state.first)]


def start_turn(state: State, seat: int) -> list[Event]:
    """`seat`'s turn: its troopers' AP and activations start afresh."""
    state.to_act = seat
    state.turns += 1
    for trooper in state.troopers_of(seat):
        trooper.spent = trooper.moved = 0
        trooper.activated = trooper.combat = trooper.threw = False
    return [
        Event(
            "turn_started",
            f"{state.seats[seat].name}'s turn.",
            {"turn": state.turns, "side": seat, "round": state.round},
        )
    ]


def waiting(state: State, seat: int) -> list[str]:
    """The troopers of `seat` still to activate this turn."""
    return [t.id for t in state.troopers_of(seat) if t.able and t.on_map and not t.activated]


def end_turn(state: State, dice: Dice) -> list[Event]:
    """The side whose turn it is has finished: its tokens explode, then the next turn (or
    round, or the end of the match)."""
    seat = state.to_act
    assert seat is not None
    events = explosives.resolve(state, dice, seat)
    events.append(
        Event(
            "turn_ended",
            f"{state.seats[seat].name}'s turn ends.",
            {"turn": state.turns, "side": seat},
        )
    )
    if finish(state, events):
        return events
    other = 1 - seat
    if other != state.first:
        return events + start_turn(state, other)
    events += start_round_or_finish(state)
    return events


def start_round_or_finish(state: State) -> list[Event]:
    if state.round >= state.scenario.rounds:
        state.round += 1  # past the last round: scoring.outcome decides on points
        events: list[Event] = []
        finish(state, events)
        return events
    return start_round(state)


def finish(state: State, events: list[Event]) -> bool:
    """End the match if it is decided (adding the event); whether it is over."""
    if state.over:
        return True
    decided = scoring.outcome(state)
    if decided is None:
        return False
    state.over = True
    state.winner, state.result = decided
    state.activating, state.moving, state.to_act = None, None, None
    events.append(
        Event(
            "match_over",
            state.result,
            {"winner": state.winner, "reason": state.result, "scores": list(scoring.scores(state))},
        )
    )
    return True
