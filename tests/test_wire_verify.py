"""Dice anyone can verify (issue 21), through the real bot process against the loopback fake of
Discord: `/match new salt:` posts the commitment, `/match join salt:` the second salt, the end
tells how to verify, and the record `/match export` posts then passes `skirmbot verify`, while
the same record with one die changed fails it, naming the die.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from fakediscord import FakeDiscord
from test_wire import REPLY_TIMEOUT, REPO, TEST_TIMEOUT, clean, click, fake, public, say, start_bot

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire


def skirmbot_verify(path: Path) -> subprocess.CompletedProcess[str]:
    """`skirmbot verify PATH` as a user runs it, on the working tree's code."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "skirmbot.cli", "verify", str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


async def test_the_dice_are_committed_salted_revealed_and_verified(
    fake: FakeDiscord, start_bot, tmp_path: Path
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        new = await say(bot, "match new", salt="alice-wire")
        assert public(new), new.text
        assert "SHA-256 " in new.text and "alice-wire" in new.text, new.text
        posted = new.text.split("SHA-256 ")[1][:64]

        refused = await say(bot, "match join", user=fake.bob, salt="not a salt!")
        assert [m.ephemeral for m in refused.messages] == [True], refused.text
        assert "A salt is 1 to 32 characters" in refused.text, refused.text
        joined = await say(bot, "match join", user=fake.bob, salt="bob-wire")
        assert public(joined), joined.text
        assert "Bob's salt is bob-wire" in joined.text, joined.text

        for user in (fake.alice, fake.bob):
            fielded = await say(bot, "match squad", user=user, name="iron-wardens")
            assert public(fielded), fielded.text
        for user in (fake.alice, fake.bob):
            await say(bot, "deploy", user=user, auto=True)

        asked = await say(bot, "match concede", user=fake.bob)
        ended = await click(bot, asked.messages[0], "Concede the match", user=fake.bob)
        end = await bot.until(
            lambda: [m for m in ended.messages if "skirmbot verify" in m.text],
            "the end message saying how to verify",
            REPLY_TIMEOUT,
        )
        assert posted in end[0].text, end[0].text

        exported = await say(bot, "match export")
        files = {a.filename: a.data for m in exported.messages for a in m.attachments}
        assert len(files) == 1, exported.text
        data = next(iter(files.values()))
        record = json.loads(data)
        key = record["dice"]["key"]
        assert hashlib.sha256(bytes.fromhex(key)).hexdigest() == posted == record["commitment"]
        assert key not in new.text + joined.text + end[0].text, "the seed only in the record"
        assert record["salts"] == ["alice-wire", "bob-wire"]

        path = tmp_path / "record.json"
        path.write_bytes(data)
        checked = skirmbot_verify(path)
        assert checked.returncode == 0, checked.stderr
        assert posted in checked.stdout and "bob-wire" in checked.stdout, checked.stdout

        position = len(record["rolls"]) // 2
        was = record["rolls"][position]
        record["rolls"][position] = was % 3 + 1 if was <= 3 else was - 1
        changed = tmp_path / "changed.json"
        changed.write_text(json.dumps(record), encoding="utf-8")
        failed = skirmbot_verify(changed)
        assert failed.returncode == 1, failed.stdout
        assert f"Roll {position + 1} is recorded as {record['rolls'][position]}" in failed.stderr
        assert f"the seed and salts give {was}" in failed.stderr, failed.stderr
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
