"""A match of the infantry rules before its first round: content, troopers, deployment."""

from __future__ import annotations

import pytest

from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import ContentError, IllegalCommand
from skirmbot.rules.infantry.setup import (
    deploy,
    match_content,
    new_state,
    placement_help,
    zone_dots,
)
from tests.infantry_helpers import content


def test_a_new_match_has_both_squads_fresh_and_off_the_map() -> None:
    """Unit Card ¶7 / W&E ¶1: "primary and secondary weapons ... 4 hand grenades"; Body Armor
    ¶2: the armour's cells; our ruling (docs/plans/infantry.md §2): the primary starts active."""
    state = new_state(content())
    riflemen = state.troopers_of(0)
    assert [t.id for t in riflemen] == ["Hale", "Rossi", "Brandt", "Okafor"]
    hale = riflemen[0]
    assert (hale.active, hale.primary, hale.secondary, hale.grenades) == (
        "Rifle", "Rifle", "Pistol", 4,
    )  # fmt: skip
    assert hale.armour == 2 and hale.max_ap == 7 and hale.dot is None and hale.able
    assert state.deployed == [False, False] and state.round == 0


def test_a_name_both_squads_have_gets_the_second_seats_number() -> None:
    """Commands name troopers by id: two alike could not be told apart."""
    state = new_state(content(("riflemen", "riflemen")))
    assert [t.id for t in state.troopers_of(1)][:2] == ["Hale2", "Rossi2"]


def test_match_content_keeps_the_weapons_tables_and_empty_seats() -> None:
    """A record keeps the tables it was played with; squads come later (None until chosen)."""
    kept = match_content({"map": {}, "mission": {}, "squads": [None, None]})
    assert "Rifle" in str(kept["arms"]) and kept["squads"] == [None, None]
    with pytest.raises(ContentError, match="not chosen"):
        new_state({**content(), "squads": [content()["squads"][0], None]})


def test_strict_refuses_a_squad_over_the_scenarios_points() -> None:
    """Our ruling (docs/plans/infantry.md §2, squad building): within the scenario's limit."""
    data = content()
    data["mission"] = {**data["mission"], "points": 100}
    with pytest.raises(ContentError, match="PV"):
        new_state(data)
    assert new_state(data, strict=False).troopers


def test_deployment_is_in_the_zone_every_trooper_once() -> None:
    """Our ruling (docs/plans/infantry.md §2, the turn sequence): each side deploys in its
    zone, all standing at level 0."""
    state = new_state(content())
    zone = zone_dots(state, 0)
    assert Dot.parse("A1") in zone and Dot.parse("C1") not in zone  # C1 is a tree
    assert all(dot.y in (0, 1) for dot in zone)
    assert "rows 1 to 2" in placement_help(state, 0)
    good = {"Hale": "A1", "Rossi": "B1", "Brandt": "D1", "Okafor": "E1"}
    for bad, words in [
        ({**good, "Hale": "A5"}, "zone"),
        ({**good, "Hale": "B1"}, "Two troopers"),
        ({"Hale": "A1"}, "every trooper once"),
        ({**good, "Hale": "Z99"}, "zone"),
    ]:
        with pytest.raises(IllegalCommand, match=words):
            deploy(state, 0, bad)
        assert not state.deployed[0] and all(t.dot is None for t in state.troopers)
    deploy(state, 0, {k.lower(): v for k, v in good.items()})
    assert state.trooper("rossi").dot == Dot.parse("B1") and state.deployed == [True, False]
