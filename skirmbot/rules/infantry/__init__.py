"""The infantry rules (rulebook 002, "Skirmishers"): troopers with HP cells and AP that fall as
HP fall, 2D6 target numbers, firing arcs that fire in the enemy's movement, explosives, on a
hexagonal grid of dots (skirmbot.rules.dots)."""

from skirmbot.rules.infantry.ruleset import RULESET

__all__ = ["RULESET"]
