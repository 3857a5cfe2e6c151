"""The web pages' view of the store (skirmbot.web), read-only: a published server's leagues,
a league's standings, rounds and pairings, a player's games, and a match step by step.

Nothing here writes, except the server's own choice to publish its pages (`set_published`,
from /web publish) and the step pictures it draws, kept in the store by content so that every
process behind the same address serves them without drawing them again (issue 32). Every
reading answers None for what is not there or not public, which the web layer turns into a
404: a server that did not publish, an unknown league, player or match.
A match still in play shows only what its channel has shown: the record so far (no dice key,
no seed, no secret secondary objective; the commitment and salts, which were posted), no
placement still hidden in its set-up. A match that is over gives its whole record, with what
`skirmbot verify` checks (skirmbot.rules.record.revealed).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.replay import activation_steps, numbered_steps
from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import MatchRecord, revealed, so_far
from skirmbot.service.errors import ServiceError
from skirmbot.service.leagues import (
    MAX_NAME,
    MISSED_TO_AUTOMATIC,
    MISSED_TO_AUTOMATIC_WORDS,
    LeagueService,
    game_result,
    result_words,
)
from skirmbot.service.links import PUBLISHED
from skirmbot.service.matches import ABORTED, PLAYING, MatchService
from skirmbot.service.replies import describe
from skirmbot.service.snapshots import code_fingerprint
from skirmbot.store import LeagueGameRow, MatchRow, Store

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # SQLite's largest integer
CACHE = 256  # pictures kept in memory
PICTURES_KEPT = 20_000  # step pictures kept in the database (about 40 KB each: some 800 MB)
PICTURE_CODE = ("skirmbot.rules", "skirmbot.render")  # what a step picture is drawn by


@dataclass(frozen=True)
class LeagueLine:
    name: str
    ruleset: str
    status: str


@dataclass(frozen=True)
class GameLine:
    round: int
    board: int
    first: int
    first_name: str
    second: int | None
    second_name: str
    result: str
    match_id: int | None


@dataclass(frozen=True)
class RoundLine:
    number: int
    status: str
    mission: str
    map: str
    games: list[GameLine]


@dataclass(frozen=True)
class LeaguePage:
    name: str
    subtitle: str
    columns: tuple[str, ...]
    rows: list[dict[str, Any]]  # each: user, rank, name, record, the columns' values, dropped
    rounds: list[RoundLine]
    score: str = "MP"  # the league's ruleset's short name for a score (`Ruleset.score_words`)
    # Rules of the league a player should know before a deadline bites (substitutes, issue 34).
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerPage:
    league: str
    name: str
    squad: str
    dropped_round: int | None
    games: list[GameLine]


@dataclass(frozen=True)
class MatchPage:
    id: int
    title: str
    status: str
    finished: bool
    logs: list[str]  # one per step: step 0 is the deployment
    version: int
    titles: list[str]  # each step's heading: Deployment, Activation N (as /match log), The end


class Pages:
    """Read-only pages of the store, per published server."""

    def __init__(self, store: Store, matches: MatchService | None = None) -> None:
        self.store = store
        self.matches = matches or MatchService(store)
        self.leagues = LeagueService(store, self.matches)
        self._steps: OrderedDict[tuple[int, int], list[tuple[str, str]]] = OrderedDict()
        self._pictures: OrderedDict[str, bytes] = OrderedDict()

    # --- publishing --------------------------------------------------------------------------
    async def published(self, guild: int) -> bool:
        if not 0 <= guild <= MAX_ID:
            return False
        return await self.store.get_setting(guild, PUBLISHED) == "1"

    async def set_published(self, guild: int, on: bool) -> None:
        """The server's admins publish its pages (on) or take them down (off, the default)."""
        await self.store.set_setting(guild, PUBLISHED, "1" if on else None)

    # --- leagues ------------------------------------------------------------------------------
    async def guild_leagues(self, guild: int) -> list[LeagueLine] | None:
        if not await self.published(guild):
            return None
        return [LeagueLine(x.name, x.ruleset, x.status) for x in await self.store.leagues(guild)]

    async def league(self, guild: int, name: str) -> LeaguePage | None:
        found = await self._league(guild, name)
        if found is None:
            return None
        standings = await self.leagues.standings_of(guild, found.name)
        table = standings.table
        rows = []
        for line, row in zip(standings.standings, table.rows, strict=True):
            rows.append(
                {
                    "user": line.player, "rank": row.rank, "name": row.name,
                    "record": f"{line.wins}-{line.draws}-{line.losses}"
                    + (f" ({line.byes} bye{'s' if line.byes != 1 else ''})" if line.byes else ""),
                    "points": row.points, "mp_difference": f"{row.mp_difference:+d}",
                    "strength_of_schedule": row.strength_of_schedule,
                    "rating": f"{row.rating:.1f}", "dropped": row.dropped,
                }
            )  # fmt: skip
        names = await self._names(found.id)
        games = await self.store.league_games(found.id)
        rounds = [
            RoundLine(
                r.number,
                r.status,
                r.mission,
                r.map,
                [_game(g, names) for g in games if g.round == r.number],
            )  # fmt: skip
            for r in await self.store.league_rounds(found.id)
        ]
        columns = tuple(c for c in table.columns if c not in ("rank", "name", "record"))
        rules = (MISSED_TO_AUTOMATIC_WORDS,) if found.config.get(MISSED_TO_AUTOMATIC) else ()
        return LeaguePage(found.name, table.subtitle, columns, rows, rounds, table.score, rules)

    async def player(self, guild: int, name: str, user: int) -> PlayerPage | None:
        found = await self._league(guild, name)
        if found is None:
            return None
        entry = next(
            (p for p in await self.store.league_players(found.id) if p.user_id == user), None
        )
        if entry is None:
            return None
        names = await self._names(found.id)
        games = [
            _game(g, names)
            for g in await self.store.league_games(found.id)
            if user in (g.first, g.second)
        ]
        return PlayerPage(found.name, entry.name, entry.squad_name, entry.dropped_round, games)

    # --- matches ------------------------------------------------------------------------------
    async def match(self, guild: int, match_id: int) -> MatchPage | None:
        row = await self._match(guild, match_id)
        if row is None:
            return None
        record = _public_record(row)
        steps: list[tuple[str, str]] = []
        if record is not None:
            key = (row.id, row.version)
            cached = self._steps.get(key)
            if cached is None:
                cached = await asyncio.to_thread(_steps, record)
                self._steps[key] = cached
                while len(self._steps) > CACHE:
                    self._steps.popitem(last=False)
            steps = cached
        names = " v ".join(n or "?" for n in row.names)
        titles, logs = [title for title, _ in steps], [log for _, log in steps]
        return MatchPage(
            row.id,
            f"Match #{row.id}: {names}",
            row.status,
            not row.active,
            logs,
            row.version,
            titles,
        )

    async def step_tag(self, guild: int, match_id: int, step: int) -> str | None:
        """The picture's ETag (without rendering it); None: no such picture."""
        row = await self._match(guild, match_id)
        if row is None or _public_record(row) is None:
            return None
        return _tag(row, step)

    async def step_png(self, guild: int, match_id: int, step: int) -> tuple[str, bytes] | None:
        """The battlemap after activation `step` (0: as deployed), with its ETag."""
        row = await self._match(guild, match_id)
        record = None if row is None else _public_record(row)
        if row is None or record is None:
            return None
        tag = _tag(row, step)
        picture = self._pictures.get(tag)
        if picture is None:
            picture = await self._picture(row, record, step)
            if picture is None:
                return None
            self._pictures[tag] = picture
            while len(self._pictures) > CACHE:
                self._pictures.popitem(last=False)
        return tag, picture

    async def _picture(self, row: MatchRow, record: MatchRecord, step: int) -> bytes | None:
        """The step's picture as the store keeps it by content (another process behind the same
        address may have drawn it), else drawn here and kept there for the others."""
        key = await asyncio.to_thread(picture_key, record, step)
        kept = await self.store.step_picture(key)
        if kept is not None:
            return kept
        picture = await asyncio.to_thread(_render, record, step)
        if picture is not None:
            try:
                await self.store.keep_step_picture(key, row.id, picture, PICTURES_KEPT)
            except Exception:  # a cache (any database error): the picture is served all the same
                log.warning("The step picture of match %d was not kept", row.id, exc_info=True)
        return picture

    async def record_json(self, guild: int, match_id: int) -> tuple[str, bytes] | None:
        """The record's file name and bytes: whole once the match is over, so far before."""
        row = await self._match(guild, match_id)
        if row is None:
            return None
        if not row.active:  # with the key, and the rolls and result skirmbot verify checks
            whole = await asyncio.to_thread(revealed, MatchRecord.from_json(row.record))
            return f"skirm-match-{row.id}.json", whole.dumps().encode()
        record = _public_record(row)
        if record is None:
            return None
        return f"skirm-match-{row.id}-so-far.json", record.dumps().encode()

    # --- helpers ------------------------------------------------------------------------------
    async def _league(self, guild: int, name: str) -> Any:
        if len(name) > MAX_NAME or not await self.published(guild):
            return None
        return await self.store.league(guild, " ".join(name.split()))

    async def _names(self, league_id: int) -> dict[int | None, str]:
        return {p.user_id: p.name for p in await self.store.league_players(league_id)}

    async def _match(self, guild: int, match_id: int) -> MatchRow | None:
        if not 0 <= match_id <= MAX_ID or not await self.published(guild):
            return None
        row = await self.store.match(match_id)
        if row is None or row.guild_id != guild:
            return None
        return row


def _game(game: LeagueGameRow, names: dict[int | None, str]) -> GameLine:
    a, b = names.get(game.first, "?"), names.get(game.second, "?")
    decided = game_result(game)
    if game.second is None:
        result = "bye"
    elif decided is None:
        result = "playing"
    else:
        result = result_words(decided.game, game, names)
    return GameLine(game.round, game.board, game.first, a, game.second, b, result, game.match_id)


def _public_record(row: MatchRow) -> MatchRecord | None:
    """What the page may replay: the whole record once the match is over, the record so far
    (public: no key, no unrevealed secondary objective) while it is played; None before both
    squads are in play or when the record does not replay."""
    try:
        record = MatchRecord.from_json(row.record)
        if not all(record.content.get("squads") or [None]):
            return None
        if row.active:
            return so_far(record) if row.status == PLAYING else None  # hides every seat's
        if row.status == ABORTED and not record.commands:
            return None
        return record
    except (RulesError, ServiceError, KeyError, TypeError, ValueError):
        return None


def _steps(record: MatchRecord) -> list[tuple[str, str]]:
    """Each step's heading and log."""
    try:
        return [
            (step.title, describe(step.events)) for step, _ in numbered_steps(record, trusted=True)
        ]
    except RulesError:
        return []


def _render(record: MatchRecord, step: int) -> bytes | None:
    renderer = MapRenderer()
    try:
        for number, (view, events) in enumerate(activation_steps(record, trusted=True)):
            if number == step:
                return renderer.png(view, events)
    except RulesError:
        return None
    return None


def picture_key(record: MatchRecord, step: int) -> str:
    """What a step picture is kept under: a digest of the public record it is drawn from, the
    step and the code that draws it (a picture drawn by other code is drawn again)."""
    digest = hashlib.sha256(record.dumps().encode())
    digest.update(f"|step {step}|".encode())
    for package in PICTURE_CODE:
        digest.update(code_fingerprint(package).encode())
    return digest.hexdigest()


def _tag(row: MatchRow, step: int) -> str:
    key = json.dumps([row.id, row.version, len(row.record.get("commands", [])), step])
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'
