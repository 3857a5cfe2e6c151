"""How unit and weapon special rules change an attack (rulebook Special Rules tables).

Each function answers one question combat asks, naming the rules that answer it; combat stays
the rulebook's sequence. Rules that choose for a player who is not online (PAR, CTR) follow the
player's standing orders (rulings: Tactical Orders in play-by-post).
"""

from __future__ import annotations

from skirmbot.rules.skirm.cards import MELEE, RANGED, Weapon
from skirmbot.rules.skirm.state import UnitState

MAX_SKILL = 5  # +SK: "maximum 5"
CAMOUFLAGE_DISTANCE = 4
CAMOUFLAGE_FLOOR = 2  # CAM: "-1 RSK (minimum 2)"
STUN_FLOOR = 2  # STN: "-1 ACT in its next Activation (minimum 2)"


def attack_skill(
    attacker: UnitState,
    weapon: Weapon,
    kind: str,
    target: UnitState | None,
    distance: int,
    primary: bool = True,
) -> tuple[int, list[str]]:
    """The skill the attack dice are rolled against, and what changed it, in words."""
    notes: list[str] = []
    skill = attacker.card.msk if kind == MELEE else attacker.card.rsk
    if weapon.has("SK"):
        skill = weapon.value("SK")
        notes.append(f"SK{skill}: skill {skill}")
    if weapon.has("+SK") and skill < MAX_SKILL:
        skill += 1
        notes.append("+SK: +1 skill")
    if (
        primary
        and target is not None
        and kind == RANGED
        and target.card.has("CAM")
        and distance >= CAMOUFLAGE_DISTANCE
        and skill > CAMOUFLAGE_FLOOR
    ):
        skill -= 1
        notes.append(f"{target.name} is camouflaged (CAM): -1 RSK")
    if target is not None and kind == MELEE and target.card.has("DLS") and skill > 1:
        skill -= 1
        notes.append(f"{target.name} is a duellist (DLS): -1 MSK")
    return skill, notes


def automatic_strikes(weapon: Weapon, dice: int | None = None) -> int:
    """AHx: x of the attack dice strike without being rolled. `dice`: the attack dice this
    target gets (its share of a Spread weapon's ROA; None: the whole ROA). The automatic strikes
    come out of those dice, so a weapon never strikes with more dice than its ROA in all."""
    return min(weapon.value("AH"), weapon.roa if dice is None else dice)


def free_rerolls(attacker: UnitState, weapon: Weapon, kind: str) -> int:
    """PRx (ranged) and BRx (melee), from the unit and from the weapon: attack dice the
    attacker may re-roll without spending Tactical Orders."""
    code = "PR" if kind == RANGED else "BR"
    return attacker.card.value(code) + weapon.value(code)


def relentless(weapon: Weapon) -> bool:
    """RLT: every 6 is re-rolled (a 6 always fails, so the attacker always wants it)."""
    return weapon.has("RLT")


def natural_one_bonus(weapon: Weapon) -> int:
    """Extra damage of an attack die that rolls a natural 1: +1, or +2 with RND."""
    return 2 if weapon.has("RND") else 1


def deadly_bonus(weapon: Weapon, strikes: int) -> int:
    """DDx: x more damage in all when at least one strike lands."""
    return weapon.value("DD") if strikes else 0


def stuns(weapon: Weapon, naturals: int) -> bool:
    """STN: a natural 1 among the attack dice stuns the target."""
    return weapon.has("STN") and naturals > 0


def stunned_act(act: int) -> int:
    """ACT of a stunned unit's next activation: one less, but not below 2 (nor above its ACT)."""
    return act if act <= STUN_FLOOR else act - 1


def activation_act(unit: UnitState) -> int:
    """The ACT the unit starts its activation with (less when it is stunned)."""
    return stunned_act(unit.card.act) if unit.stunned else unit.card.act


def save_rerolls(unit: UnitState) -> int:
    """TGx: failed save dice the unit re-rolls for free (taken automatically: always better)."""
    return unit.card.value("TG")


def melee_weapons(unit: UnitState, in_activation: bool = True) -> tuple[Weapon, ...]:
    """Weapons that can make a Melee Attack: melee weapons, and ranged ones with MCR; outside the
    unit's activation (a counter-attack), not UWD weapons."""
    usable = tuple(w for w in unit.card.weapons if w.kind == MELEE or w.has("MCR"))
    return usable if in_activation else tuple(w for w in usable if not w.has("UWD"))


def heavy_surcharge(
    unit: UnitState, moved: bool, fired_heavy: bool, action_is_move: bool, weapon: Weapon | None
) -> int:
    """HVY: firing it after a Move, or a Move after firing it, costs 1 more ACT (Dash is free)."""
    if action_is_move:
        return 1 if fired_heavy else 0
    return 1 if weapon is not None and weapon.has("HVY") and moved else 0
