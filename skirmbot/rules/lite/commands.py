"""Skirm Lite's own commands (Revive, Sentry). With the kernel's common verbs and Skirm's
standing orders (Lite spends Tactical Orders as well, `orders_per_attack` being its own), they
are the commands a Skirm Lite match plays (`LITE_COMMANDS`): Skirm's Leap, skills, crates,
turrets, mission actions, Infiltrate and Delay are not among them. Skirm's commands are
re-exported so Lite's modules (and its engine's refusals of them) read from one place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from skirmbot.rules.commands import COMMON_COMMANDS, table_of
from skirmbot.rules.skirm.commands import (
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
)


@dataclass(frozen=True)
class Revive(UnitCommand):
    """Skirm Lite: revive the Downed squadmate `target` in an adjacent square (2 TO only)."""

    type: ClassVar[str] = "revive"
    target: str = ""


@dataclass(frozen=True)
class Sentry(UnitCommand):
    """Skirm Lite: a free Sentry action by an Agent that has already activated, when its squad
    has fewer Agents in play and none left to activate. `action` is "melee", "shoot" or "dash";
    `target` (and `weapon`) for an attack, `square` for a Dash."""

    type: ClassVar[str] = "sentry"
    action: str = ""
    target: str | None = None
    weapon: str | None = None
    square: str | None = None


LITE_COMMANDS = {**COMMON_COMMANDS, **table_of(SetStandingOrders, Revive, Sentry)}

__all__ = [
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
    "LITE_COMMANDS",
    "Leap",
    "Melee",
    "MissionAction",
    "Modify",
    "Move",
    "OpenCrate",
    "PickUp",
    "Reroll",
    "Revive",
    "Sentry",
    "SetStandingOrders",
    "Shoot",
    "UnitCommand",
    "UseSkill",
    "UseTurret",
]
