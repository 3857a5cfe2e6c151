"""SKIRMBOT_WEB: the bot process serves the web pages beside Discord (issue 18), started with
the bot's services and stopped with it."""

from __future__ import annotations

import socket
from pathlib import Path

import aiohttp

from skirmbot.bot import make_bot


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_the_bot_serves_its_pages_when_told_where(tmp_path: Path) -> None:
    port = free_port()
    bot = make_bot(
        tmp_path / "skirmbot.db", web=f"127.0.0.1:{port}", sync_commands=False, run_timers=False
    )
    await bot.setup_hook()  # what logging in starts: the store, the services, the pages
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/") as page:
                assert page.status == 200
            async with session.get(f"http://127.0.0.1:{port}/g/900") as unpublished:
                assert unpublished.status == 404
    finally:
        await bot.close()
    async with aiohttp.ClientSession() as session:  # stopped with the bot
        try:
            async with session.get(f"http://127.0.0.1:{port}/") as page:
                raise AssertionError(f"the pages still answer ({page.status})")
        except aiohttp.ClientConnectionError:
            pass
