"""Team play and the turn clock (issue 30): a side's turn taken by two seats at once, with the
test double of a team ruleset (tests/team_ruleset.py). Each seat is reminded, pinged and
charged for a miss on its own; a seat that ends its part early leaves its teammate's time
running on, not restarted."""

from __future__ import annotations

import pytest
from service_setup import ALICE, CHANNEL, EVE
from team_ruleset import Teams, registered
from test_teams import playing
from test_timers import FakeClock, Table

from skirmbot.rules.d20.commands import EndTurn
from skirmbot.service import MatchService
from skirmbot.service.replies import Reply
from skirmbot.store import Store
from skirmbot.timers.clock import HOUR, Clock, TimeControls

TEN_HOURS = TimeControls(activation_seconds=10 * HOUR)


@pytest.fixture
def teams(monkeypatch: pytest.MonkeyPatch) -> Teams:
    return registered(monkeypatch)


class TeamTable(Table):
    """The timers' table, with the dice `test_teams` plays with (side 1 acts first)."""

    def __init__(self, store: Store, clock: FakeClock) -> None:
        super().__init__(store, clock)
        self.service = MatchService(store, seed_source=lambda: 7, clock=clock)
        self.service.on_deadline = self.scheduler.arm


async def team_table(store: Store) -> Table:
    """Two sides of two playing, side 1 (Alice, seat 0, and Eve, seat 2) to act."""
    table = TeamTable(store, FakeClock())
    await playing(table.service, controls=TEN_HOURS)
    return table


async def clock_of(service: MatchService) -> Clock:
    row, _ = await service.view(CHANNEL)
    return Clock.from_json(row.setup["clock"])


async def turns(service: MatchService) -> int:
    """The d20 turns begun so far: one more once the side's turn is over."""
    _, match = await service.view(CHANNEL)
    assert match is not None
    return int(match.state.turns)


async def deciding(service: MatchService, teams: Teams) -> list[int]:
    _, match = await service.view(CHANNEL)
    assert match is not None
    return [decision.side for decision in teams.deciding(match.state)]


def every(reply: object) -> list[Reply]:
    assert isinstance(reply, Reply)
    return reply.all()


def test_a_clock_keeps_its_time_when_a_seat_of_the_turn_is_done() -> None:
    """A key that waits for some of the decisions the current one waits for is no new
    activation: its deadline runs on; a key with a decision of its own is new time."""
    clock = Clock(TEN_HOURS)
    clock.follow("r1:s0:p0+r1:s0:p2", 0.0)
    clock.follow("r1:s0:p2", 2 * HOUR, 2)
    assert clock.deadline == 10 * HOUR and clock.waiting == 2
    clock.follow("r1:s1:p1+r1:s1:p3", 3 * HOUR)
    assert clock.deadline == 13 * HOUR


def test_a_stored_clock_waiting_for_several_seats_waits_for_no_one_side() -> None:
    """Keys naming their seat ("t1:a0:s0", as `activation_key` makes them), joined for a side's
    turn: read back, the clock waits for no single seat (a clock stored before issue 21 is
    still read as waiting for the seat its one key names)."""
    clock = Clock(TEN_HOURS)
    clock.follow("t1:a0:s0+t1:a0:s2", 0.0)
    assert Clock.from_json(clock.to_json()).waiting is None
    clock.follow("t1:a0:s2", HOUR, 2)
    assert Clock.from_json(clock.to_json()).waiting == 2
    legacy = {k: v for k, v in clock.to_json().items() if k != "waiting"}
    assert Clock.from_json({**legacy, "key": "t1:a3:s1"}).waiting == 1


async def test_each_seat_of_the_side_is_reminded_on_its_own(store: Store, teams: Teams) -> None:
    table = await team_table(store)
    assert await deciding(table.service, teams) == [0, 2]
    assert await table.advance(7 * HOUR) == []
    [reminded] = await table.advance(1 * HOUR)
    [alice, eve] = every(reminded)
    assert alice.ping == ALICE.id and "your side's turn" in alice.text
    assert eve.ping == EVE.id and "your side's turn" in eve.text


async def test_a_seat_done_early_leaves_its_teammate_time_running_and_only_the_teammate_misses(
    store: Store, teams: Teams
) -> None:
    """Two seats deciding at once, one missing its deadline: Alice ends her part two hours in;
    Eve's deadline stays where it was; at it only Eve misses: her on_timeout (EndTurn) is sent
    and her excused miss used, Alice's not, and the side's turn ends. Only Eve is reminded."""
    table = await team_table(store)
    begun = await turns(table.service)
    due = (await clock_of(table.service)).deadline
    await table.advance(2 * HOUR)
    await table.service.act(CHANNEL, ALICE, EndTurn(0))
    assert await deciding(table.service, teams) == [2]
    assert (await clock_of(table.service)).deadline == due
    [reminded, missed] = await table.advance(8 * HOUR)
    assert [reply.ping for reply in every(reminded)] == [EVE.id]  # Alice is done: not asked
    assert "Eve missed the deadline" in missed.text  # type: ignore[attr-defined]
    assert "Alice missed" not in " ".join(r.text for r in every(missed))
    clock = await clock_of(table.service)
    assert clock.excuses_used == [0, 0, 1, 0]
    assert [miss["side"] for miss in clock.misses] == [2]
    assert await turns(table.service) == begun + 1


async def test_when_both_seats_miss_each_is_charged_its_own_miss(
    store: Store, teams: Teams
) -> None:
    """A miss sends that seat's on_timeout only: both missed, so each sends its own EndTurn
    and uses its own excused miss; the side's turn is over after the second."""
    table = await team_table(store)
    begun = await turns(table.service)
    [_, missed] = await table.advance(10 * HOUR)  # the reminder, then the miss
    texts = [reply.text for reply in every(missed)]
    assert any("Alice missed the deadline" in text for text in texts)
    assert any("Eve missed the deadline" in text for text in texts)
    clock = await clock_of(table.service)
    assert clock.excuses_used == [1, 0, 1, 0]
    assert sorted(miss["side"] for miss in clock.misses) == [0, 2]
    assert await turns(table.service) == begun + 1
