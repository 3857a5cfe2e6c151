"""Managing a match (issue 11): draw offers lapse, the opponent agrees to an undo with one click,
/match card offers both squads' units during the deployment, and the "Spend TO" commands kept
in the settings go when their match ends.
"""

from __future__ import annotations

import pytest
import simcord
import test_cogs
from service_setup import ALICE, BOB, CHANNEL, GUILD, started
from test_cogs import SEED, World, buttons, said

from skirmbot.bot import SkirmBot, make_bot
from skirmbot.rules import commands
from skirmbot.service import MatchService, Member, ServiceError
from skirmbot.store import Store

# The fixtures the cog tests use: a bot on simcord, Alice, Bob, Eve and an admin in a channel.
bots, simcord_bot, world = test_cogs.bots, test_cogs.simcord_bot, test_cogs.world

HOUR = 3600.0


class Clock:
    """The service's clock, moved on by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: Store, clock: Clock) -> MatchService:
    return MatchService(store, seed_source=lambda: 1234, clock=clock)


async def players(service: MatchService) -> tuple[Member, Member]:
    """(the member to act now, the other one)."""
    row, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    acting = ALICE if row.players[match.state.to_act] == ALICE.id else BOB
    return acting, BOB if acting is ALICE else ALICE


async def take_activation(service: MatchService, member: Member) -> None:
    """`member` activates one ready unit and ends its activation at once."""
    _, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    unit = match.state.ready_units(match.state.to_act)[0].id
    await service.act(CHANNEL, member, commands.Activate(0, unit))
    await service.act(CHANNEL, member, commands.EndActivation(0))


async def status(service: MatchService) -> str | None:
    row = await service.store.active_match(CHANNEL)
    return None if row is None else row.status


# --- draw offers lapse -----------------------------------------------------------------------
async def test_a_draw_offer_stands_for_up_to_24_hours(service: MatchService, clock: Clock) -> None:
    await started(service)
    offered = await service.accept_draw(CHANNEL, ALICE)  # no offer yet: Alice offers one
    assert "offers a draw" in offered.text and "24 hours" in offered.text
    assert offered.choices == ["draw"]
    clock.now += 23 * HOUR
    agreed = await service.accept_draw(CHANNEL, BOB)
    assert agreed.match_over and await status(service) is None


async def test_a_draw_offer_lapses_after_24_hours(service: MatchService, clock: Clock) -> None:
    await started(service)
    await service.offer_draw(CHANNEL, ALICE)
    clock.now += 24 * HOUR + 1
    with pytest.raises(ServiceError, match="lapsed"):
        await service.accept_draw(CHANNEL, BOB, offer_if_none=False)  # the button
    instead = await service.accept_draw(CHANNEL, BOB)  # /match draw: Bob offers in turn
    assert "lapsed" in instead.text and "Bob offers a draw" in instead.text
    assert not instead.match_over and await status(service) == "playing"
    with pytest.raises(ServiceError, match="You offered the draw"):
        await service.accept_draw(CHANNEL, BOB)
    assert (await service.accept_draw(CHANNEL, ALICE)).match_over


async def test_a_draw_offer_lapses_at_the_offerers_next_activation(
    service: MatchService,
) -> None:
    await started(service)
    acting, waiting = await players(service)
    await service.offer_draw(CHANNEL, waiting)
    await take_activation(service, acting)  # the other player's activation: the offer stands
    row, match = await service.view(CHANNEL)
    assert match is not None and row.players[match.state.to_act or 0] == waiting.id
    await take_activation(service, waiting)  # the offerer's next activation: it lapses
    with pytest.raises(ServiceError, match="lapsed"):
        await service.accept_draw(CHANNEL, acting, offer_if_none=False)
    assert await status(service) == "playing"


async def test_a_draw_offer_survives_the_other_players_activation(
    service: MatchService,
) -> None:
    await started(service)
    acting, waiting = await players(service)
    await service.offer_draw(CHANNEL, waiting)
    await take_activation(service, acting)
    assert (await service.accept_draw(CHANNEL, acting)).match_over


async def test_a_draw_offered_during_the_deployment_lapses_at_the_first_activation(
    service: MatchService,
) -> None:
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.offer_draw(CHANNEL, ALICE)
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    acting, _ = await players(service)
    if acting is BOB:
        await take_activation(service, BOB)  # not the offerer's activation
    await take_activation(service, ALICE)
    with pytest.raises(ServiceError, match="lapsed"):
        await service.accept_draw(CHANNEL, BOB, offer_if_none=False)


async def test_the_accept_draw_button_of_a_lapsed_offer_offers_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.started()
    offered = await world.alice.slash(world.channel, "match draw")
    assert [b["label"] for b in buttons(said(offered))] == ["Accept draw"]
    later = world.bot.service.now() + 25 * HOUR
    monkeypatch.setattr(world.bot.service, "now", lambda: later)
    clicked = await world.bob.click(said(offered), label="Accept draw")
    assert clicked.ephemeral and "lapsed" in said(clicked).content
    row = await world.bot.store.active_match(world.channel.id)
    assert row is not None and row.status == "playing" and "draw_offer" in row.setup


# --- undo: the opponent agrees with one click ---------------------------------------------------
async def moved(world: World) -> tuple[simcord.MemberActor, simcord.MemberActor]:
    acting, other, unit = await world.turn()
    square = min((cost, s) for s, cost in (await world.reachable(unit)).items())[1]
    result = await acting.slash(world.channel, "move", unit=unit, square=square)
    assert not result.ephemeral, said(result).content
    return acting, other


async def test_the_opponent_agrees_to_an_undo_with_the_button(world: World) -> None:
    await world.started()
    before = await world.commands()
    acting, other = await moved(world)
    asked = await acting.slash(world.channel, "match undo")
    assert not asked.ephemeral and other.mention in said(asked).content
    own = await acting.click(said(asked), label="Agree to undo")
    assert own.ephemeral and await world.commands() == before + 1, "not their own request"
    agreed = await other.click(said(asked), label="Agree to undo")
    assert not agreed.ephemeral and "taken back" in said(agreed).content
    assert await world.commands() == before


async def test_the_undo_button_survives_a_restart(world: World, bots: list[SkirmBot]) -> None:
    await world.started()
    before = await world.commands()
    acting, other = await moved(world)
    asked = await acting.slash(world.channel, "match undo")
    world.bot = make_bot(world.db, seed_source=lambda: SEED, run_timers=False)
    bots.append(world.bot)
    await world.env.restart_bot(world.bot)
    agreed = await other.click(said(asked), label="Agree to undo")
    assert not agreed.ephemeral and "taken back" in said(agreed).content
    assert await world.commands() == before


async def test_an_old_undo_button_does_not_agree_to_a_later_request(world: World) -> None:
    await world.started()
    before = await world.commands()
    acting, other = await moved(world)
    first = await acting.slash(world.channel, "match undo")
    await other.click(said(first), label="Agree to undo")
    await moved(world)  # the same move again, the same number of commands
    second = await acting.slash(world.channel, "match undo")
    stale = await other.click(said(first), label="Agree to undo")
    assert stale.ephemeral and "expired" in said(stale).content
    assert await world.commands() == before + 1, "the second request still waits"
    agreed = await other.click(said(second), label="Agree to undo")
    assert not agreed.ephemeral and await world.commands() == before


# --- /match card during the deployment ----------------------------------------------------------
async def test_card_autocomplete_offers_both_squads_units_during_the_deployment(
    world: World,
) -> None:
    await world.alice.slash(world.channel, "match new", opponent=world.bob)
    await world.bob.slash(world.channel, "match join")
    assert await world.alice.autocomplete(world.channel, "match card", "unit", "") == []
    await world.alice.slash(world.channel, "match squad", name="iron-wardens")
    await world.bob.slash(world.channel, "match squad", name="ash-runners")
    await world.alice.slash(world.channel, "deploy", auto=True)
    offered = await world.bob.autocomplete(world.channel, "match card", "unit", "")
    names = {choice["name"] for choice in offered}
    assert any("(Iron Wardens)" in name for name in names)
    assert any("(Ash Runners)" in name for name in names)
    halden = await world.bob.autocomplete(world.channel, "match card", "unit", "hal")
    assert [c["value"] for c in halden] == ["Halden"]


# --- saved "Spend TO" commands go with their match -----------------------------------------------
async def test_saved_spend_commands_go_when_the_match_ends(service: MatchService) -> None:
    store = service.store
    await started(service)
    row = await store.active_match(CHANNEL)
    assert row is not None
    other = await store.create_match(
        GUILD, CHANNEL + 1, [ALICE.id, BOB.id], ["Alice", "Bob"], {}, {}
    )
    await store.set_setting(GUILD, f"spend:{row.id}:{ALICE.id}", '["move","Halden","C4",1]')
    await store.set_setting(GUILD, f"spend:{other.id}:{ALICE.id}", '["end",null,0]')
    await store.set_setting(GUILD, "moderator_role", "77")
    await service.concede(CHANNEL, ALICE)
    assert await store.get_setting(GUILD, f"spend:{row.id}:{ALICE.id}") is None
    assert await store.get_setting(GUILD, f"spend:{other.id}:{ALICE.id}") is not None
    assert await store.get_setting(GUILD, "moderator_role") == "77"


async def test_old_saved_spend_commands_are_swept_at_start_up(
    world: World, bots: list[SkirmBot]
) -> None:
    await world.started()
    store = world.bot.store
    row = await store.active_match(world.channel.id)
    assert row is not None
    guild = world.guild.id
    ended = await store.create_match(guild, 1, [1, 2], ["a", "b"], {}, {})
    ended.status = "ended"
    await store.save_match(ended)
    # Left from before matches cleaned up after themselves: an ended match's, and a gone one's.
    for key in (f"spend:{ended.id}:1", "spend:999:1", f"spend:{row.id}:{world.alice.id}"):
        await store.set_setting(guild, key, '["end",null,0]')
    world.bot = make_bot(world.db, seed_source=lambda: SEED, run_timers=False)
    bots.append(world.bot)
    await world.env.restart_bot(world.bot)
    store = world.bot.store
    assert await store.get_setting(guild, f"spend:{ended.id}:1") is None
    assert await store.get_setting(guild, "spend:999:1") is None
    assert await store.get_setting(guild, f"spend:{row.id}:{world.alice.id}") is not None
    assert await store.sweep_match_settings() == 0
