"""Mission Points at the end of a turn, one function per scoring kind (rulebook Scoring Mission
Points And Controlling Objectives; docs/rulings.md, Missions), and the engine facts that the
scoring kinds and the secondary objectives are made of.
"""

from __future__ import annotations

from skirmbot.rules.adjacency import adjacent
from skirmbot.rules.events import Event
from skirmbot.rules.skirm.missions import Scoring
from skirmbot.rules.skirm.state import DOWNED, MatchState, UnitState


# --- facts ---------------------------------------------------------------------------------
def objective_controller(state: MatchState, index: int) -> int | None:
    """The side whose unit stands on the objective with no enemy adjacent (rulebook Scoring).
    A Downed agent (Skirm Lite) neither holds nor contests one (docs/rulings.md, Skirm Lite)."""
    square = state.objectives[index]
    holder = state.unit_at(square)
    if holder is None or holder.status == DOWNED:
        return None
    for enemy in state.on_map(1 - holder.side):
        assert enemy.square is not None
        if enemy.status != DOWNED and adjacent(state.board, square, enemy.square):
            return None
    return holder.side


def controlled(state: MatchState, side: int) -> list[int]:
    """1-based numbers of the objectives `side` controls."""
    return [n + 1 for n in range(len(state.objectives)) if objective_controller(state, n) == side]


def taken_out_by(state: MatchState, side: int) -> list[UnitState]:
    """Enemy units `side` took out this turn (own units and event damage score nothing)."""
    return [state.units[victim] for victim, by in state.taken_out_this_turn if by == side]


def lost_this_turn(state: MatchState, side: int) -> int:
    return sum(1 for victim, _by in state.taken_out_this_turn if state.units[victim].side == side)


def carriers(state: MatchState, side: int) -> list[UnitState]:
    return [unit for unit in state.on_map(side) if unit.carrying is not None]


def units_in_enemy_zone(state: MatchState, side: int) -> list[UnitState]:
    zone = state.mission.zones[1 - side]
    return [
        unit
        for unit in state.on_map(side)
        if unit.square is not None and zone.contains(state.board, unit.square)
    ]


def units_in_target(state: MatchState, rule: Scoring, side: int) -> list[UnitState]:
    area = state.mission.target_area(rule, side)
    return [
        unit
        for unit in state.on_map(side)
        if unit.square is not None and area.contains(state.board, unit.square)
    ]


def beacons_of(state: MatchState, side: int) -> list[int]:
    """1-based numbers of the objectives whose beacon `side` armed."""
    return sorted(n + 1 for n, owner in state.beacons.items() if owner == side)


# --- the scoring kinds ---------------------------------------------------------------------
def _plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def count(state: MatchState, rule: Scoring, side: int) -> tuple[int, str]:
    """How many times `rule` scores for `side` now, and why, in words."""
    if rule.kind == "control":
        held = controlled(state, side)
        return len(held), (
            f"controls objective{'s' if len(held) != 1 else ''} {', '.join(map(str, held))}"
        )
    if rule.kind == "take_out":
        n = len(taken_out_by(state, side))
        return n, f"took out {_plural(n, 'enemy', 'enemies')} this turn"
    if rule.kind == "carry":
        units = carriers(state, side)
        names = ", ".join(unit.name for unit in units)
        return len(units), f"carries {_plural(len(units), 'marker')} ({names})"
    if rule.kind == "leader":
        leaders = [unit for unit in taken_out_by(state, side) if unit.card.is_leader]
        names = ", ".join(unit.name for unit in leaders)
        return len(leaders), f"took out the enemy Leader ({names})"
    if rule.kind == "crates":
        n = state.crates_opened_this_turn.count(side)
        return n, f"opened {_plural(n, 'crate')} this turn"
    if rule.kind == "zone":
        units = units_in_target(state, rule, side)
        area = state.mission.target_area(rule, side)
        where = (
            "the enemy's deployment zone" if rule.target == "enemy_deployment" else area.describe()
        )
        names = ", ".join(unit.name for unit in units)
        return len(units), f"has {_plural(len(units), 'unit')} in {where} ({names})"
    armed = beacons_of(state, side)
    return len(armed), (
        f"has armed the beacon{'s' if len(armed) != 1 else ''} on objective"
        f"{'s' if len(armed) != 1 else ''} {', '.join(map(str, armed))}"
    )


def score_mission(state: MatchState) -> list[Event]:
    """End-of-turn Mission Points as the mission's scoring says."""
    events: list[Event] = []
    for rule in state.mission.scoring:
        if state.turn < rule.from_turn:
            continue
        for side in (0, 1):
            times, what = count(state, rule, side)
            if not times:
                continue
            points = times * rule.points
            squad = state.squads[side]
            squad.mp += points
            events.append(
                Event(
                    "scored",
                    f"{squad.name} {what}: +{points} MP (total {squad.mp}).",
                    {"side": side, "points": points, "reason": rule.kind},
                )
            )
    return events
