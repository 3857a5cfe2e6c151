import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

# The tests share builders.py and service_setup.py; make them importable as plain modules.
sys.path.insert(0, str(Path(__file__).parent))

from skirmbot.store import Store  # noqa: E402


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """A fresh SQLite store in the test's own folder."""
    opened = await Store.open(tmp_path / "skirm.db")
    yield opened
    await opened.close()
