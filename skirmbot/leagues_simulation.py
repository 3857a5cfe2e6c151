"""`skirmbot league simulate`: a whole league season offline, through the service layer.

An in-memory store, fake players and a fake clock; the organiser starts every round through
LeagueService (each pairing's match opened in a fake channel, both squads fielded), and then
either the automatic player plays both seats of every match through MatchService (`deploy`,
`act` with the ruleset's `automatic_command`), or, `quick`, each game's result is drawn with
the seed and written as the organiser's decision after the round's deadline. Prints each
round's pairings and the final standings; writes standings.png, league.csv and league.json.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from skirmbot import content
from skirmbot.console import plain_text
from skirmbot.service.errors import ServiceError
from skirmbot.service.leagues import ROUND_ROBIN, LeagueExport, LeagueService
from skirmbot.service.matches import DEPLOYING, MatchService, Member, ruleset_of
from skirmbot.store import Store

START = 1_800_000_000.0  # the simulated clock's first moment
GUILD, CHANNEL = 1, 2
ORGANISER = Member(1, "Organiser")
FIRST_PLAYER = 1001
MAX_STEPS = 20_000  # per match: only catches an automatic player that loops
LEAGUE = "Simulated League"


@dataclass
class Season:
    """What a simulated season left: its standings text and picture, and the export."""

    standings: str
    picture: bytes
    export: LeagueExport
    pairings: list[list[tuple[int, int | None]]]  # per round: (first, second or None: a bye)
    matches_played: int


async def simulate(
    players: int = 12,
    rounds: int = 5,
    format: str = "swiss",
    seed: int = 1,
    out: Path | None = None,
    quick: bool = False,
    rules: str = "skirm",
    say: Callable[[str], None] = print,
) -> Season:
    """Play a season; write its files into `out` (when given)."""
    if players < 2:
        raise ServiceError("A league needs at least 2 players.")
    now = [START]
    rng = random.Random(seed)
    store = await Store.open(":memory:", clock=lambda: now[0])
    try:
        matches = MatchService(
            store, seed_source=lambda: rng.randrange(2**31), clock=lambda: now[0]
        )
        leagues = LeagueService(store, matches, clock=lambda: now[0])
        names = {ORGANISER.id: ORGANISER.name}
        members = [Member(FIRST_PLAYER + i, f"Player {i + 1}") for i in range(players)]
        names.update({m.id: m.name for m in members})
        by_id = {m.id: m for m in members}
        await leagues.create(
            GUILD, CHANNEL, ORGANISER, LEAGUE, rules, format=format,
            rounds=rounds if format != ROUND_ROBIN else None, round_hours=72, seed=seed,
        )  # fmt: skip
        squads = content.names("squads", rules)
        for i, member in enumerate(members):
            await leagues.sign_up(GUILD, LEAGUE, member, squads[i % len(squads)])
        channels = [10_000]

        async def open_channel(title: str) -> int:
            channels[0] += 1
            return channels[0]

        pairings: list[list[tuple[int, int | None]]] = []
        played = 0
        while True:
            league = await store.league(GUILD, LEAGUE)
            assert league is not None
            if league.status == "finished":
                break
            reply = await leagues.start_round(GUILD, LEAGUE, ORGANISER, open_channel)
            say(plain_text(reply.text, names, now=now[0]))
            number = len(await store.league_rounds(league.id))
            games = await store.league_games(league.id, number)
            pairings.append([(g.first, g.second) for g in games])
            for game in games:
                if game.second is None or game.channel_id is None:
                    continue
                if quick:
                    continue
                await play_match(matches, game.channel_id, by_id)
                played += 1
            if quick:
                now[0] += 73 * 3600  # past the round's deadline
                for game in games:
                    if game.second is None:
                        continue
                    result = rng.choices(("win", "loss", "draw"), weights=(45, 45, 10))[0]
                    mp = _mp(rng, result)
                    await leagues.decide(
                        GUILD, LEAGUE, ORGANISER, game.first, result, reason="simulated", mp=mp
                    )
            else:
                now[0] += 3600
                await leagues.due_rounds()  # closes the round: every match is over
        final = await leagues.standings(GUILD, LEAGUE)
        say(plain_text(final.text, names, now=now[0]))
        export = await leagues.export(GUILD, LEAGUE)
        assert final.picture is not None
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / "standings.png").write_bytes(final.picture)
            (out / "league.csv").write_text(export.csv, encoding="utf-8")
            (out / "league.json").write_text(export.json, encoding="utf-8")
        return Season(final.text, final.picture, export, pairings, played)
    finally:
        await store.close()


async def play_match(matches: MatchService, channel_id: int, members: dict[int, Member]) -> None:
    """The automatic player plays both seats of the channel's match to its end, through the
    service: deployment (`deploy`, the bot placing), then every command (`act`)."""
    for _ in range(MAX_STEPS):
        row = await matches.store.active_match(channel_id)
        if row is None:
            return
        if row.status == DEPLOYING:
            placed = False
            for player in row.players:
                assert player is not None
                try:
                    await matches.deploy(channel_id, members[player])
                    placed = True
                except ServiceError:
                    continue  # this side has nothing to place in this stage
            if not placed:
                raise RuntimeError(f"Match in channel {channel_id} is stuck in deployment.")
            continue
        _, match = await matches.view(channel_id)
        assert match is not None
        rules = ruleset_of(row)
        deciding = rules.deciding(match.state)
        if not deciding:  # over: nobody has anything to decide
            return
        side = deciding[0].side
        player = row.players[side]
        assert player is not None
        command = rules.automatic_command(match.state, side)
        await matches.act(channel_id, members[player], command)
    raise RuntimeError(f"The match in channel {channel_id} did not end in {MAX_STEPS} commands.")


def _mp(rng: random.Random, result: str) -> tuple[int, int]:
    low, high = sorted((rng.randint(0, 8), rng.randint(0, 8)))
    if result == "draw":
        return (low, low)
    if low == high:
        high += 1
    return (high, low) if result == "win" else (low, high)
