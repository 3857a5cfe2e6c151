"""Every command a seat may send now under the group rules: the automatic player's, /act's and
autocomplete's menu (`Ruleset.legal_commands`).

Built only from `orders` (the questions the engine itself asks before a die is rolled), so the
menu and the engine never disagree. In order: the answer to an Attack waiting on the seat
(Interrupt), the ambition to choose in round 0 (rulebook Setup 7), then in the side's turn each
Group's orders - Moves of the whole Group keeping its shape to every square its first model can
reach, Shoots, Attacks, Retreats, Casts at every target, Summons at every square - and EndTurn.
While the seat has Reckless Groups still to check (rulebook Turns 2), only their Attacks.
Standing orders may be given at any time and are not listed.
"""

from __future__ import annotations

from skirmbot.rules.commands import Command, Melee, Shoot
from skirmbot.rules.companies import orders
from skirmbot.rules.companies.commands import (
    Cast,
    ChooseAmbition,
    EndTurn,
    Interrupt,
    Move,
    Retreat,
    Summon,
)
from skirmbot.rules.companies.profiles import ATTACK, CAST, MOVE, RETREAT, SHOOT, SUMMON
from skirmbot.rules.companies.state import Group, State


def legal_commands(state: State, seat: int) -> list[Command]:
    if state.over or not 0 <= seat < len(state.seats) or state.seats[seat].out:
        return []
    if state.round == 0:
        return ambitions(state, seat)
    if state.pending is not None:
        return interrupts(state, seat)
    if orders.seat_may_act(state, seat) is not None:
        return []
    reckless = orders.reckless_of(state, seat)
    if reckless:
        return [command for group in reckless for command in attacks(state, group)]
    found: list[Command] = []
    for group in state.groups_of(seat):
        found += group_orders(state, group)
    return [*found, EndTurn(seat)]


def ambitions(state: State, seat: int) -> list[Command]:
    """Setup 7: once deployment is revealed, each player who has not yet chosen an ambition."""
    if state.attackers is None or state.seats[seat].ambition is not None:
        return []
    return [ChooseAmbition(seat, key) for key in state.catalogue.ambitions]


def interrupts(state: State, seat: int) -> list[Command]:
    """Attacking 1: the attacked player answers whether to test the trait (prompted only)."""
    assert state.pending is not None
    if state.group(state.pending.target).seat != seat:
        return []
    return [Interrupt(seat, True), Interrupt(seat, False)]


def group_orders(state: State, group: Group) -> list[Command]:
    """Every order the Group may be given now, one command for each square or target."""
    allowed = orders.orders_now(state, group)
    seat, unit = group.seat, group.id
    found: list[Command] = []
    if MOVE in allowed:
        found += [Move(seat, unit, str(square)) for square in orders.move_squares(state, group)]
    if SHOOT in allowed:
        found += [Shoot(seat, unit, t.id) for t in orders.shoot_targets(state, group)]
    if ATTACK in allowed:
        found += attacks(state, group)
    if RETREAT in allowed:
        found.append(Retreat(seat, unit))
    if CAST in allowed:
        found += [Cast(seat, unit, t.id) for t in orders.cast_targets(state, group)]
    if SUMMON in allowed:
        found += [Summon(seat, unit, str(s)) for s in orders.summon_squares(state, group)]
    return found


def attacks(state: State, group: Group) -> list[Command]:
    return [Melee(group.seat, group.id, t.id) for t in orders.attack_targets(state, group)]
