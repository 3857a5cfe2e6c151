"""Build small matches for rules tests: units placed on exact squares, dice scripted face by face.

    match = skirm_match(
        {0: [unit("Remus", "C3", specials=["LD1"])], 1: [unit("Vex", "C6")]},
        orders=(2, 0),          # Tactical Orders each squad rolls for turn 1
        faces=[1, 4, 3],        # the dice the test's commands will roll, in order
    )

The builder deploys the units where asked (skipping the deployment zones), starts turn 1 with
side `initiative` winning the roll-off and exactly `orders` TO per squad, then hands the rest of
the scripted faces to the commands. `match.dice.remaining` tells whether all faces were used.

`mission_extra` adds fields to the test mission (events, secondaries, actions, markers, crates). A
mission with secondaries draws one card per squad before the roll-off (`draws`, the faces of the
die picking each squad's card among those left: card n of the deck when none is scored yet); a
mission with events rolls `event_roll` after Tactical Orders. Without them, nothing is rolled.
"""

from __future__ import annotations

from typing import Any

import pytest

from skirmbot.rules.commands import Command, EndActivation
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.skirm import turns
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.missions import mission_from_json
from skirmbot.rules.skirm.squads import squad_from_json
from skirmbot.rules.skirm.state import ENDED
from skirmbot.rules.squares import Square

FLAT_12 = [" ".join(["."] * 12)] * 12
RIFLE: dict[str, Any] = {"name": "Rifle", "type": "ranged", "roa": 2, "dam": 1, "specials": ["RG8"]}
KNIFE: dict[str, Any] = {"name": "Knife", "type": "melee", "roa": 2, "dam": 1, "specials": []}


def unit(
    name: str,
    square: str,
    *,
    act: int = 3,
    msk: int = 3,
    rsk: int = 3,
    arm: int = 3,
    hit: int = 3,
    specials: list[str] | None = None,
    weapons: list[dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], str]:
    card = {
        "name": name,
        "type": "Trooper",
        "ep": 5,
        "act": act,
        "msk": msk,
        "rsk": rsk,
        "arm": arm,
        "hit": hit,
        "specials": specials or [],
        "weapons": weapons if weapons is not None else [RIFLE, KNIFE],
    }
    return card, square


def weapon(name: str, kind: str, roa: int, dam: int, *specials: str) -> dict[str, Any]:
    return {"name": name, "type": kind, "roa": roa, "dam": dam, "specials": list(specials)}


def _with_leader(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Squads need exactly one Leader: the first unit leads unless a card already has LDx."""
    if any(any(s.startswith("LD") for s in c["specials"]) for c in cards):
        return cards
    first = dict(cards[0], specials=[*cards[0]["specials"], "LD1"])
    return [first, *cards[1:]]


def order_faces(count: int, orders: int) -> list[int]:
    """`count` TO dice giving exactly `orders` Tactical Orders (1-3 count, 4-6 do not)."""
    return [1] * orders + [6] * (count - orders)


def skirm_match(
    placed: dict[int, list[tuple[dict[str, Any], str]]],
    *,
    rows: list[str] | None = None,
    edges: list[str] | None = None,
    objectives: list[str] | None = None,
    items: list[dict[str, Any]] | None = None,
    scoring: list[dict[str, Any]] | None = None,
    orders: tuple[int, int] = (0, 0),
    initiative: int = 0,
    faces: list[int] | None = None,
    turns_total: int | None = None,
    mission_extra: dict[str, Any] | None = None,
    draws: tuple[int, int] = (1, 1),
    event_roll: int = 1,
) -> Match:
    map_data = {
        "name": "Test ground",
        "rows": rows or FLAT_12,
        "edges": edges or [],
        "objectives": objectives or [],
        "items": items or [],
    }
    mission_data = {
        "name": "Test mission",
        "deployment": [{"edge": "top", "depth": 1}, {"edge": "bottom", "depth": 1}],
        "scoring": scoring or [{"kind": "control", "points": 1}],
        **(mission_extra or {}),
    }
    squads = []
    for side in (0, 1):
        cards = _with_leader([card for card, _ in placed[side]])
        squads.append(
            squad_from_json({"name": ["Red", "Blue"][side], "units": cards}, ep_limit=1000)
        )
    battle_map, mission = map_from_json(map_data), mission_from_json(mission_data)
    if turns_total is not None:
        object.__setattr__(mission, "turns", turns_total)
    leader_dice = [sum(c.value("LD") for c in squad.units) for squad in squads]
    setup = list(draws) if mission_data.get("secondaries") else []
    setup += [1, 2] if initiative == 0 else [2, 1]
    first, second = initiative, 1 - initiative
    setup += order_faces(3 + leader_dice[first], orders[first]) + order_faces(
        3 + leader_dice[second], orders[second]
    )
    if mission_data.get("events"):
        setup.append(event_roll)
    dice = ScriptedDice(setup + list(faces or []))
    match = Match(battle_map, mission, (squads[0], squads[1]), dice)
    for side in (0, 1):
        for card, square in placed[side]:
            match.state.units[card["name"]].square = Square.parse(square)
        match.state.squads[side].deployed = True
    match.log.extend(turns.start_turn(match.state, dice))
    return match


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of the events of one kind, in order."""
    return [e.data for e in events if e.kind == kind]


def refused(match: Match, command: Command, phrase: str) -> None:
    """The command is illegal, says `phrase`, and changes nothing (no die rolled either)."""
    before, dice_left = match.state.to_json(), match.dice.remaining  # type: ignore[attr-defined]
    with pytest.raises(IllegalCommand) as error:
        match.apply(command)
    assert phrase in str(error.value)
    assert match.state.to_json() == before
    assert match.dice.remaining == dice_left  # type: ignore[attr-defined]


def pass_turn(match: Match) -> list[Event]:
    """Every unit ends its activation without acting, until the turn is over."""
    events: list[Event] = []
    turn = match.state.turn
    while match.state.phase != ENDED and match.state.turn == turn:
        side = match.state.to_act
        assert side is not None
        if match.state.activation is not None:
            events += match.apply(EndActivation(side))
        else:
            events += match.apply(EndActivation(side, match.state.ready_units(side)[0].id))
    return events
