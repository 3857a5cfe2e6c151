"""Skirm's attack odds: the exact chance of each outcome of an attack, before it is made (the
numbers /odds shows, `skirmbot.dice.odds`, and a unit's preview, `skirmbot.rules.skirm.preview`).

The attack is resolved as `skirmbot.rules.skirm.combat` resolves it (rulebook Combat and Special
Rules; rulings: Combat, Special rules, Tactical Orders in play-by-post), in the engine's order:

1. Attack dice: the weapon's ROA (or its share of an SPR spread), less the AHx dice, which
   strike unrolled. RLT re-rolls every 6 at once (that die is then final).
2. The attacker's re-rolls: free PRx/BRx re-rolls first, then Tactical Orders, each on a failed
   die not yet re-rolled (see "Tactical Orders" below).
3. PAR (melee, by the target's standing orders): the target re-rolls the lowest successful die
   the attacker has not re-rolled, so a natural 1 first.
4. Damage: each strike DAM, each natural 1 +1 (RND: +2), melee support and AHx one strike of DAM
   each (never a natural 1), DDx once if anything strikes. Cover saves the first point.
5. Saves: one die per point at or under ARM; TGx re-rolls failed saves for free, then the
   target's standing orders re-roll failed saves with its squad's TO while it has more than
   the number it keeps. Each failure costs 1 HIT; at 0 HIT the target is Taken Out.
6. Multi-target weapons (BLS, XPL, CRx, LNR, SPR) roll again for each further target, in the
   engine's order, each with its own skill, cover and support; free re-rolls and the TO the
   attacker spends are shared by the whole attack.
7. CTR: a melee target that survives strikes back at the attacker (its free re-rolls on its
   failed dice, no TO; the attacker may parry and re-roll saves as above).

**Tactical Orders.** `orders` is the most TO the attacker is ready to spend on re-rolls in this
attack: each failed attack die is re-rolled as it comes (free re-rolls first), until the free
re-rolls and those TO run out. Re-rolling a miss never makes an attack worse, so for every
outcome shown (HIT lost, Taken Out) this is the best use of re-rolls; changing a die by +/-1
is not counted. Odds are always shown without TO as well. In a match the squads' TO now and
their standing orders are used, so TO spent on one target's saves are not there for the next.

Everything is exact (fractions, no floats): dice are enumerated by category (natural 1, other
strike, miss; re-rolled or not) with integer weights, and saves by a small dynamic programme over
(HIT lost, re-rolls used). Left out: +/-1 changes with TO; barrels set off by the attack (shown as
the chance they explode, not the blast's damage); a target taken out earlier in the same attack
by something else; after a multi-target melee attack, one counter-attack's effect on the next.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from skirmbot.rules.adjacency import adjacent
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.maps import BARREL
from skirmbot.rules.sight import sight
from skirmbot.rules.skirm import area, combat, specials
from skirmbot.rules.skirm.cards import MELEE, RANGED, Weapon
from skirmbot.rules.skirm.legal import TargetOption, attack_targets, usable_weapons
from skirmbot.rules.skirm.rolls import succeeds
from skirmbot.rules.skirm.state import TURRET_ARM, MatchState, UnitState
from skirmbot.rules.squares import Square

FACES = range(1, 7)
Distribution = dict[int, Fraction]
DEFAULT_ORDERS = 1  # /odds shows "without TO" and "re-rolling with up to 1 TO" unless told


# --- one target's roll, every rule settled ------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Roll:
    """One target's attack roll, with the skill after SKx, +SK, CAM and DLS."""

    dice: int  # attack dice rolled (AHx dice strike unrolled)
    skill: int
    dam: int
    unrolled: int = 0  # strikes not rolled: AHx and melee support
    natural_bonus: int = 1  # extra damage of a natural 1 (RND: 2)
    deadly: int = 0  # DDx: added once when anything strikes
    relentless: bool = False  # RLT: every 6 re-rolled at once
    parried: bool = False  # PAR: the target re-rolls one successful die
    cover: bool = False  # the first point of damage is saved

    def strikes(self, naturals: int, others: int) -> int:
        return naturals + others + self.unrolled

    def damage(self, naturals: int, others: int) -> int:
        strikes = self.strikes(naturals, others)
        return strikes * self.dam + naturals * self.natural_bonus + (self.deadly if strikes else 0)

    @property
    def most_damage(self) -> int:
        return self.damage(self.dice, 0)


@dataclass(frozen=True, slots=True)
class Saves:
    """The target's saves: ARM, HIT now, free re-rolls (TGx) and whose standing orders apply."""

    arm: int
    hit: int
    tough: int = 0
    side: int | None = None  # None: nobody's TO (turrets)


@dataclass(frozen=True, slots=True)
class Counter:
    """CTR: if the target survives a melee attack it strikes back at the attacker."""

    unit: str  # who strikes back
    weapon: str
    roll: Roll
    free_rerolls: int  # its own PRx/BRx; a counter-attack spends no TO
    saves: Saves  # the attacker's


@dataclass(frozen=True, slots=True)
class Step:
    """One target of the attack, in the order the engine rolls them."""

    label: str
    roll: Roll
    saves: Saves | None  # None: a barrel, set off by any strike
    counter: Counter | None = None
    side: int | None = None  # the target unit's squad (None: an item)


@dataclass(frozen=True, slots=True)
class Table:
    """What the squads bring to the attack: the attacker's side, each squad's TO now and each
    squad's standing order for saves (re-roll failed saves while more than N TO are left)."""

    side: int
    orders: tuple[int, int]
    keep: tuple[int | None, int | None] = (None, None)  # None: never spend TO on saves

    def save_rerolls(self, side: int | None, orders: tuple[int, int]) -> int:
        if side is None or self.keep[side] is None:
            return 0
        keep = self.keep[side]
        assert keep is not None
        return max(0, orders[side] - keep)


# --- the dice: exact enumeration by category -------------------------------------------------------
def _strike_faces(skill: int) -> tuple[int, int, int]:
    """Faces of one fresh attack die that are a natural 1, another strike, a miss."""
    others = sum(1 for face in FACES if face != 1 and succeeds(face, skill))
    return 1, others, 6 - 1 - others


@lru_cache(maxsize=256)
def _fresh_dice(skill: int, count: int) -> dict[tuple[int, int], int]:
    """`count` fresh dice: weights (over 6^count) of (naturals, other strikes)."""
    nat, hit, miss = _strike_faces(skill)
    out: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(count):
        step: defaultdict[tuple[int, int], int] = defaultdict(int)
        for (n, s), w in out.items():
            step[(n + 1, s)] += w * nat
            step[(n, s + 1)] += w * hit
            step[(n, s)] += w * miss
        out = dict(step)
    return out


@lru_cache(maxsize=256)
def strike_outcomes(roll: Roll, rerolls: int) -> dict[tuple[int, int, int], Fraction]:
    """The attack roll's exact outcomes: (naturals, other strikes, re-rolls used), after RLT,
    up to `rerolls` re-rolls of failed dice not yet re-rolled, and PAR."""
    rerolls = min(rerolls, roll.dice)
    nat, hit, miss = _strike_faces(roll.skill)
    # One die: (natural, other strike, miss) x (may still be re-rolled or parried), weights.
    if roll.relentless:  # a 6 is re-rolled at once: 36 equally likely outcomes
        per_die = [
            ((1, 0, 0, True), nat * 6),
            ((0, 1, 0, True), hit * 6),
            ((0, 0, 1, True), (miss - 1) * 6),  # 6 is a miss but never stays
            ((1, 0, 0, False), nat),
            ((0, 1, 0, False), hit),
            ((0, 0, 0, False), miss),
        ]
        base = 36
    else:
        per_die = [((1, 0, 0, True), nat), ((0, 1, 0, True), hit), ((0, 0, 1, True), miss)]
        base = 6
    # State: naturals, other strikes, failed dice that may be re-rolled, parry target
    # (2: a natural 1 not re-rolled, 1: another such strike, 0: none).
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 1}
    for _ in range(roll.dice):
        step: defaultdict[tuple[int, int, int, int], int] = defaultdict(int)
        for (n, s, f, e), w in states.items():
            for (dn, ds, df, fresh), ways in per_die:
                if not ways:
                    continue
                mark = e
                if roll.parried and fresh and dn:
                    mark = 2
                elif roll.parried and fresh and ds:
                    mark = max(e, 1)
                step[(n + dn, s + ds, f + df, mark)] += w * ways
        states = dict(step)
    denominator = base**roll.dice * 6**rerolls * (6 if roll.parried else 1)
    out: defaultdict[tuple[int, int, int], int] = defaultdict(int)
    for (n, s, f, e), w in states.items():
        used = min(f, rerolls)
        spread = 6 ** (rerolls - used)
        for (dn, ds), ways in _fresh_dice(roll.skill, used).items():
            weight = w * ways * spread
            n2, s2 = n + dn, s + ds
            if not roll.parried:
                out[(n2, s2, used)] += weight
                continue
            if e == 0:
                out[(n2, s2, used)] += weight * 6
                continue
            n2, s2 = (n2 - 1, s2) if e == 2 else (n2, s2 - 1)
            for (pn, ps), again in _fresh_dice(roll.skill, 1).items():
                out[(n2 + pn, s2 + ps, used)] += weight * again
    return {key: Fraction(w, denominator) for key, w in out.items() if w}


@lru_cache(maxsize=4096)
def save_outcomes(arm: int, hit: int, rerolls: int, dice: int) -> dict[tuple[int, int], Fraction]:
    """`dice` save dice against ARM, re-rolling up to `rerolls` failed ones (first to last, each
    once): (HIT lost, capped at `hit`; re-rolls used)."""
    table = _save_table(arm, hit, rerolls)
    passes = sum(1 for face in FACES if succeeds(face, arm))
    while len(table) <= dice:  # one more die: weights over 36 (a failed die may roll again)
        step: defaultdict[tuple[int, int], int] = defaultdict(int)
        for (lost, used), w in table[-1].items():
            step[(lost, used)] += w * passes * 6
            worse = min(hit, lost + 1)
            if used < rerolls:
                step[(lost, used + 1)] += w * (6 - passes) * passes
                step[(worse, used + 1)] += w * (6 - passes) ** 2
            else:
                step[(worse, used)] += w * (6 - passes) * 6
        table.append(dict(step))
    return {key: Fraction(w, 36**dice) for key, w in table[dice].items() if w}


@lru_cache(maxsize=64)
def _save_table(arm: int, hit: int, rerolls: int) -> list[dict[tuple[int, int], int]]:
    """Save weights by number of dice, grown as needed by `save_outcomes`."""
    return [{(0, 0): 1}]


# --- an attack, target after target ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CounterOdds:
    unit: str
    weapon: str
    attacker_hit: int
    happens: Fraction  # the target survives and strikes back
    hit_lost: Distribution  # the attacker's, when it does

    @property
    def taken_out(self) -> Fraction:
        return self.hit_lost.get(self.attacker_hit, Fraction(0))


@dataclass(frozen=True, slots=True)
class Outcome:
    """One target's odds under one way of spending TO."""

    label: str
    hit: int  # the target's HIT now (0 for a barrel)
    damage: Distribution  # points of damage before cover and saves
    hit_lost: Distribution  # 0..HIT
    struck: Fraction  # at least one strike (a barrel explodes)
    stunned: Fraction  # at least one natural 1 (STN)
    counter: CounterOdds | None = None

    @property
    def taken_out(self) -> Fraction:
        return self.hit_lost.get(self.hit, Fraction(0)) if self.hit else Fraction(0)

    @property
    def expected_hit_lost(self) -> Fraction:
        return sum((lost * p for lost, p in self.hit_lost.items()), Fraction(0))


_State = tuple[int, int, tuple[int, int]]  # free re-rolls left, TO budget left, squads' TO


def resolve(steps: list[Step], table: Table, free: int, budget: int) -> list[Outcome]:
    """Each target's exact odds when the attacker has `free` re-rolls and is ready to spend up
    to `budget` TO re-rolling failed attack dice, target after target."""
    states: dict[_State, Fraction] = {(free, budget, table.orders): Fraction(1)}
    outcomes = []
    for step in steps:
        outcome, states = _resolve_step(step, table, states)
        outcomes.append(outcome)
    return outcomes


def _resolve_step(
    step: Step, table: Table, states: dict[_State, Fraction]
) -> tuple[Outcome, dict[_State, Fraction]]:
    roll, saves, me = step.roll, step.saves, table.side
    damage: defaultdict[int, Fraction] = defaultdict(Fraction)
    lost: defaultdict[int, Fraction] = defaultdict(Fraction)
    struck = stunned = Fraction(0)
    after: defaultdict[_State, Fraction] = defaultdict(Fraction)
    survivors: defaultdict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for (free, budget, orders), p in states.items():
        spendable = min(budget, orders[me])
        for (n, s, used), q in strike_outcomes(roll, free + spendable).items():
            free_used = min(used, free)
            spent = used - free_used
            paid = _spend(orders, me, spent)
            chance = p * q
            points = roll.damage(n, s)
            damage[points] += chance
            struck += chance if roll.strikes(n, s) else 0
            stunned += chance if n else 0
            left = (free - free_used, budget - spent)
            if saves is None:
                after[(*left, paid)] += chance
                continue
            dice = max(0, points - (1 if roll.cover and points > 0 else 0))
            rerolls = saves.tough + table.save_rerolls(saves.side, paid)
            for (hit_lost, rerolled), w in save_outcomes(
                saves.arm, saves.hit, rerolls, dice
            ).items():
                final = paid
                if saves.side is not None:
                    final = _spend(paid, saves.side, max(0, rerolled - saves.tough))
                lost[hit_lost] += chance * w
                after[(*left, final)] += chance * w
                if step.counter is not None and hit_lost < saves.hit:
                    survivors[final] += chance * w
    counter = _counter_odds(step.counter, table, survivors) if step.counter else None
    hit = saves.hit if saves is not None else 0
    outcome = Outcome(
        step.label,
        hit,
        dict(sorted(damage.items())),
        {n: lost[n] for n in range(hit + 1)} if saves is not None else {},
        struck,
        stunned,
        counter,
    )
    return outcome, dict(after)


def _spend(orders: tuple[int, int], side: int, spent: int) -> tuple[int, int]:
    if not spent:
        return orders
    return (orders[0] - spent, orders[1]) if side == 0 else (orders[0], orders[1] - spent)


def _counter_odds(
    counter: Counter, table: Table, survivors: dict[tuple[int, int], Fraction]
) -> CounterOdds:
    """The counter-attack's odds, given that the target survived (mixed over the TO the
    attacker's squad has left by then, which its standing orders may spend on saves)."""
    happens = sum(survivors.values(), Fraction(0))
    saves = counter.saves
    lost: defaultdict[int, Fraction] = defaultdict(Fraction)
    for orders, p in survivors.items():
        rerolls = saves.tough + table.save_rerolls(saves.side, orders)
        for (n, s, _), q in strike_outcomes(counter.roll, counter.free_rerolls).items():
            points = counter.roll.damage(n, s)
            for (hit_lost, _), w in save_outcomes(saves.arm, saves.hit, rerolls, points).items():
                lost[hit_lost] += p * q * w
    shown = {n: (lost[n] / happens if happens else Fraction(0)) for n in range(saves.hit + 1)}
    return CounterOdds(counter.unit, counter.weapon, saves.hit, happens, shown)


# --- in a match -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TargetOdds:
    """One weapon against one target chosen in a match: every target it rolls for, without TO
    and spending up to `orders` TO on re-rolls."""

    weapon: Weapon
    kind: str
    option: TargetOption
    skill: int
    notes: tuple[str, ...]  # what changed the skill (CAM, DLS, SKx, +SK)
    free_rerolls: int
    steps: tuple[Step, ...]
    orders: int  # TO the attacker is ready to spend (capped by what the squad has)
    without: tuple[Outcome, ...]
    spending: tuple[Outcome, ...] | None = None
    support: bool = False
    attacker_side: int = 0

    @property
    def primary(self) -> Outcome:
        return self.without[0]

    @property
    def explodes(self) -> Fraction | None:
        """Barrels: at least one strike sets them off."""
        return self.primary.struck if self.steps[0].saves is None else None


def target_odds(
    state: MatchState, unit: UnitState, target: str | None = None, orders: int = DEFAULT_ORDERS
) -> list[TargetOdds]:
    """The odds against every legal target (or the one named) of every weapon the unit may use
    now; `orders` is capped at the TO the unit's squad has.

    `target` may name further targets after a comma (`Bo, Cy`), as /shoot's `also` does for a
    Spread (SPR) or Chain Reaction (CRx) weapon: then only the weapons that can take them are
    listed, and if none can, the engine's reason is raised (IllegalCommand)."""
    names = combat.target_names(target)
    first, also = (names[0], names[1:]) if names else (None, [])
    listed: list[TargetOdds] = []
    refused: IllegalCommand | None = None
    for kind in (RANGED, MELEE):
        for weapon in usable_weapons(unit, kind):
            for option in attack_targets(state, unit, kind, weapon):
                if first is not None and not _names(option, first):
                    continue
                try:
                    listed.append(_against(state, unit, kind, weapon, option, orders, also))
                except IllegalCommand as error:  # this weapon cannot take the further targets
                    refused = error
    if not listed and refused is not None:
        raise refused
    return listed


def _names(option: TargetOption, text: str) -> bool:
    wanted = text.strip().casefold()
    return wanted in (option.target.casefold(), option.label.casefold())


def _against(
    state: MatchState,
    unit: UnitState,
    kind: str,
    weapon: Weapon,
    option: TargetOption,
    orders: int,
    also: list[str],
) -> TargetOdds:
    # The engine's own declaration: target, cover, support, skill, SPR shares and the further
    # targets of a Blast, Chain Reaction, Linear or Spread weapon, checked as /shoot checks them.
    declared = combat.Declaration(unit, kind, weapon, option.target, ", ".join(also) or None)
    plan = combat.declare(state, declared)
    count = plan.dice if plan.dice is not None else weapon.roa
    first = _step(
        state, unit, kind, weapon, plan.target, plan.skill, plan.cover, plan.support, count,
        plan.automatic,
    )  # fmt: skip
    steps = [first]
    for aim in plan.queue:
        steps.append(_further(state, unit, kind, weapon, aim))
    squads = state.squads
    table = Table(
        unit.side,
        (squads[0].orders, squads[1].orders),
        (squads[0].reroll_saves_above, squads[1].reroll_saves_above),
    )
    budget = max(0, min(orders, squads[unit.side].orders))
    without = tuple(resolve(steps, table, plan.free_rerolls, 0))
    spending = tuple(resolve(steps, table, plan.free_rerolls, budget)) if budget else None
    return TargetOdds(
        weapon, kind, option, plan.skill, plan.notes, plan.free_rerolls, tuple(steps), budget,
        without, spending, plan.support, unit.side,
    )  # fmt: skip


def _step(
    state: MatchState,
    attacker: UnitState,
    kind: str,
    weapon: Weapon,
    target: combat.Target,
    skill: int,
    cover: bool,
    support: bool,
    count: int,
    automatic: int,
    counters: bool = True,
) -> Step:
    """A target as the engine rolls for it (rules/combat.py roll_attack and _resolve_one):
    `count` attack dice of which `automatic` (AHx) strike unrolled; `counters`: whether a CTR
    target strikes back (a counter-attack never provokes another)."""
    victim = target.unit
    parried = (
        kind == MELEE
        and victim is not None
        and victim.card.has("PAR")
        and state.squads[victim.side].parry
    )
    roll = Roll(
        dice=max(0, count - automatic),
        skill=skill,
        dam=weapon.dam,
        unrolled=automatic + (1 if support else 0),
        natural_bonus=specials.natural_one_bonus(weapon),
        deadly=specials.deadly_bonus(weapon, 1),
        relentless=specials.relentless(weapon),
        parried=parried,
        cover=cover,
    )
    if victim is not None:
        saves: Saves | None = Saves(
            victim.card.arm, victim.hit, specials.save_rerolls(victim), victim.side
        )
        counter = _counter(state, attacker, victim) if kind == MELEE and counters else None
        return Step(victim.name, roll, saves, counter, victim.side)
    assert target.item is not None
    if target.item.kind == BARREL:
        return Step(target.label, roll, None)
    return Step(target.label, roll, Saves(TURRET_ARM, target.item.hit))  # nobody's TO


def _further(
    state: MatchState, attacker: UnitState, kind: str, weapon: Weapon, aim: area.Aim
) -> Step:
    """A further target of a multi-target weapon, as rules/combat.py _roll_next_target plans
    it: no CAM (not the primary target), AHx out of its own dice, cover and support seen from
    where the attacker stands."""
    assert attacker.square is not None
    unit = state.units.get(aim.unit) if aim.unit else None
    item = state.items.get(aim.item) if aim.item is not None else None
    target = combat.Target(aim.square, unit=unit, item=item)
    skill, _ = specials.attack_skill(
        attacker, weapon, kind, unit, attacker.square.distance(aim.square), primary=False
    )
    cover = (
        not aim.no_cover
        and not weapon.has("NCV")
        and unit is not None
        and sight(state.board, attacker.square, aim.square, set(state.occupancy())).cover
    )
    support = kind == MELEE and _supported(state, attacker, aim.square)
    # AHx per target, out of that target's own dice (rules/combat.py _roll_next_target).
    automatic = specials.automatic_strikes(weapon, aim.dice)
    return _step(state, attacker, kind, weapon, target, skill, cover, support, aim.dice, automatic)


def _supported(state: MatchState, attacker: UnitState, square: Square) -> bool:
    return any(
        mate.square is not None and adjacent(state.board, mate.square, square)
        for mate in state.on_map(attacker.side)
        if mate is not attacker
    )


def _counter(state: MatchState, attacker: UnitState, victim: UnitState) -> Counter | None:
    """CTR as rules/combat.py counter_attack resolves it: the victim's strongest melee weapon
    usable outside its activation, its free re-rolls on its failed dice, no TO."""
    if not (victim.card.has("CTR") and state.squads[victim.side].counter):
        return None
    weapons = specials.melee_weapons(victim, in_activation=False)
    if not weapons or victim.square is None or attacker.square is None:
        return None
    if not adjacent(state.board, victim.square, attacker.square):
        return None
    weapon = max(weapons, key=lambda w: (w.roa * w.dam, w.name))
    back = combat.Target(attacker.square, unit=attacker)
    plan = combat.plan_attack(state, victim, MELEE, weapon, back)
    step = _step(
        state, victim, MELEE, weapon, back, plan.skill, False, plan.support, weapon.roa,
        plan.automatic, counters=False,
    )  # fmt: skip
    assert step.saves is not None
    return Counter(victim.name, weapon.name, step.roll, plan.free_rerolls, step.saves)
