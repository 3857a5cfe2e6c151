"""Dice by hand with no match (/odds by hand, /roll's skill test, /to): the rules come from the
ruleset that offers them (`Ruleset.hand_dice`; Skirm's), never from a ruleset package."""

from __future__ import annotations

from skirmbot.rules.ruleset import HAND_ODDS, HandDice, Ruleset, rulesets


def hand_rules() -> Ruleset:
    """The ruleset whose dice are rolled by hand: the first with /odds by hand (Skirm)."""
    return next(rules for rules in rulesets().values() if HAND_ODDS in rules.features)


def hand_dice() -> HandDice:
    return hand_rules().hand_dice()
