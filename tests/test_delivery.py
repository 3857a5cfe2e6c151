"""Messages that must always arrive (issue 11), offline with simcord: the real bot, its cogs,
service and store, with Discord refusing messages as it does (simcord's `inject_error` answers
a request with Discord's status and code).

- A reminder by DM to a player whose DMs are closed (403, code 50007) goes to the match's
  channel with the ping; the store remembers it, so the next reminder goes there directly.
- A message Discord refuses is logged once with the match id, and the next message still goes
  out (the match state was saved before anything was posted): in the timers' posts and in an
  interaction's followups.
- A match whose channel or thread was deleted (404, code 10003) is abandoned: aborted, its
  deadlines cancelled, a note in the log; the timers go on.

simcord fails a test whose bot raised anything unhandled, so "nothing breaks" is checked too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import simcord

from cogs.delivery import deliver
from skirmbot.bot import SkirmBot, make_bot
from skirmbot.service import Reply, moment
from skirmbot.store import Deadline, Store

SEED = 1234
CANNOT_DM, UNKNOWN_CHANNEL, INVALID_FORM = 50007, 10003, 50035


@dataclass
class World:
    env: simcord.Env
    bot: SkirmBot
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor

    def member(self, user_id: int | None) -> simcord.MemberActor:
        return next(m for m in (self.alice, self.bob) if m.id == user_id)

    async def match_id(self) -> int:
        row = await self.bot.store.last_match(self.channel.id)
        assert row is not None
        return row.id

    async def deadline(self) -> Deadline:
        deadline = await self.bot.store.deadline(await self.match_id())
        assert deadline is not None
        return deadline

    async def fire(self, deadline: Deadline, done: Callable[[], Awaitable[bool]]) -> None:
        """The scheduler firing the deadline, and the bot posting what it did until `done`
        (simcord's settle does not wait for the store's thread, so look again a while)."""
        await self.bot.on_deadline(await self.match_id(), deadline)
        for _ in range(200):
            await self.env.settle()
            if await done():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the bot did not finish posting what the deadline did")

    async def posts(self) -> list[discord.Message]:
        return [m for m in self.channel.history() if m.interaction_metadata is None]


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[SkirmBot]:
    started = make_bot(tmp_path / "skirm.db", seed_source=lambda: SEED, run_timers=False)
    yield started
    await started.store.close()


@pytest.fixture
def simcord_bot(bot: SkirmBot) -> SkirmBot:
    return bot


@pytest.fixture
def world(simcord_env: simcord.Env, bot: SkirmBot) -> World:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("skirm")
    return World(
        simcord_env,
        bot,
        channel,
        alice=guild.add_member(simcord_env.create_user("alice")),
        bob=guild.add_member(simcord_env.create_user("bob")),
    )


async def challenge(world: World) -> simcord.MemberActor:
    """Alice challenges Bob, both deploy: the player whose turn it is."""
    await world.alice.slash(world.channel, "match new", opponent=world.bob)
    await world.bob.slash(world.channel, "match join")
    await world.alice.slash(world.channel, "match squad", name="iron-wardens")
    await world.bob.slash(world.channel, "match squad", name="ash-runners")
    await world.alice.slash(world.channel, "deploy", auto=True)
    await world.bob.slash(world.channel, "deploy", auto=True)
    row, match = await world.bot.service.view(world.channel.id)
    assert match is not None and match.state.to_act is not None
    return world.member(row.players[match.state.to_act])


async def practice(world: World) -> None:
    """Alice against the automatic player, both deployed: Alice's turn (or the bot's first)."""
    await world.alice.slash(world.channel, "match new", practice=True)
    await world.alice.slash(world.channel, "match squad", name="iron-wardens")
    await world.alice.slash(world.channel, "deploy", auto=True)


async def closed_dms(world: World, member: simcord.MemberActor) -> int:
    """The member's DMs refuse the bot from now on, as Discord does (403, code 50007)."""
    dm = await world.bot.create_dm(discord.Object(member.id))
    world.env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=CANNOT_DM,
        message="Cannot send messages to this user",
        times=None,
    )
    return dm.id


def dm_attempts(world: World, dm_id: int) -> int:
    path = f"/channels/{dm_id}/messages"
    return sum(
        1 for entry in world.env.http_requests if entry.method == "POST" and entry.path == path
    )


# --- direct messages closed ------------------------------------------------------------------
async def test_a_reminder_to_closed_dms_goes_to_the_channel_and_the_next_one_directly(
    world: World,
) -> None:
    acting = await challenge(world)
    await acting.slash(world.channel, "timer reminders", by_dm=True)
    dm = await closed_dms(world, acting)
    reminder = await world.deadline()
    assert reminder.kind == "remind"

    async def reminders() -> list[discord.Message]:
        return [m for m in await world.posts() if m.content.startswith("⏰")]

    def reminded(count: int) -> Callable[[], Awaitable[bool]]:
        async def done() -> bool:
            return len(await reminders()) == count

        return done

    await world.fire(reminder, reminded(1))
    [first] = await reminders()
    assert acting.mention in first.content and "direct messages are closed" in first.content
    assert [user.id for user in first.mentions] == [acting.id], "the player is pinged"
    assert dm_attempts(world, dm) == 1
    known = await world.bot.store.player(acting.id)
    assert known is not None and known["dms_closed"] and known["dm_reminders"]

    await world.fire(reminder, reminded(2))  # the next: to the channel without the DM
    second = (await reminders())[1]
    assert acting.mention in second.content and "direct messages are closed" not in second.content
    assert dm_attempts(world, dm) == 1

    # Choosing again (the player opened their DMs) tries the DM again.
    await acting.slash(world.channel, "timer reminders", by_dm=True)
    known = await world.bot.store.player(acting.id)
    assert known is not None and not known["dms_closed"]


async def test_dms_closed_is_kept_in_the_database(world: World, tmp_path: Path) -> None:
    """Remembered in the store (migration 004), not in memory: another connection sees it."""
    acting = await challenge(world)
    await acting.slash(world.channel, "timer reminders", by_dm=True)
    await world.bot.store.note_dms_closed(acting.id)
    other = await Store.open(tmp_path / "skirm.db")
    try:
        known = await other.player(acting.id)
        assert known is not None and known["dms_closed"]
    finally:
        await other.close()


# --- one refused message ---------------------------------------------------------------------
async def test_a_refused_timer_message_is_logged_once_and_the_next_still_goes_out(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A miss in a practice match: the miss and the automatic player's turn(s) after it. The
    first is refused; the match is saved, the rest still go out, one line in the log."""
    await practice(world)
    row, match = await world.bot.service.view(world.channel.id)
    assert match is not None and row.players[match.state.to_act or 0] == world.alice.id
    before = len(row.record["commands"])
    key = row.setup["clock"]["key"]
    world.env.inject_error(
        "POST", f"/channels/{world.channel.id}/messages", status=400, code=INVALID_FORM, times=1
    )
    posts = len(await world.posts())

    async def alice_pinged() -> bool:
        return any(world.alice.mention in m.content for m in (await world.posts())[posts:])

    with caplog.at_level(logging.WARNING):
        await world.fire(Deadline(0.0, "miss", key), alice_pinged)
    after = await world.posts()
    assert len(after) > posts, "the automatic player's turn went out after the refused miss"
    assert not any("missed the deadline" in m.content for m in after), "the refused one"
    assert any(world.alice.mention in m.content for m in after[posts:]), "Alice's turn again"
    saved = await world.bot.store.last_match(world.channel.id)
    assert saved is not None and len(saved.record["commands"]) > before
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1 and f"Match #{row.id}" in refused[0].getMessage()


async def test_a_refused_followup_of_an_interaction_does_not_stop_the_next(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The automatic player's turns after a player's action are followups of the interaction:
    one refused, the next still goes out."""
    await practice(world)

    async def three(channel_id: int) -> Reply:
        return Reply("first", followups=[Reply("second"), Reply("third")])

    monkeypatch.setattr(world.bot.service, "status", three)
    world.env.inject_error("POST", "/webhooks/*", status=400, code=INVALID_FORM, times=1)
    with caplog.at_level(logging.WARNING):
        result = await world.alice.slash(world.channel, "match status")
    assert result.response is not None and result.response.content == "first"
    assert [m.content for m in result.followups] == ["third"]
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1 and f"Match #{await world.match_id()}" in refused[0].getMessage()


# --- the channel is gone ---------------------------------------------------------------------
async def test_a_deleted_channel_abandons_the_match_and_cancels_its_deadlines(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await challenge(world)
    match_id = await world.match_id()
    reminder = await world.deadline()
    assert len(world.bot.scheduler) == 1
    world.env.inject_error(
        "*",
        f"/channels/{world.channel.id}*",
        status=404,
        code=UNKNOWN_CHANNEL,
        message="Unknown Channel",
        times=None,
    )

    async def abandoned() -> bool:
        return any("abandoned" in r.getMessage() for r in caplog.records)

    with caplog.at_level(logging.WARNING):
        await world.fire(reminder, abandoned)
    row = await world.bot.store.match(match_id)
    assert row is not None and row.status == "aborted"
    assert "was deleted" in row.setup["abandoned"]["reason"]
    assert await world.bot.store.deadline(match_id) is None
    assert len(world.bot.scheduler) == 0, "nothing left to fire for it"
    assert any(
        f"Match #{match_id} abandoned" in r.getMessage() and r.levelno == logging.WARNING
        for r in caplog.records
    )
    await world.bot.on_deadline(match_id, reminder)  # one still in flight: stale, does nothing
    await world.env.settle()
    assert (await world.bot.store.match(match_id)).status == "aborted"  # type: ignore[union-attr]


def test_a_long_direct_message_still_fits_and_names_its_channel() -> None:
    """Issue 11: a reminder by DM never goes over Discord's 2,000 characters, and the match's
    channel it names is never the part cut off."""
    from skirmbot.cogs.delivery import _with_channel

    text = _with_channel("<@22> " + "x" * 3000, 123)
    assert len(text) <= 2000 and text.endswith("\n(match in <#123>)")
    assert _with_channel("<@22> your turn", 123) == "<@22> your turn\n(match in <#123>)"


async def test_a_timer_post_carries_the_buttons_of_its_reply(world: World) -> None:
    """A reply the timers post offers its buttons as an answer's do: a reaction window that ran
    out on a move which then meets another arc (the infantry rules) asks that arc's owner, who
    answers with Fire or Hold on this message, the only one that tells them."""
    await practice(world)
    row, _ = await world.bot.service.view(world.channel.id)
    posts = len(await world.posts())
    asked = Reply("Rossi's arc: Kade enters F6: fire or hold", choices=["fire:Rossi", "hold:Rossi"])
    delivered = await deliver(world.bot, row.id, world.channel.id, [asked, Reply("no buttons")])
    await world.env.settle()
    assert delivered.posted == 2
    first, second = (await world.posts())[posts:]
    buttons = [child for row_ in first.components for child in row_.children]  # type: ignore[attr-defined]
    assert [b.label for b in buttons] == ["Fire: Rossi's arc", "Hold: Rossi's arc"]
    assert buttons[0].custom_id == f"skirm:fire:{row.id}:Rossi:{moment(row)}"
    assert not second.components
