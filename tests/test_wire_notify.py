"""Notifications on a player's terms (issue 34) through the real bot process, against the
loopback fake of Discord, on the warped clock of the timer tests (an hour a second): a zone
that is none is refused in plain words and privately; Alice's quiet hours, in Berlin, cover
the moment her practice match's deployment reminder falls due, and the reminder is not sent
until they end, then is, before the deadline, pinging her (not silently, as a post that pings
nobody is sent); her daily digest comes by direct message at her hour, Tokyo time."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import time
import zoneinfo
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from fakediscord import FakeDiscord
from fakediscord.server import Message
from test_wire import START_TIMEOUT, TEST_TIMEOUT, Bot, channel_posts, choices, clean, fake, say

__all__ = ["fake"]  # the fixture, shared with test_wire

WARP = 3600.0  # an hour a second
HOURS = 10  # the deployment's time: its reminder at 80%, two hours before the end
DEADLINE = re.compile(r"time runs out <t:(\d+):R>")
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")


@pytest.fixture
async def warped_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Callable[..., object]]:
    """`skirmbot run` on a warped clock whose origin the test knows, to tell when (in the
    bot's time) the fake took each message."""
    started: list[Bot] = []

    async def start(origin: float) -> Bot:
        syncs = fake.command_syncs
        settings = {"SKIRMBOT_WARP_START": repr(origin)}
        bot = Bot(fake, tmp_path / "skirmbot.db", tmp_path / "bot.log", warp=WARP,
                  settings=settings)  # fmt: skip
        started.append(bot)
        await bot.until(lambda: fake.command_syncs > syncs and fake.identifies,
                        "the bot to sync its commands and identify", START_TIMEOUT)  # fmt: skip
        return bot

    yield start
    for bot in started:
        bot.stop()


async def test_quiet_hours_hold_a_reminder_until_they_end_then_it_is_sent(
    fake: FakeDiscord, warped_bot
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        origin = time.time()

        def bots_time(real: float) -> float:  # as fakediscord.warp counts it
            return origin + (real - origin) * WARP

        bot = await warped_bot(origin)
        wrong = await say(bot, "timer notify", time_zone="Europe/Berln")
        assert all(m.ephemeral for m in wrong.messages), wrong.text
        assert "'Europe/Berln' is not a time zone; for example Europe/Berlin" in wrong.text

        await say(bot, "match new", practice=True, hours=HOURS)
        squads = await choices(bot, "match squad", "name")
        await say(bot, "match squad", name=squads[0])  # the deployment's clock runs
        shown = await say(bot, "timer show")
        found = DEADLINE.search(shown.text)
        assert found, "no deadline shown"
        # A post that pings nobody goes out silently (nobody needs waking for the clock).
        assert shown.messages and all(m.silent for m in shown.messages), shown.text
        deadline = int(found.group(1))
        due = deadline - 0.2 * HOURS * 3600  # the reminder's moment, 80% of the way

        # Quiet hours, Berlin time, the hour the reminder falls due in.
        hour = dt.datetime.fromtimestamp(due, BERLIN).hour
        quiet = (hour, (hour + 1) % 24)
        chosen = await say(bot, "timer notify", time_zone="Europe/Berlin", quiet_from=quiet[0],
                           quiet_until=quiet[1])  # fmt: skip
        assert all(m.ephemeral for m in chosen.messages), chosen.text
        assert f"Quiet hours: {hour:02d}:00 to {quiet[1]:02d}:00 (Europe/Berlin)" in chosen.text
        assert bots_time(time.time()) < due, "set too late for the test to mean anything"

        alice = f"<@{fake.alice.id}>"
        posts = lambda: channel_posts(fake, fake.channel_id)  # noqa: E731
        reminders = lambda: [m for m in posts() if m.text.startswith(f"⏰ {alice}:")]  # noqa: E731
        await bot.until(reminders, "Alice's held reminder", 60)
        [reminder] = reminders()
        sent = bots_time(reminder.created)
        local = dt.datetime.fromtimestamp(sent, BERLIN)
        # Not sent while quiet (it fell due inside them), but once they ended, and in time.
        assert due < sent < deadline, (due, sent, deadline)
        assert local.hour != hour, f"sent at {local:%H:%M} Berlin time, inside the quiet hours"
        assert "deploy your squad" in reminder.text and fake.alice.id in reminder.pings
        assert not reminder.silent  # the ping that it is her turn wakes her
        assert not any("did not deploy" in m.text for m in posts() if m.created < reminder.created)
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


async def test_a_daily_digest_comes_by_direct_message_at_the_players_hour(
    fake: FakeDiscord, warped_bot
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        origin = time.time()
        bot = await warped_bot(origin)
        await say(bot, "match new", practice=True, hours=24)
        squads = await choices(bot, "match squad", "name")
        await say(bot, "match squad", name=squads[0])  # her deployment waits on her
        # The digest at an hour of her day (Tokyo time) two to three hours from now.
        now = origin + (time.time() - origin) * WARP
        local = dt.datetime.fromtimestamp(now, TOKYO)
        hour = (local.hour + 3) % 24
        due = (local.replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=3)).timestamp()
        chosen = await say(bot, "timer notify", time_zone="Asia/Tokyo", digest_hour=hour)
        assert all(m.ephemeral for m in chosen.messages), chosen.text
        assert f"daily digest by direct message at {hour:02d}:00" in chosen.text, chosen.text

        def digests() -> list[Message]:
            return [m for m in fake.messages.values() if m.text.startswith("🗓️ Your daily digest")]

        await bot.until(digests, "Alice's daily digest", 60)
        first = digests()[0]
        sent = origin + (first.created - origin) * WARP
        assert sent >= due, f"sent {(due - sent) / 60:.0f} minutes before {hour}:00 Tokyo time"
        assert first.channel_id != fake.channel_id  # a direct message
        assert "Match #1 in <#" in first.text and "time runs out <t:" in first.text, first.text
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
