"""Substitutes through the real bot process, against the loopback fake of Discord (issue 34):
Alice and Bob start a match; Bob asks for a substitute and names Carol; Alice, a player, may not
hand his seat on, nor may a moderator give it to Alice, who plays already (both refused privately,
nothing changes); a moderator hands Bob's seat to Carol, who is told in the channel and by direct
message; Bob may play no more, Carol finishes the match (a concession), and the record the bot
exports replays, passes `skirmbot verify` and says who held the seat from which command on.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from fakediscord import FakeDiscord, Message, User
from fakediscord.server import MANAGE_GUILD, MEMBER_PERMISSIONS, snowflake
from test_wire import (
    TEST_TIMEOUT,
    Bot,
    choices,
    clean,
    click,
    fake,
    public,
    say,
    settled,
    start_bot,
)
from test_wire_verify import skirmbot_verify

from skirmbot.rules.record import MatchRecord, held_by, replay

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire


def private(messages: list[Message]) -> bool:
    return bool(messages) and all(m.ephemeral for m in messages)


def direct_messages(fake: FakeDiscord, user: User) -> list[Message]:
    """What the bot sent `user` by direct message."""
    dms = {
        int(c["id"])
        for c in fake.channels.values()
        if c.get("type") == 1 and c.get("recipients") == [user.to_json()]
    }
    return [m for m in fake.messages.values() if m.channel_id in dms]


async def two_player_match(bot: Bot) -> None:
    """Alice challenges Bob; both pick a squad and deploy: the match is being played."""
    fake = bot.fake
    await say(bot, "match new", opponent=fake.bob)
    await say(bot, "match join", user=fake.bob)
    squads = await choices(bot, "match squad", "name")
    await say(bot, "match squad", name=squads[0])
    await say(bot, "match squad", user=fake.bob, name=squads[-1])
    await say(bot, "deploy", auto=True)
    deployed = await say(bot, "deploy", user=fake.bob, auto=True)
    await settled(bot, deployed, lambda: deployed.pngs, "both squads deployed")


async def test_a_substitute_takes_a_seat_and_finishes_the_match(
    fake: FakeDiscord, start_bot, tmp_path: Path
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        await two_player_match(bot)
        mo = User(snowflake(), "mo", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)

        # Bob asks for a substitute and names Carol: a post saying who can hand his seat on.
        asked = await say(bot, "match substitute", user=fake.bob, member=fake.carol)
        assert public(asked) and "Bob asks for a substitute" in asked.text, asked.text
        assert f"<@{fake.carol.id}>" in asked.text and "A moderator" in asked.text

        # Refused privately, nothing changes: a player handing a seat on; a member who plays.
        by_player = await say(bot, "match substitute", member=fake.carol, seat_of=fake.bob)
        assert private(by_player.messages) and "Only moderators" in by_player.text, by_player.text
        plays = await say(bot, "match substitute", user=mo, member=fake.alice, seat_of=fake.bob)
        assert private(plays.messages) and "Alice already plays" in plays.text, plays.text
        assert not direct_messages(fake, fake.carol)

        # The moderator hands Bob's seat to Carol: told in the channel (pinged) and by DM.
        handed = await say(bot, "match substitute", user=mo, member=fake.carol, seat_of=fake.bob)
        [post] = public(handed)
        assert "takes Bob's seat" in post.text and fake.carol.id in post.pings, post.text
        dm = await bot.until(
            lambda: direct_messages(fake, fake.carol), "Carol's direct message", 10
        )
        assert "You take Bob's seat" in dm[0].text, dm[0].text

        # Bob plays no more; Carol finishes the match.
        gone = await say(bot, "match concede", user=fake.bob)
        assert private(gone.messages) and "Only the two players" in gone.text, gone.text
        asked_carol = await say(bot, "match concede", user=fake.carol)
        ended = await click(bot, asked_carol.messages[0], "Concede the match", user=fake.carol)
        end = await bot.until(
            lambda: [m for m in ended.messages if "concedes" in m.text or "wins" in m.text],
            "the end of the match",
            10,
        )
        assert "Bob, then Carol" in "\n".join(m.text for m in end), end[0].text

        # The record replays, verifies and says who played.
        exported = await say(bot, "match export")
        [data] = [a.data for m in exported.messages for a in m.attachments]
        record = MatchRecord.loads(data.decode())
        seat = record.players.index("Bob")
        assert [name for name, _ in held_by(record)[seat]] == ["Bob", "Carol"]
        assert held_by(record)[seat][1][1] > 0  # from a command after the start
        assert replay(record).log  # it replays whole
        path = tmp_path / "record.json"
        path.write_bytes(data)
        checked = skirmbot_verify(path)
        assert checked.returncode == 0, checked.stderr + checked.stdout
        assert json.loads(data)["holders"][0]["player"] == "Carol"
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
