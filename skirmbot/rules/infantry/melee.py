"""Melee in the match (rulebook 002: Melee Combat ¶1-¶4).

A melee attack costs 5 AP and is made now, but "resolved ... during the targeted trooper's turn
when they activate, before the targeted trooper takes any actions or movement": it waits in
`State.melees` until then. Our rulings (docs/plans/infantry.md §1-§2): the target is an enemy
on a neighbouring dot at the attacker's level with no high wall between; it is dropped if
either trooper is dead or unconscious by then; the attacker need not still be beside it.
"""

from __future__ import annotations

from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.infantry import combat
from skirmbot.rules.infantry.arcs import combat_modifier
from skirmbot.rules.infantry.arms import MELEE, Weapon
from skirmbot.rules.infantry.maps import Feature
from skirmbot.rules.infantry.state import PendingMelee, State, Trooper
from skirmbot.rules.infantry.wounds import hurt


def offered(state: State, trooper: Trooper) -> tuple[str, ...]:
    """What the trooper may attack with now (Melee Combat ¶2, W&E ¶1)."""
    row = state.arms.weapons.get(trooper.secondary or "")
    melee_secondary = row.name if row is not None and row.kind == MELEE else None
    return combat.melee_weapons(trooper.active, melee_secondary)


def row(state: State, name: str) -> Weapon:
    """The Melee table's row for an offered weapon: the knife and the bayonet share one
    ("Bayonet/Knife"); a long arm swung as a club is the Club."""
    if name in (combat.KNIFE, combat.BAYONET):
        return next(state.arms.weapons[w] for w in state.arms.always_melee if combat.KNIFE in w)
    return state.arms.weapon(name)


def default_weapon(state: State, trooper: Trooper) -> str:
    """Unnamed, the active melee secondary if it is active, else the knife."""
    choices = offered(state, trooper)
    return choices[-1] if trooper.active == choices[-1] else combat.KNIFE


def check(state: State, attacker: Trooper, target_id: str, weapon: str | None) -> PendingMelee:
    """The melee attack `attacker` would make, or IllegalCommand in words."""
    target = state.trooper(target_id)
    if target.seat == attacker.seat or not target.able or target.dot is None:
        raise IllegalCommand(f"{target.id} is not an enemy trooper that can be attacked.")
    assert attacker.dot is not None
    beside = attacker.dot.distance(target.dot) == 1 and attacker.level == target.level
    if not beside or state.board.feature(attacker.dot, target.dot, attacker.level) is Feature.WALL:
        raise IllegalCommand(
            f"{target.id} is not beside {attacker.id}: a melee target is on a neighbouring dot "
            "at the same level, with no wall between."
        )
    chosen = weapon if weapon is not None else default_weapon(state, attacker)
    choices = offered(state, attacker)
    match = next((c for c in choices if c.casefold() == chosen.casefold()), None)
    if match is None:
        raise IllegalCommand(f"{attacker.id} can attack with {', '.join(choices)}.")
    return PendingMelee(attacker.id, target.id, match)


def resolve(state: State, dice: Dice, target: Trooper) -> list[Event]:
    """Every melee attack waiting on `target`, as it activates, in the order made."""
    events: list[Event] = []
    for pending in [m for m in state.melees if m.target == target.id]:
        if pending not in state.melees:
            continue  # dropped: a trooper of it was put out meanwhile
        state.melees.remove(pending)
        events += _strike(state, dice, pending)
    return events


def _strike(state: State, dice: Dice, pending: PendingMelee) -> list[Event]:
    attacker, target = state.trooper(pending.attacker), state.trooper(pending.target)
    number = combat.melee_target_number(
        damage_modifier=combat_modifier(attacker),
        attacker_prone=attacker.prone,
        target_prone=target.prone,
    )
    rolled = combat.attack(dice, number)
    verdict = "hits" if rolled.hit else "misses"
    events = [
        Event(
            "attack",
            f"{attacker.id}'s {pending.weapon} at {target.id}: {rolled.roll} against "
            f"{number}+, {verdict}.",
            {
                "attacker": attacker.id,
                "target": target.id,
                "weapon": pending.weapon,
                "kind": "melee",
                "from": str(attacker.dot),
                "to": str(target.dot),
                "roll": rolled.roll,
                "tn": number,
                "hit": rolled.hit,
            },
        )  # fmt: skip
    ]
    if rolled.damage_roll is None:
        return events
    damage = row(state, pending.weapon).damage(attacker.max_ap)
    return events + hurt(
        state,
        target,
        damage,
        rolled.damage_roll,
        by=attacker,
        weapon=pending.weapon,
        kind="melee",
    )
