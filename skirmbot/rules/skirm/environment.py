"""Environment events: the mission's 1D6 table, rolled by the initiative squad at the start of
each turn after Tactical Orders (rulebook Game Cycle; rulings: Turns and activations), and the
few effects an event can have (docs/rulings.md, Missions):

    none       nothing happens
    no_dash    no unit may Dash this turn
    orders     every squad gains `value` TO (a negative value loses them, never below 0)
    underdog   the squad with fewer units on the map gains `value` TO (none when equal)
    hazard     every unit on difficult ground takes `value` damage, saved as usual
    max_range  ranged attacks (turrets too) reach at most `value` squares this turn

What an event forbids or limits is skirmbot.rules.skirm.event_limits (re-exported here), so that
combat asks it without importing this module, which deals a hazard's damage through combat.
"""

from __future__ import annotations

from skirmbot.rules.dice import Dice
from skirmbot.rules.events import Event
from skirmbot.rules.skirm.combat import Cause, damage_unit
from skirmbot.rules.skirm.event_limits import forbidden, range_cap, range_problem
from skirmbot.rules.skirm.missions import EventEntry
from skirmbot.rules.skirm.state import MatchState

EVENT_CAUSE = Cause(None, None, None, "event")


def roll_event(state: MatchState, dice: Dice) -> list[Event]:
    """The initiative squad rolls 1D6 on the mission's event table and the event applies."""
    state.event = None
    if not state.mission.events:
        return []
    assert state.initiative is not None
    face = dice.roll()
    entry = next(entry for entry in state.mission.events if face in entry.faces)
    state.event = entry
    squad = state.squads[state.initiative]
    where = f" ({state.mission.environment})" if state.mission.environment else ""
    events = [
        Event(
            "mission_event",
            f"{squad.name} rolls {face} for the mission's events{where}: {entry.name}. {entry.text}",
            {"side": state.initiative, "roll": face, **entry.to_json()},
        )
    ]
    return events + _apply(state, entry, dice)


def _apply(state: MatchState, entry: EventEntry, dice: Dice) -> list[Event]:
    if entry.effect == "orders":
        changes = []
        for squad in state.squads:
            before = squad.orders
            squad.orders = max(0, squad.orders + entry.value)
            changes.append(f"{squad.name} {before} → {squad.orders}")
        verb = "gains" if entry.value > 0 else "loses"
        return [
            Event(
                "event_effect",
                f"{entry.name}: each squad {verb} {abs(entry.value)} TO ({', '.join(changes)}).",
                {"effect": entry.effect, "orders": [squad.orders for squad in state.squads]},
            )
        ]
    if entry.effect == "underdog":
        sizes = [len(state.on_map(side)) for side in (0, 1)]
        if sizes[0] == sizes[1]:
            return [
                Event(
                    "event_effect",
                    f"{entry.name}: both squads have {sizes[0]} units on the map; nobody gains TO.",
                    {"effect": entry.effect, "side": None},
                )
            ]
        side = 0 if sizes[0] < sizes[1] else 1
        squad = state.squads[side]
        squad.orders += entry.value
        return [
            Event(
                "event_effect",
                f"{entry.name}: {squad.name} has fewer units on the map and gains {entry.value} TO "
                f"({squad.orders} now).",
                {"effect": entry.effect, "side": side, "orders": squad.orders},
            )
        ]
    if entry.effect == "hazard":
        return _hazard(state, entry, dice)
    return []


def _hazard(state: MatchState, entry: EventEntry, dice: Dice) -> list[Event]:
    """Units on difficult ground, in reading order, each save the damage as usual."""
    caught = sorted(
        (
            unit
            for unit in state.on_map()
            if unit.square is not None and unit.square in state.board.difficult
        ),
        key=lambda unit: (unit.square.y, unit.square.x) if unit.square else (0, 0),
    )
    names = ", ".join(f"{unit.name} on {unit.square}" for unit in caught) or "nobody"
    events = [
        Event(
            "event_effect",
            f"{entry.name}: {entry.value} damage to every unit on difficult ground: {names}.",
            {"effect": entry.effect, "units": [unit.id for unit in caught], "damage": entry.value},
        )
    ]
    for unit in caught:
        events += damage_unit(state, unit, entry.value, 0, dice, EVENT_CAUSE)
    return events


__all__ = ["EVENT_CAUSE", "forbidden", "range_cap", "range_problem", "roll_event"]
