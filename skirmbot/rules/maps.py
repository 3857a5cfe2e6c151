"""Battle maps as data: the board, its objectives and its items (rulebook Battle Map, Items)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.board import Board, parse_board
from skirmbot.rules.errors import ContentError, RulesError
from skirmbot.rules.squares import Square

CRATE = "crate"
BARREL = "barrel"
TURRET = "turret"
MARKER = "marker"
ITEM_KINDS = (CRATE, BARREL, TURRET, MARKER)
TURRET_TYPES = ("machine_gun", "rocket_launcher")


@dataclass(frozen=True, slots=True)
class ItemPlacement:
    kind: str
    square: Square
    turret_type: str | None = None


@dataclass(frozen=True, slots=True)
class BattleMap:
    name: str
    description: str
    board: Board
    objectives: tuple[Square, ...]  # objective n (1-based) stands on objectives[n - 1]
    items: tuple[ItemPlacement, ...]
    source: dict[str, Any]  # the data it was read from, kept for the match record


def map_from_json(data: Any) -> BattleMap:
    if not isinstance(data, dict):
        raise ContentError("A map must be an object with 'name', 'rows' and 'edges'.")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ContentError("The map needs a 'name'.")
    where = f"Map {name}"
    rows, edges = data.get("rows"), data.get("edges", [])
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise ContentError(f"{where}: 'rows' must be a list of texts, one per row.")
    if not isinstance(edges, list) or not all(isinstance(edge, str) for edge in edges):
        raise ContentError(f"{where}: 'edges' must be a list of texts like \"B1|C1: wall=2\".")
    try:
        board = parse_board(rows, edges)
    except ContentError as error:
        raise ContentError(f"{where}: {error}") from error
    objectives = tuple(
        _open_square(board, text, f"{where}, objective") for text in data.get("objectives", [])
    )
    if len(set(objectives)) != len(objectives):
        raise ContentError(f"{where}: two objectives stand on the same square.")
    items = tuple(_item(board, item, where) for item in data.get("items", []))
    taken = [item.square for item in items if item.kind != MARKER]
    if len(set(taken)) != len(taken):
        raise ContentError(f"{where}: two items stand on the same square.")
    description = data.get("description", "")
    return BattleMap(name.strip(), str(description), board, objectives, items, data)


def _open_square(board: Board, text: Any, where: str) -> Square:
    if not isinstance(text, str):
        raise ContentError(f'{where}: squares are written like "C4", not {text!r}.')
    try:
        square = board.parse_square(text)
    except RulesError as error:
        raise ContentError(f"{where}: {error}") from error
    if not board.is_open(square):
        raise ContentError(f"{where}: {square} is impassable; nothing can stand there.")
    return square


def _item(board: Board, data: Any, where: str) -> ItemPlacement:
    if not isinstance(data, dict) or data.get("kind") not in ITEM_KINDS:
        raise ContentError(f"{where}: each item needs a 'kind' of {', '.join(ITEM_KINDS)}.")
    kind = data["kind"]
    square = _open_square(board, data.get("square"), f"{where}, {kind}")
    turret_type = data.get("type") if kind == TURRET else None
    if kind == TURRET and turret_type not in TURRET_TYPES:
        raise ContentError(
            f"{where}: the turret on {square} needs a 'type' of {', '.join(TURRET_TYPES)}."
        )
    return ItemPlacement(kind, square, turret_type)


def scaled(battle_map: BattleMap, factor: int) -> BattleMap:
    """The map enlarged `factor` times along each side: each square becomes factor x factor
    squares of the same ground, each edge feature runs along the whole enlarged edge, and
    objectives and items stand on the top-left square of theirs. Its `source` is the enlarged
    data (read back through `map_from_json`), so a record or a picture of it sees the same
    table."""
    data = dict(battle_map.source)
    data["rows"] = [
        " ".join(cell for cell in row.split() for _ in range(factor))
        for row in battle_map.source["rows"]
        for _ in range(factor)
    ]
    data["edges"] = [_scaled_edge_line(line, factor) for line in battle_map.source.get("edges", [])]
    data["objectives"] = [str(_corner(square, factor)) for square in battle_map.objectives]
    data["items"] = [
        {**item, "square": str(_corner(Square.parse(item["square"]), factor))}
        for item in battle_map.source.get("items", [])
    ]
    return map_from_json(data)


def _corner(square: Square, factor: int) -> Square:
    return Square(square.x * factor, square.y * factor)


def _scaled_edge_line(line: str, factor: int) -> str:
    """One edge line of the enlarged map: each edge becomes `factor` edges side by side."""
    where, _, attributes = line.partition(":")
    pairs = []
    for pair in where.split(","):
        a, b = sorted(Square.parse(name) for name in pair.split("|"))
        for k in range(factor):
            if a.x != b.x:  # b east of a: the edge is a column boundary
                one = Square(a.x * factor + factor - 1, a.y * factor + k)
            else:
                one = Square(a.x * factor + k, a.y * factor + factor - 1)
            two = one.offset(b.x - a.x, b.y - a.y)
            pairs.append(f"{one}|{two}")
    return f"{', '.join(pairs)}:{attributes}"
