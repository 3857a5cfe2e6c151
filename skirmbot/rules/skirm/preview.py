"""Skirm's preview (skirmbot.rules.preview): reach by Dash, Move and Leap (LPx), and the exact
odds /odds shows for the unit's attacks, worked out on a copy of the state.

The odds are `skirmbot.rules.skirm.odds` (the same numbers as /odds, from the real situation:
cover, support, specials and the turn's event), without Tactical Orders as /odds shows them first.
"""

from __future__ import annotations

from skirmbot.rules.errors import RulesError
from skirmbot.rules.preview import (
    DASH,
    LEAP,
    MOVE,
    Chance,
    Preview,
    check_public,
    copy_for_preview,
    label_reach,
    place_as_if,
)
from skirmbot.rules.skirm import actions
from skirmbot.rules.skirm.deployment import set_up_stage
from skirmbot.rules.skirm.legal import reachable_squares
from skirmbot.rules.skirm.odds import TargetOdds, target_odds
from skirmbot.rules.skirm.state import MatchState, UnitState
from skirmbot.rules.squares import Square


def preview(state: MatchState, name: str, square: Square | None = None) -> Preview:
    """The named unit's options where it stands (or as if on `square`); the live state is
    only read."""
    check_public(set_up_stage(state))
    seen = copy_for_preview(state)
    unit = place_as_if(seen, _on_map(seen, name), square)
    return Preview(
        unit.id,
        unit.side,
        unit.square,
        square is not None and square != state.units[unit.id].square,
        label_reach(_reach(seen, unit)),
        tuple(_chances(seen, unit)),
        tuple(_threats(seen, unit)) if square is not None else (),
    )


def _on_map(state: MatchState, name: str) -> UnitState:
    unit = state.unit(name)
    if not unit.on_map:
        raise RulesError(f"{unit.name} is not on the map: there is nothing to preview.")
    return unit


def _reach(state: MatchState, unit: UnitState) -> dict[str, dict[Square, int]]:
    found = {
        action: {
            square: route.cost for square, route in reachable_squares(state, unit, action).items()
        }
        for action in (DASH, MOVE)
    }
    if unit.card.has("LP"):
        found[LEAP] = {
            square: route.cost
            for square, route in actions.leaps(state, unit).items()
            if square != unit.square
        }
    return found


def _odds(state: MatchState, attacker: UnitState, target: str | None) -> list[TargetOdds]:
    return target_odds(state, attacker, target, orders=0)


def _chances(state: MatchState, unit: UnitState) -> list[Chance]:
    """Every enemy unit the unit could attack now, with each weapon it may use."""
    return [
        _chance(unit, entry)
        for entry in _odds(state, unit, None)
        if entry.option.target in state.units
    ]


def _threats(state: MatchState, unit: UnitState) -> list[Chance]:
    """Every enemy that could attack the unit where it is previewed, with each weapon."""
    found = []
    for enemy in state.on_map(1 - unit.side):
        try:
            found += [_chance(enemy, entry) for entry in _odds(state, enemy, unit.id)]
        except RulesError:  # /odds' refusal when no weapon of the enemy can take the unit
            continue
    return found


def _chance(attacker: UnitState, entry: TargetOdds) -> Chance:
    first = entry.primary
    return Chance(
        attacker.id,
        entry.weapon.name,
        entry.kind,
        entry.option.target,
        entry.option.distance,
        entry.option.cover,
        first.struck,
        first.expected_hit_lost,
        first.taken_out,
    )
