"""Maps per ruleset (issue 31, docs/plans/infantry.md section 4).

Our ruling (proposed in docs/plans/infantry.md): a ruleset that keeps a maps folder of its own
(`content/infantry/maps/`: boards of dots) plays on those alone; the others play on the shared
maps of squares, as before. A match's map, when none is chosen, is the mission's own (its
"map"), else the ruleset's default. The service reads a map through the ruleset
(`Ruleset.load_map`), never the kernel's map itself.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from service_setup import ALICE, BOB, CHANNEL, GUILD

from cogs.matches import map_choices
from skirmbot import content
from skirmbot.demo import default_content
from skirmbot.rules.board import Board
from skirmbot.rules.errors import ContentError
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.skirm.ruleset import Skirm
from skirmbot.service import MatchService, ServiceError
from skirmbot.store import Store

SQUARE_RULESETS = ("skirm", "lite", "d20", "companies")
SHARED = [
    "canal-locks",
    "foundry",
    "old-town",
    "ruined-chapel",
    "salt-flats",
    "terraces",
    "the-depot",
    "twin-keeps",
]
INFANTRY = ["crossroads", "farmhouse", "ruins"]


def test_a_ruleset_with_its_own_maps_lists_only_those() -> None:
    """Our ruling: the infantry rules keep their boards of dots in `infantry/maps/` and play on
    those alone; a shared map of squares is not one of theirs, and is refused in words."""
    assert content.names("maps", "infantry") == INFANTRY
    assert content.titles("maps", "infantry")["farmhouse"] == "Farmhouse"
    assert content.find("maps", "Farmhouse", "infantry") == "farmhouse"
    assert content.raw("maps", "ruins", "infantry")["name"] == "Ruins"
    with pytest.raises(ContentError, match="no map called 'foundry'.*Crossroads"):
        content.find("maps", "foundry", "infantry")


@pytest.mark.parametrize("name", SQUARE_RULESETS)
def test_a_square_ruleset_plays_on_the_shared_maps_as_before(name: str) -> None:
    """Behaviour kept: the rulesets on squares keep no maps of their own, so they list the
    shared maps, default to the shared default map, and never see the infantry boards."""
    assert content.names("maps", name) == content.names("maps") == SHARED
    assert content.default_map(name) == content.DEFAULT_MAP
    assert content.default_map(name, content.raw("missions", content.defaults(name)[0], name)) == (
        content.DEFAULT_MAP
    )
    with pytest.raises(ContentError):
        content.find("maps", "crossroads", name)


@pytest.mark.parametrize(("mission", "board"), [("firefight", "crossroads"),
                                                ("the-farmhouse", "farmhouse")])  # fmt: skip
def test_a_matchs_default_map_is_the_one_its_mission_names(mission: str, board: str) -> None:
    """Our ruling: with no map chosen, a match is played on its mission's map (the infantry
    scenarios name theirs: Firefight on Crossroads, The Farmhouse on Farmhouse)."""
    data = content.raw("missions", mission, "infantry")
    assert content.default_map("infantry", data) == board


def test_a_mission_naming_a_map_not_the_rulesets_falls_back_to_its_first() -> None:
    """A mission naming a map the ruleset does not keep is not read as a path: the ruleset's
    default (its own maps' first when it keeps maps) is played instead."""
    assert content.default_map("infantry", {"map": "foundry"}) == "crossroads"
    assert content.default_map("infantry", {"map": "../maps/foundry"}) == "crossroads"
    assert content.default_map("skirm", {"map": "crossroads"}) == "foundry"
    assert content.default_map("skirm", {"map": "ruined-chapel"}) == "ruined-chapel"


@pytest.mark.parametrize("name", SQUARE_RULESETS)
def test_each_square_ruleset_reads_a_map_as_the_kernels_board(name: str) -> None:
    """`Ruleset.load_map`: the square rulesets' own map is the kernel map's Board, the one
    `check_mission` always checked a mission on."""
    data = content.raw("maps", "ruined-chapel")
    board = ruleset(name).load_map(data)
    assert isinstance(board, Board)
    assert board.width == map_from_json(data).board.width
    assert set(board.squares()) == set(map_from_json(data).board.squares())


def test_the_demo_plays_on_the_missions_map_by_default() -> None:
    """The demo's content: the map named, else the mission's, else the ruleset's default."""
    assert default_content()["map"] == content.raw("maps", content.DEFAULT_MAP)
    assert default_content("ruined-chapel")["map"] == content.raw("maps", "ruined-chapel")


async def test_the_service_reads_the_map_through_the_ruleset(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`MatchService.create` asks the ruleset to read the chosen map (`load_map`) and checks the
    mission on what it gave; no map chosen, the ruleset's default is played."""
    given: list[str] = []
    own = Skirm.load_map

    def spy(self: Skirm, data: Any) -> Board:
        given.append(str(data["name"]))
        return own(self, data)

    monkeypatch.setattr(Skirm, "load_map", spy)
    service = MatchService(store, seed_source=lambda: 1234)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    row, _ = await service.view(CHANNEL)
    assert row.record["content"]["map"]["name"] == given[-1] == "Foundry"
    await service.create(GUILD, CHANNEL + 1, ALICE, opponent=BOB, battle_map="Ruined Chapel")
    row, _ = await service.view(CHANNEL + 1)
    assert row.record["content"]["map"]["name"] == given[-1] == "Ruined Chapel"
    with pytest.raises(ServiceError, match="no map called 'farmhouse'"):
        await service.create(GUILD, CHANNEL + 2, ALICE, opponent=BOB, battle_map="farmhouse")


async def _offered(rules: str | None, typed: str = "") -> list[str]:
    interaction: Any = SimpleNamespace(namespace=SimpleNamespace(ruleset=rules))
    return [choice.value for choice in await map_choices(interaction, typed)]


async def test_the_map_option_offers_the_chosen_rulesets_maps() -> None:
    """/match new's map: the maps of the ruleset chosen in the same command (the infantry rules'
    own boards; the shared maps for the others and before a ruleset is chosen), by what is
    typed."""
    assert await _offered("infantry") == INFANTRY
    assert await _offered("infantry", "farm") == ["farmhouse"]
    assert await _offered("lite") == SHARED
    assert await _offered(None) == SHARED
