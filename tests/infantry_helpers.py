"""Matches of the infantry rules built from the shipped content, for tests."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from skirmbot.rules.commands import Command, Deploy, EndActivation
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.dots import Dot
from skirmbot.rules.events import Event
from skirmbot.rules.infantry.card import Mark, Track
from skirmbot.rules.infantry.engine import InfantryMatch
from skirmbot.rules.infantry.setup import match_content, new_state, zone_dots
from skirmbot.rules.infantry.state import Trooper


def shipped(folder: str, name: str) -> Any:
    """A shipped infantry content file's JSON ("maps", "crossroads")."""
    path = resources.files("skirmbot.content").joinpath("infantry", folder, f"{name}.json")
    return json.loads(path.read_text("utf-8"))


def content(
    squads: tuple[str, str] = ("riflemen", "laser-team"),
    mission: str = "firefight",
    battle_map: str = "crossroads",
) -> dict[str, Any]:
    """A record's content: the map, the mission, two shipped squads and the weapons tables."""
    return match_content(
        {
            "map": shipped("maps", battle_map),
            "mission": shipped("missions", mission),
            "squads": [shipped("squads", name) for name in squads],
        }
    )


def fresh(
    faces: list[int] | None = None,
    squads: tuple[str, str] = ("riflemen", "laser-team"),
    mission: str = "firefight",
    battle_map: str = "crossroads",
) -> InfantryMatch:
    """A deployed match in seat 0's first turn (the roll-off is scripted 6 to 1), every trooper
    on every other dot of its zone's first row; `faces`: the dice after the roll-off."""
    state = new_state(content(squads, mission, battle_map))
    match = InfantryMatch(state, ScriptedDice([6, 1, *(faces or [])]))
    for seat in (0, 1):
        dots = zone_dots(state, seat)
        placements = {t.id: str(dots[2 * n]) for n, t in enumerate(state.troopers_of(seat))}
        match.apply(Deploy(seat, placements))
    return match


def put(match: InfantryMatch, unit: str, dot: str, level: int = 0, prone: bool = False) -> Trooper:
    """Set a trooper down by hand where a test needs it."""
    trooper = match.state.trooper(unit)
    trooper.dot, trooper.level, trooper.prone = Dot.parse(dot), level, prone
    return trooper


def play(match: InfantryMatch, *commands: Command) -> list[Event]:
    """Apply the commands in order; all their events."""
    events: list[Event] = []
    for command in commands:
        events += match.apply(command)
    return events


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [event.data for event in events if event.kind == kind]


def pass_turn(match: InfantryMatch) -> list[Event]:
    """End the activation in progress, if any, and the side's turn."""
    seat = match.state.to_act
    events: list[Event] = []
    if match.state.activating is not None:
        events += match.apply(EndActivation(seat))
    if match.state.to_act == seat:
        events += match.apply(EndActivation(seat))
    return events


def dice_left(match: InfantryMatch) -> int:
    dice = match.dice
    assert isinstance(dice, ScriptedDice)
    return dice.remaining


def knock_out(trooper: Trooper) -> None:
    """Make a trooper unconscious by hand: cell 1 half crossed (our ruling, plan section 2)."""
    cells = (Mark.CLEAN,) * 9 + (Mark.HALF,)
    trooper.track = Track(cells, trooper.track.armour)
