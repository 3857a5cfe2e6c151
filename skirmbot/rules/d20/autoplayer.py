"""The automatic player (practice matches, missed deadlines, the demo): it deploys toward the
middle, moves toward an objective or the nearest enemy, attacks when it can, buys bonus dice
when action points are plentiful, and ends its turn."""

from __future__ import annotations

from skirmbot.rules.commands import Command, Deploy, EndActivation
from skirmbot.rules.d20 import legal
from skirmbot.rules.d20.combat import check, modifiers
from skirmbot.rules.d20.commands import Attack, Buy, Defend, EndTurn, Move, Shift
from skirmbot.rules.d20.engine import MOVE_COSTS, price
from skirmbot.rules.d20.geometry import cells_at, gap
from skirmbot.rules.d20.odds import opposed
from skirmbot.rules.d20.state import BEFORE, MAX_BONUS_DICE, Model, State
from skirmbot.rules.squares import Square

DEFEND_WITH = 2  # bonus dice the automatic player defends with
PLENTY = 10  # action points from which it buys a bonus die before activating
KEEP = 2  # bonus dice it likes to hold


def deployment(state: State, side: int) -> Deploy:
    """Big Models first, each on the free squares of its zone nearest the middle of the map."""
    middle = Square(state.board.width // 2, state.board.height // 2)
    zone = state.zones[side]
    free = sorted(zone, key=lambda s: (s.distance(middle), s.y, s.x))
    taken: set[Square] = set()
    placements: dict[str, str] = {}
    mine = sorted((m for m in state.models.values() if m.side == side), key=lambda m: not m.big)
    for model in mine:
        for square in free:
            cells = set(cells_at(square, model.big))
            if cells <= zone and not cells & taken:
                placements[model.id] = str(square)
                taken |= cells
                break
    return Deploy(side, placements)


def choose(state: State, side: int) -> Command:
    if state.pending is not None:
        return Defend(side, min(DEFEND_WITH, state.seats[side].bonus))
    if state.free_move is not None:
        return Shift(side, state.free_move, None)
    seat = state.seats[side]
    if state.step == BEFORE and seat.bonus < KEEP and seat.ap >= PLENTY:
        return Buy(side, 1)
    for model in legal.actors(state, side):
        action = _action(state, model)
        if action is not None:
            return action
    if state.active is not None:
        return EndActivation(side, state.active)
    if seat.bonus < MAX_BONUS_DICE and 0 < price(seat.bonus, 1) <= seat.ap:
        return Buy(side, 1)
    return EndTurn(side)


def _action(state: State, model: Model) -> Command | None:
    seat = state.seats[model.side]
    options = legal.attacks(state, model)
    if options:
        best = max(options, key=lambda attack: _chance(state, attack))
        bonus = 1 if seat.bonus > 0 and _chance(state, best) < 0.5 else 0
        return Attack(best.side, best.unit, best.target, best.weapon, bonus)
    if model.fought or (model.moves and MOVE_COSTS[min(model.moves, 2)] > seat.ap // 2):
        return None
    return _advance(state, model)


def _chance(state: State, attack: Attack) -> float:
    model, target = state.model(attack.unit), state.model(attack.target)
    weapon = model.profile.weapon(attack.weapon)
    assert weapon is not None
    line = check(state, model, target, weapon)
    mods = modifiers(model, target, weapon, line)
    return float(opposed(0, mods[0], 0, mods[1]).win)


def _advance(state: State, model: Model) -> Move | None:
    """A movement that brings the model nearer its goal: an objective it does not hold, else the
    nearest enemy standing."""
    goals = _goals(state, model)
    if not goals:
        return None
    here = min(gap(model.cells, (g,)) for g in goals)
    options = legal.moves(state, model)
    best = min(
        options,
        key=lambda s: (
            min(gap(cells_at(s, model.big), (g,)) for g in goals),
            len(options[s]),
            s.y,
            s.x,
        ),
        default=None,
    )
    if (
        best is None
        or min(gap(cells_at(best, model.big), (g,)) for g in goals) >= here
        or here <= 1
    ):
        return None
    return Move(model.side, model.id, str(best))


def _goals(state: State, model: Model) -> list[Square]:
    if state.scenario.scores("control"):
        held = {
            objective
            for objective in state.objectives
            if any(
                m.side == model.side and m.standing and gap(m.cells, (objective,)) <= 1
                for m in state.models.values()
                if m is not model
            )
        }
        open_objectives = [o for o in state.objectives if o not in held]
        if open_objectives:
            return open_objectives
    return [
        cell
        for m in state.models.values()
        if m.side != model.side and m.standing
        for cell in m.cells
    ]
