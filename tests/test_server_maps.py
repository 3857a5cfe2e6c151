"""A server's own maps through the service (issue 33): who may upload and remove them, the
refusals in words that change nothing, the cap per server, the picture, and matches and leagues
made on them, each record keeping the map's data whole."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import BOTH_BACKENDS
from service_setup import ALICE, BOB, CHANNEL, GUILD, MOD

from skirmbot import content
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.service import MatchService, NotAllowed, ServiceError, person
from skirmbot.service.leagues import LeagueService
from skirmbot.service.maps import MAX_SERVER_MAPS, MapService, is_shipped_name
from skirmbot.store import Store

ROLE = 555


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def mill(**changes: Any) -> dict[str, Any]:
    """A small map of squares every square ruleset's shipped missions fit on."""
    return {
        "name": "Old Mill",
        "description": "A mill house between two ponds.",
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
        **changes,
    }


def upload_bytes(data: dict[str, Any]) -> bytes:
    return json.dumps(data).encode("utf-8")


@pytest.fixture
def maps(store: Store) -> MapService:
    return MapService(store)


async def test_a_moderator_uploads_a_map_and_the_server_lists_it(maps: MapService) -> None:
    reply = await maps.upload(GUILD, MOD, upload_bytes(mill()), "mill.json")
    assert "Map added: Old Mill: a map of 10 x 10 squares." in reply.text
    assert "Skirm Lite: Crossfire, Supply Run, Take and Hold." in reply.text
    listed = await maps.listing(GUILD)
    assert f"Old Mill: 10 x 10 squares, by {person(MOD.id)}" in listed.text and listed.private
    assert "This server has no maps of its own yet" in (await maps.listing(GUILD + 1)).text


async def test_only_moderators_or_the_role_they_name_upload_and_remove(maps: MapService) -> None:
    with pytest.raises(NotAllowed, match="Only moderators upload and remove this server's maps"):
        await maps.upload(GUILD, ALICE, upload_bytes(mill()), "mill.json", role_ids=[ROLE])
    with pytest.raises(NotAllowed, match="Only moderators name the role"):
        await maps.set_map_role(GUILD, ALICE, ROLE)
    await maps.set_map_role(GUILD, MOD, ROLE)
    await maps.upload(GUILD, ALICE, upload_bytes(mill()), "mill.json", role_ids=[ROLE])
    with pytest.raises(NotAllowed):  # without the role, still not
        await maps.remove(GUILD, BOB, "Old Mill", role_ids=[ROLE + 1])
    await maps.remove(GUILD, ALICE, "old mill", role_ids=[ROLE])
    assert await maps.store.server_maps(GUILD) == []


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"not json", "mill.json is not valid JSON"),
        (upload_bytes(mill(objectives=["D3"])), "D3 is impassable; nothing can stand there"),
        (upload_bytes(mill(name="Foundry")), "Foundry is the name of a shipped map"),
        (upload_bytes(mill(name="ruined-chapel")), "is the name of a shipped map"),
        (upload_bytes(mill(name="Crossroads")), "is the name of a shipped map"),  # infantry's
        (upload_bytes(mill(name="")), "the map's name has no visible characters"),
    ],
)
async def test_a_bad_upload_is_refused_in_words_and_keeps_nothing(
    maps: MapService, data: bytes, words: str
) -> None:
    with pytest.raises(ServiceError, match=words):
        await maps.upload(GUILD, MOD, data, "mill.json")
    assert await maps.store.server_maps(GUILD) == []


async def test_a_name_kept_is_replaced_only_when_asked(maps: MapService) -> None:
    await maps.upload(GUILD, MOD, upload_bytes(mill()), "mill.json")
    with pytest.raises(ServiceError, match="already has a map called Old Mill.*replace: True"):
        await maps.upload(GUILD, MOD, upload_bytes(mill(description="new")), "mill.json")
    kept = await maps.store.server_map(GUILD, "Old Mill")
    assert kept is not None and kept.data["description"] == "A mill house between two ponds."
    reply = await maps.upload(
        GUILD, MOD, upload_bytes(mill(description="new")), "m.json", replace=True
    )
    assert reply.text.startswith("Map replaced")
    kept = await maps.store.server_map(GUILD, "Old Mill")
    assert kept is not None and kept.data["description"] == "new"


async def test_a_server_keeps_at_most_its_maps(
    maps: MapService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("skirmbot.service.maps.MAX_SERVER_MAPS", 2)
    for name in ("Mill A", "Mill B"):
        await maps.upload(GUILD, MOD, upload_bytes(mill(name=name)), "m.json")
    with pytest.raises(ServiceError, match="keeps 2 maps, as many as it may. Remove one"):
        await maps.upload(GUILD, MOD, upload_bytes(mill(name="Mill C")), "m.json")
    assert MAX_SERVER_MAPS == 50


async def test_show_draws_the_empty_map_for_a_mission(maps: MapService) -> None:
    await maps.upload(GUILD, MOD, upload_bytes(mill()), "mill.json")
    reply = await maps.show(GUILD, "old mill", "Take and Hold", "Skirm Lite")
    assert reply.picture is not None and reply.picture.startswith(b"\x89PNG")
    assert reply.picture_alt.startswith("Empty map: Old Mill, 10 x 10 squares, for Take and Hold.")
    shipped = await maps.show(GUILD, "Ruins")  # a shipped board of dots, for its own rules
    assert "for Skirmishers" in shipped.text
    with pytest.raises(ServiceError, match="Skirmishers plays on boards of dots; Old Mill"):
        await maps.show(GUILD, "Old Mill", None, "infantry")
    with pytest.raises(
        ServiceError,
        match="no map called 'Nowhere'. Choose one of: .*Foundry.*Ruined Chapel.*, Old Mill.$",
    ):
        await maps.show(GUILD, "Nowhere")


async def test_remove_says_what_the_server_has(maps: MapService) -> None:
    with pytest.raises(ServiceError, match="no map called 'Old Mill'. It has none"):
        await maps.remove(GUILD, MOD, "Old Mill")
    await maps.upload(GUILD, MOD, upload_bytes(mill()), "mill.json")
    reply = await maps.remove(GUILD, MOD, "Old Mill")
    assert "keep their copy" in reply.text


def test_shipped_names_are_every_rulesets() -> None:
    assert is_shipped_name("FOUNDRY") and is_shipped_name("Ruined Chapel")
    assert is_shipped_name("farmhouse") and not is_shipped_name("Old Mill")


async def test_choices_offer_the_servers_maps_of_the_rulesets_kind(maps: MapService) -> None:
    await maps.upload(GUILD, MOD, upload_bytes(mill()), "mill.json")
    squares = await maps.choices(GUILD, "lite")
    assert [value for value, _ in squares] == [*content.names("maps"), "Old Mill"]
    assert ("Old Mill", "Old Mill (this server's)") in squares
    assert [value for value, _ in await maps.choices(GUILD, "infantry")] == content.names(
        "maps", "infantry"
    )


async def test_a_match_on_a_server_map_keeps_its_data_and_replays_without_the_server(
    store: Store, maps: MapService
) -> None:
    await maps.upload(GUILD, MOD, upload_bytes(mill()), "mill.json")
    service = MatchService(store, seed_source=lambda: 7)
    reply = await service.create(GUILD, CHANNEL, ALICE, practice=True, battle_map="old-mill")
    assert "on Old Mill" in reply.text
    row, _ = await service.view(CHANNEL)
    assert row.record["content"]["map"] == mill()
    await maps.remove(GUILD, MOD, "Old Mill")  # the match keeps its copy
    row, _ = await service.view(CHANNEL)
    assert row.record["content"]["map"]["name"] == "Old Mill"
    # another server does not see it
    with pytest.raises(ServiceError, match="no map called 'old-mill'"):
        await service.create(GUILD + 1, CHANNEL + 1, ALICE, practice=True, battle_map="old-mill")


async def test_a_server_map_of_another_kind_is_refused_when_a_match_is_made(
    store: Store, maps: MapService
) -> None:
    await maps.upload(GUILD, MOD, upload_bytes(mill()), "mill.json")
    service = MatchService(store)
    with pytest.raises(
        ServiceError, match="Skirmishers plays on boards of dots; Old Mill is a map"
    ):
        await service.create(
            GUILD, CHANNEL, ALICE, practice=True, battle_map="Old Mill", rules="infantry"
        )
    with pytest.raises(ServiceError, match="Skirmishers plays on boards of dots; Old Mill"):
        await service.create(
            GUILD, CHANNEL, ALICE, practice=True, map_data=mill(), rules="infantry"
        )
    assert await store.active_match(CHANNEL) is None


async def test_a_league_copies_the_server_maps_it_plays(store: Store, maps: MapService) -> None:
    await maps.upload(GUILD, MOD, upload_bytes(mill()), "mill.json")
    matches = MatchService(store, seed_source=lambda: 3)
    leagues = LeagueService(store, matches)
    await leagues.create(
        GUILD, CHANNEL, MOD, "Spring", "skirm", rounds=1, maps=["Old Mill", "foundry"]
    )
    league = await store.league(GUILD, "Spring")
    assert league is not None
    assert league.config["maps"] == ["old mill", "foundry"]
    assert league.config["server_maps"] == {"old mill": mill()}
    await maps.remove(GUILD, MOD, "Old Mill")  # the league keeps its copy
    for member in (ALICE, BOB):
        await leagues.sign_up(
            GUILD, "Spring", member, "iron-wardens" if member is ALICE else "ash-runners"
        )
    channels = iter(range(9000, 9010))

    async def open_channel(title: str) -> int:
        return next(channels)

    reply = await leagues.start_round(GUILD, "Spring", MOD, open_channel)
    assert "Old Mill" in reply.text
    row = await store.active_match(9000)
    assert row is not None and row.record["content"]["map"] == mill()
    with pytest.raises(ServiceError, match="no map called 'Nowhere'"):
        await leagues.create(GUILD, CHANNEL, MOD, "Autumn", "skirm", rounds=1, maps=["Nowhere"])


def test_an_exported_record_replays_from_its_json_alone() -> None:
    """A record keeps its map whole, so replaying needs nothing else (the wire test plays one
    through the bot)."""
    from skirmbot.demo import default_content, new_demo_match, play_out
    from skirmbot.rules.record import record_of

    data = default_content()
    data["map"] = mill()
    match, data = new_demo_match(5, data)
    play_out(match)
    record = record_of(match, data, ["A", "B"], "skirm")
    again = replay(MatchRecord.from_json(json.loads(record.dumps())))
    assert again.log[-1].text == match.log[-1].text
    assert record.content["map"] == mill()


async def test_a_board_of_dots_is_offered_to_the_infantry_rules_alone(
    store: Store, maps: MapService
) -> None:
    board = {**content.raw("maps", "ruins", "infantry"), "name": "Old Ruins"}
    reply = await maps.upload(GUILD, MOD, upload_bytes(board), "ruins.json")
    assert "Old Ruins: a map of 22 x 16 dots." in reply.text and "Skirmishers:" in reply.text
    assert ("Old Ruins", "Old Ruins (this server's)") in await maps.choices(GUILD, "infantry")
    assert "Old Ruins" not in [value for value, _ in await maps.choices(GUILD, "skirm")]
    service = MatchService(store, seed_source=lambda: 2)
    made = await service.create(
        GUILD, CHANNEL, ALICE, practice=True, battle_map="old ruins", rules="infantry"
    )
    assert "on Old Ruins" in made.text
    with pytest.raises(
        ServiceError, match="Skirm plays on maps of squares; Old Ruins is a board of dots"
    ):
        await service.create(GUILD, CHANNEL + 1, ALICE, practice=True, battle_map="Old Ruins")
