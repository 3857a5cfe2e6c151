"""The "your move" inbox (issue 34) through the real bot process, against the loopback fake of
Discord: a player in three matches on two servers sends /mine in a direct message with the bot
and gets the ones waiting on her first (soonest deadline first, each with its time left and a
link to its channel or thread), then the other one (whose turn); from the same direct message
she previews and gives orders for a match she names, and what the orders do is posted in the
match's thread, as if she had given them there.
"""

from __future__ import annotations

import asyncio

from fakediscord import FakeDiscord, Interaction, Message
from test_wire import (
    REPLY_TIMEOUT,
    TEST_TIMEOUT,
    Bot,
    answered,
    choices,
    clean,
    click,
    fake,
    practice_match,
    say,
    settled,
    start_bot,
)

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

LINK = "https://discord.com/channels"


async def in_dm(bot: Bot, command: str, **options: object) -> Interaction:
    """/command from Alice's direct message with the bot, and its first answer."""
    return await answered(bot, await bot.fake.dm_slash(command, **options))


async def dm_choices(bot: Bot, command: str, focused: str, **options: object) -> list[object]:
    interaction = await answered(bot, await bot.fake.dm_autocomplete(command, focused, **options))
    assert interaction.callback_type == 8, interaction.callback
    return [choice["value"] for choice in interaction.choices]


def posts_in(fake: FakeDiscord, channel_id: int) -> list[Message]:
    return [m for m in fake.messages.values() if m.channel_id == channel_id]


async def test_the_inbox_in_a_direct_message(fake: FakeDiscord, start_bot) -> None:
    async with asyncio.timeout(TEST_TIMEOUT * 2):
        other = fake.add_guild("Other club")  # before the bot connects: it is told of both
        bot = await start_bot()
        squads = await choices(bot, "match squad", "name")

        # 1. The first server's channel: a practice match, Alice's turn (24 hours).
        await practice_match(bot)
        # 2. A thread there: a practice match, Alice's turn with an hour on the clock (sooner).
        await say(bot, "match new", practice=True, thread=True, hours=1)
        [thread] = [int(c["id"]) for c in fake.channels.values() if c["type"] == 11]
        await say(bot, "match squad", channel_id=thread, name=squads[0])
        deploy = await say(bot, "deploy", channel_id=thread, auto=True)
        await settled(
            bot,
            deploy,
            lambda: any(fake.alice.id in m.pings for m in deploy.messages),
            "Alice's turn in the thread's match",
        )
        # 3. The other server: Alice challenges Bob, he joins, she picks her squad; it waits
        # on Bob's.
        await say(bot, "match new", channel_id=other.channel_id, opponent=fake.bob)
        await say(bot, "match join", user=fake.bob, channel_id=other.channel_id)
        await say(bot, "match squad", channel_id=other.channel_id, name=squads[0])

        # The inbox, in a direct message: the two waiting on Alice, the sooner first, then
        # the one waiting on Bob, each with a link to its channel or thread.
        mine = await in_dm(bot, "mine")
        text = mine.text
        assert [m.ephemeral for m in mine.messages] == [True], text
        assert "Waiting on you (2)" in text and "Your other matches (1)" in text, text
        lines = [line for line in text.splitlines() if line.startswith("- ")]
        assert len(lines) == 3, text
        assert lines[0].endswith(f"{LINK}/{fake.guild_id}/{thread}"), lines
        assert lines[1].endswith(f"{LINK}/{fake.guild_id}/{fake.channel_id}"), lines
        assert lines[2].endswith(f"{LINK}/{other.id}/{other.channel_id}"), lines
        assert all("your turn, time runs out <t:" in line for line in lines[:2]), lines
        assert "v Bob: waiting for Bob to pick a squad" in lines[2], lines
        assert "Hold the Line v the automatic player" in lines[0], lines
        thread_match = int(lines[0].split()[1].lstrip("#"))

        # Bob's inbox has only the challenge, waiting on him.
        bobs = await answered(bot, await fake.dm_slash("mine", user=fake.bob))
        assert "Waiting on you (1)" in bobs.text and "Your other" not in bobs.text, bobs.text
        assert "v Alice: pick your squad (/match squad)" in bobs.text, bobs.text

        # The match option offers Alice's matches, the one waiting on her soonest first.
        offered = await dm_choices(bot, "match preview", "match")
        assert offered[0] == thread_match and len(offered) == 3, offered

        # A preview from the direct message, of the named match: for her only, with a picture.
        units = await dm_choices(bot, "match preview", "unit", match=thread_match)
        assert units, "no unit of Alice's offered for the named match"
        shown = await in_dm(bot, "match preview", match=thread_match, unit=units[0])
        await settled(bot, shown, lambda: shown.pngs, "the preview picture")
        assert all(m.ephemeral for m in shown.messages), shown.text
        assert f"Preview: {units[0]}" in shown.text, shown.text

        # The named match's status (its map) and log, from the direct message, for her only.
        status = await in_dm(bot, "match status", match=thread_match)
        await settled(bot, status, lambda: status.pngs, "the named match's map")
        assert all(m.ephemeral for m in status.messages), status.text
        log = await in_dm(bot, "match log", match=thread_match)
        assert [m.ephemeral for m in log.messages] == [True], log.text
        assert "deploys: " in log.text and "Turn 1 of 4 begins." in log.text, log.text

        # Orders from the direct message: done in the thread, as if given there (the map and
        # the automatic player's turn, then Alice's ping), and she is told where.
        unit = str(units[0])
        squares = await choices(bot, "move", "square", channel_id=thread, unit=unit)
        before = len(posts_in(fake, thread))
        line = f"{unit} move {squares[0]}; end"
        orders = await in_dm(bot, "match orders", match=thread_match, line=line)
        await settled(
            bot, orders, lambda: "Posted in match" in orders.text, "the note of where it went"
        )
        assert all(m.ephemeral for m in orders.messages), orders.text
        assert f"{LINK}/{fake.guild_id}/{thread}" in orders.text, orders.text
        await bot.until(
            lambda: any(fake.alice.id in m.pings for m in posts_in(fake, thread)[before:]),
            "the orders' activation and Alice's next turn posted in the thread",
            REPLY_TIMEOUT,
        )
        done = posts_in(fake, thread)[before:]
        assert f"{unit} moves" in done[0].text, [m.text for m in done]
        assert any(m.pngs for m in done), "no map picture in the thread"

        # Orders that leave the activation open: in the thread, with its buttons, as if given
        # there (End activation works for Alice in the thread).
        ready = await choices(bot, "move", "unit", channel_id=thread)
        there = await choices(bot, "move", "square", channel_id=thread, unit=ready[0])
        before = len(posts_in(fake, thread))
        await in_dm(bot, "match orders", match=thread_match, line=f"{ready[0]} move {there[0]}")
        moved = await bot.until(
            lambda: [m for m in posts_in(fake, thread)[before:] if f"{ready[0]} moves" in m.text],
            "the open activation's move posted in the thread",
            REPLY_TIMEOUT,
        )
        assert "End activation" in moved[0].buttons().values(), moved[0].buttons()
        end = await click(bot, moved[0], "End activation")
        await settled(bot, end, lambda: end.pngs, "the map after the button ended the activation")
        assert "expired" not in end.text, end.text

        # Not a match of hers, no match named, a command that needs the server: refused in
        # words, privately, and nothing is posted anywhere.
        # (The automatic player may still be posting its turn in the thread: not counted.)
        def elsewhere() -> int:
            return sum(1 for m in fake.messages.values() if m.channel_id != thread)

        posted = elsewhere()
        wrong = await answered(
            bot, await fake.dm_slash("match preview", user=fake.carol, match=thread_match)
        )
        assert [m.ephemeral for m in wrong.messages] == [True], wrong.text
        assert "You do not play in match" in wrong.text, wrong.text
        unnamed = await in_dm(bot, "match orders", line=line)
        assert "name the match" in unnamed.text and unnamed.messages[0].ephemeral, unnamed.text
        concede = await in_dm(bot, "match concede")
        assert "works in a server with the bot" in concede.text, concede.text
        assert concede.messages[0].ephemeral, concede.text
        assert elsewhere() == posted + 3, "a refusal posted something"
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


async def test_reminders_are_set_from_a_direct_message_and_a_match_clock_is_not(
    fake: FakeDiscord, start_bot
) -> None:
    """A player's own reminders hold for all their matches: /timer notify and /timer reminders
    run in a direct message with the bot; /timer commands about a match's clock are refused
    there in words, privately."""
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        posted = len(fake.messages)

        chosen = await in_dm(
            bot, "timer notify", time_zone="Europe/Berlin", quiet_from=22, quiet_until=7
        )
        shown = await in_dm(bot, "timer notify")
        dm = await in_dm(bot, "timer reminders", by_dm=True)
        refused = await in_dm(bot, "timer extend")
        wrong = await in_dm(bot, "timer notify", time_zone="Europe/Berln")

        for answer in (chosen, shown, dm, refused, wrong):
            assert [m.ephemeral for m in answer.messages] == [True], answer.text
        assert "Europe/Berlin" in shown.text and "22" in shown.text, shown.text
        assert "direct message" in dm.text, dm.text
        assert "works in a server with the bot" in refused.text, refused.text
        assert "/timer notify" in refused.text, refused.text
        assert "'Europe/Berln' is not a time zone" in wrong.text, wrong.text
        assert len(fake.messages) == posted + 5, "only the five private answers"
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
