"""What a Lite player may do now: every legal command (as Skirm's `legal_commands`).

Everything listed applies without an error and nothing here changes the match; the automatic
player, autocomplete and the property tests use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from skirmbot.rules.adjacency import adjacent_squares
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.lite import actions as lite_actions
from skirmbot.rules.lite import combat as lite_combat
from skirmbot.rules.lite import commands
from skirmbot.rules.lite.agents import (
    downed,
    is_standing,
    sentry_used,
    standing,
    standing_at,
    standing_enemy_next_to,
)
from skirmbot.rules.lite.costs import (
    DASH,
    DOOR,
    DROP,
    MELEE_ATTACK,
    MOVE,
    PICK_UP,
    RANGED_ATTACK,
    REVIVE,
    REVIVE_ORDERS,
    action_cost,
    minimum_orders,
    repeat_problem,
)
from skirmbot.rules.lite.turns import sentry_open
from skirmbot.rules.maps import MARKER
from skirmbot.rules.skirm import environment
from skirmbot.rules.skirm.cards import MELEE, RANGED, Weapon
from skirmbot.rules.skirm.legal import roll_decisions
from skirmbot.rules.skirm.state import DEPLOYMENT, ENDED, READY, Activation, MatchState, UnitState


def legal_commands(state: MatchState, side: int, *, blasts: bool = True) -> list[commands.Command]:
    """Every command `side` may send now that plays the game (concede and draw left out).
    Without `blasts`: no XPL weapon aimed at an empty square (the automatic player's menu:
    it never aims at one, and finding those squares is most of the work)."""
    if state.phase in (DEPLOYMENT, ENDED) or state.to_act != side:
        return []
    activation = state.activation
    if activation is not None and activation.pending is not None:
        return roll_decisions(state, side, activation)
    if activation is not None:
        agent = state.units[activation.unit]
        own = unit_actions(state, agent, activation, blasts=blasts)
        return [*own, commands.EndActivation(side, agent.id)]
    listed: list[commands.Command] = []
    if sentry_open(state, side):
        listed += sentry_commands(state, side, blasts=blasts)
        listed.append(commands.EndActivation(side))
    for agent in state.ready_units(side):
        listed += unit_actions(state, agent, Activation(agent.id, agent.card.act), blasts=blasts)
        listed.append(commands.EndActivation(side, agent.id))
    return listed


def can_still_act(state: MatchState, agent: UnitState, activation: Activation) -> bool:
    """Whether the activating Agent has any legal action left (ending aside)."""
    return any(next(kind(state, agent, activation), None) is not None for kind in _CHEAPEST_FIRST)


def unit_actions(
    state: MatchState, agent: UnitState, activation: Activation, *, blasts: bool = True
) -> list[commands.Command]:
    if not is_standing(agent) or (agent.status != READY and state.activation is None):
        return []
    kinds = _LISTED if blasts else _PLAYED
    return [command for kind in kinds for command in kind(state, agent, activation)]


def _price(
    state: MatchState,
    agent: UnitState,
    activation: Activation,
    action: str,
    weapon: Weapon | None = None,
) -> int | None:
    """The TO the action needs now (ACT first), or None if it may not be done or paid."""
    if repeat_problem(agent, activation, action):
        return None
    orders = minimum_orders(activation, action_cost(agent, activation, action, weapon))
    return orders if orders <= state.squads[agent.side].orders else None


def _moves(
    state: MatchState, agent: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    yield from _steps(state, agent, activation, MOVE, commands.Move)


def _dashes(
    state: MatchState, agent: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    yield from _steps(state, agent, activation, DASH, commands.Dash)


def _steps(
    state: MatchState,
    agent: UnitState,
    activation: Activation,
    action: str,
    make: type[commands.Move] | type[commands.Dash],
) -> Iterator[commands.Command]:
    if environment.forbidden(state, action):
        return
    orders = _price(state, agent, activation, action)
    if orders is None:
        return
    for square in sorted(lite_actions.routes(state, agent, action), key=lambda s: (s.y, s.x)):
        if square != agent.square:
            yield make(agent.side, agent.id, str(square), orders)


def _attacks(
    state: MatchState, agent: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    yield from _aimed(state, agent, activation, attack_targets)


def _blasts(
    state: MatchState, agent: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    yield from _aimed(state, agent, activation, blast_squares)


Aims = Callable[[MatchState, UnitState, str, Weapon], list[str]]


def _aimed(
    state: MatchState, agent: UnitState, activation: Activation, aims: Aims
) -> Iterator[commands.Command]:
    """Melee and Ranged Combat with each weapon that may be paid for, at what `aims` lists."""
    for kind, action, make in (
        (MELEE, MELEE_ATTACK, commands.Melee),
        (RANGED, RANGED_ATTACK, commands.Shoot),
    ):
        for weapon in usable_weapons(agent, kind):
            orders = _price(state, agent, activation, action, weapon)
            if orders is None:
                continue
            for target in aims(state, agent, kind, weapon):
                yield make(agent.side, agent.id, target, weapon.name, orders)


def usable_weapons(agent: UnitState, kind: str) -> list[Weapon]:
    return [
        w
        for w in agent.card.weapons_of(kind)
        if not w.has("LIM") or agent.lim_uses_left.get(w.name, 0) > 0
    ]


def attack_targets(state: MatchState, agent: UnitState, kind: str, weapon: Weapon) -> list[str]:
    """Standing enemies the weapon may attack now (an XPL weapon's empty squares:
    `blast_squares`)."""
    found = []
    for enemy in standing(state, 1 - agent.side):
        try:
            lite_combat.declare(state, agent, kind, weapon, enemy.id)
        except IllegalCommand:
            continue
        found.append(enemy.id)
    return found


def blast_squares(state: MatchState, agent: UnitState, kind: str, weapon: Weapon) -> list[str]:
    """XPL: the squares without a Standing Agent the weapon may aim at now (Lite rulebook XPL:
    it "can target an unoccupied Square"; the blast hits the Agents next to it), in reading
    order."""
    if not weapon.has("XPL"):
        return []
    assert agent.square is not None
    reach, here = weapon.range, agent.square
    found = []
    for square in state.board.squares():
        if square.distance(here) > reach or standing_at(state, square) is not None:
            continue
        try:
            lite_combat.declare(state, agent, kind, weapon, str(square))
        except IllegalCommand:
            continue
        found.append(str(square))
    return found


def _items(
    state: MatchState, agent: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    assert agent.square is not None
    here = agent.square
    doors = [
        n
        for n in (here.offset(0, -1), here.offset(1, 0), here.offset(0, 1), here.offset(-1, 0))
        if state.board.on_board(n) and state.board.has_door(here, n)
    ]
    if doors and (orders := _price(state, agent, activation, DOOR)) is not None:
        for n in doors:
            yield commands.Door(agent.side, agent.id, str(n), orders)
    if agent.carrying is not None:
        if (orders := _price(state, agent, activation, DROP)) is not None:
            yield commands.Drop(agent.side, agent.id, orders)
    elif (
        state.items_at(here, MARKER)
        and (orders := _price(state, agent, activation, PICK_UP)) is not None
    ):
        yield commands.PickUp(agent.side, agent.id, orders)


def _revives(
    state: MatchState, agent: UnitState, activation: Activation
) -> Iterator[commands.Command]:
    if state.squads[agent.side].orders < REVIVE_ORDERS or repeat_problem(agent, activation, REVIVE):
        return
    assert agent.square is not None
    if standing_enemy_next_to(state, agent.side, agent.square) is not None:
        return
    near = set(adjacent_squares(state.board, agent.square))
    for lying in downed(state, agent.side):
        if lying.square in near:
            try:
                lite_actions.check_revive(state, agent, lying.id)
            except IllegalCommand:
                continue
            yield commands.Revive(agent.side, agent.id, lying.id)


def sentry_commands(state: MatchState, side: int, *, blasts: bool = True) -> list[commands.Command]:
    """The Sentry Actions open to `side` now (the caller checked that one is open); without
    `blasts`, none aimed at an empty square."""
    listed: list[commands.Command] = []
    for agent in standing(state, side):
        if sentry_used(state, agent):
            continue
        for kind, name in ((MELEE, "melee"), (RANGED, "shoot")):
            for weapon in usable_weapons(agent, kind):
                aims = attack_targets(state, agent, kind, weapon)
                aims += blast_squares(state, agent, kind, weapon) if blasts else []
                for target in aims:
                    listed.append(commands.Sentry(side, agent.id, name, target, weapon.name))
        if not environment.forbidden(state, DASH):
            for square in sorted(lite_actions.routes(state, agent, DASH), key=lambda s: (s.y, s.x)):
                if square != agent.square:
                    listed.append(commands.Sentry(side, agent.id, "dash", square=str(square)))
    return listed


ActionKind = Callable[[MatchState, UnitState, Activation], Iterator[commands.Command]]
_PLAYED: tuple[ActionKind, ...] = (_moves, _dashes, _attacks, _revives, _items)
_LISTED: tuple[ActionKind, ...] = (*_PLAYED, _blasts)
# An XPL weapon's empty squares never keep an activation open (docs/rulings.md, Skirm Lite): it
# ends as it did before they were listed, so saved matches replay as they were played.
_CHEAPEST_FIRST: tuple[ActionKind, ...] = (_items, _revives, _dashes, _moves, _attacks)
