"""The bot as several processes, each running a range of Discord's shards (SKIRMBOT_SHARDS).

The parser of the setting; which guilds a process owns (its deadlines, its command syncs); two
real `skirmbot run` processes on one database against the fake Discord, each answering only the
guilds of its own shard; and the Compose file of docs/deploy.md.
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from discord.ext import commands
from fakediscord import FakeDiscord, Interaction
from fakediscord.server import Session
from test_wire import Bot

from skirmbot.bot import EXIT_CONFIG, ShardedSkirmBot, SkirmBot, make_bot, run
from skirmbot.shards import Shards, ShardsError, parse_shards, shard_of

REPO = Path(__file__).resolve().parents[1]
START_TIMEOUT = 20.0  # from spawning a process to its shard's session identified
REPLY_TIMEOUT = 10.0
TEST_TIMEOUT = 60.0


# --- the setting -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "ids", "count"),
    [
        ("0-3/16", (0, 1, 2, 3), 16),
        ("2/4", (2,), 4),
        ("0,2/4", (0, 2), 4),
        ("0/1", (0,), 1),
        (" 8-11, 0-3 / 16 ", (0, 1, 2, 3, 8, 9, 10, 11), 16),  # spaces, any order
        ("15-15/16", (15,), 16),
    ],
)
def test_the_shards_setting_reads_ids_ranges_and_the_count(
    text: str, ids: tuple[int, ...], count: int
) -> None:
    assert parse_shards(text) == Shards(ids, count)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("4/4", "shard 4 is out of range: the 4 shards are 0 to 3"),
        ("0-16/16", "shard 16 is out of range"),
        ("1/1", "the only shard is 0"),
        ("0/0", "the shard count must be from 1 to"),
        ("0/-2", "the shard count after the slash must be a whole number"),
        ("0/x", "must be a whole number"),
        ("3", "give the shard ids, a slash and the shard count"),
        ("/4", "give the shard ids before the slash"),
        ("a/4", "'a' is not a shard id or a range of ids"),
        ("-1/4", "'-1' is not a shard id"),
        ("0,,1/4", "'' is not a shard id"),
        ("3-1/4", "the range 3-1 runs backwards"),
        ("0-2,1/4", "shard 1 is named twice"),
        ("٣/4", "is not a shard id"),  # a digit, but not one a shard number is written with
        ("0/99999999", "the shard count must be from 1 to"),
    ],
)
def test_a_bad_shards_setting_says_why_in_one_line(text: str, says: str) -> None:
    with pytest.raises(ShardsError) as raised:
        parse_shards(text)
    assert says in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_guild_is_on_the_shard_discord_computes() -> None:
    guild = (12345 << 22) | 77  # Discord: (guild_id >> 22) % shard_count
    assert shard_of(guild, 16) == 12345 % 16
    assert parse_shards("0-7/16").owns(guild) == (12345 % 16 < 8)
    assert shard_of(0, 4) == 0  # no guild (a DM): shard 0, as Discord sends DMs there
    assert [parse_shards(s).leads for s in ("0-7/16", "8-15/16", "0/1")] == [True, False, True]
    assert str(parse_shards("0-3,8,10-11/16")) == "0-3,8,10-11/16"


def test_run_refuses_a_bad_shards_setting_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("SKIRMBOT_DB", str(tmp_path / "skirmbot.db"))
    monkeypatch.setenv("SKIRMBOT_SHARDS", "0-4/4")
    assert run() == EXIT_CONFIG
    error = capsys.readouterr().err.strip()
    why = "shard 4 is out of range: the 4 shards are 0 to 3."
    assert error == f"skirmbot: SKIRMBOT_SHARDS=0-4/4: {why}"
    assert not (tmp_path / "skirmbot.db").exists()  # refused before anything was touched


# --- the bot, in process -----------------------------------------------------------------------
def test_the_bot_is_sharded_only_when_told_which_shards() -> None:
    one = make_bot(":memory:", sync_commands=False)
    assert type(one) is SkirmBot and not isinstance(one, commands.AutoShardedBot)
    assert one.own_shards is None and one.leads  # every guild is this process's

    sharded = make_bot(":memory:", sync_commands=False, shards=parse_shards("1,3/4"))
    assert isinstance(sharded, ShardedSkirmBot) and isinstance(sharded, commands.AutoShardedBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([1, 3], 4)
    assert sharded.own_shards is not None
    assert [sharded.own_shards.owns(n << 22) for n in range(4)] == [False, True, False, True]
    assert not sharded.leads


# --- two processes on the wire -------------------------------------------------------------------
class BotProcess(Bot):
    """One `skirmbot run` process against the fake, running `shards` on the database `db`
    (a file path or URL, as SKIRMBOT_DB takes it), its log in a file. With `warp`
    (SKIRMBOT_WARP_SPEED, and SKIRMBOT_WARP_START that every process shares) the turn timers'
    clock runs faster (tests/fakediscord/warp.py)."""

    def __init__(
        self, fake: FakeDiscord, db: str, shards: str, log: Path, warp: dict[str, str] | None = None
    ) -> None:
        speed = float(warp["SKIRMBOT_WARP_SPEED"]) if warp else None
        super().__init__(
            fake, db, log, fake.token, speed, {"SKIRMBOT_SHARDS": shards, **(warp or {})}
        )
        self.shards = shards
        self.session: Session | None = None  # its gateway session, once it has identified

    async def terminate(self) -> int:
        """SIGTERM, as `docker stop` sends; the exit code (-1: still running after 10 s)."""
        self.process.send_signal(signal.SIGTERM)
        code = await self.wait_exit(10)
        return -1 if code is None else code

    kill = Bot.stop  # SIGKILL, at once


async def start_processes(
    fake: FakeDiscord,
    db: str,
    shard_settings: list[str],
    folder: Path,
    started: list[BotProcess],
    warp: dict[str, str] | None = None,
) -> None:
    """One process per SKIRMBOT_SHARDS value, all on the database `db` (a SQLite file or a
    postgresql:// URL), added to `started` (to be killed at the end whatever happens). One
    after the other, so that each new gateway session is known to be the new process's."""
    for setting in shard_settings:
        log = folder / f"bot-{len(started)}.log"
        await start_process(fake, db, parse_shards(setting), log, started, warp)


async def start_process(
    fake: FakeDiscord,
    db: str,
    shards: Shards,
    log: Path,
    started: list[BotProcess],
    warp: dict[str, str] | None = None,
) -> BotProcess:
    """Ready once its shards' sessions have identified (the lead, with shard 0, once it has
    also synced the commands)."""
    known = len(fake.sessions)
    process = BotProcess(fake, db, str(shards), log, warp)
    started.append(process)

    def identified() -> list[Session]:
        return [s for s in fake.sessions[known:] if s.identify is not None]

    what = f"process {shards} to identify on its {len(shards.ids)} shards"
    await process.until(lambda: len(identified()) == len(shards.ids), what, START_TIMEOUT)
    if shards.leads:
        await process.until(lambda: fake.command_syncs, "the commands synced", START_TIMEOUT)
    sessions = identified()
    assert sorted(s.shard or (-1, -1) for s in sessions) == [(n, shards.count) for n in shards.ids]
    process.session = sessions[0]
    return process


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    server.shard_count = 2  # what GET /gateway/bot recommends, as Discord would for a big bot
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The one database every process shares, SKIRMBOT_DB as the processes are given it: a
    SQLite file, or a database on the real PostgreSQL server the test run started."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "skirmbot.db")


@pytest.fixture
def processes() -> Iterator[list[BotProcess]]:
    """Processes a test started; every one still running is killed at teardown."""
    started: list[BotProcess] = []
    yield started
    for process in started:
        process.kill()


async def answered(process: BotProcess, interaction: Interaction) -> Interaction:
    await process.until(
        lambda: process.fake.responded_to(interaction),
        f"{process.shards} to answer {interaction.payload['data']}",
        REPLY_TIMEOUT,
    )
    return interaction


async def test_each_process_answers_the_guilds_of_its_own_shard(
    fake: FakeDiscord, database: str, processes: list[BotProcess], tmp_path: Path
) -> None:
    zero = fake.add_guild("Shard zero club", shard=0, shard_count=2)
    one = fake.add_guild("Shard one club", shard=1, shard_count=2)
    async with asyncio.timeout(TEST_TIMEOUT):
        await start_processes(fake, database, ["0/2", "1/2"], tmp_path, processes)
        a, b = processes
        assert a.session is not None and b.session is not None
        # Discord's READY and GUILD_CREATEs: each session gets its own shard's guilds only.
        assert zero.id in a.session.guild_ids and one.id in b.session.guild_ids
        assert sorted(a.session.guild_ids + b.session.guild_ids) == sorted(fake.guilds)
        assert fake.command_syncs == 1, "only the process with shard 0 syncs the commands"

        for process, guild in ((a, zero), (b, one)):
            roll = await fake.slash("roll", channel_id=guild.channel_id, expression="2d6")
            assert roll.session is process.session, f"{guild.name}'s /roll went elsewhere"
            await answered(process, roll)
            assert roll.callback_type == 4 and "2d6" in roll.text, roll.text
            # A match, kept in the shared database, from each process.
            new = await fake.slash("match new", channel_id=guild.channel_id, practice=True)
            assert new.session is process.session
            await answered(process, new)
            assert not new.messages[0].ephemeral and "match" in new.text.lower(), new.text

        assert a.log().count("Shard ID 0 has connected") == 1 and "Shard ID 1" not in a.log()
        assert b.log().count("Shard ID 1 has connected") == 1 and "Shard ID 0" not in b.log()
        for process in (a, b):
            assert await process.terminate() == 0, process.log()
            log = process.log()
            assert "Traceback" not in log and " ERROR " not in log, log
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"


# --- the Compose file ----------------------------------------------------------------------------
def compose_services(text: str) -> dict[str, str]:
    """The top-level `services:` block's services, each with its indented text (a YAML
    reading good enough for this file: no YAML parser is installed, and none is added)."""
    block = re.search(r"^services:\n((?:[ \t]+.*\n|\s*\n|#.*\n)*)", text, re.MULTILINE)
    assert block, "no top-level services: block"
    services: dict[str, str] = {}
    name = None
    for line in block[1].splitlines():
        found = re.fullmatch(r"  ([\w-]+):\s*", line)
        if found:
            name = found[1]
            services[name] = ""
        elif name is not None and line.startswith("    "):
            services[name] += line + "\n"
    return services


def test_the_compose_file_runs_the_bot_on_postgresql() -> None:
    text = (REPO / "docs" / "compose.yaml").read_text(encoding="utf-8")
    assert "\t" not in text, "YAML is indented with spaces"
    services = compose_services(text)
    assert {"bot", "db"} <= set(services), services
    db = services["db"]
    assert re.search(r"image:\s*postgres:", db), db
    assert "healthcheck:" in db and "pg_isready" in db, db
    volume = re.search(r"-\s*([\w-]+):/var/lib/postgresql/data", db)
    assert volume, "the database keeps its files on a named volume"
    assert re.search(rf"^volumes:\n(?:\s+.*\n)*?\s+{volume[1]}:", text, re.MULTILINE), volume[1]
    # The bot's settings may come from an anchor (x-bot) shared by several bot services.
    assert re.search(r"SKIRMBOT_DB:\s*postgresql://skirmbot:\S+@db:5432/skirmbot", text)
    assert re.search(r"condition:\s*service_healthy", text)
    assert re.search(r"depends_on:\s*\n\s+db:", text)


# --- PostgreSQL: timers and a killed process ---------------------------------------------------
WARP = {"SKIRMBOT_WARP_SPEED": "1800"}  # the timers' clock: half an hour a second


def channel_posts(fake: FakeDiscord, channel_id: int) -> list[Any]:
    """What the bots posted in a channel on their own (no interaction), in order."""
    return [
        m for m in fake.messages.values() if m.route == "channel" and m.channel_id == channel_id
    ]


async def test_two_processes_on_postgresql_fire_each_deadline_once_and_lose_nothing_to_a_kill(
    fake: FakeDiscord, postgres_url: str, processes: list[BotProcess], tmp_path: Path
) -> None:
    """Issue 14's done-when. Two processes (shards 0 and 1 of 2) on one PostgreSQL database,
    their timers on one warped clock. Alice starts a practice match on a 1-hour clock with 2
    excused misses in the guild on shard 1 and never plays. After the first reminder the
    process running shard 1 is killed (SIGKILL, mid-match, perhaps mid-fire): the other
    process fires every deadline that follows, each exactly once, to the forfeit. Restarted,
    the killed process answers its guild again, and the match is as the other left it."""
    zero = fake.add_guild("Shard zero club", shard=0, shard_count=2)
    one = fake.add_guild("Shard one club", shard=1, shard_count=2)
    warp = {**WARP, "SKIRMBOT_WARP_START": str(time.time())}
    async with asyncio.timeout(2 * TEST_TIMEOUT):
        await start_processes(fake, postgres_url, ["0/2", "1/2"], tmp_path, processes, warp)
        a, b = processes
        new = await fake.slash(
            "match new", channel_id=one.channel_id, practice=True, hours=1, excuses=2
        )
        assert new.session is b.session
        await answered(b, new)
        assert "1 hour per activation" in new.text, new.text
        offered = await fake.autocomplete("match squad", "name", channel_id=one.channel_id)
        await answered(b, offered)
        first = offered.choices[0]["value"]
        squad = await fake.slash("match squad", channel_id=one.channel_id, name=first)
        await answered(b, squad)

        posts = lambda: channel_posts(fake, one.channel_id)  # noqa: E731
        await b.until(lambda: any(m.text.startswith("⏰") for m in posts()), "a reminder", 30)
        b.kill()  # mid-match: what it armed is in the database, and the other process is up
        await a.until(
            lambda: any("no excused misses left" in m.text for m in posts()),
            "the match to end with Alice's forfeit, fired by the process still up",
            60,
        )
        timers = [m for m in posts() if m.text.startswith("⏰")]
        alice = f"<@{fake.alice.id}>"
        kinds = ["remind" if m.text.startswith(f"⏰ {alice}:") else "miss" for m in timers]
        # None twice, none lost: reminder, miss, reminder, miss, ... to the forfeit.
        assert kinds == ["remind", "miss"] * 3, "\n---\n".join(m.text for m in timers)

        restarted = await start_process(
            fake, postgres_url, parse_shards("1/2"), tmp_path / "bot-again.log", processes, warp
        )
        status = await fake.slash("match status", channel_id=one.channel_id)
        assert status.session is restarted.session
        await answered(restarted, status)
        assert "Match #1 is over" in status.text and "forfeits" in status.text, status.text
        roll = await fake.slash("roll", channel_id=zero.channel_id, expression="1d6")
        await answered(a, roll)
        for process in (a, restarted):
            assert await process.terminate() == 0, process.log()
            assert "Traceback" not in process.log(), process.log()
