"""A Skirm Lite defender's standing orders on its own save dice.

Lite rulebook Tactical Orders: "Re-roll any one die for any roll (including during one of your
opponent's Agents' Activations, for example during Melee combat)" and "Change the result of one
of your rolled dice by +/- 1 ... you can spend 2 TOs to reduce the result of a die by 2". The
defender's own dice in the opponent's activation are its save dice (Lite's melee has the target
roll saves too). Nothing waits for a defender who is away (rulings: Tactical Orders on rolls),
so with `orders_per_attack` set the squad's standing orders spend its TO on each roll of saves
as it is rolled, the cheapest change that saves first (rulings: Skirm Lite):

1. every failed die one above what saves: -1 (1 TO); then every one two above: -2 (2 TO);
2. every die still failed, first to last: a re-roll (1 TO);
3. a re-rolled die still failed: -1 or -2 as in 1 (a changed die is never re-rolled, as in Skirm).

A save die saves at or under ARM - DAM, so only lowering a die helps. One roll of saves spends
at most `orders_per_attack` TO, and never the reserve the squad keeps (`reroll_saves_above`).
`skirmbot.rules.lite.preview` works out the same policy's odds by formula.
"""

from __future__ import annotations

from collections.abc import Callable

from skirmbot.rules.skirm.rolls import succeeds
from skirmbot.rules.skirm.state import Die, SquadState

# The largest change bought for sure: "you can spend 2 TOs to reduce the result of a die by 2".
# A die further off is re-rolled for 1 TO instead of lowered for 3 or more.
SURE_CHANGE_UP_TO = 2


def save_budget(squad: SquadState) -> int:
    """The TO one roll of saves may spend now: up to `orders_per_attack`, above the reserve."""
    if squad.orders_per_attack is None or squad.reroll_saves_above is None:
        return 0
    return max(0, min(squad.orders_per_attack, squad.orders - squad.reroll_saves_above))


def highest_saving(needed: int) -> int:
    """The highest result that saves: at or under `needed`, but a 1 always saves and a 6 never
    does (rulings: Skirm Lite, 1s and 6s)."""
    return max(1, min(needed, 5))


def shortfall(value: int, needed: int) -> int:
    """How far a save die is above the highest result that saves (0: it saves)."""
    return 0 if succeeds(value, needed) else value - highest_saving(needed)


def spend_on_saves(dice: list[Die], needed: int, budget: int, roll: Callable[[], int]) -> int:
    """Change and re-roll the failed save dice in place, as the standing orders say; the TO
    spent (never more than `budget`)."""
    left = budget - lower_for_sure(dice, needed, budget)
    for die in dice:
        if left and shortfall(die.value, needed):
            die.face, die.rerolled = roll(), True
            left -= 1
    left -= lower_for_sure(dice, needed, left)  # only a re-rolled die can still fail here
    return budget - left


def lower_for_sure(dice: list[Die], needed: int, budget: int) -> int:
    """Lower every failed die that one or two TO make a save, the cheapest first, while the
    budget lasts; the TO spent."""
    spent = 0
    for by in range(1, SURE_CHANGE_UP_TO + 1):
        for die in dice:
            if shortfall(die.value, needed) == by and spent + by <= budget:
                die.modifier -= by
                spent += by
    return spent
