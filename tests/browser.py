"""Headless Chromium for the web pages' browser tests: Debian's Chromium (`.ci/run` installs it),
driven with Playwright. Outside CI a machine without Chromium skips these tests, saying why; in
CI (SKIRMBOT_CI=1) they never skip."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from playwright.async_api import Browser, async_playwright

# Without the background-networking flags Chromium keeps trying to reach Google's hosts, which
# this machine's closed network refuses; --no-sandbox because CI runs as root.
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("SKIRMBOT_CI"):
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package.")
        pytest.skip("no Chromium on this machine (.ci/run installs Debian's chromium package)")
    return found


@asynccontextmanager
async def headless_chromium() -> AsyncIterator[Browser]:
    path = chromium_path()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=path, args=FLAGS)
        try:
            yield browser
        finally:
            await browser.close()
