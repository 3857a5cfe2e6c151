"""The shipped shared maps (issue 33): at least eight, varied, each fair by its layout and
playable in every square ruleset on every shipped mission.

What "varied" means here (our rulings, docs/rulings.md, Shipped maps): a square is *blocked*
when it is impassable or stands beside a wall of 2 or more or a door; a map is *open* when at
most 15% of its squares are blocked and at most 5% are raised, *dense* when at least 30% are
blocked; it *has levels* with at least 8 raised squares, *has doors* with at least 4 doors.
Fair by layout: each map is the same after a half turn (180 degrees), which swaps the top and
bottom edges and the left and right ones, so every mission's two sides meet the same ground.
"""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from skirmbot import content
from skirmbot.cli import main
from skirmbot.demo import default_content, new_demo_match, play_demo, play_out
from skirmbot.rules.board import Board, parse_board
from skirmbot.rules.companies import geometry
from skirmbot.rules.d20.scenarios import zones as d20_zones_of
from skirmbot.rules.errors import ContentError
from skirmbot.rules.maps import TURRET, BattleMap
from skirmbot.rules.movement import Mover, reachable
from skirmbot.rules.record import MatchRecord
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.squares import Square

MAPS = content.names("maps")
BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "fairness.py"
# The rulesets on squares, which share the maps of `content/maps/` (the infantry rules keep
# their own boards of dots).
SQUARE_RULESETS = ("skirm", "lite", "d20", "companies")
MOVE_BUDGET = 3  # a Move's movement points (rulings: Movement)
OPEN_BLOCKED, OPEN_RAISED, DENSE_BLOCKED = 0.15, 0.05, 0.30
LEVELS_RAISED, DOORS = 8, 4


def missions(rules: str) -> list[str]:
    return content.names("missions", rules)


# --- the measures -----------------------------------------------------------------------------
def half_turn(board: Board, square: Square) -> Square:
    return Square(board.width - 1 - square.x, board.height - 1 - square.y)


def blocked_share(board: Board) -> float:
    """The share of the squares that are impassable or beside a wall of 2+ or a door."""
    beside = {
        square
        for key, feature in board.edges()
        if feature.wall >= 2 or feature.door
        for square in key
    }
    return len(set(board.impassable) | beside) / (board.width * board.height)


def raised(board: Board) -> int:
    return sum(1 for square in board.squares() if board.is_open(square) and board.level(square))


def is_open_map(board: Board) -> bool:
    area = board.width * board.height
    return blocked_share(board) <= OPEN_BLOCKED and raised(board) / area <= OPEN_RAISED


def reached_from(board: Board, starts: Iterable[Square]) -> set[Square]:
    """Every square a plain unit can walk to from `starts`, Move after Move, with the doors
    as the map draws them (a closed door stays shut: nobody opens it on the way)."""
    mover = Mover("probe")
    seen = set(starts)
    frontier = set(seen)
    while frontier:
        frontier = {
            end
            for square in frontier
            for end in reachable(board, square, MOVE_BUDGET, mover, {square: "probe"})
            if end not in seen
        }
        seen |= frontier
    return seen


# --- each ruleset's deployment zones and squad sizes ------------------------------------------
def skirm_zones(
    rules: str, battle_map: BattleMap, mission: dict[str, Any], seats: int
) -> list[set[Square]]:
    """The mission's own zones (Skirm and Skirm Lite: an edge and a depth each)."""
    loaded = ruleset(rules).load_mission(mission)
    return [set(zone.squares(battle_map.board)) for zone in loaded.zones]


def d20_zones(
    rules: str, battle_map: BattleMap, mission: dict[str, Any], seats: int
) -> list[set[Square]]:
    return [set(zone) for zone in d20_zones_of(battle_map.board, seats)]


def companies_zones(
    rules: str, battle_map: BattleMap, mission: dict[str, Any], seats: int
) -> list[set[Square]]:
    """The zones on the table (the map at two squares an inch), as the map squares under them."""
    table = geometry.table_of(battle_map).board
    zones = geometry.deployment_zones(table, seats)
    return [{Square(s.x // 2, s.y // 2) for s in zone} for zone in zones]


def skirm_size(rules: str, squad: str, limit: int) -> int:
    return len(ruleset(rules).load_squad(content.raw("squads", squad, rules), limit).units)


def d20_size(rules: str, squad: str, limit: int) -> int:
    """Squares a warband's models take: a Big Model four (rulings: d20, Big Models)."""
    warband = ruleset(rules).load_squad(content.raw("squads", squad, rules), limit)
    return sum(4 if profile.big else 1 for _name, profile in warband.models)


def companies_size(rules: str, squad: str, limit: int) -> int:
    """A Company's models, one a square."""
    company = ruleset(rules).load_squad(content.raw("squads", squad, rules), limit)
    return sum(entry.profile.models for entry in company.groups)


ZONES: dict[str, Callable[[str, BattleMap, dict[str, Any], int], list[set[Square]]]] = {
    "skirm": skirm_zones,
    "lite": skirm_zones,
    "d20": d20_zones,
    "companies": companies_zones,
}
SIZES: dict[str, Callable[[str, str, int], int]] = {
    "skirm": skirm_size,
    "lite": skirm_size,
    "d20": d20_size,
    "companies": companies_size,
}


# --- the list ---------------------------------------------------------------------------------
def test_the_square_rulesets_share_the_shipped_maps() -> None:
    for rules in SQUARE_RULESETS:
        assert content.names("maps", rules) == MAPS


def test_at_least_eight_maps_ship_with_levels_doors_an_open_and_a_dense_one() -> None:
    """Issue 33: some with levels, doors and walls, some open, some dense (measured as the
    module's docstring says)."""
    boards = {name: content.load_map(name).board for name in MAPS}
    assert len(MAPS) >= 8
    assert sum(raised(board) >= LEVELS_RAISED for board in boards.values()) >= 2
    assert sum(len(board.doors) >= DOORS for board in boards.values()) >= 2
    assert [name for name, board in boards.items() if is_open_map(board)]
    assert [name for name, board in boards.items() if blocked_share(board) >= DENSE_BLOCKED]


def test_the_measures_tell_an_open_map_from_a_dense_one() -> None:
    """The measures themselves: Salt Flats is open and not dense, Old Town dense and not open."""
    flats, town = content.load_map("salt-flats").board, content.load_map("old-town").board
    assert is_open_map(flats) and blocked_share(flats) < DENSE_BLOCKED
    assert blocked_share(town) >= DENSE_BLOCKED and not is_open_map(town)


@pytest.mark.parametrize("name", MAPS)
def test_a_shipped_map_loads_with_a_name_and_a_description(name: str) -> None:
    battle_map = content.load_map(name)
    assert battle_map.name.strip() and battle_map.description.strip()
    assert content.find("maps", battle_map.name) == name  # players type the display name


@pytest.mark.parametrize("name", MAPS)
def test_a_shipped_map_is_the_same_after_a_half_turn(name: str) -> None:
    """Fair by layout: ground, levels, edges, objectives and items (a lone turret aside: no
    square of an even board is its own half turn) match their half-turned squares, so the
    sides of every mission, top against bottom or left against right, meet the same map."""
    battle_map = content.load_map(name)
    board = battle_map.board
    for square in board.squares():
        turned = half_turn(board, square)
        assert board.is_open(square) == board.is_open(turned), square
        assert (square in board.difficult) == (turned in board.difficult), square
        if board.is_open(square):
            assert board.level(square) == board.level(turned), square
    for (a, b), feature in board.edges():
        assert board.feature(half_turn(board, a), half_turn(board, b)) == feature, f"{a}|{b}"
    assert {half_turn(board, square) for square in battle_map.objectives} == set(
        battle_map.objectives
    )
    # A turret has no twin (Ruined Chapel's one machine gun, on the crossing); what stands on
    # its half-turned square is left out with it.
    turrets = {item.square for item in battle_map.items if item.kind == TURRET}
    apart = turrets | {half_turn(board, square) for square in turrets}
    items = {(item.kind, item.square) for item in battle_map.items if item.square not in apart}
    assert {(kind, half_turn(board, square)) for kind, square in items} == items


# --- every mission fits, every objective is reachable ----------------------------------------
@pytest.mark.parametrize("rules", SQUARE_RULESETS)
@pytest.mark.parametrize("name", MAPS)
def test_every_mission_of_the_ruleset_fits_the_map_with_its_squads(name: str, rules: str) -> None:
    """`Ruleset.check_mission` passes for every shipped mission, for every number of players
    the ruleset seats, with the squads a quick match of that mission takes (`content.defaults`),
    and a squad far too large for any zone is refused, so the check does check."""
    played = ruleset(rules)
    board = played.load_map(content.raw("maps", name))
    for mission in missions(rules):
        data = content.raw("missions", mission, rules)
        for players in played.seats:
            limit = played.points_limit(data, players)
            squads = content.defaults(rules, players)[1]
            sizes = tuple(SIZES[rules](rules, squad, limit) for squad in squads)
            played.check_mission(data, board, sizes)
            with pytest.raises(ContentError, match="zone"):
                played.check_mission(data, board, (board.width * board.height, *sizes[1:]))


@pytest.mark.parametrize("rules", SQUARE_RULESETS)
@pytest.mark.parametrize("name", MAPS)
def test_every_objective_is_reachable_from_every_deployment_zone(name: str, rules: str) -> None:
    """From each seat's zone of every mission (two players, and as many as the ruleset seats)
    a unit can walk to every objective and into every other seat's zone (the target of the
    missions that score there), doors as drawn."""
    played = ruleset(rules)
    battle_map = content.load_map(name)
    board = battle_map.board
    for mission in missions(rules):
        data = content.raw("missions", mission, rules)
        for players in {2, max(played.seats)}:
            zones = ZONES[rules](rules, battle_map, data, players)
            for seat, zone in enumerate(zones):
                reached = reached_from(board, zone)
                for objective in battle_map.objectives:
                    assert objective in reached, f"{mission}: seat {seat + 1} to {objective}"
                for other in zones:
                    assert reached & other, f"{mission}: seat {seat + 1} to another zone"


def test_reachability_sees_a_walled_off_square() -> None:
    """The measure can fail: a square ringed by walls too high to climb is not reached, and
    is once one of its walls is a door drawn open."""
    rows = [" ".join("." for _ in range(12))] * 12
    walled = parse_board(rows, ["F5|F6, E6|F6, F6|G6, F6|F7: wall=3"])
    assert Square(5, 5) not in reached_from(walled, [Square(0, 0)])
    opened = parse_board(rows, ["F5|F6, E6|F6, F6|G6: wall=3", "F6|F7: door=open"])
    assert Square(5, 5) in reached_from(opened, [Square(0, 0)])


# --- a whole match on each map, in each square ruleset ----------------------------------------
def mission_for(rules: str, name: str) -> str:
    """Missions taken in turn across the maps, so each mission is played on some map."""
    return missions(rules)[MAPS.index(name) % len(missions(rules))]


@pytest.mark.parametrize("rules", SQUARE_RULESETS)
@pytest.mark.parametrize("name", MAPS)
def test_the_automatic_players_play_a_whole_match_on_the_map(name: str, rules: str) -> None:
    data = default_content(name, mission_for(rules, name), rules=rules)
    match, played_on = new_demo_match(3, data, rules)
    play_out(match, rules)
    assert ruleset(rules).outcome(match.state) is not None
    assert played_on["map"] == content.raw("maps", name)


def test_each_mission_is_played_on_some_map() -> None:
    for rules in SQUARE_RULESETS:
        assert {mission_for(rules, name) for name in MAPS} == set(missions(rules))


def test_the_demo_plays_on_the_map_named() -> None:
    """`play_demo(battle_map=)`: the map as a player types it; the record keeps its data."""
    match, record = play_demo(2, "lite", battle_map="Twin Keeps")
    assert record.content["map"] == content.raw("maps", "twin-keeps")
    assert ruleset("lite").outcome(match.state) is not None
    _, default = new_demo_match(2, rules="lite")
    assert default["map"] == content.raw("maps", content.DEFAULT_MAP)
    with pytest.raises(ContentError, match="no map called 'atlantis'.*Salt Flats"):
        play_demo(2, "lite", battle_map="atlantis")


# --- `skirmbot demo --map`, `skirmbot console --map` ------------------------------------------
def test_the_demo_command_plays_on_the_map_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skirmbot demo --map NAME`: the map as a player types it; its record keeps that map."""
    assert main(["demo", "--ruleset", "lite", "--map", "old town", "--out", str(tmp_path)]) == 0
    record = MatchRecord.loads((tmp_path / "match.json").read_text(encoding="utf-8"))
    assert record.content["map"] == content.raw("maps", "old-town")
    capsys.readouterr()


@pytest.mark.parametrize("command", ["demo", "console --practice"])
def test_a_map_that_is_not_shipped_is_refused_with_the_list(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wrong name is a usage error listing the ruleset's maps, before anything is written."""
    out = tmp_path / "out"
    assert main([*command.split(), "--map", "atlantis", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skirmbot: There is no map called 'atlantis'. Choose one of: ")
    assert "Salt Flats" in err and "Twin Keeps" in err
    assert not out.exists()


def test_the_console_starts_its_match_on_the_map_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`skirmbot console --map NAME`: the new match is set up on that map (then the player
    leaves at the first prompt)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    db = tmp_path / "kept.db"
    argv = ["console", "--practice", "--ruleset", "lite", "--map", "Terraces"]
    assert main([*argv, "--db", str(db), "--out", str(tmp_path / "out")]) == 0
    assert " on Terraces" in capsys.readouterr().out


# --- the fairness benchmark's line per map ----------------------------------------------------
def test_the_fairness_benchmark_gives_a_line_per_map(capsys: pytest.CaptureFixture[str]) -> None:
    """`benchmarks/fairness.py --maps all`: a table per map, then `maps:` with a line per map
    (the ruleset, its share there and its side share), and the `ratio:` line last, the
    highest share."""
    spec = importlib.util.spec_from_file_location("fairness_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    fairness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fairness)
    argv = ["--matches", "2", "--ruleset", "lite", "--maps", "all", "--processes", "1"]
    assert fairness.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    for name in MAPS:
        assert f"Skirm Lite: 2 automatic matches, crossfire on {name}" in lines
    section = lines[lines.index("maps:") + 1 : lines.index("maps:") + 1 + len(MAPS)]
    rows = {line.split()[0]: line.split()[1:] for line in section}
    assert sorted(rows) == MAPS
    for words in rows.values():
        assert words[0] == "lite" and words[2] == "side"
        assert 0.5 <= float(words[1]) <= 1.0 and 0.5 <= float(words[3]) <= 1.0
    highest = max(float(words[1]) for words in rows.values())
    assert lines[-1].startswith("ratio: ") and float(lines[-1][7:]) >= highest
