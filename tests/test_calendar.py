"""A player's deadlines as iCalendar (issue 21): the `/timer calendar` file with its reminder
alarm, and the private feed the web pages serve (a secret address per player, renewable).
Ruling: docs/rulings.md, "Calendar"."""

from __future__ import annotations

import datetime as dt

from aiohttp.test_utils import TestClient, TestServer
from icalendar import Calendar
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, MOD
from test_league_service import Env as LeagueEnv
from test_timers import FakeClock, Table, deploying, playing, waiting_for

from skirmbot.service import timing
from skirmbot.service.calendar import Calendars
from skirmbot.service.links import PageLinks
from skirmbot.store import Store
from skirmbot.timers.clock import HOUR, TimeControls, controls_for
from skirmbot.web.app import make_app

BASE = "https://skirm.example"


def events(data: bytes) -> list[dict[str, object]]:
    """The calendar's events as plain values: start, summary, uid and the alarm's trigger."""
    found = []
    for event in Calendar.from_ical(data).walk("VEVENT"):
        [alarm] = event.walk("VALARM")
        found.append(
            {
                "start": event["dtstart"].dt,
                "summary": str(event["summary"]),
                "uid": str(event["uid"]),
                "trigger": alarm["trigger"].dt,
            }
        )
    return found


async def test_the_file_holds_the_next_deadline_with_the_bots_reminder_as_its_alarm(
    store: Store,
) -> None:
    table = Table(store, FakeClock())
    await playing(table, TimeControls(activation_seconds=10 * HOUR))
    member, _ = await waiting_for(table)
    other = 22 if member.id == 11 else 11
    calendars = Calendars(store, clock=table.clock)
    data, found = await calendars.file(member.id)
    [event] = events(data)
    due = dt.datetime.fromtimestamp(table.clock.now + 10 * HOUR, dt.UTC)
    assert event["start"] == due and found[0].at == table.clock.now + 10 * HOUR
    assert event["trigger"] == -dt.timedelta(hours=2)  # the reminder at 80% of 10 hours
    assert str(event["summary"]).startswith("Skirm: activate in match #1 vs ")
    # The clock does not wait for the opponent: nothing for them to meet.
    assert events((await calendars.file(other))[0]) == []


async def test_a_bank_deadline_and_a_deployment_are_events_too(store: Store) -> None:
    table = Table(store, FakeClock())
    calendars = Calendars(store, clock=table.clock)
    await deploying(table, controls_for("days", 24, 2, "skip", days=10))
    await table.service.deploy(CHANNEL, ALICE)
    assert events((await calendars.file(ALICE.id))[0]) == []  # Alice has deployed
    [deploy] = events((await calendars.file(BOB.id))[0])
    assert str(deploy["summary"]).startswith("Skirm: deploy in match #1")
    await table.service.deploy(CHANNEL, BOB)
    member, _ = await waiting_for(table)
    [event] = events((await calendars.file(member.id))[0])
    assert event["trigger"] == -dt.timedelta(days=1)  # a bank reminds a day before its end


async def test_the_private_feed_serves_every_deadline_and_a_new_address_retires_the_old(
    store: Store,
) -> None:
    table = Table(store, FakeClock())
    await playing(table)
    member, _ = await waiting_for(table)
    assert await Calendars(store).feed_address(member.id) is None  # no web pages: no feed
    calendars = Calendars(store, PageLinks(store, BASE + "/"))
    address = await calendars.feed_address(member.id)
    assert address is not None and address.startswith(f"{BASE}/calendar/")
    assert await calendars.feed_address(member.id) == address  # the same until renewed
    path = address.removeprefix(BASE)
    client = TestClient(TestServer(make_app(store)))
    await client.start_server()
    try:
        served = await client.get(path)
        assert served.status == 200 and served.content_type == "text/calendar"
        assert len(events(await served.read())) == 1
        renewed = await calendars.feed_address(member.id, renew=True)
        assert renewed != address
        assert (await client.get(path)).status == 404
        assert (await client.get(str(renewed).removeprefix(BASE))).status == 200
        assert (await client.get("/calendar/not-a-token-at-all.ics")).status == 404
    finally:
        await client.close()
    row = await store.active_match(CHANNEL)
    assert row is not None


async def test_an_open_league_round_is_an_event_for_each_player_with_a_game_in_it(
    store: Store,
) -> None:
    env = LeagueEnv(store)
    await env.league()
    await env.sign(3)  # two play, one has the bye
    await env.start()
    games = await store.league_games(await env.league_id(), 1)
    [game] = [g for g in games if g.second is not None]
    [bye] = [g for g in games if g.second is None]
    [number] = await store.league_rounds(await env.league_id())
    calendars = Calendars(store, clock=lambda: env.now)
    found = await calendars.deadlines(game.first)
    rounds = [due for due in found if "round 1 ends" in due.summary]
    assert [due.at for due in rounds] == [number.deadline]
    # The bye has no game to finish: no league event, and no match deadline either.
    assert await calendars.deadlines(bye.first) == []
    # Both players of the game have to deploy in its match: that deadline is there too.
    assert any(due.summary.startswith("Skirm: deploy in match") for due in found)


async def test_the_file_is_utc_with_an_alarm_and_holds_no_one_elses_deadline(
    store: Store,
) -> None:
    """Ruling "Calendar": times are UTC (a trailing Z, so any calendar app shows them in its own
    time zone), each event has a display alarm, and a player's file and feed hold only the
    deadlines the clock waits on them for, never their opponents' in other matches."""
    table = Table(store, FakeClock())
    await playing(table, TimeControls(activation_seconds=10 * HOUR))
    member, _ = await waiting_for(table)
    other = BOB if member == ALICE else ALICE
    # A second match in which the clock waits for Eve and the other player to deploy.
    await table.service.create(GUILD, CHANNEL + 1, EVE, opponent=other)
    await table.service.join(CHANNEL + 1, other)
    await table.service.choose_squad(CHANNEL + 1, EVE, "iron-wardens")
    await table.service.choose_squad(CHANNEL + 1, other, "ash-runners")
    calendars = Calendars(store, PageLinks(store, BASE + "/"), clock=table.clock)
    data, found = await calendars.file(member.id)
    text = data.decode()
    assert "BEGIN:VALARM" in text and "ACTION:DISPLAY" in text and "TRIGGER:-PT2H" in text
    due = dt.datetime.fromtimestamp(table.clock.now + 10 * HOUR, dt.UTC)
    assert f"DTSTART:{due:%Y%m%dT%H%M%S}Z" in text
    assert [d.uid for d in found] == [d.uid for d in found if "match-1-" in d.uid]
    address = await calendars.feed_address(member.id)
    assert address is not None
    token = address.removeprefix(f"{BASE}/calendar/").removesuffix(".ics")
    assert len(token) >= 32 and address != await calendars.feed_address(EVE.id)
    fed = await calendars.feed(token)
    assert fed is not None and [str(e["uid"]) for e in events(fed)] == [d.uid for d in found]
    theirs = [d.uid for d in await calendars.deadlines(other.id)]
    assert theirs and all("match-2-" in uid for uid in theirs)


async def test_the_alarm_goes_off_when_the_bots_reminder_does(store: Store) -> None:
    """A reminder moved out of a weekend comes later than its usual lead: the calendar's alarm
    follows the bot's reminder, not the lead."""
    clock = FakeClock()
    clock.now = dt.datetime(2026, 11, 27, 15, tzinfo=dt.UTC).timestamp()  # a Friday afternoon
    table = Table(store, clock)
    await playing(table, TimeControls(activation_seconds=10 * HOUR))
    await timing.set_clock_rules(table.service, GUILD, MOD, weekends=True)
    member, _ = await waiting_for(table)
    [due] = await Calendars(store, clock=table.clock).deadlines(member.id)
    monday = dt.datetime(2026, 11, 30, tzinfo=dt.UTC).timestamp()
    assert due.at == monday + HOUR and due.remind_before == HOUR  # 9 hours ran on Friday
    [event] = events((await Calendars(store, clock=table.clock).file(member.id))[0])
    assert event["trigger"] == -dt.timedelta(hours=1)
