"""Wire-level tests: the real bot process (`skirmbot run`) against a loopback fake of Discord.

The fake (tests/fakediscord) serves Discord's REST API and gateway on 127.0.0.1; the bot is
pointed at it with DISCORD_API_BASE and DISCORD_GATEWAY_URL and plays through real HTTP and
websocket traffic: command sync, slash commands, autocomplete, buttons, the map picture as a
multipart upload. Then the bot is killed mid-match and restarted on the same database, and
stopped with SIGTERM as `docker stop` does.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Collection
from pathlib import Path
from typing import Any

import pytest
from fakediscord import Attachment, FakeDiscord, Interaction, Message, User

REPO = Path(__file__).resolve().parents[1]

# Skipped only while the bot is not written yet; once it exists, every failure here is real.
if not (REPO / "skirmbot" / "bot.py").exists() or not any((REPO / "cogs").glob("*.py")):
    pytest.skip(
        "the Discord bot (skirmbot/bot.py, cogs/) is not written yet", allow_module_level=True
    )

START_TIMEOUT = 20.0  # seconds from spawning the process to commands synced and gateway ready
REPLY_TIMEOUT = 10.0  # seconds for the bot to answer one interaction
TEST_TIMEOUT = 50.0  # a whole test function


class Bot:
    """One `skirmbot run` process, its log in a file."""

    def __init__(
        self,
        fake: FakeDiscord,
        db: Path | str,
        log: Path,
        token: str = "fake",
        warp: float | None = None,
        settings: dict[str, str] | None = None,
        launcher: str | None = None,
    ) -> None:
        """`db`: SKIRMBOT_DB (a file or a postgresql:// URL); `settings`: more of them."""
        self.fake = fake
        self.log_path = log
        env = {
            **os.environ,
            "DISCORD_TOKEN": token,
            "SKIRMBOT_DB": str(db),
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            # The working tree's code, whatever is installed in the environment (and the
            # tests' fakediscord, for its clock warp).
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(REPO), str(REPO / "tests"), os.environ.get("PYTHONPATH")])
            ),
            "PYTHONUNBUFFERED": "1",
            **(settings or {}),
        }
        self._log_file = log.open("wb")
        # cwd is the test's tmp dir, so no .env lying in the repository is read. With `warp`
        # the turn timers' clock runs that many times faster (tests/fakediscord/warp.py).
        command = (
            ["-m", "skirmbot.cli", "run"] if warp is None else ["-m", "fakediscord.warp", str(warp)]
        )
        if launcher is not None:  # a module of the tests' that runs the bot its own way
            command = ["-m", launcher]
        self.process = subprocess.Popen(
            [sys.executable, *command],
            cwd=log.parent,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
        )

    def log(self) -> str:
        self._log_file.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def alive(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"the bot exited with {self.process.returncode}")
        return True

    async def until(self, predicate: Callable[[], Any], what: str, timeout: float) -> Any:
        """Wait for predicate on the fake's state; fail at once if the bot dies meanwhile."""
        try:
            return await self.fake.wait_until(lambda: self.alive() and predicate(), what, timeout)
        except AssertionError as error:
            raise AssertionError(f"{error}\nthe bot's log:\n{self.log()[-4000:]}") from None

    async def wait_exit(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return self.process.poll()  # type: ignore[return-value]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        self._log_file.close()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    # Every picture the bot posts carries alt text (issue 28), in every wire test.
    assert not server.undescribed_pictures(), f"pictures without alt text: {server.undescribed_pictures()}"


@pytest.fixture
def start_bot(fake: FakeDiscord, tmp_path: Path):
    """Start `skirmbot run` on tmp_path/skirmbot.db; every process is killed at teardown."""
    started: list[Bot] = []

    async def start(token: str = "fake", ready: bool = True, warp: float | None = None) -> Bot:
        syncs, sessions = fake.command_syncs, len(fake.identifies)
        log = tmp_path / f"bot-{len(started)}.log"
        bot = Bot(fake, tmp_path / "skirmbot.db", log, token, warp)
        started.append(bot)
        if ready:
            await bot.until(
                lambda: fake.command_syncs > syncs and len(fake.identifies) > sessions,
                "the bot to sync its commands and identify on the gateway",
                START_TIMEOUT,
            )
        return bot

    yield start
    for bot in started:
        bot.stop()


# --- playing through the fake ------------------------------------------------------------------
async def say(bot: Bot, command: str, user: User | None = None, **options: Any) -> Interaction:
    """Send /command with options and wait for the bot's first answer to it."""
    interaction = await bot.fake.slash(command, user=user, **options)
    return await answered(bot, interaction)


async def click(bot: Bot, message: Message, label: str, user: User | None = None) -> Interaction:
    """Click the button labelled `label` on a message the bot posted."""
    by_label = {text: custom_id for custom_id, text in message.buttons().items()}
    assert label in by_label, f"no {label!r} button on {message.text!r}: {message.buttons()}"
    return await answered(bot, await bot.fake.click(message, by_label[label], user=user))


async def answered(bot: Bot, interaction: Interaction) -> Interaction:
    await bot.until(
        lambda: bot.fake.responded_to(interaction),
        f"the bot's answer to {interaction.payload['data']}",
        REPLY_TIMEOUT,
    )
    return interaction


async def settled(bot: Bot, interaction: Interaction, check: Callable[[], Any], what: str) -> None:
    """Wait for the rest of an answer (followups come one by one after the callback)."""
    await bot.until(check, f"{what} (so far: {interaction.text!r})", REPLY_TIMEOUT)


async def choices(bot: Bot, command: str, focused: str, **options: Any) -> list[str]:
    """The values the bot's autocomplete offers for one option."""
    interaction = await bot.fake.autocomplete(command, focused=focused, **options)
    await answered(bot, interaction)
    assert interaction.callback_type == 8, interaction.callback
    return [choice["value"] for choice in interaction.choices]


def public(interaction: Interaction) -> list[Message]:
    return [m for m in interaction.messages if not m.ephemeral]


def clean(log: str) -> None:
    assert "Traceback" not in log, log
    assert " ERROR " not in log, log


async def practice_match(bot: Bot) -> Interaction:
    """/match new against the automatic player, a shipped squad, /deploy auto: it is Alice's
    turn. Returns the /deploy interaction."""
    fake = bot.fake
    new = await say(bot, "match new", practice=True)
    assert not new.messages[0].ephemeral, new.text
    assert "match" in new.text.lower(), new.text

    squads = await choices(bot, "match squad", "name")
    assert squads, "the bot's autocomplete offered no shipped squads"
    squad = await say(bot, "match squad", name=squads[0])
    assert public(squad), squad.text

    deploy = await say(bot, "deploy", auto=True)
    await settled(
        bot,
        deploy,
        lambda: any(fake.alice.id in m.pings for m in deploy.messages),
        "the deployment and a ping for Alice that it is her turn",
    )
    assert all(not m.ephemeral for m in deploy.messages), deploy.text
    assert deploy.pngs, "no map picture after deployment"
    return deploy


async def move_someone(bot: Bot, skip: Collection[str] = ()) -> tuple[str, Interaction]:
    """Alice moves a unit (not in `skip`) to the first square autocomplete offers."""
    units = [u for u in await choices(bot, "move", "unit") if u not in skip]
    assert units, "autocomplete offers no unit to move"
    squares = await choices(bot, "move", "square", unit=units[0])
    assert squares, f"autocomplete offers no square for {units[0]}"
    move = await say(bot, "move", unit=units[0], square=squares[0])
    assert public(move), f"/move {units[0]} {squares[0]} refused: {move.text}"
    return units[0], move


async def status(bot: Bot) -> Interaction:
    interaction = await say(bot, "match status")
    await settled(bot, interaction, lambda: interaction.pngs, "the map picture with the status")
    return interaction


# --- the tests -----------------------------------------------------------------------------------
async def test_plays_a_practice_match_over_the_wire(fake: FakeDiscord, start_bot) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        names = {c["name"] for c in fake.commands}
        assert {"match", "deploy", "move", "end"} <= names, names
        # Slash commands and buttons only: no privileged intent (members, presences, content).
        privileged = (1 << 1) | (1 << 8) | (1 << 15)
        assert not fake.identifies[-1]["intents"] & privileged, fake.identifies[-1]

        await practice_match(bot)
        unit, move = await move_someone(bot)
        assert unit in move.text, move.text

        # Someone who does not play the match is refused, privately, and nothing changes (else
        # Alice's click below would find the button expired).
        refused = await click(bot, move.messages[-1], "End activation", user=fake.bob)
        assert [m.ephemeral for m in refused.messages] == [True], refused.text

        # Alice ends the activation with the button: the map picture is posted, the automatic
        # player takes its activation, and Alice is pinged that it is her turn again.
        end = await click(bot, move.messages[-1], "End activation")
        await settled(
            bot,
            end,
            lambda: end.pngs and any(fake.alice.id in m.pings for m in end.messages),
            "the map picture and Alice's turn after her activation ended",
        )
        picture = end.pngs[0]
        assert picture.data.startswith(b"\x89PNG\r\n\x1a\n") and len(picture.data) > 1000
        assert picture.filename.endswith(".png"), picture.filename
        assert fake.bob.id not in set().union(*(m.pings for m in end.messages))

        shown = await status(bot)
        assert "turn 1" in shown.text.lower(), shown.text
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


async def test_a_match_in_its_own_thread(fake: FakeDiscord, start_bot) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        new = await say(bot, "match new", practice=True, thread=True)
        threads = [int(c["id"]) for c in fake.channels.values() if c["type"] == 11]
        assert len(threads) == 1, f"no thread created: {new.text}"
        thread = threads[0]
        assert f"<#{thread}>" in new.text, new.text
        opening = await bot.until(
            lambda: [m for m in fake.messages.values() if m.channel_id == thread],
            "the match's first message in its thread",
            REPLY_TIMEOUT,
        )
        assert "match" in opening[0].text.lower(), opening[0].text

        # A squad uploaded as a file: a broken one is refused, privately, with the reason...
        broken = Attachment("squad.json", b"{ not json")
        refused = await say(bot, "match squad", channel_id=thread, file=broken)
        assert [m.ephemeral for m in refused.messages] == [True], refused.text
        assert "JSON" in refused.text, refused.text
        # ...a good one is fielded: the bot downloads it from the fake's CDN.
        shipped = sorted((REPO / "skirmbot" / "content" / "skirm" / "squads").glob("*.json"))[0]
        upload = Attachment("my-squad.json", shipped.read_bytes())
        squad = await say(bot, "match squad", channel_id=thread, file=upload)
        assert public(squad), squad.text
        assert ("GET", f"/attachments/{upload.id}/my-squad.json") in fake.requests
        # The match lives in the thread, not in the channel it was started from.
        elsewhere = await say(bot, "match status")
        assert [m.ephemeral for m in elsewhere.messages] == [True], elsewhere.text
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


async def test_killed_mid_match_and_restarted_on_the_same_database(
    fake: FakeDiscord, start_bot
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        first = await start_bot()
        await practice_match(first)
        moved, move = await move_someone(first)  # mid-activation: the End button is waiting
        before = await status(first)

        first.process.send_signal(signal.SIGKILL)  # a crash: no clean-up at all
        assert await first.wait_exit(5) == -signal.SIGKILL

        second = await start_bot()
        after = await status(second)
        assert after.text == before.text
        assert after.pngs[0].data == before.pngs[0].data, "the map differs after the restart"

        # The End button posted before the crash still works.
        end = await click(second, move.messages[-1], "End activation")
        await settled(
            second,
            end,
            lambda: end.pngs and any(fake.alice.id in m.pings for m in end.messages),
            "the old End button ending the activation, and Alice's turn",
        )
        # Clicked again, it says it expired instead of acting on a different situation.
        stale = await click(second, move.messages[-1], "End activation")
        assert [m.ephemeral for m in stale.messages] == [True], stale.text
        assert "expired" in stale.text, stale.text

        # A kill in the middle of an answer: the fake holds the bot's reply to /end unanswered
        # and the bot dies waiting; its followups (the automatic player's turn) never go out.
        moved2, _ = await move_someone(second, skip={moved})
        fake.hold = asyncio.Event()
        try:
            end2 = await fake.slash("end")
            await second.until(lambda: end2.callback, "the reply to /end to begin", REPLY_TIMEOUT)
            second.process.send_signal(signal.SIGKILL)
            assert await second.wait_exit(5) == -signal.SIGKILL
        finally:
            fake.hold.set()
            fake.hold = None
        assert len(end2.messages) == 1, end2.text

        third = await start_bot()
        shown = await status(third)
        assert fake.alice.name.title() in shown.text or str(fake.alice.id) in shown.text, shown.text
        ready = await choices(third, "activate", "unit")
        assert ready and moved not in ready and moved2 not in ready, ready
        moved3, _ = await move_someone(third)
        assert moved3 not in (moved, moved2)
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        for bot in (first, second, third):
            clean(bot.log())


async def test_sigterm_shuts_down_cleanly(fake: FakeDiscord, start_bot) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        await say(bot, "match new", practice=True)
        closes = len(fake.gateway_close_codes)
        started = time.monotonic()
        bot.process.send_signal(signal.SIGTERM)
        code = await bot.wait_exit(5)
        assert code == 0, f"exit code {code} after SIGTERM; log:\n{bot.log()}"
        assert time.monotonic() - started < 5
        log = bot.log()
        clean(log)
        assert "skirmbot stopped" in log, log
        # The bot closed the gateway with a close frame (a killed process just drops the TCP
        # connection: 1006). discord.py's own close sends 4000 here, not 1000: its reader task
        # answers the closing handshake first.
        await fake.wait_until(
            lambda: len(fake.gateway_close_codes) > closes, "the gateway close", 5
        )
        assert fake.gateway_close_codes[-1] not in (None, 1006), fake.gateway_close_codes


async def test_a_wrong_token_gives_one_clear_line(fake: FakeDiscord, start_bot) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot(token="not-the-token", ready=False)
        assert await bot.wait_exit(15) == 2, bot.log()
        lines = [line for line in bot.log().splitlines() if line.startswith("skirmbot:")]
        assert len(lines) == 1 and "token" in lines[0], bot.log()
        assert "Traceback" not in bot.log(), bot.log()


# --- messages that must always arrive (issue 11) -------------------------------------------------
WARP = 3600.0  # the turn timers' clock in the tests below: an hour a second (fakediscord.warp)


def channel_posts(fake: FakeDiscord, channel_id: int) -> list[Message]:
    """What the bot posted in a channel on its own (no interaction), in order."""
    return [
        m for m in fake.messages.values() if m.route == "channel" and m.channel_id == channel_id
    ]


async def test_the_bot_is_ready_as_soon_as_discord_has_sent_its_guilds(
    fake: FakeDiscord, start_bot
) -> None:
    """discord.py holds READY back 2 s after the last GUILD_CREATE unless told otherwise
    (`guild_ready_timeout`); the bot takes what Discord sent and goes on."""
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        await bot.until(lambda: "Connected as" in bot.log(), "the bot's ready line", 10)
        waited = time.monotonic() - fake.ready_at[-1]
        assert waited < 1.0, f"READY came {waited:.1f}s after the guilds"
        assert "to 1 servers" in bot.log(), bot.log()


async def test_a_whole_match_with_dms_closed_gets_every_reminder_in_the_channel(
    fake: FakeDiscord, start_bot
) -> None:
    """Issue 11's done-when. Alice asks for reminders by direct message, but her DMs are closed
    (Discord answers 403, code 50007). She never plays her practice match on a 1-hour clock
    with 2 excused misses: the deployment's reminder, the bot deploying for her, two
    activations reminded and missed, then the forfeit. Every reminder is in the channel and
    pings her; the DM is tried once only, then remembered."""
    async with asyncio.timeout(TEST_TIMEOUT):
        fake.dms_closed.add(fake.alice.id)
        bot = await start_bot(warp=WARP)
        chosen = await say(bot, "timer reminders", by_dm=True)
        assert [m.ephemeral for m in chosen.messages] == [True], chosen.text
        new = await say(bot, "match new", practice=True, hours=1, excuses=2)
        assert public(new) and "1 hour per activation" in new.text, new.text
        squads = await choices(bot, "match squad", "name")
        await say(bot, "match squad", name=squads[0])

        posts = lambda: channel_posts(fake, fake.channel_id)  # noqa: E731
        await bot.until(
            lambda: any("no excused misses left" in m.text for m in posts()),
            "the match to end with Alice's forfeit",
            30,
        )
        alice = f"<@{fake.alice.id}>"
        timers = [m for m in posts() if m.text.startswith("⏰")]
        reminders = [m for m in timers if m.text.startswith(f"⏰ {alice}:")]
        assert len(reminders) == 3, "\n---\n".join(m.text for m in timers)
        assert all(fake.alice.id in m.pings for m in reminders)
        assert "deploy your squad" in reminders[0].text
        assert all("activate a unit" in m.text for m in reminders[1:])
        # Each reminder came before its miss: reminder, miss, reminder, miss, ...
        kinds = ["remind" if m in reminders else "miss" for m in timers]
        assert kinds == ["remind", "miss"] * 3, kinds
        # The first says why it is here; the DM was tried once, then the channel directly.
        assert "direct messages are closed" in reminders[0].text
        assert not any("direct messages are closed" in m.text for m in reminders[1:])
        assert [r for r in fake.refusals if r[3] == 50007] == [
            r for r in fake.refusals if r[2] == 403
        ]
        assert len([r for r in fake.refusals if r[3] == 50007]) == 1, fake.refusals
        assert all(m.channel_id == fake.channel_id for m in fake.messages.values())
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


async def test_a_deleted_match_thread_abandons_its_match_and_the_timers_go_on(
    fake: FakeDiscord, start_bot, tmp_path: Path
) -> None:
    """A match whose thread was deleted (Discord answers 404, code 10003) is abandoned: aborted,
    its deadlines cancelled, a note in the log; another match's timers go on."""
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot(warp=WARP)
        squads = await choices(bot, "match squad", "name")
        await say(bot, "match new", practice=True, thread=True, hours=1)
        [thread] = [int(c["id"]) for c in fake.channels.values() if c["type"] == 11]
        await say(bot, "match squad", channel_id=thread, name=squads[0])  # its clock runs
        opening = channel_posts(fake, thread)
        await fake.delete_channel(thread)

        # Bob's practice match in the channel: his clock runs too.
        await say(bot, "match new", user=fake.bob, practice=True, hours=1)
        await say(bot, "match squad", user=fake.bob, name=squads[0])
        await bot.until(lambda: "abandoned" in bot.log(), "the thread's match abandoned", 15)
        gone = [r for r in fake.refusals if r[3] == 10003]
        assert gone and all(str(thread) in path for _, path, _, _ in gone), fake.refusals
        # Bob's deadlines still fire: his reminder, then his missed deployment, and the thread
        # hears nothing more (its match's deadlines would have come in the same time).
        await bot.until(
            lambda: any(
                "did not deploy in time" in m.text for m in channel_posts(fake, fake.channel_id)
            ),
            "Bob's missed deployment in the channel",
            15,
        )
        assert [r for r in fake.refusals if r[3] == 10003] == gone
        assert channel_posts(fake, thread) == opening

        db = sqlite3.connect(tmp_path / "skirmbot.db")
        try:
            status, setup = db.execute(
                "SELECT status, setup FROM matches WHERE channel_id = ?", (thread,)
            ).fetchone()
            pending = db.execute(
                "SELECT COUNT(*) FROM deadlines JOIN matches ON matches.id = match_id "
                "WHERE channel_id = ?",
                (thread,),
            ).fetchone()[0]
        finally:
            db.close()
        assert status == "aborted" and "was deleted" in json.loads(setup)["abandoned"]["reason"]
        assert pending == 0
        assert f"Match #1 abandoned: its channel or thread {thread} was deleted" in bot.log()
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
