"""The bot's league check (issue 13): every few minutes it asks the league service which rounds
are due (complete, or past their deadline with unfinished games), and the leagues cog posts each
notice in its league's channel. A check that fails is logged and the next one still runs."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from skirmbot.bot import make_bot
from skirmbot.service import Reply, person
from skirmbot.service.leagues import LeagueNotice


class Channel(discord.abc.Messageable):
    """A channel that keeps what is posted in it."""

    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.posted: list[dict[str, Any]] = []

    async def _get_channel(self) -> Any:
        return self

    async def send(self, content: str | None = None, **options: Any) -> Any:  # type: ignore[override]
        self.posted.append({"content": content, **options})


async def test_the_bot_checks_the_leagues_and_posts_what_it_finds(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    bot = make_bot(":memory:", sync_commands=False, run_timers=False)
    await bot.setup_hook()
    try:
        reminder = Reply(f"{person(7)}: round 1's deadline has passed.", ping=7)
        notice = LeagueNotice(1, 42, "Spring League", 1, reminder)
        checks: list[float | None] = []

        async def due_rounds(now: float | None = None) -> list[LeagueNotice]:
            checks.append(now)
            if len(checks) == 1:
                raise RuntimeError("the store was busy")
            return [notice] if len(checks) == 2 else []

        heard: list[tuple[str, tuple[Any, ...]]] = []
        monkeypatch.setattr(bot.leagues, "due_rounds", due_rounds)
        monkeypatch.setattr(bot, "dispatch", lambda event, *args: heard.append((event, args)))
        bot.league_check_seconds = 0.01
        checking = asyncio.create_task(bot._check_leagues())
        try:
            async with asyncio.timeout(5):
                while len(checks) < 3:
                    await asyncio.sleep(0.01)
        finally:
            checking.cancel()
        assert heard == [("skirm_league", (notice,))]
        assert "Checking the leagues' rounds failed" in caplog.text

        channel = Channel(42)
        monkeypatch.setattr(bot, "get_channel", lambda channel_id: channel)
        cog: Any = bot.get_cog("Leagues")
        await cog.on_skirm_league(notice)
        [posted] = channel.posted
        assert posted["content"] == "<@7>: round 1's deadline has passed."
        assert [user.id for user in posted["allowed_mentions"].users] == [7]
    finally:
        await bot.store.close()
