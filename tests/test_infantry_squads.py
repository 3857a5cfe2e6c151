"""Squads and scenarios of the infantry rules as content (rulebook 002, "Unit Card" ¶2,
"Weapons and Equipment"; docs/plans/infantry.md sections 2 and 5): every shipped squad and
scenario loads within its limits, and bad files are refused in plain words. No dice are rolled
here: squads and scenarios are data."""

from __future__ import annotations

import copy
import fnmatch
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from skirmbot.rules.errors import ContentError
from skirmbot.rules.infantry.arms import load_arms
from skirmbot.rules.infantry.maps import map_from_json
from skirmbot.rules.infantry.scenarios import (
    VICTORY_PV,
    Scenario,
    Zone,
    check_zones_fit,
    parse_scenario,
)
from skirmbot.rules.infantry.squads import DEFAULT_POINTS, parse_squad

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "skirmbot" / "content" / "infantry"
SQUADS = sorted(path.stem for path in (CONTENT / "squads").glob("*.json"))
SCENARIOS = sorted(path.stem for path in (CONTENT / "missions").glob("*.json"))


def _json(kind: str, name: str) -> Any:
    return json.loads((CONTENT / kind / f"{name}.json").read_text("utf-8"))


def _riflemen() -> dict[str, Any]:
    return copy.deepcopy(_json("squads", "riflemen"))


def _firefight() -> dict[str, Any]:
    return copy.deepcopy(_json("missions", "firefight"))


def test_the_plans_four_squads_and_two_scenarios_are_shipped() -> None:
    """Our content (docs/plans/infantry.md section 5): four squads, "Firefight" and "The
    Farmhouse"."""
    names = {parse_squad(load_arms(), _json("squads", n)).name for n in SQUADS}
    assert names == {"Riflemen", "Assault Section", "Laser Team", "Mixed Fireteam"}
    titles = {parse_scenario(_json("missions", n)).name for n in SCENARIOS}
    assert titles == {"Firefight", "The Farmhouse"}


@pytest.mark.parametrize("name", SQUADS)
def test_every_shipped_squad_loads_within_1000_pv(name: str) -> None:
    """Our ruling (proposed in docs/plans/infantry.md): "A squad is 2 to 8 troopers ... with one
    leader, within the scenario's limit, 1000 PV by default"."""
    squad = parse_squad(load_arms(), _json("squads", name))
    assert 2 <= len(squad.troopers) <= 8
    assert 0 < squad.pv <= DEFAULT_POINTS
    assert all(t.skill == "Regular" for t in squad.troopers)


def test_four_riflemen_cost_216_pv_each() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): "four riflemen: Rifle 159 + Pistol 13 +
    grenades 44 = 216 each"; armour is free (its price is AP)."""
    squad = parse_squad(load_arms(), _json("squads", "riflemen"))
    assert [t.pv for t in squad.troopers] == [216] * 4
    assert squad.pv == 864
    assert all(t.kit.armour_cost == 1 and t.kit.grenades == 4 for t in squad.troopers)


def test_a_squad_has_one_leader_and_numbers_1_to_n() -> None:
    """Unit Card ¶2: "name, rank, squad position number, and skill level ... the squad leader";
    our ruling (proposed in docs/plans/infantry.md): one leader per squad, numbers 1 to n."""
    for name in SQUADS:
        squad = parse_squad(load_arms(), _json("squads", name))
        assert sum(t.leader for t in squad.troopers) == 1
        assert squad.leader.number == 1
        assert sorted(t.number for t in squad.troopers) == list(range(1, len(squad.troopers) + 1))
    two = _riflemen()
    two["troopers"][1]["leader"] = True
    with pytest.raises(ContentError, match="exactly one leader; it has Hale, Rossi"):
        parse_squad(load_arms(), two)
    none = _riflemen()
    none["troopers"][0]["leader"] = False
    with pytest.raises(ContentError, match="exactly one leader; it has none"):
        parse_squad(load_arms(), none)
    gap = _riflemen()
    gap["troopers"][3]["number"] = 5
    with pytest.raises(
        ContentError, match="numbered 1 to 4, each once; they are numbered 1, 2, 3, 5"
    ):
        parse_squad(load_arms(), gap)


def test_a_squad_past_its_points_limit_is_refused() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): a squad is "within the scenario's
    limit"."""
    with pytest.raises(ContentError, match="Riflemen costs 864 PV: the limit is 500 PV"):
        parse_squad(load_arms(), _riflemen(), limit=500)


@pytest.mark.parametrize("count", [1, 9])
def test_a_squad_of_1_or_9_troopers_is_refused(count: int) -> None:
    """Our ruling (proposed in docs/plans/infantry.md): "A squad is 2 to 8 troopers"."""
    data = _riflemen()
    leader = data["troopers"][0]
    data["troopers"] = [
        {**leader, "name": f"T{n}", "number": n, "leader": n == 1, "primary": "SMG"}
        for n in range(1, count + 1)
    ]
    with pytest.raises(ContentError, match=f"has {count} troopers: a squad has 2 to 8"):
        parse_squad(load_arms(), data)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("primary", "Pistol", r"Rossi \(Riflemen\): Pistol is not a primary weapon"),
        ("primary", "Lance", "There is no weapon called 'Lance'"),
        ("secondary", "Bayonet/Knife", "Bayonet/Knife is always carried"),
        ("secondary", "Hand Grenade", "Hand grenades are carried besides"),
        ("armour", "Plate", "There is no body armour called 'Plate'"),
        ("skill", "Veteran", "skill must be Regular: no other is built"),
        ("leader", "yes", "leader must be true or false"),
        ("number", "2", "number must be a whole number"),
        ("equipment", "Medkit", "equipment must be a list of names"),
        ("name", "Hale", "two troopers called Hale"),
    ],
)
def test_a_bad_trooper_is_refused_in_words(field: str, value: str, words: str) -> None:
    """Unit Card ¶7 / W&E ¶1: "one primary weapon, one secondary weapon, and 4 hand grenades";
    our rulings (proposed in docs/plans/infantry.md): skill "Regular", one named leader."""
    data = _riflemen()
    data["troopers"][1][field] = value
    with pytest.raises(ContentError, match=words):
        parse_squad(load_arms(), data)


def test_a_squad_with_a_missing_or_unknown_field_is_refused() -> None:
    """A squad file is written by hand, so a typo is named, not ignored."""
    data = _riflemen()
    data["troopers"][0]["armor"] = data["troopers"][0].pop("armour")
    with pytest.raises(ContentError, match="it lacks armour; it has unknown armor"):
        parse_squad(load_arms(), data)
    with pytest.raises(ContentError, match="must be an object"):
        parse_squad(load_arms(), ["Riflemen"])


def test_equipment_is_carried_on_the_trooper() -> None:
    """W&E ¶1: "Troopers may carry additional equipment in some cases"; our ruling: shown only."""
    squad = parse_squad(load_arms(), _json("squads", "riflemen"))
    assert squad.leader.kit.equipment == ("Binoculars",)


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_shipped_scenario_loads_and_fits_a_map_of_12_rows(name: str) -> None:
    """Our content (docs/plans/infantry.md section 2): 8 rounds, 1000 PV, victory by the PV of
    enemies put out, deployment on opposite edges."""
    scenario = parse_scenario(_json("missions", name))
    assert (scenario.rounds, scenario.points, scenario.victory) == (8, 1000, VICTORY_PV)
    check_zones_fit(scenario, 12)
    assert [z.rows(12) for z in scenario.zones] == [(1, 2), (11, 12)]


@pytest.mark.parametrize(
    ("mission", "shipped_map"), [("firefight", "crossroads"), ("the-farmhouse", "farmhouse")]
)
def test_each_scenario_fits_its_shipped_map(mission: str, shipped_map: str) -> None:
    """Our content: "Firefight" is played on the open map, Crossroads, and "The Farmhouse" on
    the Farmhouse; each side's zone fits the map's rows."""
    scenario = parse_scenario(_json("missions", mission))
    board = map_from_json(json.loads((CONTENT / "maps" / f"{shipped_map}.json").read_text()))
    assert scenario.map == shipped_map
    check_zones_fit(scenario, board.height)


def test_every_squad_fits_every_scenarios_limit() -> None:
    """Our ruling (proposed in docs/plans/infantry.md): a squad is within the scenario's limit."""
    for mission in SCENARIOS:
        limit = parse_scenario(_json("missions", mission)).points
        for name in SQUADS:
            parse_squad(load_arms(), _json("squads", name), limit=limit)


def test_zones_that_leave_the_map_or_overlap_are_refused() -> None:
    """Our ruling (proposed: the turn sequence): each side deploys in its zone in secret, so the
    zones lie on the map and share no row."""
    scenario = parse_scenario(_firefight())
    with pytest.raises(ContentError, match="share rows"):
        check_zones_fit(scenario, 3)
    big = Scenario("Big", "b", "crossroads", 8, 1000, (Zone(1, 2), Zone(13, 14)), VICTORY_PV)
    with pytest.raises(ContentError, match="side 2's zone does not fit the 12 rows"):
        check_zones_fit(big, 12)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("rounds", 0, "rounds must be a whole number of at least 1"),
        ("points", "1000", "points must be a whole number"),
        ("victory", "objectives", "victory must be pv"),
        ("zones", [[1, 2]], "needs two zones"),
        ("zones", [[2, 1], [-2, -1]], "side 1's zone must be"),
        ("zones", [[1, 2], [-2, 3]], "side 2's zone must be"),
        ("zones", [[0, 2], [-2, -1]], "side 1's zone must be"),
        ("map", "", "map must be text"),
    ],
)
def test_a_bad_scenario_is_refused_in_words(field: str, value: Any, words: str) -> None:
    """Our content (docs/plans/infantry.md section 2): rounds, points, two zones by rows, PV
    victory."""
    data = _firefight()
    data[field] = value
    with pytest.raises(ContentError, match=words):
        parse_scenario(data)


def test_a_scenario_with_an_unknown_field_is_refused() -> None:
    """A scenario is written by hand, so a typo is named, not ignored."""
    data = _firefight()
    data["round"] = data.pop("rounds")
    with pytest.raises(ContentError, match="it lacks rounds; it has unknown round"):
        parse_scenario(data)


def test_the_squads_and_scenarios_ship_in_the_wheel() -> None:
    """pyproject's package data globs */squads/*.json and */missions/*.json take these files
    (else an installed bot has none)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["skirmbot.content"]
    shipped = [f"infantry/squads/{n}.json" for n in SQUADS]
    shipped += [f"infantry/missions/{n}.json" for n in SCENARIOS]
    for path in shipped:
        assert any(fnmatch.fnmatch(path, pattern) for pattern in patterns), path
