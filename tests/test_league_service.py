"""LeagueService: create, sign up, drop, rounds, results from the matches, decisions,
corrections, disputes, standings, history, export, and refusals that change nothing."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import BOTH_BACKENDS

from skirmbot import content
from skirmbot.rules.ruleset import rulesets
from skirmbot.service import MatchService, Member, ServiceError
from skirmbot.service.campaigns import CampaignService
from skirmbot.service.leagues import LeagueService
from skirmbot.service.replies import PLACE, channel, person
from skirmbot.store import Store


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Every test here runs on SQLite and on PostgreSQL (issue 14)."""
    return str(request.param)


GUILD, HOME = 900, 500
ORG = Member(1, "Olive")
PLAYERS = [Member(100 + i, f"P{i}") for i in range(1, 13)]
START = 1_800_000_000.0


class Env:
    """The services on a store whose clock is the test's (`now`)."""

    def __init__(self, store: Store) -> None:
        self.now = START
        self.store = store
        store._clock = lambda: self.now  # the store stamps decisions with the same clock
        self.matches = MatchService(store, seed_source=lambda: 5, clock=lambda: self.now)
        self.leagues = LeagueService(store, self.matches, clock=lambda: self.now)
        self.channels = 10_000
        self.titles: list[str] = []

    async def open_channel(self, title: str) -> int:
        self.channels += 1
        self.titles.append(title)
        return self.channels

    async def league(self, name: str = "Spring", **kwargs: Any) -> None:
        kwargs.setdefault("rounds", 3)
        kwargs.setdefault("seed", 3)
        await self.leagues.create(GUILD, HOME, ORG, name, "skirm", **kwargs)

    async def sign(self, count: int, name: str = "Spring") -> None:
        for i, member in enumerate(PLAYERS[:count]):
            squad = ("iron-wardens", "ash-runners")[i % 2]
            await self.leagues.sign_up(GUILD, name, member, squad)

    async def start(self, name: str = "Spring", who: Member = ORG) -> Any:
        return await self.leagues.start_round(GUILD, name, who, self.open_channel)

    async def league_id(self, name: str = "Spring") -> int:
        found = await self.store.league(GUILD, name)
        assert found is not None
        return found.id


async def snapshot(store: Store, league_id: int) -> Any:
    league = await store.league_by_id(league_id)
    return (
        league,
        await store.league_players(league_id),
        await store.league_rounds(league_id),
        await store.league_games(league_id),
        await store.league_log(league_id),
        await store.active_matches(),
    )


async def refused(env: Env, call: Any, words: str) -> str:
    league_id = await env.league_id()
    before = await snapshot(env.store, league_id)
    with pytest.raises(ServiceError) as error:
        await call
    assert await snapshot(env.store, league_id) == before
    assert words.lower() in str(error.value).lower(), str(error.value)
    return str(error.value)


async def test_a_round_opens_ready_matches_and_names_every_pairing(store: Store) -> None:
    env = Env(store)
    await env.league()
    await env.sign(5)
    reply = await env.start()
    league_id = await env.league_id()
    games = await store.league_games(league_id, 1)
    assert len(games) == 3 and games[-1].second is not None or games[-1].second is None
    byes = [g for g in games if g.second is None]
    assert len(byes) == 1 and byes[0].first == PLAYERS[4].id  # the lowest-ranked
    for game in games:
        if game.second is None:
            continue
        row = await store.match(game.match_id or 0)
        assert row is not None and row.status == "deploying"
        assert row.players == [game.first, game.second]
        assert row.channel_id == game.channel_id
        assert person(game.first) in reply.text and person(game.second) in reply.text
        assert channel(game.channel_id or 0) in reply.text
    assert person(byes[0].first) in reply.text and "Deadline" in reply.text
    assert "per activation" in reply.text  # the clock
    assert set(reply.pings) == {p.id for p in PLAYERS[:5]}
    assert len(env.titles) == 2 and all("Spring R1" in t for t in env.titles)
    assert "<#" not in reply.text and PLACE.search(reply.text)


async def test_refusals_change_nothing(store: Store) -> None:
    env = Env(store)
    await env.league()
    await env.leagues.create(GUILD, HOME, ORG, "Lite Cup", "lite", rounds=2)
    await env.sign(4)
    await refused(env, env.leagues.sign_up(GUILD, "Spring", PLAYERS[0], "ash-runners"), "already")
    await refused(
        env, env.leagues.sign_up(GUILD, "Lite Cup", PLAYERS[0], "iron-wardens"), "Skirm squad"
    )
    await refused(env, env.start(who=PLAYERS[0]), "organisers")
    message = await refused(env, env.start("Nope"), "no league called")
    assert "Spring" in message and "Lite Cup" in message
    await refused(
        env, env.leagues.create(GUILD, HOME, ORG, "spring", "skirm", rounds=2), "already has"
    )
    await env.start()
    await refused(env, env.start(), "still open")
    await refused(
        env, env.leagues.decide(GUILD, "Spring", ORG, PLAYERS[0].id, "win"), "still being played"
    )
    await refused(env, env.leagues.close_round(GUILD, "Spring", ORG, "draw"), "still being played")
    await refused(
        env, env.leagues.correct(GUILD, "Spring", ORG, 1, PLAYERS[0].id, "win", "x"), "no result"
    )
    await env.leagues.drop(GUILD, "Spring", PLAYERS[3])
    await refused(
        env,
        env.leagues.correct(GUILD, "Spring", ORG, 1, PLAYERS[3].id, "win", "oops"),
        "dropped out",
    )
    await refused(env, env.leagues.drop(GUILD, "Spring", PLAYERS[3]), "already dropped")
    await refused(env, env.leagues.sign_up(GUILD, "Spring", PLAYERS[3], "ash-runners"), "dropped")


async def test_a_game_result_comes_from_its_match(store: Store) -> None:
    env = Env(store)
    await env.league()
    await env.sign(2)
    await env.start()
    league_id = await env.league_id()
    [game] = await store.league_games(league_id, 1)
    second = next(p for p in PLAYERS if p.id == game.second)
    await env.matches.concede(game.channel_id or 0, second)
    [game] = await store.league_games(league_id, 1)
    assert game.match_status == "ended" and game.match_winner == 0
    assert (await env.leagues.due_rounds())[0].reply.text.startswith("Round 1")
    table = (await env.leagues.standings_of(GUILD, "Spring")).standings
    assert [(s.player, s.points) for s in table] == [(game.first, 3), (game.second, 0)]
    reply = await env.leagues.history(GUILD, "Spring", game.first)
    assert "win" in reply.text and channel(game.channel_id or 0) in reply.text


async def test_drop_mid_round_concedes_the_open_match(store: Store) -> None:
    env = Env(store)
    await env.league()
    await env.sign(4)
    await env.start()
    league_id = await env.league_id()
    games = await store.league_games(league_id, 1)
    game = next(g for g in games if PLAYERS[0].id in (g.first, g.second))
    dropped = await env.leagues.drop(GUILD, "Spring", PLAYERS[0])
    row = await store.match(game.match_id or 0)
    assert row is not None and row.status == "ended"
    # The match's end is told in the match's own channel, as a concession in it would be.
    ended = [reply for reply in dropped.all() if reply.channel == game.channel_id]
    assert ended and ended[-1].match_over and "conceded" in ended[-1].text
    other = game.second if game.first == PLAYERS[0].id else game.first
    [after] = [g for g in await store.league_games(league_id, 1) if g.id == game.id]
    assert after.match_winner == [game.first, game.second].index(other or 0)
    # The other game ends; the next round leaves the dropped player out.
    rest = next(g for g in games if g.id != game.id)
    loser = next(p for p in PLAYERS if p.id == rest.second)
    await env.matches.concede(rest.channel_id or 0, loser)
    await env.start()
    round2 = await store.league_games(league_id, 2)
    assert all(PLAYERS[0].id not in (g.first, g.second) for g in round2)
    assert sum(1 for g in round2 if g.second is None) == 1  # 3 players left: a bye


async def test_deadline_reminder_once_then_decisions_and_corrections_are_logged(
    store: Store,
) -> None:
    env = Env(store)
    await env.league(dispute_hours=48)
    await env.sign(4)
    await env.start()
    league_id = await env.league_id()
    assert await env.leagues.due_rounds() == []
    env.now += 8 * 86400  # past the deadline
    [notice] = await env.leagues.due_rounds()
    assert notice.reply.ping == ORG.id and "deadline has passed" in notice.reply.text
    assert await env.leagues.due_rounds() == []  # once
    games = await store.league_games(league_id, 1)
    decided = await env.leagues.decide(
        GUILD, "Spring", ORG, games[0].first, "win", reason="no show"
    )
    row = await store.match(games[0].match_id or 0)
    assert row is not None and row.status == "aborted"  # called off
    [told] = [reply for reply in decided.all() if reply.channel == games[0].channel_id]
    assert "called off" in told.text and "no show" in told.text  # said in the match's thread
    closed = await env.leagues.close_round(GUILD, "Spring", ORG, "double_loss", reason="late")
    assert [reply.channel for reply in closed.followups] == [games[1].channel_id]
    rounds = await store.league_rounds(league_id)
    assert rounds[0].status == "closed"
    table = {s.player: s for s in (await env.leagues.standings_of(GUILD, "Spring")).standings}
    assert table[games[0].first].points == 3 and table[games[1].first].losses == 1
    assert table[games[1].second or 0].losses == 1
    # A correction, with its reason in the log.
    await env.leagues.correct(
        GUILD, "Spring", ORG, 1, games[0].second or 0, "draw", "both were there after all",
        mp=(2, 5),  # from the named player's side: theirs, then their opponent's
    )  # fmt: skip
    table = {s.player: s for s in (await env.leagues.standings_of(GUILD, "Spring")).standings}
    assert table[games[0].first].points == 1
    assert (table[games[0].first].mp_for, table[games[0].second or 0].mp_for) == (5, 2)
    log = await store.league_log(league_id)
    assert any(e.action == "correct" and e.reason == "both were there after all" for e in log)
    # A dispute: the player within the window, settled by the organiser; then the window shuts.
    loser = games[0].second or 0
    member = next(p for p in PLAYERS if p.id == loser)
    reply = await env.leagues.dispute(GUILD, "Spring", member, 1, "I won that")
    assert reply.ping == ORG.id
    await refused(env, env.leagues.dispute(GUILD, "Spring", member, 1, "again"), "already")
    await env.leagues.settle(GUILD, "Spring", ORG, 1, loser, None, "the draw stands")
    env.now += 3 * 86400
    await refused(env, env.leagues.dispute(GUILD, "Spring", member, 1, "late"), "window closed")


async def test_round_robin_schedule_and_late_entry(store: Store) -> None:
    env = Env(store)
    await env.leagues.create(GUILD, HOME, ORG, "Spring", "skirm", format="round_robin")
    await env.sign(5)
    await env.start()
    await refused(
        env, env.leagues.sign_up(GUILD, "Spring", PLAYERS[6], "ash-runners"), "no late entries"
    )
    league = await store.league(GUILD, "Spring")
    assert league is not None and len(league.config["schedule"]) == 5


async def test_swiss_late_entry_joins_the_next_round(store: Store) -> None:
    env = Env(store)
    await env.league()
    await env.sign(4)
    await env.start()
    reply = await env.leagues.sign_up(GUILD, "Spring", PLAYERS[4], "ash-runners")
    assert "from round 2" in reply.text
    league_id = await env.league_id()
    assert all(
        PLAYERS[4].id not in (g.first, g.second) for g in await store.league_games(league_id, 1)
    )


async def test_campaign_league_fields_stored_squads(store: Store) -> None:
    env = Env(store)
    await env.league("Camp", campaign=True)
    data = content.raw("squads", "iron-wardens")
    for member in PLAYERS[:2]:
        await CampaignService(store).save_squad(member.id, GUILD, "Mine", data)
    found = await store.league(GUILD, "Camp")
    assert found is not None
    before = await snapshot(store, found.id)
    with pytest.raises(ServiceError, match="stored squads"):
        await env.leagues.sign_up(GUILD, "Camp", PLAYERS[0], "iron-wardens")
    assert await snapshot(store, found.id) == before
    for member in PLAYERS[:2]:
        await env.leagues.sign_up(GUILD, "Camp", member, "my:Mine")
    await env.start("Camp")
    [game] = await store.league_games(found.id, 1)
    row = await store.match(game.match_id or 0)
    assert row is not None and all(row.setup["stored_squads"])


async def test_export_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    store = await Store.open(path)
    env = Env(store)
    await env.league(rounds=2)
    await env.sign(3)
    await env.start()
    env.now += 8 * 86400
    await env.leagues.close_round(GUILD, "Spring", ORG, "draw")
    await store.close()
    store = await Store.open(path)
    try:
        env = Env(store)
        exported = await env.leagues.export(GUILD, "spring")
        rows = list(csv.reader(io.StringIO(exported.csv)))
        sections = {row[0] for row in rows if row}
        assert sections == {"players", "rounds", "games", "standings"}
        games = [r for r in rows if r and r[0] == "games" and r[1] != "round"]
        assert sorted(r[7] for r in games) == ["bye", "draw"]
        data = json.loads(exported.json)
        assert data["league"]["name"] == "Spring" and len(data["players"]) == 3
        assert [s["points"] for s in data["standings"]] == [3, 1, 1]
        standings = await env.leagues.standings(GUILD, "Spring")
        assert standings.picture is not None and standings.picture[:4] == b"\x89PNG"
    finally:
        await store.close()


async def test_xp_lost_to_a_stop_between_the_end_and_the_award_is_completed(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skirmbot.leagues_simulation import play_match

    env = Env(store)
    data = content.raw("squads", "iron-wardens")
    campaigns = CampaignService(store)
    for member in PLAYERS[:2]:
        await campaigns.save_squad(member.id, GUILD, "Mine", data)
    await env.matches.create(GUILD, 7, PLAYERS[0], opponent=PLAYERS[1])
    await env.matches.join(7, PLAYERS[1])
    for member in PLAYERS[:2]:
        await env.matches.choose_squad(7, member, "my:Mine")

    async def lost(self: CampaignService, row: Any, match: Any, limit: int = 0) -> str:
        return ""  # the process stopped after the match's end was saved, before the award

    with monkeypatch.context() as patched:
        patched.setattr(CampaignService, "award_ended", lost)
        await play_match(env.matches, 7, {m.id: m for m in PLAYERS[:2]})
    [row] = await store.unawarded_matches()
    assert row.status == "ended"
    assert await campaigns.complete_awards() == [row.id]  # what a restart runs
    for member in PLAYERS[:2]:
        stored = await store.squad(member.id, "Mine")
        assert stored is not None and [m for m, _ in await store.squad_awards(stored.id)] == [
            row.id
        ]
    assert await campaigns.complete_awards() == []  # idempotent


async def test_a_league_of_a_ruleset_not_played_one_against_one_is_refused(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29: leagues stay two-sided, so a ruleset that cannot be played by 2 players (a
    stub here, played by 3 or 4) is refused in words, and no league is made."""
    brawl = SimpleNamespace(name="brawl", title="Brawl", seats=(3, 4), features=frozenset())
    monkeypatch.setitem(rulesets(), "brawl", brawl)
    env = Env(store)
    with pytest.raises(ServiceError) as error:
        await env.leagues.create(GUILD, HOME, ORG, "Melee Cup", "brawl", rounds=2)
    assert str(error.value) == (
        "A league pairs its players one against one, and Brawl is played by 3 or 4 players."
    )
    assert await store.league(GUILD, "Melee Cup") is None
