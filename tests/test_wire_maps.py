"""A server's own map through the real bot process, against the loopback fake of Discord (issue
33): a moderator uploads a map file (a member without the right is refused, and nothing is
kept), `/map show` posts its picture, a practice match is made on it and played to its end
(Alice ends each activation the autocomplete offers, the automatic player plays the other
side), and the record `/match export` posts replays in a fresh process from that file alone,
with no database.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from fakediscord import Attachment, FakeDiscord, User
from fakediscord.server import MANAGE_GUILD, MEMBER_PERMISSIONS, snowflake
from test_wire import REPLY_TIMEOUT, REPO, Bot, choices, clean, fake, public, say, start_bot

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

MATCH_TIMEOUT = 300.0  # a whole match: one /end for each of Alice's activations
ACTIVATIONS = 300  # more than any Skirm match has: this bound only catches a stuck match

MAP_FILE: dict[str, Any] = {
    "name": "Wire Mill",
    "description": "A small mill between two ponds, for the wire test.",
    "rows": [
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . # . . # . . .",
        ". . . . . . . . . .",
        ". . ~ . 1 1 . ~ . .",
        ". . ~ . 1 1 . ~ . .",
        ". . . . . . . . . .",
        ". . . # . . # . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
    ],
    "edges": ["E5|E4, F5|F4: door=closed", "E6|E7, F6|F7: door=open"],
    "objectives": ["B5", "I6", "E3", "F8"],
}


def replayed_elsewhere(path: Path) -> subprocess.CompletedProcess[str]:
    """`skirmbot replay PATH` in a fresh process, as anyone with the file runs it: no database
    (SKIRMBOT_DB points nowhere that exists), only the record."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "SKIRMBOT_DB": str(path.parent / "none.db")}
    return subprocess.run(
        [sys.executable, "-m", "skirmbot.cli", "replay", str(path)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip


async def over(bot: Bot) -> bool:
    """Whether the channel's match has ended (its status says so)."""
    status = await say(bot, "match status")
    return any(word in status.text for word in ("wins", "draw", "Draw", "is over"))


async def test_a_moderator_uploads_a_map_and_a_match_on_it_replays_anywhere(
    fake: FakeDiscord, start_bot, tmp_path: Path
) -> None:
    async with asyncio.timeout(MATCH_TIMEOUT):
        bot = await start_bot()
        assert "map" in {c["name"] for c in fake.commands}
        upload = Attachment("wire-mill.json", json.dumps(MAP_FILE).encode("utf-8"))
        refused = await say(bot, "map upload", file=upload)
        assert [m.ephemeral for m in refused.messages] == [True], refused.text
        assert "Only moderators" in refused.text, refused.text

        mo = User(snowflake(), "mo", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
        added = await say(
            bot, "map upload", user=mo, file=Attachment("wire-mill.json", upload.data)
        )
        assert public(added) and "Map added: Wire Mill" in added.text, added.text

        shown = await say(bot, "map show", name="wire mill", mission="Hold the Line")
        await bot.until(lambda: shown.pngs, "the empty map's picture", REPLY_TIMEOUT)
        assert shown.pngs[0].data.startswith(b"\x89PNG"), shown.text
        assert "Empty map: Wire Mill" in (shown.pngs[0].description or ""), shown.text

        offered = await choices(bot, "match new", "map", map="wire")
        assert offered == ["Wire Mill"], offered
        new = await say(bot, "match new", practice=True, map="Wire Mill")
        assert public(new) and "on Wire Mill" in new.text, new.text
        squads = await choices(bot, "match squad", "name")
        await say(bot, "match squad", name=squads[0])
        await say(bot, "deploy", auto=True)

        ends = 0
        for _ in range(ACTIVATIONS):
            units = await choices(bot, "end", "unit")
            if units:
                ended = await say(bot, "end", unit=units[0])
                ends += 1
                assert ended.messages, f"no answer to /end {units[0]}"
            elif await over(bot):
                break
            else:
                await asyncio.sleep(0.2)  # the automatic player's turn is being posted
        else:
            raise AssertionError(f"the match did not end: {(await say(bot, 'match status')).text}")

        exported = await say(bot, "match export")
        files = {a.filename: a.data for m in exported.messages for a in m.attachments}
        assert len(files) == 1, exported.text
        data = next(iter(files.values()))
        record = json.loads(data)
        assert record["content"]["map"] == MAP_FILE
        assert record["result"]["reason"], "the exported record is of a finished match"
        assert ends > 0, "Alice played no activation"

        # The map leaves the server; the record does not need it.
        removed = await say(bot, "map remove", user=mo, name="Wire Mill")
        assert "keep their copy" in removed.text, removed.text
        path = tmp_path / "elsewhere" / "record.json"
        path.parent.mkdir()
        path.write_bytes(data)
        again = replayed_elsewhere(path)
        assert again.returncode == 0, again.stderr
        assert record["result"]["reason"] in again.stdout, again.stdout[-500:]
        assert not (path.parent / "none.db").exists()
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
