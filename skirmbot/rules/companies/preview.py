"""A Group's options without a die rolled (skirmbot.rules.preview): the squares its first model
can reach with a Move keeping the Group's shape, and the odds of its pool at each Group it could
Shoot, Attack or Cast at now - worked out exactly, on a copy of the state.

The odds are those of the order once its activation test has passed (the preview's words give
that test's chance apart): a pool of 12d6 (6d6 Bloodied), each die at or above the needed face
hitting, a Cover re-roll of every hit when Shooting, and 1 R lost per T hits. In a `Chance`:
`hit` is the chance the target loses at least 1 R, `damage` the R it is expected to lose, `out`
the chance its R reaches 0 (Routed) by this pool alone - no Resilience test counted.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

from skirmbot.rules.companies import geometry, orders
from skirmbot.rules.companies.captains import activation_minimum, mi_of, t_of
from skirmbot.rules.companies.combat import BLOODIED_POOL, POOL, melee_needed
from skirmbot.rules.companies.state import Group, State
from skirmbot.rules.errors import RulesError
from skirmbot.rules.preview import (
    MOVE,
    Chance,
    OddsTerms,
    Preview,
    Reach,
    check_public,
    copy_for_preview,
)
from skirmbot.rules.squares import Square

SHOOT_WORD, ATTACK_WORD, CAST_WORD = "Shoot", "Attack", "Cast"
FACES = 6
# The numbers in the rulebook's words: inches, R lost, Routed.
TERMS = OddsTerms(
    distance='"',
    hit="loses R",
    lost="R expected",
    short_lost="R",
    out="Routed",
    heading="chance to take R · expected R lost, once the activation test passes",
    odds="chance the target loses R, expected R lost, once the activation test passes",
)


def preview(state: State, unit: str, square: Square | None = None) -> Preview:
    """The Group's Move squares and its targets' odds where it stands, or as if its first model
    stood on `square` (a square its Move keeping its shape reaches)."""
    check_public("deploy" if state.round == 0 else None)
    copied: State = copy_for_preview(state)
    group = copied.groups.get(unit.lower()) if isinstance(unit, str) else None
    if group is None or not group.on_table:
        raise RulesError(f"There is no Group called '{unit}' on the table.")
    start = group.models[0]
    as_if = square is not None and square != start
    if square is not None and as_if:
        moved = orders.move_squares(copied, group).get(square)
        if moved is None:
            raise RulesError(
                f"{group.id} cannot Move its first model to {square} now; preview a square "
                "its Move reaches."
            )
        group.models = list(moved)
    reach = tuple(
        Reach(s, MOVE, cost)
        for s, (cost, _) in sorted(
            orders.move_routes(copied, group).items(), key=lambda item: (item[0].y, item[0].x)
        )
    )
    attacks = chances(copied, group)
    threats = (
        tuple(c for enemy in copied.enemies_of(group) for c in _attacks_on(copied, enemy, group))
        if as_if
        else ()
    )
    return Preview(group.id, group.seat, group.models[0], as_if, reach, attacks, threats, TERMS)


def chances(state: State, group: Group) -> tuple[Chance, ...]:
    """The odds of each order the Group could give at each target now, Shoot, Attack, Cast."""
    return tuple(c for enemy in state.enemies_of(group) for c in _attacks_on(state, group, enemy))


def _attacks_on(state: State, group: Group, target: Group) -> list[Chance]:
    found = []
    distance = geometry.group_distance(group.models, target.models)
    mi = mi_of(state, group)
    if mi is not None and orders.why_not_shoot(state, group, target) is None:
        cover = geometry.Terrain(state.board).in_cover(target.models)
        odds = pool_odds(_dice(group), mi, cover, t_of(state, target), target.r)
        found.append(_chance(group, target, SHOOT_WORD, "ranged", distance, cover, odds))
    if orders.why_not_attack(state, group, target) is None:
        needed = melee_needed(group, attacking=True)
        odds = pool_odds(_dice(group), needed, False, t_of(state, target), target.r)
        found.append(_chance(group, target, ATTACK_WORD, "melee", distance, False, odds))
    if orders.why_not_cast(state, group, target) is None:
        sure = (Fraction(1), Fraction(1), Fraction(int(target.r <= 1)))
        found.append(_chance(group, target, CAST_WORD, "ranged", distance, False, sure))
    return found


def _chance(
    group: Group,
    target: Group,
    order: str,
    kind: str,
    distance: int,
    cover: bool,
    odds: tuple[Fraction, Fraction, Fraction],
) -> Chance:
    lose, expected, out = odds
    return Chance(
        group.id, order, kind, target.id, distance, cover, lose, expected, out, terms=TERMS
    )


def _dice(group: Group) -> int:
    return BLOODIED_POOL if group.bloodied else POOL


@cache
def pool_odds(
    dice: int, needed: int, cover: bool, t: int, r: int
) -> tuple[Fraction, Fraction, Fraction]:
    """A pool of `dice` hitting on `needed`+ (Cover: every hit re-rolled once) against T and R:
    the chance of at least 1 R lost, the R expected lost, the chance all R is lost."""
    p = Fraction(FACES + 1 - needed, FACES)
    if cover:
        p = p * p  # a hit stands only if its re-roll hits too
    lose = Fraction(0)
    expected = Fraction(0)
    out = Fraction(0)
    for hits in range(dice + 1):
        chance = comb(dice, hits) * p**hits * (1 - p) ** (dice - hits)
        lost = min(hits // t, r)
        expected += chance * lost
        lose += chance if lost else 0
        out += chance if lost >= r else 0
    return lose, expected, out


def activation_chance(state: State, group: Group, order: str) -> Fraction:
    """The chance its activation test for `order` passes: 2d6 at or above its minimum."""
    return test_chance(activation_minimum(state, group, order))


def test_chance(needed: int) -> Fraction:
    """The chance 2d6 meet or exceed `needed`."""
    ways = sum(1 for a in range(1, FACES + 1) for b in range(1, FACES + 1) if a + b >= needed)
    return Fraction(ways, FACES * FACES)
