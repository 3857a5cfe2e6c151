"""/mine: the "your move" inbox (issue 34), in any server and in a direct message with the bot
(the bot is also an app a player can add for themselves: user-installable); and naming a match
from anywhere, the `match:` option of /match preview and /match orders.

A command that names a match acts on it through the very service call the match's channel
uses, with the match's channel (skirmbot.service.inbox finds it, and refuses a match the asker
does not play); what it posts publicly goes to that channel, and the asker is told where.
"""

from __future__ import annotations

import contextlib
from collections.abc import Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.service import MatchRow, Reply, ServiceError
from skirmbot.service import inbox as inboxes
from skirmbot.service.choices import Situation
from skirmbot.service.matches import moment

from .buttons import choice_view, post
from .common import (
    ChannelGone,
    asker,
    channel_of,
    in_time,
    picture_files,
    post_to_channel,
    send,
    service_of,
)
from .text import choices

NAME_A_MATCH = "Outside a server, name the match: the match option offers yours (/mine lists them)."
# The /match commands that name a match, so run anywhere (a direct message with the bot).
ANYWHERE = frozenset({"match preview", "match orders", "match status", "match log"})
# A match's number, as Discord's integer options take it (at most 2**53).
MatchNumber = app_commands.Range[int, 1, 2**53]


class NotHere(ServiceError, app_commands.CheckFailure):
    """A command that needs a server with the bot, asked elsewhere: refused in words."""


class Inbox(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="mine",
        description="Your matches in every server: those waiting on you first, with links",
    )
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def mine(self, interaction: discord.Interaction[Any]) -> None:
        work = inboxes.inbox(service_of(interaction).live, interaction.user.id)
        reply = await in_time(interaction, work, private=True)
        await send(interaction, reply.text, private=True)


def in_a_server_or_named(interaction: discord.Interaction[Any], anywhere: frozenset[str]) -> bool:
    """True in a server with the bot, or for a command that names its match (`anywhere`);
    NotHere, in words, for the others in a direct message or in a server the player added the
    app to for themselves (the bot is not there to post)."""
    command = interaction.command
    if command is not None and command.qualified_name in anywhere:
        return True
    user_only = interaction.is_user_integration() and not interaction.is_guild_integration()
    if interaction.guild_id is not None and not user_only:
        return True
    raise NotHere(
        "That command works in a server with the bot, in the match's channel. From anywhere: "
        "/mine lists your matches, /match status, log, preview and orders take one with "
        "match:, and /timer notify sets your reminders."
    )


# --- naming a match from anywhere (used by /match preview and /match orders) ---------------------
async def named_match(interaction: discord.Interaction[Any], named: int | None) -> MatchRow | None:
    """The match the command names (`match:`), one of the asker's in progress; None: the
    channel's own match (in a server). Outside a server a match must be named."""
    if named is not None:
        return await inboxes.named_match(service_of(interaction).live, interaction.user.id, named)
    if interaction.guild_id is None:
        raise ServiceError(NAME_A_MATCH)
    return None


async def privately(work: Coroutine[Any, Any, Reply]) -> Reply:
    """The reply of `work`, for the asker only: a match named from elsewhere is shown where it
    was asked for, to the one who asked, not to the channel they asked in."""
    reply = await work
    reply.private = True
    return reply


async def channel_named(interaction: discord.Interaction[Any], named: int | None) -> int:
    """The channel of the named match (else the channel asked in): what the service takes."""
    row = await named_match(interaction, named)
    return channel_of(interaction) if row is None else row.channel_id


async def situation_named(interaction: discord.Interaction[Any]) -> Situation | None:
    """For autocomplete: the named match (the `match` option typed so far), else the channel's,
    as the asker sees it, when the asker plays it."""
    typed = getattr(interaction.namespace, "match", None)
    try:
        channel = await channel_named(interaction, int(typed) if typed is not None else None)
        found = await service_of(interaction).situation(channel, asker(interaction))
    except (ServiceError, ValueError):
        return None
    return found if found.side is not None else None


async def match_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The asker's matches in progress, waiting on them first: "#12 Hold the Line v Bob"."""
    live = service_of(interaction).live
    return choices(await inboxes.match_choices(live, interaction.user.id, str(current)))


async def answer_for(
    interaction: discord.Interaction[Any],
    row: MatchRow | None,
    work: Coroutine[Any, Any, Reply],
    *,
    private: bool = False,
) -> None:
    """Run the service call and post its replies: in the channel asked in, or, for a match named
    from elsewhere, the public ones in the match's channel (with their buttons, as if asked
    there), the private ones to the asker, and a word to the asker of where it went."""
    elsewhere = row is not None and row.channel_id != interaction.channel_id
    reply = await in_time(interaction, work, private=elsewhere or private)
    if row is None or not elsewhere:
        await post(interaction, reply.all())
        return
    replies = reply.all()
    target = await _channel(interaction, row.channel_id)
    anchor = await _anchor(interaction, row.channel_id)
    for each in replies:
        if each.private:
            await send(interaction, each.text, private=True, files=picture_files(each))
        elif target is not None:
            view = choice_view(each.choices, *anchor) if anchor and each.choices else None
            with contextlib.suppress(ChannelGone):
                await post_to_channel(target, each, match_id=row.id, view=view)
    if any(not each.private for each in replies):
        where = f"Posted in match #{row.id}'s channel: {inboxes.link(row)}"
        await send(interaction, where, private=True)


async def _channel(
    interaction: discord.Interaction[Any], channel_id: int
) -> discord.abc.Messageable | None:
    """The match's channel or thread, if the bot can still reach it."""
    found: Any = interaction.client.get_channel(channel_id)
    if found is None:
        with contextlib.suppress(discord.HTTPException):
            found = await interaction.client.fetch_channel(channel_id)
    return found if isinstance(found, discord.abc.Messageable) else None


async def _anchor(interaction: discord.Interaction[Any], channel_id: int) -> tuple[int, int] | None:
    """(match id, how far it is) for the buttons under the match's messages, as in its channel."""
    try:
        row, _ = await service_of(interaction).view(channel_id)
    except ServiceError:
        return None
    return row.id, moment(row)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Inbox(bot))
