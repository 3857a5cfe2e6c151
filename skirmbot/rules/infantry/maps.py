"""Maps of dots for the infantry rules (rulebook 002: Movement, Line of Sight; plan section 5).

A map is data: rows of dots (`.` open, `#` impassable such as a tree trunk or rock, `S` stairs,
`L` ladder), the highest level each raised dot has (a building's floor or roof), and features
on the sides between neighbouring dots, each at one level: "C4 D4 low", "C4 C5 wall @1".
Every dot has level 0 (the ground); a dot listed in `levels` also has every level up to its own.

The loader refuses a bad map with a message that names what is wrong, in plain words, because
maps are written by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from skirmbot.rules.dots import MAX_BOARD_SIDE, Dot, Edge, edge
from skirmbot.rules.errors import ContentError, RulesError


class Feature(StrEnum):
    """What stands on the side between two dots."""

    LOW = "low"  # a low wall or furniture: a solid obstruction
    LIGHT = "light"  # a hedge or light vegetation: an obstruction, not solid
    WALL = "wall"  # a solid high wall: an impassable obstacle
    DOOR = "door"  # a doorway in a wall
    WINDOW = "window"  # a window in a wall: a solid low obstruction (plan section 2)


class Ground(StrEnum):
    """What a dot itself is, by its character in the map's rows."""

    OPEN = "."
    IMPASSABLE = "#"
    STAIRS = "S"
    LADDER = "L"


# A feature's place: the side it stands on and the level it stands at.
Placed = tuple[Edge, int]


@dataclass(frozen=True, slots=True)
class DotMap:
    name: str
    width: int
    height: int
    grounds: Mapping[Dot, Ground]  # only the dots that are not open
    levels: Mapping[Dot, int]  # only the dots with a level above the ground
    features: Mapping[Placed, Feature]
    description: str = ""
    # The same features by side, built once: sight asks about every side of every line.
    sides: Mapping[Edge, Mapping[int, Feature]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        sides: dict[Edge, dict[int, Feature]] = {}
        for (side, level), kind in self.features.items():
            sides.setdefault(side, {})[level] = kind
        object.__setattr__(self, "sides", sides)

    def on_map(self, dot: Dot) -> bool:
        return 0 <= dot.x < self.width and 0 <= dot.y < self.height

    def ground(self, dot: Dot) -> Ground:
        return self.grounds.get(dot, Ground.OPEN)

    def impassable(self, dot: Dot) -> bool:
        return self.ground(dot) is Ground.IMPASSABLE

    def top(self, dot: Dot) -> int:
        """The highest level a trooper can stand at on this dot."""
        return self.levels.get(dot, 0)

    def has_level(self, dot: Dot, level: int) -> bool:
        return self.on_map(dot) and not self.impassable(dot) and 0 <= level <= self.top(dot)

    def feature(self, a: Dot, b: Dot, level: int = 0) -> Feature | None:
        """The feature on the side between neighbouring dots a and b at `level`, if any."""
        return self.features.get((edge(a, b), level))

    def features_on(self, side: Edge) -> dict[int, Feature]:
        """Every level's feature on one side (the levels rule of Line of Sight ¶3 reads them)."""
        return dict(self.sides.get(side, {}))

    def dots(self) -> list[Dot]:
        return [Dot(x, y) for y in range(self.height) for x in range(self.width)]


def map_from_json(data: Any) -> DotMap:
    """Read a map of dots from its JSON data; ContentError in plain words when it is not valid."""
    if not isinstance(data, dict):
        raise ContentError("A map of dots is an object with 'name', 'width', 'height' and 'dots'.")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ContentError("A map of dots needs a 'name'.")
    width, height = _size(name, data)
    grounds = _grounds(name, data.get("dots"), width, height)
    levels = _levels(name, data.get("levels", {}), width, height, grounds)
    _check_climbs(name, grounds, levels)
    features = _features(name, data.get("edges", []), width, height, levels)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise ContentError(f"Map '{name}': its 'description' must be text.")
    return DotMap(name, width, height, grounds, levels, features, description)


def _size(name: str, data: dict[str, Any]) -> tuple[int, int]:
    width, height = data.get("width"), data.get("height")
    for label, value in (("width", width), ("height", height)):
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or not 1 <= value <= MAX_BOARD_SIDE
        ):
            raise ContentError(
                f"Map '{name}': its {label} must be a whole number from 1 to {MAX_BOARD_SIDE}."
            )
    assert isinstance(width, int) and isinstance(height, int)
    return width, height


def _grounds(name: str, rows: Any, width: int, height: int) -> dict[Dot, Ground]:
    if not isinstance(rows, list) or len(rows) != height:
        raise ContentError(f"Map '{name}': 'dots' must be a list of {height} rows.")
    known = "".join(ground.value for ground in Ground)
    grounds: dict[Dot, Ground] = {}
    for y, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != width:
            raise ContentError(f"Map '{name}': row {y + 1} must be {width} characters long.")
        for x, char in enumerate(row):
            if char not in known:
                raise ContentError(
                    f"Map '{name}': row {y + 1} has '{char}'; a dot is one of {known}."
                )
            if char != Ground.OPEN:
                grounds[Dot(x, y)] = Ground(char)
    return grounds


def _dot(name: str, text: Any, width: int, height: int) -> Dot:
    if not isinstance(text, str):
        raise ContentError(f"Map '{name}': {text!r} is not a dot like C4.")
    try:
        dot = Dot.parse(text)
    except RulesError as error:
        raise ContentError(f"Map '{name}': {error}") from error
    if not (dot.x < width and dot.y < height):
        raise ContentError(f"Map '{name}': {dot} is off the map.")
    return dot


def _levels(
    name: str, raw: Any, width: int, height: int, grounds: Mapping[Dot, Ground]
) -> dict[Dot, int]:
    if not isinstance(raw, dict):
        raise ContentError(f"Map '{name}': 'levels' must map dots to levels, like {{\"C4\": 1}}.")
    levels: dict[Dot, int] = {}
    for text, level in raw.items():
        dot = _dot(name, text, width, height)
        if not isinstance(level, int) or isinstance(level, bool) or level < 1:
            raise ContentError(
                f"Map '{name}': the level of {dot} must be a whole number, 1 or more."
            )
        if grounds.get(dot) is Ground.IMPASSABLE:
            raise ContentError(f"Map '{name}': {dot} is impassable and cannot have a level.")
        levels[dot] = level
    return levels


def _check_climbs(name: str, grounds: Mapping[Dot, Ground], levels: Mapping[Dot, int]) -> None:
    # Stairs or a ladder lead somewhere: the dot must have a level above the ground to climb to.
    for dot, ground in grounds.items():
        if ground in (Ground.STAIRS, Ground.LADDER) and levels.get(dot, 0) < 1:
            raise ContentError(
                f"Map '{name}': the {ground.name.lower()} on {dot} need a level in 'levels'."
            )


def _features(
    name: str, raw: Any, width: int, height: int, levels: Mapping[Dot, int]
) -> dict[Placed, Feature]:
    if not isinstance(raw, list):
        raise ContentError(f"Map '{name}': 'edges' must be a list like [\"C4 D4 low\"].")
    features: dict[Placed, Feature] = {}
    for entry in raw:
        placed, kind = _feature(name, entry, width, height, levels)
        if placed in features:
            raise ContentError(f"Map '{name}': the edge '{entry}' is given twice.")
        features[placed] = kind
    return features


def _feature(
    name: str, entry: Any, width: int, height: int, levels: Mapping[Dot, int]
) -> tuple[Placed, Feature]:
    words = entry.split() if isinstance(entry, str) else []
    if len(words) not in (3, 4) or (len(words) == 4 and not words[3].startswith("@")):
        raise ContentError(
            f"Map '{name}': {entry!r} is not an edge; write two dots, a kind and maybe a level, "
            'like "C4 D4 low" or "C4 D4 wall @1".'
        )
    a, b = _dot(name, words[0], width, height), _dot(name, words[1], width, height)
    if a.distance(b) != 1:
        raise ContentError(f"Map '{name}': {a} and {b} are not neighbouring dots.")
    kinds = ", ".join(feature.value for feature in Feature)
    if words[2] not in kinds.split(", "):
        raise ContentError(f"Map '{name}': '{words[2]}' is not an edge kind; use one of {kinds}.")
    level = _edge_level(name, entry, words)
    if level > max(levels.get(a, 0), levels.get(b, 0)):
        raise ContentError(f"Map '{name}': neither {a} nor {b} has level {level} for '{entry}'.")
    return (edge(a, b), level), Feature(words[2])


def _edge_level(name: str, entry: str, words: list[str]) -> int:
    if len(words) == 3:
        return 0
    digits = words[3][1:]
    if not digits.isdigit():
        raise ContentError(f"Map '{name}': the level in '{entry}' must be @ and a number, like @1.")
    return int(digits)
