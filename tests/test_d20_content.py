"""The d20 content (skirmbot/content/d20): the armory, warbands and scenarios load, fit their
limits, and bad data is refused in plain words."""

from __future__ import annotations

from typing import Any

import pytest
from d20_builders import CONTENT, shipped

from skirmbot.rules.d20.armory import armory_from_json, shipped_armory
from skirmbot.rules.d20.ruleset import RULESET
from skirmbot.rules.d20.scenarios import scenario_from_json, zones
from skirmbot.rules.d20.warbands import warband_from_json
from skirmbot.rules.errors import ContentError
from skirmbot.rules.maps import map_from_json

WARBANDS = sorted(path.stem for path in (CONTENT / "d20" / "squads").glob("*.json"))
SCENARIOS = sorted(path.stem for path in (CONTENT / "d20" / "missions").glob("*.json"))
MAPS = sorted(path.stem for path in (CONTENT / "maps").glob("*.json"))


def test_the_armory_has_6_small_and_3_big_profiles_with_armour_by_facing() -> None:
    profiles = shipped_armory().profiles.values()
    assert sum(not p.big for p in profiles) >= 6
    big = [p for p in profiles if p.big]
    assert len(big) >= 3 and all(p.armour is not None and len(p.armour) == 3 for p in big)
    assert any(w.penetration for w in shipped_armory().weapons.values())


def test_four_warbands_one_per_seat_within_every_scenarios_points_limit() -> None:
    assert len(WARBANDS) == 4
    for name in WARBANDS:
        for scenario in SCENARIOS:
            limit = scenario_from_json(shipped("missions", scenario)).points_limit
            summary = RULESET.check_squad(shipped("squads", name), limit)
            assert summary.points <= limit


def test_three_scenarios_with_rounds_and_a_way_to_win() -> None:
    assert len(SCENARIOS) == 3
    for name in SCENARIOS:
        scenario = scenario_from_json(shipped("missions", name))
        assert scenario.rounds >= 1 and scenario.scoring


@pytest.mark.parametrize("map_name", MAPS)
def test_four_seats_deploy_apart_on_every_shipped_map(map_name: str) -> None:
    board = map_from_json(shipped("maps", map_name)).board
    areas = zones(board, 4)
    assert all(len(area) >= 12 for area in areas)
    assert not set.intersection(*(set(a) for a in areas))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"weapons": [], "traits": [], "profiles": []}, "needs a list of 'weapons'"),
        (
            {
                "weapons": [{"name": "Gun", "kind": "laser", "range": 3}],
                "traits": [{}],
                "profiles": [{}],
            },
            "'kind' must be melee or ranged",
        ),
    ],
)
def test_a_bad_armory_is_refused_in_plain_words(data: dict[str, Any], words: str) -> None:
    with pytest.raises(ContentError, match=words):
        armory_from_json(data)


def test_a_big_profile_needs_armour_and_a_small_one_has_none() -> None:
    armory = dict(shipped_armory().source)
    armory["profiles"] = [{"name": "Tank", "size": "big", "weapons": ["Rifle"], "points": 30}]
    with pytest.raises(ContentError, match="needs 'armour' with front, side and rear"):
        armory_from_json(armory)
    armory["profiles"] = [{"name": "Man", "size": "small", "armour": {"front": 1}, "points": 3}]
    with pytest.raises(ContentError, match="only Big Models have armour"):
        armory_from_json(armory)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"name": "X", "models": [{"name": "A", "profile": "Trooper"}]}, "3 to 8 models"),
        (
            {"name": "X", "models": [{"name": "A", "profile": "Dragon"}] * 3},
            "no profile in the armory",
        ),
        ({"name": "X", "models": [{"name": "A", "profile": "Trooper"}] * 3}, "the same name"),
    ],
)
def test_a_bad_warband_is_refused_in_plain_words(data: dict[str, Any], words: str) -> None:
    with pytest.raises(ContentError, match=words):
        warband_from_json(data, shipped_armory())


def test_a_warband_over_the_points_limit_is_refused() -> None:
    with pytest.raises(ContentError, match="costs 86 points; this scenario allows 50"):
        RULESET.check_squad(shipped("squads", "green-wardens"), 50)


def test_a_scenario_needs_rounds_and_scoring() -> None:
    with pytest.raises(ContentError, match="'rounds' must be"):
        scenario_from_json({"name": "X", "points_limit": 100, "scoring": [{"kind": "control"}]})
    with pytest.raises(ContentError, match="'kind' of control, casualties, survivors"):
        scenario_from_json(
            {"name": "X", "rounds": 3, "points_limit": 100, "scoring": [{"kind": "flags"}]}
        )
