"""The Lite turn (Lite rulebook Turns, Alternate Activations, Sentry Actions, Tactical Orders).

Start of Turn: Agents Ready, initiative roll-off (highest wins, ties re-rolled), Tactical
Orders (3D6 + 1 die per LDx of Standing Agents), the mission's events. Activations alternate;
a squad with fewer Agents in play and none left to activate gets, at each of its turns, the
chance of one Sentry Action. End of Turn: HLx, Mission Points, Downed Agents removed.
"""

from __future__ import annotations

from skirmbot.rules.dice import Dice
from skirmbot.rules.events import Event
from skirmbot.rules.lite.agents import downed, sentry_used, standing
from skirmbot.rules.skirm import turns
from skirmbot.rules.skirm.scoring import score_mission
from skirmbot.rules.skirm.state import TAKEN_OUT, MatchState
from skirmbot.rules.skirm.turns import (
    begin_turn,
    finish_by_points,
    roll_for_the_turn,
)


def start_turn(state: MatchState, dice: Dice) -> list[Event]:
    """Lite rulebook Start of Turn: Standing Agents are marked Ready, the initiative (highest
    wins) and the Tactical Orders are rolled, then the mission's events."""
    events = [begin_turn(state)]
    return events + roll_for_the_turn(state, dice, standing(state), roll_initiative, roll_orders)


def roll_initiative(state: MatchState, dice: Dice) -> Event:
    """Roll-off: highest wins, both re-roll ties (Lite rulebook Start of Turn)."""
    return turns.roll_initiative(state, dice, highest_wins=True)


def roll_orders(state: MatchState, side: int, dice: Dice) -> Event:
    """3D6 plus one die per LDx of each Standing Agent (Lite rulebook LDx: "While this Agent
    is Standing"); each 1-3 is one Tactical Order."""
    return turns.roll_orders(state, side, dice, standing(state, side))


def sentry_open(state: MatchState, side: int) -> bool:
    """Whether `side` may make a Sentry Action when its turn comes: it has fewer Agents in play
    (Standing, our ruling) than the opponent, none left to activate while the opponent has
    some, and a Standing Agent that has not made its Sentry Action this turn."""
    mine, theirs = standing(state, side), standing(state, 1 - side)
    return (
        len(mine) < len(theirs)
        and not state.ready_units(side)
        and bool(state.ready_units(1 - side))
        and any(not sentry_used(state, agent) for agent in mine)
    )


def next_activation(state: MatchState, dice: Dice) -> list[Event]:
    """After an activation (or a Sentry Action, or passing one): the other squad's turn if it
    has an Agent to activate or a Sentry Action open; otherwise this squad goes on; when nobody
    has an Agent left to activate, the turn ends."""
    assert state.to_act is not None
    other = 1 - state.to_act
    if not state.ready_units(0) and not state.ready_units(1):
        return end_turn(state, dice)
    if state.ready_units(other) or sentry_open(state, other):
        state.to_act = other
    state.in_a_row = 0
    return []


def end_turn(state: MatchState, dice: Dice) -> list[Event]:
    """End of Turn: HLx heals, the mission scores, Downed Agents are removed; then the next
    turn, or the end of the match after turn 4 or when a squad has no Agent left."""
    state.activation = None
    events = heal(state)
    lying = downed(state)
    squares = {agent.id: agent.square for agent in lying}
    for agent in lying:  # Downed Agents score nothing (our ruling): off the map before scoring
        agent.status, agent.square = TAKEN_OUT, None
    events += score_mission(state)
    events += [_removed(state, agent.id, str(squares[agent.id])) for agent in lying]
    events.append(Event("turn_ended", f"Turn {state.turn} ends.", {"turn": state.turn}))
    wiped_out = [side for side in (0, 1) if not state.on_map(side)]
    if state.turn >= state.mission.turns or wiped_out:
        reason = (
            "after the last turn"
            if not wiped_out
            else f"{state.squads[wiped_out[0]].name} has no agent left on the map"
        )
        return events + finish_by_points(state, reason)
    return events + start_turn(state, dice)


def heal(state: MatchState) -> list[Event]:
    """HLx: each Standing Agent regains x lost HIT (never above its card's HIT)."""
    events = []
    for agent in standing(state):
        amount = agent.card.value("HL")
        regained = min(amount, agent.card.hit - agent.hit)
        if regained > 0:
            agent.hit += regained
            events.append(
                Event(
                    "healed",
                    f"{agent.name} regains {regained} HIT (HL{amount}) ({agent.hit} now).",
                    {"unit": agent.id, "by": agent.id, "hit": regained, "regained": regained, "rule": "HL"},
                )
            )
    return events


def _removed(state: MatchState, agent_id: str, square: str) -> Event:
    agent = state.units[agent_id]
    by_side = next((by for victim, by in state.taken_out_this_turn if victim == agent_id), None)
    return Event(
        "taken_out",
        f"{agent.name}, Downed, is removed from the battle map (Taken Out).",
        {
            "unit": agent.id,
            "side": agent.side,
            "square": square,
            "by": None,
            "by_side": by_side,
            "weapon": None,
            "kind": "downed",
            "item": None,
            "unsaved": 0,
            "hit_before": 0,
            "overkill": 0,
            "turn": state.turn,
        },
    )
