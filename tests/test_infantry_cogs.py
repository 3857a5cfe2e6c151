"""/arc and /throw, the infantry rules' own slash commands, offline with simcord (the real bot,
cogs, service and store): the options as sent, autocomplete from the ruleset's choices, and a
match of another ruleset refusing them in words."""

from __future__ import annotations

from typing import Any

import simcord
import test_cogs
from test_cogs import World, said

# The fixtures the cog tests use: a bot on simcord, Alice, Bob, Eve and an admin in a channel.
bots, simcord_bot, world = test_cogs.bots, test_cogs.simcord_bot, test_cogs.world


async def started(world: World) -> None:
    """Alice and Bob, a match of the infantry rules, deployed by the bot."""
    channel = world.channel
    await world.alice.slash(channel, "match new", opponent=world.bob, ruleset="infantry",
                            mission="firefight")  # fmt: skip
    await world.bob.slash(channel, "match join")
    await world.alice.slash(channel, "match squad", name="riflemen")
    await world.bob.slash(channel, "match squad", name="laser-team")
    await world.alice.slash(channel, "deploy", auto=True)
    await world.bob.slash(channel, "deploy", auto=True)


async def state(world: World) -> Any:
    _, match = await world.bot.service.view(world.channel.id)
    assert match is not None
    return match.state


async def acting(world: World) -> tuple[simcord.MemberActor, int, str]:
    """The player to act, their seat, and their first trooper."""
    row, _ = await world.bot.service.view(world.channel.id)
    now = await state(world)
    seat = now.to_act
    return world.member(row.players[seat]), seat, now.troopers_of(seat)[0].id


async def last_command(world: World) -> dict[str, Any]:
    row = await world.bot.store.active_match(world.channel.id)
    assert row is not None
    found: dict[str, Any] = row.record["commands"][-1]
    return found


async def test_arc_sends_its_width_facing_order_and_count(world: World) -> None:
    """Firing Arcs ¶1: an arc "can be oriented in any direction"; its order is our ruling
    (docs/plans/infantry.md §3): first 2 fires at the first two enemies only."""
    await started(world)
    member, seat, unit = await acting(world)
    result = await member.slash(world.channel, "arc", unit=unit, width=30, toward="f4",
                                order="first", count=2)  # fmt: skip
    assert "30-degree firing arc toward F4" in said(result).content
    assert "first 2" in said(result).content
    assert await last_command(world) == {
        "type": "arc", "side": seat, "unit": unit, "width": 30, "toward": "F4", "order": "first",
        "n": 2,
    }  # fmt: skip


async def test_arc_the_rules_refuse_is_refused_privately_and_nothing_is_recorded(
    world: World,
) -> None:
    """Firing Arcs ¶1: "a 30 degree, 60 degree, or 150 degree firing arc", no other."""
    await started(world)
    member, _, unit = await acting(world)
    before = await world.commands()
    result = await member.slash(world.channel, "arc", unit=unit, width=45, toward="F4")
    assert result.ephemeral and "30, 60 or 150 degrees" in said(result).content
    assert await world.commands() == before


async def test_throw_sends_its_target_and_level(world: World) -> None:
    """Explosives ¶1: a grenade is thrown at a dot; the rifle active, the rules say what to do
    first (change to the grenade, 3 AP), and nothing is recorded."""
    await started(world)
    member, _, unit = await acting(world)
    before = await world.commands()
    refused = await member.slash(world.channel, "throw", unit=unit, target="C5", level=1)
    assert refused.ephemeral and "change to an explosive first" in said(refused).content
    assert await world.commands() == before


async def test_arc_autocomplete_offers_widths_with_shots_dots_and_orders(world: World) -> None:
    """The width with its AP and shots (Firing Arc AP Costs table), the enemies' dots first
    with who stands there, and the four orders in a few words."""
    await started(world)
    member, _, unit = await acting(world)
    widths = await member.autocomplete(world.channel, "arc", "width", "", unit=unit)
    assert [c["value"] for c in widths] == [30, 60, 150]
    assert "1 shot)" in widths[0]["name"]
    toward = await member.autocomplete(world.channel, "arc", "toward", "", unit=unit)
    now = await state(world)
    enemies = {t.id for t in now.troopers if t.seat != now.to_act}
    assert any(name in toward[0]["name"] for name in enemies) and len(toward) == 25
    orders = await member.autocomplete(world.channel, "arc", "order", "", unit=unit)
    assert [c["value"] for c in orders] == ["every", "first", "short", "hold"]
    assert orders[0]["name"] == "every: fire at each chance while shots last"


async def test_arc_and_throw_in_a_skirm_match_say_there_is_no_such_action(world: World) -> None:
    """A ruleset's own command sent where the match's ruleset lacks it is refused in words."""
    await world.started()
    acting, _, unit = await world.turn()
    arc = await acting.slash(world.channel, "arc", unit=unit, width=60, toward="C5")
    assert arc.ephemeral and said(arc).content == "There is no 'arc' action in Skirm."
    thrown = await acting.slash(world.channel, "throw", unit=unit, target="C5")
    assert thrown.ephemeral and said(thrown).content == "There is no 'throw' action in Skirm."
