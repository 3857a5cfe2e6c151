"""Skirm's roll against a stat (rulebook Successes and Failures)."""

from __future__ import annotations


def succeeds(value: int, stat: int) -> bool:
    """A roll against a stat (rulebook Successes and Failures): at or under the stat succeeds,
    a 1 always succeeds and a 6 always fails, judged after all modifiers."""
    if value <= 1:
        return True
    if value >= 6:
        return False
    return value <= stat
