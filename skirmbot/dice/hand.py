"""Dice by hand with no match (/odds by hand, /roll's skill test, /to): the rules come from the
ruleset that offers them (`Ruleset.hand_dice`; Skirm's), never from a ruleset package."""

from __future__ import annotations

from skirmbot.rules.ruleset import HAND_ODDS, HandDice, rulesets


def hand_dice() -> HandDice:
    """The first ruleset's dice by hand among those with /odds by hand (the default first)."""
    offering = next(rules for rules in rulesets().values() if HAND_ODDS in rules.features)
    return offering.hand_dice()
