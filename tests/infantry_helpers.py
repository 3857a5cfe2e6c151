"""Matches of the infantry rules built from the shipped content, for tests."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from skirmbot.rules.infantry.setup import match_content


def shipped(folder: str, name: str) -> Any:
    """A shipped infantry content file's JSON ("maps", "crossroads")."""
    path = resources.files("skirmbot.content").joinpath("infantry", folder, f"{name}.json")
    return json.loads(path.read_text("utf-8"))


def content(
    squads: tuple[str, str] = ("riflemen", "laser-team"),
    mission: str = "firefight",
    battle_map: str = "crossroads",
) -> dict[str, Any]:
    """A record's content: the map, the mission, two shipped squads and the weapons tables."""
    return match_content(
        {
            "map": shipped("maps", battle_map),
            "mission": shipped("missions", mission),
            "squads": [shipped("squads", name) for name in squads],
        }
    )
