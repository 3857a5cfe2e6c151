"""Skirm Lite's preview (skirmbot.rules.preview): reach by Dash and Move, and the exact odds of
each attack, worked out from Lite's combat rules (skirmbot.rules.lite.combat) by formula.

One target's attack, as `lite.combat` resolves it, without Tactical Orders spent by the attacker:

1. ROA dice (after Friendly Fire and Support) against SKL (after High Ground): at or under SKL
   hits (a 1 always, a 6 never), up to x with CRx (1 without) is a critical, two hits. RRx
   re-rolls the first x missed dice at once; a re-rolled die is judged afresh.
2. APx: up to x hits are not saved. CAM (ranged, attacker more than 3 squares away) and DOD
   (melee): one automatic save when a savable hit is left.
3. One save die per other hit: at or under ARM (+1 in Cover) - DAM saves. The target squad's
   standing order re-rolls failed saves while it has more TO than it keeps or, with TO per
   attack, changes them the cheapest way (skirmbot.rules.lite.standing_orders).
4. Each unsaved hit costs 1 HIT, unless TFx keeps it (1D6 at or under x); at 0 HIT the Agent
   is Downed and no more HIT are lost.

Each step is an exact distribution over counts (fractions): binomials and multinomials of one
die's chances, so a preview never rolls. `tests/test_preview.py` checks the numbers against
every scripted outcome of the engine itself.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.lite import actions as lite_actions
from skirmbot.rules.lite import combat
from skirmbot.rules.lite.agents import is_standing, standing
from skirmbot.rules.lite.legal import usable_weapons
from skirmbot.rules.lite.standing_orders import highest_saving, save_budget
from skirmbot.rules.preview import (
    DASH,
    MOVE,
    Chance,
    Preview,
    check_public,
    copy_for_preview,
    label_reach,
    place_as_if,
)
from skirmbot.rules.skirm.cards import MELEE, RANGED, Weapon
from skirmbot.rules.skirm.deployment import set_up_stage
from skirmbot.rules.skirm.rolls import succeeds
from skirmbot.rules.skirm.state import MatchState, UnitState
from skirmbot.rules.squares import Square

Distribution = dict[int, Fraction]
SIXTH = Fraction(1, 6)


def preview(state: MatchState, name: str, square: Square | None = None) -> Preview:
    """The named Agent's options where it stands (or as if on `square`); the live state is
    only read."""
    check_public(set_up_stage(state))
    seen = copy_for_preview(state)
    agent = seen.unit(name)
    if not is_standing(agent):
        raise RulesError(f"{agent.name} is not Standing on the map: there is nothing to preview.")
    place_as_if(seen, agent, square)
    assert agent.square is not None
    return Preview(
        agent.id,
        agent.side,
        agent.square,
        square is not None and square != state.units[agent.id].square,
        label_reach(_reach(seen, agent)),
        tuple(_chances(seen, agent, standing(seen, 1 - agent.side))),
        tuple(_threats(seen, agent)) if square is not None else (),
    )


def _reach(state: MatchState, agent: UnitState) -> dict[str, dict[Square, int]]:
    return {
        action: {
            square: route.cost
            for square, route in lite_actions.routes(state, agent, action).items()
            if square != agent.square
        }
        for action in (DASH, MOVE)
    }


def _chances(state: MatchState, attacker: UnitState, targets: list[UnitState]) -> list[Chance]:
    """Each weapon of the attacker against each of `targets` it may attack now."""
    found = []
    for kind in (RANGED, MELEE):
        for weapon in usable_weapons(attacker, kind):
            for target in targets:
                try:
                    aim = combat.declare(state, attacker, kind, weapon, target.id)[0]
                except IllegalCommand:
                    continue
                found.append(chance_against(state, attacker, kind, weapon, aim, target))
    return found


def _threats(state: MatchState, agent: UnitState) -> list[Chance]:
    found = []
    for enemy in standing(state, 1 - agent.side):
        found += _chances(state, enemy, [agent])
    return found


def chance_against(
    state: MatchState,
    attacker: UnitState,
    kind: str,
    weapon: Weapon,
    aim: combat.Aim,
    target: UnitState,
) -> Chance:
    """The exact odds of one weapon's roll against `target` (the first target of its attack)."""
    odds = attack_odds(state, attacker, kind, weapon, aim, target)
    assert attacker.square is not None and target.square is not None
    return Chance(
        attacker.id,
        weapon.name,
        kind,
        target.id,
        attacker.square.distance(target.square),
        aim.cover,
        odds.hit,
        odds.expected_lost,
        odds.lost.get(target.hit, Fraction(0)),
    )


@dataclass(frozen=True, slots=True)
class LiteOdds:
    hits: Distribution  # total hits, criticals counted twice
    lost: Distribution  # HIT lost, 0..the target's HIT

    @property
    def hit(self) -> Fraction:
        return 1 - self.hits.get(0, Fraction(0))

    @property
    def expected_lost(self) -> Fraction:
        return sum((n * p for n, p in self.lost.items()), Fraction(0))


def attack_odds(
    state: MatchState,
    attacker: UnitState,
    kind: str,
    weapon: Weapon,
    aim: combat.Aim,
    target: UnitState,
) -> LiteOdds:
    """The odds of the attack's roll on `aim` against `target`, in the engine's order."""
    assert attacker.square is not None and target.square is not None
    squad = state.squads[target.side]
    keep = squad.reroll_saves_above
    save_rerolls = 0 if keep is None else max(0, squad.orders - keep)
    budget = None if squad.orders_per_attack is None else save_budget(squad)
    # CAM/DOD: whether the rule applies to this attack (it then saves one savable hit).
    dodges = (
        kind == RANGED
        and target.card.has("CAM")
        and attacker.square.distance(target.square) > combat.CAMOUFLAGE_BEYOND
    ) or (kind == MELEE and target.card.has("DOD"))
    hits = hit_counts(aim.roa, aim.skill, weapon.value("CR") or 1, weapon.value("RR"))
    lost = hit_loss(
        hits,
        weapon.value("AP"),
        dodges,
        combat.save_target(target, weapon.dam, aim.cover),
        save_rerolls,
        target.card.value("TF"),
        target.hit,
        budget,
    )
    return LiteOdds(hits, lost)


# --- the distributions -------------------------------------------------------------------------
def _die(skill: int, critical_up_to: int) -> tuple[Fraction, Fraction, Fraction]:
    """One attack die: a critical (two hits), a plain hit, a miss."""
    critical = sum(1 for f in range(1, 7) if succeeds(f, skill) and f <= critical_up_to)
    hit = sum(1 for f in range(1, 7) if succeeds(f, skill)) - critical
    return critical * SIXTH, hit * SIXTH, (6 - critical - hit) * SIXTH


@lru_cache(maxsize=512)
def _fresh(count: int, skill: int, critical_up_to: int) -> tuple[tuple[int, int, Fraction], ...]:
    """`count` fresh dice: (hits, misses, chance)."""
    crit, hit, miss = _die(skill, critical_up_to)
    out: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for c in range(count + 1):
        for h in range(count - c + 1):
            m = count - c - h
            ways = comb(count, c) * comb(count - c, h)
            out[(2 * c + h, m)] += ways * crit**c * hit**h * miss**m
    return tuple((hits, misses, p) for (hits, misses), p in out.items() if p)


@lru_cache(maxsize=512)
def _hit_counts(
    roa: int, skill: int, critical_up_to: int, rerolls: int
) -> tuple[tuple[int, Fraction], ...]:
    total: dict[int, Fraction] = defaultdict(Fraction)
    for hits, misses, p in _fresh(roa, skill, critical_up_to):
        again = min(misses, rerolls)
        if not again:
            total[hits] += p
            continue
        for more, _, q in _fresh(again, skill, critical_up_to):
            total[hits + more] += p * q
    return tuple(sorted(total.items()))


def hit_counts(roa: int, skill: int, critical_up_to: int = 1, rerolls: int = 0) -> Distribution:
    """Total hits of `roa` dice against `skill`: criticals (up to `critical_up_to`) count
    twice, and the first `rerolls` missed dice are rolled again (RRx)."""
    return dict(_hit_counts(max(0, roa), skill, critical_up_to, rerolls))


def _binomial(count: int, p: Fraction) -> Distribution:
    return {k: comb(count, k) * p**k * (1 - p) ** (count - k) for k in range(count + 1)}


@lru_cache(maxsize=1024)
def _failed_saves(count: int, needed: int, rerolls: int) -> tuple[tuple[int, Fraction], ...]:
    """Failed saves of `count` dice at or under `needed`, up to `rerolls` failures re-rolled."""
    fail = Fraction(sum(1 for f in range(1, 7) if not succeeds(f, needed)), 6)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for first, p in _binomial(count, fail).items():
        again = min(first, rerolls)
        for still, q in _binomial(again, fail).items():
            out[first - again + still] += p * q
    return tuple(out.items())


def _categories(count: int, chances: tuple[Fraction, ...]) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """How `count` dice fall into categories of the given chances: each split and its chance."""
    if len(chances) == 1:
        yield (count,), chances[0] ** count
        return
    for here in range(count + 1):
        first = comb(count, here) * chances[0] ** here
        for rest, p in _categories(count - here, chances[1:]):
            yield (here, *rest), first * p


def _save_chances(needed: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """One save die: it saves, it is 1 above what saves, 2 above, further off."""
    saving = highest_saving(needed)
    two = SIXTH if saving + 2 <= 6 else Fraction(0)  # a 5 that saves leaves only the 6, 1 above
    return saving * SIXTH, SIXTH, two, 1 - saving * SIXTH - SIXTH - two


def _lowered_for_sure(one: int, two: int, budget: int) -> tuple[int, int]:
    """`standing_orders.lower_for_sure` on counts: the dice it saves and the TO left."""
    by_one = min(one, budget)
    by_two = min(two, (budget - by_one) // 2)
    return by_one + by_two, budget - by_one - 2 * by_two


@lru_cache(maxsize=1024)
def _failed_saves_spent(count: int, needed: int, budget: int) -> tuple[tuple[int, Fraction], ...]:
    """Failed saves of `count` dice at or under `needed` after `standing_orders.spend_on_saves`
    spends up to `budget` TO on them: sure changes, re-rolls, then changes of re-rolled dice."""
    chances = _save_chances(needed)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for (_, one, two, more), p in _categories(count, chances):
        saved, left = _lowered_for_sure(one, two, budget)
        failing = one + two + more - saved
        again = min(failing, left)
        for (good, one_more, two_more, _), q in _categories(again, chances):
            saved_again, _ = _lowered_for_sure(one_more, two_more, left - again)
            out[failing - good - saved_again] += p * q
    return tuple(out.items())


def hit_loss(
    hits: Distribution,
    piercing: int,
    dodges: bool,
    needed: int,
    save_rerolls: int,
    tough: int,
    hit: int,
    orders_on_saves: int | None = None,
) -> Distribution:
    """HIT lost, from the hits: APx unsaved, CAM/DOD one automatic save, saves at or under
    `needed` (failures re-rolled up to `save_rerolls` or, with `orders_on_saves` TO, changed
    the cheapest way), TFx keeping each loss on x or lower, never more than the target's `hit`."""
    kept = Fraction(min(tough, 6), 6)
    lost: dict[int, Fraction] = defaultdict(Fraction)
    for total, p in hits.items():
        unsaved = min(piercing, total)
        savable = total - unsaved
        automatic = 1 if dodges and savable > 0 else 0
        failures = (
            _failed_saves(savable - automatic, needed, save_rerolls)
            if orders_on_saves is None
            else _failed_saves_spent(savable - automatic, needed, orders_on_saves)
        )
        for failed, q in failures:
            for losses, r in _binomial(unsaved + failed, 1 - kept).items():
                lost[min(hit, losses)] += p * q * r
    return {n: p for n, p in sorted(lost.items()) if p}
