"""Catch-up recaps (issue 21, part 2) through the real bot process against the loopback fake of
Discord: /match recap on demand (a GIF as a file, only for the asker), the activation numbers
in /match log, and a reminder by direct message carrying the recap of what happened while the
player was away."""

from __future__ import annotations

import asyncio

from fakediscord import FakeDiscord, Message
from test_wire import (
    TEST_TIMEOUT,
    WARP,
    Bot,
    channel_posts,
    choices,
    clean,
    click,
    fake,
    move_someone,
    practice_match,
    public,
    say,
    settled,
    start_bot,
)

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

GIF = (b"GIF87a", b"GIF89a")


def gifs(message: Message) -> list[bytes]:
    return [a.data for a in message.attachments if a.data.startswith(GIF)]


async def timed_practice(bot: Bot) -> None:
    """/match new against the automatic player, 4 hours an activation and 2 excuses, a shipped
    squad, /deploy auto."""
    new = await say(bot, "match new", practice=True, hours=4, excuses=2)
    assert public(new), new.text
    squads = await choices(bot, "match squad", "name")
    await say(bot, "match squad", name=squads[0])
    await say(bot, "deploy", auto=True)


def direct(fake: FakeDiscord) -> list[Message]:
    """What the bot posted outside the match's channel: its direct messages."""
    return [
        m
        for m in fake.messages.values()
        if m.route == "channel" and m.channel_id != fake.channel_id
    ]


async def test_match_recap_posts_the_catch_up_gif_only_for_the_asker(
    fake: FakeDiscord, start_bot
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        await practice_match(bot)
        _, move = await move_someone(bot)
        end = await click(bot, move.messages[-1], "End activation")
        await settled(
            bot,
            end,
            lambda: any(fake.alice.id in m.pings for m in end.messages),
            "the automatic player's activation and Alice's turn again",
        )
        # The ping after the automatic player's single activation carries no recap: its map
        # picture shows that activation, and Alice was there.
        assert not any(gifs(m) for m in end.messages), end.text

        log = await say(bot, "match log")
        assert [m.ephemeral for m in log.messages] == [True], log.text
        numbers = [int(line.split()[0][1:]) for line in log.text.splitlines() if line[:1] == "#"]
        assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 2, log.text
        last = numbers[-1]  # the automatic player's activation, after Alice's

        recap = await say(bot, "match recap")
        [message] = recap.messages
        assert message.ephemeral, message.text
        assert "📜 Catch-up: activation" in message.text, message.text
        assert f"#{last} (turn 1)" in message.text, message.text
        [gif] = gifs(message)
        assert len(gif) > 1000
        assert [a.filename for a in message.attachments] == ["recap.gif"]

        everything = await say(bot, "match recap", activation=1, public=True)
        assert public(everything), everything.text
        assert f"activations #1 to #{last}" in everything.text, everything.text
        assert gifs(everything.messages[0])

        wrong = await say(bot, "match recap", activation=99)
        assert [m.ephemeral for m in wrong.messages] == [True], wrong.text
        assert f"activations 1 to {last} so far" in wrong.text, wrong.text
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


async def test_a_reminder_by_direct_message_carries_the_recap(fake: FakeDiscord, start_bot) -> None:
    """Alice asks for her reminders by direct message and leaves her practice match alone: she
    misses an activation (the bot ends it), the automatic player takes its own, and her next
    reminder, by DM, carries the recap of both as a GIF."""
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot(warp=WARP)
        chosen = await say(bot, "timer reminders", by_dm=True)
        assert [m.ephemeral for m in chosen.messages] == [True], chosen.text
        await timed_practice(bot)

        def caught_up() -> list[Message]:
            return [m for m in direct(fake) if gifs(m) and "Missed deadline" in m.text]

        await bot.until(lambda: caught_up(), "a reminder by direct message with the recap GIF", 30)
        reminder = caught_up()[0]
        assert reminder.text.startswith(f"⏰ <@{fake.alice.id}>"), reminder.text
        assert "Catch-up: activation" in reminder.text and "Missed deadline" in reminder.text
        assert [a.filename for a in reminder.attachments] == ["recap.gif"]
        # The channel had the miss and the automatic player's activation, each with its map.
        assert any("missed the deadline" in m.text for m in channel_posts(fake, fake.channel_id))
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


async def test_a_refused_dm_reminder_goes_to_the_channel_with_its_recap(
    fake: FakeDiscord, start_bot
) -> None:
    """Alice asks for her reminders by direct message, gets the first one, then closes her DMs
    (Discord answers 403, code 50007). The next reminder, carrying the recap of her missed
    activation and the automatic player's, comes to the channel instead: the ping, the line
    saying why, and the GIF, which must not be lost with the refused DM."""
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot(warp=WARP)
        await say(bot, "timer reminders", by_dm=True)
        await timed_practice(bot)
        await bot.until(lambda: direct(fake), "a first reminder by direct message", 30)
        fake.dms_closed.add(fake.alice.id)
        sent = len(direct(fake))

        def here() -> list[Message]:
            return [
                m
                for m in channel_posts(fake, fake.channel_id)
                if gifs(m) and "direct messages are closed" in m.text
            ]

        await bot.until(here, "the refused reminder in the channel, with the recap GIF", 30)
        [reminder] = here()
        assert reminder.text.startswith(f"⏰ <@{fake.alice.id}>"), reminder.text
        assert fake.alice.id in reminder.pings
        assert "📜 Catch-up: activation" in reminder.text and "Missed deadline" in reminder.text
        assert [a.filename for a in reminder.attachments] == ["recap.gif"]
        assert len(reminder.text) <= 2000
        assert [r for r in fake.refusals if r[3] == 50007], fake.refusals
        assert len(direct(fake)) == sent, "a direct message went out after the DMs were closed"
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
