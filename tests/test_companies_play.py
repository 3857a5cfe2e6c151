"""Loose ends of the group rules where they meet the rest of skirmbot: the kernel's /end read
as the end of a seat's part of the turn, objective markers showing their holder, one word for a
side that conceded, refusals that say what would be right."""

from __future__ import annotations

import dataclasses

import pytest

from skirmbot.rules.commands import EndActivation, Shoot
from skirmbot.rules.companies import scoring, standings, views
from skirmbot.rules.companies.commands import Summon, parse_command
from skirmbot.rules.companies.engine import CompaniesMatch
from skirmbot.rules.companies.profiles import MOVE, SUMMON
from skirmbot.rules.companies.scenarios import OBJECTIVES
from skirmbot.rules.companies.undo import undo_point
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.squares import Square
from tests.companies_builders import profile, put, table


def test_the_kernels_end_activation_ends_the_seats_part_of_the_turn() -> None:
    """Turns: "until an activation is failed or they choose to end their turn" - /end and the
    "end" button send the kernel's EndActivation, which ends the seat's part (each order is a
    whole activation: nothing else to end); a record keeps it as sent, and undo takes it back."""
    state = table(seats=4)
    for seat in range(4):
        put(state, seat, f"G{seat}", f"{'CHMR'[seat]}{3 if seat % 2 == 0 else 20} "
            f"{'DINS'[seat]}{3 if seat % 2 == 0 else 20}")  # fmt: skip
    played = CompaniesMatch(state, ScriptedDice([]))
    recorded = EndActivation(0).to_json()
    assert parse_command(recorded) == EndActivation(0)
    events = played.apply(EndActivation(0))
    assert events[-1].data == {"unit": None, "side": 0, "reason": "turn"}
    assert played.state.seats[0].ended and played.state.active == 0
    assert undo_point(played.state, [recorded], 0) == 0


def test_an_objective_shows_the_side_alone_within_3_inches_of_it() -> None:
    """Our content (hold-the-field): an objective one side alone has a model within 3" of is
    held by it - the picture colours its marker by that side (its first seat's shade)."""
    state = table(seats=4, objectives=("L12", "C3"), scoring=((OBJECTIVES, 1),))
    put(state, 3, "Wolves", "L15 M15")  # seat 3: side 1
    put(state, 0, "Spears", "W1 X1")
    put(state, 1, "Foes", "E3 F3")
    markers = {m.label: m.side for m in views.view(state, "companies").markers}
    assert markers == {"Objective 1": 1, "Objective 2": 1}
    assert scoring.holder(state, Square.parse("L12")) == 1
    put(state, 2, "Bows", "B2 B3")  # side 0 comes within 3" of C3: contested
    assert scoring.holder(state, Square.parse("C3")) is None


def test_a_side_whose_every_player_conceded_loses_in_one_word() -> None:
    """Our ruling (team play): a side whose every player conceded loses whatever the VP - the
    standings and the scoring ask the same question."""
    state = table(seats=4)
    state.seats[1].out = True
    assert not scoring.conceded(state, 1)
    state.seats[3].out = True
    assert scoring.conceded(state, 1) and standings.placings(state) == (1, 2)


def test_a_refused_summon_names_the_squares_it_may_summon_at() -> None:
    """Our content (Summon): the new Group stands within 3" of the summoner - a square out of
    reach is refused in words with the nearest squares allowed, and nothing is rolled."""
    state = table()
    spirits = profile("spirits", models=2)
    summoners = dataclasses.replace(
        profile("summoners", models=2, activation={MOVE: 5, SUMMON: 8}, me_attack=None),
        traits=("summon",),
        summons="spirits",
    )
    state.catalogue = dataclasses.replace(
        state.catalogue, profiles={**state.catalogue.profiles, "spirits": spirits}
    )
    put(state, 0, "Summoners", "C3 D3", summoners)
    put(state, 1, "Foes", "C20 D20 E20")
    played = CompaniesMatch(state, ScriptedDice([]))
    with pytest.raises(IllegalCommand) as refused:
        played.apply(Summon(0, "Summoners", "K12"))
    assert 'Summoners cannot Summon at K12: the new Group stands in Cohesion within 3"' in str(
        refused.value
    )
    assert "Summoners may Summon at: " in str(refused.value)


def test_a_refused_shoot_names_the_groups_it_may_shoot_at() -> None:
    """Shooting: "choose a Group within range that they can see" - a target out of range is
    refused with the range, and the Groups the shooter may Shoot at instead."""
    state = table()
    put(state, 0, "Bows", "C3 D3 E3", profile("archers", mi=4, range_=12))
    put(state, 1, "Near", "C10 D10 E10")
    put(state, 1, "Far", "P22 Q22 R22")
    played = CompaniesMatch(state, ScriptedDice([]))
    with pytest.raises(IllegalCommand) as refused:
        played.apply(Shoot(0, "Bows", "Far"))
    assert str(refused.value).endswith("Bows' range is 12\". Bows may Shoot at Near.")
