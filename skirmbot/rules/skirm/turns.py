"""The turn cycle (rulebook Game Cycle, Alternate Activations; rulings: Turns and activations)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from skirmbot.rules.dice import Dice
from skirmbot.rules.events import Event
from skirmbot.rules.skirm import environment, secondaries
from skirmbot.rules.skirm.scoring import objective_controller as objective_controller
from skirmbot.rules.skirm.scoring import score_mission
from skirmbot.rules.skirm.state import ENDED, PLAYING, READY, MatchState, Result, UnitState

BASE_ORDER_DICE = 3  # rulebook Tactical Orders: 3D6 plus the LDx dice
ORDER_FACE = 3  # rulebook Tactical Orders: "For each die result of 1-3, you will have one"


def start_turn(state: MatchState, dice: Dice) -> list[Event]:
    """Reset orders, draw secondary objectives, ready the units, roll initiative and Tactical
    Orders, then the mission's events (rulebook Game Cycle, in that order)."""
    events = [begin_turn(state), *secondaries.draw(state, dice)]
    ready = [unit for unit in state.units.values() if unit.on_map]
    events += roll_for_the_turn(state, dice, ready, roll_initiative, roll_orders)
    assert state.initiative is not None
    if not state.ready_units(state.initiative):  # an event took out the whole squad
        if not state.ready_units(1 - state.initiative):
            return events + end_turn(state, dice)
        state.to_act = 1 - state.initiative
    return events


def begin_turn(state: MatchState) -> Event:
    """The next turn begins: Tactical Orders are reset to zero (they do not carry over)."""
    state.turn += 1
    state.phase = PLAYING
    for squad in state.squads:
        squad.orders = 0
        squad.delayed_this_turn = False
    return Event(
        "turn_started", f"Turn {state.turn} of {state.mission.turns} begins.", {"turn": state.turn}
    )


def roll_for_the_turn(
    state: MatchState,
    dice: Dice,
    ready: Iterable[UnitState],
    initiative: Callable[[MatchState, Dice], Event],
    orders: Callable[[MatchState, int, Dice], Event],
) -> list[Event]:
    """Mark the `ready` units Ready, roll the initiative, then each squad's Tactical Orders
    (the initiative's first), then the mission's event; the squad with the initiative acts
    first. A ruleset brings its own roll-off and orders roll (Skirm Lite: highest wins)."""
    for unit in ready:
        unit.status = READY
    state.taken_out_this_turn = []
    state.crates_opened_this_turn = []
    events = [initiative(state, dice)]
    assert state.initiative is not None
    for side in (state.initiative, 1 - state.initiative):
        events.append(orders(state, side, dice))
    state.to_act = state.initiative
    state.in_a_row = 0
    return events + environment.roll_event(state, dice)


def roll_initiative(state: MatchState, dice: Dice, highest_wins: bool = False) -> Event:
    """Roll-off: lowest wins (rulebook Roll-Off; Skirm Lite: highest wins), both re-roll ties."""
    rolls: list[list[int]] = []
    while True:
        pair = [dice.roll(), dice.roll()]
        rolls.append(pair)
        if pair[0] != pair[1]:
            break
    first_wins = rolls[-1][0] > rolls[-1][1] if highest_wins else rolls[-1][0] < rolls[-1][1]
    winner = 0 if first_wins else 1
    state.initiative = winner
    shown = "; then ".join(
        f"{state.squads[0].name} {a}, {state.squads[1].name} {b}" for a, b in rolls
    )
    rule = "highest wins" if highest_wins else "lowest wins"
    return Event(
        "initiative",
        f"Initiative roll-off ({rule}): {shown}. {state.squads[winner].name} has the initiative.",
        {"rolls": rolls, "side": winner},
    )


def roll_orders(
    state: MatchState, side: int, dice: Dice, leaders: Iterable[UnitState] | None = None
) -> Event:
    """3D6 plus one die per LDx of the squad's `leaders` (every unit on the map; Skirm Lite:
    every Standing Agent); each 1-3 is one Tactical Order (rulebook Tactical Orders)."""
    leaders = state.on_map(side) if leaders is None else leaders
    extra = sum(unit.card.value("LD") for unit in leaders)
    faces = [dice.roll() for _ in range(BASE_ORDER_DICE + extra)]
    orders = sum(1 for face in faces if face <= ORDER_FACE)
    squad = state.squads[side]
    squad.orders = orders
    # each die marked like /roll marks a pool: ✓ one Tactical Order, ✗ none
    shown = " ".join(f"{face}{'✓' if face <= ORDER_FACE else '✗'}" for face in faces)
    return Event(
        "orders_rolled",
        f"{squad.name} rolls {len(faces)} dice for Tactical Orders (each 1-3 is one): "
        f"{shown} = {orders} TO.",
        {"side": side, "faces": faces, "orders": orders},
    )


def next_activation(state: MatchState, dice: Dice) -> list[Event]:
    """After an activation: who activates next, or the end of the turn (and maybe the match)."""
    assert state.to_act is not None
    current = state.to_act
    other = 1 - current
    if not state.ready_units(0) and not state.ready_units(1):
        return end_turn(state, dice)
    if state.in_a_row > 0 and state.ready_units(current):
        state.in_a_row -= 1
    elif state.ready_units(other):
        state.to_act = other
        state.in_a_row = 0
    else:
        state.in_a_row = 0  # the other squad has no Ready unit: this one activates the rest
    return []


def can_delay(state: MatchState, side: int) -> str | None:
    """None if `side` may delay now, otherwise why not (rulebook Alternate Activations)."""
    squad = state.squads[side]
    mine, theirs = len(state.on_map(side)), len(state.on_map(1 - side))
    if squad.delayed_this_turn:
        return "Your squad has already delayed once this turn."
    if mine > theirs - 2:
        return f"Only a squad with at least 2 fewer units on the map may delay; you have {mine}, they have {theirs}."
    if not state.ready_units(1 - side):
        return "The other squad has no Ready unit left to activate."
    return None


def delay(state: MatchState, side: int) -> list[Event]:
    """The opponent then activates two units in a row (rulings: Alternate activations)."""
    state.squads[side].delayed_this_turn = True
    other = 1 - side
    state.to_act = other
    state.in_a_row = 1 if len(state.ready_units(other)) >= 2 else 0
    name, other_name = state.squads[side].name, state.squads[other].name
    return [
        Event(
            "delayed", f"{name} delays: {other_name} activates two units in a row.", {"side": side}
        ),
    ]


def end_turn(state: MatchState, dice: Dice) -> list[Event]:
    """End of Turn: secondary objectives are revealed and scored, then the mission scores."""
    events = secondaries.score(state)
    events += score_turn(state)
    events.append(Event("turn_ended", f"Turn {state.turn} ends.", {"turn": state.turn}))
    wiped_out = [side for side in (0, 1) if not state.on_map(side)]
    if state.turn >= state.mission.turns or wiped_out:
        reason = (
            "after the last turn"
            if not wiped_out
            else f"{state.squads[wiped_out[0]].name} has no unit left on the map"
        )
        events.extend(finish_by_points(state, reason))
        return events
    events.extend(start_turn(state, dice))
    return events


def score_turn(state: MatchState) -> list[Event]:
    """End-of-turn Mission Points as the mission's scoring says (skirmbot.rules.skirm.scoring)."""
    return score_mission(state)


def finish_by_points(state: MatchState, reason: str) -> list[Event]:
    """Highest MP wins; equal MP is a draw (rulings: The match ends)."""
    mp = [squad.mp for squad in state.squads]
    winner = None if mp[0] == mp[1] else (0 if mp[0] > mp[1] else 1)
    outcome = "a draw" if winner is None else f"{state.squads[winner].name} wins"
    return finish(state, winner, f"The match ends {reason}: {mp[0]} MP to {mp[1]} MP, {outcome}.")


def finish(state: MatchState, winner: int | None, text: str) -> list[Event]:
    state.phase = ENDED
    state.activation = None
    state.result = Result(winner, text)
    mp = [squad.mp for squad in state.squads]
    return [Event("match_ended", text, {"winner": winner, "reason": text, "mp": mp})]
