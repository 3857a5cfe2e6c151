"""Clocks for people with lives (issue 21) through the real bot process, against the loopback
fake of Discord: a Fischer match between Alice and Bob, a vacation that tells the opponent until
when, the calendar file and the private feed served by the bot's own web pages, the server's
settings for moderators only, bad options refused privately; then, on a warped clock, a
vacation that holds a practice match's deadline back by exactly its days.
"""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import aiohttp
import pytest
from fakediscord import FakeDiscord, Interaction, User
from fakediscord.server import MANAGE_GUILD, MEMBER_PERMISSIONS, snowflake
from icalendar import Calendar
from test_wire import (
    START_TIMEOUT,
    TEST_TIMEOUT,
    Bot,
    channel_posts,
    choices,
    clean,
    fake,
    public,
    say,
    settled,
)

__all__ = ["fake"]  # the fixture, shared with test_wire

DEADLINE = re.compile(r"time runs out <t:(\d+):R>")
WARP = 36_000.0  # ten hours a second: a day in 2.4 seconds


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def clock_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Callable[..., object]]:
    """Start `skirmbot run` with settings of our own (the web pages, a warped clock)."""
    started: list[Bot] = []

    async def start(warp: float | None = None, **settings: str) -> Bot:
        syncs = fake.command_syncs
        bot = Bot(fake, tmp_path / "skirmbot.db", tmp_path / "bot.log", warp=warp,
                  settings=settings)  # fmt: skip
        started.append(bot)
        await bot.until(lambda: fake.command_syncs > syncs and fake.identifies,
                        "the bot to sync its commands and identify", START_TIMEOUT)  # fmt: skip
        return bot

    yield start
    for bot in started:
        bot.stop()


def private(interaction: Interaction) -> bool:
    return bool(interaction.messages) and all(m.ephemeral for m in interaction.messages)


async def deadline_shown(bot: Bot) -> int:
    shown = await say(bot, "timer show")
    found = DEADLINE.search(shown.text)
    assert found, shown.text
    return int(found.group(1))


async def test_fischer_vacation_calendar_and_settings_over_the_wire(
    fake: FakeDiscord, clock_bot
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        port = free_port()
        web = f"127.0.0.1:{port}"
        bot = await clock_bot(SKIRMBOT_WEB=web, SKIRMBOT_WEB_URL=f"http://{web}")
        names = {o["name"] for c in fake.commands if c["name"] == "match" for s in c["options"]
                 if s["name"] == "new" for o in s["options"]}  # fmt: skip
        assert {"clock", "bank", "increment", "cap", "days"} <= names and len(names) <= 25

        bad = await say(bot, "match new", opponent=fake.bob, clock="fischer", bank=48, cap=24)
        assert private(bad) and "cap is at least the starting bank" in bad.text, bad.text
        assert "no match" in (await say(bot, "timer show")).text.lower()

        new = await say(bot, "match new", opponent=fake.bob, clock="fischer", bank=48, increment=6)
        assert public(new) and "Fischer clock: a bank of 2 days each" in new.text, new.text
        await say(bot, "match join", user=fake.bob)
        squads = await choices(bot, "match squad", "name")
        await say(bot, "match squad", name=squads[0])
        await say(bot, "match squad", user=fake.bob, name=squads[-1])
        await say(bot, "deploy", auto=True)
        deployed = await say(bot, "deploy", user=fake.bob, auto=True)
        await settled(bot, deployed, lambda: deployed.pngs, "both squads deployed")
        shown = await say(bot, "timer show")
        assert "a bank of 2 days, 2 excused misses" in shown.text, shown.text

        too_long = await say(bot, "timer vacation", days=21)
        assert private(too_long) and "1 to 20 whole days" in too_long.text, too_long.text
        away = await say(bot, "timer vacation", user=fake.bob, days=2)
        await settled(bot, away, lambda: len(away.messages) >= 2, "the note for Alice")
        mine, note = away.messages[0], away.messages[1]
        assert mine.ephemeral and "You are on vacation for 2 days, back <t:" in mine.text, mine.text
        assert not note.ephemeral and fake.alice.id in note.pings
        assert "Bob is on vacation for 2 days, back <t:" in note.text, note.text

        waiting = re.search(r"Waiting for (\w+)", (await say(bot, "timer show")).text)
        assert waiting, "the clock waits for nobody"
        calendar = await say(bot, "timer calendar", user=getattr(fake, waiting.group(1).lower()))
        [message] = calendar.messages
        assert message.ephemeral and message.attachments, calendar.text
        data = message.attachments[0].data
        events = Calendar.from_ical(data).walk("VEVENT")
        assert len(events) == 1 and events[0].walk("VALARM"), data
        feed = re.search(r"http://\S+\.ics", calendar.text)
        assert feed, calendar.text
        async with aiohttp.ClientSession() as http, http.get(feed.group(0)) as served:
            assert served.status == 200 and served.content_type == "text/calendar"
            assert b"BEGIN:VEVENT" in await served.read()

        refused = await say(bot, "timer server", weekends=True)
        assert private(refused) and "Only moderators" in refused.text, refused.text
        mo = User(snowflake(), "mo", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
        settings = await say(bot, "timer server", user=mo, vacation_days=30)
        assert private(settings) and "30 vacation days a year" in settings.text, settings.text
        quick = await say(bot, "timer server", user=mo, reaction_minutes=5)
        assert "another player's turn waits 5 minutes" in quick.text, quick.text
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


async def test_a_vacation_holds_the_deadline_back_by_its_days_on_a_warped_clock(
    fake: FakeDiscord, clock_bot
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await clock_bot(warp=WARP)
        new = await say(bot, "match new", practice=True, clock="days", days=4, hours=168)
        assert "4 days per player for the whole match" in new.text, new.text
        squads = await choices(bot, "match squad", "name")
        await say(bot, "match squad", name=squads[0])
        deploy = await say(bot, "deploy", auto=True)
        await settled(bot, deploy, lambda: deploy.pngs, "the deployment")
        before = await deadline_shown(bot)
        away = await say(bot, "timer vacation", days=1)
        assert away.messages[0].ephemeral, away.text
        after = await deadline_shown(bot)
        assert after - before == 24 * 3600, (before, after)
        posts = lambda: channel_posts(fake, fake.channel_id)  # noqa: E731
        await bot.until(
            lambda: any("missed the deadline" in m.text for m in posts()), "Alice's miss", 30
        )
        clean(bot.log())
