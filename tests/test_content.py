"""The shipped content (maps, missions, sample squads) and the validators' errors on broken content.

Every shipped file must load through `skirmbot.content` and follow the
rulebook's squad building rules and stat ranges; the maps must use the terrain the rulings define
and be playable from every deployment edge. Broken copies of the shipped files must be refused
with an error that says what is wrong, in words a player can act on.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from skirmbot import content
from skirmbot.rules.board import Board
from skirmbot.rules.errors import ContentError
from skirmbot.rules.maps import BARREL, CRATE, TURRET, BattleMap, map_from_json
from skirmbot.rules.movement import Mover, reachable
from skirmbot.rules.skirm.cards import RANGED
from skirmbot.rules.skirm.missions import Zone, mission_from_json
from skirmbot.rules.skirm.squads import squad_from_json
from skirmbot.rules.squares import Square

MAPS = content.names("maps")
MISSIONS = content.names("missions")
SQUADS = content.names("squads")
EDGES = ("top", "bottom", "left", "right")
MOVE_BUDGET = 3  # rulings: Movement, a Move spends 3 movement points
ROOMY = 1000  # an EP limit no test squad reaches, so the rule under test is the one that fails


def raises(text: str) -> Any:
    """pytest.raises for a ContentError whose message contains `text` word for word."""
    return pytest.raises(ContentError, match=re.escape(text))


def moves_needed(board: Board, starts: list[Square], goal: Square, limit: int = 4) -> int | None:
    """How many Move actions a plain unit needs from the best of `starts` to stand on `goal`."""
    mover = Mover("probe")
    seen, frontier = set(starts), set(starts)
    for moves in range(1, limit + 1):
        frontier = {
            end
            for square in frontier
            for end in reachable(board, square, MOVE_BUDGET, mover, {square: "probe"})
            if end not in seen
        }
        seen |= frontier
        if goal in seen:
            return moves
    return None


# --- everything shipped loads ------------------------------------------------------------------


def test_defaults_are_shipped() -> None:
    """The loader's defaults name shipped files (skirmbot.content)."""
    assert content.DEFAULT_MAP in MAPS
    assert content.DEFAULT_MISSION in MISSIONS
    assert set(content.DEFAULT_SQUADS) <= set(SQUADS)
    assert len(MAPS) >= 2 and len(MISSIONS) >= 2 and len(SQUADS) >= 2


@pytest.mark.parametrize("name", MAPS)
def test_map_loads(name: str) -> None:
    """Rulebook, Battle Map: every shipped map loads and is 12x12 squares."""
    battle_map = content.load_map(name)
    assert battle_map.name and battle_map.description
    assert (battle_map.board.width, battle_map.board.height) == (12, 12)


@pytest.mark.parametrize("name", MISSIONS)
def test_mission_loads(name: str) -> None:
    """Rulebook, Game Cycle (Select Mission): every shipped mission loads, with a briefing."""
    mission = content.load_mission(name)
    assert mission.name and mission.briefing
    assert mission.turns == 4
    assert mission.ep_limit == 100


@pytest.mark.parametrize("name", SQUADS)
def test_squad_loads(name: str) -> None:
    """Rulebook, Building Your Squad: every shipped squad loads under the 100 EP limit."""
    squad = content.load_squad(name)
    assert squad.name


def test_unknown_name_lists_the_shipped_ones() -> None:
    """skirmbot.content: a name that is not shipped is refused with the display names of the
    ones that are (issue 28: players type those)."""
    with raises(
        "There is no map called 'atlantis'. Choose one of: Canal Locks, Foundry, Old Town, "
        "Ruined Chapel, Salt Flats, Terraces, The Depot, Twin Keeps."
    ):
        content.load_map("atlantis")


# --- the maps use the terrain of the rulings and are playable ----------------------------------


def _features(battle_map: BattleMap) -> dict[str, int]:
    board = battle_map.board
    edges = [feature for _key, feature in board.edges()]
    kinds = [item.kind for item in battle_map.items]
    return {
        "raised": sum(1 for s in board.squares() if board.is_open(s) and board.level(s) >= 1),
        "level 2": sum(1 for s in board.squares() if board.is_open(s) and board.level(s) >= 2),
        "low wall": sum(1 for f in edges if f.wall == 1),
        "high wall": sum(1 for f in edges if f.wall >= 2),
        "open door": sum(1 for f in edges if f.door == "open"),
        "closed door": sum(1 for f in edges if f.door == "closed"),
        "stairs": sum(1 for f in edges if f.stairs),
        "climbable": sum(1 for f in edges if f.climbable),
        "difficult": len(board.difficult),
        "impassable": len(board.impassable),
        "objective": len(battle_map.objectives),
        "crate": kinds.count(CRATE),
        "barrel": kinds.count(BARREL),
        "turret": kinds.count(TURRET),
    }


@pytest.mark.parametrize("name", MAPS)
def test_map_has_the_terrain_of_the_rulings(name: str) -> None:
    """Rulebook, Battle Map, Vertical Movement, Difficult Terrain and Items (rulings: Board and
    geometry, Items): raised squares with stairs and climbable edges, walls, doors, difficult and
    impassable squares, objectives, a crate and a barrel."""
    found = _features(content.load_map(name))
    for feature in (
        "raised",
        "level 2",
        "low wall",
        "high wall",
        "open door",
        "closed door",
        "stairs",
        "climbable",
        "difficult",
        "impassable",
        "crate",
        "barrel",
    ):
        assert found[feature] >= 1, f"{name} has no {feature}"
    assert 2 <= found["objective"] <= 4
    assert found["crate"] <= 2 and found["barrel"] <= 2 and found["turret"] <= 1


@pytest.mark.parametrize(("name", "edge"), list(itertools.product(MAPS, EDGES)))
def test_map_edges_leave_room_to_deploy(name: str, edge: str) -> None:
    """Rulings, Deployment: the two rows or columns along every map edge have at least 8 open
    squares, so any mission may deploy there."""
    board = content.load_map(name).board
    assert len(Zone(edge, 2).squares(board)) >= 8


@pytest.mark.parametrize(("name", "edge"), list(itertools.product(MAPS, EDGES)))
def test_objectives_are_reachable_from_every_edge(name: str, edge: str) -> None:
    """Rulebook, Scoring Mission Points and Controlling Objectives, and Movement: a unit deployed
    along any edge can stand on every objective within 3 Moves."""
    battle_map = content.load_map(name)
    starts = Zone(edge, 2).squares(battle_map.board)
    for objective in battle_map.objectives:
        moves = moves_needed(battle_map.board, starts, objective)
        assert moves is not None and moves <= 3, f"{objective} from the {edge}: {moves} Moves"


# --- the missions ------------------------------------------------------------------------------


def test_hold_the_line() -> None:
    """Rulebook, Scoring Mission Points: one MP per objective controlled at the end of every turn,
    squads deployed along the top and bottom edges."""
    mission = content.load_mission("hold-the-line")
    assert [(zone.edge, zone.depth) for zone in mission.zones] == [("top", 2), ("bottom", 2)]
    assert [(s.kind, s.points, s.from_turn) for s in mission.scoring] == [("control", 1, 1)]


def test_bloody_crossroads() -> None:
    """Rulebook, Scoring Mission Points: objectives score from turn 2, each enemy taken out scores
    1 MP, squads deployed along the left and right edges."""
    mission = content.load_mission("bloody-crossroads")
    assert [(zone.edge, zone.depth) for zone in mission.zones] == [("left", 2), ("right", 2)]
    assert sorted((s.kind, s.points, s.from_turn) for s in mission.scoring) == [
        ("control", 1, 2),
        ("take_out", 1, 1),
    ]


# --- the sample squads -------------------------------------------------------------------------


@pytest.mark.parametrize("name", SQUADS)
def test_squad_follows_the_building_rules(name: str) -> None:
    """Rulebook, Building Your Squad: 5 to 8 units, at most 100 EP, exactly one Leader (LDx), no
    Unique (UNQ) unit twice, no Unique (*) gear twice, units called by different names."""
    squad = content.load_squad(name)
    assert 5 <= len(squad.units) <= 8
    assert squad.total_ep <= 100
    leaders = [card for card in squad.units if card.is_leader]
    assert len(leaders) == 1 and leaders[0].value("LD") in (1, 2)
    unique_types = [card.unit_type for card in squad.units if card.has("UNQ")]
    assert len(unique_types) == len(set(unique_types))
    unique_gear = [w.name for card in squad.units for w in card.weapons if w.has("*")]
    assert len(unique_gear) <= 1
    names = [card.name.casefold() for card in squad.units]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("name", SQUADS)
def test_squad_stats_are_in_the_rulebook_ranges(name: str) -> None:
    """Rulebook, Stat Cards (Unit Stats, Weapon Stats): ACT 2-3, MSK and RSK 2-5, ARM 2-4, HIT
    1-4; weapons ROA 1-4, DAM 1-3, ranged weapons RG3 to RG10 (RGx), at least one weapon each."""
    for card in content.load_squad(name).units:
        assert 2 <= card.act <= 3 and 2 <= card.msk <= 5 and 2 <= card.rsk <= 5, card.name
        assert 2 <= card.arm <= 4 and 1 <= card.hit <= 4, card.name
        assert card.weapons, card.name
        for weapon in card.weapons:
            assert 1 <= weapon.roa <= 4 and 1 <= weapon.dam <= 3, weapon.name
            if weapon.kind == RANGED:
                assert 3 <= weapon.range <= 10, weapon.name


# --- broken content is refused with a clear error ----------------------------------------------


def _squad() -> dict[str, Any]:
    return content.raw("squads", content.DEFAULT_SQUADS[0])


def _unit(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(unit for unit in data["units"] if unit["name"] == name)


def _leader(data: dict[str, Any]) -> dict[str, Any]:
    return next(unit for unit in data["units"] if any(s.startswith("LD") for s in unit["specials"]))


def _follower(data: dict[str, Any]) -> dict[str, Any]:
    return next(
        unit
        for unit in data["units"]
        if not any(s.startswith("LD") or s == "UNQ" for s in unit["specials"])
    )


def test_squad_over_the_ep_limit() -> None:
    """Rulebook, Building Your Squad: a squad costs at most 100 EP, units and gear together."""
    data = _squad()
    total = content.load_squad(content.DEFAULT_SQUADS[0]).total_ep
    _leader(data)["ep"] += 101 - total
    with raises(f"Squad {data['name']} costs 101 EP, over the limit of 100 ("):
        squad_from_json(data)
    with raises(f"costs {total} EP, over the limit of {total - 1}"):
        content.load_squad(content.DEFAULT_SQUADS[0], ep_limit=total - 1)


def test_squad_with_two_leaders() -> None:
    """Rulebook, Building Your Squad: a squad includes only one Leader (LDx)."""
    data = _squad()
    leader, follower = _leader(data), _follower(data)
    follower["specials"].append("LD1")
    with raises(
        f"needs exactly one Leader (a unit with LDx); it has {leader['name']}, {follower['name']}."
    ):
        squad_from_json(data)


def test_squad_without_a_leader() -> None:
    """Rulebook, Building Your Squad and Tactical Orders: a squad needs its one Leader (LDx)."""
    data = _squad()
    leader = _leader(data)
    leader["specials"] = [s for s in leader["specials"] if not s.startswith("LD")]
    with raises("needs exactly one Leader (a unit with LDx); it has none."):
        squad_from_json(data)


def test_squad_with_a_unique_unit_twice() -> None:
    """Rulebook, Building Your Squad and Unit Special Rules (UNQ): no Unique unit twice."""
    data = _squad()
    unique = next(
        unit for unit in data["units"] if "UNQ" in unit["specials"] and unit is not _leader(data)
    )
    data["units"].append(dict(unique, name="Twin"))
    with raises(f"{unique['type']} is Unique (UNQ) and may be taken only once."):
        squad_from_json(data, ep_limit=ROOMY)


def test_squad_with_unique_gear_twice() -> None:
    """Rulebook, Building Your Squad and Weapon/Gear Special Rules (*): no Unique gear twice."""
    data = _squad()
    gear = next(w for unit in data["units"] for w in unit["weapons"] if "*" in w["specials"])
    _follower(data)["weapons"].append(dict(gear))
    with raises(f"{gear['name']} is Unique gear (*) and may be taken only once."):
        squad_from_json(data, ep_limit=ROOMY)


def test_squad_with_an_unknown_special_rule() -> None:
    """Rulebook, Special Rules: a card may only carry the rules of the two tables."""
    data = _squad()
    unit = _follower(data)
    unit["specials"].append("ZAP")
    with raises(f"unit {unit['name']}: 'ZAP' is not a special rule here. Known rules: 2MC,"):
        squad_from_json(data)


def test_ranged_weapon_without_a_range() -> None:
    """Rulebook, Weapon/Gear Special Rules (RGx) and Distances And Range: a ranged weapon has
    a range."""
    data = _squad()
    unit = _follower(data)
    weapon = next(w for w in unit["weapons"] if w["type"] == "ranged")
    weapon["specials"] = [s for s in weapon["specials"] if not s.startswith("RG")]
    with raises(
        f"weapon {weapon['name']}: a ranged weapon needs a range of at least 2 (RG2 or more)."
    ):
        squad_from_json(data)


def _map() -> dict[str, Any]:
    return content.raw("maps", content.DEFAULT_MAP)


def test_map_with_a_ragged_row() -> None:
    """Rulebook, Battle Map (a grid of squares): every row is as wide as the first."""
    data = _map()
    data["rows"][2] = data["rows"][2].rsplit(" ", 1)[0]
    with raises("Map row 3 has 11 squares but row 1 has 12: every row must be as wide as"):
        map_from_json(data)


def test_map_with_an_unknown_cell() -> None:
    """Rulebook, Battle Map (rulings: Board and geometry, notation): a cell is '.', '~', '#', a
    level or a level with '~'."""
    data = _map()
    cells = data["rows"][1].split()
    cells[2] = "x"
    data["rows"][1] = " ".join(cells)
    with raises("Square C2 is written 'x'; use '.', '~', '#', a level number like '2'"):
        map_from_json(data)


def test_objective_on_an_impassable_square() -> None:
    """Rulebook, Controlling Objectives (rulings: Blocking squares): a unit must be able to
    stand on an objective, so none stands on an impassable square."""
    data = _map()
    battle_map = map_from_json(data)
    blocked = min(battle_map.board.impassable)
    data["objectives"][0] = str(blocked)
    with raises(f"objective: {blocked} is impassable; nothing can stand there."):
        map_from_json(data)


def test_turret_without_a_type() -> None:
    """Rulebook, Items (Turret Types): a turret is a Machine Gun or a Rocket Launcher turret."""
    data = _map()
    data["items"].append({"kind": "turret", "square": "A12"})
    with raises("the turret on A12 needs a 'type' of machine_gun, rocket_launcher."):
        map_from_json(data)


def test_mission_with_one_zone() -> None:
    """Rulebook, Game Cycle (Prepare Battle Map; rulings: Deployment): a mission gives each of the
    two squads a deployment zone."""
    data = content.raw("missions", content.DEFAULT_MISSION)
    data["deployment"] = data["deployment"][:1]
    with raises(f"Mission {data['name']}: 'deployment' must give two zones, one per squad."):
        mission_from_json(data)
