"""`python -m fakediscord.warp SPEED`: `skirmbot run` with the turn timers' clock running SPEED
times faster than real time, so a wire test plays a whole match on a 1-hour clock in seconds
(SPEED 3600: a second per hour).

Only the timers' clock is warped (the bot's `clock`, shared by the match service and the
scheduler, see skirmbot.bot.make_bot); discord.py, aiohttp and the log keep real time. The
scheduler looks at the clock every few milliseconds instead of every minute
(skirmbot.timers.scheduler.MAX_SLEEP), since its sleeps are in real seconds, and looks in the
database for other processes' deadlines every tenth of a second.

Several processes share one warped clock when they are given the same origin
(`SKIRMBOT_WARP_START`, a Unix time). A claim on a deadline lasts `SKIRMBOT_WARP_LEASE` warped
seconds (default: two real seconds' worth), longer than firing one takes in real time.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from skirmbot import bot, cli
from skirmbot.timers import scheduler


def main() -> int:
    speed = float(sys.argv[1])
    start = float(os.environ.get("SKIRMBOT_WARP_START") or time.time())

    def warped() -> float:
        return start + (time.time() - start) * speed

    real_make_bot = bot.make_bot

    def make_bot(*args: Any, **kwargs: Any) -> bot.SkirmBot:
        kwargs.setdefault("clock", warped)
        return real_make_bot(*args, **kwargs)

    bot.make_bot = make_bot  # type: ignore[assignment]
    scheduler.MAX_SLEEP = 0.02
    scheduler.CLAIM_LEASE = float(os.environ.get("SKIRMBOT_WARP_LEASE") or 2 * speed)
    bot.POLL_SECONDS = 0.1
    return cli.main(["run"])


if __name__ == "__main__":
    sys.exit(main())
