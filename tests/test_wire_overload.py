"""Over the wire, under overload (issue 32): a command that waits in the service's queue past
the time the cogs give it is deferred ("thinking..."), then answered with a followup, so
Discord never shows "The application did not respond"."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.queued import FLAG
from test_wire import START_TIMEOUT, TEST_TIMEOUT, Bot, clean, fake, move_someone, practice_match

__all__ = ["fake"]  # the fixture, shared with test_wire


async def test_a_command_that_waits_in_the_queue_is_deferred_then_followed_up(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = Bot(fake, tmp_path / "skirmbot.db", tmp_path / "bot.log", launcher="fakediscord.queued")
    try:
        async with asyncio.timeout(TEST_TIMEOUT):
            await bot.until(
                lambda: fake.command_syncs > 0 and fake.identifies,
                "the bot to sync its commands and identify on the gateway",
                START_TIMEOUT,
            )
            await practice_match(bot)
            (tmp_path / FLAG).touch()  # from now on each unit of work waits in a queue first
            unit, move = await move_someone(bot)
            assert move.callback_type == 5, f"not deferred first: {move.callback}"
            assert unit in move.text and not move.messages[0].ephemeral, move.text
            clean(bot.log())
    finally:
        bot.stop()
