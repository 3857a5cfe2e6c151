"""Ranged and melee combat (rulebook Combat; Big Models' armour; Cover).

Both are an opposed roll: the attacker's d10 plus bonus dice and modifiers against the
defender's. Ranged: "If attacker beats defender, the defending model is ... down". Melee: "The
loser ... is put into a downed state and the winner may move up to 3 inches". Our rulings: an
attack costs 2 AP; a tie changes nothing; melee is fought between adjacent models; a Big
Model's armour is read on the arc the attacker stands in.
"""

from __future__ import annotations

from dataclasses import dataclass

from skirmbot.rules.d20.armory import Weapon
from skirmbot.rules.d20.geometry import arc, best_line, covered, gap, squares_for
from skirmbot.rules.d20.odds import BONUS_DIE, ROLL_DIE
from skirmbot.rules.d20.state import DOWNED, Model, State
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event

ATTACK_COST = 2  # action points (our ruling: Combat costs)
COVER = 1  # "add +1 to any defense roll"
MELEE_REACH = 1  # squares: melee is fought model to model (our ruling)
FREE_MOVE = 3  # inches: "the winner may move up to 3 inches"
ARMOUR_ARCS = ("front", "side", "rear")


@dataclass(frozen=True)
class Line:
    """What an attack would meet: whether the defender is in cover, which armour arc."""

    cover: bool
    arc: str | None  # for a Big Model
    distance: int  # squares


def check(state: State, attacker: Model, target: Model, weapon: Weapon) -> Line:
    """The attack as it would be made, or IllegalCommand saying why it cannot."""
    if target.side == attacker.side:
        raise IllegalCommand(f"{target.id} is on your own side.")
    if not target.standing:
        raise IllegalCommand(f"{target.id} is already down and cannot be attacked.")
    distance = gap(attacker.cells, target.cells)
    if weapon.melee and distance > MELEE_REACH:
        raise IllegalCommand(
            f"{weapon.name} is a melee weapon: {attacker.id} must stand next to {target.id}."
        )
    if not weapon.melee and squares_for(weapon.range) < distance:
        raise IllegalCommand(
            f"{target.id} is {distance} squares away; {weapon.name} reaches "
            f'{squares_for(weapon.range)} squares ({weapon.range}").'
        )
    line = best_line(state.board, attacker.cells, target.cells)
    if line is None:
        raise IllegalCommand(f"{attacker.id} cannot see {target.id}.")
    facing_arc = arc(target.facing or "N", target.cells, attacker.cells) if target.big else None
    if facing_arc is not None:
        _check_armour(target, weapon, facing_arc)
    return Line(covered(state.board, *line), facing_arc, distance)


def _check_armour(target: Model, weapon: Weapon, facing_arc: str) -> None:
    """ "If a big model has an armor value of 0 to 1, the big model may only be damaged at
    melee range. An armor value of 2+ can only be damaged by attacks with an Armor Penetration
    value" (our ruling: a value at least the armour's)."""
    assert target.profile.armour is not None
    armour = target.profile.armour[ARMOUR_ARCS.index(facing_arc)]
    if armour <= 1 and not weapon.melee:
        raise IllegalCommand(
            f"{target.id}'s {facing_arc} armour is {armour}: it can only be damaged in melee."
        )
    if armour >= 2 and weapon.penetration < armour:
        raise IllegalCommand(
            f"{target.id}'s {facing_arc} armour is {armour}: {weapon.name} needs an Armour "
            f"Penetration of {armour} or more."
        )


def modifiers(attacker: Model, target: Model, weapon: Weapon, line: Line) -> tuple[int, int]:
    """The attack's and the defence's modifiers: traits, and cover for the defender."""
    attack = attacker.profile.bonus("melee_attack" if weapon.melee else "ranged_attack")
    return attack, target.profile.bonus("defence") + (COVER if line.cover else 0)


def roll(dice: Dice, bonus: int, modifier: int) -> tuple[list[int], int]:
    faces = [dice.roll(ROLL_DIE)] + [dice.roll(BONUS_DIE) for _ in range(bonus)]
    return faces, sum(faces) + modifier


def resolve(
    state: State, dice: Dice, attacker: Model, target: Model, weapon: Weapon, bonus: tuple[int, int]
) -> list[Event]:
    """Roll both sides and down the loser (ranged: only the defender can lose)."""
    line = check(state, attacker, target, weapon)
    attack_mod, defence_mod = modifiers(attacker, target, weapon, line)
    attack_faces, attack = roll(dice, bonus[0], attack_mod)
    defence_faces, defence = roll(dice, bonus[1], defence_mod)
    kind = "melee" if weapon.melee else "ranged"
    events = [
        Event(
            "attack",
            f"{attacker.id} attacks {target.id} with {weapon.name}: {attack} against {defence}"
            + (" (in cover)" if line.cover else "")
            + ".",
            {
                "attacker": attacker.id,
                "target": target.id,
                "weapon": weapon.name,
                "kind": kind,
                "from": str(attacker.square),
                "to": str(target.square),
                # As every ruleset's attack tells it (the pictures read it): 1 if it won.
                "strikes": 1 if attack > defence else 0,
                "faces": attack_faces,
                "defence": defence_faces,
                "damage": 0,
                "cover": line.cover,
                "support": 0,
                "arc": line.arc,
                "total": attack,
                "against": defence,
            },
        )  # fmt: skip
    ]
    if attack > defence:
        events.append(down(target, attacker))
        if weapon.melee:
            state.free_move = attacker.id
    elif attack < defence and weapon.melee:
        events.append(down(attacker, target))
        state.free_move = target.id
    return events


def down(model: Model, by: Model) -> Event:
    model.status = DOWNED
    model.downed_by = by.side
    return Event("downed", f"{model.id} is down.", {"unit": model.id, "by": by.id})
