"""Discord's limits and formatting, in one place: the only module in the cogs that knows them.

- The service and the timers write no Discord markup: a person and a moment in a reply are
  neutral placeholders (`skirmbot.service.person`, `skirmbot.service.when`). `markup` writes
  them the Discord way when a reply is sent (cogs/common.py does it for every message): a
  mention, `<@id>`, and a timestamp each reader sees in their own time zone, relative ("in 3
  hours"), `discord.utils.format_dt(moment, "R")`; a channel (`skirmbot.service.replies.channel`)
  as a link to it, `<#id>`.
- A message holds 2,000 characters (`fit`); an option's choices and an autocomplete answer
  hold 25 (`listed`, `choices`), each name and string value 100 characters (`short`,
  `choice`), as do a command's or option's description and a thread's name; a message holds
  25 buttons, and a button's custom_id 100 characters; an attachment's description (a
  picture's alt text, `alt`) 1,024.

Not an extension: the cogs import it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from itertools import islice
from typing import TypeVar

import discord
from discord import app_commands

from skirmbot.service.replies import written

MESSAGE_LIMIT = 2000  # Discord refuses a longer message (400, code 50035)
CHOICES_LIMIT = 25  # choices of an option, answers of an autocomplete
NAME_LIMIT = 100  # a choice's name and string value, a description, a thread's name
COMPONENTS_LIMIT = 25  # buttons on one message (5 rows of 5)
CUSTOM_ID_LIMIT = 100  # a button's custom_id
DESCRIPTION_LIMIT = 1024  # an attachment's description (its alt text)

T = TypeVar("T")
Value = TypeVar("Value", str, int, float)


# --- formatting ------------------------------------------------------------------------------
def mention(user_id: int) -> str:
    """A member as Discord shows them (and pings them, when the message allows it)."""
    return f"<@{user_id}>"


def channel_mention(channel_id: int) -> str:
    """A channel or thread, as a link to it."""
    return f"<#{channel_id}>"


def timestamp(moment: float) -> str:
    """A moment each reader sees in their own time zone, relative to now ("in 3 hours")."""
    return discord.utils.format_dt(datetime.fromtimestamp(int(moment), tz=UTC), "R")


def markup(text: str) -> str:
    """A service text as Discord shows it: its placeholders written as mentions and timestamps."""
    return written(text, mention, timestamp, channel_mention)


# --- limits ------------------------------------------------------------------------------------
def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """The text cut to fit one Discord message, its end replaced by "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def message(text: str) -> str:
    """A service text as one Discord message: written out (`markup`), then cut to fit."""
    return fit(markup(text))


def short(text: str, limit: int = NAME_LIMIT) -> str:
    """A choice's name, a description, a thread's name: cut to Discord's 100 characters."""
    return fit(text, limit)


def alt(text: str) -> str:
    """A picture's alt text cut to Discord's 1,024 characters for an attachment's description."""
    return fit(text, DESCRIPTION_LIMIT)


def listed(items: Sequence[T]) -> list[T]:
    """The first 25 of them: as many choices as Discord lists."""
    return list(items[:CHOICES_LIMIT])


def choice(name: str, value: Value) -> app_commands.Choice[Value]:
    """A choice whose name (and string value) fit in Discord's 100 characters."""
    kept: Value = value[:NAME_LIMIT] if isinstance(value, str) else value
    return app_commands.Choice(name=short(name), value=kept)


def choices(options: Iterable[tuple[str, Value]]) -> list[app_commands.Choice[Value]]:
    """(name, value) pairs as Discord choices: the first 25, each name and string value fit in
    100 characters."""
    return [choice(name, value) for name, value in islice(options, CHOICES_LIMIT)]
