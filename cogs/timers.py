"""/timer: the clock of the match in the channel (issue 5: turn timers).

Deadlines fire from the bot's one scheduler (skirmbot/bot.py), which posts what they did
through skirmbot.cogs.delivery; this cog lets players see the clock, ask for more time, pause
and resume together, choose DM reminders, go on vacation, get their deadlines as a calendar,
and lets moderators move a deadline and set the server's vacation days and weekends.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.service import Reply, notify, timing
from skirmbot.service.calendar import Calendars

from .buttons import answer
from .common import channel_of, in_time, player, send, send_file, service_of
from .delivery import deliver
from .inbox import in_a_server_or_named

if TYPE_CHECKING:
    from skirmbot.bot import SkirmBot

log = logging.getLogger("skirmbot.timers")
# The /timer commands about the player's own reminders, not a match: they run anywhere.
YOUR_OWN = frozenset({"timer notify", "timer reminders"})


# A player's own reminder settings hold for all their matches: set from anywhere (issue 34),
# a direct message with the bot included; Discord sets where a group runs for the whole group,
# so the others are refused outside a server with the bot (`interaction_check`).
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class Timers(
    commands.GroupCog,
    group_name="timer",
    group_description="The clock of the match in this channel: deadlines, extensions, pauses",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        # Per match: one deadline's posts at a time, in the order the deadlines fired (kept,
        # like the service's own lock per match).
        self._posting: dict[int, asyncio.Lock] = {}
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return in_a_server_or_named(interaction, YOUR_OWN)

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
        # (and forgets that their direct messages were closed)
        await service_of(interaction).set_dm_reminders(member, by_dm)
        where = (
            "by direct message (if Discord refuses one, in the match's channel again)"
            if by_dm
            else "in the match's channel"
        )
        await send(interaction, f"Your turn reminders will come {where}.", private=True)

    @app_commands.command(
        name="notify",
        description="Your reminders: where, how long before, quiet hours in your time, a daily digest",
    )
    @app_commands.describe(
        by_dm="True: by direct message; False: in the match's channel (as /timer reminders)",
        hours_before="Hours before a deadline, 0.25 to 72 (0: when the match's clock says)",
        time_zone="Your time zone, an IANA name such as Europe/Berlin or America/New_York",
        quiet_from="Quiet hours start at this hour of your day, 0 to 23 (no reminders then)",
        quiet_until="Quiet hours end at this hour, 0 to 23 (the same as quiet_from: none)",
        digest_hour="A daily digest by DM at this hour of your day, 0 to 23 (-1: none)",
    )
    async def notify(
        self,
        interaction: discord.Interaction[Any],
        by_dm: bool | None = None,
        hours_before: app_commands.Range[float, 0.0, 72.0] | None = None,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_until: app_commands.Range[int, 0, 23] | None = None,
        digest_hour: app_commands.Range[int, -1, 23] | None = None,
    ) -> None:
        """Issue 34: each player's own reminders (skirmbot.service.notify); with no option,
        what they have now. Always private."""
        member = await player(interaction)
        service = service_of(interaction)
        chosen = notify.set_notify(
            service.store,
            member,
            by_dm=by_dm,
            before_hours=hours_before,
            time_zone=time_zone,
            quiet_from=quiet_from,
            quiet_until=quiet_until,
            digest_hour=digest_hour,
            now=service.now(),
        )
        await answer(interaction, chosen, private=True)

    @app_commands.command(
        name="vacation",
        description="Go on vacation: your clocks in this server stand still for whole days",
    )
    @app_commands.describe(
        days="Whole days from now (0 ends your vacation early and gives back the days not used)"
    )
    async def vacation(
        self, interaction: discord.Interaction[Any], days: app_commands.Range[int, 0, 60]
    ) -> None:
        member = await player(interaction)
        guild = interaction.guild_id or 0
        await answer(
            interaction, timing.vacation(service_of(interaction), guild, member, days), private=True
        )

    @app_commands.command(
        name="calendar",
        description="Your deadlines as a calendar file, and your private calendar feed address",
    )
    @app_commands.describe(
        new_address="True: a new private feed address (the old one stops working)"
    )
    async def calendar(
        self, interaction: discord.Interaction[Any], new_address: bool = False
    ) -> None:
        service = service_of(interaction)
        calendars = Calendars(service.store, service.links, service.now)
        told = calendars.told(interaction.user.id, renew=new_address)
        await send_file(interaction, await in_time(interaction, told, private=True))

    @app_commands.command(
        name="server",
        description="Moderators: vacation days, weekends, how long a reaction in another's turn waits",
    )
    @app_commands.describe(
        vacation_days="Each player's vacation days a year in this server (default 20)",
        weekends="True: clocks stand still from Saturday 00:00 to Monday 00:00 UTC",
        reaction_minutes="Minutes a decision in another player's turn waits (default 10)",
    )
    async def server(
        self,
        interaction: discord.Interaction[Any],
        vacation_days: app_commands.Range[int, 0, 60] | None = None,
        weekends: bool | None = None,
        reaction_minutes: app_commands.Range[int, 1, 30] | None = None,
    ) -> None:
        member = await player(interaction)
        guild = interaction.guild_id or 0
        rules = timing.set_clock_rules(
            service_of(interaction), guild, member, vacation_days, weekends, reaction_minutes
        )
        await answer(interaction, rules, private=True)

    @commands.Cog.listener()
    async def on_skirm_timer(self, match_id: int, channel_id: int, reply: Reply) -> None:
        """Post what a deadline did, in the match's channel (a reminder by DM to a player who
        chose that), through skirmbot.cogs.delivery: a refused message does not stop the next,
        and the deadlines of one match are posted one after the other, in the order they
        fired. A match whose channel or thread was deleted is abandoned: aborted, its
        deadlines cancelled, a note in the log."""
        bot = cast("SkirmBot", self.bot)
        async with self._posting.setdefault(match_id, asyncio.Lock()):
            delivered = await deliver(bot, match_id, channel_id, reply.all())
        if delivered.channel_gone:
            reason = f"its channel or thread {channel_id} was deleted"
            if await timing.abandon(bot.service, match_id, reason):
                log.warning(
                    "Match #%s abandoned: %s; its deadlines are cancelled", match_id, reason
                )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Timers(bot))
