"""The one error handler: every refusal becomes an ephemeral message for the player who asked;
anything unexpected is logged with its context and answered with a short apology.

Installed on the CommandTree (slash commands) and called by the buttons too, so no command
catches errors of its own and nothing ever fails silently.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.service import NeedsConfirmation, ServiceError
from skirmbot.words import shown

from .buttons import spend_view
from .common import send

log = logging.getLogger("skirmbot.discord")

APOLOGY = (
    "Sorry, something went wrong on my side. It has been logged; please try again in a moment."
)
OUT_OF_DATE = "This command has changed since Discord last listed it; try again in a minute."
PERMISSION_NAMES = {"manage_guild": "Manage Server"}
LOGGED_OPTIONS = 500  # characters of a command's options written to the log


async def on_app_command_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if _answered_by_cog(interaction):
        return
    try:
        if isinstance(cause, NeedsConfirmation):
            await send(
                interaction, str(cause), private=True, view=await spend_view(interaction, cause)
            )
        elif isinstance(cause, ServiceError):
            await send(interaction, str(cause), private=True)
        elif (text := refusal(cause)) is not None:
            await send(interaction, text, private=True)
        else:
            log.error("Unexpected error in %s", context(interaction), exc_info=cause)
            await send(interaction, APOLOGY, private=True)
    except discord.HTTPException:
        # The interaction expired or Discord is down: the log is all we can do.
        log.exception("Could not answer %s after %r", context(interaction), cause)


def _answered_by_cog(interaction: discord.Interaction[Any]) -> bool:
    """A cog with its own `cog_app_command_error` (the dice cog) has answered already;
    discord.py still calls the tree's handler after it, which must not answer twice."""
    command = interaction.command
    binding = getattr(command, "binding", None)
    return isinstance(binding, commands.Cog) and binding.has_app_command_error_handler()


def refusal(error: BaseException) -> str | None:
    """Discord-side refusals (permissions, checks, bad option values) in plain words."""
    if isinstance(error, app_commands.MissingPermissions):
        needed = ", ".join(
            PERMISSION_NAMES.get(p, p.replace("_", " ").title()) for p in error.missing_permissions
        )
        return f"You need the {needed} permission for that."
    if isinstance(error, app_commands.BotMissingPermissions | discord.Forbidden):
        log.warning("Missing a Discord permission: %s", error)
        return "I am missing a Discord permission in this channel for that; ask a server admin to check my role."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Skirm matches are played in server channels, not in direct messages."
    if isinstance(error, app_commands.TransformerError):
        return f"'{shown(str(error.value))}' is not a valid {error.type.name.lower()} here."
    if isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        log.warning("Out-of-date command: %s", error)
        return OUT_OF_DATE
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use this command here."
    return None


def context(interaction: discord.Interaction[Any]) -> str:
    """Who did what where, for the log."""
    data: dict[str, Any] = dict(interaction.data or {})
    command = interaction.command.qualified_name if interaction.command else data.get("name")
    what = f"/{command}" if command else f"button {data.get('custom_id')!r}"
    options = json.dumps(data.get("options", []), default=str)
    if len(options) > LOGGED_OPTIONS:  # a 4,000-character option does not fill the log
        options = options[: LOGGED_OPTIONS - 1] + "…"
    return (
        f"{what} by {interaction.user} ({interaction.user.id}) in guild {interaction.guild_id}, "
        f"channel {interaction.channel_id}, options {options}"
    )


class Errors(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._previous = bot.tree.on_error

    async def cog_load(self) -> None:
        self.bot.tree.on_error = on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._previous  # type: ignore[method-assign]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Errors(bot))
