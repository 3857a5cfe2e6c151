"""The actions a player sends to the service (`MatchService.act`), and their compact form.

They are the rules' command protocol (`skirmbot.rules.commands`): the cogs and the console
build them from what a player typed or clicked, through this module only, so that they depend
on the service and never on the rules' modules (docs/architecture.md). The compact form is how a
button carries an action in its custom_id.
"""

from __future__ import annotations

import json
from dataclasses import fields

from skirmbot.rules.commands import (
    COMMAND_TYPES,
    Accept,
    Activate,
    AgreeDraw,
    Command,
    Concede,
    Dash,
    Delay,
    Deploy,
    Door,
    Drop,
    EndActivation,
    Infiltrate,
    Leap,
    Melee,
    MissionAction,
    Modify,
    Move,
    OpenCrate,
    PickUp,
    Reroll,
    SetStandingOrders,
    Shoot,
    UnitCommand,
    UseSkill,
    UseTurret,
    command_from_json,
)
from skirmbot.rules.errors import RulesError

# The kinds of action that have a command of their own in every front end (/move, `move` at the
# console); the others, a ruleset's own actions such as Skirm Lite's Revive, are reached
# through /act (`act` at the console), which lists the legal ones.
COMMON_KINDS = {
    kind.type
    for kind in (
        Deploy, Activate, Move, Dash, Leap, UseSkill, MissionAction, Shoot, Melee, Door,
        PickUp, Drop, OpenCrate, UseTurret, EndActivation, Delay, Accept, Reroll, Modify,
        SetStandingOrders, Infiltrate, Concede, AgreeDraw,
    )
}  # fmt: skip


def encode(command: Command) -> str:
    """An action as a compact JSON list, its fields in order and `side` left out (the service
    sets it): `["move","Vex","C12",1]`."""
    names = [field.name for field in fields(command) if field.name != "side"]
    return json.dumps(
        [command.type, *(getattr(command, name) for name in names)], separators=(",", ":")
    )


def decode(payload: str) -> Command:
    """The action `encode` wrote; ValueError for anything else."""
    try:
        data = json.loads(payload)
        if not isinstance(data, list) or not data or data[0] not in COMMAND_TYPES:
            raise ValueError(f"not an action: {payload!r}")
        names = [field.name for field in fields(COMMAND_TYPES[data[0]]) if field.name != "side"]
        return command_from_json(
            {"type": data[0], "side": 0, **dict(zip(names, data[1:], strict=False))}
        )
    except (TypeError, RulesError) as error:
        raise ValueError(f"not an action: {payload!r} ({error})") from error


__all__ = [
    "COMMON_KINDS",
    "Accept",
    "Activate",
    "AgreeDraw",
    "Command",
    "Concede",
    "Dash",
    "Delay",
    "Deploy",
    "Door",
    "Drop",
    "EndActivation",
    "Infiltrate",
    "Leap",
    "Melee",
    "MissionAction",
    "Modify",
    "Move",
    "OpenCrate",
    "PickUp",
    "Reroll",
    "SetStandingOrders",
    "Shoot",
    "UnitCommand",
    "UseSkill",
    "UseTurret",
    "decode",
    "encode",
]
