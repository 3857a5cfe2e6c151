"""A d20 match before its first round: seats, warbands and their deployment (our ruling:
Deployment, as in Skirm Lite: each seat places all its models in its zone in secret, and all
are revealed together; a Big Model's four cells must all lie in the zone)."""

from __future__ import annotations

import copy
from typing import Any

from skirmbot.rules.board import Board
from skirmbot.rules.d20.armory import Armory, armory_from_json, shipped_armory
from skirmbot.rules.d20.geometry import cells_at, direction
from skirmbot.rules.d20.scenarios import scenario_from_json, zones
from skirmbot.rules.d20.state import Model, Seat, State
from skirmbot.rules.d20.warbands import Warband, check_points, warband_from_json
from skirmbot.rules.errors import ContentError, IllegalCommand, RulesError
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.squares import Square

SEATS = (2, 3, 4)


def armory_of(content: dict[str, Any]) -> Armory:
    """The record's own armory when it carries one (so a later change to the shipped armory
    never changes an old match), else the shipped one."""
    return armory_from_json(content["armory"]) if "armory" in content else shipped_armory()


def with_armory(content: dict[str, Any]) -> dict[str, Any]:
    """The content with the shipped armory in it, unless it carries one (`armory_of`)."""
    if "armory" in content:
        return content
    return {**content, "armory": copy.deepcopy(shipped_armory().source)}


def new_state(content: dict[str, Any], *, strict: bool = True) -> State:
    battle_map = map_from_json(content.get("map"))
    scenario = scenario_from_json(content.get("mission"))
    armory = armory_of(content)
    raw = content.get("squads")
    if not isinstance(raw, list) or len(raw) not in SEATS:
        raise ContentError("A d20 match has 2, 3 or 4 warbands, one per player.")
    warbands = [warband_from_json(data, armory) for data in raw]
    if strict:
        for warband in warbands:
            check_points(warband, scenario.points_limit)
    areas = zones(battle_map.board, len(warbands))
    _check_room(warbands, areas)
    return State(
        board=battle_map.board,
        map_name=battle_map.name,
        scenario=scenario,
        objectives=battle_map.objectives,
        seats=[Seat(warband.name) for warband in warbands],
        models=_models(warbands),
        zones=areas,
    )


def check_zones(board: Board, squad_sizes: tuple[int, ...]) -> None:
    """Whether the map has a zone for each seat that holds its warband's models (Small Models
    here: a Big Model's four squares are counted when the warbands are known, `new_state`)."""
    if len(squad_sizes) not in SEATS:
        raise ContentError("A d20 match has 2, 3 or 4 warbands, one per player.")
    for seat, (size, area) in enumerate(
        zip(squad_sizes, zones(board, len(squad_sizes)), strict=True)
    ):
        if size > len(area):
            raise ContentError(
                f"Seat {seat + 1}'s zone on this map has {len(area)} squares; "
                f"its warband needs {size}."
            )


def _models(warbands: list[Warband]) -> dict[str, Model]:
    """Every model by its name in lower case; a name two warbands share gets its seat's number."""
    models: dict[str, Model] = {}
    for seat, warband in enumerate(warbands):
        for name, profile in warband.models:
            shown = name if name.lower() not in models else f"{name}{seat + 1}"
            models[shown.lower()] = Model(shown, seat, profile)
    return models


def _check_room(warbands: list[Warband], areas: tuple[frozenset[Square], ...]) -> None:
    for warband, area in zip(warbands, areas, strict=True):
        needed = sum(4 if profile.big else 1 for _, profile in warband.models)
        if needed > len(area):
            raise ContentError(
                f"Warband {warband.name} needs {needed} squares to deploy; "
                f"its zone on this map has {len(area)}."
            )


def deploy(state: State, side: int, placements: dict[str, str]) -> None:
    """Place every model of `side`; IllegalCommand names the first mistake."""
    seat = state.seats[side]
    if seat.placed:
        raise IllegalCommand(f"{seat.name} has already deployed.")
    mine = {model.id.lower(): model for model in state.models.values() if model.side == side}
    if not isinstance(placements, dict) or not all(isinstance(name, str) for name in placements):
        raise IllegalCommand('Placements name each model with its square: {"Vask": "C2"}.')
    typed = {name.lower(): text for name, text in placements.items()}
    if set(typed) != set(mine):
        names = ", ".join(model.id for model in mine.values())
        raise IllegalCommand(f"Place every model of {seat.name} once: {names}.")
    taken: set[Square] = set()
    for key, text in typed.items():
        model = mine[key]
        anchor = square_on(state.board, text)
        cells = cells_at(anchor, model.big)
        if not all(cell in state.zones[side] for cell in cells):
            what = "all four of its squares" if model.big else "its square"
            raise IllegalCommand(f"{model.id} must deploy with {what} in {seat.name}'s zone.")
        if taken & set(cells):
            raise IllegalCommand(f"{model.id} would stand on another model on {anchor}.")
        taken |= set(cells)
        model.square = anchor
        if model.big:
            centre = (Square(state.board.width // 2, state.board.height // 2),)
            model.facing = direction(cells, centre)
    seat.placed = True


def square_on(board: Board, text: object) -> Square:
    """The square typed, on this board; IllegalCommand in plain words otherwise."""
    if not isinstance(text, str):
        raise IllegalCommand(f"{text!r} is not a square: write one like C4.")
    try:
        return board.parse_square(text)
    except RulesError as error:
        raise IllegalCommand(str(error)) from error
