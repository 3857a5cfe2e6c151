"""The automatic player: legal moves only, with some sense.

It deploys near the objectives, activates the unit with the best attack (or the one furthest
from where it is needed), shoots or fights the target it is most likely to take out, walks
toward objectives it does not hold, opens crates it stands on, and re-rolls failed attack dice
while it has Tactical Orders to spare. It is deterministic: the same match state gives the same
command, so a demo's record depends only on its seed.
"""

from __future__ import annotations

from skirmbot.rules import commands
from skirmbot.rules.adjacency import adjacent
from skirmbot.rules.cards import MELEE, RANGED
from skirmbot.rules.costs import DASH, MOVE
from skirmbot.rules.dice import succeeds
from skirmbot.rules.engine import infiltration_squares
from skirmbot.rules.legal import failed_dice, legal_commands
from skirmbot.rules.maps import CRATE, MARKER
from skirmbot.rules.scoring import units_in_target
from skirmbot.rules.squares import Square
from skirmbot.rules.state import DEPLOYMENT, MatchState, UnitState
from skirmbot.rules.turns import objective_controller

RESERVE_ORDERS = 1  # keep one TO for a later activation's re-roll


def deployment(state: MatchState, side: int) -> commands.Deploy:
    """Place the squad in its zone: fighters nearest the objectives, the leader further back.
    Infiltrators (INF) are held back, to be placed after both deployments."""
    zone = state.mission.zones[side].squares(state.board)
    taken = {u.square for u in state.units.values() if u.square is not None}
    free = [s for s in zone if s not in taken]
    goals = state.objectives or [Square(state.board.width // 2, state.board.height // 2)]
    free.sort(key=lambda s: (min(s.distance(g) for g in goals), s.y, s.x))
    staying = [u for u in state.units_of(side) if not u.card.has("INF")]
    units = sorted(staying, key=lambda u: (u.card.is_leader, -u.card.hit, u.id))
    spread: list[Square] = []
    for square in free:  # keep a square between units where the zone allows, so one blast hits one
        if len(spread) < len(units) and all(square.distance(other) > 1 for other in spread):
            spread.append(square)
    spread += [s for s in free if s not in spread][: len(units) - len(spread)]
    return commands.Deploy(
        side, {unit.id: str(square) for unit, square in zip(units, spread, strict=False)}
    )


def infiltration(state: MatchState, side: int) -> commands.Infiltrate:
    """Place the squad's waiting infiltrators on allowed squares nearest the objectives."""
    allowed = infiltration_squares(state, side)
    goals = state.objectives or [Square(state.board.width // 2, state.board.height // 2)]
    allowed.sort(key=lambda s: (min(s.distance(g) for g in goals), s.y, s.x))
    mine = [uid for uid in state.infiltrators if state.units[uid].side == side]
    return commands.Infiltrate(
        side, {uid: str(square) for uid, square in zip(mine, allowed, strict=False)}
    )


def choose(state: MatchState, side: int) -> commands.Command:
    """The automatic player's next command for `side` (which must be able to act)."""
    if state.phase == DEPLOYMENT:
        if state.squads[side].deployed:
            return infiltration(state, side)
        return deployment(state, side)
    options = legal_commands(state, side)
    if not options:
        raise ValueError("The automatic player was asked to act when it cannot.")
    activation = state.activation
    if activation is not None and activation.pending is not None:
        return _decide_roll(state, side, options)
    return max(options, key=lambda command: (_score(state, command), -options.index(command)))


def _decide_roll(state: MatchState, side: int, options: list[commands.Command]) -> commands.Command:
    """Re-roll a failed die with a free re-roll (PRx/BRx), or with TO while some are spare."""
    activation = state.activation
    free = (
        activation is not None
        and activation.pending is not None
        and activation.pending.attack.get("free_rerolls", 0) > 0
    )
    if free or state.squads[side].orders > RESERVE_ORDERS:
        for number in failed_dice(state):
            for option in options:
                if isinstance(option, commands.Reroll) and option.die == number:
                    return option
    return commands.Accept(side)


def _score(state: MatchState, command: commands.Command) -> float:
    """How much the command is worth now; ending the activation is worth 0."""
    if not isinstance(command, commands.UnitCommand):
        return 0.0  # ending the activation, delaying
    unit = state.units[command.unit]
    cost_penalty = 0.6 * getattr(command, "orders", 0)
    if isinstance(command, commands.Shoot | commands.Melee | commands.UseTurret):
        return _attack_value(state, unit, command) - cost_penalty
    if isinstance(command, commands.OpenCrate):
        wounded = unit.hit < unit.card.hit
        return (
            {"mp": 4.0, "medpack": 3.5 if wounded else 0.2, "to": 1.5, "ammo": 1.0}.get(
                command.option, 0.0
            )
            + _mission_crate_bonus(state)
            - cost_penalty
        )
    if isinstance(command, commands.Move | commands.Dash):
        return _move_value(state, unit, command) - cost_penalty
    if isinstance(command, commands.PickUp):
        return (4.0 if state.mission.scores("carry") else 1.0) - cost_penalty
    if isinstance(command, commands.MissionAction):
        return _mission_action_value(state, command) - cost_penalty
    return -1.0  # doors and drops: not worth an action to this player


def _attack_value(
    state: MatchState,
    unit: UnitState,
    command: commands.Shoot | commands.Melee | commands.UseTurret,
) -> float:
    kind = MELEE if isinstance(command, commands.Melee) else RANGED
    target = state.units.get(command.target)
    if target is None:
        return _item_attack_value(state, unit, command.target)
    weapon = (
        unit.card.weapon(command.weapon)
        if not isinstance(command, commands.UseTurret) and command.weapon
        else None
    )
    roa, dam = (weapon.roa, weapon.dam) if weapon else (2, 1)
    skill = unit.card.msk if kind == MELEE else unit.card.rsk
    p_strike = sum(1 for face in range(1, 7) if succeeds(face, skill)) / 6
    p_fail_save = sum(1 for face in range(1, 7) if not succeeds(face, target.card.arm)) / 6
    expected = roa * p_strike * dam * p_fail_save
    finish = 3.0 if expected >= target.hit * 0.8 else 0.0
    leader = (3.0 if state.mission.scores("leader") else 1.0) if target.card.is_leader else 0.0
    return 2.0 + expected * 2 + finish + leader


def _item_attack_value(state: MatchState, unit: UnitState, target: str) -> float:
    """A barrel is worth shooting for the enemies its blast catches, never near our own units."""
    kind, _, where = target.partition("@")
    if kind != "barrel":
        return -1.0  # turrets: not worth an action to this player
    square = Square.parse(where)
    caught = [u for u in state.on_map() if u.square is not None and u.square.distance(square) <= 1]
    if any(u.side == unit.side for u in caught):
        return -1.0
    return sum(2.0 + (2.0 if u.hit <= 2 else 0.0) for u in caught) - 0.5


def _move_value(
    state: MatchState, unit: UnitState, command: commands.Move | commands.Dash
) -> float:
    """Worth moving when it brings the unit closer to an objective it does not hold or an enemy."""
    assert unit.square is not None
    if _holds_objective(state, unit) or _mission_stay(state, unit):
        return -1.0
    destination = Square.parse(command.square)
    goal_now, goal_then = (
        _goal_distance(state, unit, unit.square),
        _goal_distance(state, unit, destination),
    )
    if goal_then >= goal_now:
        return -0.5
    gain = goal_now - goal_then
    second_move = (
        state.activation is not None
        and state.activation.uses.get(MOVE if isinstance(command, commands.Move) else DASH, 0) > 0
    )
    return (
        0.8
        + 0.3 * gain
        - (0.9 if second_move else 0.0)
        - (0.3 if isinstance(command, commands.Dash) else 0.0)
    )


def _holds_objective(state: MatchState, unit: UnitState) -> bool:
    if not _wants_objectives(state):
        return False
    return any(
        unit.square == square and objective_controller(state, n) == unit.side
        for n, square in enumerate(state.objectives)
    )


def _prefers_melee(unit: UnitState) -> bool:
    """A unit whose melee hurts more than its shooting goes for the enemy, not the objectives."""

    def punch(kind: str, skill: int) -> float:
        hits = sum(1 for face in range(1, 7) if succeeds(face, skill)) / 6
        return max((w.roa * w.dam * hits for w in unit.card.weapons_of(kind)), default=0.0)

    return punch(MELEE, unit.card.msk) > punch(RANGED, unit.card.rsk)


def _goal_distance(state: MatchState, unit: UnitState, square: Square) -> int:
    """Distance to the nearest objective not held by this squad, else to the nearest enemy;
    melee fighters go for the nearest enemy straight away."""
    enemies = [e.square for e in state.on_map(1 - unit.side) if e.square is not None]
    others = {u.square for u in state.on_map(unit.side) if u is not unit}
    mission_goals = _mission_goals(state, unit, others)
    goals = [
        s
        for n, s in enumerate(state.objectives)
        if _wants_objectives(state) and objective_controller(state, n) != unit.side
        if s not in others
    ] + mission_goals
    if not goals or (_prefers_melee(unit) and enemies):
        goals = enemies + _on_the_way(unit, mission_goals)
    if not goals:
        return 0
    distance = min(square.distance(goal) for goal in goals)
    near_enemy = any(adjacent(state.board, square, e) for e in enemies)
    return distance + (1 if near_enemy and not _prefers_melee(unit) else 0)


# --- the mission's other ways to score (docs/rulings.md, Missions) ---------------------------
def _wants_objectives(state: MatchState) -> bool:
    """Objectives are worth walking to when the mission scores them (or nothing else)."""
    mission = state.mission
    return (
        mission.scores("control")
        or mission.scores("beacons")
        or not any(mission.scores(kind) for kind in ("carry", "crates", "zone", "leader"))
    )


def _mission_goals(state: MatchState, unit: UnitState, others: set[Square | None]) -> list[Square]:
    """Squares the mission's scoring sends this unit to: markers to carry (a carrier heads
    home), crates to open, the target area of `zone` scoring, beacons still to arm."""
    mission, goals = state.mission, []
    if mission.scores("carry"):
        if unit.carrying is not None:
            return mission.zones[unit.side].squares(state.board)
        goals += [
            item.square
            for item in state.items.values()
            if item.kind == MARKER and item.square is not None and item.square not in others
        ]
    if mission.scores("crates"):
        goals += [
            item.square
            for item in state.items.values()
            if item.kind == CRATE and item.square is not None and item.square not in others
        ]
    for rule in mission.scoring:
        if rule.kind == "zone":
            area = mission.target_area(rule, unit.side)
            goals += [
                s
                for s in state.board.squares()
                if state.board.is_open(s) and area.contains(state.board, s) and s not in others
            ]
    if mission.scores("beacons"):
        goals += [
            s
            for n, s in enumerate(state.objectives)
            if state.beacons.get(n) != unit.side and s not in others
        ]
    return goals


def _on_the_way(unit: UnitState, goals: list[Square]) -> list[Square]:
    """Mission goals close enough that even a melee fighter takes them in passing."""
    assert unit.square is not None
    here = unit.square
    return [goal for goal in goals if here.distance(goal) <= 3]


def _mission_stay(state: MatchState, unit: UnitState) -> bool:
    """Stay put where the mission scores: in a `zone` target, or home with a marker."""
    mission = state.mission
    if any(
        unit in units_in_target(state, rule, unit.side)
        for rule in mission.scoring
        if rule.kind == "zone"
    ):
        return True
    home = mission.zones[unit.side]
    return (
        mission.scores("carry")
        and unit.carrying is not None
        and unit.square is not None
        and home.contains(state.board, unit.square)
    )


def _mission_crate_bonus(state: MatchState) -> float:
    return 2.0 if state.mission.scores("crates") else 0.0


def _mission_action_value(state: MatchState, command: commands.MissionAction) -> float:
    """Arming a beacon scores every turn from now on; stripping a crate scores when crates do."""
    rule = next(r for r in state.mission.actions if r.name == command.action)
    if rule.effect == "arm":
        return 5.0
    return 3.0 if state.mission.scores("crates") else 0.5
