"""What a player may do now: reachable squares, legal targets, and every legal command.

Like python-chess's `legal_moves`: everything listed here applies without an error, and nothing
here changes the match. Autocomplete, the automatic player and the property tests use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from skirmbot.rules.adjacency import adjacent_squares
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.maps import BARREL, MARKER
from skirmbot.rules.maps import TURRET as TURRET_ITEM
from skirmbot.rules.movement import Route, reachable, step_cost
from skirmbot.rules.skirm import actions, combat, commands, environment, mission_actions
from skirmbot.rules.skirm.cards import MELEE, RANGED, Weapon
from skirmbot.rules.skirm.costs import (
    CRATE,
    DASH,
    DOOR,
    LEAP,
    MOVE,
    PICK_UP_DROP,
    TURRET,
    action_cost,
    attack_action,
    minimum_orders,
)
from skirmbot.rules.skirm.rolls import succeeds
from skirmbot.rules.skirm.skills import Skill
from skirmbot.rules.skirm.state import DEPLOYMENT, ENDED, READY, Activation, MatchState, UnitState
from skirmbot.rules.skirm.turns import can_delay
from skirmbot.rules.squares import Square


@dataclass(frozen=True, slots=True)
class TargetOption:
    target: str  # what to put in the command: a unit id or `barrel@E5`
    label: str
    square: Square
    distance: int
    cover: bool


def reachable_squares(
    state: MatchState, unit: UnitState, action: str = MOVE
) -> dict[Square, Route]:
    """End squares of a Move or Dash (the start square excluded), with their cheapest paths."""
    if not unit.on_map:
        return {}
    return {
        square: route
        for square, route in actions.routes(state, unit, action).items()
        if square != unit.square
    }


def attack_targets(
    state: MatchState, unit: UnitState, kind: str, weapon: Weapon
) -> list[TargetOption]:
    """Every target the weapon may attack now, with distance and cover."""
    return list(_attack_options(state, unit, kind, weapon))


def _attack_options(
    state: MatchState, unit: UnitState, kind: str, weapon: Weapon
) -> Iterator[TargetOption]:
    if not unit.on_map:
        return
    assert unit.square is not None
    candidates: list[combat.Target] = [
        combat.Target(enemy.square, unit=enemy)
        for enemy in state.on_map(1 - unit.side)
        if enemy.square is not None
    ]
    candidates += [
        combat.Target(item.square, item=item)
        for item in state.items.values()
        if item.square is not None and item.kind in (BARREL, TURRET_ITEM)
    ]
    if kind == MELEE:
        near = set(adjacent_squares(state.board, unit.square))
        candidates = [c for c in candidates if c.square in near]
    for candidate in candidates:
        distance = unit.square.distance(candidate.square)
        if kind != MELEE and environment.range_problem(state, distance):
            continue  # plan_attack refuses it too; this spares the sight check
        try:
            plan = combat.plan_attack(state, unit, kind, weapon, candidate)
        except IllegalCommand:
            continue
        yield TargetOption(
            candidate.reference, candidate.label, candidate.square, distance, plan.cover
        )


def usable_weapons(unit: UnitState, kind: str) -> list[Weapon]:
    return [
        w
        for w in unit.card.weapons_of(kind)
        if not w.has("LIM") or unit.lim_uses_left.get(w.name, 0) > 0
    ]


def legal_commands(state: MatchState, side: int) -> list[commands.Command]:
    """Every command `side` may send now that plays the game (concede and draw left out)."""
    if state.phase in (DEPLOYMENT, ENDED) or state.to_act != side:
        return []
    activation = state.activation
    if activation is not None and activation.pending is not None:
        return roll_decisions(state, side, activation)
    if activation is not None:
        unit = state.units[activation.unit]
        return [*_unit_actions(state, unit, activation), commands.EndActivation(side, unit.id)]
    listed: list[commands.Command] = []
    for unit in state.ready_units(side):
        fresh = Activation(unit.id, unit.card.act)
        listed += _unit_actions(state, unit, fresh)
        listed.append(commands.EndActivation(side, unit.id))
    if can_delay(state, side) is None:
        listed.append(commands.Delay(side))
    return listed


def roll_decisions(state: MatchState, side: int, activation: Activation) -> list[commands.Command]:
    """What the side may decide on the roll waiting for a decision: accept it, re-roll or
    change a die with TO (or a free re-roll). Skirm Lite's rolls wait for the same decisions."""
    pending = activation.pending
    assert pending is not None
    listed: list[commands.Command] = [commands.Accept(side)]
    orders = state.squads[side].orders
    free = int(pending.attack.get("free_rerolls", 0))  # PRx/BRx: re-rolls without TO
    for index, die in enumerate(pending.dice, start=1):
        if (orders > 0 or free > 0) and not die.rerolled and not die.modifier:
            listed.append(commands.Reroll(side, index))
        for delta in (-1, 1):
            if orders > 0 and 1 <= die.value + delta <= 6:
                listed.append(commands.Modify(side, index, delta))
    return listed


def _payable(state: MatchState, unit: UnitState, activation: Activation, cost: int) -> int | None:
    """The Tactical Orders needed to pay `cost` (ACT first), or None if it cannot be paid."""
    orders = minimum_orders(activation, cost)
    return orders if orders <= state.squads[unit.side].orders else None


def can_still_act(state: MatchState, unit: UnitState, activation: Activation) -> bool:
    """Whether the activating unit has any legal action left (ending its activation aside).
    The engine asks after every action, so this stops at the first action found and looks at
    the cheap kinds first (a Dash looks one square around, a Move three)."""
    return any(next(kind(state, unit, activation), None) is not None for kind in _CHEAPEST_FIRST)


def _unit_actions(
    state: MatchState, unit: UnitState, activation: Activation
) -> list[commands.Command]:
    if unit.status != READY and state.activation is None:
        return []
    return [command for kind in _LISTED for command in kind(state, unit, activation)]


def _moves(
    state: MatchState, unit: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    yield from _steps(state, unit, activation, MOVE)


def _dashes(
    state: MatchState, unit: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    yield from _steps(state, unit, activation, DASH)


def _steps(
    state: MatchState, unit: UnitState, activation: Activation, action: str
) -> Iterator[commands.Command]:
    orders = _payable(state, unit, activation, action_cost(unit, activation, action))
    if orders is None or environment.forbidden(state, action):
        return
    cls = commands.Move if action == MOVE else commands.Dash
    for square in reachable_squares(state, unit, action):
        yield cls(unit.side, unit.id, str(square), orders)


def _single_steps(
    state: MatchState, unit: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    """Dashes and Moves of one step onto an empty neighbouring square: a few of the legal
    moves, found without a path search, for can_still_act to look at first."""
    assert unit.square is not None
    occupied = state.occupancy()
    mover = actions.mover_of(unit)
    for action, cls in ((DASH, commands.Dash), (MOVE, commands.Move)):
        orders = _payable(state, unit, activation, action_cost(unit, activation, action))
        if orders is None or environment.forbidden(state, action):
            continue
        budget = actions.movement_budget(unit, action)
        for square in unit.square.around():
            if square in occupied:
                continue  # a move never ends on a unit
            cost = step_cost(state.board, unit.square, square, mover, occupied)
            if cost is not None and cost <= budget:
                yield cls(unit.side, unit.id, str(square), orders)


def _leaps(
    state: MatchState, unit: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    if not unit.card.has("LP"):
        return
    orders = _payable(state, unit, activation, action_cost(unit, activation, LEAP))
    if orders is not None:
        for square in actions.leaps(state, unit):
            yield commands.Leap(unit.side, unit.id, str(square), orders)


def _attacks(
    state: MatchState, unit: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    for kind, attack_cls in ((RANGED, commands.Shoot), (MELEE, commands.Melee)):
        for weapon in usable_weapons(unit, kind):
            orders = _payable(
                state, unit, activation, action_cost(unit, activation, attack_action(kind), weapon)
            )
            if orders is None:
                continue
            for option in _attack_options(state, unit, kind, weapon):
                yield attack_cls(unit.side, unit.id, option.target, weapon.name, orders)


def _skill_uses(
    state: MatchState, unit: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    """Every way to use each of the unit's skills now (rules/skills.py)."""
    for skill in unit.card.skills:
        if skill.once_per_turn and [state.turn, unit.id, skill.name] in state.skills_used:
            continue
        if skill.to:
            if state.squads[unit.side].orders < skill.to:
                continue
            orders = skill.to
        else:
            paid = _payable(
                state, unit, activation, skill.act + activation.uses.get(skill.action, 0)
            )
            if paid is None:
                continue
            orders = paid
        for target in skill_targets(state, unit, skill):
            yield commands.UseSkill(unit.side, unit.id, skill.name, target, orders)


def skill_targets(state: MatchState, unit: UnitState, skill: Skill) -> list[str | None]:
    """What a skill can be aimed at now (None: a skill that needs no target)."""
    assert unit.square is not None
    if skill.effect == "orders":
        return [None]
    if skill.effect == "heal":
        near = set(adjacent_squares(state.board, unit.square)) if skill.reach else set()
        hurt = [
            u
            for u in state.on_map(unit.side)
            if u.hit < u.card.hit and (u is unit or u.square in near)
        ]
        return [None if u is unit else u.id for u in hurt]
    if skill.effect == "dash":
        ends = reachable(
            state.board, unit.square, skill.amount, actions.mover_of(unit), state.occupancy()
        )
        return [str(s) for s in ends if s != unit.square]
    weapon = unit.card.weapon(skill.weapon or "")
    if weapon is None or (weapon.has("LIM") and unit.lim_uses_left.get(weapon.name, 0) <= 0):
        return []
    return [t.target for t in attack_targets(state, unit, weapon.kind, weapon)]


def _item_actions(
    state: MatchState, unit: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    """Doors, markers, crates and turrets where the unit stands; each priced only if there
    (can_still_act asks after every action, mostly where there is none)."""
    assert unit.square is not None
    side, here = unit.side, unit.square
    doors = [
        n
        for n in (here.offset(0, -1), here.offset(1, 0), here.offset(0, 1), here.offset(-1, 0))
        if state.board.on_board(n) and state.board.has_door(here, n)
    ]
    if doors and (orders := _price(state, unit, activation, DOOR)) is not None:
        for n in doors:
            yield commands.Door(side, unit.id, str(n), orders)
    carry = unit.carrying is not None or state.items_at(here, MARKER)
    if carry and (orders := _price(state, unit, activation, PICK_UP_DROP)) is not None:
        if unit.carrying is not None:
            yield commands.Drop(side, unit.id, orders)
        else:
            yield commands.PickUp(side, unit.id, orders)
    crate = state.items_at(here, "crate")
    if crate and (orders := _price(state, unit, activation, CRATE)) is not None:
        for option in actions.crate_options(state, unit):
            yield commands.OpenCrate(side, unit.id, option, orders)
    turrets = state.items_at(here, TURRET_ITEM)
    kind = turrets[0].turret_type if turrets else None
    if kind and (orders := _price(state, unit, activation, TURRET)) is not None:
        for aim in _attack_options(state, unit, RANGED, combat.TURRET_WEAPONS[kind]):
            yield commands.UseTurret(side, unit.id, aim.target, orders)


def _price(state: MatchState, unit: UnitState, activation: Activation, action: str) -> int | None:
    """The Tactical Orders a basic action needs now, or None if it cannot be paid."""
    return _payable(state, unit, activation, action_cost(unit, activation, action))


def _mission_actions(
    state: MatchState, unit: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    """The mission's actions this unit can do here and pay for (rulebook Mission Actions)."""
    for rule in state.mission.actions:
        orders = _payable(
            state, unit, activation, mission_actions.cost(state, unit, activation, rule)
        )
        if orders is None:
            continue  # checked first: it is cheaper than the check below, which raises
        try:
            mission_actions.check(state, unit, rule)
        except IllegalCommand:
            continue
        yield commands.MissionAction(unit.side, unit.id, rule.name, orders)


ActionKind = Callable[[MatchState, UnitState, Activation], Iterator[commands.Command]]
# The order legal_commands lists a unit's actions in (the automatic player reads it in order).
_LISTED: tuple[ActionKind, ...] = (
    _moves, _dashes, _leaps, _attacks, _item_actions, _mission_actions, _skill_uses,
)  # fmt: skip
# The order can_still_act looks in: what needs no path search comes first, sight lines last.
_CHEAPEST_FIRST: tuple[ActionKind, ...] = (
    _item_actions, _single_steps, _mission_actions, _dashes, _moves, _leaps, _skill_uses, _attacks,
)  # fmt: skip


def failed_dice(state: MatchState) -> list[int]:
    """1-based numbers of the failed dice of the roll waiting for a decision."""
    activation = state.activation
    if activation is None or activation.pending is None:
        return []
    pending = activation.pending
    return [
        i for i, die in enumerate(pending.dice, start=1) if not succeeds(die.value, pending.skill)
    ]
