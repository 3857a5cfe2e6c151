"""Scenarios for the infantry rules as content (plan section 2, "Scenarios", "Victory" and "The
turn sequence"; our content: the rulebook's chapter gives none).

A scenario names its map, its rounds, its points limit, the two sides' deployment zones as
bands of whole rows (side 1 first; negative rows count from the bottom), and how it is won.
The only victory built is the plan's: after the last round each side scores the PV of enemy
troopers put out (dead or unconscious).
`parse_scenario` refuses a bad file in plain words; `check_zones_fit` checks the zones against
the map's height once the map is known (maps are read elsewhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.errors import ContentError

# Our ruling (proposed): the PV of enemies put out is the only worth the chapter gives.
VICTORY_PV = "pv"
VICTORIES = (VICTORY_PV,)
FIELDS = ("name", "briefing", "map", "rounds", "points", "zones", "victory")


@dataclass(frozen=True)
class Zone:
    """A deployment zone: every dot of rows `first` to `last`, both included. Rows are numbered
    as dots name them (C1 is in row 1, the top; `Dot.y` is the row less 1); a negative row
    counts from the bottom (-1 is the last row), so a scenario can name "the far edge" of a map
    of any height."""

    first: int
    last: int

    def rows(self, height: int) -> tuple[int, int]:
        """The zone's first and last rows, counted from 1 at the top, on a map of `height`."""
        return _from_top(self.first, height), _from_top(self.last, height)


def _from_top(row: int, height: int) -> int:
    return row if row > 0 else height + 1 + row


@dataclass(frozen=True)
class Scenario:
    name: str
    briefing: str
    map: str  # the map's file name ("crossroads")
    rounds: int
    points: int  # each squad's PV limit
    zones: tuple[Zone, Zone]  # side 1's, side 2's
    victory: str


def parse_scenario(data: Any) -> Scenario:
    """A scenario from a mission file's JSON, refused in plain words if anything is wrong."""
    if not isinstance(data, dict):
        raise ContentError("A scenario file must be an object.")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ContentError("A scenario has no name.")
    _exact_fields(name, data)
    for field in ("briefing", "map"):
        if not isinstance(data[field], str) or not data[field].strip():
            raise ContentError(f"{name}'s {field} must be text.")
    if data["victory"] not in VICTORIES:
        raise ContentError(f"{name}'s victory must be {' or '.join(VICTORIES)}.")
    return Scenario(
        name,
        data["briefing"],
        data["map"],
        _whole(name, data, "rounds"),
        _whole(name, data, "points"),
        _zones(name, data["zones"]),
        data["victory"],
    )


def check_zones_fit(scenario: Scenario, height: int) -> None:
    """Refuse a scenario whose zones leave its map (`height` rows) or share a row: troopers
    deploy in secret (plan: the turn sequence), so the sides must deploy apart."""
    bands = [zone.rows(height) for zone in scenario.zones]
    for side, (first, last) in enumerate(bands, start=1):
        if first < 1 or last > height:
            raise ContentError(
                f"{scenario.name}: side {side}'s zone does not fit the {height} rows "
                f"of the map {scenario.map}."
            )
    (a_first, a_last), (b_first, b_last) = bands
    if a_first <= b_last and b_first <= a_last:
        raise ContentError(f"{scenario.name}'s two zones share rows: each side deploys apart.")


def _exact_fields(name: str, data: dict[str, Any]) -> None:
    missing = [f for f in FIELDS if f not in data]
    extra = [str(f) for f in data if f not in FIELDS]
    if missing or extra:
        raise ContentError(
            f"{name} needs {', '.join(FIELDS)}"
            + (f"; it lacks {', '.join(missing)}" if missing else "")
            + (f"; it has unknown {', '.join(extra)}" if extra else "")
            + "."
        )


def _whole(name: str, data: dict[str, Any], field: str) -> int:
    value = data[field]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ContentError(f"{name}'s {field} must be a whole number of at least 1.")
    return value


def _zones(name: str, data: Any) -> tuple[Zone, Zone]:
    if not isinstance(data, list) or len(data) != 2:
        raise ContentError(f"{name} needs two zones, one for each side, as [first row, last row].")
    first, second = (_zone(name, side, rows) for side, rows in enumerate(data, start=1))
    return first, second


def _zone(name: str, side: int, rows: Any) -> Zone:
    ok = (
        isinstance(rows, list)
        and len(rows) == 2
        and all(isinstance(r, int) and not isinstance(r, bool) and r != 0 for r in rows)
        and (rows[0] > 0) == (rows[1] > 0)
        and rows[0] <= rows[1]
    )
    if not ok:
        raise ContentError(
            f"{name}: side {side}'s zone must be [first row, last row], rows counted from 1 "
            "at the top or from -1 at the bottom."
        )
    return Zone(rows[0], rows[1])
