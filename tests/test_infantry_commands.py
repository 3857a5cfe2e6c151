"""The infantry rules' commands and their JSON form (a record is the list of them)."""

from __future__ import annotations

from typing import Any

import pytest

from skirmbot.rules.commands import Activate, Command, Concede, Deploy, EndActivation, Melee, Shoot
from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry.commands import (
    COMMAND_TYPES,
    Arc,
    ChangeWeapon,
    Climb,
    DropItem,
    FireAt,
    Move,
    Prone,
    Stand,
    StandingOrders,
    Take,
    Throw,
    parse_command,
)

EVERY_COMMAND: list[Command] = [
    Move(0, "Rossi", "D4"),
    Move(1, "Kade", path="C4 D4 D5"),
    Climb(0, "Rossi", 1),
    Prone(0, "Rossi"),
    Stand(1, "Kade"),
    ChangeWeapon(0, "Rossi", "Hand Grenade"),
    Take(0, "Rossi", "Kade", "Laser SMG"),
    Take(1, "Kade", "D4", "Rifle"),
    DropItem(0, "Rossi", "Rifle"),
    Arc(0, "Rossi", 60, "F7", "first", 2),
    Throw(0, "Rossi", "F7"),
    Throw(0, "Rossi", "F7", 1),
    FireAt(1, "Kade", False),
    StandingOrders(0, True),
    Deploy(0, {"Rossi": "C1"}),
    Activate(1, "Kade"),
    EndActivation(0, "Rossi"),
    Melee(0, "Rossi", "Kade", "Knife"),
    Concede(1),
    KernelMove(0, "Rossi", "D4", 0),
    Shoot(0, "Rossi", "Kade"),
]


@pytest.mark.parametrize("command", EVERY_COMMAND, ids=lambda c: c.type)
def test_every_command_round_trips_through_json(command: Command) -> None:
    """A record keeps commands as JSON: each reads back as itself."""
    assert parse_command(command.to_json()) == command


def test_every_type_in_a_record_is_in_the_table() -> None:
    """`COMMAND_TYPES` names every command a record may hold."""
    assert {c.type for c in EVERY_COMMAND} <= set(COMMAND_TYPES)


def test_a_kernel_move_is_told_from_this_move_by_its_orders() -> None:
    """/move sends the kernel's Move (with `orders`); the engine reads it as this Move."""
    assert (
        type(parse_command({"type": "move", "side": 0, "unit": "A", "square": "C4", "orders": 0}))
        is KernelMove
    )
    assert type(parse_command({"type": "move", "side": 0, "unit": "A", "square": "C4"})) is Move


@pytest.mark.parametrize(
    "data",
    [
        {"type": "arc", "side": 0, "unit": "A", "width": "60", "toward": "C4"},
        {"type": "arc", "side": 2, "unit": "A", "width": 60, "toward": "C4"},
        {"type": "fire", "side": 0, "owner": "A", "fire": 1},
        {"type": "climb", "side": 0, "unit": "A", "level": None},
        {"type": "throw", "side": 0, "unit": "A", "target": "C4", "level": "1"},
        {"type": "move", "side": 0, "unit": "A", "square": "C4", "speed": 3},
        {"type": "retreat", "side": 0, "unit": "A"},
        "move",
    ],
)
def test_a_malformed_command_is_refused_in_words(data: Any) -> None:
    """A field of the wrong type, an unknown field or type, or a seat past 1 is refused."""
    with pytest.raises(RulesError):
        parse_command(data)
