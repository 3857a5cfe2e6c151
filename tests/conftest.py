import contextlib
import os
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

# The tests share builders.py, service_setup.py and pg_server.py; make them importable as plain
# modules.
sys.path.insert(0, str(Path(__file__).parent))

import pg_server  # noqa: E402

from skirmbot.store import Store  # noqa: E402

BOTH_BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture
def backend() -> str:
    """The database the `store` fixture opens: SQLite, unless a module runs on both (it
    overrides this fixture with `params=BOTH_BACKENDS`)."""
    return "sqlite"


@pytest.fixture
def store_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "skirm.db")


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    """A fresh store: a SQLite file in the test's own folder, or a PostgreSQL database."""
    opened = await Store.open(store_url)
    yield opened
    await opened.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[pg_server.Server]:
    """One throwaway PostgreSQL server for the whole run (see pg_server.py), stopped at the end.
    Outside CI a machine without PostgreSQL skips the tests that need it; in CI (SKIRMBOT_CI=1)
    they never skip."""
    if pg_server.find_binaries() is None:
        if os.environ.get("SKIRMBOT_CI"):
            pytest.fail("PostgreSQL is missing: .ci/run installs Debian's postgresql package.")
        pytest.skip("no PostgreSQL on this machine (.ci/run installs Debian's postgresql package)")
    server = pg_server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def postgres_url(postgres_server: pg_server.Server) -> AsyncIterator[str]:
    """The URL of a fresh, empty database of its own on the session's server; dropped
    afterwards."""
    name = f"skirmbot_test_{uuid.uuid4().hex[:16]}"
    url = await pg_server.create_database(postgres_server.url, name)
    yield url
    # Best effort: a database left behind goes with the whole cluster at the end of the run.
    with contextlib.suppress(Exception):
        await pg_server.drop_database(postgres_server.url, name)
