"""The actions a player sends to the service (`MatchService.act`), and their compact form.

The verbs every ruleset may use are the kernel's commands (`skirmbot.rules.commands`): the cogs
and the console build them from what a player typed or clicked, through this module only, so
that they depend on the service and never on the rules' modules (docs/architecture.md). A
ruleset's own actions (Skirm's Leap, Skirm Lite's Revive) live in its package, which nothing
above the rules imports: they are sent by kind and fields (`own_command("leap", unit=...,
square=...)`), and the service makes them the match's ruleset's command (`ruleset_command`),
or says the ruleset has no such action. The compact form is how a button carries an action in
its custom_id.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from typing import Any, get_args, get_type_hints

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
    command_from_json,
)
from skirmbot.rules.errors import RulesError
from skirmbot.rules.ruleset import Ruleset
from skirmbot.service.errors import ServiceError

# The kinds of action that have a command of their own in every front end (/move, `move` at the
# console); the others, a ruleset's own actions such as Skirm Lite's Revive, are reached
# through /act (`act` at the console), which lists the legal ones.
COMMON_KINDS = {
    *COMMON_COMMANDS,
    *("leap", "skill", "mission", "crate", "turret", "delay", "standing_orders", "infiltrate"),
}


@dataclass(frozen=True)
class OwnCommand(Command):
    """One of a ruleset's own commands as a front end sends it, not knowing the ruleset: its
    `kind` (its type in records) and its fields, by name (`own_command`) or in order (`decode`
    of a button's compact form). `ruleset_command` makes it the ruleset's command."""

    kind: str = ""
    named: dict[str, Any] = field(default_factory=dict)
    values: tuple[Any, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "side": self.side, **self.named}


def own_command(kind: str, **named: Any) -> OwnCommand:
    """A ruleset's own command by its kind and fields: `own_command("leap", unit="Vex",
    square="C5")`. The service sets its side."""
    return OwnCommand(0, kind, named)


def kind_of(command: Command) -> str:
    """The command's type in records, whether the ruleset's own command is made yet or not."""
    return command.kind if isinstance(command, OwnCommand) else command.type


def ruleset_command(command: Command, side: int, rules: Ruleset) -> Command:
    """The command as `rules` plays it, sent by `side`: a kernel command as it is, a ruleset's
    own command made the ruleset's (ServiceError when the ruleset has no such action, in the
    words the rules use for it)."""
    if not isinstance(command, OwnCommand):
        return replace(command, side=side)
    kind = command.kind
    cls = rules.command_types.get(kind)
    if cls is None:
        raise ServiceError(f"There is no '{kind}' action in {rules.title}.")
    unused = sorted(set(command.named) - set(_field_names(cls)))
    if unused:  # an option only another ruleset has (/move bonus: in a Skirm match)
        raise ServiceError(f"A {kind} in {rules.title} takes no {', '.join(unused)}: leave it out.")
    in_order = dict(zip(_field_names(cls), command.values, strict=False))
    try:
        return rules.parse_command({"type": kind, "side": side, **in_order, **command.named})
    except RulesError as error:
        raise ServiceError(str(error)) from error


def fields_of(rules: Ruleset, kind: str) -> list[str]:
    """What the ruleset's own command of `kind` takes, by name (nothing: it has no such
    action)."""
    cls = rules.command_types.get(kind)
    return [] if cls is None else _field_names(cls)


def number_fields(rules: Ruleset, kind: str) -> set[str]:
    """The fields of the ruleset's own command of `kind` that hold whole numbers (an arc's
    width, a throw's level), by their annotations: what a typed word is read as."""
    cls = rules.command_types.get(kind)
    if cls is None:
        return set()
    hints = get_type_hints(cls)
    return {
        name
        for name in _field_names(cls)
        if int in (get_args(hints[name]) or (hints[name],)) and hints[name] is not bool
    }


def _field_names(cls: type[Command]) -> list[str]:
    return [found.name for found in fields(cls) if found.name != "side"]


def encode(command: Command) -> str:
    """An action (a ruleset's command, as `legal_commands` lists them) as a compact JSON list,
    its fields in order and `side` left out (the service sets it): `["move","Vex","C12",1]`."""
    names = _field_names(type(command))
    return json.dumps(
        [command.type, *(getattr(command, name) for name in names)], separators=(",", ":")
    )


def decode(payload: str, rules: Ruleset | None = None) -> Command:
    """The action `encode` wrote: a kernel command, or a ruleset's own one (made `rules`'s
    when given, else an OwnCommand the service makes the match's ruleset's); ValueError for
    anything else."""
    try:
        data = json.loads(payload)
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            raise ValueError(f"not an action: {payload!r}")
        kind, values = data[0], tuple(data[1:])
        if kind in COMMON_COMMANDS:
            names = _field_names(COMMON_COMMANDS[kind])
            return command_from_json(
                {"type": kind, "side": 0, **dict(zip(names, values, strict=False))},
                COMMON_COMMANDS,
            )
        own = OwnCommand(0, kind, values=values)
        return own if rules is None else ruleset_command(own, 0, rules)
    except (TypeError, RulesError, ServiceError) as error:
        raise ValueError(f"not an action: {payload!r} ({error})") from error


__all__ = [
    "COMMON_KINDS",
    "Accept",
    "Activate",
    "AgreeDraw",
    "Command",
    "Concede",
    "Dash",
    "Deploy",
    "Door",
    "Drop",
    "EndActivation",
    "Melee",
    "Modify",
    "Move",
    "OwnCommand",
    "PickUp",
    "Reroll",
    "Shoot",
    "UnitCommand",
    "decode",
    "encode",
    "kind_of",
    "own_command",
    "ruleset_command",
]
