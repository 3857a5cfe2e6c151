"""/timer: the clock of the match in the channel (issue 5: turn timers).

Deadlines fire from the bot's one scheduler (skirmbot/bot.py); this cog lets players see the
clock, ask for more time, pause and resume together, choose DM reminders, and lets moderators
move a deadline.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.service import Reply, timing

from .common import answer, channel_of, player, post_to_channel, send, service_of


@app_commands.guild_only()
class Timers(
    commands.GroupCog,
    group_name="timer",
    group_description="The clock of the match in this channel: deadlines, extensions, pauses",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="show",
        description="Show the clock: whose turn, the deadline, excuses and extensions left",
    )
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, timing.timer(service_of(interaction), channel_of(interaction)))

    @app_commands.command(
        name="extend", description="Ask for more time on your current deadline (limited per match)"
    )
    async def extend(self, interaction: discord.Interaction[Any]) -> None:
        member = await player(interaction)
        await answer(
            interaction, timing.extend(service_of(interaction), channel_of(interaction), member)
        )

    @app_commands.command(
        name="pause", description="Pause the match (both players must ask); the time left is kept"
    )
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        member = await player(interaction)
        await answer(
            interaction, timing.pause(service_of(interaction), channel_of(interaction), member)
        )

    @app_commands.command(
        name="resume", description="Resume a paused match with the time that was left"
    )
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        member = await player(interaction)
        await answer(
            interaction, timing.resume(service_of(interaction), channel_of(interaction), member)
        )

    @app_commands.command(
        name="deadline", description="Moderators: set the current deadline to some hours from now"
    )
    @app_commands.describe(hours="Hours from now, 0.1 to 336")
    async def deadline(
        self, interaction: discord.Interaction[Any], hours: app_commands.Range[float, 0.1, 336.0]
    ) -> None:
        member = await player(interaction)
        await answer(
            interaction,
            timing.set_deadline(service_of(interaction), channel_of(interaction), member, hours),
        )

    @app_commands.command(
        name="reminders", description="Get your reminders by direct message, or in the channel"
    )
    @app_commands.describe(by_dm="True: remind me by direct message; False: in the match's channel")
    async def reminders(self, interaction: discord.Interaction[Any], by_dm: bool) -> None:
        member = await player(interaction)
        store = service_of(interaction).store
        await store.remember_player(member.id, member.name)
        await store.set_dm_reminders(member.id, by_dm)
        where = "by direct message" if by_dm else "in the match's channel"
        await send(interaction, f"Your turn reminders will come {where}.", private=True)

    @commands.Cog.listener()
    async def on_skirm_timer(self, channel_id: int, reply: Reply) -> None:
        """Post what a deadline did in the match's channel; a reminder goes by direct message
        to a player who asked for that."""
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        for part in reply.all():
            if part.dm and part.ping:
                user = self.bot.get_user(part.ping) or await self.bot.fetch_user(part.ping)
                await user.send(f"{part.text}\n(match in <#{channel_id}>)")
            elif isinstance(channel, discord.abc.Messageable):
                await post_to_channel(channel, part)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Timers(bot))
