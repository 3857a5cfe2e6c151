"""Daily digests (issue 34): each player who chose one with /timer notify gets, at their local
hour, one direct message listing the matches waiting on them (skirmbot.service.digests).

No commands: a task that looks every so often (as often as the bot looks for other processes'
deadlines) and sends the digests due. Digests are claimed in the store before they are sent,
so with several processes each goes out once; a player whose direct messages are closed misses
that day's digest (logged), their reminders still come.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, cast

import discord
from discord.ext import commands

from skirmbot.service import digests

from .common import mentions, with_mention

if TYPE_CHECKING:
    from skirmbot.bot import SkirmBot

log = logging.getLogger("skirmbot.digests")


class Digests(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        if cast("SkirmBot", self.bot).run_timers:  # tests that drive time themselves: off
            self._task = asyncio.create_task(self._run(), name="skirmbot daily digests")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        bot = cast("SkirmBot", self.bot)
        while True:
            await asyncio.sleep(bot.deadline_poll_seconds)
            try:
                due = await digests.due(bot.service)
            except Exception:  # one bad look must not stop the next ones
                log.exception("Looking for the daily digests due failed")
                continue
            for digest in due:
                await self._send(digest)

    async def _send(self, digest: digests.Digest) -> None:
        bot = cast("SkirmBot", self.bot)
        try:
            user = bot.get_user(digest.user_id) or await bot.fetch_user(digest.user_id)
            await user.send(with_mention(digest.text, None), allowed_mentions=mentions(None))
        except discord.HTTPException as error:
            log.warning("Could not send player %s their daily digest: %s", digest.user_id, error)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Digests(bot))
