"""Build small Skirm Lite matches for rules tests: Agents on exact squares, dice face by face.

    match = lite_match(
        {0: [agent("Ada", "C3", specials=["LD1"])], 1: [agent("Bo", "C10")]},
        orders=(2, 0),      # Tactical Orders each squad rolls for turn 1
        faces=[1, 4, 3],    # the dice the test's commands will roll, in order
    )

Turn 1 starts with side `initiative` winning the roll-off (highest wins: 2 against 1) and exactly
`orders` TO per squad; a mission with events rolls `event_roll` after the orders. The default
weapons: Rifle ROA 2, SKL 3, DAM 1, RG8 and Knife ROA 2, SKL 3, DAM 1; default Agent MOV 3,
ACT 3, ARM 3, HIT 3, so a save die of 1-2 saves (ARM 3 - DAM 1) and 3-6 loses a HIT.
"""

from __future__ import annotations

from typing import Any

from builders import order_faces

from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.lite import turns
from skirmbot.rules.lite.engine import LiteMatch
from skirmbot.rules.lite.missions import mission_from_json
from skirmbot.rules.lite.squads import squad_from_json
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.squares import Square

FLAT_12 = [" ".join(["."] * 12)] * 12
RIFLE: dict[str, Any] = {
    "name": "Rifle", "type": "ranged", "roa": 2, "skl": 3, "dam": 1, "specials": ["RG8"],
}  # fmt: skip
KNIFE: dict[str, Any] = {"name": "Knife", "type": "melee", "roa": 2, "skl": 3, "dam": 1}


def agent(
    name: str,
    square: str,
    *,
    mov: int = 3,
    act: int = 3,
    arm: int = 3,
    hit: int = 3,
    specials: list[str] | None = None,
    weapons: list[dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], str]:
    card = {
        "name": name,
        "mov": mov,
        "act": act,
        "arm": arm,
        "hit": hit,
        "specials": specials or [],
        "weapons": weapons if weapons is not None else [RIFLE, KNIFE],
    }
    return card, square


def gun(name: str, kind: str, roa: int, skl: int, dam: int, *specials: str) -> dict[str, Any]:
    return {
        "name": name,
        "type": kind,
        "roa": roa,
        "skl": skl,
        "dam": dam,
        "specials": list(specials),
    }


def lite_match(
    placed: dict[int, list[tuple[dict[str, Any], str]]],
    *,
    rows: list[str] | None = None,
    edges: list[str] | None = None,
    objectives: list[str] | None = None,
    scoring: list[dict[str, Any]] | None = None,
    orders: tuple[int, int] = (0, 0),
    initiative: int = 0,
    faces: list[int] | None = None,
    turns_total: int | None = None,
    mission_extra: dict[str, Any] | None = None,
    event_roll: int = 1,
) -> LiteMatch:
    map_data = {
        "name": "Test ground",
        "rows": rows or FLAT_12,
        "edges": edges or [],
        "objectives": objectives or [],
        "items": [],
    }
    mission_data = {
        "name": "Test mission",
        "deployment": [{"edge": "top", "depth": 1}, {"edge": "bottom", "depth": 1}],
        "scoring": scoring or [{"kind": "control", "points": 1}],
        **(mission_extra or {}),
    }
    squads = [
        squad_from_json({"name": ["Red", "Blue"][side], "agents": [c for c, _ in placed[side]]})
        for side in (0, 1)
    ]
    battle_map, mission = map_from_json(map_data), mission_from_json(mission_data)
    if turns_total is not None:
        object.__setattr__(mission, "turns", turns_total)
    leader_dice = [sum(c.value("LD") for c in squad.units) for squad in squads]
    setup = [2, 1] if initiative == 0 else [1, 2]
    first, second = initiative, 1 - initiative
    setup += order_faces(3 + leader_dice[first], orders[first])
    setup += order_faces(3 + leader_dice[second], orders[second])
    if mission_data.get("events"):
        setup.append(event_roll)
    dice = ScriptedDice(setup + list(faces or []))
    match = LiteMatch(battle_map, mission, (squads[0], squads[1]), dice)
    for side in (0, 1):
        for card, square in placed[side]:
            match.state.units[card["name"]].square = Square.parse(square)
        match.state.squads[side].deployed = True
    match.log.extend(turns.start_turn(match.state, dice))
    return match


def new_turn_faces(initiative: int, orders: tuple[int, int] = (3, 3)) -> list[int]:
    """Dice a new turn rolls: no tie, `initiative` wins, no Tactical Orders (`orders`: how many
    TO dice each side rolls)."""
    first = orders[initiative]
    second = orders[1 - initiative]
    return ([2, 1] if initiative == 0 else [1, 2]) + [6] * first + [6] * second
