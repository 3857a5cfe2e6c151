"""The automatic player of the group rules (practice matches, missed deadlines, the demo).

It deploys each Company in formation, fighters in the front rows and shooters behind; chooses
the ambition its Company can best meet; answers an Attack by its standing orders; sends each
Reckless Group at the enemy it hurts most; then, in its side's turn, gives the order worth most
(times the chance its activation test passes, since a failure ends the whole side's turn):
Shoot the target that loses most R, Attack when its pool beats the defender's, Retreat from a
losing melee, Cast and Summon when it can, otherwise Move toward the nearest objective or enemy
(the Move squares already keep Cohesion and 3" from enemy Groups); and ends its part of the turn
when nothing is worth the risk.

Every choice comes from `orders` (what the engine itself checks), so it never sends a command
the engine refuses; it is deterministic (no dice of its own), so a record replays the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from skirmbot.rules.commands import Command, Deploy, Melee, Shoot
from skirmbot.rules.companies import geometry, orders, resilience, scoring
from skirmbot.rules.companies.captains import activation_minimum, mi_of, t_of
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
from skirmbot.rules.companies.scenarios import BREAKTHROUGH, OBJECTIVES
from skirmbot.rules.companies.state import Group, State
from skirmbot.rules.squares import Square

POOL = 12  # dice in a Group's pool (Shooting, Attacking 2)
BLOODIED_POOL = 6
SHAKEN_HITS = 6  # a Shaken Group hits only on 6 (Shaken Groups)
FACES = 6
# Values in R the enemy is expected to lose; an order below WORTH (after its activation
# chance) is not worth risking the side's turn for.
HEX_VALUE = Fraction(3, 2)  # 1 R and a Resilience test
SUMMON_VALUE = Fraction(3)  # a new Group for nothing
MOVE_VALUE = Fraction(1, 2)  # closing in: worth a little, after every blow
RETREAT_VALUE = Fraction(1)
WORTH = Fraction(1, 5)
AMBITION_CHANCE = {  # how likely an ambition is met, before the Company is looked at
    scoring.GLORY: Fraction(1, 2),
    scoring.REGICIDE: Fraction(1, 3),
    scoring.GROUND: Fraction(1, 2),
}
OTHER_AMBITION = Fraction(1, 4)  # an ambition of content this player does not know


# --- deployment ---------------------------------------------------------------------------------
def deployment(state: State, seat: int) -> Deploy:
    """Every Group of the seat's Company in its zone, each a line of models: fighters along the
    front rows, shooters behind them, spread across the zone from west to east."""
    zone = state.zones[seat]
    mine = [g for g in state.groups_of(seat) if not g.summoned]
    ordered = sorted(mine, key=behind)  # fighters first: they take the front rows
    columns = sorted({square.x for square in zone})
    taken: set[Square] = set()
    placements: dict[str, str] = {}
    for index, group in enumerate(ordered):
        aim = columns[(2 * index + 1) * len(columns) // (2 * len(ordered))] if columns else 0
        models = _place(state, group, zone, taken, aim)
        taken |= set(models)
        placements[group.id] = " ".join(str(square) for square in models)
    return Deploy(seat, placements)


def behind(group: Group) -> bool:
    """Shooters, and casters and summoners (weak in melee), deploy behind the fighters."""
    profile = group.profile
    return profile.mi is not None or profile.can(CAST) or profile.can(SUMMON)


def _depth(state: State, group: Group, square: Square) -> int:
    """How far from its own table edge a square is (side 0 deploys along the top)."""
    return square.y if group.side == 0 else state.board.height - 1 - square.y


def _place(
    state: State, group: Group, zone: frozenset[Square], taken: set[Square], aim: int
) -> tuple[Square, ...]:
    """The Group's squares: a line from the best anchor (fighters forward, shooters back, near
    column `aim`), else the nearest Cohesion the zone allows."""
    free = zone - taken
    deepest = max((_depth(state, group, s) for s in zone), default=0)

    def preference(square: Square) -> tuple[int, int, int, int]:
        depth = _depth(state, group, square)
        rank = depth if behind(group) else deepest - depth
        return rank, abs(square.x - aim), square.y, square.x

    count = group.profile.models
    anchors = sorted(free, key=preference)
    for anchor in anchors:
        line = tuple(Square(anchor.x + n, anchor.y) for n in range(count))
        if all(square in free for square in line):
            return line
    terrain = geometry.Terrain(state.board)
    for anchor in anchors:
        found = geometry.formation_at(terrain, anchor, count, free, taken)
        if found is not None:
            return found
    raise ValueError(f"{group.id} does not fit in its zone")  # check_zones rules this out


# --- what to send -------------------------------------------------------------------------------
def choose(state: State, seat: int) -> Command:
    """What the seat sends now: its deployment, its ambition, its answer to an Attack, a
    Reckless Attack, or the best order of its side's turn (EndTurn when none is worth it)."""
    player = state.seats[seat]
    if state.attackers is None and not player.placed:
        return deployment(state, seat)  # deployment is still secret: its Company first
    if state.round == 0 and player.ambition is None:
        return ChooseAmbition(seat, ambition(state, seat))
    pending = state.pending
    if pending is not None and state.group(pending.target).seat == seat:
        return Interrupt(seat, orders.standing_answer(state, seat, pending.trait))
    for group in orders.reckless_of(state, seat):
        targets = orders.attack_targets(state, group)
        if targets:
            best = max(targets, key=lambda target: _melee_value(state, group, target))
            return Melee(seat, group.id, best.id)
    if orders.seat_may_act(state, seat) is not None:
        return EndTurn(seat)
    return _best_order(state, seat) or EndTurn(seat)


@dataclass(frozen=True)
class Option:
    """An order the automatic player weighs: the R it is worth and its test's chance."""

    command: Command
    value: Fraction
    chance: Fraction

    @property
    def expected(self) -> Fraction:
        return self.value * self.chance


def _best_order(state: State, seat: int) -> Command | None:
    """The order worth most now, counting what a failed test costs: the side's turn ends, so
    no other Group of the side (teammates' too) gives an order; the surer orders go first.
    None when no order is worth the risk."""
    side = [
        (group, list(_options(state, group)))
        for other in orders.acting_seats(state)
        for group in state.groups_of(other)
        if orders.may_activate(state, group) is None
    ]
    best = {g.id: max((o.expected for o in options), default=Fraction(0)) for g, options in side}
    total = sum(best.values(), Fraction(0))

    def score(group: Group, option: Option) -> Fraction:
        return option.expected - (1 - option.chance) * (total - best[group.id])

    found = [(score(g, o), o) for g, options in side if g.seat == seat for o in options]
    if not found or max(o.expected for _, o in found) < WORTH:
        return None
    return max(found, key=lambda pair: pair[0])[1].command


def ambition(state: State, seat: int) -> str:
    """The ambition the seat's Company can best meet: each one's VP times how likely it looks."""
    mine = [g for g in state.groups_of(seat) if not g.summoned]
    fighters = sum(1 for g in mine if g.profile.me_attack is not None and g.profile.me_attack <= 4)
    fast = sum(1 for g in mine if g.profile.mo >= 7)
    chance = dict(AMBITION_CHANCE)
    chance[scoring.GLORY] += Fraction(fighters, 4 * max(1, len(mine)))
    chance[scoring.UNBROKEN] = Fraction(1, max(1, len(mine)))  # every Group must survive
    chance[scoring.GROUND] += Fraction(fast, 4 * max(1, len(mine)))
    known = state.catalogue.ambitions

    def worth(key: str) -> tuple[Fraction, str]:
        return known[key].vp * chance.get(key, OTHER_AMBITION), key

    return max(known, key=worth)


def _options(state: State, group: Group) -> Iterable[Option]:
    """Every order worth weighing for the Group, with its value times its test's chance."""
    seat = group.seat
    engaged = orders.in_melee(state, group)
    for target in orders.attack_targets(state, group):
        gain = _melee_value(state, group, target)
        if gain > 0:
            yield _tested(state, group, ATTACK, gain, Melee(seat, group.id, target.id))
    if engaged:
        losing = all(_melee_value(state, group, enemy) <= 0 for enemy in engaged)
        if losing and _retreat_is_clear(state, group, engaged[0]):
            yield _tested(state, group, RETREAT, RETREAT_VALUE, Retreat(seat, group.id))
        return
    for target in orders.shoot_targets(state, group):
        value = _shooting_value(state, group, target)
        yield _tested(state, group, SHOOT, value, Shoot(seat, group.id, target.id))
    for target in orders.cast_targets(state, group):
        yield _tested(state, group, CAST, HEX_VALUE, Cast(seat, group.id, target.id))
    if group.profile.can(SUMMON) and not group.has_summoned:
        places = orders.summon_squares(state, group)
        if places:
            goals = goals_of(state, group) or list(group.models)
            square = min(places, key=lambda s: geometry.group_distance(places[s], goals))
            yield _tested(state, group, SUMMON, SUMMON_VALUE, Summon(seat, group.id, str(square)))
    move = _advance(state, group)
    if move is not None:
        yield _tested(state, group, MOVE, MOVE_VALUE, move)


def _retreat_is_clear(state: State, group: Group, cause: Group) -> bool:
    """Whether a Retreat order would take the Group away whole: not blocked (a blocked Retreat
    may cost R) and not off the table (it would Rout). The engine's cause is the first enemy
    Group in contact."""
    if not orders.can_retreat(state, group):
        return False
    move = resilience.retreat_move(state, group, cause)
    return not (move.blocked or move.off_table)


def _tested(state: State, group: Group, order: str, value: Fraction, command: Command) -> Option:
    return Option(command, value, passing(activation_minimum(state, group, order)))


def passing(minimum: int) -> Fraction:
    """The chance 2d6 meets `minimum` (Activation 3)."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= minimum)
    return Fraction(ways, 36)


def _hit(face: int) -> Fraction:
    """The chance one die meets `face`."""
    return Fraction(FACES + 1 - min(max(face, 1), FACES + 1), FACES)


def _pool(group: Group) -> int:
    return BLOODIED_POOL if group.bloodied else POOL


def _r_lost(hits: Fraction, toughness: int, r: int) -> Fraction:
    """Expected R lost to `hits` (every T hits take 1 R), no more than it has."""
    return min(hits / max(1, toughness), Fraction(r))


def _shooting_value(state: State, shooter: Group, target: Group) -> Fraction:
    """Expected R the target loses to the shooter's pool (Cover: each hit re-rolled once)."""
    mi = mi_of(state, shooter)
    if mi is None:
        return Fraction(0)
    chance = _hit(mi)
    if geometry.Terrain(state.board).in_cover(target.models):
        chance *= chance
    lost = _r_lost(_pool(shooter) * chance, t_of(state, target), target.r)
    return lost + _finishing(target, lost)


def _melee_value(state: State, attacker: Group, target: Group) -> Fraction:
    """Expected R the target loses less what the attacker loses in the melee."""
    assert attacker.profile.me_attack is not None
    defend = SHAKEN_HITS if target.shaken else target.profile.me_defend
    dealt = _r_lost(
        _pool(attacker) * _hit(attacker.profile.me_attack), t_of(state, target), target.r
    )
    taken = _r_lost(_pool(target) * _hit(defend), t_of(state, attacker), attacker.r)
    return dealt + _finishing(target, dealt) - taken


def _finishing(target: Group, lost: Fraction) -> Fraction:
    """A bonus for blows that may Rout: the fewer R the target has left, the more it is worth;
    its Captain's Group most of all."""
    left = max(Fraction(1), target.r - lost)
    bonus = Fraction(1, 1) / left
    return bonus * 2 if target.captain else bonus


# --- moving -------------------------------------------------------------------------------------
def _advance(state: State, group: Group) -> Move | None:
    """The Move that brings the Group nearest its goal, if it gets any nearer (a shooter that
    already has a target in range stays put)."""
    if orders.shoot_targets(state, group):
        return None
    found = orders.move_squares(state, group)
    goals = goals_of(state, group)
    if not found or not goals:
        return None
    here = geometry.group_distance(group.models, goals)
    best = min(
        found,
        key=lambda square: (geometry.group_distance(found[square], goals), square.y, square.x),
    )
    if geometry.group_distance(found[best], goals) >= here:
        return None
    return Move(group.seat, group.id, str(best))


def goals_of(state: State, group: Group) -> list[Square]:
    """Where the Group heads: every enemy model; the objectives its side does not hold yet, or
    that it holds itself (so it stays), when the scenario scores them; the table's centre for a
    Ground ambition; the enemy's edge in a breakthrough's last rounds."""
    goals = [square for enemy in state.enemies_of(group) for square in enemy.models]
    kinds = {s.kind for s in state.scenario.scoring}
    if OBJECTIVES in kinds:
        goals += [o for o in state.objectives if _worth_holding(state, group, o)]
    if state.seats[group.seat].ambition == scoring.GROUND:
        goals += scoring.centre(state)
    if BREAKTHROUGH in kinds and state.round >= state.scenario.rounds - 1:
        row = state.board.height - 1 if group.side == 0 else 0
        goals += [Square(x, row) for x in range(state.board.width)]
    return goals


def _worth_holding(state: State, group: Group, objective: Square) -> bool:
    near = geometry.group_distance(group.models, [objective]) <= scoring.REACH
    return near or scoring.holder(state, objective) != group.side
