"""A server's own maps in the store (issue 33), on SQLite and on PostgreSQL: kept per server,
found by their name as a person types it, replaced only when asked, capped per server, removed."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import BOTH_BACKENDS

from skirmbot.store import ServerMapsFull, ServerMapTaken, Store

GUILD, OTHER = 100, 200
MODERATOR = 7


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def mill(**changes: Any) -> dict[str, Any]:
    return {"name": "Old Mill", "rows": [". . . . . ."] * 6, **changes}


async def test_a_map_is_kept_per_server_and_found_as_typed(store: Store) -> None:
    saved = await store.save_server_map(GUILD, "Old Mill", mill(), MODERATOR, limit=50)
    assert (saved.key, saved.name, saved.data, saved.uploader_id) == (
        "old mill",
        "Old Mill",
        mill(),
        MODERATOR,
    )
    found = await store.server_map(GUILD, "old-mill")
    assert found is not None and found.data == mill() and found.guild_id == GUILD
    assert await store.server_map(OTHER, "Old Mill") is None  # another server's maps are its own
    assert [row.name for row in await store.server_maps(GUILD)] == ["Old Mill"]
    assert await store.server_maps(OTHER) == []


async def test_a_name_already_kept_is_replaced_only_when_asked(store: Store) -> None:
    await store.save_server_map(GUILD, "Old Mill", mill(), MODERATOR, limit=50)
    with pytest.raises(ServerMapTaken):
        await store.save_server_map(GUILD, "OLD  mill", mill(name="OLD  mill"), 8, limit=50)
    kept = await store.server_map(GUILD, "Old Mill")
    assert kept is not None and kept.uploader_id == MODERATOR  # nothing changed
    replaced = await store.save_server_map(
        GUILD, "Old mill", mill(name="Old mill", description="new"), 8, replace=True, limit=50
    )
    assert replaced.name == "Old mill"
    rows = await store.server_maps(GUILD)
    assert [(row.name, row.data.get("description"), row.uploader_id) for row in rows] == [
        ("Old mill", "new", 8)
    ]


async def test_a_server_keeps_at_most_its_limit(store: Store) -> None:
    for number in range(3):
        await store.save_server_map(GUILD, f"Map {number}", mill(), MODERATOR, limit=3)
    with pytest.raises(ServerMapsFull):
        await store.save_server_map(GUILD, "One more", mill(), MODERATOR, limit=3)
    # replacing one it keeps is no new map; another server has its own count
    await store.save_server_map(GUILD, "map 1", mill(), MODERATOR, replace=True, limit=3)
    await store.save_server_map(OTHER, "One more", mill(), MODERATOR, limit=3)
    assert len(await store.server_maps(GUILD)) == 3


async def test_a_map_is_removed_by_its_name(store: Store) -> None:
    await store.save_server_map(GUILD, "Old Mill", mill(), MODERATOR, limit=50)
    await store.save_server_map(OTHER, "Old Mill", mill(), MODERATOR, limit=50)
    assert await store.delete_server_map(GUILD, "old mill") is True
    assert await store.delete_server_map(GUILD, "old mill") is False
    assert await store.server_map(GUILD, "Old Mill") is None
    assert await store.server_map(OTHER, "Old Mill") is not None
