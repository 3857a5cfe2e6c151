"""The web pages' step pictures are kept in the database by content (issue 32): two web apps on
one database (two processes behind one address) draw a step once, the second serving the
first's bytes; on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer

from skirmbot.demo import play_demo
from skirmbot.rules.record import MatchRecord
from skirmbot.service import MatchService
from skirmbot.service import pages as pages_module
from skirmbot.service.pages import Pages, picture_key
from skirmbot.store import Store
from skirmbot.web import make_app
from tests.conftest import BOTH_BACKENDS
from tests.service_setup import CHANNEL, GUILD, end_activations, started


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@dataclass
class Site:
    first: TestClient  # one process's web app
    second: TestClient  # another process's, on the same database
    match: int
    drawn: list[int]  # the steps drawn, by either


@pytest.fixture
async def site(
    store: Store, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Site]:
    matches = MatchService(store, seed_source=lambda: 7)
    await started(matches)
    await end_activations(matches, until_turn=2)  # a few steps to draw
    match = await matches.last_match_id(CHANNEL)
    assert match is not None
    await Pages(store, matches).set_published(GUILD, True)
    drawn: list[int] = []
    real = pages_module._render

    def counted(record: MatchRecord, step: int) -> bytes | None:
        drawn.append(step)
        return real(record, step)

    monkeypatch.setattr(pages_module, "_render", counted)
    other = await Store.open(store_url)
    first = TestClient(TestServer(make_app(store)))
    second = TestClient(TestServer(make_app(other)))
    await first.start_server()
    await second.start_server()
    try:
        yield Site(first, second, match, drawn)
    finally:
        await first.close()
        await second.close()
        await other.close()


async def picture(client: TestClient, match: int, step: int) -> bytes:
    response = await client.get(f"/g/{GUILD}/match/{match}/step/{step}.png")
    assert response.status == 200 and response.content_type == "image/png"
    return await response.read()


async def test_two_web_apps_on_one_database_draw_a_step_once(site: Site) -> None:
    drawn_first = await picture(site.first, site.match, 1)
    served_second = await picture(site.second, site.match, 1)
    assert served_second == drawn_first
    assert site.drawn == [1]
    await picture(site.second, site.match, 2)  # another step is another picture
    assert await picture(site.first, site.match, 2) != drawn_first
    assert site.drawn == [1, 2]


async def test_the_kept_bytes_are_what_is_served(site: Site, store: Store) -> None:
    """The second app serves the database's bytes, not a picture of its own."""
    drawn = await picture(site.first, site.match, 0)
    row = await store.match(site.match)
    assert row is not None
    record = pages_module._public_record(row)
    assert record is not None
    assert await store.step_picture(picture_key(record, 0)) == drawn
    await store.keep_step_picture("other", site.match, b"x", 10)  # a key is kept once
    assert await store.step_picture("other") == b"x"


def test_the_key_is_the_content_the_step_and_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    _, record = play_demo(1)
    _, other = play_demo(2)
    assert picture_key(record, 1) == picture_key(MatchRecord.from_json(record.to_json()), 1)
    assert picture_key(record, 1) != picture_key(record, 2)
    assert picture_key(other, 1) != picture_key(record, 1)
    before = picture_key(record, 1)
    monkeypatch.setattr(pages_module, "code_fingerprint", lambda package: "other code")
    assert picture_key(record, 1) != before


async def test_the_database_keeps_the_newest_pictures_only(store_url: str) -> None:
    ticks = iter(range(1_000_000, 2_000_000))
    store = await Store.open(store_url, clock=lambda: float(next(ticks)))
    try:
        matches = MatchService(store, seed_source=lambda: 7)
        await started(matches)
        match = await matches.last_match_id(CHANNEL)
        assert match is not None
        for number in range(5):
            await store.keep_step_picture(f"k{number}", match, bytes([number]), kept=3)
        kept = [await store.step_picture(f"k{number}") for number in range(5)]
        assert kept == [None, None, b"\x02", b"\x03", b"\x04"]
    finally:
        await store.close()


async def test_nothing_is_kept_for_a_match_that_is_not_there(store: Store) -> None:
    await store.keep_step_picture("gone", 424242, b"png", kept=10)
    assert await store.step_picture("gone") is None
