"""The automatic player of the infantry rules (practice matches, missed deadlines, the demo).

It deploys its squad spread along its zone, behind low walls and hedges that face the enemy;
answers a chance to fire by the arc's own order (`arcs.wants`, what a missed prompt does); and,
in its side's turn, activates its troopers front first, each one in the order a wargamer plays
a trooper: a melee attack on an adjacent enemy (a prone one first); a grenade at two or more
enemies within 2 dots of one dot, or at one behind cover, when the throw is likely to hit and
no friend is in the blast; a move to the dot worth most - seeing an enemy, cover toward the
nearest one, closer to it - less the hits expected from enemy arcs on the way (the route with
the fewest is searched, so it walks round an arc where it can); prone where its own low wall
would not block its line; then a firing arc toward the nearest enemy (60 degrees, 150 for an
SMG close in, order "every"); and `end` when nothing is left. A side not ahead on PV closes in
harder and fears arcs less as the rounds run out, so matches do not stall.

It reads the map through the same pure modules the engine uses (terrain, sight, combat, blast,
arcs) and checks every order's AP, phase and target as the engine does, so the engine accepts
what it sends; it keeps no dice and breaks every tie by name, so the same state always gets the
same command (sight lines are remembered per map: sight is pure, and the costly part).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from skirmbot.rules.commands import Activate, Command, Deploy, EndActivation, Melee
from skirmbot.rules.dots import Direction, Dot, bearing, in_arc
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.infantry import arcs, blast, combat, kit, terrain
from skirmbot.rules.infantry import melee as melees
from skirmbot.rules.infantry.arms import GRENADE, Explosive, Weapon
from skirmbot.rules.infantry.card import Mark, damage_modifier
from skirmbot.rules.infantry.commands import Arc as ArcOrder
from skirmbot.rules.infantry.commands import ChangeWeapon, Climb, Move, Prone, Stand, Throw
from skirmbot.rules.infantry.engine import default_answer
from skirmbot.rules.infantry.maps import DotMap, Feature, Ground
from skirmbot.rules.infantry.setup import zone_dots, zone_rows
from skirmbot.rules.infantry.sight import Body, Sight, sight
from skirmbot.rules.infantry.state import EVERY, FIRST, HOLD, SHORT, Arc, State, Trooper

SATCHEL = "Satchel Charge"
ARC_AP = arcs.ARC_AP  # the Firing Arc AP Costs table
CHANGE_AP = kit.CHANGE_AP  # Special Actions: Change Weapon
PRONE_AP, STAND_AP = terrain.MOVE_COSTS["prone"], terrain.MOVE_COSTS["stand"]
CLIMB_AP = terrain.MOVE_COSTS["level"]
# Throws: never so close that the blast (2 dots) reaches the thrower; never at a dot a friend
# stands within the blast of; only when the 2D6 check is this likely.
NEAREST_THROW = blast.BLAST_REACH + 1
THROW_ODDS = Fraction(1, 2)
# Where a trooper wants to stand, in points: seeing an enemy matters most, then cover toward
# the nearest enemy, then closing in (a dot at a time, more each round while its side is not
# ahead on PV: the match is scored at the end); each hit expected from an enemy arc on the way
# costs more than any of them.
SEES = 6
COVER = 3
CLOSING = Fraction(1)
PRESSURE = Fraction(1, 2)  # more closing worth a round while not ahead
RISK = 8
HUGGING = 2  # standing next to an able enemy: it melees first (its activation comes first)
# The distance a trooper closes to: its short range, within these; 4 dots is a grenade's
# throw after changing to it (3 AP + 4 of a regular's 7).
CLOSEST, FARTHEST = 3, 4
SHORTLIST = 5  # destinations whose sight of the enemy is drawn (sight is the costly part)
SIGHTED = 2  # the nearest enemies a destination's sight is drawn to
BEYOND_AP = 2  # how far past a climb a walk's end on stairs or a ladder looks
SMG_CLOSE = 3  # an SMG-like weapon whose short range is within this many dots sets 150 degrees
_COVERING = (Feature.LOW, Feature.LIGHT, Feature.WINDOW, Feature.WALL)
_SOLID_LOW = (Feature.LOW, Feature.WINDOW)  # blocks a prone trooper's own line (LoS ¶2)


# --- what to send -------------------------------------------------------------------------------
def choose(state: State, seat: int) -> Command:
    """What `seat` sends now: its deployment, its answer to a chance its arc has, or the next
    order of its side's turn (`end` when nothing is left to do)."""
    if not state.deployed[seat]:
        return deployment(state, seat)
    if state.moving is not None:
        return answer(state, seat)
    if state.over or state.to_act != seat:
        return EndActivation(seat)
    if state.activating is not None:
        trooper = state.trooper(state.activating)
        if trooper.seat == seat:
            return _act(_Look(state, trooper))
    waiting = next_trooper(state, seat)
    return EndActivation(seat) if waiting is None else Activate(seat, waiting.id)


def answer(state: State, seat: int) -> Command:
    """The answer of the arc owner the paused move waits for: fire as the arc's order says,
    the engine's own reading (`engine.default_answer`, what a missed prompt answers)."""
    found = default_answer(state)
    if found is None or found.side != seat:
        return EndActivation(seat)  # nothing waits for this seat's answer
    return found


def next_trooper(state: State, seat: int) -> Trooper | None:
    """The seat's next trooper to activate: the one nearest the enemy first (it has the most
    to do), ties by name; None when all have."""
    waiting = [t for t in state.troopers_of(seat) if t.able and t.on_map and not t.activated]
    enemies = _enemies(state, seat)
    if not waiting:
        return None
    return min(waiting, key=lambda t: (_nearest_distance(t, enemies), t.id))


@dataclass
class _Look:
    """One trooper's activation as the automatic player sees it: the trooper, its enemies and
    friends on the map, and sight between positions (remembered per map: `_sight`)."""

    state: State
    me: Trooper
    enemies: list[Trooper] = field(init=False)
    friends: list[Trooper] = field(init=False)

    def __post_init__(self) -> None:
        self.enemies = _enemies(self.state, self.me.seat)
        self.friends = [t for t in self.state.troopers_of(self.me.seat) if t.able and t.on_map]

    @property
    def board(self) -> DotMap:
        return self.state.board

    @property
    def here(self) -> Dot:
        assert self.me.dot is not None
        return self.me.dot

    def end(self) -> Command:
        return EndActivation(self.me.seat, self.me.id, "ended by the automatic player")

    def sees(self, a: Body, b: Body) -> Sight:
        return _sight(self.board, a, b)

    def body(self, trooper: Trooper) -> Body:
        assert trooper.dot is not None
        return Body(trooper.dot, trooper.level, trooper.prone)

    def weapon(self) -> Weapon | None:
        """The active weapon when it is a ranged one (an arc needs one)."""
        found = self.state.arms.weapons.get(self.me.active)
        return found if found is not None and found.long is not None else None

    def nearest(self, dot: Dot) -> Trooper:
        return min(self.enemies, key=lambda e: (_distance(dot, e), e.id))


def _act(look: _Look) -> Command:
    """The activating trooper's next order, or `end`."""
    me = look.me
    if me.left <= 0 or not look.enemies:
        return look.end()
    if me.active in look.state.arms.explosives:
        return _best_throw(look, me.active, changing=False) or _change_back(look) or look.end()
    if not me.combat:
        for order in (_melee(look), _grenade(look), _movement(look), _prone(look)):
            if order is not None:
                return order
    return _arc(look) or look.end()


# --- melee ----------------------------------------------------------------------------------------
def _melee(look: _Look) -> Command | None:
    """Melee ¶1: 5 AP on an enemy the engine lets it attack (beside it, same level, no wall
    between), a prone one first (-1 to the target number), then the most hurt; with the
    weapon that hits hardest."""
    me = look.me
    if me.left < combat.MELEE_AP:
        return None
    near = [e for e in look.enemies if _in_reach_of_melee(look, e)]
    if not near:
        return None
    target = min(near, key=lambda e: (not e.prone, -_hurt(e), e.id))
    return Melee(me.seat, me.id, target.id, _melee_weapon(look))


def _in_reach_of_melee(look: _Look, enemy: Trooper) -> bool:
    """The engine's own check (melee.check), so a melee it sends is one the engine takes."""
    try:
        melees.check(look.state, look.me, enemy.id, None)
    except IllegalCommand:
        return False
    return True


def _hurt(trooper: Trooper) -> int:
    return sum(1 for mark in trooper.track.cells if mark is not Mark.CLEAN)


def _melee_weapon(look: _Look) -> str:
    """The offered melee weapon (melee.offered) with the most damage, lethal points counted
    twice (armour stops bludgeoning); ties by name."""
    me = look.me

    def worth(name: str) -> int:
        lethal, blunt = melees.row(look.state, name).damage(me.max_ap)
        return 2 * lethal + blunt

    offered = sorted(melees.offered(look.state, me))
    return max(offered, key=lambda name: (worth(name), -offered.index(name)))


# --- explosives -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Throw:
    target: Dot
    value: Fraction  # the blast damage expected on enemies
    odds: Fraction


def _grenade(look: _Look) -> Command | None:
    """Change to an explosive (3 AP) when a throw worth it can still be paid for after it."""
    for weapon in _explosives_carried(look.me):
        if _best_throw(look, weapon, changing=True) is not None:
            return ChangeWeapon(look.me.seat, look.me.id, weapon)
    return None


def _change_back(look: _Look) -> Command | None:
    """Back to the weapon it switched from (3 AP, during movement) when the throw it changed
    for is no longer worth it: an explosive cannot hold a firing arc."""
    me = look.me
    back = me.switched_from or me.primary
    if me.combat or me.left < CHANGE_AP or back is None:
        return None
    return ChangeWeapon(me.seat, me.id, back)


def _explosives_carried(me: Trooper) -> list[str]:
    carried = [GRENADE] if me.grenades > 0 else []
    return carried + ([SATCHEL] if me.secondary == SATCHEL else [])


def _best_throw(look: _Look, weapon: str, changing: bool) -> Throw | None:
    """The throw of `weapon` worth most, if one is worth it: at 2 or more enemies within the
    blast, or at one that has cover from the thrower; no friend within the blast; the check
    (Explosives ¶5: the AP thrown plus modifiers) at least THROW_ODDS likely."""
    me = look.me
    explosive = look.state.arms.explosive(weapon)
    budget = me.left - (CHANGE_AP if changing else 0)
    per_dot = explosive.ap_per_dot * (blast.PRONE_FACTOR if me.prone else 1)
    farthest = budget // per_dot
    weighed = [_weigh_throw(look, explosive, target) for target in _throw_targets(look, farthest)]
    worth_it = [found for found in weighed if found is not None]
    if not worth_it:
        return None
    best = max(worth_it, key=lambda found: (found.value * found.odds, _late(found.target)))
    return Throw(me.seat, me.id, str(best.target))


def _late(dot: Dot) -> tuple[int, int]:
    """A tie-break that prefers the dot earlier by name (C4 before D4)."""
    return -dot.x, -dot.y


def _throw_targets(look: _Look, farthest: int) -> list[Dot]:
    """The dots on and next to enemies on the thrower's level within the throw's reach."""
    dots: set[Dot] = set()
    for enemy in look.enemies:
        assert enemy.dot is not None
        if enemy.level != look.me.level:
            continue
        for dot in enemy.dot.within(1):
            if NEAREST_THROW <= look.here.distance(dot) <= farthest and look.board.has_level(
                dot, look.me.level
            ):
                dots.add(dot)
    return sorted(dots)


def _weigh_throw(look: _Look, explosive: Explosive, target: Dot) -> _Throw | None:
    me = look.me
    values = explosive.blast
    level = me.level
    if any(_blast_reaches(target, level, friend) for friend in look.friends):
        return None
    hit = [e for e in look.enemies if _blast_reaches(target, level, e)]
    covered = [e for e in hit if _has_cover(look, e)]
    if len(hit) < 2 and not covered:
        return None
    line = look.sees(look.body(me), Body(target, level))
    if not line.clear:
        return None
    ap = blast.throw_ap(look.here.distance(target), explosive.ap_per_dot, me.prone)
    number = blast.throw_target_number(
        ap_used=ap,
        damage_modifier=damage_modifier(me.track),
        cover=line.cover,
        thrower_prone=me.prone,
    )
    odds = combat.odds(number)
    if odds < THROW_ODDS:
        return None
    value = Fraction(sum(blast.blast_value(values, _blast_distance(target, level, e)) for e in hit))
    return _Throw(target, value, odds)


def _blast_distance(centre: Dot, level: int, trooper: Trooper) -> int:
    assert trooper.dot is not None
    return blast.blast_distance(centre, trooper.dot, trooper.level - level)


def _blast_reaches(centre: Dot, level: int, trooper: Trooper) -> bool:
    return _blast_distance(centre, level, trooper) <= blast.BLAST_REACH


def _has_cover(look: _Look, enemy: Trooper) -> bool:
    """The enemy is behind cover from the thrower: out of sight, or with cover on the line."""
    line = look.sees(look.body(look.me), look.body(enemy))
    return not line.clear or line.cover > 0


# --- movement -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Route:
    dot: Dot
    level: int
    risk: Fraction  # hits expected from enemy arcs' chances on the way (the end included)
    ap: int
    steps: tuple[Dot, ...] = ()  # the dots walked after the start, in order
    climb: int | None = None  # the level climbed to first, on the start's stairs or ladder


def _movement(look: _Look) -> Command | None:
    """A move to the best position it can reach keeping AP for its arc - walking, or climbing
    the stairs or ladder it stands on first - or Stand to make it (a prone trooper moves
    standing); None when staying is as good. A trooper may move again after a move, but only
    to a position worth strictly more than the one it stands on, so it stops."""
    me = look.me
    # Room for the narrowest arc after the move (the arc is as wide as what is left pays for).
    reserve = ARC_AP[30] if look.weapon() is not None else 0
    stand = STAND_AP if me.prone else 0
    # Standing up and going prone count as movement too (the engine's cap of 8).
    budget = min(terrain.MOVE_CAP - me.moved, me.left - reserve) - stand
    if budget <= 0:
        return None
    best = _best_route(look, budget)
    if best is None:
        return None
    if me.prone:
        return Stand(me.seat, me.id)
    if best.climb is not None:
        return Climb(me.seat, me.id, best.climb)
    return Move(me.seat, me.id, str(best.dot), " ".join(str(dot) for dot in best.steps))


def _best_route(look: _Look, budget: int) -> _Route | None:
    """The route to the position worth most, when it is worth more than staying: the best of
    a shortlist by the worth without sight, then with it."""
    routes = _routes(look, look.here, look.me.level, budget) + _climbs(look, budget)
    if not routes:
        return None
    cheap = sorted(routes, key=lambda r: (-_cheap_worth(look, r), r.ap, _late(r.dot), r.level))
    # Stairs and ladders are worth what their climb leads to: always weighed.
    stairs = [r for r in cheap[SHORTLIST:] if r.climb is None and _climbable(look.board, r.dot)]
    shortlist = cheap[:SHORTLIST] + stairs[:SHORTLIST]
    stay = _worth(look, _Route(look.here, look.me.level, Fraction(0), 0), potential=False)
    best = max(shortlist, key=lambda r: (_worth(look, r), -r.ap, _late(r.dot), -r.level))
    return best if _worth(look, best) > stay else None


def _climbs(look: _Look, budget: int) -> list[_Route]:
    """Basic Movement ¶4: on stairs or a ladder, up or down a level (3 AP), then the routes
    from there at that level."""
    me = look.me
    found: list[_Route] = []
    for to in (me.level + 1, me.level - 1):
        cost = terrain.climb_cost(look.board, look.here, me.level, to)
        if cost is None or cost > budget or look.state.standing_at(look.here, to) is not None:
            continue
        risk = _Danger(look, to).at(look.here)
        found.append(_Route(look.here, to, risk, cost, (), to))
        for route in _routes(look, look.here, to, budget - cost):
            found.append(_Route(route.dot, to, risk + route.risk, cost + route.ap, route.steps, to))
    return found


def _routes(look: _Look, start: Dot, level: int, budget: int) -> list[_Route]:
    """For each dot within `budget` movement AP of `start` (standing, at `level`), the route
    with the fewest hits expected from enemy arcs, then the fewest AP: a search over (dot,
    risk) in that order, so a riskier route is kept only if it is cheaper."""
    taken = {t.dot for t in look.state.troopers if t.able and t.dot and t.level == level}
    danger = _Danger(look, level)
    queue: list[tuple[Fraction, int, Dot, tuple[Dot, ...]]] = [(Fraction(0), 0, start, ())]
    best_ap: dict[Dot, int] = {}
    found: list[_Route] = []
    while queue:
        risk, ap, dot, steps = heapq.heappop(queue)
        if dot in best_ap and best_ap[dot] <= ap:
            continue  # reached already with no more risk and no more AP
        best_ap[dot] = ap
        if dot != start:
            found.append(_Route(dot, level, risk, ap, steps))
        for to in dot.neighbours():
            if to in taken or to == start:
                continue
            cost = terrain.step_cost(look.board, dot, to, level, False)
            if cost is None or ap + cost > budget:
                continue
            heapq.heappush(queue, (risk + danger.at(to), ap + cost, to, (*steps, to)))
    return found


class _Danger:
    """The hits expected at a standing trooper entering a dot at `level`: each enemy arc that
    gets a chance there (plan section 3) and would fire by its order, times the shot's odds
    (Resolving Fire ¶4-5); drawn once per dot."""

    def __init__(self, look: _Look, level: int) -> None:
        self.look = look
        self.level = level
        self.arcs = [arc for arc in look.state.arcs if _threatens(look, arc)]
        self.known: dict[Dot, Fraction] = {}

    def at(self, dot: Dot) -> Fraction:
        if dot not in self.known:
            self.known[dot] = sum((self._odds(arc, dot) for arc in self.arcs), Fraction(0))
        return self.known[dot]

    def _odds(self, arc: Arc, dot: Dot) -> Fraction:
        look = self.look
        if dot == arc.vertex or not in_arc(arc.vertex, arc.facing, arc.width, dot):
            return Fraction(0)
        weapon = look.state.arms.weapon(arc.weapon)
        reach = weapon.short if arc.order == SHORT else weapon.long
        distance = arc.vertex.distance(dot)
        if reach is None or distance > reach:
            return Fraction(0)
        owner = look.state.trooper(arc.owner)
        line = look.sees(Body(arc.vertex, arc.level, owner.prone), Body(dot, self.level))
        number = combat.fire_target_number(
            distance=distance,
            short=weapon.short,
            long=reach,
            damage_modifier=damage_modifier(owner.track),
            cover=line.cover,
            firer_prone=owner.prone,
            target_prone=False,
        )
        return combat.odds(number) if line.clear and number is not None else Fraction(0)


def _threatens(look: _Look, arc: Arc) -> bool:
    owner = look.state.trooper(arc.owner)
    if owner.seat == look.me.seat or not owner.able or arc.shots_left <= 0 or arc.order == HOLD:
        return False
    return arc.order != FIRST or look.me.id in arc.fired_at or len(set(arc.fired_at)) < arc.n


def _cheap_worth(look: _Look, route: _Route) -> Fraction:
    """What a position is worth without drawing sight: cover toward the nearest enemy, closing
    to the weapon's short range, not hugging an enemy, less the hits expected on the way."""
    dot = route.dot
    nearest = look.nearest(dot)
    distance = _distance(dot, nearest)
    weapon = look.weapon()
    short = weapon.short if weapon is not None else CLOSEST
    wanted = max(CLOSEST, min(short, FARTHEST))
    worth = Fraction(COVER * _cover_toward(look.board, dot, route.level, nearest))
    worth -= _closing(look) * max(0, distance - wanted)
    worth -= HUGGING if distance <= 1 else 0
    return worth - _risk_weight(look) * route.risk - Fraction(route.ap, 100)


def _worth(look: _Look, route: _Route, potential: bool = True) -> Fraction:
    """What a position is worth: without sight, and SEES if an enemy is in sight from it. A
    walk's end on stairs or a ladder is worth what the level it leads to is worth there, if
    more (`potential`: the next climb), so a trooper heads for a roof or an upper window."""
    worth = _cheap_worth(look, route) + _sight_worth(look, route.dot, route.level)
    if not potential or route.climb is not None or not _climbable(look.board, route.dot):
        return worth
    for to in (route.level + 1, route.level - 1):
        if look.board.has_level(route.dot, to):
            worth = max(worth, _beyond(look, route, to))
    return worth


def _beyond(look: _Look, route: _Route, level: int) -> Fraction:
    """The worth of the best position a climb at the route's end leads to: the stairs or
    ladder's dot at `level`, or a dot a step or two from it there (a roof's parapet, a window)."""
    up = replace(route, level=level, ap=route.ap + CLIMB_AP)
    there = [up] + [
        replace(up, dot=further.dot, risk=up.risk + further.risk, ap=up.ap + further.ap)
        for further in _routes(look, route.dot, level, BEYOND_AP)
    ]
    cheap = sorted(there, key=lambda r: (-_cheap_worth(look, r), r.ap, _late(r.dot)))
    return max(_cheap_worth(look, r) + _sight_worth(look, r.dot, level) for r in cheap[:SIGHTED])


def _climbable(board: DotMap, dot: Dot) -> bool:
    return board.ground(dot) in (Ground.STAIRS, Ground.LADDER)


def _risk_weight(look: _Look) -> Fraction:
    """What a hit expected on the way costs: RISK at first, less as the rounds run out while
    the side is not ahead (a draw on PV is won by the side that dares)."""
    state = look.state
    if _ahead(state, look.me.seat):
        return Fraction(RISK)
    rounds = state.scenario.rounds
    return Fraction(RISK * (rounds - min(state.round, rounds)), rounds)


def _closing(look: _Look) -> Fraction:
    """What a dot nearer the enemy is worth: more each round while the side is not ahead."""
    return CLOSING + (0 if _ahead(look.state, look.me.seat) else PRESSURE * look.state.round)


def _ahead(state: State, seat: int) -> bool:
    """The seat has put out more enemy PV than it has lost (plan section 2, victory)."""
    return _put_out(state, 1 - seat) > _put_out(state, seat)


def _put_out(state: State, seat: int) -> int:
    """The PV of `seat`'s troopers dead or unconscious: what the other side scores."""
    return sum(t.recruit.pv for t in state.troopers_of(seat) if not t.able)


def _sight_worth(look: _Look, dot: Dot, level: int) -> int:
    """SEES if an enemy within the active weapon's long range is in sight from the position."""
    weapon = look.weapon()
    reach = weapon.long if weapon is not None and weapon.long is not None else 0
    me = Body(dot, level)
    near = sorted(look.enemies, key=lambda e: (_distance(dot, e), e.id))[:SIGHTED]
    for enemy in near:
        if _distance(dot, enemy) <= reach and look.sees(me, look.body(enemy)).clear:
            return SEES
    return 0


def _cover_toward(board: DotMap, dot: Dot, level: int, enemy: Trooper) -> int:
    """1 if a wall, low wall, hedge or window stands on a side of the dot facing the enemy."""
    assert enemy.dot is not None
    if enemy.dot == dot:
        return 0
    for direction in _facing(dot, enemy.dot):
        other = dot.neighbour(direction)
        if board.on_map(other) and board.feature(dot, other, level) in _COVERING:
            return 1
    return 0


def _facing(dot: Dot, toward: Dot) -> list[Direction]:
    """The directions of the dot's sides within 60 degrees of the bearing toward `toward`."""
    angle = bearing(dot, toward)
    return [d for d in Direction if abs((d.angle - angle + 180.0) % 360.0 - 180.0) <= 60.0]


# --- prone and arcs -------------------------------------------------------------------------------
def _prone(look: _Look) -> Command | None:
    """Go prone (1 AP) when the trooper stays: a prone firer's shots are -1 and a far enemy's
    at it +1 (Resolving Fire ¶5); not behind its own low wall, which would block its line
    (LoS ¶2); only if its arc can still be paid for after, or no arc can be set."""
    me = look.me
    if me.prone or me.left < PRONE_AP or me.moved + PRONE_AP > terrain.MOVE_CAP:
        return None
    nearest = look.nearest(look.here)
    assert nearest.dot is not None
    for direction in _facing(look.here, nearest.dot):
        other = look.here.neighbour(direction)
        if (
            look.board.on_map(other)
            and look.board.feature(look.here, other, me.level) in _SOLID_LOW
        ):
            return None
    can_arc = look.weapon() is not None and not me.threw and look.state.arc_of(me.id) is None
    if can_arc and me.left - PRONE_AP < ARC_AP[30] <= me.left:
        return None  # the AP would buy an arc
    return Prone(me.seat, me.id)


def _arc_width(look: _Look, dot: Dot) -> int:
    """150 degrees for an SMG-like weapon (x3 shots) with the enemy near its short range, 60
    otherwise: the width it wants (it may afford less)."""
    weapon = look.weapon()
    nearest = look.nearest(dot)
    if (
        weapon is not None
        and weapon.shots >= 3
        and _distance(dot, nearest) <= weapon.short + SMG_CLOSE
    ):
        return 150
    return 60


def _arc(look: _Look) -> Command | None:
    """A firing arc as wide as wanted and paid for, order "every", toward the enemies'
    likely approach (`_toward`)."""
    me = look.me
    if me.threw or look.weapon() is None or look.state.arc_of(me.id) is not None:
        return None
    wanted = _arc_width(look, look.here)
    widths = [w for w in sorted(ARC_AP, reverse=True) if w <= wanted and ARC_AP[w] <= me.left]
    if not widths:
        return None
    return ArcOrder(me.seat, me.id, widths[0], str(_toward(look, widths[0])), EVERY)


def _toward(look: _Look, width: int) -> Dot:
    """The enemy dot to face: of the arcs pointed at each enemy, the one holding the most
    enemies (where they come from), then the one at the nearest enemy, ties by name."""

    def holds(facing: Dot) -> int:
        angle = bearing(look.here, facing)
        return sum(
            1
            for enemy in look.enemies
            if enemy.dot is not None and in_arc(look.here, angle, width, enemy.dot)
        )

    dots = sorted({e.dot for e in look.enemies if e.dot is not None and e.dot != look.here})
    return max(dots, key=lambda dot: (holds(dot), -look.here.distance(dot), _late(dot)))


# --- deployment -----------------------------------------------------------------------------------
def deployment(state: State, seat: int) -> Deploy:
    """Every trooper on its own dot of the seat's zone, spread across it (one to a stretch of
    columns, two dots apart where it can), on a dot with a low wall or hedge on its side facing
    the enemy's zone where one is near, else on the front row."""
    free = zone_dots(state, seat)
    mine = sorted(state.troopers_of(seat), key=lambda t: (t.recruit.number, t.id))
    toward_enemy = _enemy_directions(state, seat)
    first, last = zone_rows(state, seat)
    front = (
        last - 1 if toward_enemy[0] in (Direction.SOUTH_EAST, Direction.SOUTH_WEST) else first - 1
    )
    columns = sorted({dot.x for dot in free})
    placed: dict[str, Dot] = {}
    for index, trooper in enumerate(mine):
        aim = columns[(2 * index + 1) * len(columns) // (2 * len(mine))]
        spot = _Spot(state.board, toward_enemy, aim, front, frozenset(placed.values()))
        placed[trooper.id] = min((dot for dot in free if dot not in spot.taken), key=spot.rank)
    return Deploy(seat, {name: str(dot) for name, dot in placed.items()})


@dataclass(frozen=True)
class _Spot:
    """How the deployment ranks a dot for the next trooper: not within a dot of one already
    placed, near its stretch of columns (`aim`), behind a low wall or hedge facing the enemy,
    near the front row."""

    board: DotMap
    toward_enemy: tuple[Direction, Direction]
    aim: int
    front: int
    taken: frozenset[Dot]

    def rank(self, dot: Dot) -> tuple[bool, bool, int, int, int, int]:
        crowded = any(dot.distance(other) < 2 for other in self.taken)
        cover = sum(
            1
            for direction in self.toward_enemy
            if self.board.feature(dot, dot.neighbour(direction)) in (Feature.LOW, Feature.LIGHT)
        )
        off = abs(dot.x - self.aim)
        return crowded, off > 2, -cover, off, abs(dot.y - self.front), dot.x


def _enemy_directions(state: State, seat: int) -> tuple[Direction, Direction]:
    """The two directions toward the other seat's zone (the zones are bands of rows)."""
    mine, theirs = zone_rows(state, seat), zone_rows(state, 1 - seat)
    if theirs[0] > mine[1]:
        return Direction.SOUTH_EAST, Direction.SOUTH_WEST
    return Direction.NORTH_EAST, Direction.NORTH_WEST


# --- small helpers --------------------------------------------------------------------------------
def _enemies(state: State, seat: int) -> list[Trooper]:
    return [t for t in state.troopers if t.seat != seat and t.able and t.on_map]


def _distance(dot: Dot, trooper: Trooper) -> int:
    assert trooper.dot is not None
    return dot.distance(trooper.dot)


def _nearest_distance(trooper: Trooper, enemies: Iterable[Trooper]) -> int:
    assert trooper.dot is not None
    return min((_distance(trooper.dot, e) for e in enemies), default=0)


# Sight lines drawn, by map: sight is pure, so a line drawn once is the same all match; a few
# maps at most are kept (a match has one).
_SIGHTS: dict[int, tuple[DotMap, dict[tuple[Body, Body], Sight]]] = {}
_MAPS_KEPT = 4
_LINES_KEPT = 100_000  # per map: a long-lived bot starts its lines afresh past this many


def _sight(board: DotMap, a: Body, b: Body) -> Sight:
    """sight() between two troopers with no other trooper considered (troopers only add cover,
    never block: our ruling), remembered."""
    kept = _SIGHTS.get(id(board))
    if kept is None or kept[0] is not board:
        if len(_SIGHTS) >= _MAPS_KEPT:
            _SIGHTS.pop(next(iter(_SIGHTS)))
        kept = (board, {})
        _SIGHTS[id(board)] = kept
    lines = kept[1]
    if len(lines) >= _LINES_KEPT:
        lines.clear()
    if (a, b) not in lines:
        lines[(a, b)] = sight(board, a, b)
    return lines[(a, b)]
