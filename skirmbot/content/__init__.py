"""The shipped content: maps, and each ruleset's missions and sample squads, as JSON package data.

Maps are shared by every ruleset (`maps/`); missions and squads belong to one ruleset
(`skirm/missions/`, `lite/squads/`). Names are the file names without `.json` (`foundry`,
`hold-the-line`). Files are read here and validated by the rules core, so a broken file fails
with the rules core's plain-words error.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.maps import BattleMap, map_from_json
from skirmbot.rules.ruleset import DEFAULT_RULESET
from skirmbot.rules.skirm.missions import Mission, mission_from_json
from skirmbot.rules.skirm.squads import Squad, squad_from_json

DEFAULT_MAP = "foundry"
DEFAULT_MISSION = "hold-the-line"
DEFAULT_SQUADS = ("iron-wardens", "ash-runners")
SHARED = ("maps",)  # kinds every ruleset plays with; the others are per ruleset


def _folder(kind: str, ruleset: str) -> Any:
    folder = resources.files("skirmbot.content")
    return folder.joinpath(kind) if kind in SHARED else folder.joinpath(ruleset).joinpath(kind)


def names(kind: str, ruleset: str = DEFAULT_RULESET) -> list[str]:
    """The shipped names of one kind: "maps", or `ruleset`'s "missions" or "squads"."""
    folder = _folder(kind, ruleset)
    if not folder.is_dir():
        return []
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".json"))


def defaults(ruleset: str = DEFAULT_RULESET) -> tuple[str, tuple[str, str]]:
    """The mission and the two squads a quick match of `ruleset` plays (the demo, practice)."""
    if ruleset == DEFAULT_RULESET:
        return DEFAULT_MISSION, DEFAULT_SQUADS
    squads = names("squads", ruleset)
    return names("missions", ruleset)[0], (squads[0], squads[-1])


def raw(kind: str, name: str, ruleset: str = DEFAULT_RULESET) -> dict[str, Any]:
    """The JSON data of one shipped file; ContentError lists the names when it does not exist."""
    entry = _folder(kind, ruleset).joinpath(f"{name}.json")
    if not entry.is_file():
        known = ", ".join(names(kind, ruleset)) or "none yet"
        raise ContentError(f"There is no {kind[:-1]} called '{name}'. Choose one of: {known}.")
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
