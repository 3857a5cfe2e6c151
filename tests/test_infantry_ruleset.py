"""The infantry rules behind the Ruleset interface (skirmbot.rules.infantry.ruleset): its names,
positions as dots, routes, set-up, content checks and a rule for every command."""

from __future__ import annotations

import pytest

from skirmbot.rules.dice import SeededDice
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import ContentError, RulesError
from skirmbot.rules.infantry.commands import COMMAND_TYPES
from skirmbot.rules.infantry.maps import map_from_json
from skirmbot.rules.infantry.ruleset import RULESET
from skirmbot.rules.view import DOTS
from tests.infantry_boards import LASERS, RIFLEMEN, deployed
from tests.infantry_helpers import content, shipped


def test_the_ruleset_is_named_as_the_plan_names_it() -> None:
    assert (RULESET.name, RULESET.title) == ("infantry", "Skirmishers")
    assert RULESET.rulebook == "002_4d9a1d47f073b3fe.txt"
    assert RULESET.seats == (2,) and RULESET.sides_of(2) == ((0,), (1,))
    assert RULESET.points_word == "PV" and RULESET.score_words == ("PV", "Point Value")
    with pytest.raises(RulesError):
        RULESET.sides_of(4)


def test_a_position_is_a_dot_of_the_map() -> None:
    """Plan section 4: `position(state, text)` reads a typed place into the ruleset's own
    position, refused in words off the map."""
    state = deployed()
    assert RULESET.position(state, "c4") == Dot(2, 3)
    with pytest.raises(RulesError, match="not on the map: its dots run from A1 to N12"):
        RULESET.position(state, "Z30")
    with pytest.raises(RulesError, match="not a dot"):
        RULESET.position(state, "middle")


def test_routes_are_keyed_by_dot_with_their_ap_and_steps() -> None:
    """Basic Movement ¶1-2: each reachable dot with the AP of its cheapest route."""
    state = deployed()
    routes = RULESET.routes(state, "Rossi", "move")
    route = routes[Dot.parse("E4")]
    assert route.cost == 4
    assert [str(dot) for dot in route.path][0] == "D1" and str(route.path[-1]) == "E4"
    assert RULESET.routes(state, "Rossi", "dash") == {}


def test_every_command_has_a_rule_for_match_rules() -> None:
    """`/match rules` explains every command a record may hold but the set-up and the kernel's
    refused Shoot and Concede."""
    named = {rule.name for rule in RULESET.action_rules()}
    assert set(COMMAND_TYPES) - named == {"deploy", "shoot", "concede"}


def test_a_new_match_is_set_up_in_secret_then_played_on_dots() -> None:
    match = RULESET.new_match(RULESET.match_content(content()), SeededDice(2))
    stage = RULESET.set_up_stage(match.state)
    assert stage is not None and stage.sides == (0, 1)
    assert "Place each of Hale" in RULESET.placement_help(match.state, 0)
    match.apply(RULESET.placement(match.state, 0, RIFLEMEN))
    match.apply(RULESET.placement(match.state, 1, LASERS))
    assert RULESET.set_up_stage(match.state) is None
    assert RULESET.view(match.state).grid == DOTS
    assert RULESET.deciding(match.state)
    assert RULESET.card(match.state, "Hale").leader
    assert RULESET.legal_commands(match.state, match.state.to_act or 0)
    assert RULESET.preview(match.state, "Hale", Dot.parse("B2")).as_if
    assert RULESET.state_json(match.state)
    assert RULESET.outcome(match.state) is None and RULESET.scores(match.state) == (0, 0)


def test_content_is_checked_in_words() -> None:
    """Plan section 2: squads within the scenario's PV; zones that hold their squads."""
    summary = RULESET.check_squad(shipped("squads", "riflemen"), 1000)
    assert (summary.name, summary.size, summary.points) == ("Riflemen", 4, 864)
    with pytest.raises(ContentError, match="limit is 500 PV"):
        RULESET.check_squad(shipped("squads", "riflemen"), 500)
    mission = shipped("missions", "firefight")
    assert RULESET.points_limit(mission) == 1000
    board = map_from_json(shipped("maps", "crossroads"))
    RULESET.check_mission(mission, board, (4, 4))
    with pytest.raises(ContentError, match="open dots for 40 troopers"):
        RULESET.check_mission(mission, board, (40, 4))
    assert RULESET.load_map(shipped("maps", "crossroads")).width == 14
