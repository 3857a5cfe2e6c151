"""Commands: what a player (or the turn timer, or the automatic player) asks the engine to do.

Commands are plain data that round-trip through JSON, so a match record is just the ordered list
of the commands the engine accepted. `side` is the seat (0 to 3) whose player sends it.
`orders` is how many Tactical Orders to spend on the action's cost (the rest comes from ACT).

This module holds the verbs every ruleset may use, the ones the service and the cogs send
without knowing the ruleset: deploy, activate, move, dash (the short move `Ruleset.routes`
already names beside move), shoot, melee, end an activation, concede, agree a draw; the
decisions on a roll waiting for one (accept, re-roll, change a die), which the buttons under a
reply send; and doors and markers, since the kernel's maps have them (rules/maps.py) and any
ruleset played on those maps may open the one and carry the other. Each ruleset parses only its
own table of commands (`command_from_json(data, table)`; `Ruleset.command_types`). A ruleset's
own actions live in its package: Skirm's Leap, skills, crates, turrets, mission actions,
Infiltrate and Delay in skirm/commands.py, with its standing orders, whose fields are Skirm's
reactions with Tactical Orders (another ruleset's standing orders have other fields); Skirm
Lite's Revive and Sentry in lite/commands.py. The service sends those by kind and fields
(skirmbot.service.actions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from skirmbot.rules.errors import RulesError
from skirmbot.words import shown


@dataclass(frozen=True)
class Command:
    type: ClassVar[str] = ""
    side: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}


@dataclass(frozen=True)
class UnitCommand(Command):
    """A command that one unit carries out (its activation starts with it if need be)."""

    unit: str = ""


@dataclass(frozen=True)
class Deploy(Command):
    """Place every unit of the squad in its deployment zone: {unit id: square}."""

    type: ClassVar[str] = "deploy"
    placements: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Activate(UnitCommand):
    type: ClassVar[str] = "activate"


@dataclass(frozen=True)
class Move(UnitCommand):
    type: ClassVar[str] = "move"
    square: str = ""
    orders: int = 0


@dataclass(frozen=True)
class Dash(UnitCommand):
    type: ClassVar[str] = "dash"
    square: str = ""
    orders: int = 0


@dataclass(frozen=True)
class Shoot(UnitCommand):
    """Ranged Attack. `target` is a unit id, a square, or `barrel@E5` / `turret@E5`."""

    type: ClassVar[str] = "shoot"
    target: str = ""
    weapon: str | None = None
    orders: int = 0
    # Further targets, comma-separated: for Chain Reaction (CRx) or Spread (SPR) weapons.
    also: str | None = None


@dataclass(frozen=True)
class Melee(UnitCommand):
    type: ClassVar[str] = "melee"
    target: str = ""
    weapon: str | None = None
    orders: int = 0
    # Further targets, comma-separated: for Chain Reaction (CRx) or Spread (SPR) weapons.
    also: str | None = None


@dataclass(frozen=True)
class Door(UnitCommand):
    """Open or close the door on an edge of the unit's square; `toward` is the square across it."""

    type: ClassVar[str] = "door"
    toward: str | None = None
    orders: int = 0


@dataclass(frozen=True)
class PickUp(UnitCommand):
    type: ClassVar[str] = "pickup"
    orders: int = 0


@dataclass(frozen=True)
class Drop(UnitCommand):
    type: ClassVar[str] = "drop"
    orders: int = 0


@dataclass(frozen=True)
class EndActivation(Command):
    type: ClassVar[str] = "end"
    unit: str | None = None
    reason: str = "ended by its player"


@dataclass(frozen=True)
class Reroll(Command):
    """Spend 1 TO to re-roll die number `die` (1-based) of the roll waiting for a decision."""

    type: ClassVar[str] = "reroll"
    die: int = 1


@dataclass(frozen=True)
class Modify(Command):
    """Spend 1 TO to change die number `die` by `delta` (+1 or -1)."""

    type: ClassVar[str] = "modify"
    die: int = 1
    delta: int = -1


@dataclass(frozen=True)
class Accept(Command):
    """Accept the roll waiting for a decision; the attack goes on."""

    type: ClassVar[str] = "accept"


@dataclass(frozen=True)
class Concede(Command):
    type: ClassVar[str] = "concede"
    reason: str = "conceded"


@dataclass(frozen=True)
class AgreeDraw(Command):
    """Both players agreed to a draw (the service collects the agreement; `side` proposed it)."""

    type: ClassVar[str] = "draw"


CommandTable = Mapping[str, type[Command]]  # a ruleset's commands by their type in records


def table_of(*kinds: type[Command]) -> dict[str, type[Command]]:
    """The commands `kinds` by their type in records."""
    return {cls.type: cls for cls in kinds}


COMMON_COMMANDS = table_of(
    Deploy, Activate, Move, Dash, Shoot, Melee, Door, PickUp, Drop, EndActivation, Reroll, Modify,
    Accept, Concede, AgreeDraw,
)  # fmt: skip


def command_from_json(
    data: Any, table: CommandTable, *, seats: int = 2, ruleset: str = "This ruleset"
) -> Command:
    """Build a command of `table` (a ruleset's commands) from its JSON form, for a match of
    up to `seats` players; a RulesError names what is wrong and, for a command the ruleset
    does not have, the ones it has."""
    known = ", ".join(table)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RulesError(f"{data!r} is not a command; a command has a 'type' of {known}.")
    if data["type"] not in table:
        raise RulesError(
            f"{ruleset} has no {shown(data['type'])!r} command, so {data!r} is not a command "
            f"here; a command has a 'type' of {known}."
        )
    cls = table[data["type"]]
    names = {f.name for f in fields(cls)}
    unknown = set(data) - names - {"type"}
    if unknown:
        raise RulesError(f"A {cls.type} command has no field {', '.join(sorted(unknown))}.")
    if data.get("side") not in range(seats):
        raise RulesError(f"A {cls.type} command needs a 'side' of {_sides(seats)}.")
    try:
        return cls(**{key: value for key, value in data.items() if key != "type"})
    except TypeError as error:
        raise RulesError(f"A {cls.type} command is malformed: {error}.") from error


FieldTypes = Mapping[str, tuple[type, ...]]


def typed_command(
    cls: type[Command],
    data: dict[str, Any],
    field_types: FieldTypes,
    *,
    seats: int,
    exceptions: Mapping[str, tuple[type, ...]] | None = None,
) -> Command:
    """A ruleset's own command `cls` from its JSON form, each field checked against its types
    (`field_types`, by field name; `exceptions`: this command's own types for some fields), for
    a match of up to `seats` players; RulesError names what is wrong. The d20 rules and the
    group rules read their records through it: a field of the wrong type is refused here, not
    met later by the engine."""
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known - {"type"}
    if unknown:
        raise RulesError(f"A {cls.type} command has no field {', '.join(sorted(unknown))}.")
    side = data.get("side")
    if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < seats:
        raise RulesError(f"A {cls.type} command needs a 'side' from 0 to {seats - 1}.")
    for key, value in data.items():
        kinds = (exceptions or {}).get(key, field_types.get(key))
        wrong_bool = isinstance(value, bool) and bool not in (kinds or ())
        if kinds is not None and (not isinstance(value, kinds) or wrong_bool):
            raise RulesError(f"A {cls.type} command's '{key}' cannot be {value!r}.")
    return cls(**{key: value for key, value in data.items() if key != "type"})


def _sides(seats: int) -> str:
    return "0 or 1" if seats == 2 else f"0 to {seats - 1}"
