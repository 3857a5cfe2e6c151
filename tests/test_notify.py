"""Notifications on a player's terms (issue 34), through the service with a clock moved by
hand: /timer notify's choices kept per player and refused in plain words, a reminder held by
quiet hours until they end (in the player's own time zone) while the opponent's goes out as
due, quiet hours that last past the deadline giving way, a player's own lead, and the store
keeping the settings on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from conftest import BOTH_BACKENDS
from service_setup import ALICE, BOB, CHANNEL
from test_timers import FakeClock, Table, deploying, playing, waiting_for

from skirmbot.service import ServiceError, digests
from skirmbot.service.notify import set_notify
from skirmbot.service.replies import MOMENT, Reply, channel
from skirmbot.store import Store
from skirmbot.store.database import NotifySettings
from skirmbot.timers.clock import DAY, HOUR, TimeControls

# FakeClock starts at 1970-01-12 13:46:40 UTC (14:46:40 in Berlin, winter time): a deployment
# of 10 hours is reminded at 80%, 21:46:40 UTC, and runs out at 23:46:40 UTC.


def pinged(replies: list[object]) -> list[int | None]:
    found: list[int | None] = []
    for reply in replies:
        assert isinstance(reply, Reply)
        found += [r.ping for r in reply.all() if r.text.startswith("⏰")]
    return found


async def test_quiet_hours_hold_a_reminder_until_they_end_and_the_opponents_goes_out(
    store: Store,
) -> None:
    table = Table(store, FakeClock())
    # 22:00 to midnight in Berlin: 21:00 to 23:00 UTC in January.
    said = await set_notify(store, ALICE, time_zone="Europe/Berlin", quiet_from=22, quiet_until=0)
    assert said.private and "Quiet hours: 22:00 to 00:00 (Europe/Berlin)" in said.text, said.text
    await deploying(table)
    assert pinged(await table.advance(8 * HOUR)) == [BOB.id]  # Alice's is held
    assert pinged(await table.advance(HOUR)) == []  # 22:46:40 UTC: still quiet for her
    [held] = await table.advance(14 * 60)  # 23:00:40 UTC: midnight in Berlin
    assert pinged([held]) == [ALICE.id] and "deploy your squad" in held.text  # type: ignore[attr-defined]
    assert pinged(await table.advance(30 * 60)) == []  # once only
    missed = await table.advance(HOUR)
    assert any("did not deploy in time" in r.text for r in missed)  # type: ignore[attr-defined]


async def test_quiet_hours_that_last_past_the_deadline_give_way(store: Store) -> None:
    table = Table(store, FakeClock())
    await set_notify(store, ALICE, time_zone="UTC", quiet_from=21, quiet_until=0)
    await deploying(table)
    assert sorted(pinged(await table.advance(8 * HOUR))) == sorted([ALICE.id, BOB.id])


async def test_a_players_own_lead_moves_their_reminder(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table)
    member, _ = await waiting_for(table)
    said = await set_notify(store, member, before_hours=1)
    assert "1 hour before a deadline" in said.text, said.text
    assert await table.advance(8 * HOUR) == []  # the match's 80%: not for this player
    assert pinged(await table.advance(HOUR)) == [member.id]  # an hour before the end


async def test_bad_choices_are_refused_in_plain_words_and_change_nothing(store: Store) -> None:
    await set_notify(store, ALICE, time_zone="Europe/Berlin", quiet_from=23, quiet_until=7)
    before = await store.notify_settings(ALICE.id)
    refusals = {
        "'Europe/Berln' is not a time zone; for example Europe/Berlin, America/New_York": {
            "time_zone": "Europe/Berln",
            "quiet_from": 1,
            "quiet_until": 2,
        },
        "Give both ends of your quiet hours": {"quiet_from": 22},
        "0.25 to 72 hours": {"before_hours": 100.0},
        "Quiet hours start and end on a whole hour, 0 to 23": {"quiet_from": 24, "quiet_until": 2},
    }
    for words, options in refusals.items():
        with pytest.raises(ServiceError) as refused:
            await set_notify(store, ALICE, **options)  # type: ignore[arg-type]
        assert words in str(refused.value), refused.value
    assert await store.notify_settings(ALICE.id) == before
    with pytest.raises(ServiceError, match="give your time zone too"):
        await set_notify(store, BOB, quiet_from=22, quiet_until=7)
    assert await store.notify_settings(BOB.id) == NotifySettings()
    # The same hour twice: no quiet hours; the zone stays; DMs as /timer reminders.
    said = await set_notify(store, ALICE, quiet_from=5, quiet_until=5, by_dm=True)
    assert "No quiet hours" in said.text and "by direct message" in said.text, said.text
    assert await store.notify_settings(ALICE.id) == NotifySettings("Europe/Berlin", None, None)
    known = await store.player(ALICE.id)
    assert known is not None and known["dm_reminders"]


@pytest.mark.parametrize("backend", BOTH_BACKENDS)
async def test_the_store_keeps_each_players_settings(store: Store) -> None:
    assert await store.notify_settings(ALICE.id) == NotifySettings()  # unknown: none
    await store.remember_player(ALICE.id, ALICE.name)
    await store.remember_player(BOB.id, BOB.name)
    chosen = NotifySettings("America/New_York", 22 * 60, 7 * 60, 2.5 * HOUR)
    await store.set_notify_settings(ALICE.id, chosen)
    assert await store.notify_settings(ALICE.id) == chosen
    assert await store.notify_settings(BOB.id) == NotifySettings()
    await store.remember_player(ALICE.id, "Alice again")  # a new name keeps them
    assert await store.notify_settings(ALICE.id) == chosen


async def test_a_longer_lead_reminds_that_player_earlier_and_the_other_as_the_match_says(
    store: Store,
) -> None:
    table = Table(store, FakeClock())
    await set_notify(store, ALICE, before_hours=5)
    await deploying(table)  # 10 hours to deploy: the match reminds at 8 hours
    assert await table.advance(4 * HOUR) == []
    assert pinged(await table.advance(HOUR)) == [ALICE.id]  # 5 hours before the end
    assert pinged(await table.advance(2 * HOUR)) == []
    assert pinged(await table.advance(HOUR)) == [BOB.id]  # the match's own 80%
    assert pinged(await table.advance(HOUR)) == []


async def test_a_daily_digest_lists_what_waits_once_a_day_at_the_players_hour(
    store: Store,
) -> None:
    table = Table(store, FakeClock())
    service = table.service
    await deploying(table, TimeControls(activation_seconds=3 * DAY))
    said = await set_notify(store, ALICE, time_zone="UTC", digest_hour=15, now=service.now())
    assert "daily digest by direct message at 15:00 your time" in said.text, said.text
    assert await digests.due(service) == []  # 13:46 UTC
    table.clock.now += HOUR
    assert await digests.due(service) == []  # 14:46
    table.clock.now += 15 * 60
    [digest] = await digests.due(service)  # 15:01
    row = await store.last_match(CHANNEL)
    assert row is not None
    assert digest.user_id == ALICE.id and f"Match #{row.id} in {channel(CHANNEL)}" in digest.text
    assert "1 waiting on you" in digest.text and MOMENT.search(digest.text)
    assert await digests.due(service) == []  # once a day
    table.clock.now += 23 * HOUR
    assert await digests.due(service) == []  # 14:01 the next day
    table.clock.now += HOUR
    assert [d.user_id for d in await digests.due(service)] == [ALICE.id]
    await service.deploy(CHANNEL, ALICE)  # nothing waits on her now: no digest to wake her
    table.clock.now += DAY
    assert await digests.due(service) == []
    with pytest.raises(ServiceError, match="give your time zone too"):
        await set_notify(store, BOB, digest_hour=8)


async def test_a_digest_before_the_deadline_takes_the_reminders_place(store: Store) -> None:
    table = Table(store, FakeClock())
    await set_notify(store, ALICE, time_zone="UTC", digest_hour=22)  # before 23:46 UTC
    await deploying(table)
    assert pinged(await table.advance(8 * HOUR)) == [BOB.id]
    assert pinged(await table.advance(HOUR)) == []


async def test_a_digest_after_the_deadline_leaves_the_reminder(store: Store) -> None:
    table = Table(store, FakeClock())
    await set_notify(store, ALICE, time_zone="UTC", digest_hour=9)  # 09:00: after 23:46 UTC
    await deploying(table)
    assert sorted(pinged(await table.advance(8 * HOUR))) == sorted([ALICE.id, BOB.id])


@pytest.mark.parametrize("backend", BOTH_BACKENDS)
async def test_a_digest_is_claimed_once(store: Store) -> None:
    for member in (ALICE, BOB):
        await store.remember_player(member.id, member.name)
    await store.set_notify_settings(ALICE.id, NotifySettings("UTC", digest_hour=8, digest_at=5.0))
    await store.set_notify_settings(BOB.id, NotifySettings("UTC"))  # no digest
    [(user, settings)] = await store.digest_players()
    assert user == ALICE.id and settings.digest_at == 5.0
    assert await store.claim_digest(ALICE.id, 5.0, 90_000.5)
    assert not await store.claim_digest(ALICE.id, 5.0, 90_001.0)  # another process sent it
    assert (await store.notify_settings(ALICE.id)).digest_at == 90_000.5
