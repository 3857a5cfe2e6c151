"""The group rules (rulebook 003, "Skirmish Rules"): companies of Groups, 2d6 activation tests,
Resilience, Shaken and Retreat, for two sides of one or more players each (team play)."""

from skirmbot.rules.companies.ruleset import RULESET

__all__ = ["RULESET"]
