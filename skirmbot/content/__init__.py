"""The shipped content: maps, and each ruleset's missions and sample squads, as JSON package data.

Maps are shared by the rulesets on squares (`maps/`); a ruleset with a maps folder of its own
plays on those alone (`infantry/maps/`: boards of dots). Missions and squads belong to one
ruleset (`skirm/missions/`, `lite/squads/`). Names are the file names without `.json` (`foundry`,
`hold-the-line`); players read each file's display name (its "name": `Hold the Line`). What a
person types is found here, once, by `find`: the file name or the display name, in any case
and spacing; records keep the file's data, found by its file name. Files are read here and
validated by their ruleset (`Ruleset.load_mission`, `load_squad`), so a broken file fails with
the rules' plain-words error.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.maps import BattleMap, map_from_json
from skirmbot.rules.ruleset import DEFAULT_RULESET
from skirmbot.rules.ruleset import ruleset as ruleset_called
from skirmbot.words import named, shown

DEFAULT_MAP = "foundry"
DEFAULT_MISSION = "hold-the-line"
DEFAULT_SQUADS = ("iron-wardens", "ash-runners")
SHARED = ("maps",)  # kinds shared by the rulesets that keep none of their own; others per ruleset


def _folder(kind: str, ruleset: str) -> Any:
    folder = resources.files("skirmbot.content")
    own = folder.joinpath(ruleset).joinpath(kind)
    if kind in SHARED and not own.is_dir():  # a ruleset with its own maps plays only on those
        return folder.joinpath(kind)
    return own


def default_map(ruleset: str = DEFAULT_RULESET, mission: dict[str, Any] | None = None) -> str:
    """The map a match of `ruleset` is played on when none is chosen: the one the mission
    names (its "map", when it is one of the ruleset's maps), else the shared default map, else
    the ruleset's first map."""
    maps = names("maps", ruleset)
    named_map = (mission or {}).get("map")
    if isinstance(named_map, str) and named_map in maps:
        return named_map
    if DEFAULT_MAP in maps or not maps:
        return DEFAULT_MAP
    return maps[0]


def names(kind: str, ruleset: str = DEFAULT_RULESET) -> list[str]:
    """The shipped names of one kind: "maps", or `ruleset`'s "missions" or "squads"."""
    folder = _folder(kind, ruleset)
    if not folder.is_dir():
        return []
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".json"))


def defaults(ruleset: str = DEFAULT_RULESET, players: int = 2) -> tuple[str, tuple[str, ...]]:
    """The mission and the squads, one per seat, a quick match of `ruleset` plays (the demo,
    practice): of the shipped squads, those that pass its squad building rules within one
    seat's points in a match of `players` (`Ruleset.points_limit`: a side's points shared
    between its seats); two that differ for two players, else those that fit in turn."""
    preferred = _preferred(ruleset)
    squads: tuple[str, ...]
    if ruleset == DEFAULT_RULESET:
        mission, squads = DEFAULT_MISSION, DEFAULT_SQUADS
    elif preferred is not None:
        mission, squads = preferred
    else:
        mission, squads = names("missions", ruleset)[0], tuple(names("squads", ruleset))
    squads = _fitting(ruleset, mission, players, squads) or squads
    if players == 2 and preferred is None:
        return mission, (squads[0], squads[-1])
    return mission, tuple(squads[seat % len(squads)] for seat in range(players))


def _preferred(ruleset: str) -> tuple[str, tuple[str, ...]] | None:
    """A ruleset's own choice of a quick match (`<ruleset>/defaults.json`: {"mission": name,
    "squads": [names, best first]}), for content whose squads differ in size: the group rules'
    lists of 24, 12 and 8 points, where the alphabet would pair the largest with the smallest.
    None: the ruleset keeps no such file."""
    entry = _folder("defaults.json", ruleset)
    if not entry.is_file():
        return None
    data = json.loads(entry.read_text(encoding="utf-8"))
    return str(data["mission"]), tuple(str(name) for name in data["squads"])


def _fitting(ruleset: str, mission: str, players: int, squads: tuple[str, ...]) -> tuple[str, ...]:
    """The squads that one seat may field in the mission in a match of `players`."""
    played = ruleset_called(ruleset)
    limit = played.points_limit(raw("missions", mission, ruleset), players)
    fitting = []
    for squad in squads:
        try:
            played.check_squad(raw("squads", squad, ruleset), limit)
        except ContentError:
            continue
        fitting.append(squad)
    return tuple(fitting)


def titles(kind: str, ruleset: str = DEFAULT_RULESET) -> dict[str, str]:
    """The shipped files of one kind, each file name with its display name (the file name for a
    file that does not read: the content tests keep them readable)."""
    found = {}
    for name in names(kind, ruleset):
        try:
            found[name] = str(_read(kind, name, ruleset).get("name") or name)
        except (ContentError, ValueError):
            found[name] = name
    return found


def listing(kind: str, ruleset: str = DEFAULT_RULESET) -> str:
    """The display names of one kind, as a list for a player to choose from: "Ash Runners,
    Iron Wardens" ("none yet" for a ruleset without any)."""
    return ", ".join(titles(kind, ruleset).values()) or "none yet"


def find(kind: str, typed: str, ruleset: str = DEFAULT_RULESET) -> str:
    """The file name of the shipped file a person named: by its file name or its display name,
    in any case and spacing (`words.typed_key`: `Bloody Crossroads`, `bloody-crossroads`); or
    ContentError listing the display names. Only shipped names are compared: what was typed
    never becomes a path (`../x` or a 3,000-character name is simply not one of them)."""
    if typed in names(kind, ruleset):
        return typed
    spellings = {name: (title,) for name, title in titles(kind, ruleset).items()}
    found = named(typed, spellings)
    if found is None:
        raise ContentError(
            f"There is no {kind[:-1]} called '{shown(typed)}'. "
            f"Choose one of: {listing(kind, ruleset)}."
        )
    return found


def raw(kind: str, name: str, ruleset: str = DEFAULT_RULESET) -> dict[str, Any]:
    """The JSON data of one shipped file, named as `find` reads a name; ContentError lists the
    display names when there is none."""
    return _read(kind, find(kind, name, ruleset), ruleset)


def _read(kind: str, name: str, ruleset: str) -> dict[str, Any]:
    entry = _folder(kind, ruleset).joinpath(f"{name}.json")
    data = json.loads(entry.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ContentError(f"The {kind[:-1]} file '{name}' must hold a JSON object.")
    return data


def load_map(name: str = DEFAULT_MAP) -> BattleMap:
    """A shared map of squares as the kernel reads it (a ruleset's own maps: `raw` and
    `Ruleset.load_map`)."""
    return map_from_json(raw("maps", name))


def load_mission(name: str = DEFAULT_MISSION, ruleset: str = DEFAULT_RULESET) -> Any:
    """The shipped mission as its ruleset reads it (checked)."""
    return ruleset_called(ruleset).load_mission(raw("missions", name, ruleset))


def load_squad(name: str, ep_limit: int = 100, ruleset: str = DEFAULT_RULESET) -> Any:
    """The shipped squad as its ruleset reads it, checked within `ep_limit` points."""
    return ruleset_called(ruleset).load_squad(raw("squads", name, ruleset), ep_limit)


def points_limit(name: str, ruleset: str = DEFAULT_RULESET, players: int = 2) -> int:
    """The points one seat's squad may cost in the shipped mission in a match of `players`
    (EP limit in Skirm)."""
    return ruleset_called(ruleset).points_limit(raw("missions", name, ruleset), players)
