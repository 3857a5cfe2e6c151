"""A map file from outside the package (a server's upload, `skirmbot map check FILE`, the
console's and the demo's `--map-file`): read, checked as the shipped maps are, and drawn empty.

The checks, in order, each refusal in plain words saying what would be right: at most
MAP_FILE_LIMIT bytes of UTF-8 JSON holding one object; its kind (`rules.mapkinds`) one that some
ruleset plays on; its display name and description checked as the shipped content's names are
(`check_name`: visible characters on one line, 32 at most); read by every ruleset of its kind
(`Ruleset.load_map`: rows, edges, objectives, items); and at least one shipped mission of one of
those rulesets fits on it (`Ruleset.check_mission`). A match on it checks its own mission again
when it is made.

Pure: no store, no clock, no Discord; the service and the CLI carry the bytes here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from skirmbot import content
from skirmbot.render.mapshow import empty_map_alt, empty_map_png, unnamed
from skirmbot.rules.errors import ContentError
from skirmbot.rules.mapkinds import check_kind, kind_of
from skirmbot.rules.names import check_text_name
from skirmbot.rules.record import MatchRecord, start_match
from skirmbot.rules.ruleset import Ruleset, rulesets
from skirmbot.rules.ruleset import ruleset as ruleset_called
from skirmbot.rules.view import MatchView, Position
from skirmbot.words import shown, typed_key

NAME_LIMIT = 32  # visible characters, as in squad files (skirm.cards.NAME_LIMIT)
LINE_BREAKING = ("Cc", "Zl", "Zp")  # control characters, line and paragraph separators
MAP_FILE_LIMIT = 64_000  # bytes: the largest shipped map is under 3 kB; a 26 x 26 map fits
DESCRIPTION_LIMIT = 300  # visible characters: a sentence or two, as the shipped maps have


@dataclass(frozen=True)
class CheckedMap:
    """A map file that passed every check, and what a person is told of it."""

    data: dict[str, Any]  # the file's JSON, as a match's record will keep it
    name: str  # its display name, trimmed ("Old Mill")
    kind: str  # "squares" or "dots" (rules.mapkinds)
    size: str  # "12 x 12 squares"
    fits: dict[str, tuple[str, ...]]  # each ruleset of its kind (by name): the missions that fit

    @property
    def key(self) -> str:
        """The name as a person may type it (`words.typed_key`): how a server's maps are told
        apart and found."""
        return typed_key(self.name)

    def summary(self) -> str:
        """What was found, in words: "Old Mill: 12 x 12 squares. Skirm: Hold the Line, ..."."""
        lines = [f"{self.name}: a map of {self.size}."]
        for name, missions in self.fits.items():
            title = ruleset_called(name).title
            fitting = ", ".join(content.titles("missions", name)[m] for m in missions)
            lines.append(f"{title}: {fitting or 'no shipped mission fits'}.")
        return "\n".join(lines)


def read_map_file(raw: bytes, filename: str) -> dict[str, Any]:
    """An uploaded or given map file's bytes as its JSON object; ContentError in words for a
    file too large, not text, not JSON or not one object."""
    where = shown(filename, 60)
    if len(raw) > MAP_FILE_LIMIT:
        raise ContentError(
            f"{where} is {len(raw):,} bytes; a map file is at most {MAP_FILE_LIMIT:,}."
        )
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise ContentError(f"{where} is not a text file; a map file is JSON.") from error
    except json.JSONDecodeError as error:
        raise ContentError(
            f"{where} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        ) from error
    if not isinstance(data, dict):
        raise ContentError(
            f"{where} must hold one JSON object with a 'name', 'rows' and 'edges' "
            "(the README's Map files shows one)."
        )
    return data


def check_map(data: Any, rules: str | None = None) -> CheckedMap:
    """The map file's data checked for `rules` (a ruleset's name or title), else for every
    ruleset of its kind; ContentError in words for the first thing wrong."""
    kind = kind_of(data)
    name = check_name(data.get("name"), "The map file", "map's name")
    _check_description(data.get("description"))
    played_on = _rulesets_of(kind, rules)
    fits: dict[str, tuple[str, ...]] = {}
    size = ""
    for played in played_on:
        check_kind(played.title, played.board, data)
        loaded = played.load_map(data)
        size = size or f"{loaded.width} x {loaded.height} {kind}"
        fits[played.name] = fitting_missions(played, loaded)
    if not any(fits.values()):
        titles = " or ".join(played.title for played in played_on)
        raise ContentError(
            f"No shipped mission of {titles} fits on {name}: each needs its deployment zones "
            "to hold a squad and its objectives on open squares. Make the map larger or open "
            "more squares along the deployment edges."
        )
    return CheckedMap({**data, "name": name}, name, kind, size, fits)


def _check_description(description: Any) -> None:
    if description is None or description == "":
        return
    check_name(description, "The map file", "description", limit=DESCRIPTION_LIMIT)


def check_name(value: Any, label: str, what: str, *, limit: int = NAME_LIMIT) -> str:
    """A name (or description) from a map file, checked as squad files' names are
    (skirmbot.rules.names)."""
    return check_text_name(value, label, what, limit)


def _rulesets_of(kind: str, rules: str | None) -> list[Ruleset]:
    """The rulesets a map of `kind` is checked for: `rules` alone (refused in words when it
    plays on another kind), else every ruleset that plays on it."""
    if rules is not None:
        return [ruleset_called(rules)]
    return [played for played in rulesets().values() if played.board == kind]


def fitting_missions(played: Ruleset, loaded: Any) -> tuple[str, ...]:
    """The file names of `played`'s shipped missions whose set-up fits on the map (`loaded`
    by its `load_map`), for the fewest seats it takes, a squad of one unit a seat."""
    seats = played.seats[0]
    fitting = []
    for mission in content.names("missions", played.name):
        try:
            played.check_mission(
                content.raw("missions", mission, played.name), loaded, (1,) * seats
            )
        except ContentError:
            continue
        fitting.append(mission)
    return tuple(fitting)


def usable_by(data: dict[str, Any], rules: str) -> bool:
    """Whether a ruleset plays on maps of this map's kind (a server's map list for a match)."""
    try:
        return kind_of(data) == ruleset_called(rules).board
    except ContentError:
        return False


def empty_map(data: dict[str, Any], rules: str, mission: str | None = None) -> tuple[bytes, str]:
    """The picture of the map before deployment, with `mission`'s (a shipped mission of `rules`,
    as a person names it; None: the first that fits) deployment zones and objectives, as PNG
    bytes and its alt text; ContentError in words for a mission that does not fit."""
    checked, view, zones = empty_view(data, rules, mission)
    return empty_map_png(view, zones), empty_map_alt(view, zones, checked.size)


def empty_view(
    data: dict[str, Any], rules: str, mission: str | None = None
) -> tuple[CheckedMap, MatchView, tuple[tuple[Position, ...], ...]]:
    """The checked map, the view of a match on it before deployment (the seats unnamed) and
    each seat's deployment zone, for `empty_map`."""
    played = ruleset_called(rules)
    checked = check_map(data, played.name)
    fitting = checked.fits[played.name]
    if mission is None:
        if not fitting:
            raise ContentError(f"No shipped mission of {played.title} fits on {checked.name}.")
        mission = fitting[0]
    mission_data = content.raw("missions", mission, played.name)
    played.check_mission(mission_data, played.load_map(checked.data), (1,) * played.seats[0])
    try:
        match = _match_before_deployment(played, checked.data, mission_data)
    except ContentError as error:  # a map that fits small squads, not the placeholders
        raise ContentError(
            f"{mission_data.get('name', mission)} fits on {checked.name} for small squads, but "
            f"the picture places the quick match's squads and they do not fit: {error}"
        ) from error
    view = unnamed(played.view(match.state))
    return checked, view, played.deployment_zones(match.state)


def _match_before_deployment(
    played: Ruleset, map_data: dict[str, Any], mission: dict[str, Any]
) -> Any:
    """A match of the fewest seats on the map, before deployment: the ruleset's own view of the
    map, its mission's zones and objectives. Its squads are the quick match's (`content.defaults`),
    placeholders the picture never names."""
    seats = played.seats[0]
    _, squads = content.defaults(played.name, seats)
    chosen = {
        "map": map_data,
        "mission": mission,
        "squads": [content.raw("squads", squad, played.name) for squad in squads],
    }
    record = MatchRecord(
        content=played.match_content(chosen), dice={"seed": 0}, ruleset=played.name
    )
    return start_match(record)


__all__ = ["MAP_FILE_LIMIT", "CheckedMap", "check_map", "empty_map", "read_map_file"]
