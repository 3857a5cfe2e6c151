"""Matches of the d20 rules for tests: an open map, small warbands, scripted dice.

`d20(...)` deploys every warband automatically; its first faces are the round's initiative rolls
(one d20 per seat) and the first seat's action point roll. `put` stands models where a test
needs them; `script` adds the faces the next rolls will show.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skirmbot.rules.d20.engine import D20Match
from skirmbot.rules.d20.ruleset import RULESET
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.squares import Square

CONTENT = Path(__file__).resolve().parent.parent / "skirmbot" / "content"
OPEN_ROWS = [" ".join(["."] * 12)] * 12


def open_map(edges: list[str] | None = None, rows: list[str] | None = None) -> dict[str, Any]:
    return {
        "name": "Open Field",
        "rows": rows or OPEN_ROWS,
        "edges": edges or [],
        "objectives": ["F6"],
    }


def scenario(kind: str = "casualties", rounds: int = 3) -> dict[str, Any]:
    return {
        "name": "Test",
        "rounds": rounds,
        "points_limit": 200,
        "scoring": [{"kind": kind, "points": 1}],
    }


def warband(name: str, *models: tuple[str, str]) -> dict[str, Any]:
    return {"name": name, "models": [{"name": n, "profile": p} for n, p in models]}


def shipped(kind: str, name: str) -> dict[str, Any]:
    folder = CONTENT / "maps" if kind == "maps" else CONTENT / "d20" / kind
    data: dict[str, Any] = json.loads((folder / f"{name}.json").read_text("utf-8"))
    return data


def content(
    squads: list[dict[str, Any]],
    battle_map: dict[str, Any] | None = None,
    mission: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {"map": battle_map or open_map(), "mission": mission or scenario(), "squads": squads}


def d20(
    *squads: list[tuple[str, str]],
    start: tuple[int, ...] | None = None,
    battle_map: dict[str, Any] | None = None,
    mission: dict[str, Any] | None = None,
) -> D20Match:
    """Seat n plays squads[n] (padded with troopers to 3 models); by default seat 0 rolls highest
    initiative and 12 action points."""
    bands = []
    for seat, models in enumerate(squads):
        padded = list(models) + [(f"Extra{seat}{n}", "Trooper") for n in range(3 - len(models))]
        bands.append(warband(f"Band {seat + 1}", *padded))
    faces = list(start) if start is not None else [20 - seat for seat in range(len(squads))] + [12]
    match = RULESET.new_match(content(bands, battle_map, mission), ScriptedDice(faces))
    for seat in range(len(squads)):
        match.apply(RULESET.automatic_placement(match.state, seat))
    return match


def put(match: D20Match, **squares: str) -> None:
    """Stand models on squares: put(match, Ann="F6") (a Big Model by its top-left cell)."""
    for name, text in squares.items():
        match.state.model(name).square = Square.parse(text)


def script(match: D20Match, *faces: int) -> None:
    dice = match.dice
    assert isinstance(dice, ScriptedDice)
    dice.faces.extend(faces)
