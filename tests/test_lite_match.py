"""Whole Skirm Lite matches: the automatic player on every Lite mission, records that replay,
the engine's invariants under random commands, and Lite's content and interface (Lite rulebook
Game Cycle; docs/rulings.md, Skirm Lite).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmbot import content
from skirmbot.rules.dice import SeededDice
from skirmbot.rules.errors import ContentError, IllegalCommand
from skirmbot.rules.lite import RULESET, commands
from skirmbot.rules.lite.cards import AGENT_RULES, WEAPON_RULES
from skirmbot.rules.lite.engine import LiteMatch
from skirmbot.rules.lite.missions import mission_from_json
from skirmbot.rules.lite.squads import squad_from_json
from skirmbot.rules.record import MatchRecord, record_of, replay
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.state import DOWNED, ENDED, MatchState

SQUADS = ("vigil-wardens", "ash-stalkers")
MAX_STEPS = 3000


def lite_content(mission: str, battle_map: str = "foundry") -> dict[str, Any]:
    return {
        "map": content.raw("maps", battle_map),
        "mission": content.raw("missions", mission, "lite"),
        "squads": [content.raw("squads", name, "lite") for name in SQUADS],
    }


def deployed(data: dict[str, Any], seed: int) -> LiteMatch:
    match = RULESET.new_match(data, SeededDice(seed))
    for side in (0, 1):
        match.apply(RULESET.automatic_placement(match.state, side))
    return match


def play_out(match: LiteMatch) -> None:
    for _ in range(MAX_STEPS):
        if match.state.phase == ENDED:
            return
        side = match.state.waiting_for()
        assert side is not None
        match.apply(RULESET.automatic_command(match.state, side))
    raise AssertionError("the match did not end")


def check_invariants(state: MatchState) -> None:
    squares = [u.square for u in state.units.values() if u.on_map]
    assert len(squares) == len(set(squares)), "two agents on one square"
    for agent in state.units.values():
        assert 0 <= agent.hit <= agent.card.hit
        assert (agent.status == DOWNED) == (agent.on_map and agent.hit == 0)
    assert all(squad.orders >= 0 for squad in state.squads)


# --- the interface -------------------------------------------------------------------------------
def test_lite_is_registered_with_its_names() -> None:
    found = ruleset("Skirm Lite")
    assert (found.name, found.title, found.rulebook) == (
        "lite",
        "Skirm Lite",
        "001_50fd32b630dc62b8.txt",
    )


def test_new_match_is_a_skirm_match_with_a_skirm_state() -> None:
    """Service, renderer and bot reuse Skirm's Match and MatchState for Lite."""
    match = RULESET.new_match(lite_content("take-and-hold"), SeededDice(1))
    assert isinstance(match, Match) and isinstance(match.state, MatchState)
    assert match.state.units["Ordo"].card.mov == 3
    assert match.state.units["Ordo"].card.weapon("Carbine").skl == 3  # type: ignore[union-attr]


def test_lite_leaves_map_items_out() -> None:
    """Our ruling: Lite has no crates, barrels or turrets; a mission's markers stay."""
    match = RULESET.new_match(lite_content("supply-run"), SeededDice(1))
    assert {item.kind for item in match.state.items.values()} == {"marker"}


def test_action_rules_list_lite_actions() -> None:
    names = [rule.name for rule in RULESET.action_rules()]
    assert "revive" in names and "sentry" in names and "leap" not in names
    assert next(r for r in RULESET.action_rules() if r.name == "revive").cost == "2 TO"


def test_check_squad_summary() -> None:
    summary = RULESET.check_squad(content.raw("squads", "vigil-wardens", "lite"), 100)
    assert (summary.name, summary.size, summary.points) == ("Vigil Wardens", 5, 0)


def test_commands_round_trip_through_json() -> None:
    for command in (
        commands.Revive(0, "Ada", "Bo"),
        commands.Sentry(1, "Bo", "shoot", "Ada", "Rifle"),
        commands.Sentry(1, "Bo", "dash", square="C4"),
    ):
        assert RULESET.parse_command(json.loads(json.dumps(command.to_json()))) == command


# --- content ---------------------------------------------------------------------------------------
def test_shipped_squads_use_every_special_rule() -> None:
    """Every Lite special rule appears on a shipped squad."""
    used: set[str] = set()
    for name in content.names("squads", "lite"):
        squad = squad_from_json(content.raw("squads", name, "lite"))
        for card in squad.units:
            used |= {rule.code for rule in card.specials}
            used |= {rule.code for weapon in card.weapons for rule in weapon.specials}
    assert used == set(AGENT_RULES) | set(WEAPON_RULES)


@pytest.mark.parametrize(
    ("change", "phrase"),
    [
        ({"specials": ["PAR"]}, "not a Skirm Lite special rule"),
        ({"msk": 3}, "unknown key 'msk'"),
        ({"mov": 9}, "'mov' must be a whole number from 1 to 6"),
        ({"weapons": [{"name": "Gun", "type": "ranged", "roa": 1, "skl": 3, "dam": 1, "specials": ["RG4", "BLS"]}]}, "'BLS'"),
        ({"weapons": [{"name": "Gun", "type": "ranged", "roa": 1, "dam": 1, "specials": ["RG4"]}]}, "'skl'"),
        ({"name": "C4"}, "reads like a square"),
    ],
)  # fmt: skip
def test_squad_loader_refuses_in_plain_words(change: dict[str, Any], phrase: str) -> None:
    data = copy.deepcopy(content.raw("squads", "vigil-wardens", "lite"))
    data["agents"][0].update(change)
    with pytest.raises(ContentError, match=phrase):
        squad_from_json(data)


def test_squad_file_of_skirm_is_refused() -> None:
    with pytest.raises(ContentError, match="unknown key 'units'"):
        squad_from_json(content.raw("squads", "iron-wardens", "skirm"))


def test_lite_missions_refuse_what_lite_lacks() -> None:
    base = content.raw("missions", "crossfire", "lite")
    for change, phrase in (
        ({"secondaries": True}, "secondary"),
        ({"scoring": [{"kind": "crates", "points": 1}]}, "scores only"),
        ({"events": [{"roll": "1-6", "name": "Rocks", "text": "x", "effect": "hazard", "value": 1}]}, "hazard"),
    ):  # fmt: skip
        with pytest.raises(ContentError, match=phrase):
            mission_from_json({**base, **change})


@pytest.mark.parametrize("mission", content.names("missions", "lite"))
@pytest.mark.parametrize("battle_map", content.names("maps"))
def test_automatic_player_finishes_every_mission(mission: str, battle_map: str) -> None:
    """The automatic player plays a whole Lite match on every mission and map, every command
    legal (an illegal one would raise)."""
    match = deployed(lite_content(mission, battle_map), seed=7)
    play_out(match)
    assert match.state.result is not None and match.state.turn <= 4
    assert len(content.names("missions", "lite")) >= 3


def test_record_replays_to_the_same_state() -> None:
    """A Lite record (ruleset "lite") replays byte for byte to the same state."""
    data = lite_content("supply-run", "ruined-chapel")
    match = deployed(data, seed=11)
    play_out(match)
    record = record_of(match, data, ruleset="lite")
    again = MatchRecord.loads(record.dumps())
    assert again.ruleset == "lite"
    replayed = replay(again)
    assert json.dumps(replayed.state.to_json(), sort_keys=True) == json.dumps(
        match.state.to_json(), sort_keys=True
    )
    assert [e.text for e in replayed.log] == [e.text for e in match.log]


# --- invariants ----------------------------------------------------------------------------------
def random_command(names: list[str], rng: random.Random) -> commands.Command:
    side = rng.randint(0, 1)
    name = rng.choice(names)
    square = f"{chr(65 + rng.randint(0, 12))}{rng.randint(0, 13)}"
    return rng.choice(
        [
            commands.Move(side, name, square, rng.randint(0, 2)),
            commands.Dash(side, name, square),
            commands.Shoot(side, name, rng.choice([*names, square])),
            commands.Melee(side, name, rng.choice(names)),
            commands.Revive(side, name, rng.choice(names)),
            commands.Sentry(side, name, rng.choice(["melee", "shoot", "dash", "leap"]), rng.choice(names), None, square),
            commands.PickUp(side, name),
            commands.Drop(side, name),
            commands.Door(side, name, square),
            commands.Reroll(side, rng.randint(0, 4)),
            commands.Modify(side, rng.randint(0, 4), rng.choice([-1, 1, 2])),
            commands.Accept(side),
            commands.EndActivation(side, rng.choice([None, name])),
            commands.OpenCrate(side, name, "mp"),
            commands.Leap(side, name, square),
            commands.Delay(side),
        ]
    )  # fmt: skip


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    mission=st.sampled_from(["take-and-hold", "supply-run", "crossfire"]),
)
def test_illegal_commands_change_nothing_and_agents_never_share_a_square(
    seed: int, mission: str
) -> None:
    rng = random.Random(seed)
    match = deployed(lite_content(mission, rng.choice(["foundry", "ruined-chapel"])), seed)
    names = list(match.state.units)
    for _ in range(MAX_STEPS):
        if match.state.phase == ENDED:
            break
        if rng.random() < 0.3:
            before = json.dumps(match.state.to_json(), sort_keys=True)
            try:
                match.apply(random_command(names, rng))
            except IllegalCommand:
                assert json.dumps(match.state.to_json(), sort_keys=True) == before
            check_invariants(match.state)
            continue
        side = match.state.waiting_for()
        assert side is not None
        options = RULESET.legal_commands(match.state, side)
        command = (
            rng.choice(options)
            if options and rng.random() < 0.5
            else RULESET.automatic_command(match.state, side)
        )
        match.apply(command)
        check_invariants(match.state)
    assert match.state.phase == ENDED


def test_lite_keeps_no_campaign_progress() -> None:
    """Our ruling: Lite has no medals or XP."""
    match = deployed(lite_content("take-and-hold"), seed=3)
    play_out(match)
    assert RULESET.medals(match, 0) is None
