"""Exact odds of the d20 rules' opposed roll: d10 plus bonus d6s plus modifiers each way
(rulebook Combat: "Attacker will roll to attack with a d10, plus any bonus dice and/or
modifiers"; bonus dice are d6s). Ties go to the defender (our ruling: Ties)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

ROLL_DIE = 10
BONUS_DIE = 6


@dataclass(frozen=True)
class Odds:
    win: Fraction  # the attacker rolls higher
    tie: Fraction
    lose: Fraction  # the defender rolls higher


@cache
def total(bonus: int) -> Mapping[int, Fraction]:
    """The chance of each total of a d10 and `bonus` d6s."""
    found: dict[int, Fraction] = {face: Fraction(1, ROLL_DIE) for face in range(1, ROLL_DIE + 1)}
    for _ in range(bonus):
        nxt: dict[int, Fraction] = {}
        for value, chance in found.items():
            for face in range(1, BONUS_DIE + 1):
                nxt[value + face] = nxt.get(value + face, Fraction(0)) + chance / BONUS_DIE
        found = nxt
    return found


def opposed(attack_bonus: int, attack_mod: int, defence_bonus: int, defence_mod: int) -> Odds:
    """The attacker's chances against the defender's, each total with its modifier added."""
    win = tie = Fraction(0)
    defence = total(defence_bonus)
    for a, pa in total(attack_bonus).items():
        for d, pd in defence.items():
            diff = (a + attack_mod) - (d + defence_mod)
            if diff > 0:
                win += pa * pd
            elif diff == 0:
                tie += pa * pd
    return Odds(win, tie, 1 - win - tie)
