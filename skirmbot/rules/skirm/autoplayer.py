"""The automatic player: legal moves only, with some sense.

It deploys near the objectives and, in play, scores every legal command and sends the best:

- an attack is worth the damage it is expected to do after saves and the chance that it takes
  the target out, weighed by how much the target matters (how hard it hits, a Leader, an
  objective it holds): the odds come from the dice, cover, support and the special rules;
- a Move or Dash is worth the ground it gains toward where the unit is going (objectives, the
  mission's goals, or the nearest enemy for a unit that fights better in melee), walking
  distance around walls, less the danger of the square it ends on (what the enemy units could do
  to it there before it acts again: their weapons, range, sight and cover), plus the attack it
  can still pay for from there (a charge into melee, a step to get a shot);
- a unit on an objective it controls stays there; crates, markers and mission actions are worth
  what the mission scores for them; spending Tactical Orders on an action costs a little.

The unit with the best first command activates. A squad that may delay (it has at least 2
fewer units) does so when no ready unit has anything better to do than walk, so the enemy
comes to it. Failed attack dice are re-rolled with free re-rolls, or with TO while some are
spare. It is deterministic: the same match state gives the same command, so a demo's record
depends only on its seed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from skirmbot.rules.adjacency import adjacent
from skirmbot.rules.board import Board
from skirmbot.rules.maps import CRATE, MARKER
from skirmbot.rules.movement import Mover, reachable
from skirmbot.rules.sight import sight
from skirmbot.rules.skirm import area, commands, specials
from skirmbot.rules.skirm.actions import mover_of
from skirmbot.rules.skirm.cards import MELEE, RANGED, Weapon
from skirmbot.rules.skirm.combat import BARREL_DAMAGE
from skirmbot.rules.skirm.costs import DASH, MOVE, action_cost, attack_action
from skirmbot.rules.skirm.engine import infiltration_squares
from skirmbot.rules.skirm.legal import failed_dice, legal_commands, usable_weapons
from skirmbot.rules.skirm.rolls import succeeds
from skirmbot.rules.skirm.state import DEPLOYMENT, READY, Activation, MatchState, UnitState
from skirmbot.rules.skirm.turns import objective_controller
from skirmbot.rules.squares import Square
from skirmbot.rules.targeting import ranged_target_problem

RESERVE_ORDERS = 1  # keep one TO for a later activation's re-roll
ORDER_COST = 0.6  # spending one Tactical Order on an action, in points
STEP_VALUE = 0.3  # one square (movement point) closer to where the unit is going
DANGER_WEIGHT = 0.35  # how much a point of the unit's worth at risk counts against a square
FOLLOW_UP = 0.85  # an attack the unit can still pay for after a move, discounted
HOLD_VALUE = 1.5  # standing on an objective the squad would control
ATTACK_BASE = 0.3  # any attack beats standing still when the odds are equal
DELAY_BELOW = 1.0  # delay when no command is worth more than this (walking, not fighting)
FAR = 99  # walking distance to a square that cannot be reached
SEARCH_BUDGET = 60  # movement points searched when measuring walking distances
MOVE_TO_SHOOT = 0.7  # danger from a shooter that must move first to have the range
FIND_A_LINE = 0.2  # ... and that has no line of sight from where it stands
HIDE_MELEE = 3.0  # deploying: a square seen from all the enemy's first positions, in points
HIDE_SHOOTER = 1.0


def deployment(state: MatchState, side: int) -> commands.Deploy:
    """Place the squad in its zone near the objectives, out of sight of where the enemy's
    shooters will stand where the zone allows (melee fighters most of all: they must cross the
    map), a square apart if the enemy has weapons that hit areas, the leader placed last.
    Infiltrators (INF) are held back, to be placed after both deployments."""
    zone = state.mission.zones[side].squares(state.board)
    taken = {u.square for u in state.units.values() if u.square is not None}
    free = [s for s in zone if s not in taken]
    goals = state.objectives or [Square(state.board.width // 2, state.board.height // 2)]
    exposure = _exposure(state, side, free)
    staying = [u for u in state.units_of(side) if not u.card.has("INF")]
    units = sorted(staying, key=lambda u: (u.card.is_leader, -u.card.hit, u.id))
    gap = 1 if _enemy_hits_areas(state, side) else 0
    placements: dict[str, str] = {}
    placed: list[Square] = []
    for unit in units:
        hiding = HIDE_MELEE if _prefers_melee(unit) else HIDE_SHOOTER
        spaced = [s for s in free if s not in placed and all(s.distance(o) > gap for o in placed)]
        choices = spaced or [s for s in free if s not in placed]
        if not choices:
            break
        square = min(
            choices,
            key=lambda s: (
                STEP_VALUE * min(s.distance(g) for g in goals) + hiding * exposure[s],
                own_view(state, side, s).y,
                own_view(state, side, s).x,
            ),
        )
        placed.append(square)
        placements[unit.id] = str(square)
    return commands.Deploy(side, placements)


def _enemy_hits_areas(state: MatchState, side: int) -> bool:
    """Whether the enemy carries a weapon that hits the units around its target."""
    return any(
        area.is_blast(weapon) or weapon.has("CR") or weapon.has("SPR")
        for unit in state.units_of(1 - side)
        for weapon in unit.card.weapons
    )


def _exposure(state: MatchState, side: int, squares: list[Square]) -> dict[Square, float]:
    """For each square, the share of the squares the enemy can reach in its first Move (its
    zone and 3 squares beyond) that see it within the enemy's longest range."""
    board = state.board
    enemy_zone = state.mission.zones[1 - side].squares(board)
    reach = range(4)
    sources = sorted(
        {
            s
            for s in board.squares()
            if board.is_open(s) and any(s.distance(z) in reach for z in enemy_zone)
        }
    )
    longest = max(
        (
            weapon.range
            for unit in state.units_of(1 - side)
            for weapon in unit.card.weapons_of(RANGED)
        ),
        default=0,
    )
    exposure: dict[Square, float] = {}
    for square in squares:
        seen = sum(
            1
            for source in sources
            if 2 <= source.distance(square) <= longest and terrain_sight(board, source, square)[0]
        )
        exposure[square] = seen / max(1, len(sources))
    return exposure


def infiltration(state: MatchState, side: int) -> commands.Infiltrate:
    """Place the squad's waiting infiltrators on allowed squares nearest the objectives."""
    allowed = infiltration_squares(state, side)
    goals = state.objectives or [Square(state.board.width // 2, state.board.height // 2)]
    allowed.sort(
        key=lambda s: (
            min(s.distance(g) for g in goals),
            own_view(state, side, s).y,
            own_view(state, side, s).x,
        )
    )
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
    judge = Judge(state, side)
    best_value, _, _, best = max(
        (judge.score(command), _tie_break(state, side, command), -index, command)
        for index, command in enumerate(options)
    )
    delay = next((c for c in options if isinstance(c, commands.Delay)), None)
    if delay is not None and best_value < DELAY_BELOW:
        return delay
    return best


def own_view(state: MatchState, side: int, square: Square) -> Square:
    """The square as `side` sees the map: the second squad's view is turned half a turn, so
    that both squads break ties the same way from their own side of the map (on a map that is
    the same both ways round, neither squad plays differently for being listed second)."""
    if side == 0:
        return square
    return Square(state.board.width - 1 - square.x, state.board.height - 1 - square.y)


def _tie_break(state: MatchState, side: int, command: commands.Command) -> tuple[int, int, int]:
    """Between commands worth the same: one without a square first, then the square nearest
    the squad's own back edge, then the leftmost, as the squad sees the map."""
    square = getattr(command, "square", None)
    if not isinstance(square, str) or not square:
        return (1, 0, 0)
    seen = own_view(state, side, Square.parse(square))
    return (0, -seen.y, -seen.x)


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


# --- the odds of an attack -------------------------------------------------------------------
def _chance(stat: int) -> float:
    """The chance that one die succeeds against `stat` (a 1 always does, a 6 never)."""
    return sum(1 for face in range(1, 7) if succeeds(face, stat)) / 6


@lru_cache(maxsize=8192)
def hit_odds(
    dice: int,
    skill: int,
    dam: int,
    one_bonus: int,
    automatic: int,
    free_rerolls: int,
    cover: bool,
    arm: int,
    tough: int,
) -> tuple[float, ...]:
    """The chances that an attack takes 0, 1, 2, ... HIT off its target: `dice` attack dice
    against `skill` (a natural 1 adds `one_bonus` DAM), `automatic` strikes without rolling
    (AHx, support), up to `free_rerolls` failed dice rolled again, one point saved by cover,
    then one save per point against `arm`, up to `tough` failed saves rolled again (TGx)."""
    # merged, not a dict literal: with no bonus the natural 1 strikes for plain DAM too
    single = _merge(
        ((dam + one_bonus, 1 / 6), (dam, _chance(skill) - 1 / 6), (0, 1 - _chance(skill)))
    )
    rerolled = {points: chance * (1 + single[0]) for points, chance in single.items() if points}
    rerolled[0] = single[0] * single[0]
    points: dict[int, float] = {automatic * dam: 1.0}
    for die in range(dice):
        outcome = rerolled if die < free_rerolls else single
        points = _convolve(points, outcome)
    if cover:
        points = _merge((max(0, p - 1), chance) for p, chance in points.items())
    saves = _chance(arm)
    lost: dict[int, float] = {}
    for total, chance in points.items():
        for failed in range(total + 1):
            ways = _binomial(total, failed) * (1 - saves) ** failed * saves ** (total - failed)
            again = min(tough, failed)
            for still in range(again + 1):
                keep = _binomial(again, still) * (1 - saves) ** still * saves ** (again - still)
                final = failed - again + still
                lost[final] = lost.get(final, 0.0) + chance * ways * keep
    return tuple(lost.get(n, 0.0) for n in range(max(lost) + 1))


def _convolve(first: dict[int, float], second: dict[int, float]) -> dict[int, float]:
    return _merge((a + b, pa * pb) for a, pa in first.items() for b, pb in second.items())


def _merge(pairs: Iterable[tuple[int, float]]) -> dict[int, float]:
    merged: dict[int, float] = {}
    for key, chance in pairs:
        merged[key] = merged.get(key, 0.0) + chance
    return merged


@lru_cache(maxsize=256)
def _binomial(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


def expected_loss(odds: tuple[float, ...], hit: int) -> tuple[float, float]:
    """The HIT an attack is expected to take off a unit with `hit` left, and the chance it
    takes the unit out."""
    expected = sum(min(n, hit) * chance for n, chance in enumerate(odds))
    out = sum(chance for n, chance in enumerate(odds) if n >= hit)
    return expected, out


def attack_odds(
    attacker: UnitState,
    weapon: Weapon,
    kind: str,
    target: UnitState,
    distance: int,
    cover: bool,
    support: bool,
) -> tuple[float, ...]:
    """`hit_odds` for this attacker's weapon against this target."""
    skill, _ = specials.attack_skill(attacker, weapon, kind, target, distance)
    auto = specials.automatic_strikes(weapon)
    return hit_odds(
        weapon.roa - auto,
        skill,
        weapon.dam,
        specials.natural_one_bonus(weapon),
        auto + (1 if support else 0),
        specials.free_rerolls(attacker, weapon, kind),
        cover and not weapon.has("NCV") and not area.is_blast(weapon),
        target.card.arm,
        specials.save_rerolls(target),
    )


def _attacks_per_activation(unit: UnitState, kind: str) -> int:
    """How many attacks of a kind a unit can make in one activation on its own ACT."""
    double = unit.card.has("2MC" if kind == MELEE else "2RC") or any(
        w.has("2MC" if kind == MELEE else "2RC") for w in unit.card.weapons_of(kind)
    )
    if double:
        return min(unit.card.act, 2)
    return 2 if unit.card.act >= 3 else 1


# --- judging commands ------------------------------------------------------------------------
class Judge:
    """Scores the commands of one side in one match state. It remembers what it works out
    (walking distances, dangers, follow-up attacks) for the one decision it is made for."""

    def __init__(self, state: MatchState, side: int) -> None:
        self.state = state
        self.side = side
        self.enemies = [u for u in state.on_map(1 - side) if u.square is not None]
        self.friends = [u for u in state.on_map(side) if u.square is not None]
        self.occupancy = state.occupancy()
        self.control = [objective_controller(state, n) for n in range(len(state.objectives))]
        self.wants_objectives = _wants_objectives(state)
        self._worth: dict[str, float] = {}
        self._danger: dict[tuple[str, Square], float] = {}
        self._goals: dict[str, tuple[list[Square], bool]] = {}
        self._follow: dict[tuple[str, Square, int], float] = {}

    # --- the commands ---
    def score(self, command: commands.Command) -> float:
        """How much the command is worth now; ending the activation is worth 0."""
        if not isinstance(command, commands.UnitCommand):
            return 0.0  # ending the activation, delaying
        unit = self.state.units[command.unit]
        cost = ORDER_COST * getattr(command, "orders", 0)
        if isinstance(command, commands.Shoot | commands.Melee | commands.UseTurret):
            return self.attack_value(unit, command) - cost
        if isinstance(command, commands.Move | commands.Dash):
            return self.move_value(unit, command) - cost
        if isinstance(command, commands.OpenCrate):
            wounded = unit.hit < unit.card.hit
            return (
                {"mp": 4.0, "medpack": 3.5 if wounded else 0.2, "to": 1.5, "ammo": 1.0}.get(
                    command.option, 0.0
                )
                + (2.0 if self.state.mission.scores("crates") else 0.0)
                - cost
            )
        if isinstance(command, commands.PickUp):
            return (4.0 if self.state.mission.scores("carry") else 1.0) - cost
        if isinstance(command, commands.MissionAction):
            return _mission_action_value(self.state, command) - cost
        return -1.0  # doors, drops, leaps and skills: not worth an action to this player

    def attack_value(
        self, unit: UnitState, command: commands.Shoot | commands.Melee | commands.UseTurret
    ) -> float:
        target = self.state.units.get(command.target)
        if target is None or target.square is None:
            return self.item_attack_value(unit, command)
        if isinstance(command, commands.UseTurret):
            expected, out = self._turret_odds(target)
            return ATTACK_BASE + self.gain(target, expected, out)
        kind = MELEE if isinstance(command, commands.Melee) else RANGED
        weapon = unit.card.weapon(command.weapon) if command.weapon else None
        if weapon is None:
            return ATTACK_BASE
        assert unit.square is not None
        value = self._attack_from(unit, unit.square, weapon, kind, target, self.occupancy)
        if area.is_blast(weapon):
            value += self._blast_extra(unit, target.square)
        return value

    def item_attack_value(
        self, unit: UnitState, command: commands.Shoot | commands.Melee | commands.UseTurret
    ) -> float:
        """A barrel is worth the damage its blast would do to the enemies around it, if the
        attack strikes at all; never worth it near our own units. Turrets: not worth it."""
        kind, _, where = command.target.partition("@")
        weapon = (
            None
            if isinstance(command, commands.UseTurret)
            else unit.card.weapon(command.weapon or "")
        )
        if kind != "barrel" or weapon is None or unit.square is None:
            return -1.0
        square = Square.parse(where)
        caught = [
            u
            for u in self.state.on_map()
            if u.square is not None and u.square.distance(square) <= 1
        ]
        if any(u.side == unit.side for u in caught):
            return -1.0
        attack = MELEE if isinstance(command, commands.Melee) else RANGED
        skill, _ = specials.attack_skill(unit, weapon, attack, None, unit.square.distance(square))
        miss = 1 - _chance(skill)
        free = specials.free_rerolls(unit, weapon, attack)
        dice = weapon.roa - specials.automatic_strikes(weapon)
        strikes = 1.0 if dice < weapon.roa else 1 - miss ** (dice + min(free, dice))
        value = 0.0
        for enemy in caught:
            blast = hit_odds(
                0, 1, BARREL_DAMAGE, 0, 1, 0, False, enemy.card.arm, specials.save_rerolls(enemy)
            )
            value += self.gain(enemy, *expected_loss(blast, enemy.hit))
        return strikes * value

    def _turret_odds(self, target: UnitState) -> tuple[float, float]:
        odds = hit_odds(2, 3, 1, 1, 0, 0, False, target.card.arm, specials.save_rerolls(target))
        return expected_loss(odds, target.hit)

    def _attack_from(
        self,
        unit: UnitState,
        square: Square,
        weapon: Weapon,
        kind: str,
        target: UnitState,
        occupancy: dict[Square, str],
    ) -> float:
        assert target.square is not None
        if kind == MELEE:
            cover = False
            support = any(
                mate is not unit
                and mate.square is not None
                and adjacent(self.state.board, mate.square, target.square)
                for mate in self.friends
            )
        else:
            support = False
            cover = sight(self.state.board, square, target.square, set(occupancy)).cover
        odds = attack_odds(
            unit, weapon, kind, target, square.distance(target.square), cover, support
        )
        expected, out = expected_loss(odds, target.hit)
        return ATTACK_BASE + self.gain(target, expected, out)

    def gain(self, target: UnitState, expected: float, out: float) -> float:
        """What taking `expected` HIT off the target, and taking it out with chance `out`,
        is worth."""
        worth = self.worth(target)
        return worth * expected / max(1, target.card.hit) + worth * out

    def _blast_extra(self, unit: UnitState, square: Square | None) -> float:
        """A blast also hits the units around its target: good for enemies, bad for friends."""
        if square is None:
            return 0.0
        extra = 0.0
        for other in self.state.on_map():
            if other.square is None or other.square == square or other is unit:
                continue
            if other.square.distance(square) == 1 and not other.card.has("BLS"):
                extra += (-1.5 if other.side == self.side else 0.5) * self.worth(other) / 2
        return extra

    def worth(self, unit: UnitState) -> float:
        """How much a unit matters: how hard it hits, plus a Leader's and an objective
        holder's part in the mission."""
        known = self._worth.get(unit.id)
        if known is not None:
            return known
        punch = max(
            (
                _punch(unit, weapon, kind) * _attacks_per_activation(unit, kind)
                for kind in (MELEE, RANGED)
                for weapon in unit.card.weapons_of(kind)
            ),
            default=0.0,
        )
        mission = self.state.mission
        worth = 2.0 + punch
        if unit.card.is_leader:
            worth += 3.0 if mission.scores("leader") else 1.0
        if unit.carrying is not None:
            worth += 3.0
        if self._holds_objective(unit):
            worth += HOLD_VALUE
        worth += sum(rule.points for rule in mission.scoring if rule.kind == "take_out")
        self._worth[unit.id] = worth
        return worth

    # --- moving ---
    def move_value(self, unit: UnitState, command: commands.Move | commands.Dash) -> float:
        """The ground gained, the danger escaped and the attack made possible by the move."""
        assert unit.square is not None
        destination = Square.parse(command.square)
        here = self.position(unit, unit.square)
        there = self.position(unit, destination)
        follow = self.follow_up(unit, command, destination)
        return (
            there - here + FOLLOW_UP * follow - (0.05 if isinstance(command, commands.Dash) else 0)
        )

    def position(self, unit: UnitState, square: Square) -> float:
        """How good it is for the unit to stand on `square`: near its goal, out of danger, on
        an objective it would hold."""
        distance = self.goal_distance(unit, square)
        value = -STEP_VALUE * distance
        value -= DANGER_WEIGHT * self.danger(unit, square) * self.worth(unit) / unit.card.hit
        if (
            self.wants_objectives
            and square in self.state.objectives
            and not self._near_enemy(square)
        ):
            value += HOLD_VALUE
        if _mission_stay_at(self.state, unit, square):
            value += HOLD_VALUE
        return value

    def follow_up(
        self, unit: UnitState, command: commands.Move | commands.Dash, square: Square
    ) -> float:
        """The best attack the unit can still pay for after this move, from `square`."""
        activation = self.state.activation or Activation(unit.id, specials.activation_act(unit))
        action = MOVE if isinstance(command, commands.Move) else DASH
        spent = action_cost(unit, activation, action) - command.orders
        act_left = activation.act_left - spent
        orders_left = self.state.squads[self.side].orders - command.orders
        key = (unit.id, square, act_left * 100 + orders_left)
        known = self._follow.get(key)
        if known is not None:
            return known
        best = 0.0
        occupancy = dict(self.occupancy)
        assert unit.square is not None
        occupancy.pop(unit.square, None)
        occupancy[square] = str(self.side)
        for kind in (MELEE, RANGED):
            for weapon in usable_weapons(unit, kind):
                cost = action_cost(unit, activation, attack_action(kind), weapon)
                orders = max(0, cost - act_left)
                if orders > orders_left:
                    continue
                for target in self.enemies:
                    if not self._can_attack(unit, square, weapon, kind, target, occupancy):
                        continue
                    value = self._attack_from(unit, square, weapon, kind, target, occupancy)
                    best = max(best, value - ORDER_COST * orders)
        self._follow[key] = best
        return best

    def _can_attack(
        self,
        unit: UnitState,
        square: Square,
        weapon: Weapon,
        kind: str,
        target: UnitState,
        occupancy: dict[Square, str],
    ) -> bool:
        assert target.square is not None
        if kind == MELEE:
            return adjacent(self.state.board, square, target.square)
        if square.distance(target.square) > weapon.range:
            return False
        problem = ranged_target_problem(
            self.state.board, square, target.square, weapon.range, occupancy, str(self.side)
        )
        return problem is None

    def danger(self, unit: UnitState, square: Square) -> float:
        """The HIT the enemy could take off the unit on `square` before it acts again: each
        enemy's best attack on it from where it stands (or after a move, counted at half),
        the strongest in full and the others at half (each enemy attacks one unit)."""
        key = (unit.id, square)
        known = self._danger.get(key)
        if known is not None:
            return known
        threats = sorted(
            (self._threat(enemy, unit, square) for enemy in self.enemies), reverse=True
        )
        raw = (threats[0] + 0.5 * sum(threats[1:])) if threats else 0.0
        total = unit.hit * (1 - math.exp(-raw / max(1, unit.hit)))  # never more than its HIT
        self._danger[key] = total
        return total

    def _threat(self, enemy: UnitState, unit: UnitState, square: Square) -> float:
        assert enemy.square is not None
        distance = enemy.square.distance(square)
        reach = 3 + (1 if enemy.card.has("SWF") else 0)
        soon = 1.0 if enemy.status == READY else 0.6
        best = 0.0
        if distance <= reach + 1:
            near = 1.0 if distance <= 1 else 0.75
            for weapon in usable_weapons(enemy, MELEE):
                odds = attack_odds(enemy, weapon, MELEE, unit, 1, False, False)
                attacks = _attacks_per_activation(enemy, MELEE) if distance <= 1 else 1
                best = max(best, near * attacks * expected_loss(odds, unit.hit)[0])
        guns = [w for w in usable_weapons(enemy, RANGED) if distance <= w.range + reach]
        if distance >= 2 and guns:
            visible, cover = terrain_sight(self.state.board, enemy.square, square)
            for weapon in guns:
                odds = attack_odds(enemy, weapon, RANGED, unit, distance, cover, False)
                loss = expected_loss(odds, unit.hit)[0]
                if visible and distance <= weapon.range:
                    loss *= _attacks_per_activation(enemy, RANGED)
                else:  # it must move first, and find a line of sight if it has none
                    loss *= MOVE_TO_SHOOT if visible else FIND_A_LINE
                best = max(best, loss)
        return soon * best

    def goal_distance(self, unit: UnitState, square: Square) -> int:
        """Walking distance from `square` to the unit's nearest goal: an objective its squad does
        not hold, a goal of the mission, or (for a melee fighter) the nearest enemy."""
        goals, to_enemy = self._goals_of(unit)
        if not goals:
            return 0
        mover = mover_of(unit)
        best = FAR
        for goal in goals:
            costs = _walking(self.state, goal, mover)
            cost = costs.get(square, FAR)
            if to_enemy:
                cost = max(0, cost - 1)  # adjacent to the enemy is where a fighter wants to be
            best = min(best, cost)
        return best

    def _goals_of(self, unit: UnitState) -> tuple[list[Square], bool]:
        known = self._goals.get(unit.id)
        if known is not None:
            return known
        state = self.state
        enemies = [e.square for e in self.enemies if e.square is not None]
        others = {u.square for u in self.friends if u is not unit}
        mission_goals = _mission_goals(state, unit, others)
        goals = [
            s
            for n, s in enumerate(state.objectives)
            if self.wants_objectives and self.control[n] != unit.side and s not in others
        ] + mission_goals
        to_enemy = False
        if not goals or (_prefers_melee(unit) and enemies):
            goals = enemies + _on_the_way(unit, mission_goals)
            to_enemy = bool(enemies)
        found = (sorted(set(goals)), to_enemy)
        self._goals[unit.id] = found
        return found

    def _near_enemy(self, square: Square) -> bool:
        board = self.state.board
        return any(e.square is not None and adjacent(board, square, e.square) for e in self.enemies)

    def _holds_objective(self, unit: UnitState) -> bool:
        return self.wants_objectives and any(
            unit.square == square and self.control[n] == unit.side
            for n, square in enumerate(self.state.objectives)
        )


def _punch(unit: UnitState, weapon: Weapon, kind: str) -> float:
    """The HIT one attack with the weapon takes off a typical target (ARM 3, plenty of HIT)."""
    skill = unit.card.msk if kind == MELEE else unit.card.rsk
    odds = hit_odds(
        weapon.roa, skill, weapon.dam, specials.natural_one_bonus(weapon), 0, 0, False, 3, 0
    )
    return expected_loss(odds, 9)[0]


# What the terrain alone lets one square see of another, shared by every match in the process
# on the same terrain (the engine remembers sight per match; the automatic player asks about
# many more squares, mostly the same ones match after match).
_VIEWS: dict[tuple[object, ...], dict[tuple[Square, Square], tuple[bool, bool]]] = {}
_VIEW_MAPS = 8  # terrains remembered at once
_VIEW_PAIRS = 100_000  # pairs remembered per terrain


def terrain_sight(board: Board, attacker: Square, target: Square) -> tuple[bool, bool]:
    """Line of sight and cover from `attacker` to `target` with no units in the way."""
    views = board.memo("autoplayer-views", lambda: _views_of(board))
    pair = (attacker, target)
    known = views.get(pair)
    if known is None:
        if len(views) >= _VIEW_PAIRS:
            views.clear()
        seen = sight(board, attacker, target, ())
        known = views[pair] = (seen.visible, seen.cover)
    return known


def _views_of(board: Board) -> dict[tuple[Square, Square], tuple[bool, bool]]:
    key = _terrain_key(board)
    views = _VIEWS.get(key)
    if views is None:
        if len(_VIEWS) >= _VIEW_MAPS:
            del _VIEWS[next(iter(_VIEWS))]
        views = _VIEWS[key] = {}
    return views


def _terrain_key(board: Board) -> tuple[object, ...]:
    """Everything sight depends on: the squares, their levels, the edges, the doors."""
    cells = tuple(
        (board.is_open(s), board.is_open(s) and board.level(s), s in board.difficult)
        for s in board.squares()
    )
    edges = tuple(sorted((key, feature) for key, feature in board.edges()))
    doors = tuple(sorted(board.door_states().items()))
    return (board.width, board.height, cells, edges, doors)


def _walking(state: MatchState, goal: Square, mover: Mover) -> dict[Square, int]:
    """Movement points from every square to `goal` on the terrain alone (walked from the goal:
    near enough the other way round), remembered until a door opens or closes."""
    flags = Mover("", mover.fly, mover.ranger, True)

    def search() -> dict[Square, int]:
        routes = reachable(state.board, goal, SEARCH_BUDGET, flags, {})
        return {square: route.cost for square, route in routes.items()}

    return state.board.memo(("autoplayer-walking", goal, flags), search)


def _prefers_melee(unit: UnitState) -> bool:
    """A unit whose melee hurts more than its shooting goes for the enemy, not the objectives."""

    def punch(kind: str, skill: int) -> float:
        hits = sum(1 for face in range(1, 7) if succeeds(face, skill)) / 6
        return max((w.roa * w.dam * hits for w in unit.card.weapons_of(kind)), default=0.0)

    return punch(MELEE, unit.card.msk) > punch(RANGED, unit.card.rsk)


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
            target = mission.target_area(rule, unit.side)
            goals += [
                s
                for s in state.board.squares()
                if state.board.is_open(s) and target.contains(state.board, s) and s not in others
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


def _mission_stay_at(state: MatchState, unit: UnitState, square: Square) -> bool:
    """Where the mission scores for standing: in a `zone` target, or home with a marker."""
    mission = state.mission
    for rule in mission.scoring:
        if rule.kind == "zone" and mission.target_area(rule, unit.side).contains(
            state.board, square
        ):
            return True
    home = mission.zones[unit.side]
    return (
        mission.scores("carry") and unit.carrying is not None and home.contains(state.board, square)
    )


def _mission_action_value(state: MatchState, command: commands.MissionAction) -> float:
    """Arming a beacon scores every turn from now on; stripping a crate scores when crates do."""
    rule = next(r for r in state.mission.actions if r.name == command.action)
    if rule.effect == "arm":
        return 5.0
    return 3.0 if state.mission.scores("crates") else 0.5
