"""The shipped content: maps, missions and sample squads, as JSON package data.

Names are the file names without `.json` (`foundry`, `hold-the-line`). Files are read here and
validated by the rules core, so a broken file fails with the rules core's plain-words error.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.maps import BattleMap, map_from_json
from skirmbot.rules.skirm.missions import Mission, mission_from_json
from skirmbot.rules.skirm.squads import Squad, squad_from_json

DEFAULT_MAP = "foundry"
DEFAULT_MISSION = "hold-the-line"
DEFAULT_SQUADS = ("iron-wardens", "ash-runners")


def _folder(kind: str) -> Any:
    return resources.files("skirmbot.content").joinpath(kind)


def names(kind: str) -> list[str]:
    """The shipped names of one kind: "maps", "missions" or "squads"."""
    return sorted(
        entry.name[:-5] for entry in _folder(kind).iterdir() if entry.name.endswith(".json")
    )


def raw(kind: str, name: str) -> dict[str, Any]:
    """The JSON data of one shipped file; ContentError lists the names when it does not exist."""
    entry = _folder(kind).joinpath(f"{name}.json")
    if not entry.is_file():
        raise ContentError(
            f"There is no {kind[:-1]} called '{name}'. Choose one of: {', '.join(names(kind))}."
        )
    data = json.loads(entry.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ContentError(f"The {kind[:-1]} file '{name}' must hold a JSON object.")
    return data


def load_map(name: str = DEFAULT_MAP) -> BattleMap:
    return map_from_json(raw("maps", name))


def load_mission(name: str = DEFAULT_MISSION) -> Mission:
    return mission_from_json(raw("missions", name))


def load_squad(name: str, ep_limit: int = 100) -> Squad:
    return squad_from_json(raw("squads", name), ep_limit)
