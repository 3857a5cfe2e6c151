"""The d20 rules (shared/rules/004): action points, bonus dice and opposed rolls, 2 to 4 players."""

from skirmbot.rules.d20.ruleset import RULESET

__all__ = ["RULESET"]
