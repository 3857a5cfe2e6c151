"""A trooper's options without a die rolled (skirmbot.rules.preview): the dots it can move to with
their AP, the odds of its active weapon at each enemy it sees (as an arc would fire) and of its
melee at each adjacent enemy, and the enemy arcs it stands in - or, previewed on another dot,
the enemy arcs the cheapest route there enters, one chance per position, with their odds.

That last answer is what makes moving sane play-by-post (plan section 3): an arc fires while the
mover walks, in the mover's own turn, so a player must see before sending a move which arcs
will get a chance on the way and how likely each shot is to hit.

The odds are exact: a shot hits when 2D6 meet its target number (combat.odds); on a hit every
damage roll (2D6: the initial cell, 11 and 12 at cell 10) is applied to a copy of the target's
card, giving the HP it is expected to lose and the chance it is put out (dead or unconscious).
"""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import cache

from skirmbot.rules.dots import Dot, reachable
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry import terrain
from skirmbot.rules.infantry.arcs import body, chances_at, others, target_number
from skirmbot.rules.infantry.arms import Weapon
from skirmbot.rules.infantry.card import (
    LAST_ROLL,
    Track,
    apply_damage,
    current_hp,
    damage_modifier,
    first_cell,
    is_able,
)
from skirmbot.rules.infantry.combat import (
    BAYONET,
    CLUB,
    KNIFE,
    fire_target_number,
    melee_target_number,
    melee_weapons,
    odds,
)
from skirmbot.rules.infantry.sight import Body, sight
from skirmbot.rules.infantry.state import Arc, State, Trooper
from skirmbot.rules.infantry.steps import blocked, route
from skirmbot.rules.preview import (
    MOVE,
    Chance,
    OddsTerms,
    Preview,
    Reach,
    check_public,
)

FIRE_WORD, MELEE_WORD = "ranged", "melee"
# The numbers in the rulebook's words: dots, HP cells, put out of action.
TERMS = OddsTerms(
    distance=" dots",
    hit="hits",
    lost="HP expected",
    short_lost="HP",
    out="out",
    heading="chance to hit · expected HP lost",
    odds="chance to hit, expected HP lost (after armour), chance the target is put out",
    # Skirmishers never shoot in their own turn: these are the shots of an arc it sets, as an
    # enemy enters it (Firing Arcs ¶2), and, as if elsewhere, the enemy arcs on the way there.
    attacks_title="Its arc's shots, when an enemy enters it",
    threats_title="Enemy arcs on {unit}'s way to {square}",
)
FACES = 6


def preview(state: State, unit: str, where: Dot | None = None) -> Preview:
    """The trooper's options where it stands, or as if it had moved to `where` by its cheapest
    route (a dot its move reaches now); RulesError in words otherwise."""
    check_public(None if all(state.deployed) else "deploy")
    copied = copy_of(state)
    trooper = copied.trooper(unit)
    if trooper.dot is None or not trooper.able:
        raise RulesError(f"{trooper.id} is not on the map to preview.")
    start = trooper.dot
    as_if = where is not None and where != start
    reach = reach_of(copied, trooper)
    if where is not None and as_if:
        if where not in reach:
            raise RulesError(
                f"{trooper.id} cannot move to {where} now; preview a dot its move reaches."
            )
        threats = route_chances(copied, trooper, route_to(copied, trooper, where))
        trooper.dot = where
    else:
        threats = standing_chances(copied, trooper)
    places = tuple(
        Reach(dot, MOVE, cost)
        for dot, cost in sorted(reach.items(), key=lambda i: (i[0].y, i[0].x))
    )
    attacks = chances(copied, trooper)
    assert trooper.dot is not None
    return Preview(
        trooper.id, trooper.seat, trooper.dot, as_if, places, attacks, tuple(threats),
        TERMS,
    )  # fmt: skip


def copy_of(state: State) -> State:
    """A copy of the match a preview (or a trial) may change freely: the map, the weapons
    tables, the scenario and the squad files' rows never change in a match, so they are shared,
    not copied (the tables' read-only mappings could not be copied anyway)."""
    shared: list[object] = [state.board, state.arms, state.scenario]
    shared += [trooper.recruit for trooper in state.troopers]  # squad files' rows: frozen
    found: State = copy.deepcopy(state, {id(part): part for part in shared})
    return found


# --- where it can go ---------------------------------------------------------------------------
def movement_budget(trooper: Trooper) -> int:
    """AP it may still spend on movement this activation: the cap of 8 (Basic Movement ¶1) less
    what it has moved, and never more than it has left; none after a combat action."""
    if trooper.combat:
        return 0
    return max(0, min(terrain.MOVE_CAP - trooper.moved, trooper.left))


def reach_of(state: State, trooper: Trooper) -> dict[Dot, int]:
    """Every dot its move may end on now, with the AP of the cheapest route there: around the
    other able troopers at its level, as the engine routes a move (`steps.blocked`)."""
    if trooper.dot is None or not trooper.able:
        return {}
    board, level, prone = state.board, trooper.level, trooper.prone
    occupied = blocked(state, trooper)
    costs = reachable(
        trooper.dot,
        movement_budget(trooper),
        lambda dot: board.has_level(dot, level) and not occupied(dot),
        lambda a, b: terrain.step_cost(board, a, b, level, prone),
    )
    return {dot: cost for dot, cost in costs.items() if dot != trooper.dot}


def route_to(state: State, trooper: Trooper, goal: Dot) -> list[Dot]:
    """The steps of the cheapest route the engine would walk to `goal` ([] if none)."""
    return route(state, trooper, goal, movement_budget(trooper)) or []


# --- enemy arcs on the way -------------------------------------------------------------------
def route_chances(
    state: State, trooper: Trooper, route: list[Dot], memo: dict[Dot, list[Chance]] | None = None
) -> list[Chance]:
    """The chances enemy arcs get as the trooper walks `route` (on a copy: it moves it), one
    per arc at each position entered, oldest arc first, with the odds of each shot - counted
    as if each arc fires at every chance it gets, so never more than its shots left. `memo`
    keeps each dot's chances for the next route over it (many routes share their dots)."""
    shots = {arc.owner: arc.shots_left for arc in state.arcs}
    known = {} if memo is None else memo
    found: list[Chance] = []
    for dot in route:
        if dot not in known:
            trooper.dot = dot
            trooper.attacked_here = ()
            known[dot] = [shot_chance(state, arc, trooper) for arc in chances_at(state, trooper)]
        for chance in known[dot]:
            if shots[chance.attacker] > 0:
                shots[chance.attacker] -= 1
                found.append(chance)
    return found


def standing_chances(state: State, trooper: Trooper) -> list[Chance]:
    """The enemy arcs that would get a chance at the trooper where it stands."""
    return [shot_chance(state, arc, trooper) for arc in chances_at(state, trooper)]


def shot_chance(state: State, arc: Arc, target: Trooper) -> Chance:
    """The odds of one shot of the arc at `target` where it stands now."""
    owner = state.trooper(arc.owner)
    weapon = state.arms.weapon(arc.weapon)
    number = target_number(state, arc, target)
    cover = _cover(state, owner, target, arc.level)
    assert target.dot is not None
    distance = arc.vertex.distance(target.dot)
    hit, lost, out = hit_odds(number, target.track, weapon.damage(owner.max_ap))
    return Chance(
        owner.id, arc.weapon, FIRE_WORD, target.id, distance, cover > 0, hit, lost, out,
        terms=TERMS,
    )  # fmt: skip


def shot_words(state: State, arc: Arc, target: Trooper) -> str:
    """ "2 dots, short range, needs 8+, hits 42%" for the arc's shot at the target now."""
    number = target_number(state, arc, target)
    if number is None or target.dot is None:
        return ""
    weapon = state.arms.weapon(arc.weapon)
    distance = arc.vertex.distance(target.dot)
    band = "short range" if distance <= weapon.short else "long range"
    return f"{distance} dots, {band}, needs {number}+, hits {round(float(odds(number)) * 100)}%"


# --- what it can attack ------------------------------------------------------------------------
def chances(state: State, trooper: Trooper) -> tuple[Chance, ...]:
    """Its active weapon's odds at every enemy it sees in range (an arc over them would shoot
    with these), and its melee odds at every adjacent enemy, by each weapon it may swing."""
    enemies = [t for t in state.troopers if t.seat != trooper.seat and t.able and t.dot is not None]
    found: list[Chance] = []
    for enemy in enemies:
        found += _fire(state, trooper, enemy)
        found += _melee(state, trooper, enemy)
    return tuple(found)


def _fire(state: State, trooper: Trooper, enemy: Trooper) -> list[Chance]:
    weapon = state.arms.weapons.get(trooper.active)
    if weapon is None or weapon.long is None:
        return []
    number = _fire_number(state, trooper, enemy, weapon.short, weapon.long, trooper.level)
    if number is None:
        return []
    assert trooper.dot is not None and enemy.dot is not None
    cover = _cover(state, trooper, enemy, trooper.level)
    hit, lost, out = hit_odds(number, enemy.track, weapon.damage(trooper.max_ap))
    return [
        Chance(
            trooper.id, weapon.name, FIRE_WORD, enemy.id, trooper.dot.distance(enemy.dot),
            cover > 0, hit, lost, out, terms=TERMS,
        )
    ]  # fmt: skip


def _melee(state: State, trooper: Trooper, enemy: Trooper) -> list[Chance]:
    """Melee Combat ¶1-4: an adjacent enemy at its level; no cover, no range."""
    assert trooper.dot is not None and enemy.dot is not None
    if trooper.dot.distance(enemy.dot) != 1 or trooper.level != enemy.level:
        return []
    secondary = trooper.secondary if trooper.secondary in state.arms.weapons else None
    number = melee_target_number(
        damage_modifier=damage_modifier(trooper.track),
        attacker_prone=trooper.prone,
        target_prone=enemy.prone,
    )
    found = []
    for name in melee_weapons(trooper.active, secondary):
        row = melee_row(state, name)
        hit, lost, out = hit_odds(number, enemy.track, row.damage(trooper.max_ap))
        found.append(
            Chance(trooper.id, name, MELEE_WORD, enemy.id, 1, False, hit, lost, out, terms=TERMS)
        )
    return found


def melee_row(state: State, name: str) -> Weapon:
    """The Melee table's row a melee weapon's name reads: the knife and the bayonet share the
    "Bayonet/Knife" row (the one always carried besides fists); a long arm swung as a club is
    the Club's row (Melee Combat ¶2)."""
    arms = state.arms
    if name in arms.weapons:
        return arms.weapon(name)
    if name in (KNIFE, BAYONET):
        knife = next(n for n in arms.always_melee if not arms.weapon(n).blunt_is_half_ap)
        return arms.weapon(knife)
    if name == CLUB:
        return arms.weapon(CLUB)
    raise RulesError(f"There is no melee weapon called {name}.")


def _cover(state: State, firer: Trooper, target: Trooper, level: int) -> int:
    assert firer.dot is not None and target.dot is not None
    seen = sight(
        state.board, Body(firer.dot, level, firer.prone), body(target), others(state, firer, target)
    )
    return seen.cover


def _fire_number(
    state: State, firer: Trooper, target: Trooper, short: int, long: int, level: int
) -> int | None:
    """The target number of a shot from `firer` (at `level`) at `target`: None out of sight or
    beyond long range (Resolving Fire ¶2-5)."""
    if firer.dot is None or target.dot is None:
        return None
    seen = sight(
        state.board, Body(firer.dot, level, firer.prone), body(target), others(state, firer, target)
    )
    if not seen.clear:
        return None
    return fire_target_number(
        distance=firer.dot.distance(target.dot),
        short=short,
        long=long,
        damage_modifier=damage_modifier(firer.track),
        cover=seen.cover,
        firer_prone=firer.prone,
        target_prone=target.prone,
    )


# --- the odds of one attack --------------------------------------------------------------------
def hit_odds(
    number: int | None, track: Track, damage: tuple[int, int]
) -> tuple[Fraction, Fraction, Fraction]:
    """(chance to hit, HP expected lost, chance put out) of one 2D6 check at `number` against
    a target whose card is `track`, each damage roll applied exactly (Resolving Fire ¶6-9)."""
    if number is None:
        return Fraction(0), Fraction(0), Fraction(0)
    hit = odds(number)
    lost, out = _damage_odds(track, damage)
    return hit, hit * lost, hit * out


@cache
def _damage_odds(track: Track, damage: tuple[int, int]) -> tuple[Fraction, Fraction]:
    """Given a hit: the HP expected lost and the chance the target is put out."""
    lethal, blunt = damage
    before = current_hp(track)
    lost, out = Fraction(0), Fraction(0)
    for roll, ways in _two_dice().items():
        after = apply_damage(track, lethal, blunt, first_cell(roll))
        chance = Fraction(ways, FACES * FACES)
        lost += chance * (before - current_hp(after))
        out += chance if not is_able(after) else 0
    return lost, out


@cache
def _two_dice() -> dict[int, int]:
    """2D6 totals, 2 to 12, with the number of ways each is rolled."""
    ways: dict[int, int] = {}
    for a in range(1, FACES + 1):
        for b in range(1, FACES + 1):
            ways[a + b] = ways.get(a + b, 0) + 1
    assert max(ways) == LAST_ROLL
    return ways
