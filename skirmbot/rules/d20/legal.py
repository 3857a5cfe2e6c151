"""Every command a seat may send now: the automatic player's and autocomplete's menu.

Bonus dice are listed as purchases, defences and attacks with each number of them the seat
holds (what /act offers: no other command adds them); a move is listed without bonus dice, since
they only lengthen it by their faces. Standing orders may be set at any time and are not listed.
"""

from __future__ import annotations

from dataclasses import replace

from skirmbot.rules.commands import Command, EndActivation
from skirmbot.rules.d20 import combat
from skirmbot.rules.d20.commands import Attack, Buy, Defend, EndTurn, Move, Shift
from skirmbot.rules.d20.engine import MOVE_COSTS, price
from skirmbot.rules.d20.geometry import can_shift, paths, squares_for
from skirmbot.rules.d20.state import AFTER, MAX_BONUS_DICE, READY, Model, State
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.squares import Square


def legal_commands(state: State, side: int) -> list[Command]:
    if state.over or state.round == 0 or state.seats[side].out:
        return []
    if state.pending is not None:
        target = state.models[state.pending.target.lower()]
        held = state.seats[side].bonus
        return [Defend(side, n) for n in range(held + 1)] if target.side == side else []
    found: list[Command] = []
    if state.free_move is not None:
        winner = state.models[state.free_move.lower()]
        if winner.side != side:
            return []
        found += free_moves(state, winner)
        if winner.side != state.to_act:
            return found
    if side != state.to_act:
        return found
    # Purchases and ends first: the actions /act must always show (see `activations`).
    return found + purchases(state, side) + _ends(state, side) + activations(state, side)


def free_moves(state: State, model: Model) -> list[Command]:
    assert model.square is not None
    blocked = set(state.occupied(ignore=model))
    reach = squares_for(combat.FREE_MOVE)
    squares = [
        model.square.offset(dx, dy)
        for dy in range(-reach, reach + 1)
        for dx in range(-reach, reach + 1)
        if max(abs(dx), abs(dy)) == reach
        and can_shift(state.board, model.square, dx, dy, model.big, blocked)
    ]
    stay: list[Command] = [Shift(model.side, model.id, None)]
    return stay + [Shift(model.side, model.id, str(s)) for s in squares]


def purchases(state: State, side: int) -> list[Command]:
    seat = state.seats[side]
    return [
        Buy(side, n)
        for n in range(1, MAX_BONUS_DICE - seat.bonus + 1)
        if price(seat.bonus, n) <= seat.ap
    ]


def actors(state: State, side: int) -> list[Model]:
    """The models that may act now: the one activating, or any ready one before AFTER."""
    active = [state.models[state.active.lower()]] if state.active is not None else []
    if state.step == AFTER:
        return active
    ready = [
        m for m in state.models.values() if m.side == side and m.standing and m.status == READY
    ]
    return active + [m for m in ready if m.id != state.active]


def moves(state: State, model: Model) -> dict[Square, tuple[Square, ...]]:
    """Where one movement without bonus dice takes the model, each with its path."""
    ap = state.seats[model.side].ap
    if model.moves >= len(MOVE_COSTS) or model.moved_then_fought or MOVE_COSTS[model.moves] > ap:
        return {}
    assert model.square is not None
    blocked = set(state.occupied(ignore=model))
    found = paths(state.board, model.square, model.big, blocked, squares_for(model.profile.move))
    return {square: path for square, path in found.items() if square != model.square}


def attacks(state: State, model: Model) -> list[Attack]:
    if model.fought or state.seats[model.side].ap < combat.ATTACK_COST:
        return []
    found = []
    for target in state.models.values():
        if target.side == model.side or not target.standing:
            continue
        for weapon in model.profile.weapons:
            try:
                combat.check(state, model, target, weapon)
            except IllegalCommand:
                continue
            found.append(Attack(model.side, model.id, target.id, weapon.name))
    return found


def activations(state: State, side: int) -> list[Command]:
    """Movements, then attacks with bonus dice, then without: /act lists the commands no
    other slash command sends (an attack without bonus dice is /shoot's or /melee's) in this
    order, the model activating first, and Discord shows it the first 25."""
    models = actors(state, side)
    movements = [Move(side, m.id, str(square)) for m in models for square in moves(state, m)]
    plain = [attack for m in models for attack in attacks(state, m)]
    held = range(1, state.seats[side].bonus + 1)
    with_dice = [replace(attack, bonus=n) for attack in plain for n in held]
    return [*movements, *with_dice, *plain]


def _ends(state: State, side: int) -> list[Command]:
    ends: list[Command] = [EndTurn(side)]
    if state.active is not None:
        ends.insert(0, EndActivation(side, state.active))
    return ends
