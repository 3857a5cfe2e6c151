"""The Discord glue (cogs/) offline with simcord: the real bot, its real cogs, service and store
(SQLite in tmp_path, fixed dice seed), driven as members use it: slash commands, autocomplete,
button clicks, and a restart on the same database.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import simcord
import skirmbot.cogs.common  # noqa: E402
from skirmbot.cogs.play import every_kind_listed, read_placements

from skirmbot import content  # noqa: E402
from skirmbot.bot import SkirmBot, make_bot  # noqa: E402
from skirmbot.rules.record import MatchRecord, replay  # noqa: E402
from skirmbot.rules.skirm import autoplayer
from skirmbot.rules.skirm.legal import reachable_squares  # noqa: E402
from skirmbot.service import Reply, ServiceError  # noqa: E402
from skirmbot.service.admission import OVERLOADED, Admission

SEED = 1234
PNG = b"\x89PNG\r\n\x1a\n"  # enough of a picture for an attachment


@dataclass
class World:
    env: simcord.Env
    bot: SkirmBot
    db: Path
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    eve: simcord.MemberActor  # a member who does not play
    admin: simcord.MemberActor  # has Manage Server

    def member(self, user_id: int | None) -> simcord.MemberActor:
        return next(m for m in (self.alice, self.bob, self.eve, self.admin) if m.id == user_id)

    async def started(self) -> None:
        """Alice challenges Bob, both field a shipped squad and let the bot deploy."""
        await self.alice.slash(self.channel, "match new", opponent=self.bob)
        await self.bob.slash(self.channel, "match join")
        await self.alice.slash(self.channel, "match squad", name="iron-wardens")
        await self.bob.slash(self.channel, "match squad", name="ash-runners")
        await self.alice.slash(self.channel, "deploy", auto=True)
        await self.bob.slash(self.channel, "deploy", auto=True)

    async def turn(self) -> tuple[simcord.MemberActor, simcord.MemberActor, str]:
        """(the player to act, the other player, one of the acting player's ready units)."""
        row, match = await self.bot.service.view(self.channel.id)
        assert match is not None and match.state.to_act is not None
        side = match.state.to_act
        acting, other = self.member(row.players[side]), self.member(row.players[1 - side])
        activation = match.state.activation
        unit = activation.unit if activation else match.state.ready_units(side)[0].id
        return acting, other, unit

    async def reachable(self, unit: str) -> dict[str, int]:
        _, match = await self.bot.service.view(self.channel.id)
        assert match is not None
        routes = reachable_squares(match.state, match.state.unit(unit), "move")
        return {str(square): route.cost for square, route in routes.items()}

    async def commands(self) -> int:
        row = await self.bot.store.active_match(self.channel.id)
        assert row is not None
        return len(row.record["commands"])


@pytest.fixture
async def bots() -> AsyncIterator[list[SkirmBot]]:
    """Every bot a test starts; their stores are closed at the end (simcord does not close
    the bot itself)."""
    started: list[SkirmBot] = []
    yield started
    for bot in started:
        await bot.store.close()


@pytest.fixture
def simcord_bot(tmp_path: Path, bots: list[SkirmBot]) -> SkirmBot:
    bot = make_bot(tmp_path / "skirm.db", seed_source=lambda: SEED, run_timers=False)
    bots.append(bot)
    return bot


@pytest.fixture
def world(simcord_env: simcord.Env, simcord_bot: SkirmBot, tmp_path: Path) -> World:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("skirm")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return World(
        env, simcord_bot, tmp_path / "skirm.db", guild, channel,
        alice=guild.add_member(env.create_user("alice")),
        bob=guild.add_member(env.create_user("bob")),
        eve=guild.add_member(env.create_user("eve")),
        admin=guild.add_member(env.create_user("admin"), roles=[admins]),
    )  # fmt: skip


def said(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The bot's response to an interaction (it must have answered with a message)."""
    assert result.response is not None, f"no response message: {result!r}"
    return result.response


def deferred(env: simcord.Env) -> bool:
    """Whether the bot answered an interaction with "thinking..." (a type 5 callback)."""
    return any(
        entry.path.endswith("/callback") and (entry.json or {}).get("type") == 5
        for entry in env.http_requests
    )


def buttons(message: simcord.ResponseMessage) -> list[dict[str, str]]:
    return [button for row in message.components for button in row.get("components", [])]


def pngs(message: simcord.ResponseMessage) -> list[discord.Attachment]:
    return [a for a in message.attachments if a.filename.endswith(".png")]


# --- setting up ------------------------------------------------------------------------------
async def test_a_match_is_set_up_and_the_deployments_are_revealed_with_the_map(
    world: World,
) -> None:
    created = await world.alice.slash(world.channel, "match new", opponent=world.bob)
    assert not created.ephemeral and "New Skirm match" in said(created).content
    assert world.bob.mention in said(created).content
    joined = await world.bob.slash(world.channel, "match join")
    assert "joins as squad 2" in said(joined).content
    for member, squad in ((world.alice, "iron-wardens"), (world.bob, "ash-runners")):
        chosen = await member.slash(world.channel, "match squad", name=squad)
        assert "fields" in said(chosen).content and not chosen.ephemeral
    first = await world.alice.slash(world.channel, "deploy", auto=True)
    assert "hidden" in said(first).content and not pngs(said(first))
    reveal = await world.bob.slash(world.channel, "deploy", auto=True)
    assert "Both squads deploy" in said(reveal).content and not reveal.ephemeral
    assert pngs(said(reveal)), "the reveal carries the battlemap picture"
    acting, _, _ = await world.turn()
    assert acting.mention in said(reveal).content, "the first player to act is pinged"


async def test_an_uploaded_squad_file_is_read_and_a_broken_one_refused_clearly(
    world: World,
) -> None:
    await world.alice.slash(world.channel, "match new", opponent=world.bob)
    early = await world.alice.slash(world.channel, "match card", unit="Halden")
    assert early.ephemeral and "has not started" in said(early).content
    broken = await world.alice.slash(
        world.channel, "match squad", file=("mine.json", b'{"name": "X",')
    )
    assert broken.ephemeral and "mine.json is not valid JSON" in said(broken).content
    assert "line 1" in said(broken).content
    good = json.dumps(content.raw("squads", "iron-wardens")).encode()
    fielded = await world.alice.slash(world.channel, "match squad", file=("mine.json", good))
    assert not fielded.ephemeral and "Iron Wardens" in said(fielded).content


async def test_deploy_reads_placements_and_explains_what_it_cannot_read(world: World) -> None:
    await world.alice.slash(world.channel, "match new", opponent=world.bob)
    await world.bob.slash(world.channel, "match join")
    await world.alice.slash(world.channel, "match squad", name="iron-wardens")
    await world.bob.slash(world.channel, "match squad", name="ash-runners")
    unreadable = await world.alice.slash(world.channel, "deploy", placements="Halden, Brann D2")
    assert unreadable.ephemeral and "could not read 'Halden'" in said(unreadable).content
    row = await world.bot.store.active_match(world.channel.id)
    assert row is not None
    deployment = autoplayer.deployment(replay(MatchRecord.from_json(row.record)).state, 0)
    typed = ", ".join(f"{unit} {square.lower()}" for unit, square in deployment.placements.items())
    deployed = await world.alice.slash(world.channel, "deploy", placements=typed)
    assert not deployed.ephemeral and "alice has deployed" in said(deployed).content


def test_deploy_reads_every_models_square_of_a_group() -> None:
    """The group rules place a Group by every model's square ("Spearmen C3 D3 E3"), as their
    placement help says and the deployment /deploy offers is written: one value per Group."""
    assert read_placements("Spearmen c3 D3  E3, Archers: A1") == {
        "Spearmen": "C3 D3 E3",
        "Archers": "A1",
    }
    assert read_placements("Halden C2, Brann D2") == {"Halden": "C2", "Brann": "D2"}


def test_act_lists_every_kind_of_action_when_one_kind_has_more_than_the_list_shows() -> None:
    """/act's list shows 25 actions: a Summon at each of 30 squares must not push End turn and
    Retreat off it; what the player types still narrows it in order."""
    summons = [(f'["summon","Summoners","C{n}"]', f"Summon: Summoners at C{n}") for n in range(30)]
    options = [
        *summons,
        ('["retreat","Spearmen"]', "Retreat: Spearmen"),
        ('["end_turn"]', "End turn"),
    ]
    listed = [label for _, label in every_kind_listed(options, "")]
    assert listed[:4] == [
        "Summon: Summoners at C0",
        "Retreat: Spearmen",
        "End turn",
        "Summon: Summoners at C1",
    ]
    assert [label for _, label in every_kind_listed(options[-2:], "")] == [
        "Retreat: Spearmen",
        "End turn",
    ]
    assert every_kind_listed(options, "C1")[:2] == summons[1:2] + summons[10:11]


async def test_a_practice_match_in_a_thread(world: World) -> None:
    result = await world.alice.slash(world.channel, "match new", practice=True, thread=True)
    [thread] = world.channel.threads
    assert thread.mention in said(result).content
    opened = thread.last_message
    assert opened is not None and "automatic player" in opened.content
    await world.alice.slash(thread, "match squad", name="iron-wardens")
    reveal = await world.alice.slash(thread, "deploy", auto=True)
    assert "Both squads deploy" in said(reveal).content and pngs(said(reveal))


# --- playing ---------------------------------------------------------------------------------
async def test_an_illegal_move_is_refused_privately_naming_the_reachable_squares(
    world: World,
) -> None:
    await world.started()
    acting, _, unit = await world.turn()
    before = await world.commands()
    refused = await acting.slash(world.channel, "move", unit=unit, square="L12")
    assert refused.ephemeral and "cannot reach L12" in said(refused).content
    some_square = next(iter(await world.reachable(unit)))
    assert some_square in said(refused).content
    assert await world.commands() == before, "a refusal changes nothing"


async def test_a_legal_move_is_answered_publicly_with_end_and_preview_buttons(world: World) -> None:
    await world.started()
    acting, _, unit = await world.turn()
    square = min((cost, s) for s, cost in (await world.reachable(unit)).items())[1]
    moved = await acting.slash(world.channel, "move", unit=unit, square=square.lower())
    assert not moved.ephemeral and f"{unit} moves" in said(moved).content
    assert [b["label"] for b in buttons(said(moved))] == ["End activation", "Preview"]


async def test_end_posts_the_map_and_pings_the_next_player(world: World) -> None:
    await world.started()
    acting, other, unit = await world.turn()
    await acting.slash(world.channel, "activate", unit=unit)
    ended = await acting.slash(world.channel, "end")
    message = said(ended)
    assert not ended.ephemeral and "activation ends" in message.content
    assert pngs(message), "the map picture is attached"
    assert other.mention in message.content
    assert [user.id for user in message.message.mentions] == [other.id], "only they are pinged"


async def test_a_non_player_is_refused_politely(world: World) -> None:
    await world.started()
    _, _, unit = await world.turn()
    before = await world.commands()
    refused = await world.eve.slash(world.channel, "move", unit=unit, square="C12")
    assert refused.ephemeral and "Only alice and bob play in this match" in said(refused).content
    assert await world.commands() == before


async def test_move_autocomplete_offers_only_reachable_squares_with_their_cost(
    world: World,
) -> None:
    await world.started()
    acting, other, unit = await world.turn()
    offered = await acting.autocomplete(world.channel, "move", "square", "", unit=unit)
    reachable = await world.reachable(unit)
    assert offered and {c["value"] for c in offered} <= set(reachable)
    assert all(c["name"] == f"{c['value']} ({reachable[c['value']]})" for c in offered)
    assert len(offered) == min(25, len(reachable))
    costs = [reachable[c["value"]] for c in offered]
    assert costs == sorted(costs), "cheapest first"
    units = await acting.autocomplete(world.channel, "move", "unit", "")
    assert unit in {c["value"] for c in units}
    assert await other.autocomplete(world.channel, "move", "square", "", unit=unit) == []
    assert await world.eve.autocomplete(world.channel, "move", "unit", "") == []


async def test_spending_tactical_orders_is_confirmed_with_a_button(world: World) -> None:
    await world.started()
    acting, _, unit = await world.turn()
    for _ in range(6):
        square = next(iter(await world.reachable(unit)))
        result = await acting.slash(world.channel, "move", unit=unit, square=square)
        if result.ephemeral:
            break
    else:
        pytest.fail("the unit never ran out of ACT")
    assert "Tactical Orders" in said(result).content
    [label] = [b["label"] for b in buttons(said(result)) if b["label"].startswith("Spend ")]
    assert label.endswith(" TO")
    before = await world.commands()
    spent = await acting.click(said(result), label=label)
    assert not spent.ephemeral and f"{unit} moves" in said(spent).content
    assert await world.commands() == before + 1


# --- buttons ---------------------------------------------------------------------------------
async def test_end_button_works_and_a_stale_one_says_it_expired(world: World) -> None:
    await world.started()
    acting, other, unit = await world.turn()
    moved = await acting.slash(
        world.channel, "move", unit=unit, square=next(iter(await world.reachable(unit)))
    )
    clicked = await acting.click(said(moved), label="End activation")
    assert not clicked.ephemeral and "activation ends" in said(clicked).content
    assert pngs(said(clicked)) and other.mention in said(clicked).content
    again = await acting.click(said(moved), label="End activation")
    assert again.ephemeral and "expired" in said(again).content


async def test_buttons_survive_a_restart_and_refuse_other_members(
    world: World, bots: list[SkirmBot]
) -> None:
    await world.started()
    acting, _, unit = await world.turn()
    moved = await acting.slash(
        world.channel, "move", unit=unit, square=next(iter(await world.reachable(unit)))
    )
    world.bot = make_bot(world.db, seed_source=lambda: SEED, run_timers=False)
    bots.append(world.bot)
    await world.env.restart_bot(world.bot)
    nosy = await world.eve.click(said(moved), label="End activation")
    assert nosy.ephemeral and "These buttons are for alice and bob" in said(nosy).content
    clicked = await acting.click(said(moved), label="End activation")
    assert not clicked.ephemeral and "activation ends" in said(clicked).content


async def test_a_button_of_an_ended_match_says_so(world: World) -> None:
    await world.started()
    acting, _, unit = await world.turn()
    moved = await acting.slash(
        world.channel, "move", unit=unit, square=next(iter(await world.reachable(unit)))
    )
    aborted = await world.admin.slash(world.channel, "match abort")
    assert "aborted" in said(aborted).content
    stale = await acting.click(said(moved), label="End activation")
    assert stale.ephemeral and "belongs to a match that has ended" in said(stale).content


# --- managing --------------------------------------------------------------------------------
async def test_abort_is_for_moderators_only(world: World) -> None:
    await world.started()
    refused = await world.alice.slash(world.channel, "match abort")
    assert refused.ephemeral and "Only moderators" in said(refused).content
    mods = world.guild.create_role("Skirm mods")
    mod = world.guild.add_member(world.env.create_user("mod"), roles=[mods])
    not_admin = await world.alice.slash(world.channel, "match modrole", role=mods)
    assert not_admin.ephemeral and "Manage Server" in said(not_admin).content
    named = await world.admin.slash(world.channel, "match modrole", role=mods)
    assert named.ephemeral and mods.mention in said(named).content
    aborted = await mod.slash(world.channel, "match abort")
    assert not aborted.ephemeral and "aborted by mod" in said(aborted).content


async def test_concede_asks_for_confirmation(world: World) -> None:
    await world.started()
    asked = await world.alice.slash(world.channel, "match concede")
    assert asked.ephemeral and "Concede match" in said(asked).content
    assert await world.bot.store.active_match(world.channel.id) is not None, "nothing yet"
    conceded = await world.alice.click(said(asked), label="Concede the match")
    assert not conceded.ephemeral and said(conceded).content
    assert await world.bot.store.active_match(world.channel.id) is None


async def test_export_returns_the_record_as_a_file(world: World) -> None:
    """Issue 11: mid-match, the export is the record so far, only for the asker (moderators
    too), with the faces rolled so far instead of the dice key."""
    await world.started()
    for asker in (world.bob, world.admin):
        early = await asker.slash(world.channel, "match export")
        assert early.ephemeral and "for you only" in said(early).content
        [attachment] = said(early).attachments
        assert attachment.filename.endswith("-so-far.json")
        data = json.loads(await attachment.read())
        assert set(data["dice"]) == {"script"}


async def test_status_log_and_card(world: World) -> None:
    await world.started()
    status = await world.eve.slash(world.channel, "match status")
    assert not status.ephemeral and pngs(said(status)) and "turn 1" in said(status).content
    log = await world.alice.slash(world.channel, "match log", count=5)
    assert log.ephemeral and said(log).content
    units = await world.alice.autocomplete(world.channel, "match card", "unit", "hal")
    assert [c["value"] for c in units] == ["Halden"]
    card = await world.alice.slash(world.channel, "match card", unit="Halden")
    assert card.ephemeral and pngs(said(card))


async def test_an_unexpected_error_is_logged_and_answered_with_an_apology(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await world.started()

    async def broken(channel_id: int) -> None:
        raise RuntimeError("the picture machine is on fire")

    monkeypatch.setattr(world.bot.service, "status", broken)
    with caplog.at_level(logging.ERROR, logger="skirmbot.discord"):
        result = await world.bob.slash(world.channel, "match status")
    assert result.ephemeral and said(result).content.startswith("Sorry, something went wrong")
    [record] = [r for r in caplog.records if r.name == "skirmbot.discord"]
    assert "/match status by bob" in record.getMessage()
    assert str(world.channel.id) in record.getMessage()
    assert record.exc_info is not None and "on fire" in str(record.exc_info[1])


async def test_a_slow_answer_is_deferred_then_posted(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.started()

    async def slow(channel_id: int) -> Reply:
        await asyncio.sleep(5)  # past DEFER_AFTER: Discord would drop an unanswered interaction
        return Reply("Here is the map.", picture=PNG)

    monkeypatch.setattr(skirmbot.cogs.common, "DEFER_AFTER", 0.01)  # keep the test quick
    monkeypatch.setattr(world.bot.service, "status", slow)
    result = await world.bob.slash(world.channel, "match status")
    await world.env.advance_time(6)
    assert deferred(world.env) and not result.ephemeral
    assert said(result).content == "Here is the map." and pngs(said(result))


async def test_a_slow_refusal_after_a_public_deferral_is_still_private(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.started()

    async def slow_refusal(channel_id: int) -> Reply:
        await asyncio.sleep(5)
        raise ServiceError("Not now.")

    monkeypatch.setattr(skirmbot.cogs.common, "DEFER_AFTER", 0.01)  # keep the test quick
    monkeypatch.setattr(world.bot.service, "status", slow_refusal)
    result = await world.bob.slash(world.channel, "match status")
    await world.env.advance_time(6)
    assert deferred(world.env)
    assert result.response is None, "the public stand-in is gone"
    [refusal] = result.followups
    assert refusal.ephemeral and refusal.content == "Not now."


async def test_a_slow_turn_change_still_pings_with_a_new_message(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.started()

    async def slow(channel_id: int) -> Reply:
        await asyncio.sleep(5)
        return Reply("Your turn.", ping=world.alice.id)

    monkeypatch.setattr(skirmbot.cogs.common, "DEFER_AFTER", 0.01)  # keep the test quick
    monkeypatch.setattr(world.bot.service, "status", slow)
    result = await world.bob.slash(world.channel, "match status")
    await world.env.advance_time(6)
    assert deferred(world.env) and result.response is None, "the edited stand-in is gone"
    [turn] = result.followups
    assert [user.id for user in turn.message.mentions] == [world.alice.id]


class Waiting(Admission):
    """The service's admission, its queue's wait declared to simcord (which would otherwise
    take a command waiting for a slot for a bot that never settles)."""

    def __init__(self, env: simcord.Env, running: int, waiting: int) -> None:
        super().__init__(running, waiting)
        self.env = env

    async def enter(self) -> None:
        if self.in_flight < self.running:
            await super().enter()
        else:
            await self.env.external_wait(super().enter(), reason="a slot in the queue")


async def test_a_command_that_waits_in_the_queue_is_deferred_then_answered(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under overload a player's command waits its turn (issue 32): "thinking..." first, so
    Discord never says the application did not respond, then the result."""
    await world.started()
    acting, _, unit = await world.turn()
    await acting.slash(world.channel, "activate", unit=unit)
    before = await world.commands()
    admission = world.bot.service.live.admission = Waiting(world.env, running=1, waiting=5)
    monkeypatch.setattr(skirmbot.cogs.common, "DEFER_AFTER", 0.01)  # keep the test quick
    await admission.enter()  # another player's unit of work holds the one slot
    result = await acting.slash(world.channel, "end")
    assert deferred(world.env) and await world.commands() == before, "waiting, not yet done"
    admission.leave()  # the other unit of work ends: the slot is the waiting command's
    await world.env.advance_time(1)
    [answer] = result.followups  # (a new message, not the stand-in: it pings the next player)
    assert not answer.ephemeral and "activation ends" in answer.content
    assert await world.commands() == before + 1


async def test_past_the_queue_a_command_is_refused_in_words_and_changes_nothing(
    world: World,
) -> None:
    await world.started()
    acting, _, _ = await world.turn()
    before = await world.commands()
    admission = world.bot.service.live.admission = Admission(running=1, waiting=0)
    await admission.enter()  # every slot taken and no room to wait
    try:
        result = await acting.slash(world.channel, "end")
    finally:
        admission.leave()
    assert result.ephemeral and said(result).content == OVERLOADED
    assert await world.commands() == before


# --- turn timers (issue 5) -------------------------------------------------------------------
async def test_match_new_takes_time_controls_and_timer_show_shows_the_clock(world: World) -> None:
    created = await world.alice.slash(
        world.channel, "match new", opponent=world.bob, hours=6, excuses=1
    )
    assert (
        "6 hours per activation" in said(created).content
        and "1 excused miss each" in said(created).content
    )
    await world.bob.slash(world.channel, "match join")
    await world.alice.slash(world.channel, "match squad", name="iron-wardens")
    await world.bob.slash(world.channel, "match squad", name="ash-runners")
    shown = await world.eve.slash(world.channel, "timer show")
    assert "Waiting for both squads' deployment: time runs out <t:" in said(shown).content


async def test_a_reminder_is_posted_in_the_channel_or_sent_by_direct_message(world: World) -> None:
    await world.started()
    acting, _, _ = await world.turn()
    row = await world.bot.store.active_match(world.channel.id)
    assert row is not None
    deadline = await world.bot.store.deadline(row.id)
    assert deadline is not None and deadline.kind == "remind"
    await world.bot.on_deadline(row.id, deadline)
    await world.env.settle()
    last = world.channel.last_message
    assert last is not None and "⏰" in last.content and acting.mention in last.content
    chosen = await acting.slash(world.channel, "timer reminders", by_dm=True)
    assert chosen.ephemeral and "direct message" in said(chosen).content
    await world.bot.on_deadline(row.id, deadline)  # the same reminder again: now by DM
    await world.env.settle()
    assert world.channel.last_message is not None and world.channel.last_message.id == last.id
    dms = acting.user.dm_channel.history()
    assert dms and "⏰" in dms[-1].content and f"<#{world.channel.id}>" in dms[-1].content


async def test_a_miss_is_posted_with_the_picture_and_the_next_ping(world: World) -> None:
    await world.started()
    acting, other, _ = await world.turn()
    row = await world.bot.store.active_match(world.channel.id)
    assert row is not None
    key = row.setup["clock"]["key"]
    from skirmbot.store import Deadline

    await world.bot.on_deadline(row.id, Deadline(0.0, "miss", key))
    await world.env.settle()
    last = world.channel.last_message
    assert (
        last is not None and "missed the deadline" in last.content and other.mention in last.content
    )
    assert pngs(last)  # type: ignore[arg-type]


# --- stored squads (issue 6: campaigns) -------------------------------------------------------
async def test_a_stored_squad_is_saved_listed_and_fielded_as_my_name(world: World) -> None:
    wardens = json.dumps(content.raw("squads", "iron-wardens")).encode()
    saved = await world.alice.slash(
        world.channel, "squad save", file=("wardens.json", wardens), name="Wardens"
    )
    assert saved.ephemeral and "my:Wardens" in said(saved).content
    listed = await world.alice.slash(world.channel, "squad list")
    assert listed.ephemeral and "my:Wardens" in said(listed).content
    await world.alice.slash(world.channel, "match new", opponent=world.bob)
    offered = await world.alice.autocomplete(world.channel, "match squad", "name", "war")
    assert "my:Wardens" in [choice["value"] for choice in offered]
    fielded = await world.alice.slash(world.channel, "match squad", name="my:Wardens")
    assert "fields **Iron Wardens**" in said(fielded).content


# --- seats (issue 29) ------------------------------------------------------------------------
async def test_match_new_takes_the_number_of_players_and_joining_fills_the_open_seat(
    world: World,
) -> None:
    created = await world.alice.slash(world.channel, "match new", players=2)
    assert "anyone may join as squad 2" in said(created).content
    joined = await world.bob.slash(world.channel, "match join")
    assert "bob joins as squad 2" in said(joined).content
    full = await world.eve.slash(world.channel, "match join")
    assert full.ephemeral and "already has two players" in said(full).content
    status = await world.eve.slash(world.channel, "match status")
    assert "Squad 1: alice" in said(status).content and "Squad 2: bob" in said(status).content
