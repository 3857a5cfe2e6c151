"""Skirm Lite (shared/rules/001): the simplified rules for introductory or quick play."""

from skirmbot.rules.lite.ruleset import RULESET

__all__ = ["RULESET"]
