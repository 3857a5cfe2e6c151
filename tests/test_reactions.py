"""Decisions outside a seat's own turn (issue 29): a ruleset whose `deciding` asks a seat to
react in another's turn (the d20 rules: a defender's bonus dice) gets a short window for it, a
ping, and then what it says a missed deadline sends; the turn's own clock runs on untouched."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from service_setup import ALICE, BOB, CHANNEL, GUILD, MOD
from test_timers import FakeClock, Table, playing

from skirmbot.rules.ruleset import Ruleset, rulesets
from skirmbot.rules.skirm.commands import SetStandingOrders
from skirmbot.rules.view import Decision
from skirmbot.service import ServiceError, timing
from skirmbot.service.replies import Reply
from skirmbot.service.work import REACTION_MINUTES
from skirmbot.store import Store
from skirmbot.timers.clock import HOUR, Clock

MINUTE = 60
WHY = "choose your bonus dice for the defence"


class Reacting:
    """Skirm, but the side not to act must also decide something now, until it has set its
    standing orders (what a missed window sends for it)."""

    def __init__(self, played: Ruleset) -> None:
        self._played = played

    def __getattr__(self, name: str) -> Any:
        return getattr(self._played, name)

    def deciding(self, state: Any) -> tuple[Decision, ...]:
        found = self._played.deciding(state)
        if not found:
            return found
        other = 1 - found[0].side
        if state.squads[other].reroll_saves_above == 1:
            return found
        sent = SetStandingOrders(other, reroll_saves_above=1)
        decided = Decision(other, WHY, (sent,), turn=False, key=f"defend:s{other}")
        return (*found, replace(decided, missed=self.missed) if self.missed else decided)

    missed = ""  # the words of what the window's end sends ("": the kernel's default)


@pytest.fixture
def reacting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets(), "skirm", Reacting(rulesets()["skirm"]))


async def _sides(table: Table) -> tuple[int, int]:
    """The side to act and the side asked to react."""
    row = await table.service.live.find(CHANNEL)
    clock = Clock.from_json(row.setup["clock"])
    [reaction] = clock.reactions
    return 1 - reaction["side"], reaction["side"]


async def test_a_reaction_is_pinged_at_once_then_its_window_sends_its_commands(
    store: Store, reacting: None
) -> None:
    table = Table(store, FakeClock())
    await playing(table)
    acting, reacting_side = await _sides(table)
    players = {0: ALICE, 1: BOB}
    [ping] = await table.advance(1)
    assert isinstance(ping, Reply)
    assert ping.ping == players[reacting_side].id and WHY in ping.text
    assert await table.advance(9 * MINUTE) == []  # the default window: 10 minutes
    [missed] = await table.advance(MINUTE)
    assert isinstance(missed, Reply)
    assert f"{players[reacting_side].name} did not decide in time: the match goes on" in (
        missed.text
    ), missed.text
    row, match = await table.service.view(CHANNEL)
    assert match is not None
    assert match.state.squads[reacting_side].reroll_saves_above == 1  # its on_timeout was sent
    assert match.state.to_act == acting  # the turn is still the acting side's
    clock = Clock.from_json(row.setup["clock"])
    assert clock.reactions == [] and clock.excuses_used == [0, 0]  # a window uses no excuse
    [reminder] = await table.advance(8 * HOUR - 10 * MINUTE)  # the turn's own clock ran on
    assert isinstance(reminder, Reply) and reminder.ping == players[acting].id


async def test_a_missed_reaction_says_what_its_ruleset_sent_for_it(
    store: Store, reacting: None
) -> None:
    """A reaction's own words for what its window's end sends (the infantry rules: "the arc's
    order (every) fires") are told with the miss; a turn's words never are (d20, above)."""
    ruleset = rulesets()["skirm"]
    assert isinstance(ruleset, Reacting)
    ruleset.missed = "the arc's order (every) fires"
    table = Table(store, FakeClock())
    await playing(table)
    await table.advance(1)  # the ping
    [missed] = await table.advance(10 * MINUTE)
    assert isinstance(missed, Reply)
    assert "did not decide in time: the arc's order (every) fires, and the match goes on" in (
        missed.text
    ), missed.text


async def test_a_reaction_decided_in_time_sends_nothing(store: Store, reacting: None) -> None:
    table = Table(store, FakeClock())
    await playing(table)
    _, reacting_side = await _sides(table)
    member = {0: ALICE, 1: BOB}[reacting_side]
    await table.service.standing_orders(CHANNEL, member, reroll_saves_above=1)
    row = await table.service.live.find(CHANNEL)
    assert Clock.from_json(row.setup["clock"]).reactions == []
    assert await table.advance(HOUR) == []


async def test_the_window_is_a_server_setting(store: Store, reacting: None) -> None:
    await store.set_setting(GUILD, REACTION_MINUTES, "3")
    table = Table(store, FakeClock())
    await playing(table)
    await table.advance(1)  # the ping
    [missed] = await table.advance(3 * MINUTE)
    assert isinstance(missed, Reply) and "did not decide in time" in missed.text


async def test_moderators_set_the_window(store: Store) -> None:
    table = Table(store, FakeClock())
    said = await timing.set_clock_rules(table.service, GUILD, MOD, reaction_minutes=5)
    assert "waits 5 minutes" in said.text
    assert await store.get_setting(GUILD, REACTION_MINUTES) == "5"
    with pytest.raises(ServiceError, match="1 to 30 minutes"):
        await timing.set_clock_rules(table.service, GUILD, MOD, reaction_minutes=90)


class BothDecide(Reacting):
    """Skirm, but the side not to act first must also decide in the turn (not a reaction),
    until it has set its standing orders: two seats on the turn's one clock at once."""

    other: int | None = None

    def deciding(self, state: Any) -> tuple[Decision, ...]:
        found = self._played.deciding(state)
        if not found:
            return found
        if self.other is None:
            self.other = 1 - found[0].side
        if state.squads[self.other].reroll_saves_above == 1:
            return found
        sent = SetStandingOrders(self.other, reroll_saves_above=1)
        return (*found, Decision(self.other, WHY, (sent,), key=f"orders:s{self.other}"))


class Unending(Reacting):
    """Skirm, but its outcome never says the match is over: as a free-for-all of three after
    one seat conceded."""

    def outcome(self, state: Any) -> None:
        return None


async def test_two_seats_deciding_at_once_are_each_reminded_and_each_miss(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(rulesets(), "skirm", BothDecide(rulesets()["skirm"]))
    table = Table(store, FakeClock())
    await playing(table)
    [reminder] = await table.advance(8 * HOUR)
    assert isinstance(reminder, Reply)
    assert {reminder.ping, *(f.ping for f in reminder.followups)} == {ALICE.id, BOB.id}
    [missed] = await table.advance(2 * HOUR)
    assert isinstance(missed, Reply)
    texts = [missed.text, *(f.text for f in missed.followups)]
    assert sum("missed the deadline" in text for text in texts) == 2
    row, match = await table.service.view(CHANNEL)
    assert Clock.from_json(row.setup["clock"]).excuses_used == [1, 1]
    # Both seats' commands were sent: the activation ended, the standing orders were set.
    assert match is not None and match.state.activations_done == 1
    assert [s.reroll_saves_above for s in match.state.squads].count(1) == 1


async def test_a_concession_the_outcome_does_not_end_lets_the_others_play_on(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(rulesets(), "skirm", Unending(rulesets()["skirm"]))
    table = Table(store, FakeClock())
    await playing(table)
    reply = await table.service.concede(CHANNEL, BOB)
    assert not reply.match_over
    row = await table.service.live.find(CHANNEL)
    assert row.active and row.result is None


async def test_the_reply_to_a_move_says_whom_the_match_waits_for_outside_their_turn(
    store: Store, reacting: None
) -> None:
    """A decision asked of a seat outside its turn (the infantry rules' prompted arc; here
    the Reacting rules') is told in the reply of the move that asked it, with the seat's name
    and the question, so the buttons under it are not a riddle."""
    table = Table(store, FakeClock())
    await playing(table)
    acting, reacting_side = await _sides(table)
    row, match = await table.service.view(CHANNEL)
    assert match is not None
    rules = rulesets()["skirm"]
    move = next(c for c in rules.legal_commands(match.state, acting) if c.type == "move")
    reply = await table.service.act(CHANNEL, (ALICE, BOB)[acting], move)
    assert f"\nWaiting for {row.names[reacting_side]}: {WHY}." in reply.text, reply.text


async def test_the_status_says_whom_the_match_waits_for_outside_their_turn(
    store: Store, reacting: None
) -> None:
    """/match status while a seat must decide outside its turn (an arc's owner, a defender)
    names that seat and the question under whose turn it is: the match waits on them."""
    table = Table(store, FakeClock())
    await playing(table)
    acting, reacting_side = await _sides(table)
    row, match = await table.service.view(CHANNEL)
    assert match is not None
    status = (await table.service.status(CHANNEL)).text
    assert "Next: " in status and f"\nWaiting for {row.names[reacting_side]}: {WHY}." in status
