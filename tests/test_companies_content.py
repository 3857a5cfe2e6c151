"""The group rules' content (skirmbot/content/companies): profiles, company lists and scenarios
load, fit their points, ship in the wheel, and bad data is refused in plain words."""

from __future__ import annotations

import copy
import fnmatch
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from skirmbot import content
from skirmbot.rules.companies.lists import check_points, company_from_json
from skirmbot.rules.companies.profiles import (
    AMBITIONS,
    CAPTAIN_TRAITS,
    RETREAT,
    SHOOT,
    catalogue_from_json,
    catalogue_of,
    shipped_catalogue,
    with_catalogue,
)
from skirmbot.rules.companies.scenarios import (
    BREAKTHROUGH,
    DEFENDERS,
    OBJECTIVES,
    ROUTED,
    scenario_from_json,
)
from skirmbot.rules.errors import ContentError

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "skirmbot" / "content" / "companies"
LISTS = sorted(path.stem for path in (CONTENT / "squads").glob("*.json"))
SCENARIOS = sorted(path.stem for path in (CONTENT / "missions").glob("*.json"))
# Each seat's share of a side's 24 points: 1v1, 2v2, 3v3 (docs/rulings.md: Team play), and how
# many shipped lists are built for each.
TIERS = {24: 4, 12: 4, 8: 3}


def read(kind: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CONTENT / kind / f"{name}.json").read_text("utf-8"))
    return data


def source() -> dict[str, Any]:
    """A copy of the shipped profiles.json to spoil."""
    return copy.deepcopy(dict(shipped_catalogue().source))


def profile(data: dict[str, Any], key: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in data["profiles"] if p["key"] == key)
    return found


# --- profiles.json ---------------------------------------------------------------------------


def test_eight_fieldable_profiles_and_the_summoned_one_each_with_a_retreat_minimum() -> None:
    profiles = shipped_catalogue().profiles
    fieldable = [p for p in profiles.values() if not p.summoned]
    assert len(fieldable) >= 8
    assert all(p.can(RETREAT) for p in profiles.values())
    summoner = profiles["summoners"]
    assert summoner.summons == "spirits" and profiles["spirits"].summoned


def test_a_12d6_pool_at_mi_4_takes_2_or_3_r_from_t_2_or_3() -> None:
    """Rulebook Shooting: "For each number of hits equal to the target's T, reduce their R by
    1" - our content's tuning: an average pool (12d6 hitting on 4+: 6 hits) takes 2-3 R."""
    archers = shipped_catalogue().profiles["archers"]
    assert archers.mi == 4 and archers.can(SHOOT)
    hits = 12 * (7 - archers.mi) // 6
    targets = [p for p in shipped_catalogue().profiles.values() if p.t in (2, 3)]
    assert targets and {hits // p.t for p in targets} == {2, 3}


def test_captain_traits_are_the_six_faces_of_1d6_in_order() -> None:
    """Rulebook Setup 4: "Roll for Captain's trait" - our six, one per face."""
    traits = shipped_catalogue().captain_traits
    assert [(t.roll, t.key) for t in traits] == list(enumerate(CAPTAIN_TRAITS, start=1))


def test_ambitions_are_the_four_the_rules_score() -> None:
    """Rulebook Setup 7: "Choose ambitions" - our four."""
    ambitions = shipped_catalogue().ambitions
    assert tuple(ambitions) == AMBITIONS
    assert {key: a.vp for key, a in ambitions.items()} == {
        "glory": 2,
        "regicide": 3,
        "unbroken": 2,
        "ground": 2,
    }


def test_interrupt_traits_have_a_2d6_minimum_and_the_others_none() -> None:
    traits = shipped_catalogue().traits
    assert 2 <= traits["defiant"].minimum <= 12 and 2 <= traits["elusive"].minimum <= 12
    assert traits["reckless"].minimum == traits["cast"].minimum == 0


def test_a_record_keeps_its_own_catalogue() -> None:
    data = source()
    profile(data, "archers")["mi"] = 3
    assert catalogue_of({"catalogue": data}).profiles["archers"].mi == 3
    assert catalogue_of({}) is shipped_catalogue()
    content = with_catalogue({"map": "x"})
    assert content["catalogue"] == shipped_catalogue().source and content["map"] == "x"
    assert with_catalogue({"catalogue": data})["catalogue"] is data


def spoil(change: Any) -> dict[str, Any]:
    data = source()
    change(data)
    return data


def _set(key: str, field: str, value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        if value is None:
            profile(data, key).pop(field)
        else:
            profile(data, key)[field] = value

    return change


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("profiles"), "need a list of 'profiles'"),
        (_set("archers", "mi", 7), "Profile archers: 'mi' must be a whole number from 2 to 6"),
        (_set("spearmen", "me_defend", 1), "'me_defend' must be a whole number from 2 to 6"),
        (_set("knights", "t", 0), "'t' must be a whole number from 1 to 6"),
        (_set("knights", "r", 13), "'r' must be a whole number from 2 to 12"),
        (_set("militia", "models", 7), "'models' must be a whole number from 1 to 6"),
        (_set("scouts", "mo", 0), "'mo' must be a whole number from 1 to 12"),
        (_set("archers", "range", 40), "'range' must be a whole number from 0 to 36"),
        (_set("archers", "range", 0), "needs both 'mi' and a 'range' above 0"),
        (_set("spearmen", "range", 12), "needs both 'mi' and a 'range' above 0"),
        (_set("archers", "points", True), "'points' must be a whole number"),
        (
            _set("archers", "activation", {"move": 5, "shoot": 13, "retreat": 6}),
            "'shoot' must be a whole number from 2 to 12",
        ),
        (
            _set("archers", "activation", {"move": 5, "shoot": 6, "fly": 6, "retreat": 6}),
            "'fly' is not an order",
        ),
        (
            _set("archers", "activation", {"move": 5, "shoot": 6, "attack": 8}),
            "every Group can be ordered to retreat",
        ),
        (
            _set("archers", "activation", {"move": 5, "attack": 8, "retreat": 6}),
            "a 'shoot' minimum goes with 'mi' and 'range'",
        ),
        (_set("archers", "me_attack", None), "an 'attack' minimum goes with 'me_attack'"),
        (_set("hexers", "traits", []), "a 'cast' minimum goes with the cast trait"),
        (_set("spearmen", "traits", ["stubborn"]), "there is no trait 'stubborn'"),
        (_set("summoners", "summons", "dragons"), "summons 'dragons', which is not another"),
        (_set("summoners", "summons", None), "the summon trait goes with 'summons'"),
        (_set("summoners", "name", "Archers"), "name the profile 'Archers' twice"),
        (
            lambda d: d["traits"].append({"key": "sneaky", "name": "Sneaky", "text": "Hides."}),
            "Trait sneaky is not a trait the rules play",
        ),
        (
            lambda d: d["traits"][1].pop("minimum"),
            "Trait defiant: 'minimum' must be a whole number from 2 to 12",
        ),
        (
            lambda d: d["captain_traits"].pop(),
            "'captain_traits' must be bold, steady, commanding, marksman, hardy, swift",
        ),
        (
            lambda d: d["captain_traits"][0].update(roll=2),
            "with rolls 1 to 6 in that order",
        ),
        (lambda d: d["ambitions"].pop(), "the ambitions must be glory, regicide"),
        (lambda d: d["ambitions"][0].update(vp=0), "Ambition glory: 'vp' must be"),
        (lambda d: d["ambitions"][0].update(key="Glory"), "lower-case letters"),
    ],
)
def test_a_bad_profiles_file_is_refused_in_plain_words(change: Any, words: str) -> None:
    with pytest.raises(ContentError, match=words):
        catalogue_from_json(spoil(change))


def test_a_catalogue_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(ContentError, match="must be an object with traits"):
        catalogue_from_json([])


# --- company lists ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", LISTS)
def test_every_shipped_list_loads_with_a_captain_among_its_groups(name: str) -> None:
    company = company_from_json(read("squads", name), shipped_catalogue())
    assert company.captain in [entry.name for entry in company.groups]
    assert all(not entry.profile.summoned for entry in company.groups)


def test_lists_for_each_team_size_fit_a_seats_share_of_24_points() -> None:
    """Rulebook Setup 6: "each side with the same number of Company points" - each player's
    share of the side's 24: 24 (1v1), 12 (2v2), 8 (3v3)."""
    companies = [company_from_json(read("squads", n), shipped_catalogue()) for n in LISTS]
    for limit, count in TIERS.items():
        smaller = [tier for tier in TIERS if tier < limit]
        fits = [c for c in companies if c.points <= limit and all(c.points > s for s in smaller)]
        assert len(fits) >= count
        for company in fits:
            check_points(company, limit)
    assert len({c.name for c in companies}) == len(companies)


def test_a_list_over_its_share_is_refused_in_words() -> None:
    company = company_from_json(read("squads", "hill-wardens"), shipped_catalogue())
    with pytest.raises(
        ContentError, match="Hill Wardens costs 23 points; this match allows 12 per player."
    ):
        check_points(company, 12)


GOOD = {"name": "Test", "captain": "A", "groups": [{"name": "A", "profile": "spearmen"}]}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "must be an object with a 'name'"),
        ({**GOOD, "groups": []}, "'groups' must list 1 to 8 Groups"),
        ({**GOOD, "groups": [{"name": "A", "profile": "spearmen"}] * 9}, "1 to 8 Groups"),
        (
            {**GOOD, "groups": [{"name": "A", "profile": "dragons"}]},
            "A has no profile called 'dragons'",
        ),
        (
            {**GOOD, "groups": [{"name": "A", "profile": "spirits"}]},
            "Spirits only come by a Summon order",
        ),
        (
            {
                **GOOD,
                "groups": [
                    {"name": "A", "profile": "spearmen"},
                    {"name": "a", "profile": "archers"},
                ],
            },
            "two Groups have the same name",
        ),
        ({**GOOD, "groups": [{"name": "A-1", "profile": "spearmen"}]}, "letters and digits"),
        ({**GOOD, "captain": "B"}, "'captain' must name one of its Groups \\(A\\)"),
        ({k: v for k, v in GOOD.items() if k != "captain"}, "'captain' must name"),
    ],
)
def test_a_bad_list_is_refused_in_plain_words(data: Any, words: str) -> None:
    with pytest.raises(ContentError, match=words):
        company_from_json(data, shipped_catalogue())


def test_a_list_names_profiles_by_key_or_name_in_any_case() -> None:
    data = {**GOOD, "captain": "a", "groups": [{"name": "A", "profile": "Spearmen"}]}
    company = company_from_json(data, shipped_catalogue())
    assert company.groups[0].profile.key == "spearmen" and company.captain == "A"


# --- scenarios -------------------------------------------------------------------------------


def test_the_three_scenarios_and_how_they_score() -> None:
    """Rulebook Setup 3 and End of Game; Setup 5: "Unless otherwise specified in the scenario,
    the attackers take the first turn" - breakthrough says otherwise."""
    found = {n: scenario_from_json(read("missions", n)) for n in SCENARIOS}
    assert sorted(found) == ["breakthrough", "clash", "hold-the-field"]
    assert all(s.rounds == 6 and s.points == 24 for s in found.values())
    assert [s.first for s in found.values()].count(DEFENDERS) == 1
    assert found["breakthrough"].first == DEFENDERS
    assert found["clash"].scores(ROUTED) == 1 and found["clash"].scores(OBJECTIVES) == 0
    assert found["hold-the-field"].scores(OBJECTIVES) == 1
    assert found["breakthrough"].scores(BREAKTHROUGH) == 3


def test_a_scenario_without_points_takes_the_rulebooks_typical_24() -> None:
    """Rulebook Setup 1: "Choose points total for each side (typically 24)"."""
    scenario = scenario_from_json({"name": "X", "rounds": 3, "scoring": [{"kind": ROUTED}]})
    assert scenario.points == 24 and scenario.first == "attackers"


SCENARIO = {"name": "X", "rounds": 6, "points": 24, "scoring": [{"kind": "routed", "vp": 1}]}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({}, "must be an object with a 'name'"),
        ({**SCENARIO, "rounds": 0}, "'rounds' must be a whole number from 1 to 12"),
        ({**SCENARIO, "rounds": 13}, "'rounds' must be a whole number from 1 to 12"),
        ({**SCENARIO, "points": 3}, "'points' must be a whole number from 4 to 100"),
        ({**SCENARIO, "first": "both"}, "'first' must be attackers or defenders"),
        ({**SCENARIO, "scoring": []}, "'scoring' must say how the scenario is won"),
        ({**SCENARIO, "scoring": [{"kind": "flags"}]}, "'kind' of routed, objectives"),
        ({**SCENARIO, "scoring": [{"kind": "routed", "vp": 0}]}, "'vp' must be"),
        ({**SCENARIO, "scoring": [{"kind": "routed"}] * 2}, "each scoring kind is given once"),
        ({**SCENARIO, "briefing": 3}, "its 'briefing' is words"),
    ],
)
def test_a_bad_scenario_is_refused_in_plain_words(data: Any, words: str) -> None:
    with pytest.raises(ContentError, match=words):
        scenario_from_json(data)


# --- the wheel -------------------------------------------------------------------------------


def test_every_content_file_ships_in_the_wheel() -> None:
    """pyproject's package data names every file of content/companies (else an installed bot
    has no profiles)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["skirmbot.content"]
    files = [p.relative_to(CONTENT.parent).as_posix() for p in CONTENT.rglob("*.json")]
    assert len(files) == 2 + len(LISTS) + len(SCENARIOS)  # profiles.json and defaults.json
    assert all(any(fnmatch.fnmatch(f, pattern) for pattern in patterns) for f in files)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_quick_match_pairs_sides_of_nearly_equal_points(players: int) -> None:
    """Setup 6: "each side with the same number of Company points" - the demo's and a practice
    match's Companies (defaults.json, our content) fit each seat's share and their sides' totals
    differ by at most 2 points (the alphabet would pair a 24-point list with a 7-point one)."""
    mission, squads = content.defaults("companies", players)
    assert mission == "clash"
    limit = content.points_limit(mission, "companies", players)
    points = [content.load_squad(name, limit, "companies").points for name in squads]
    sides = [sum(points[seat] for seat in range(side, players, 2)) for side in (0, 1)]
    assert abs(sides[0] - sides[1]) <= 2
    if players < 6:  # three lists of 8 points: a 3 v 3 fields each twice
        assert len(set(squads)) == players
    assert min(sides) >= 22  # most of the side's 24 points are fielded
