"""Reading the group rules' content files: the checks every loader shares (profiles, company
lists, scenarios), each failing with ContentError in words a content author can act on."""

from __future__ import annotations

from typing import Any

from skirmbot.rules.errors import ContentError


def words(data: Any, key: str, where: str) -> str:
    """`data[key]` as non-empty text, stripped."""
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{where} needs a '{key}' in words.")
    return value.strip()


def whole(value: Any, key: str, where: str, bounds: tuple[int, int]) -> int:
    """`value` (read from `key`) as a whole number within `bounds`, both ends included."""
    low, high = bounds
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ContentError(f"{where}: '{key}' must be a whole number from {low} to {high}.")
    return value
