"""Building and running the Discord bot (`skirmbot run`).

`make_bot` builds the bot: its `setup_hook` opens the store, creates the match service, loads
the cogs and syncs the slash commands. `run` is the process: token and settings from the
environment (or a `.env` file), optional endpoints of a local fake of Discord, and a clean stop
on SIGTERM/SIGINT (what `docker stop` and Ctrl-C send), which `Client.run` does not give.

With `SKIRMBOT_SHARDS` (skirmbot/shards.py) the process runs only those of Discord's shards,
as discord.py's AutoShardedBot (`ShardedSkirmBot`); several such processes share one database.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import discord
import yarl
from discord.ext import commands

from skirmbot.collector import settle_collector
from skirmbot.loopwatch import LoopWatch
from skirmbot.service import MatchService, timing
from skirmbot.service.leagues import LeagueService
from skirmbot.service.links import PageLinks
from skirmbot.service.pages import Pages
from skirmbot.shards import Shards, ShardsError, parse_shards
from skirmbot.store import Deadline, Store, StoreError
from skirmbot.store.sql import SQLITE, database_url
from skirmbot.timers.clock import STARTUP_GRACE
from skirmbot.timers.scheduler import POLL_SECONDS, Scheduler, StoreClaims

log = logging.getLogger("skirmbot.bot")

# Loaded in this order: the error handler first, so nothing runs before it is in place.
EXTENSIONS: tuple[str, ...] = (
    "skirmbot.cogs.errors",
    "skirmbot.cogs.buttons",
    "skirmbot.cogs.matches",
    "skirmbot.cogs.play",
    "skirmbot.cogs.timers",
    "skirmbot.cogs.notify",  # issue 34: daily digests
    "skirmbot.cogs.squads",
    "skirmbot.cogs.dice",
    "skirmbot.cogs.leagues",
    "skirmbot.cogs.maps",
    "skirmbot.cogs.web",
    "skirmbot.cogs.inbox",  # issue 34: /mine, the "your move" inbox
)
DEFAULT_DB = "skirmbot.db"
EXIT_OK, EXIT_FAILED, EXIT_CONFIG = 0, 1, 2
LEAGUE_CHECK_SECONDS = 300.0  # how often the leagues' rounds are checked (closed, reminded)
STALL_LOOK_SECONDS = 0.05  # how often the event loop is looked at for stalls
STALL_WARNING_SECONDS = 0.5  # a stall this long is logged


class SkirmBot(commands.Bot):
    """The Discord bot: one store and one match service shared by every cog. This class runs
    one gateway session for every guild; `ShardedSkirmBot` runs some of the shards."""

    def __init__(
        self,
        store_path: str | Path,
        *,
        seed_source: Callable[[], int] | None = None,
        sync_commands: bool = True,
        extensions: Sequence[str] = EXTENSIONS,
        run_timers: bool = True,
        clock: Callable[[], float] = time.time,
        web: str | None = None,
        web_url: str | None = None,
        own_shards: Shards | None = None,
        **options: Any,
    ) -> None:
        # Slash commands only: no prefix commands, no privileged intents, no voice (so no
        # warnings at start-up about the voice libraries it does not need).
        options.setdefault("intents", discord.Intents.default())
        # READY is not held back waiting for more GUILD_CREATEs (discord.py waits 2 s after the
        # last one by default): the bot needs no guild cache to answer (interactions carry
        # their guild and channel), and guilds that arrive after READY are cached as they come.
        options.setdefault("guild_ready_timeout", 0.0)
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **options)
        self.store_path = str(store_path)
        # Not `shards`: AutoShardedClient has a property of that name (the running shards).
        self.own_shards = own_shards  # None: the only process, every guild is its own
        self.seed_source = seed_source
        self.sync_commands = sync_commands
        self.extension_names = tuple(extensions)
        self.run_timers = run_timers  # off in in-process tests that drive time themselves
        self.clock = clock  # the turn timers' time (tests may run it faster)
        self._store: Store | None = None
        self._service: MatchService | None = None
        self._leagues: LeagueService | None = None
        self._pages: Pages | None = None
        self.web = web  # host:port to serve the web pages on (SKIRMBOT_WEB); None: no pages
        self.web_url = web_url  # the pages' public address for links (SKIRMBOT_WEB_URL)
        self._web_runner: Any = None
        self.league_check_seconds = LEAGUE_CHECK_SECONDS
        self._league_checks: asyncio.Task[None] | None = None
        self.scheduler = Scheduler(self.on_deadline, clock=clock)
        self._timers: asyncio.Task[None] | None = None
        self.deadline_poll_seconds = POLL_SECONDS
        self._deadline_polls: asyncio.Task[None] | None = None
        # Long stalls of the event loop are logged: they hold up the gateway's heartbeat.
        self.loop_watch = LoopWatch(STALL_LOOK_SECONDS, report_above=STALL_WARNING_SECONDS,
                                    on_stall=self._log_stall)  # fmt: skip

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("The store opens in setup_hook, when the bot logs in.")
        return self._store

    @property
    def service(self) -> MatchService:
        if self._service is None:
            raise RuntimeError("The match service starts in setup_hook, when the bot logs in.")
        return self._service

    @property
    def leagues(self) -> LeagueService:
        if self._leagues is None:
            raise RuntimeError("The league service starts in setup_hook, when the bot logs in.")
        return self._leagues

    @property
    def pages(self) -> Pages:
        if self._pages is None:
            raise RuntimeError("The web pages' service starts in setup_hook, when the bot logs in.")
        return self._pages

    async def setup_hook(self) -> None:
        self._store = await Store.open(self.store_path)
        self._service = MatchService(
            self._store, seed_source=self.seed_source, clock=self.clock,
            on_deadline=self.scheduler.arm,
        )  # fmt: skip
        self._service.links = PageLinks(self._store, self.web_url or self._own_address())
        self._leagues = LeagueService(self._store, self._service, clock=self.clock)
        self._pages = Pages(self._store, self._service)
        if self.web:
            from skirmbot.web.app import listen_address, serve

            host, port = listen_address(self.web)
            self._web_runner = await serve(self._store, host, port, self._pages)
        await self._complete_what_ended()
        # Claimed in the database before firing: with several processes, each fires once.
        self.scheduler.claims = StoreClaims(self._store)
        rearmed = await self.scheduler.load(self._store, STARTUP_GRACE)
        log.info(
            "Re-armed %d turn deadlines (overdue ones fire after %d minutes)",
            rearmed,
            STARTUP_GRACE // 60,
        )
        if self.run_timers:
            self._timers = asyncio.create_task(self.scheduler.run(), name="skirmbot turn timers")
            self._deadline_polls = asyncio.create_task(
                self._poll_deadlines(), name="skirmbot deadlines of other processes"
            )
            self.loop_watch.start()
            self._league_checks = asyncio.create_task(
                self._check_leagues(), name="skirmbot league rounds"
            )
        for name in self.extension_names:
            await self.load_extension(name)
        settle_collector()  # what start-up made stays: the collector need not walk it again
        if self.sync_commands and self.leads:
            synced = await self.tree.sync()
            log.info("Synced %d slash commands", len(synced))
        elif self.sync_commands:  # the commands are global: the process with shard 0 syncs
            log.info("Slash commands are synced by the process running shard 0")

    @property
    def leads(self) -> bool:
        """Does this process do what is done once for the whole bot: syncing the slash commands
        (global, the same for every shard; N processes uploading them at every start would
        spend Discord's rate limit for nothing)?"""
        return self.own_shards is None or self.own_shards.leads

    def _own_address(self) -> str | None:
        """The pages' address when the bot serves them and no public address is given."""
        return f"http://{self.web}" if self.web else None

    async def _complete_what_ended(self) -> None:
        """What a match's end leaves to do, if an older version or a crash left it undone:
        results as columns (ratings) and stored squads' XP (campaigns). A failure here is
        logged and never keeps the bot from starting."""
        assert self._service is not None
        try:
            filled = await self._service.complete_results()
            if filled:
                log.info("Stored the results of %d matches ended before this version", len(filled))
            completed = await self._service.campaigns.complete_awards()
            if completed:
                log.info("Completed the XP awards of %d ended matches", len(completed))
        except Exception:
            log.exception("Could not complete the results and awards of ended matches")

    async def on_ready(self) -> None:
        log.info(
            "Connected as %s (%s) to %d servers",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
        )

    async def on_deadline(self, match_id: int, deadline: Deadline) -> None:
        """A turn deadline came due: apply it (the match is saved), and let the timers cog post
        what happened (event `skirm_timer`: the match id, its channel id and the reply).
        With several processes, whichever claimed the deadline in the database fires it (the
        scheduler's claims), whatever its guild's shard: posting needs no gateway session, so a
        deadline fires once while any process is up."""
        reply = await timing.on_deadline(self.service, match_id, deadline)
        row = await self.store.match(match_id)
        if reply is not None and row is not None:
            self.dispatch("skirm_timer", match_id, row.channel_id, reply)

    async def _check_leagues(self) -> None:
        """Every few minutes: the leagues' rounds whose games all ended are closed, and the
        organisers of a round past its deadline are reminded (once); the leagues cog posts
        each notice in its league's channel (event `skirm_league`: the LeagueNotice)."""
        while True:
            await asyncio.sleep(self.league_check_seconds)  # the cogs are loaded by then
            try:
                notices = await self.leagues.due_rounds()
            except Exception:  # one bad check must not stop the next ones
                log.exception("Checking the leagues' rounds failed")
                continue
            for notice in notices:
                self.dispatch("skirm_league", notice)

    async def _poll_deadlines(self) -> None:
        """Now and then, arm the deadlines other processes saved (sharded bots on one
        database), and those whose firing failed or whose process died mid-fire."""
        while True:
            await asyncio.sleep(self.deadline_poll_seconds)
            try:
                await self.scheduler.poll(self.store)
            except Exception:  # the database is away for a moment: look again next time
                log.exception("Looking for other processes' deadlines failed")

    def _log_stall(self, seconds: float) -> None:
        log.warning(
            "The event loop stalled for %.0f ms (Discord's heartbeat and other players' "
            "commands waited that long)",
            seconds * 1000,
        )

    async def close(self) -> None:
        await self.loop_watch.stop()
        if self._deadline_polls is not None:
            self._deadline_polls.cancel()
        if self._timers is not None:
            self._timers.cancel()
        if self._league_checks is not None:
            self._league_checks.cancel()
        if self._web_runner is not None:
            await self._web_runner.cleanup()
            self._web_runner = None
        try:
            await super().close()
        finally:
            if self._store is not None:
                await self._store.close()
                log.info("Store closed")


class ShardedSkirmBot(SkirmBot, commands.AutoShardedBot):
    """The bot on some of Discord's shards: discord.py's AutoShardedBot opens one gateway
    session per shard id, identifying as `[id, count]`, and Discord sends each session only
    its shard's guilds. The shard count is given, so discord.py does not ask Discord for one
    (`GET /gateway/bot`): every process must agree on it, and it connects to
    `DiscordWebSocket.DEFAULT_GATEWAY`. (commands.Bot adds nothing to BotBase and Client, so
    in this class's order AutoShardedClient's methods stand before Client's.)"""

    def __init__(self, store_path: str | Path, *, own_shards: Shards, **options: Any) -> None:
        super().__init__(
            store_path,
            own_shards=own_shards,
            shard_ids=list(own_shards.ids),
            shard_count=own_shards.count,
            **options,
        )


def make_bot(
    store_path: str | Path,
    *,
    seed_source: Callable[[], int] | None = None,
    sync_commands: bool = True,
    extensions: Sequence[str] = EXTENSIONS,
    run_timers: bool = True,
    clock: Callable[[], float] = time.time,
    web: str | None = None,
    web_url: str | None = None,
    shards: Shards | None = None,
    **options: Any,
) -> SkirmBot:
    """The bot, not yet logged in. `seed_source` fixes the dice of new matches (tests);
    `run_timers` False leaves the deadline scheduler's task unstarted (in-process tests);
    `clock` is the turn timers' time (tests run it faster); `shards` (SKIRMBOT_SHARDS) runs
    only those shards, as a ShardedSkirmBot."""
    common: dict[str, Any] = dict(
        seed_source=seed_source,
        sync_commands=sync_commands,
        extensions=extensions,
        run_timers=run_timers,
        clock=clock,
        web=web,
        web_url=web_url,
    )
    if shards is None:
        return SkirmBot(store_path, **common, **options)
    return ShardedSkirmBot(store_path, own_shards=shards, **common, **options)


# --- configuration --------------------------------------------------------------------------
def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a `.env` file (comments, blank lines and `export ` allowed)."""
    values: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        return values
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def settings(
    environ: Mapping[str, str] | None = None, dotenv: Path | None = None
) -> dict[str, str]:
    """The `.env` file's values overridden by the real environment (as docker/systemd set it)."""
    merged = read_dotenv(dotenv if dotenv is not None else Path.cwd() / ".env")
    merged.update(os.environ if environ is None else environ)
    return merged


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Talk to another Discord (a local fake) instead of discord.com.

    REST: every request, interaction callbacks and webhooks included, is built from
    `discord.http.Route.BASE` (e.g. `http://127.0.0.1:8080/api/v10`). Gateway: a plain
    `Client` never asks `GET /gateway/bot`; it connects to `DiscordWebSocket.DEFAULT_GATEWAY`
    (adding `?v=10&encoding=json&compress=zlib-stream`), falls back to it when a session is
    invalidated, and resumes at READY's `resume_gateway_url`. So the default is replaced
    here, and `_gateway_override` answers `get_bot_gateway` (what sharded clients ask) with it.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def _gateway_override(bot: SkirmBot, gateway_url: str) -> None:
    """Sharded start-up asks the REST API for the gateway: answer with ours."""
    original = bot.http.get_bot_gateway

    async def get_bot_gateway() -> Any:
        shards, _url, limits = await original()
        return shards, gateway_url, limits

    bot.http.get_bot_gateway = get_bot_gateway  # type: ignore[method-assign]


# --- running ---------------------------------------------------------------------------------
def run() -> int:
    """`skirmbot run`: start the bot and keep it running until SIGTERM/SIGINT."""
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    config = settings()
    token = config.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(
            "skirmbot: DISCORD_TOKEN is not set; put the bot token in the environment or in a "
            ".env file (DISCORD_TOKEN=...) in this directory.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    shards_text = config.get("SKIRMBOT_SHARDS", "").strip()
    try:
        shards = parse_shards(shards_text) if shards_text else None
    except ShardsError as error:
        print(f"skirmbot: SKIRMBOT_SHARDS={shards_text}: {error}", file=sys.stderr)
        return EXIT_CONFIG
    db_path = config.get("SKIRMBOT_DB") or DEFAULT_DB
    problem = asyncio.run(_database_problem(db_path))
    if problem is not None:
        print(f"skirmbot: SKIRMBOT_DB={shown(db_path)}: {problem}", file=sys.stderr)
        return EXIT_CONFIG
    gateway_url = config.get("DISCORD_GATEWAY_URL") or None
    point_at(config.get("DISCORD_API_BASE") or None, gateway_url)
    try:
        web, web_url = config.get("SKIRMBOT_WEB") or None, config.get("SKIRMBOT_WEB_URL") or None
        return asyncio.run(_serve(token, db_path, gateway_url, web, web_url, shards))
    except KeyboardInterrupt:  # a second Ctrl-C while shutting down
        return EXIT_OK


async def _database_problem(db_url: str) -> str | None:
    """Why the bot cannot keep its matches in `db_url` (a SQLite file or a PostgreSQL URL), in
    one line (None: it can), checked before connecting to Discord so that a wrong setting is
    not a traceback after login."""
    try:
        kind, target = database_url(db_url)
    except ValueError as error:
        return f"{error}"
    if kind == SQLITE:
        path = Path(target)
        if target != ":memory:" and path.is_dir():
            return f"that is a folder; give a file name, such as {path / DEFAULT_DB}."
    try:
        if kind == SQLITE and target != ":memory:":
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        store = await Store.open(db_url)
    except (OSError, sqlite3.Error, StoreError, asyncpg.PostgresError) as error:
        where = "there" if kind == SQLITE else "in that PostgreSQL database"
        return f"cannot keep the matches {where}: {error}."
    await store.close()
    return None


def shown(db_url: str) -> str:
    """The database's address as it may be logged: without a password."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", db_url)


async def _serve(
    token: str,
    db_path: str,
    gateway_url: str | None,
    web: str | None = None,
    web_url: str | None = None,
    shards: Shards | None = None,
) -> int:
    bot = make_bot(db_path, web=web, web_url=web_url, shards=shards)
    if gateway_url:
        _gateway_override(bot, gateway_url)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    log.info(
        "Starting skirmbot (database %s, API %s, shards %s)",
        shown(db_path),
        discord.http.Route.BASE,
        shards or "all",
    )
    async with bot:
        running = asyncio.create_task(bot.start(token), name="skirmbot")
        stopping = asyncio.create_task(stop.wait(), name="skirmbot-signals")
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stopping.done() and not running.done():
            log.info("Signal received: closing the connection to Discord and the store")
            await bot.close()
        stopping.cancel()
        code = _outcome(await asyncio.gather(running, return_exceptions=True))
    log.info("skirmbot stopped")
    return code


def _outcome(results: Sequence[BaseException | None]) -> int:
    """The exit code for how `bot.start` ended, with one clear line for a known failure."""
    error = results[0]
    if error is None or isinstance(error, asyncio.CancelledError):
        return EXIT_OK
    if isinstance(error, discord.LoginFailure):
        print(
            "skirmbot: Discord refused the token in DISCORD_TOKEN (not a valid bot token); "
            "copy it again from the Developer Portal.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    if isinstance(error, discord.PrivilegedIntentsRequired):
        print(f"skirmbot: {error}", file=sys.stderr)
        return EXIT_CONFIG
    if isinstance(error, StoreError):
        print(f"skirmbot: the database cannot be used: {error}", file=sys.stderr)
        return EXIT_FAILED
    if isinstance(
        error, aiohttp.ClientError | OSError | discord.GatewayNotFound | discord.HTTPException
    ):
        print(
            f"skirmbot: cannot reach Discord at {discord.http.Route.BASE}: {error}", file=sys.stderr
        )
        return EXIT_FAILED
    log.error("skirmbot stopped on an unexpected error", exc_info=error)
    return EXIT_FAILED
