"""Which method of a match plays each kind of command: a table of method names, kept on the
match's class.

A table of bound methods kept on each match (`{Move: self._move, ...}`) would make every match
a reference cycle (the match holds its table, each bound method holds the match): a match
dropped from the service's memory would then stay in memory, with everything it holds, until
the garbage collector's next full collection, which the bot runs rarely (skirmbot.collector).
Names looked up on the match keep overriding working as bound methods did: a variant's method
of the same name plays the command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from skirmbot.rules.commands import Command
from skirmbot.rules.events import Event

# The method that plays each kind of command, by its name.
Handlers = Mapping[type[Command], str]


def handler_of(
    match: object, handlers: Handlers, command: Command
) -> Callable[[Any], list[Event]] | None:
    """The match's method that plays `command`; None when its rules have no such action."""
    name = handlers.get(type(command))
    return None if name is None else getattr(match, name)


__all__ = ["Handlers", "handler_of"]
