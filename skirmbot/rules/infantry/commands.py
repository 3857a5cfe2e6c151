"""The infantry rules' commands, and their JSON form (`{"type": ..., "side": seat, ...}`).

Deploying, conceding, activating, ending an activation ("end") and melee are the kernel's verbs
(`Deploy`, `Concede`, `Activate`, `EndActivation`, `Melee`). The kernel's Move with its `orders`
field (what /move sends in every ruleset) is read as this Move to its `square`; the kernel's
Shoot is refused by the engine in words: skirmishers fire from firing arcs. The rest are this
rulebook's own: movement and special actions, the firing arc, the throw, an arc owner's answer
to a chance to fire (`FireAt`), and the standing order to be asked live (`StandingOrders`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from skirmbot.rules.commands import (
    Activate,
    Command,
    CommandTable,
    Concede,
    Deploy,
    EndActivation,
    Melee,
    Shoot,
    UnitCommand,
    command_from_json,
    table_of,
    typed_command,
)
from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.errors import RulesError

SEATS = 2
TITLE = "The infantry rules"


@dataclass(frozen=True)
class Move(UnitCommand):
    """Move to `square` by the cheapest route (terrain.route), or along `path` ("C4 D4 D5":
    each dot in order, one step each)."""

    type: ClassVar[str] = "move"
    square: str = ""
    path: str | None = None


@dataclass(frozen=True)
class Climb(UnitCommand):
    """Up or down one level on stairs or a ladder, on the same dot (Basic Movement ¶4)."""

    type: ClassVar[str] = "climb"
    level: int = 0


@dataclass(frozen=True)
class Prone(UnitCommand):
    """Go prone, 1 AP (Basic Movement ¶5)."""

    type: ClassVar[str] = "prone"


@dataclass(frozen=True)
class Stand(UnitCommand):
    """Stand from prone, 2 AP (Basic Movement ¶5)."""

    type: ClassVar[str] = "stand"


@dataclass(frozen=True)
class ChangeWeapon(UnitCommand):
    """Make another weapon active, 3 AP: one it carries, or "Hand Grenade" / "Satchel Charge"
    (Special Actions ¶1)."""

    type: ClassVar[str] = "change_weapon"
    weapon: str = ""


@dataclass(frozen=True)
class Take(UnitCommand):
    """Take `item` from `source`, 6 AP (Special Actions ¶2): a trooper's id, or the dot
    ("D4") a dropped weapon lies on."""

    type: ClassVar[str] = "take"
    source: str = ""
    item: str = ""


@dataclass(frozen=True)
class DropItem(UnitCommand):
    """Drop a weapon on the trooper's dot, 0 AP (Special Actions ¶2)."""

    type: ClassVar[str] = "drop"
    item: str = ""


@dataclass(frozen=True)
class Arc(UnitCommand):
    """Establish a firing arc of `width` degrees (30, 60, 150: 2, 4, 6 AP) facing the dot
    `toward`, with the order it fires by unasked (state.ARC_ORDERS; `n` for "first")."""

    type: ClassVar[str] = "arc"
    width: int = 60
    toward: str = ""
    order: str = "every"
    n: int = 0


@dataclass(frozen=True)
class Throw(UnitCommand):
    """Throw the active explosive at the dot `target`; `level` for a throw up or down stairs or
    a ladder (Explosives ¶2)."""

    type: ClassVar[str] = "throw"
    target: str = ""
    level: int | None = None


@dataclass(frozen=True)
class FireAt(Command):
    """An arc owner's answer to the chance waiting for it: fire one shot, or hold."""

    type: ClassVar[str] = "fire"
    owner: str = ""
    fire: bool = True


@dataclass(frozen=True)
class StandingOrders(Command):
    """`prompt`: ask me live whenever one of my arcs has a chance (otherwise, and when I do
    not answer in time, the arc's own order decides)."""

    type: ClassVar[str] = "standing"
    prompt: bool = False


COMMANDS: dict[str, type[Command]] = table_of(
    Deploy, Activate, Move, Climb, Prone, Stand, ChangeWeapon, Take, DropItem, Arc, Throw, FireAt,
    StandingOrders, Concede,
)  # fmt: skip
# The kernel's verbs the common slash commands send: a kernel Move is told from this
# rulebook's by its `orders` field; Shoot is refused by the engine in words.
KERNEL_VERBS = table_of(KernelMove, Shoot, Melee, EndActivation)
# Every type a record of the infantry rules may hold (`Ruleset.command_types`).
COMMAND_TYPES: CommandTable = {**KERNEL_VERBS, **COMMANDS}
_TYPES: dict[str, tuple[type, ...]] = {
    "side": (int,), "unit": (str,), "square": (str,), "path": (str, type(None)),
    "level": (int,), "weapon": (str,), "source": (str,), "item": (str,), "width": (int,),
    "toward": (str,), "order": (str,), "n": (int,), "target": (str,), "owner": (str,),
    "fire": (bool,), "prompt": (bool,), "placements": (dict,), "reason": (str,),
}  # fmt: skip
_THROW_LEVEL = {"level": (int, type(None))}


def parse_command(data: Any) -> Command:
    """A command of the infantry rules (or a kernel verb they play) from its JSON form;
    RulesError names what is wrong."""
    if _kernel_verb(data):
        return command_from_json(data, KERNEL_VERBS, seats=SEATS, ruleset=TITLE)
    if not isinstance(data, dict) or data.get("type") not in COMMANDS:
        raise RulesError(
            f"{data!r} is not a command of the infantry rules; its 'type' is one of "
            f"{', '.join(COMMAND_TYPES)}."
        )
    kind = COMMANDS[data["type"]]
    exceptions = _THROW_LEVEL if kind is Throw else None
    return typed_command(kind, data, _TYPES, seats=SEATS, exceptions=exceptions)


def _kernel_verb(data: Any) -> bool:
    if not isinstance(data, dict) or data.get("type") not in KERNEL_VERBS:
        return False
    return data["type"] != KernelMove.type or "orders" in data
