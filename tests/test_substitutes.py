"""Substitutes (issue 34) without Discord: a moderator or a league's organiser hands a seat on,
the record keeps who held it from which command on, the league counts the game for the original
player while the server's ratings credit whoever finished it, a player asks for a substitute,
and a league may hand a seat out of excused misses to the automatic player."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from conftest import BOTH_BACKENDS
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, MOD, end_one, started

from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import MatchRecord, held_by, replay
from skirmbot.rules.skirm import commands
from skirmbot.rules.verify import verify
from skirmbot.service import AUTOMATIC, MatchService, Member, NotAllowed, ServiceError, timing
from skirmbot.service import substitutes as subs
from skirmbot.service.leagues import MISSED_TO_AUTOMATIC_WORDS, LeagueService
from skirmbot.service.pages import Pages
from skirmbot.service.ratings import RatingService
from skirmbot.store import Store
from skirmbot.timers.clock import HOUR, TimeControls
from skirmbot.web import make_app


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The store's look-up of a match's league runs on SQLite and on PostgreSQL."""
    return str(request.param)


START = 1_800_000_000.0
ORG = Member(1, "Olive")  # creates the league: its organiser
P1, P2, SUB = Member(101, "Pia"), Member(102, "Quin"), Member(103, "Sam")


class Env:
    """A match service and a league service on the test's clock (`now`)."""

    def __init__(self, store: Store) -> None:
        self.now = START
        self.store = store
        store._clock = lambda: self.now
        self.matches = MatchService(store, seed_source=lambda: 5, clock=lambda: self.now)
        self.leagues = LeagueService(store, self.matches, clock=lambda: self.now)

    async def open_channel(self, title: str) -> int:
        return 7_000

    async def league_match(self, **options: Any) -> int:
        """A two-player league (ORG organises it) with its round 1 match open; its channel."""
        await self.leagues.create(GUILD, 500, ORG, "Spring", "skirm", rounds=1, seed=3, **options)
        await self.leagues.sign_up(GUILD, "Spring", P1, "iron-wardens")
        await self.leagues.sign_up(GUILD, "Spring", P2, "ash-runners")
        await self.leagues.start_round(GUILD, "Spring", ORG, self.open_channel)
        return 7_000

    async def game(self) -> Any:
        league = await self.store.league(GUILD, "Spring")
        assert league is not None
        [game] = await self.store.league_games(league.id, 1)
        return game


async def hand_on(service: MatchService, asker: Member, newcomer: Member, leaving: Member) -> Any:
    return await subs.substitute(service, CHANNEL, asker, [], newcomer, leaving)


# --- a moderator hands a seat on ------------------------------------------------------------
async def test_a_moderator_hands_a_seat_on_and_the_newcomer_plays_it(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 5)
    await started(service)
    await end_one(service)  # a command or more before the hand-over
    before = await store.active_match(CHANNEL)
    assert before is not None
    seat = before.players.index(BOB.id)
    handed = await hand_on(service, MOD, EVE, BOB)
    row = await store.active_match(CHANNEL)
    assert row is not None
    assert row.players[seat] == EVE.id and row.names[seat] == "Eve"
    assert row.record["players"] == before.record["players"]  # the seals' names stay
    assert row.record["holders"] == [
        {"seat": seat, "player": "Eve", "from": len(before.record["commands"])}
    ]
    assert handed.reply.ping == EVE.id and "Bob's seat" in handed.reply.text
    assert handed.direct.dm and handed.direct.ping == EVE.id
    # Bob plays no more; Eve does.
    with pytest.raises(NotAllowed):
        await service.act(CHANNEL, BOB, commands.EndActivation(seat, "x"))
    while True:
        row, match = await service.view(CHANNEL)
        assert match is not None
        if match.state.to_act == seat:
            unit = match.state.ready_units(seat)[0].id
            await service.act(CHANNEL, EVE, commands.EndActivation(seat, unit))
            break
        await service.act(CHANNEL, ALICE, commands.EndActivation(1 - seat, _ready(match, 1 - seat)))


def _ready(match: Any, side: int) -> str:
    return str(match.state.ready_units(side)[0].id)


async def test_the_record_says_who_played_and_replays_as_without_them(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 5)
    await started(service)
    await end_one(service)
    await hand_on(service, MOD, EVE, BOB)
    await service.concede(CHANNEL, EVE)  # the newcomer finishes the match
    name, data = await service.export(CHANNEL)
    record = MatchRecord.loads(data.decode())
    seat = record.players.index("Bob")
    held = held_by(record)
    assert held[1 - seat] == [("Alice", 0)]
    [(bob, zero), (eve, start)] = held[seat]
    assert (bob, zero, eve) == ("Bob", 0, "Eve") and start > 0
    plain = replace(record, holders=None)
    assert replay(record).log == replay(plain).log  # the rules replay does not change
    if record.commitment is not None:  # its dice still verify: the seals are on the first names
        assert verify(record).ok, verify(record).problems
    # The result and the log say who played.
    status = await service.status(CHANNEL)
    assert "Bob, then Eve from the record's command" in status.text, status.text
    log = await service.log(CHANNEL)
    assert "Bob, then Eve" in log.text
    [(_, result)] = await store.match_results(GUILD)
    assert EVE.id in [s.user_id for s in result.seats] and BOB.id not in [
        s.user_id for s in result.seats
    ]


async def test_refusals_change_nothing(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 5)
    await started(service)
    before = await store.active_match(CHANNEL)
    assert before is not None
    with pytest.raises(NotAllowed, match="Only moderators"):
        await hand_on(service, ALICE, EVE, BOB)  # a player hands on no seat
    with pytest.raises(ServiceError, match="Alice already plays in this match"):
        await hand_on(service, MOD, ALICE, BOB)
    with pytest.raises(ServiceError, match="Eve does not play in this match"):
        await hand_on(service, MOD, BOB, EVE)
    with pytest.raises(ServiceError, match="You do not play in this match"):
        await subs.substitute(service, CHANNEL, MOD, [], EVE)
    after = await store.active_match(CHANNEL)
    assert after is not None and after.version == before.version
    assert (after.players, after.names) == (before.players, before.names)


async def test_no_hand_over_in_set_up(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 5)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    with pytest.raises(ServiceError, match="has not started"):
        await hand_on(service, MOD, EVE, BOB)


async def test_a_player_asks_for_a_substitute(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 5)
    await started(service)
    asked = await subs.ask(service, CHANNEL, BOB, EVE)
    assert "Bob asks for a substitute" in asked.text and "A moderator" in asked.text, asked.text
    assert "would like" in asked.text
    with pytest.raises(NotAllowed):
        await subs.ask(service, CHANNEL, EVE)  # only a player asks
    with pytest.raises(ServiceError, match="already plays"):
        await subs.ask(service, CHANNEL, BOB, ALICE)
    assert not await subs.may_hand_on(service, CHANNEL, BOB, [])
    assert await subs.may_hand_on(service, CHANNEL, MOD, [])


# --- leagues --------------------------------------------------------------------------------
async def test_a_league_game_counts_for_the_original_player_and_ratings_for_who_played(
    store: Store,
) -> None:
    env = Env(store)
    channel = await env.league_match()
    game = await env.game()
    second = P1 if game.second == P1.id else P2
    # A player asks: the post names the league's organiser.
    asked = await subs.ask(env.matches, channel, second)
    assert ORG.id in asked.pings and "Spring" in asked.text
    # Not an organiser: refused; the organiser (the league's creator) hands the seat on.
    with pytest.raises(NotAllowed, match="Spring's organisers"):
        await subs.substitute(env.matches, channel, second, [], SUB)
    handed = await subs.substitute(env.matches, channel, ORG, [], SUB, second)
    assert "still counts for" in handed.reply.text
    await env.matches.concede(channel, SUB)  # the substitute concedes: a loss for `second`
    table = (await env.leagues.standings_of(GUILD, "Spring")).standings
    assert [(s.player, s.points) for s in table] == [(game.first, 3), (second.id, 0)]
    rated = {r.player for r in await RatingService(store).ratings(GUILD)}
    assert rated == {game.first, SUB.id}


async def test_a_league_can_hand_a_seat_out_of_misses_to_the_automatic_player(
    store: Store,
) -> None:
    env = Env(store)
    controls = TimeControls(activation_seconds=HOUR, excuses=0)
    channel = await env.league_match(controls=controls, missed_to_automatic=True)
    league = await store.league(GUILD, "Spring")
    assert league is not None
    page = await _page(env)
    assert page is not None and page.rules == (MISSED_TO_AUTOMATIC_WORDS,)
    row = await store.active_match(channel)
    assert row is not None and row.status == "deploying"
    # One player deploys, the other does not: their seat goes to the automatic player, the
    # match goes on.
    await env.matches.deploy(channel, P1)
    gone = row.players.index(P2.id)
    fired = await _miss(env, row.id)
    assert fired is not None and "the automatic player takes their seat" in fired.text
    row = await store.active_match(channel)
    assert row is not None and row.status == "playing"
    assert row.players[gone] == AUTOMATIC and P1.id in row.players
    assert row.record["holders"] == [{"seat": gone, "player": "Automatic player", "from": 0}]


async def test_the_league_page_says_the_rule(store: Store) -> None:
    env = Env(store)
    await env.league_match(missed_to_automatic=True)
    pages = Pages(store, env.matches)
    await pages.set_published(GUILD, True)
    client = TestClient(TestServer(make_app(store, pages)))
    await client.start_server()
    try:
        text = await (await client.get(f"/g/{GUILD}/league/Spring")).text()
    finally:
        await client.close()
    assert MISSED_TO_AUTOMATIC_WORDS.replace("'", "&#39;") in text, text


async def test_a_league_without_the_rule_still_forfeits(store: Store) -> None:
    env = Env(store)
    channel = await env.league_match(controls=TimeControls(activation_seconds=HOUR, excuses=0))
    page = await _page(env)
    assert page is not None and page.rules == ()
    row = await store.active_match(channel)
    assert row is not None
    fired = await _miss(env, row.id)
    assert fired is not None and "no excused misses left" in fired.text
    assert (await store.last_match(channel)).status == "ended"  # type: ignore[union-attr]


async def test_a_missed_activation_goes_to_the_automatic_player(store: Store) -> None:
    env = Env(store)
    controls = TimeControls(activation_seconds=HOUR, excuses=0)
    channel = await env.league_match(controls=controls, missed_to_automatic=True)
    for member in (P1, P2):
        await env.matches.deploy(channel, member)
    row, match = await env.matches.view(channel)
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    fired = await _miss(env, row.id)
    assert fired is not None and "the automatic player takes their seat" in fired.text
    row, _ = await env.matches.view(channel)
    assert row.active and row.players[side] == AUTOMATIC
    assert row.record["holders"][-1]["seat"] == side


async def _page(env: Env) -> Any:
    """The league's web page (the server published)."""
    pages = Pages(env.store, env.matches)
    await pages.set_published(GUILD, True)
    return await pages.league(GUILD, "Spring")


async def _miss(env: Env, match_id: int) -> Any:
    """Fire the match's deadlines until its miss (the reminder first)."""
    for _ in range(3):
        deadline = await env.store.deadline(match_id)
        assert deadline is not None
        env.now = deadline.due_at
        fired = await timing.on_deadline(env.matches, match_id, deadline)
        if deadline.kind == "miss":
            return fired
    raise AssertionError("no miss came")


# --- the record -----------------------------------------------------------------------------
def _record(**extra: Any) -> dict[str, Any]:
    data = {
        "format": "skirmbot-record",
        "version": 4,
        "ruleset": "skirm",
        "players": ["A", "B"],
        "content": {"map": {}, "mission": {}, "squads": [None, None]},
        "dice": {"seed": 1},
        "commands": [],
    }
    return {**data, **extra}


def test_old_records_read_without_holders_and_new_ones_round_trip() -> None:
    old = MatchRecord.from_json(_record())
    assert old.holders is None and "holders" not in old.to_json()
    assert held_by(old) == [[("A", 0)], [("B", 0)]]
    new = MatchRecord.from_json(_record(holders=[{"seat": 1, "player": "C", "from": 4}]))
    assert held_by(new) == [[("A", 0)], [("B", 0), ("C", 4)]]
    assert json.loads(new.dumps())["holders"] == [{"seat": 1, "player": "C", "from": 4}]


@pytest.mark.parametrize(
    "holders",
    [
        {"seat": 0},
        [{"seat": 2, "player": "C", "from": 0}],
        [{"seat": 0, "player": 7, "from": 0}],
        [{"seat": 0, "player": "C", "from": -1}],
        [{"seat": True, "player": "C", "from": 0}],
    ],
)
def test_a_bad_holders_list_is_refused_in_words(holders: Any) -> None:
    with pytest.raises(RulesError, match="'holders' lists who took a seat"):
        MatchRecord.from_json(_record(holders=holders))
