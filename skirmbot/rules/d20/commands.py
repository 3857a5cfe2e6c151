"""The d20 rules' commands, and their JSON form (parsed here: seats 0 to 3).

Deployment, ending an activation and conceding are the kernel's common verbs (`Deploy`,
`EndActivation`, `Concede`); the rest are this rulebook's own. The kernel's Move, Shoot and
Melee (what /move, /shoot and /melee send in every ruleset) are read as they were sent, so a
record replays them as it keeps them; the engine plays them as this rulebook's Move and Attack
(`engine.own_form`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from skirmbot.rules.commands import (
    Command,
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

MAX_SEATS = 4


@dataclass(frozen=True)
class Buy(Command):
    """Trade action points for bonus dice (rulebook Spend Action Points on Bonus Dice)."""

    type: ClassVar[str] = "buy"
    dice: int = 1


@dataclass(frozen=True)
class Move(UnitCommand):
    """One movement toward `square`; `bonus` bonus dice add their faces in inches; a Big Model
    ends facing `facing` (None: the way its last step went)."""

    type: ClassVar[str] = "move"
    square: str = ""
    bonus: int = 0
    facing: str | None = None


@dataclass(frozen=True)
class Attack(UnitCommand):
    """Ranged or melee combat, by the weapon's kind, adding `bonus` bonus dice to the roll."""

    type: ClassVar[str] = "attack"
    target: str = ""
    weapon: str | None = None
    bonus: int = 0


@dataclass(frozen=True)
class Defend(Command):
    """The defender's bonus dice for the attack waiting on them."""

    type: ClassVar[str] = "defend"
    dice: int = 0


@dataclass(frozen=True)
class Shift(UnitCommand):
    """A melee winner's free move of up to 3 inches (one square); `square` None: it stays."""

    type: ClassVar[str] = "shift"
    square: str | None = None


@dataclass(frozen=True)
class EndTurn(Command):
    """End the turn; action points left are lost ("Action points do not carry")."""

    type: ClassVar[str] = "end_turn"


@dataclass(frozen=True)
class StandingOrders(Command):
    """Defend with up to `defend` bonus dice without being asked; `prompt`: ask me instead."""

    type: ClassVar[str] = "standing_orders"
    defend: int = 0
    prompt: bool = False


COMMANDS: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (
        Deploy,
        Buy,
        Move,
        Attack,
        Defend,
        Shift,
        EndTurn,
        EndActivation,
        StandingOrders,
        Concede,
    )
}
# The kernel's verbs the common slash commands send; a kernel Move is told from this
# rulebook's by its `orders` field.
KERNEL_VERBS = table_of(KernelMove, Shoot, Melee)
# Every type a d20 record may hold (`Ruleset.command_types`).
COMMAND_TYPES: dict[str, type[Command]] = {**KERNEL_VERBS, **COMMANDS}
_TYPES: dict[str, tuple[type, ...]] = {
    "side": (int,), "unit": (str,), "square": (str, type(None)), "target": (str,),
    "weapon": (str, type(None)), "bonus": (int,), "dice": (int,), "facing": (str, type(None)),
    "defend": (int,), "prompt": (bool,), "reason": (str,), "placements": (dict,),
}  # fmt: skip


def parse_command(data: Any) -> Command:
    """A d20 command (or a kernel verb it plays) from its JSON form; RulesError names what is
    wrong."""
    if _kernel_verb(data):
        return command_from_json(data, KERNEL_VERBS, seats=MAX_SEATS, ruleset="d20 Skirmish")
    if not isinstance(data, dict) or data.get("type") not in COMMANDS:
        raise RulesError(
            f"{data!r} is not a d20 command; its 'type' is one of {', '.join(COMMANDS)}."
        )
    cls = COMMANDS[data["type"]]
    # without a unit, an end is the activating model's
    exceptions = {"unit": (str, type(None))} if cls is EndActivation else None
    return typed_command(cls, data, _TYPES, seats=MAX_SEATS, exceptions=exceptions)


def _kernel_verb(data: Any) -> bool:
    if not isinstance(data, dict) or data.get("type") not in KERNEL_VERBS:
        return False
    return data["type"] != KernelMove.type or "orders" in data
