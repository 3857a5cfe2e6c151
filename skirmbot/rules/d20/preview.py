"""A model's options without a die rolled (skirmbot.rules.preview): where one movement takes it
and its exact odds against each enemy it could attack (`odds.opposed`): with none of its own bonus
dice and with each number it holds, against the bonus dice the defender's standing order adds."""

from __future__ import annotations

import copy

from skirmbot.rules.d20 import combat, legal
from skirmbot.rules.d20.geometry import cells_at
from skirmbot.rules.d20.odds import opposed
from skirmbot.rules.d20.state import Model, State
from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.preview import MOVE, Chance, Preview, Reach, check_public
from skirmbot.rules.squares import Square


def preview(state: State, unit: str, square: Square | None = None) -> Preview:
    check_public("deploy" if state.round == 0 else None)
    copied = copy.deepcopy(state)
    model = copied.models.get(unit.lower())
    if model is None or model.square is None or not model.standing:
        raise RulesError(f"There is no model called '{unit}' standing on the map.")
    as_if = square is not None and square != model.square
    if square is not None and as_if:
        _stand(copied, model, square)
    assert model.square is not None
    reach = tuple(
        Reach(s, MOVE, len(path) - 1)
        for s, path in sorted(
            legal.moves(copied, model).items(), key=lambda item: (item[0].y, item[0].x)
        )
    )
    attacks = tuple(_chances(copied, model, enemy) for enemy in _enemies(copied, model))
    threats = (
        tuple(_chances(copied, enemy, model) for enemy in _enemies(copied, model)) if as_if else ()
    )
    return Preview(
        model.id, model.side, model.square, as_if, reach,
        tuple(c for group in attacks for c in group), tuple(c for group in threats for c in group),
    )  # fmt: skip


def _stand(state: State, model: Model, square: Square) -> None:
    cells = cells_at(square, model.big)
    taken = state.occupied(ignore=model)
    for cell in cells:
        if not state.board.is_open(cell):
            raise RulesError(f"{cell} is impassable or off the map: {model.id} cannot stand there.")
        if cell in taken:
            raise RulesError(f"{taken[cell].id} stands on {cell}; preview a free square instead.")
    model.square = square


def _enemies(state: State, model: Model) -> list[Model]:
    return [m for m in state.models.values() if m.side != model.side and m.standing]


def _chances(state: State, attacker: Model, target: Model) -> list[Chance]:
    found = []
    for weapon in attacker.profile.weapons:
        try:
            line = combat.check(state, attacker, target, weapon)
        except IllegalCommand:
            continue
        attack, defence = combat.modifiers(attacker, target, weapon, line)
        # The defender adds what its standing order says; the attacker chooses from its own.
        defender = state.seats[target.side]
        defended = min(defender.defend, defender.bonus)
        held = state.seats[attacker.side].bonus
        win = opposed(0, attack, defended, defence).win
        more = tuple(opposed(n, attack, defended, defence).win for n in range(1, held + 1))
        kind = "melee" if weapon.melee else "ranged"
        found.append(
            Chance(
                attacker.id,
                weapon.name,
                kind,
                target.id,
                line.distance,
                line.cover,
                win,
                win,
                win,
                opposed=True,
                bonus=more,
                defended=defended,
            )  # fmt: skip
        )
    return found
