"""A command carrying a field its action does not use is refused in plain words and changes
nothing, so a record holds only what its commands used (issue 28; rulings: Combat and items, "A
command carries only what its action uses"; Skirm Lite, "One target per attack, and a Sentry
Action names what it uses"). No die is rolled: the `refused` helper checks the dice left too.
Records of version 1 replay as that release took them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from builders import KNIFE, RIFLE, refused, skirm_match, unit, weapon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lite_builders import agent, lite_match
from test_properties import dice_state
from test_skills import BURST, RALLY, SPRINT, with_skills

from skirmbot.demo import default_content, new_demo_match, play_demo
from skirmbot.rules.commands import EndActivation, Melee, Shoot
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.lite.commands import Sentry
from skirmbot.rules.lite.engine import LiteMatch
from skirmbot.rules.record import MatchRecord, faces_rolled, replay, start_match
from skirmbot.rules.skirm import autoplayer
from skirmbot.rules.skirm.commands import UseSkill, UseTurret
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.legal import legal_commands
from skirmbot.rules.skirm.state import ENDED

SHOTGUN = weapon("Shotgun", "ranged", 3, 1, "RG8", "SPR")
ROCKETS = {"kind": "turret", "square": "C3", "type": "rocket_launcher"}
OLD_RECORD = Path(__file__).parent / "data" / "records" / "skirm-2026-11-demo-seed3.json"


def skirm_duel() -> Match:
    """Red's Ada at C3 (Rifle, Shotgun, Knife) against Blue's Bo (C6), Cy (D6) and Di (C4)."""
    return skirm_match(
        {
            0: [unit("Ada", "C3", weapons=[RIFLE, SHOTGUN, KNIFE])],
            1: [unit("Bo", "C6"), unit("Cy", "D6"), unit("Di", "C4")],
        }
    )


# --- Skirm ---------------------------------------------------------------------------------------
def test_a_single_target_weapon_takes_no_further_targets() -> None:
    match = skirm_duel()
    refused(
        match,
        Shoot(0, "Ada", "Bo", "Rifle", also="Cy"),
        "The Rifle has no further targets: leave out 'also'.",
    )
    refused(
        match,
        Melee(0, "Ada", "Di", "Knife", also="Cy"),
        "The Knife has no further targets: leave out 'also'.",
    )


def test_further_targets_name_at_least_one() -> None:
    match = skirm_duel()
    refused(match, Shoot(0, "Ada", "Bo", "Shotgun", also=" , "), "'also' names no target")


def test_a_turret_without_spread_takes_no_further_targets() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3")], 1: [unit("Bo", "C8"), unit("Cy", "D8")]}, items=[ROCKETS]
    )
    refused(
        match,
        UseTurret(0, "Ada", "Bo", also="Cy"),
        "The Rocket Launcher Turret has no further targets",
    )


def test_a_skill_that_gives_orders_takes_no_target() -> None:
    match = skirm_match({0: [with_skills("Ada", "C3", RALLY, SPRINT)], 1: [unit("Bo", "L12")]})
    refused(match, UseSkill(0, "Ada", "Rally", "Bo"), "Rally takes no target: leave out 'target'.")
    match.apply(UseSkill(0, "Ada", "Sprint", "C5"))  # a dash skill's target is its square


def test_a_to_skill_takes_its_cost_in_orders_or_none() -> None:
    placed = {0: [with_skills("Ada", "C3", BURST)], 1: [unit("Bo", "C7")]}
    match = skirm_match(placed, orders=(3, 0))
    refused(
        match,
        UseSkill(0, "Ada", "Burst", "Bo", 2),
        "Burst costs 1 TO, Tactical Orders only: leave out 'orders' (or give 1).",
    )
    for orders in (0, 1):  # each rolls Burst's 4 attack dice, all missing
        match = skirm_match(placed, orders=(3, 0), faces=[6, 6, 6, 6])
        match.apply(UseSkill(0, "Ada", "Burst", "Bo", orders))
        assert match.state.squads[0].orders == 2


def test_a_version_1_record_replays_with_the_fields_its_release_took() -> None:
    old = MatchRecord.loads(OLD_RECORD.read_text(encoding="utf-8"))
    assert start_match(old).unused_fields_allowed
    assert not start_match(replace(old, version=2)).unused_fields_allowed
    match = skirm_match(
        {0: [unit("Ada", "C3", weapons=[SHOTGUN])], 1: [unit("Bo", "C6")]}, faces=[6, 6, 6]
    )
    match.unused_fields_allowed = True  # as start_match makes a version-1 record's match
    match.apply(Shoot(0, "Ada", "Bo", "Shotgun", also=" , "))  # every die misses
    assert match.commands[-1] == Shoot(0, "Ada", "Bo", "Shotgun", also=" , ")


# --- Skirm Lite ----------------------------------------------------------------------------------
def test_a_lite_attack_has_one_target() -> None:
    match = lite_match({0: [agent("Ada", "C3")], 1: [agent("Bo", "C6"), agent("Cy", "D6")]})
    refused(
        match,
        Shoot(0, "Ada", "Bo", "Rifle", also="Cy"),
        "In Skirm Lite an attack has one target: leave out 'also'.",
    )


def _sentry_open() -> LiteMatch:
    """Red's one Agent may make a Sentry Action (Blue has two, one still to activate)."""
    match = lite_match({0: [agent("Ada", "C3")], 1: [agent("Bo", "C8"), agent("Di", "J12")]})
    match.apply(EndActivation(0, "Ada"))
    match.apply(EndActivation(1, "Bo"))
    return match


def test_a_sentry_dash_names_only_its_square() -> None:
    match = _sentry_open()
    refused(
        match,
        Sentry(0, "Ada", "dash", "Bo", "Rifle", "C5"),
        "A Sentry Dash only moves, to its 'square': leave out 'target' and 'weapon'.",
    )
    refused(match, Sentry(0, "Ada", "dash", weapon="Rifle", square="C5"), "leave out 'weapon'.")


def test_a_sentry_attack_names_no_square() -> None:
    match = _sentry_open()
    refused(
        match,
        Sentry(0, "Ada", "shoot", "Bo", "Rifle", "C5"),
        "A Sentry attack is made from where the Agent stands: leave out 'square'.",
    )


# --- property ------------------------------------------------------------------------------------
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_no_listed_attack_takes_further_targets_that_name_nothing(seed: int) -> None:
    """Whatever the weapon, every attack the rules list now, sent with an `also` that names
    nothing, is refused and changes nothing (neither the state nor the dice)."""
    match, _ = new_demo_match(seed, default_content())
    while match.state.phase != ENDED:
        side = match.state.waiting_for()
        assert side is not None
        for option in legal_commands(match.state, side):
            if isinstance(option, Shoot | Melee | UseTurret):
                before = (json.dumps(match.state.to_json()), dice_state(match))
                with pytest.raises(IllegalCommand, match="'also'"):
                    match.apply(replace(option, also=" "))
                assert (json.dumps(match.state.to_json()), dice_state(match)) == before
        match.apply(autoplayer.choose(match.state, side))


def test_a_recorded_command_with_an_unused_field_replays_as_played_in_any_version() -> None:
    """Releases before issue 28 stored such fields in version-2 and -3 records too: a match kept
    in a database replays as it was played, and only a new command with one is refused."""
    _, record = play_demo(1)
    assert record.version >= 2
    position, shot = next(
        (i, c) for i, c in enumerate(record.commands) if c["type"] == "shoot" and not c["also"]
    )
    stored = replace(record, commands=list(record.commands))
    stored.commands[position] = {**shot, "also": " , "}  # an also that names nothing: taken then
    assert faces_rolled(stored) == faces_rolled(record)
    assert replay(stored).state.result == replay(record).state.result
    before = replay(stored, upto=position)
    with pytest.raises(IllegalCommand, match="leave out 'also'"):
        before.apply(Shoot(**{k: v for k, v in stored.commands[position].items() if k != "type"}))
