"""Vacation (issue 21): `/timer vacation days:` stops a player's clocks in a server's matches for
whole days from now, tells each opponent until when, and counts against a yearly allowance.
Rulings: docs/rulings.md, "Clocks for people with lives". The clock is moved by hand."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, MOD
from test_timers import FakeClock, Table, playing, waiting_for

from skirmbot.rules import commands
from skirmbot.service import Member, NotAllowed, ServiceError, timing
from skirmbot.service.work import clock_stops
from skirmbot.store import Store
from skirmbot.store.copy import copy_database
from skirmbot.timers.clock import DAY, HOUR, Clock, TimeControls

START = dt.datetime(2026, 3, 2, 9, tzinfo=dt.UTC).timestamp()  # a Monday morning


async def table_waiting(store: Store) -> tuple[Table, Member, Member]:
    """A match on a 10-hour clock; the player it waits for, and the other."""
    clock = FakeClock()
    clock.now = START
    table = Table(store, clock)
    await playing(table, TimeControls(activation_seconds=10 * HOUR))
    member, _ = await waiting_for(table)
    return table, member, (BOB if member == ALICE else ALICE)


async def deadline(store: Store) -> float:
    row = await store.active_match(CHANNEL)
    assert row is not None
    return Clock.from_json(row.setup["clock"]).deadline


async def test_a_vacation_stops_the_players_clock_and_tells_the_opponent_until_when(
    store: Store,
) -> None:
    table, member, other = await table_waiting(store)
    before = await deadline(store)
    told = await timing.vacation(table.service, GUILD, member, 3)
    assert told.private and "You are on vacation for 3 days, back" in told.text
    assert "17 vacation days left this year of 20" in told.text
    [note] = told.followups
    assert note.channel == CHANNEL and note.ping == other.id and not note.private
    assert f"{member.name} is on vacation for 3 days, back" in note.text
    assert await deadline(store) == before + 3 * DAY
    assert "is on vacation, back" in (await timing.timer(table.service, CHANNEL)).text
    # The scheduler fires nothing while they are away: no reminder, no miss.
    assert await table.advance(3 * DAY) == []
    replies = await table.advance(10 * HOUR + 1)
    assert any(f"{member.name} missed the deadline" in r.text for r in replies)  # type: ignore[attr-defined]


async def test_ending_early_gives_back_the_whole_days_not_used(store: Store) -> None:
    """Ruling "Vacation": days:0 ends it; the whole days not begun go back to the allowance,
    and the deadline comes back by the time not taken."""
    table, member, _ = await table_waiting(store)
    before = await deadline(store)
    await timing.vacation(table.service, GUILD, member, 5)
    assert await table.advance(DAY + HOUR) == []  # into the second day: 2 used, 3 back
    back = await timing.vacation(table.service, GUILD, member, 0)
    assert "3 days went back" in back.text
    assert "is back from vacation" in back.followups[0].text
    assert await timing.vacation_days_left(table.service, GUILD, member.id) == 18
    assert await deadline(store) == before + DAY + HOUR  # the time away, not counted
    assert (await waiting_for(table))[0] == member
    with pytest.raises(ServiceError, match="You are not on vacation"):
        await timing.vacation(table.service, GUILD, member, 0)


async def test_the_allowance_is_per_calendar_year_and_set_by_moderators(store: Store) -> None:
    table, member, _ = await table_waiting(store)
    with pytest.raises(ServiceError, match="1 to 20 whole days"):
        await timing.vacation(table.service, GUILD, member, 21)
    await timing.vacation(table.service, GUILD, member, 15)
    await table.advance(HOUR)
    await timing.vacation(table.service, GUILD, member, 0)  # the day begun counts
    with pytest.raises(ServiceError, match="You have 19 vacation days left this year"):
        await timing.vacation(table.service, GUILD, member, 20)
    with pytest.raises(NotAllowed, match="Only moderators"):
        await timing.set_clock_rules(table.service, GUILD, member, vacation_days=30)
    set_to = await timing.set_clock_rules(table.service, GUILD, MOD, vacation_days=30)
    assert "30 vacation days a year" in set_to.text
    assert await timing.vacation_days_left(table.service, GUILD, member.id) == 29
    # A new calendar year (UTC) gives the whole allowance again.
    table.clock.now = dt.datetime(2027, 1, 1, tzinfo=dt.UTC).timestamp()
    assert await timing.vacation_days_left(table.service, GUILD, member.id) == 30
    assert await timing.vacation_days_left(table.service, GUILD + 1, member.id) == 20


async def test_an_activation_that_begins_during_a_vacation_starts_its_time_after_it(
    store: Store,
) -> None:
    table, member, other = await table_waiting(store)
    await timing.vacation(table.service, GUILD, other, 2)  # the one not to act goes away
    assert await deadline(store) == START + 10 * HOUR  # the player to act is not held up
    row = await store.active_match(CHANNEL)
    assert row is not None
    clock = Clock.from_json(row.setup["clock"])
    # Their opponent's clock, when it starts, waits for the vacation's end.
    stops = await clock_stops(store, row, START)
    clock.follow(
        "t9:a9:s" + str(row.players.index(other.id)), START, row.players.index(other.id), stops
    )
    assert clock.deadline == START + 2 * DAY + 10 * HOUR


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_migration_008_keeps_vacations_and_calendar_feeds(store: Store) -> None:
    """On both databases: vacations by player and server, the days of a year, feed tokens."""
    first = await store.add_vacation(GUILD, ALICE.id, 100.0, 100.0 + 3 * DAY, 3)
    await store.add_vacation(GUILD + 1, ALICE.id, 200.0, 200.0 + DAY, 1)
    assert [v.id for v in await store.vacations(GUILD, [ALICE.id, BOB.id], 150.0)] == [first.id]
    assert await store.vacation_days_used(GUILD, ALICE.id, 0.0, 1000.0) == 3
    await store.end_vacation(first.id, 120.0, 1)
    assert await store.vacations(GUILD, [ALICE.id], 150.0) == []
    assert await store.vacation_days_used(GUILD, ALICE.id, 0.0, 1000.0) == 1
    await store.set_calendar_token(ALICE.id, "a" * 32)
    assert await store.calendar_owner("a" * 32) == ALICE.id
    await store.set_calendar_token(ALICE.id, "b" * 32)
    assert await store.calendar_owner("a" * 32) is None
    assert await store.calendar_token(ALICE.id) == "b" * 32


async def test_skirmbot_db_copy_takes_vacations_and_feeds_to_postgresql(
    tmp_path: Path, postgres_url: str
) -> None:
    """Migration 008's tables move with `skirmbot db copy`, and a vacation added afterwards
    gets a fresh id (the identity moved past the copied ones)."""
    original = tmp_path / "original.db"
    async with await Store.open(original) as store:
        kept = await store.add_vacation(GUILD, ALICE.id, START, START + 2 * DAY, 2)
        await store.set_calendar_token(ALICE.id, "t" * 32)
    report = await copy_database(str(original), postgres_url)
    assert report.ok, report.problems
    assert ("vacations", 1) in report.copied and ("calendar_feeds", 1) in report.copied
    async with await Store.open(postgres_url) as pg:
        assert await pg.vacations(GUILD, [ALICE.id], START) == [kept]
        assert await pg.calendar_owner("t" * 32) == ALICE.id
        later = await pg.add_vacation(GUILD, BOB.id, START, START + DAY, 1)
        assert later.id > kept.id


# --- review: every match of the player in the server, the new year, no allowance -------------
async def deploying_in(table: Table, guild: int, channel: int, hours: int = 10) -> None:
    """Alice against Eve in `channel`, both squads chosen, deploying on an `hours` clock."""
    service = table.service
    await service.create(
        guild, channel, ALICE, opponent=EVE, controls=TimeControls(activation_seconds=hours * HOUR)
    )
    await service.join(channel, EVE)
    await service.choose_squad(channel, ALICE, "iron-wardens")
    await service.choose_squad(channel, EVE, "ash-runners")


async def clock_in(store: Store, channel: int) -> Clock:
    row = await store.active_match(channel)
    assert row is not None
    return Clock.from_json(row.setup["clock"])


async def test_a_vacation_moves_every_running_clock_of_the_player_in_the_server(
    store: Store,
) -> None:
    """Ruling "Vacation": a deployment waits for either player's vacation; a paused match keeps
    the time it had and, resumed during the vacation, runs after it; another server's match
    does not stop."""
    clock = FakeClock()
    clock.now = START
    table = Table(store, clock)
    deploying_ch, paused_ch, elsewhere_ch = CHANNEL + 1, CHANNEL + 2, CHANNEL + 3
    await deploying_in(table, GUILD, deploying_ch)
    await deploying_in(table, GUILD, paused_ch)
    await deploying_in(table, GUILD + 1, elsewhere_ch, hours=7 * 24)
    await timing.pause(table.service, paused_ch, ALICE)
    await timing.pause(table.service, paused_ch, EVE)
    await table.advance(HOUR)
    told = await timing.vacation(table.service, GUILD, ALICE, 2)
    assert {note.channel for note in told.followups} == {deploying_ch, paused_ch}
    assert "stand still in 2 matches of this server" in told.text
    assert (await clock_in(store, deploying_ch)).deadline == START + 2 * DAY + 10 * HOUR
    assert (await clock_in(store, paused_ch)).paused == 10 * HOUR
    assert (await clock_in(store, elsewhere_ch)).deadline == START + 7 * DAY
    await table.advance(HOUR)
    await timing.resume(table.service, paused_ch, EVE)  # still on vacation: runs after it
    assert (await clock_in(store, paused_ch)).deadline == START + HOUR + 2 * DAY + 10 * HOUR
    assert await table.advance(DAY - 2 * HOUR) == []  # nothing due while Alice is away
    back = await timing.vacation(table.service, GUILD, ALICE, 0)
    assert "1 day went back to this year's allowance" in back.text
    now = table.clock.now
    assert (await clock_in(store, deploying_ch)).deadline == now + 9 * HOUR
    assert (await clock_in(store, paused_ch)).deadline == now + 10 * HOUR
    assert all("Time runs out" in note.text for note in back.followups)


async def test_a_vacation_across_new_year_counts_in_the_year_it_began(store: Store) -> None:
    """Ruling "Vacation": days given back from a vacation begun last year go back to last
    year's allowance, and the reply says so rather than "this year's"."""
    clock = FakeClock()
    clock.now = dt.datetime(2026, 12, 30, 12, tzinfo=dt.UTC).timestamp()
    table = Table(store, clock)
    await playing(table, TimeControls(activation_seconds=10 * HOUR))
    member, _ = await waiting_for(table)
    await timing.vacation(table.service, GUILD, member, 5)
    assert await timing.vacation_days_left(table.service, GUILD, member.id) == 15
    await table.advance(3 * DAY)  # 2 January 2027: the whole 2027 allowance is there
    assert await timing.vacation_days_left(table.service, GUILD, member.id) == 20
    back = await timing.vacation(table.service, GUILD, member, 0)
    assert "2 days went back to 2026's allowance" in back.text
    assert await timing.vacation_days_left(table.service, GUILD, member.id) == 20
    assert "2 days, back" in (await timing.vacation(table.service, GUILD, member, 2)).text


async def test_a_server_without_vacation_days_says_so(store: Store) -> None:
    table, member, _ = await table_waiting(store)
    await timing.set_clock_rules(table.service, GUILD, MOD, vacation_days=0)
    with pytest.raises(ServiceError, match="This server gives no vacation days"):
        await timing.vacation(table.service, GUILD, member, 1)
    with pytest.raises(ServiceError, match="You are not on vacation"):
        await timing.vacation(table.service, GUILD, member, 0)


async def test_a_clock_that_moves_while_a_vacation_begins_is_not_pushed_twice(
    store: Store,
) -> None:
    """The running deadlines move one match after another once the vacation is stored: a
    match whose next activation began meanwhile already counted the vacation."""
    table, member, other = await table_waiting(store)
    row = await store.active_match(CHANNEL)
    assert row is not None
    side = row.players.index(member.id)
    _, match = await table.service.view(CHANNEL)
    assert match is not None
    unit = match.state.ready_units(side)[0].id

    async def change() -> None:  # the vacation is stored, then the player to act ends
        await store.add_vacation(GUILD, other.id, START, START + 2 * DAY, 2)
        await table.service.act(CHANNEL, member, commands.EndActivation(side, unit))

    await timing._retime(table.service, [row], change, START)
    assert (await waiting_for(table))[0] == other
    assert await deadline(store) == START + 2 * DAY + 10 * HOUR  # the vacation, once
