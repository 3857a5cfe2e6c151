"""Dice pools: Shooting, the melee of an Attack, and the Cast order's Hex (rulebook Shooting,
Attacking 2; Cover; Shaken Groups).

A pool is 12d6, or 6d6 if the Group is Bloodied when it rolls; each die at or above the needed
face hits; each T hits take 1 R from the target. Our rulings (docs/rulings.md, the group rules):
Cover re-rolls every hit die once, when Shooting only (melee is base to base); in melee both
pools are rolled (the attacker's first) before either loss applies; the defender tests first.

The `pool` event's `faces` are the first roll; `rerolled` the new faces of the dice re-rolled
for Cover (in the order of the hits they replace), `hits` the hits that stand.
"""

from __future__ import annotations

from dataclasses import dataclass

from skirmbot.rules.companies import geometry
from skirmbot.rules.companies.captains import mi_of, t_of
from skirmbot.rules.companies.resilience import HOW_ATTACK, HOW_HEX, HOW_SHOOT, after_losses, lose_r
from skirmbot.rules.companies.state import Group, State
from skirmbot.rules.dice import Dice
from skirmbot.rules.events import Event

POOL, BLOODIED_POOL = 12, 6  # "If Bloodied, roll 6d6 to hit; else roll 12d6"
SHAKEN_HITS_ON = 6  # "Shaken Groups only hit on a 6" (in melee, "not when Shooting")
HEX_LOSS = 1  # our content: a Hex takes 1 R


@dataclass(frozen=True)
class Pool:
    """One Group's to-hit roll and what it does to its target."""

    hits: int
    lost: int  # R the target loses: hits // its T (at most its R)
    event: Event


def roll_pool(
    state: State,
    dice: Dice,
    roller: Group,
    target: Group,
    *,
    purpose: str,
    needed: int,
    cover: bool = False,
) -> Pool:
    """Rolls the roller's pool against `needed`; Cover re-rolls each hit die once."""
    count = BLOODIED_POOL if roller.bloodied else POOL
    faces = [dice.roll(6) for _ in range(count)]
    first_hits = sum(1 for face in faces if face >= needed)
    rerolled = [dice.roll(6) for _ in range(first_hits)] if cover else []
    hits = sum(1 for face in rerolled if face >= needed) if cover else first_hits
    lost = min(hits // t_of(state, target), target.r)
    text = (
        f"{roller.id} rolls {count}d6 to hit {target.id} ({needed}+): {hits} "
        + ("hit" if hits == 1 else "hits")
        + (f" after Cover re-rolled {first_hits}" if cover else "")
        + (f"; {target.id} loses {lost} R." if lost else ".")
    )
    event = Event(
        "pool",
        text,
        {
            "unit": roller.id,
            "target": target.id,
            "purpose": purpose,
            "dice": count,
            "faces": faces,
            "needed": needed,
            "hits": hits,
            "rerolled": rerolled,
            "r_lost": lost,
        },
    )
    return Pool(hits, lost, event)


def shoot(state: State, dice: Dice, shooter: Group, target: Group) -> list[Event]:
    """Shooting: hits on the shooter's MI or more (Shaken or not), Cover re-rolls the hits;
    "If the target lost any R, it must Test Resilience"."""
    mi = mi_of(state, shooter)
    assert mi is not None, "the engine lets only a Group with a MI profile Shoot"
    cover = geometry.Terrain(state.board).in_cover(target.models)
    pool = roll_pool(state, dice, shooter, target, purpose="shoot", needed=mi, cover=cover)
    events = [pool.event, *lose_r(target, pool.lost, shooter)]
    return events + after_losses(state, dice, [(target, pool.lost, shooter)], how=HOW_SHOOT)


def melee_needed(group: Group, *, attacking: bool) -> int:
    """The face its melee dice hit on: its ME to-hit for Attacking or Defending, a 6 if Shaken."""
    me = group.profile.me_attack if attacking else None
    needed = me if me is not None else group.profile.me_defend
    return SHAKEN_HITS_ON if group.shaken else needed


def melee(
    state: State, dice: Dice, attacker: Group, defender: Group, *, counter: bool = False
) -> list[Event]:
    """Attacking 2: "Both Groups try to hit each other", the attacker with its ME for Attacking
    and the defender for Defending (`counter`, a Defiant counter-charge: the other way round);
    both roll before either loses R, then each that lost R tests, the defender first."""
    attack = roll_pool(
        state,
        dice,
        attacker,
        defender,
        purpose="defend" if counter else "attack",
        needed=melee_needed(attacker, attacking=not counter),
    )
    defence = roll_pool(
        state,
        dice,
        defender,
        attacker,
        purpose="attack" if counter else "defend",
        needed=melee_needed(defender, attacking=counter),
    )
    events = [attack.event, defence.event]
    events += lose_r(defender, attack.lost, attacker)
    events += lose_r(attacker, defence.lost, defender)
    losses = [(defender, attack.lost, attacker), (attacker, defence.lost, defender)]
    return events + after_losses(state, dice, losses, how=HOW_ATTACK)


def hex(state: State, dice: Dice, caster: Group, target: Group) -> list[Event]:
    """The Cast order (our content, Hex): the target loses 1 R and Tests Resilience."""
    events = [
        Event(
            "hexed",
            f"{caster.id} hexes {target.id}.",
            {"unit": caster.id, "target": target.id},
        ),
        *lose_r(target, HEX_LOSS, caster),
    ]
    return events + after_losses(state, dice, [(target, HEX_LOSS, caster)], how=HOW_HEX)
