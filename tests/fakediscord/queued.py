"""`python -m fakediscord.queued`: `skirmbot run` whose players' units of work wait in a queue
ahead of them, as under overload, while the file `queued` is in the bot's working directory:
each waits `QUEUED_SECONDS` (real seconds, longer than the cogs wait before they defer) before
the service's admission lets it in. Without the file the bot is the bot as shipped.

A wire test starts it with `Bot(..., command=QUEUED)` and creates the file when the match is set
up, so that only the commands it means to be slow are.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from skirmbot import cli
from skirmbot.service import work
from skirmbot.service.admission import Admission, default_admission

QUEUED_SECONDS = 2.5  # past skirmbot.cogs.common.DEFER_AFTER, under Discord's 3 s + a followup
FLAG = Path("queued")  # in the bot's working directory (the test's tmp dir)


class Queued(Admission):
    """The bot's own admission, behind a queue of others' work while FLAG exists."""

    async def enter(self) -> None:
        if FLAG.exists():
            await asyncio.sleep(QUEUED_SECONDS)
        await super().enter()


def main() -> int:
    def queued() -> Admission:
        shipped = default_admission()
        return Queued(shipped.running, shipped.waiting)

    work.default_admission = queued  # what every LiveMatches of the bot takes
    return cli.main(["run"])


if __name__ == "__main__":
    sys.exit(main())
