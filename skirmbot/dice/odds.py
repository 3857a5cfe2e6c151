"""`/odds`: the exact chance of each outcome of one attack, before it is made.

The attack is resolved as `skirmbot.rules.combat` resolves it (rulebook Combat; rulings:
Combat): ROA attack dice, each at or under the skill strikes (a 1 always strikes, a 6 always
misses) for DAM, a natural 1 for DAM+1; support adds one strike of DAM that is never a natural 1;
cover saves the first point of damage; then one save die per remaining point, each at or under
ARM saves (1 always saves, 6 always fails); each failed save costs 1 HIT, and at 0 HIT the
target is Taken Out.

Everything is exact (fractions, no floats): the damage distribution is built die by die by
convolution, each attack die being a miss, a strike or a natural-1 strike; then, for each total
damage, the failed saves follow a binomial law, capped at the target's HIT. Left out, as the
odds are shown before any choice is made: Tactical Order re-rolls and changes, the target's
standing orders, and weapon and unit special rules.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from skirmbot.dice.expressions import DiceError
from skirmbot.rules import combat
from skirmbot.rules.cards import MELEE, RANGED, Weapon
from skirmbot.rules.dice import succeeds
from skirmbot.rules.legal import TargetOption, attack_targets, usable_weapons
from skirmbot.rules.maps import BARREL
from skirmbot.rules.state import TURRET_ARM, MatchState, UnitState

FACES = range(1, 7)
SIXTH = Fraction(1, 6)
Distribution = dict[int, Fraction]

# Bounds for /odds: generous beyond any card, small enough to answer at once.
LIMITS = {"skill": (1, 6), "roa": (1, 20), "dam": (1, 10), "arm": (1, 6), "hit": (1, 20)}


@dataclass(frozen=True, slots=True)
class Attack:
    skill: int
    roa: int
    dam: int
    arm: int
    hit: int  # the target's HIT now
    cover: bool = False
    support: bool = False

    def describe(self) -> str:
        extras = [word for word, on in (("in cover", self.cover), ("support", self.support)) if on]
        tail = f", {', '.join(extras)}" if extras else ""
        return (
            f"skill {self.skill}, ROA {self.roa}, DAM {self.dam} against ARM {self.arm}, "
            f"HIT {self.hit}{tail}"
        )


@dataclass(frozen=True, slots=True)
class AttackOdds:
    attack: Attack
    damage: Distribution  # points of damage before cover and saves
    hit_lost: Distribution  # 0..HIT

    @property
    def taken_out(self) -> Fraction:
        return self.hit_lost.get(self.attack.hit, Fraction(0))

    @property
    def expected_hit_lost(self) -> Fraction:
        return sum((lost * p for lost, p in self.hit_lost.items()), Fraction(0))

    @property
    def any_strike(self) -> Fraction:
        return Fraction(1) - self.damage.get(0, Fraction(0))


def check_attack(attack: Attack) -> None:
    for name, (low, high) in LIMITS.items():
        value = getattr(attack, name)
        if not low <= value <= high:
            raise DiceError(f"{name.upper()} must be from {low} to {high}, not {value}.")


def attack_odds(attack: Attack) -> AttackOdds:
    """The exact distributions of damage and of HIT lost for one attack."""
    check_attack(attack)
    damage = attack_damage(attack.skill, attack.roa, attack.dam, attack.support)
    return AttackOdds(attack, damage, hit_lost(damage, attack.arm, attack.hit, attack.cover))


def die_damage(skill: int, dam: int) -> Distribution:
    """One attack die: miss (0), strike (DAM) or natural 1 (DAM+1, and 1 always strikes)."""
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for face in FACES:
        if face == 1:
            out[dam + 1] += SIXTH
        elif succeeds(face, skill):
            out[dam] += SIXTH
        else:
            out[0] += SIXTH
    return dict(out)


def convolve(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent amounts."""
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] += px * py
    return dict(out)


def attack_damage(skill: int, roa: int, dam: int, support: bool = False) -> Distribution:
    """Total damage of ROA attack dice, plus the support strike's DAM (never a natural 1)."""
    one = die_damage(skill, dam)
    total: Distribution = {dam if support else 0: Fraction(1)}
    for _ in range(roa):
        total = convolve(total, one)
    return total


def save_fails(arm: int) -> Fraction:
    """The chance one save die fails."""
    return Fraction(sum(1 for face in FACES if not succeeds(face, arm)), 6)


def hit_lost(damage: Distribution, arm: int, hit: int, cover: bool = False) -> Distribution:
    """HIT lost: cover saves the first point, each other point is a save die that may fail."""
    fail = save_fails(arm)
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for points, p in damage.items():
        dice = max(0, points - (1 if cover and points > 0 else 0))
        for failed in range(dice + 1):
            chance = comb(dice, failed) * fail**failed * (1 - fail) ** (dice - failed)
            out[min(hit, failed)] += p * chance
    return {lost: out[lost] for lost in range(hit + 1)}


# --- in a match --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TargetOdds:
    weapon: Weapon
    kind: str
    option: TargetOption
    odds: AttackOdds | None  # units and turrets
    explodes: Fraction | None = None  # barrels: at least one strike sets them off


def target_odds(state: MatchState, unit: UnitState) -> list[TargetOdds]:
    """The odds against every legal target of every weapon the unit may use now."""
    listed: list[TargetOdds] = []
    for kind in (RANGED, MELEE):
        for weapon in usable_weapons(unit, kind):
            for option in attack_targets(state, unit, kind, weapon):
                listed.append(_against(state, unit, kind, weapon, option))
    return listed


def _against(
    state: MatchState, unit: UnitState, kind: str, weapon: Weapon, option: TargetOption
) -> TargetOdds:
    target = combat.find_target(state, unit, option.target)
    plan = combat.plan_attack(state, unit, kind, weapon, target)  # skill, cover and support
    if target.item is not None and target.item.kind == BARREL:
        damage = attack_damage(plan.skill, weapon.roa, weapon.dam, plan.support)
        return TargetOdds(weapon, kind, option, None, 1 - damage.get(0, Fraction(0)))
    if target.unit is not None:
        arm, hit = target.unit.card.arm, target.unit.hit
    else:
        assert target.item is not None
        arm, hit = TURRET_ARM, target.item.hit  # rulings: Items, turrets save on ARM 2
    attack = Attack(plan.skill, weapon.roa, weapon.dam, arm, hit, plan.cover, plan.support)
    return TargetOdds(weapon, kind, option, attack_odds(attack))


# --- as text -----------------------------------------------------------------------------------
def percent(p: Fraction) -> str:
    """A probability as a percentage with one decimal; never rounds a possibility to 0 or 100."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    shown = f"{float(p) * 100:.1f}"
    if shown == "0.0":
        return "<0.1%"
    if shown == "100.0":
        return ">99.9%"
    return f"{shown.removesuffix('.0')}%"


def hit_lost_line(odds: AttackOdds) -> str:
    return " · ".join(f"{lost}: {percent(p)}" for lost, p in odds.hit_lost.items())


def format_attack_odds(odds: AttackOdds) -> str:
    return "\n".join(
        [
            f"**Attack odds**: {odds.attack.describe()}",
            f"HIT lost — {hit_lost_line(odds)}",
            f"Taken out: **{percent(odds.taken_out)}** · at least one strike: "
            f"{percent(odds.any_strike)} · HIT lost on average: {float(odds.expected_hit_lost):.2f}",
        ]
    )


def format_target_odds(unit: UnitState, listed: list[TargetOdds], limit: int = 1900) -> str:
    """One line per weapon and target; past `limit` characters the rest are counted, not shown."""
    if not listed:
        return f"{unit.name} has no legal target now."
    text = f"**{unit.name}'s targets** (odds before Tactical Orders)"
    for shown, entry in enumerate(listed):
        line = _target_line(entry)
        more = f"\n… and {len(listed) - shown} more."
        if len(text) + 1 + len(line) + len(more) > limit:
            return text + more
        text += "\n" + line
    return text


def _target_line(entry: TargetOdds) -> str:
    where = f"{entry.option.distance} away{', in cover' if entry.option.cover else ''}"
    head = f"{entry.weapon.name} → {entry.option.label} ({where})"
    if entry.odds is None:
        assert entry.explodes is not None
        return f"{head}: explodes {percent(entry.explodes)}"
    odds = entry.odds
    support = ", support" if odds.attack.support else ""
    return (
        f"{head}{support}: taken out **{percent(odds.taken_out)}** · HIT lost {hit_lost_line(odds)}"
    )
