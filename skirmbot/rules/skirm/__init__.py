"""Skirm, the full rules (shared/rules/000): the first and default ruleset.

Every module here holds one part of that rulebook; the kernel in `skirmbot.rules` holds what all
rulesets share (squares, the board and its geometry, dice, commands, the record).
"""

from skirmbot.rules.skirm.ruleset import RULESET

__all__ = ["RULESET"]
