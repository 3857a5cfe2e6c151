"""Skirm's dice with no match: what /odds by hand, /roll's skill test and /to take from Skirm's
rules (`Ruleset.hand_dice`). The typed stats are read and checked by `skirmbot.dice.odds`; the
attack is resolved here exactly as the engine resolves it (`skirmbot.rules.skirm.odds`)."""

from __future__ import annotations

from collections.abc import Mapping

from skirmbot.rules.skirm.odds import DEFAULT_ORDERS, Outcome, Roll, Saves, Step, Table, resolve
from skirmbot.rules.skirm.rolls import succeeds
from skirmbot.rules.skirm.turns import BASE_ORDER_DICE


class SkirmHandDice:
    """Skirm's rules for dice rolled by hand (rulebook Successes and Failures, Tactical
    Orders, Combat)."""

    default_orders = DEFAULT_ORDERS
    order_dice = BASE_ORDER_DICE

    def succeeds(self, face: int, skill: int) -> bool:
        return succeeds(face, skill)

    def attack(
        self,
        stats: Mapping[str, int],
        rules: Mapping[str, int],
        *,
        cover: bool,
        support: bool,
        budget: int,
    ) -> Outcome:
        """One attack given by hand (`stats`: skill, roa, dam, arm, hit; `rules`: each special
        rule's x, 1 for one without a number), with up to `budget` TO on re-rolls of failed
        attack dice after the free PR/BR re-rolls."""
        automatic = min(rules.get("AH", 0), stats["roa"])
        roll = Roll(
            dice=stats["roa"] - automatic,
            skill=stats["skill"],
            dam=stats["dam"],
            unrolled=automatic + (1 if support else 0),
            natural_bonus=2 if rules.get("RND") else 1,
            deadly=rules.get("DD", 0),
            relentless=bool(rules.get("RLT")),
            parried=bool(rules.get("PAR")),
            cover=cover,
        )
        step = Step(
            "the target", roll, Saves(stats["arm"], stats["hit"], rules.get("TG", 0), 1), side=1
        )
        free = rules.get("PR", 0) + rules.get("BR", 0)
        return resolve([step], Table(0, (budget, 0)), free, budget)[0]


HAND_DICE = SkirmHandDice()
