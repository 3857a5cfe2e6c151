"""Every command a seat may send now under the infantry rules: the automatic player's, /act's and
autocomplete's menu (`Ruleset.legal_commands`).

Candidates come from the rules' own functions (the moves `terrain.reach` prices, the melee
weapons `combat.melee_weapons` offers, the troopers and weapons in reach to take), and each is
then tried on a copy of the match by the engine itself (`accepted`), so the menu and the engine
never disagree: a candidate the engine refuses is not offered. The copy's dice roll fixed faces,
so trying a move that an arc fires on decides nothing of the real match.

Where the choices are endless, one of each kind is listed: a firing arc of each width toward
the nearest enemy (any dot may be faced), a throw at each enemy in reach (or the nearest dot
that takes one). In order: the arc owner's answer to a paused move (FireAt, fire or hold), else
in the seat's turn each trooper's commands - the one activating, or every ready trooper (any
order starts its activation) - then `end`: the activation's, or with none in progress the first
ready trooper's (it does nothing) and the side's turn. Standing orders and conceding may
be sent at any time and are not listed.
"""

from __future__ import annotations

from collections.abc import Iterable

from skirmbot.rules.commands import Activate, Command, EndActivation, Melee
from skirmbot.rules.dots import ARC_WIDTHS, Dot
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry.arms import GRENADE
from skirmbot.rules.infantry.combat import melee_weapons
from skirmbot.rules.infantry.commands import (
    Arc,
    ChangeWeapon,
    Climb,
    DropItem,
    FireAt,
    Move,
    Prone,
    Stand,
    Take,
    Throw,
)
from skirmbot.rules.infantry.engine import InfantryMatch
from skirmbot.rules.infantry.maps import Ground
from skirmbot.rules.infantry.preview import copy_of, reach_of
from skirmbot.rules.infantry.state import ARC_ORDERS, FIRST, State, Trooper

CLIMBING = (Ground.STAIRS, Ground.LADDER)


class FixedDice:
    """The dice of a trial on a copy: every die shows 1 (every check misses, every scatter goes
    the first way), so a trial never runs out of dice and rolls none of the match's."""

    def roll(self, sides: int = 6) -> int:
        return 1

    def to_json(self) -> dict[str, object]:
        return {"fixed": 1}


def accepted(state: State, command: Command) -> bool:
    """Whether the engine accepts `command` now: tried on a copy of the match (the map, tables
    and scenario never change, so they are shared)."""
    try:
        InfantryMatch(copy_of(state), FixedDice()).apply(command)
    except RulesError:
        return False
    return True


def legal_commands(state: State, seat: int) -> list[Command]:
    """The candidates the engine accepts. A trooper's moves are tried by one, the first: they
    share every condition but the route (its turn, its movement phase, no move waiting), and
    their dots are those the engine's own routing reaches (`preview.reach_of`), so trying each
    of some eighty dots a trooper would only repeat the answer - at a second a menu."""
    found: list[Command] = []
    tried: dict[str, bool] = {}
    for command in candidates(state, seat):
        if isinstance(command, Move):
            if command.unit not in tried:
                tried[command.unit] = accepted(state, command)
            if tried[command.unit]:
                found.append(command)
        elif accepted(state, command):
            found.append(command)
    return found


def candidates(state: State, seat: int) -> list[Command]:
    """The commands worth trying for `seat` now, before the engine's word on each."""
    if state.over or not 0 <= seat < len(state.seats) or state.seats[seat].out:
        return []
    if not all(state.deployed):
        return []
    if state.moving is not None and state.moving.chances:
        return answers(state, seat)
    if state.to_act != seat:
        return []
    if state.activating is not None:
        trooper = state.trooper(state.activating)
        return [*trooper_commands(state, trooper), EndActivation(seat, trooper.id)]
    found: list[Command] = []
    for trooper in ready(state, seat):
        found += [Activate(seat, trooper.id), *trooper_commands(state, trooper)]
    # `end` with no activation in progress: a trooper's (it does nothing), or the side's turn
    first = next(iter(ready(state, seat)), None)
    ends = [EndActivation(seat, first.id)] if first is not None else []
    return [*found, *ends, EndActivation(seat)]


def ready(state: State, seat: int) -> list[Trooper]:
    """The seat's troopers that may still activate this turn."""
    return [t for t in state.troopers_of(seat) if t.able and t.on_map and not t.activated]


def answers(state: State, seat: int) -> list[Command]:
    """Plan section 3: while a move waits, only the arc's owner answers, fire or hold."""
    assert state.moving is not None
    owner = state.trooper(state.moving.chances[0])
    if owner.seat != seat:
        return []
    return [FireAt(seat, owner.id, True), FireAt(seat, owner.id, False)]


def trooper_commands(state: State, trooper: Trooper) -> list[Command]:
    """Everything worth trying for one trooper of the seat in its turn."""
    return [
        *moves(state, trooper),
        *postures(state, trooper),
        *changes(state, trooper),
        *takes(state, trooper),
        *drops(trooper),
        *arcs(state, trooper),
        *throws(state, trooper),
        *melees(state, trooper),
    ]


def moves(state: State, trooper: Trooper) -> list[Command]:
    """A move to every dot its cheapest route reaches within its movement AP."""
    return [Move(trooper.seat, trooper.id, str(dot)) for dot in sorted(reach_of(state, trooper))]


def postures(state: State, trooper: Trooper) -> list[Command]:
    """Prone or stand (Basic Movement ¶5), and a level up or down on stairs or a ladder (¶4)."""
    seat, unit = trooper.seat, trooper.id
    found: list[Command] = [Stand(seat, unit) if trooper.prone else Prone(seat, unit)]
    if trooper.dot is not None and state.board.ground(trooper.dot) in CLIMBING:
        found += [Climb(seat, unit, trooper.level + step) for step in (1, -1)]
    return found


def changes(state: State, trooper: Trooper) -> list[Command]:
    """Another weapon made active (Special Actions ¶1): one it carries, or an explosive."""
    names = [trooper.primary, trooper.secondary, GRENADE if trooper.grenades else None]
    return [
        ChangeWeapon(trooper.seat, trooper.id, name)
        for name in dict.fromkeys(names)
        if name is not None and name != trooper.active
    ]


def takes(state: State, trooper: Trooper) -> list[Command]:
    """What it might take (Special Actions ¶2): another trooper's weapons on its dot or a
    neighbour's, and weapons dropped there."""
    if trooper.dot is None:
        return []
    near = {trooper.dot, *trooper.dot.neighbours()}
    found: list[Command] = []
    for other in state.troopers:
        if other.id == trooper.id or other.dot not in near or other.level != trooper.level:
            continue
        for item in (other.primary, other.secondary, GRENADE if other.grenades else None):
            if item is not None:
                found.append(Take(trooper.seat, trooper.id, other.id, item))
    for lying in state.items:
        if lying.dot in near and lying.level == trooper.level:
            found.append(Take(trooper.seat, trooper.id, str(lying.dot), lying.name))
    return found


def drops(trooper: Trooper) -> list[Command]:
    return [
        DropItem(trooper.seat, trooper.id, name)
        for name in (trooper.primary, trooper.secondary)
        if name is not None
    ]


def arcs(state: State, trooper: Trooper) -> list[Command]:
    """A firing arc of each width (Firing Arcs ¶1) with each order it may fire by unasked
    (plan section 3: every chance, the first enemy only, short range only, or hold), toward
    the nearest enemy it could face. The width first: each order of the 30° arc, then the
    60°, then the 150°."""
    if trooper.dot is None or trooper.active not in state.arms.weapons:
        return []
    toward = nearest_enemy_dot(state, trooper)
    if toward is None:
        return []
    seat, unit = trooper.seat, trooper.id
    return [
        Arc(seat, unit, width, str(toward), order, 1 if order == FIRST else 0)
        for width in ARC_WIDTHS
        for order in ARC_ORDERS
    ]


def nearest_enemy_dot(state: State, trooper: Trooper) -> Dot | None:
    """The dot of the nearest able enemy (ties by name), else a neighbouring dot on the map."""
    assert trooper.dot is not None
    here = trooper.dot
    enemies = sorted(
        (here.distance(t.dot), t.id, t.dot)
        for t in state.troopers
        if t.seat != trooper.seat and t.able and t.dot is not None and t.dot != here
    )
    if enemies:
        return enemies[0][2]
    return next((dot for dot in here.neighbours() if state.board.on_map(dot)), None)


def throws(state: State, trooper: Trooper) -> list[Command]:
    """With an explosive active: a throw at each enemy's dot, and down or up the stairs."""
    if trooper.dot is None or trooper.active not in state.arms.explosives:
        return []
    seat, unit = trooper.seat, trooper.id
    enemies = [t.dot for t in state.troopers if t.seat != seat and t.able and t.dot is not None]
    found: list[Command] = [Throw(seat, unit, str(dot)) for dot in dict.fromkeys(enemies)]
    for dot in _stairs_near(state, trooper.dot):
        top = state.board.top(dot)
        found += [
            Throw(seat, unit, str(dot), level) for level in range(top + 1) if level != trooper.level
        ]
    return found


def throw_targets(state: State, trooper: Trooper, limit: int) -> list[Throw]:
    """Throws at the dots nearest first that the engine takes, at most `limit` (autocomplete)."""
    if trooper.dot is None or trooper.active not in state.arms.explosives:
        return []
    here = trooper.dot
    found: list[Throw] = []
    for dot in here.within(trooper.left):
        if len(found) >= limit:
            break
        if dot == here or not state.board.on_map(dot):
            continue
        command = Throw(trooper.seat, trooper.id, str(dot))
        if accepted(state, command):
            found.append(command)
    return found


def _stairs_near(state: State, here: Dot) -> Iterable[Dot]:
    """Stairs or ladders on the dot or beside it (Explosives ¶2 throws up or down from them)."""
    for dot in (here, *here.neighbours()):
        if state.board.on_map(dot) and state.board.ground(dot) in CLIMBING:
            yield dot


def melees(state: State, trooper: Trooper) -> list[Command]:
    """A melee attack on each adjacent enemy at its level, with each weapon it may swing."""
    if trooper.dot is None:
        return []
    secondary = trooper.secondary if trooper.secondary in state.arms.weapons else None
    weapons = melee_weapons(trooper.active, secondary)
    return [
        Melee(trooper.seat, trooper.id, enemy.id, weapon)
        for enemy in state.troopers
        if enemy.seat != trooper.seat
        and enemy.able
        and enemy.dot is not None
        and enemy.level == trooper.level
        and enemy.dot.distance(trooper.dot) == 1
        for weapon in weapons
    ]
