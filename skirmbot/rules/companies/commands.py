"""The group rules' commands, and their JSON form (parsed here: seats 0 to 5).

Deployment and conceding are the kernel's common verbs (`Deploy`, `Concede`). The kernel's Move,
Shoot and Melee (what /move, /shoot and /melee send in every ruleset) are this rulebook's Move,
Shoot and Attack orders, and its EndActivation (/end) is EndTurn: a record keeps them as they
were sent, and the engine plays them (`engine.CompaniesMatch`). The rest are this rulebook's own: a Move placing each model on its
own square, Retreat, the special orders Cast and Summon, ending a seat's part of its side's
turn, the defender's answer to an Attack (Interrupt), standing orders, and the ambition chosen
at set-up (rulebook Setup 7).
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

MAX_SEATS = 6  # two sides of up to three players each


@dataclass(frozen=True)
class Move(UnitCommand):
    """The Move order: the whole Group keeping its shape, its first model to `square`; or, with
    `models` ("C3 D3 E4"), each model to its own square in model order."""

    type: ClassVar[str] = "move"
    square: str = ""
    models: str | None = None


@dataclass(frozen=True)
class Retreat(UnitCommand):
    """The Retreat order: half its MO away from the enemy Group it is in melee with."""

    type: ClassVar[str] = "retreat"


@dataclass(frozen=True)
class Cast(UnitCommand):
    """The Cast order (a Group with the Cast trait): a hex on an enemy Group it can see."""

    type: ClassVar[str] = "cast"
    target: str = ""


@dataclass(frozen=True)
class Summon(UnitCommand):
    """The Summon order (a Group with the Summon trait): a new Group placed from `square`."""

    type: ClassVar[str] = "summon"
    square: str = ""


@dataclass(frozen=True)
class EndTurn(Command):
    """The seat's part of its side's turn ends ("choose to end your turn"); `reason` when not
    by its player's choice (the turn timer ran out), told in the log."""

    type: ClassVar[str] = "end_turn"
    reason: str = ""


@dataclass(frozen=True)
class Interrupt(Command):
    """The attacked player's answer: test the Group's Defiant or Elusive trait (`use`), or
    stand still and let the Attack go on."""

    type: ClassVar[str] = "interrupt"
    use: bool = False


@dataclass(frozen=True)
class StandingOrders(Command):
    """When attacked, test Defiant / Elusive without being asked; `prompt`: ask me instead
    (these answer for me when I do not answer in time)."""

    type: ClassVar[str] = "standing_orders"
    defiant: bool = True
    elusive: bool = True
    prompt: bool = False


@dataclass(frozen=True)
class ChooseAmbition(Command):
    """The seat's ambition for the match (rulebook Setup 7), by its key."""

    type: ClassVar[str] = "ambition"
    ambition: str = ""


COMMANDS: dict[str, type[Command]] = table_of(
    Deploy, Move, Retreat, Cast, Summon, EndTurn, Interrupt, StandingOrders, ChooseAmbition,
    Concede,
)  # fmt: skip
# The kernel's verbs the common slash commands send; a kernel Move is told from this
# rulebook's by its `orders` field. The kernel's EndActivation (/end, the "end" button) ends
# the seat's part of its side's turn: each order is a whole activation, so nothing else ends.
KERNEL_VERBS = table_of(KernelMove, Shoot, Melee, EndActivation)
# Every type a record of the group rules may hold (`Ruleset.command_types`).
COMMAND_TYPES: dict[str, type[Command]] = {**KERNEL_VERBS, **COMMANDS}
_TYPES: dict[str, tuple[type, ...]] = {
    "side": (int,), "unit": (str,), "square": (str,), "models": (str, type(None)),
    "target": (str,), "use": (bool,), "defiant": (bool,), "elusive": (bool,), "prompt": (bool,),
    "ambition": (str,), "reason": (str,), "placements": (dict,),
}  # fmt: skip
TITLE = "The group rules"


def parse_command(data: Any) -> Command:
    """A command of the group rules (or a kernel verb they play) from its JSON form; RulesError
    names what is wrong."""
    if _kernel_verb(data):
        return command_from_json(data, KERNEL_VERBS, seats=MAX_SEATS, ruleset=TITLE)
    if not isinstance(data, dict) or data.get("type") not in COMMANDS:
        raise RulesError(
            f"{data!r} is not a command of the group rules; its 'type' is one of "
            f"{', '.join(COMMANDS)}."
        )
    return typed_command(COMMANDS[data["type"]], data, _TYPES, seats=MAX_SEATS)


def _kernel_verb(data: Any) -> bool:
    if not isinstance(data, dict) or data.get("type") not in KERNEL_VERBS:
        return False
    return data["type"] != KernelMove.type or "orders" in data
