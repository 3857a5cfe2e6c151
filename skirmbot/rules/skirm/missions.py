"""Missions as data: deployment zones, scoring, length, and the optional mission parts: items
the mission places, environment events, mission actions and the secondary objectives deck
(rulebook Game Cycle, Scoring, Mission Actions, Items; rulings: Missions, secondary objectives,
events, squads).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from skirmbot.rules.board import Board
from skirmbot.rules.errors import ContentError
from skirmbot.rules.maps import CRATE, MARKER, BattleMap, ItemPlacement
from skirmbot.rules.skirm.squads import DEFAULT_EP_LIMIT
from skirmbot.rules.squares import Square

EDGES = ("top", "bottom", "left", "right")
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
# Scoring kinds, all scored at the end of each turn from `from_turn` on (docs/rulings.md,
# Missions):
#   control   `points` per Objective the squad controls (rulebook Scoring Mission Points);
#   take_out  `points` per enemy unit the squad took out during the turn;
#   carry     `points` per marker a unit of the squad carries;
#   leader    `points` when the squad took out the enemy Leader during the turn (so once);
#   crates    `points` per crate the squad opened (or salvaged) during the turn;
#   zone      `points` per unit of the squad standing in the `target` area: the enemy's
#             deployment zone, or the centre band (`depth` rows or columns across the middle);
#   beacons   `points` per objective whose beacon the squad armed (a mission action).
SCORING_KINDS = ("control", "take_out", "carry", "leader", "crates", "zone", "beacons")
ZONE_TARGETS = ("enemy_deployment", "centre")
# Environment event effects (rulebook Game Cycle: the initiative squad rolls for the Events).
EVENT_EFFECTS = ("none", "no_dash", "orders", "underdog", "hazard", "max_range")
EVENT_VALUES: dict[str, tuple[int, int]] = {
    "orders": (-2, 2),  # every squad gains (or loses) this many TO, never below 0
    "underdog": (1, 2),  # the squad with fewer units on the map gains this many TO
    "hazard": (1, 2),  # damage to every unit on difficult ground, saved as usual
    "max_range": (2, 10),  # ranged attacks reach at most this many squares this turn
}
# Mission action effects (rulebook Mission Actions).
ACTION_EFFECTS = ("arm", "salvage")
BUILT_IN_ACTIONS = (
    "move", "dash", "leap", "ranged", "melee", "door", "pickup/drop", "crate", "turret", "ranged attack",
    "melee attack", "open/close door", "pick up/drop", "open crate", "use turret",
)  # fmt: skip
MATCH_TURNS = 4


@dataclass(frozen=True, slots=True)
class Zone:
    edge: str
    depth: int

    def squares(self, board: Board) -> list[Square]:
        """The open squares of the zone, row by row."""
        return [
            square
            for square in board.squares()
            if board.is_open(square) and self.contains(board, square)
        ]

    def contains(self, board: Board, square: Square) -> bool:
        if self.edge == "top":
            return square.y < self.depth
        if self.edge == "bottom":
            return square.y >= board.height - self.depth
        if self.edge == "left":
            return square.x < self.depth
        return square.x >= board.width - self.depth

    def describe(self) -> str:
        return f"the {self.depth} {'rows' if self.edge in ('top', 'bottom') else 'columns'} at the {self.edge}"


@dataclass(frozen=True, slots=True)
class Band:
    """The centre band: `depth` rows (or columns) across the middle of the map."""

    rows: bool
    depth: int

    def contains(self, board: Board, square: Square) -> bool:
        size, at = (board.height, square.y) if self.rows else (board.width, square.x)
        first = (size - self.depth) // 2
        return first <= at < first + self.depth

    def describe(self) -> str:
        return (
            f"the centre band ({self.depth} {'rows' if self.rows else 'columns'} across the middle)"
        )


@dataclass(frozen=True, slots=True)
class Scoring:
    kind: str
    points: int = 1
    from_turn: int = 1
    target: str = ""  # zone: "enemy_deployment" or "centre"
    depth: int = 0  # zone "centre": rows or columns in the band


@dataclass(frozen=True, slots=True)
class EventEntry:
    """One line of the mission's event table: the 1D6 faces that give it and its effect."""

    faces: tuple[int, ...]
    name: str
    text: str
    effect: str
    value: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "text": self.text, "effect": self.effect, "value": self.value}


@dataclass(frozen=True, slots=True)
class ActionRule:
    """A mission action (rulebook Mission Actions): its name, cost in ACT and effect."""

    name: str
    text: str
    effect: str
    cost: int


@dataclass(frozen=True, slots=True)
class Mission:
    name: str
    briefing: str
    zones: tuple[Zone, Zone]
    scoring: tuple[Scoring, ...]
    ep_limit: int
    turns: int
    source: dict[str, Any]
    environment: str = ""
    events: tuple[EventEntry, ...] = ()
    actions: tuple[ActionRule, ...] = ()
    secondaries: bool = False
    markers: tuple[int, ...] = ()  # objective numbers a marker is placed on
    crates: tuple[int, ...] = ()  # objective numbers a crate is placed on

    def scores(self, kind: str) -> bool:
        return any(rule.kind == kind for rule in self.scoring)

    def target_area(self, rule: Scoring, side: int) -> Zone | Band:
        """Where `zone` scoring counts the units of `side`."""
        if rule.target == "enemy_deployment":
            return self.zones[1 - side]
        return Band(self.zones[0].edge in ("top", "bottom"), rule.depth)


def mission_from_json(data: Any) -> Mission:
    if not isinstance(data, dict):
        raise ContentError("A mission must be an object with 'name', 'deployment' and 'scoring'.")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ContentError("The mission needs a 'name'.")
    where = f"Mission {name}"
    zones_raw = data.get("deployment")
    if not isinstance(zones_raw, list) or len(zones_raw) != 2:
        raise ContentError(f"{where}: 'deployment' must give two zones, one per squad.")
    zones = (_zone(zones_raw[0], where), _zone(zones_raw[1], where))
    scoring_raw = data.get("scoring")
    if not isinstance(scoring_raw, list) or not scoring_raw:
        raise ContentError(f"{where}: 'scoring' must list at least one way to score.")
    ep_limit = data.get("ep_limit", DEFAULT_EP_LIMIT)
    if not isinstance(ep_limit, int) or ep_limit < 1:
        raise ContentError(f"{where}: 'ep_limit' must be a positive whole number.")
    scoring = tuple(_scoring(item, where, zones) for item in scoring_raw)
    actions = _actions(data.get("actions", []), where)
    if any(rule.kind == "beacons" for rule in scoring) and not any(
        action.effect == "arm" for action in actions
    ):
        raise ContentError(
            f"{where}: 'beacons' scoring needs a mission action with the effect 'arm' to arm them."
        )
    secondaries = data.get("secondaries", False)
    if not isinstance(secondaries, bool):
        raise ContentError(f"{where}: 'secondaries' is true or false.")
    environment = data.get("environment", "")
    if not isinstance(environment, str):
        raise ContentError(f"{where}: 'environment' is the name of the mission's environment.")
    markers = _objective_numbers(data.get("markers", []), where, "markers")
    crates = _objective_numbers(data.get("crates", []), where, "crates")
    both = sorted(set(markers) & set(crates))
    if both:
        raise ContentError(
            f"{where}: objective {both[0]} cannot hold both a marker and a crate; choose one."
        )
    return Mission(
        name=name.strip(),
        briefing=str(data.get("briefing", "")),
        zones=zones,
        scoring=scoring,
        ep_limit=ep_limit,
        turns=MATCH_TURNS,
        source=data,
        environment=environment.strip(),
        events=_events(data.get("events", []), where),
        actions=actions,
        secondaries=secondaries,
        markers=markers,
        crates=crates,
    )


def _zone(data: Any, where: str) -> Zone:
    if not isinstance(data, dict) or data.get("edge") not in EDGES:
        raise ContentError(f"{where}: a deployment zone needs an 'edge' of {', '.join(EDGES)}.")
    depth = data.get("depth", 2)
    if not isinstance(depth, int) or not 1 <= depth <= 4:
        raise ContentError(f"{where}: a deployment zone's 'depth' is 1 to 4 rows or columns.")
    return Zone(data["edge"], depth)


def _scoring(data: Any, where: str, zones: tuple[Zone, Zone]) -> Scoring:
    if not isinstance(data, dict) or data.get("kind") not in SCORING_KINDS:
        raise ContentError(
            f"{where}: each scoring entry needs a 'kind' of {', '.join(SCORING_KINDS)}."
        )
    kind = data["kind"]
    points, from_turn = data.get("points", 1), data.get("from_turn", 1)
    if not isinstance(points, int) or not 1 <= points <= 5:
        raise ContentError(f"{where}: 'points' must be 1 to 5.")
    if not isinstance(from_turn, int) or not 1 <= from_turn <= MATCH_TURNS:
        raise ContentError(f"{where}: 'from_turn' must be 1 to {MATCH_TURNS}.")
    if kind != "zone":
        return Scoring(kind, points, from_turn)
    target, depth = data.get("target"), data.get("depth", 2)
    if target not in ZONE_TARGETS:
        raise ContentError(
            f"{where}: 'zone' scoring needs a 'target' of {', '.join(ZONE_TARGETS)}."
        )
    if target == "centre":
        if OPPOSITE[zones[0].edge] != zones[1].edge:
            raise ContentError(
                f"{where}: a 'centre' target needs deployment zones on opposite edges, "
                "so the band runs between them."
            )
        if not isinstance(depth, int) or not 1 <= depth <= 4:
            raise ContentError(f"{where}: the centre band's 'depth' is 1 to 4 rows or columns.")
    return Scoring(kind, points, from_turn, target, depth if target == "centre" else 0)


def _faces(text: Any, where: str) -> tuple[int, ...]:
    """A die face (3) or a range of faces ("1-2")."""
    if isinstance(text, int) and not isinstance(text, bool) and 1 <= text <= 6:
        return (text,)
    found = re.fullmatch(r"\s*([1-6])\s*-\s*([1-6])\s*", text) if isinstance(text, str) else None
    if found is None or int(found[1]) > int(found[2]):
        raise ContentError(
            f"{where}: an event's 'roll' is a face of 1D6 like 3 or a range like \"1-2\", not {text!r}."
        )
    return tuple(range(int(found[1]), int(found[2]) + 1))


def _events(data: Any, where: str) -> tuple[EventEntry, ...]:
    if not isinstance(data, list):
        raise ContentError(f"{where}: 'events' is a list of table entries.")
    if not data:
        return ()
    entries = []
    for raw in data:
        if not isinstance(raw, dict):
            raise ContentError(
                f"{where}: each event needs a 'roll', a 'name', a 'text' and an 'effect'."
            )
        name, text = raw.get("name"), raw.get("text", "")
        if not isinstance(name, str) or not name.strip() or not isinstance(text, str):
            raise ContentError(f"{where}: each event needs a 'name' and a 'text'.")
        effect = raw.get("effect")
        if effect not in EVENT_EFFECTS:
            raise ContentError(
                f"{where}: event {name} needs an 'effect' of {', '.join(EVENT_EFFECTS)}."
            )
        value = raw.get("value", 0)
        low, high = EVENT_VALUES.get(effect, (0, 0))
        if (
            not isinstance(value, int)
            or not low <= value <= high
            or (effect in EVENT_VALUES and value == 0)
        ):
            allowed = (
                f"a 'value' of {low} to {high}, not 0" if effect in EVENT_VALUES else "no 'value'"
            )
            raise ContentError(f"{where}: event {name} ({effect}) takes {allowed}.")
        entries.append(
            EventEntry(_faces(raw.get("roll"), where), name.strip(), text, effect, value)
        )
    faces = sorted(face for entry in entries for face in entry.faces)
    if faces != [1, 2, 3, 4, 5, 6]:
        raise ContentError(
            f"{where}: the event table must give each face of 1D6 exactly once; it gives {faces}."
        )
    return tuple(entries)


def _actions(data: Any, where: str) -> tuple[ActionRule, ...]:
    if not isinstance(data, list):
        raise ContentError(f"{where}: 'actions' is a list of mission actions.")
    rules: list[ActionRule] = []
    for raw in data:
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            raise ContentError(f"{where}: each mission action needs a 'name', 'effect' and 'cost'.")
        name = raw["name"].strip()
        if not name or name.casefold() in BUILT_IN_ACTIONS:
            raise ContentError(
                f"{where}: a mission action needs a name of its own, not {raw['name']!r}."
            )
        if any(rule.name.casefold() == name.casefold() for rule in rules):
            raise ContentError(f"{where}: two mission actions are called {name}.")
        effect, cost = raw.get("effect"), raw.get("cost", 1)
        if effect not in ACTION_EFFECTS:
            raise ContentError(
                f"{where}: mission action {name} needs an 'effect' of {', '.join(ACTION_EFFECTS)}."
            )
        if not isinstance(cost, int) or not 1 <= cost <= 3:
            raise ContentError(f"{where}: mission action {name} costs 1 to 3 ACT.")
        rules.append(ActionRule(name, str(raw.get("text", "")), effect, cost))
    return tuple(rules)


def _objective_numbers(data: Any, where: str, key: str) -> tuple[int, ...]:
    if not isinstance(data, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in data
    ):
        raise ContentError(f"{where}: '{key}' lists objective numbers, like [1, 2].")
    if len(set(data)) != len(data):
        raise ContentError(f"{where}: '{key}' names an objective twice.")
    return tuple(data)


def check_map_fits(mission: Mission, board: Board, squad_sizes: tuple[int, ...]) -> None:
    """Each squad's deployment zone must hold all of its units."""
    for side, zone in enumerate(mission.zones):
        room = len(zone.squares(board))
        if room < squad_sizes[side]:
            raise ContentError(
                f"Mission {mission.name}: squad {side + 1}'s zone ({zone.describe()}) has {room} open "
                f"squares for {squad_sizes[side]} units."
            )


def mission_items(mission: Mission, battle_map: BattleMap) -> list[ItemPlacement]:
    """The markers and crates the mission places on the map's objectives (rulebook Game Cycle,
    Prepare Battle Map); a ContentError says why they do not fit this map."""
    where = f"Mission {mission.name} on map {battle_map.name}"
    count = len(battle_map.objectives)
    placed: list[ItemPlacement] = []
    for kind, numbers in ((MARKER, mission.markers), (CRATE, mission.crates)):
        for number in numbers:
            if number > count:
                raise ContentError(
                    f"{where}: the mission places a {kind} on objective {number}, but the map has "
                    f"{count} objective{'s' if count != 1 else ''}."
                )
            square = battle_map.objectives[number - 1]
            if kind == CRATE and any(
                item.square == square and item.kind != MARKER for item in battle_map.items
            ):
                raise ContentError(
                    f"{where}: objective {number} ({square}) already holds an item; the mission's "
                    "crate cannot go there."
                )
            placed.append(ItemPlacement(kind, square))
    has_markers = any(item.kind == MARKER for item in placed)
    if (
        mission.scores("carry")
        and not has_markers
        and not any(item.kind == MARKER for item in battle_map.items)
    ):
        raise ContentError(
            f"{where}: 'carry' scoring needs markers, but neither the mission nor the map places any."
        )
    return placed
