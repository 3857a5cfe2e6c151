"""Skirm's own commands: the actions of the full rulebook that other rulesets do not have
(Leap, skills, crates, turrets, mission actions, Infiltrate, Delay) and the standing orders that
spend its Tactical Orders. With the kernel's common verbs, re-exported here, they are the
commands a Skirm match plays (`SKIRM_COMMANDS`, parsed by the ruleset's `parse_command`).
Skirm Lite builds on this module (skirmbot.rules.lite.commands)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from skirmbot.rules.commands import (
    COMMON_COMMANDS,
    Accept,
    Activate,
    AgreeDraw,
    Command,
    Concede,
    Dash,
    Deploy,
    Door,
    Drop,
    EndActivation,
    Melee,
    Modify,
    Move,
    PickUp,
    Reroll,
    Shoot,
    UnitCommand,
    table_of,
)


@dataclass(frozen=True)
class Infiltrate(Command):
    """Place the squad's INF units after both deployments: {unit id: square}."""

    type: ClassVar[str] = "infiltrate"
    placements: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SetStandingOrders(Command):
    """Reactions for when the player is not online: re-roll failed saves while the squad has more
    than `reroll_saves_above` TO (None: never spend TO on reactions). Rulings: Tactical Orders.

    Skirm Lite: with `orders_per_attack`, each failed save is changed the cheapest way that
    saves it (-1 or -2, else a re-roll), at most that many TO per attack on one Agent (rulings:
    Skirm Lite). None, as in every record before it, keeps the plain re-roll of failed saves."""

    type: ClassVar[str] = "standing_orders"
    reroll_saves_above: int | None = None
    parry: bool = True  # PAR units re-roll the attacker's best die
    counter: bool = True  # CTR units strike back after a melee attack
    orders_per_attack: int | None = None


@dataclass(frozen=True)
class Leap(UnitCommand):
    """LPx: leap to a square up to x away in a straight line (2 ACT)."""

    type: ClassVar[str] = "leap"
    square: str = ""
    orders: int = 0


@dataclass(frozen=True)
class UseSkill(UnitCommand):
    """A skill from the unit's card; `target` is a unit or square when the skill needs one."""

    type: ClassVar[str] = "skill"
    skill: str = ""
    target: str | None = None
    orders: int = 0


@dataclass(frozen=True)
class OpenCrate(UnitCommand):
    """`option` is one of mp, medpack, ammo, to (rulebook Crate)."""

    type: ClassVar[str] = "crate"
    option: str = ""
    orders: int = 0


@dataclass(frozen=True)
class UseTurret(UnitCommand):
    type: ClassVar[str] = "turret"
    target: str = ""
    orders: int = 0
    also: str | None = None  # further targets for the machine gun's Spread (SPR)


@dataclass(frozen=True)
class MissionAction(UnitCommand):
    """A mission action by its name, e.g. "Arm the beacon" (rulebook Mission Actions)."""

    type: ClassVar[str] = "mission"
    action: str = ""
    orders: int = 0


@dataclass(frozen=True)
class Delay(Command):
    type: ClassVar[str] = "delay"


SKIRM_COMMANDS = {
    **COMMON_COMMANDS,
    **table_of(
        Infiltrate, SetStandingOrders, Leap, UseSkill, OpenCrate, UseTurret, MissionAction, Delay
    ),
}

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
    "Leap",
    "Melee",
    "MissionAction",
    "Modify",
    "Move",
    "OpenCrate",
    "PickUp",
    "Reroll",
    "SKIRM_COMMANDS",
    "SetStandingOrders",
    "Shoot",
    "UnitCommand",
    "UseSkill",
    "UseTurret",
]
