"""The "your move" inbox (issue 34) at the service: a player's matches in every server, those
waiting on them first (soonest deadline first, with the time left and a link), then the others
(whose turn, the score); a list longer than one message cut with "and N more"; a match named
from anywhere found only among the asker's own matches in progress."""

from __future__ import annotations

import pytest
from service_setup import ALICE, BOB, EVE, GUILD, MOD, started
from test_timers import FakeClock

from skirmbot.service import MatchService, NotAllowed, ServiceError, inbox
from skirmbot.service.replies import when
from skirmbot.store import Store
from skirmbot.timers.clock import HOUR, TimeControls

OTHER_GUILD = 901
LINK = "https://discord.com/channels"


def service_on(store: Store) -> tuple[MatchService, FakeClock]:
    clock = FakeClock()
    return MatchService(store, seed_source=lambda: 77, clock=clock), clock


async def practice(service: MatchService, guild: int, channel: int, hours: int) -> None:
    """Alice against the automatic player, deployed: her turn, `hours` on the clock."""
    controls = TimeControls(activation_seconds=hours * HOUR)
    await service.create(guild, channel, ALICE, practice=True, controls=controls)
    await service.choose_squad(channel, ALICE, "iron-wardens")
    await service.deploy(channel, ALICE)


def listed(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


async def test_waiting_on_you_first_soonest_deadline_first_with_links(store: Store) -> None:
    service, clock = service_on(store)
    await practice(service, GUILD, 501, hours=10)
    await practice(service, OTHER_GUILD, 502, hours=2)  # sooner, on the other server
    # A challenge Bob joined, Alice's squad picked: it waits on Bob.
    await service.create(GUILD, 503, ALICE, opponent=BOB)
    await service.join(503, BOB)
    await service.choose_squad(503, ALICE, "iron-wardens")

    reply = await inbox.inbox(service.live, ALICE.id)
    assert reply.private
    first, second, third = listed(reply.text)
    assert first.startswith("- #2 ") and first.endswith(f"{LINK}/{OTHER_GUILD}/502"), first
    assert f"time runs out {when(clock.now + 2 * HOUR)}" in first, first
    assert second.startswith("- #1 ") and second.endswith(f"{LINK}/{GUILD}/501"), second
    assert f"time runs out {when(clock.now + 10 * HOUR)}" in second, second
    assert "v the automatic player: your turn" in first, first
    assert (
        third == f"- #3 Hold the Line v Bob: waiting for Bob to pick a squad. {LINK}/{GUILD}/503"
    ), third
    assert reply.text.index("Waiting on you (2)") < reply.text.index(first)
    assert reply.text.index("Your other matches (1)") < reply.text.index(third)

    # Bob sees the one that waits on him, and what it waits for.
    bobs = await inbox.inbox(service.live, BOB.id)
    assert listed(bobs.text) == [
        f"- #3 Hold the Line v Alice: pick your squad (/match squad). {LINK}/{GUILD}/503"
    ]
    # Someone in no match is told how to start one.
    assert (await inbox.inbox(service.live, EVE.id)).text == inbox.NOTHING


async def test_the_others_say_whose_turn_and_the_score(store: Store) -> None:
    service, _ = service_on(store)
    await started(service, channel=504)
    row, match = await service.view(504)
    assert match is not None and match.state.to_act is not None
    acting = row.players[match.state.to_act]
    idle = BOB if acting == ALICE.id else ALICE
    [line] = listed((await inbox.inbox(service.live, idle.id)).text)
    name = row.names[match.state.to_act]
    assert f": waiting for {name}; turn 1, score 0-0. {LINK}/{GUILD}/504" in line, line
    [theirs] = listed((await inbox.inbox(service.live, int(acting or 0))).text)
    assert ": your turn, time runs out " in theirs, theirs


async def test_a_long_list_ends_with_how_many_more(store: Store) -> None:
    service, _ = service_on(store)
    for channel in range(600, 606):
        await service.create(GUILD, channel, ALICE, opponent=BOB)
    whole = await inbox.inbox(service.live, ALICE.id)
    assert len(listed(whole.text)) == 6 and "more" not in whole.text
    cut = await inbox.inbox(service.live, ALICE.id, limit=260)
    shown = listed(cut.text)
    assert 0 < len(shown) < 6 and len(cut.text) <= 260, cut.text
    assert cut.text.endswith(f"… and {6 - len(shown)} more matches"), cut.text


async def test_a_named_match_is_one_of_the_askers_in_progress(store: Store) -> None:
    service, _ = service_on(store)
    await practice(service, GUILD, 501, hours=10)
    await service.create(GUILD, 503, BOB, opponent=EVE)
    row = await inbox.named_match(service.live, ALICE.id, 1)
    assert (row.id, row.channel_id) == (1, 501)
    with pytest.raises(NotAllowed, match="You do not play in match #2"):
        await inbox.named_match(service.live, ALICE.id, 2)
    with pytest.raises(ServiceError, match="There is no match #9 in progress"):
        await inbox.named_match(service.live, ALICE.id, 9)
    await service.abort(501, MOD)
    with pytest.raises(ServiceError, match="There is no match #1 in progress"):
        await inbox.named_match(service.live, ALICE.id, 1)


async def test_the_match_option_offers_the_askers_matches_by_what_they_type(store: Store) -> None:
    service, _ = service_on(store)
    await practice(service, GUILD, 501, hours=10)
    await service.create(GUILD, 503, ALICE, opponent=BOB)
    await service.join(503, BOB)
    offered = await inbox.match_choices(service.live, ALICE.id, "")
    assert [match_id for _, match_id in offered] == [1, 2]
    assert offered[1][0] == "#2 Hold the Line v Bob"
    assert offered[0][0].startswith("#1 ") and offered[0][0].endswith(" v the automatic player")
    assert await inbox.match_choices(service.live, ALICE.id, "bob") == [
        ("#2 Hold the Line v Bob", 2)
    ]
    assert await inbox.match_choices(service.live, BOB.id, "") == [("#2 Hold the Line v Alice", 2)]
