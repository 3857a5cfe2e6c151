"""Mission actions (rulebook Mission Actions: "Certain Missions will define special Actions that
can be performed by Units") and TCH ("During each of its Activations, this Unit may perform one
Mission action for 1 less ACT"). docs/rulings.md, Missions.

A mission lists its actions with a name, a cost in ACT and one of these effects:

    arm      on an objective the unit controls: its beacon is armed for the unit's squad
             (an enemy's beacon there is re-armed); `beacons` scoring counts them
    salvage  on a crate the unit stands on: the crate is stripped and removed without choosing
             a content, and counts as a crate the squad opened this turn

Like the basic actions, a repeat in the same activation costs 1 more (rulings: An activation).
TCH takes 1 off the first mission action of each activation (never below 0).
"""

from __future__ import annotations

from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.maps import CRATE
from skirmbot.rules.skirm.missions import ActionRule
from skirmbot.rules.skirm.scoring import objective_controller
from skirmbot.rules.skirm.state import Activation, ItemState, MatchState, UnitState

TECHNICIAN = "TCH"


def find(state: MatchState, name: str) -> ActionRule:
    """The mission action called `name` (case does not matter); the error lists them."""
    rules = state.mission.actions
    if not rules:
        raise IllegalCommand(f"Mission {state.mission.name} has no mission actions.")
    wanted = name.strip().casefold()
    for rule in rules:
        if rule.name.casefold() == wanted:
            return rule
    listed = ", ".join(f"{rule.name} ({rule.cost} ACT)" for rule in rules)
    raise IllegalCommand(f"'{name}' is not a mission action here. Mission actions: {listed}.")


def mission_actions_done(state: MatchState, activation: Activation) -> int:
    names = {rule.name for rule in state.mission.actions}
    return sum(times for action, times in activation.uses.items() if action in names)


def cost(state: MatchState, unit: UnitState, activation: Activation, rule: ActionRule) -> int:
    """The ACT the action costs now: listed, +1 per repeat, -1 for TCH's first one."""
    listed = rule.cost + activation.uses.get(rule.name, 0)
    if unit.card.has(TECHNICIAN) and mission_actions_done(state, activation) == 0:
        listed -= 1
    return max(0, listed)


def check(state: MatchState, unit: UnitState, rule: ActionRule) -> int | ItemState:
    """What the action works on (an objective's index, or a crate); IllegalCommand if it
    cannot be done here."""
    assert unit.square is not None
    here = unit.square
    if rule.effect == "salvage":
        crates = state.items_at(here, CRATE)
        if not crates:
            raise IllegalCommand(
                f"{rule.name} needs a crate: {unit.name} must stand on one ({here} has none)."
            )
        return crates[0]
    if here not in state.objectives:
        raise IllegalCommand(
            f"{rule.name} needs an objective: {unit.name} stands on {here}, objectives are on "
            f"{', '.join(map(str, state.objectives))}."
        )
    index = state.objectives.index(here)
    if objective_controller(state, index) != unit.side:
        raise IllegalCommand(
            f"{rule.name} needs {unit.name} to control objective {index + 1}: an enemy is adjacent."
        )
    if state.beacons.get(index) == unit.side:
        raise IllegalCommand(f"Your squad has already armed the beacon on objective {index + 1}.")
    return index


def do(state: MatchState, unit: UnitState, rule: ActionRule, target: int | ItemState) -> Event:
    squad = state.squads[unit.side]
    data = {"unit": unit.id, "side": unit.side, "action": rule.name, "effect": rule.effect}
    if isinstance(target, ItemState):
        square = target.square
        target.square = None
        state.crates_opened_this_turn.append(unit.side)
        return Event(
            "mission_action",
            f"{unit.name} performs {rule.name}: the crate on {square} is stripped and removed "
            f"(a crate opened by {squad.name}).",
            {**data, "square": str(square), "item": target.id},
        )
    before = state.beacons.get(target)
    state.beacons[target] = unit.side
    taken = f", taking it from {state.squads[before].name}" if before is not None else ""
    return Event(
        "mission_action",
        f"{unit.name} performs {rule.name}: the beacon on objective {target + 1} is armed for "
        f"{squad.name}{taken}.",
        {**data, "square": str(unit.square), "objective": target + 1},
    )
