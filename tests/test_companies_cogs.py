"""The group rules' options of the slash commands, offline with simcord (the real bot, cogs,
service and store): /move's `models`, /standing's interrupt orders, /act's orders in the
rulebook's words, /end ending a player's part of the turn."""

from __future__ import annotations

from typing import Any

import simcord
import test_cogs
from test_cogs import World, said

from skirmbot.rules.companies import orders
from skirmbot.service import Member, actions

# The fixtures the cog tests use: a bot on simcord, Alice, Bob, Eve and an admin in a channel.
bots, simcord_bot, world = test_cogs.bots, test_cogs.simcord_bot, test_cogs.world


async def started(world: World) -> None:
    """Alice and Bob, a 1 v 1 of the group rules, deployed by the bot, ambitions chosen."""
    channel = world.channel
    await world.alice.slash(channel, "match new", opponent=world.bob, ruleset="companies",
                            mission="clash")  # fmt: skip
    await world.bob.slash(channel, "match join")
    await world.alice.slash(channel, "match squad", name="hill-wardens")
    await world.bob.slash(channel, "match squad", name="river-guard")
    await world.alice.slash(channel, "deploy", auto=True)
    await world.bob.slash(channel, "deploy", auto=True)
    for member in (world.alice, world.bob):
        value = next(v for v, words in await menu(world, member) if "Ambition: Glory" in words)
        chosen = await member.slash(channel, "act", action=value)
        assert "chooses its ambition: Glory" in said(chosen).content


async def menu(world: World, member: simcord.MemberActor) -> list[tuple[str, str]]:
    asker = Member(member.id, member.name)
    found = await world.bot.service.situation(world.channel.id, asker)
    return found.own_actions(actions.COMMON_KINDS)


async def state(world: World) -> Any:
    _, match = await world.bot.service.view(world.channel.id)
    assert match is not None
    return match.state


async def acting(world: World) -> tuple[simcord.MemberActor, int]:
    row, _ = await world.bot.service.view(world.channel.id)
    seat = (await state(world)).active
    return world.member(row.players[seat]), seat


async def last_command(world: World) -> dict[str, Any]:
    row = await world.bot.store.active_match(world.channel.id)
    assert row is not None
    found: dict[str, Any] = row.record["commands"][-1]
    return found


async def test_move_with_models_sends_each_models_square(world: World) -> None:
    await started(world)
    member, seat = await acting(world)
    now = await state(world)
    group = next(g for g in now.groups_of(seat) if orders.move_squares(now, g))
    moved = " ".join(str(s) for s in next(iter(orders.move_squares(now, group).values())))
    result = await member.slash(world.channel, "move", unit=group.id, square=moved.split()[0],
                                models=moved.lower())  # fmt: skip
    assert f"{group.id} tests to Move" in said(result).content
    assert (await last_command(world))["models"] == moved


async def test_standing_takes_the_group_rules_interrupt_orders_privately(world: World) -> None:
    await started(world)
    result = await world.bob.slash(world.channel, "match standing", defiant=False, prompt=True)
    assert result.ephemeral and "asks to be prompted" in said(result).content
    assert await last_command(world) == {
        "type": "standing_orders", "side": 1, "defiant": False, "elusive": True, "prompt": True
    }  # fmt: skip
    refused = await world.bob.slash(world.channel, "match standing", defend=2)
    assert refused.ephemeral
    assert "Companies' standing orders take defiant, elusive and prompt" in said(refused).content


async def test_act_lists_end_turn_and_end_ends_the_players_part(world: World) -> None:
    await started(world)
    member, seat = await acting(world)
    words = [w for _, w in await menu(world, member)]
    assert "End turn" in words
    ended = await member.slash(world.channel, "end")
    assert "ends its part of the turn" in said(ended).content
    assert (await state(world)).active == 1 - seat
