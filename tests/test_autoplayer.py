"""The automatic player (skirmbot/autoplayer.py): its dice odds, its deployment, and that it
is deterministic, so a demo's or a practice match's record replays to the very match played.
The fairness of the shipped squads under it is measured by benchmarks/fairness.py (200
matches, not run here); the last test only checks that the benchmark works, on 2 matches a ruleset."""

from __future__ import annotations

import importlib.util
import itertools
import re
from pathlib import Path

import pytest

from skirmbot import content
from skirmbot.demo import default_content, new_demo_match, play_out
from skirmbot.rules.record import record_of, replay
from skirmbot.rules.skirm import autoplayer
from skirmbot.rules.skirm.state import DEPLOYMENT, ENDED
from skirmbot.rules.squares import Square

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "fairness.py"


# --- the odds of an attack ---------------------------------------------------------------------
def test_one_die_against_skill_3_and_arm_3_takes_a_hit_one_time_in_four() -> None:
    """A die strikes at or under the skill (1-3: half the time), the save fails on 4-6."""
    assert autoplayer.hit_odds(1, 3, 1, 0, 0, 0, False, 3, 0) == pytest.approx((0.75, 0.25))


def test_a_natural_one_adds_its_damage() -> None:
    """One die, DAM 1, a natural 1 adds 1 (rulebook *): 1/6 of the rolls strike for 2; with
    ARM 1 every save die but a 1 fails."""
    odds = autoplayer.hit_odds(1, 3, 1, 1, 0, 0, False, 1, 0)
    fail = 5 / 6
    assert odds == pytest.approx((0.5 + 2 / 6 * (1 - fail) + 1 / 6 * (1 - fail) ** 2,
                                  2 / 6 * fail + 1 / 6 * 2 * fail * (1 - fail),
                                  1 / 6 * fail**2))  # fmt: skip


@pytest.mark.parametrize(
    ("dice", "skill", "dam", "automatic", "rerolls", "cover", "arm", "tough"),
    [(3, 4, 2, 0, 0, False, 3, 0), (2, 5, 3, 1, 1, True, 2, 1), (0, 3, 1, 2, 0, False, 4, 2)],
)
def test_the_odds_add_up_to_one(
    dice: int, skill: int, dam: int, automatic: int, rerolls: int, cover: bool, arm: int, tough: int
) -> None:
    odds = autoplayer.hit_odds(dice, skill, dam, 1, automatic, rerolls, cover, arm, tough)
    assert sum(odds) == pytest.approx(1.0)
    assert all(chance >= 0 for chance in odds)


def test_cover_rerolls_and_tough_saves_change_the_odds_the_right_way() -> None:
    def expected(*args: int | bool) -> float:
        odds = autoplayer.hit_odds(*args)
        return autoplayer.expected_loss(odds, 9)[0]

    plain = expected(3, 3, 2, 0, 0, 0, False, 3, 0)
    assert expected(3, 3, 2, 0, 0, 0, True, 3, 0) < plain  # cover saves a point
    assert expected(3, 3, 2, 0, 0, 2, False, 3, 0) > plain  # free re-rolls of failed dice
    assert expected(3, 3, 2, 0, 0, 0, False, 3, 1) < plain  # TG1 re-rolls a failed save
    assert expected(3, 3, 2, 0, 1, 0, False, 3, 0) > plain  # an automatic strike (support)


def test_expected_loss_never_counts_more_than_the_hit_left() -> None:
    odds = (0.1, 0.2, 0.3, 0.4)
    expected, out = autoplayer.expected_loss(odds, 2)
    assert expected == pytest.approx(0.2 * 1 + 0.7 * 2)
    assert out == pytest.approx(0.7)


# --- deployment ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("map_name", "mission_name"),
    list(itertools.product(content.names("maps"), content.names("missions"))),
)
def test_every_unit_deploys_once_in_its_zone_on_every_map_and_mission(
    map_name: str, mission_name: str
) -> None:
    match, _ = new_demo_match(1, default_content(map_name, mission_name))
    state = match.state
    for side in (0, 1):
        command = autoplayer.deployment(state, side)
        zone = set(state.mission.zones[side].squares(state.board))
        squares = [Square.parse(square) for square in command.placements.values()]
        assert sorted(command.placements) == sorted(u.id for u in state.units_of(side))
        assert len(set(squares)) == len(squares) and set(squares) <= zone
    for side in (0, 1):
        match.apply(autoplayer.choose(match.state, side))
    assert match.state.phase != DEPLOYMENT


def test_own_view_turns_the_map_half_a_turn_for_the_second_squad() -> None:
    match, _ = new_demo_match(1)
    state = match.state
    corner = Square(0, 0)
    assert autoplayer.own_view(state, 0, corner) == corner
    far = autoplayer.own_view(state, 1, corner)
    assert far == Square(state.board.width - 1, state.board.height - 1)
    assert autoplayer.own_view(state, 1, far) == corner


# --- determinism ----------------------------------------------------------------------------------
def test_the_same_state_gives_the_same_command_and_the_record_replays_the_match() -> None:
    """Replay must equal live play: the record of a match between automatic players (the
    squads swapped, so Ash Runners lead) replays to the same final state."""
    names = content.DEFAULT_SQUADS[::-1]
    match, data = new_demo_match(11, default_content(squad_names=names))
    for side in (0, 1):
        assert autoplayer.choose(match.state, side) == autoplayer.choose(match.state, side)
    play_out(match)
    assert match.state.phase == ENDED
    again = replay(record_of(match, data))
    assert again.state.to_json() == match.state.to_json()
    twice, _ = new_demo_match(11, default_content(squad_names=names))
    play_out(twice)
    assert twice.state.to_json() == match.state.to_json()


# --- the fairness benchmark ------------------------------------------------------------------------
def test_the_fairness_benchmark_prints_a_table_per_ruleset_and_the_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 28: the benchmark reports Skirm and Skirm Lite apart, each with its own squads;
    the last line is the highest share of the two."""
    spec = importlib.util.spec_from_file_location("fairness_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    fairness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fairness)
    assert fairness.main(["--matches", "2", "--first-seed", "5", "--processes", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    tables = {
        "Skirm: 2 automatic matches, hold-the-line on foundry": {"Iron Wardens", "Ash Runners"},
        "Skirm Lite: 2 automatic matches, crossfire on foundry": {"Ash Stalkers", "Vigil Wardens"},
    }
    shares = []
    for heading, squads in tables.items():
        first = lines.index(heading)
        table = [re.split(r"\s{2,}", line.strip()) for line in lines[first + 2 : first + 7]]
        rows = {row[0]: row[1:] for row in table}
        assert set(rows) == squads | {"side 0", "side 1", "draws"}
        won = sum(int(rows[name][0]) for name in squads)
        assert won + int(rows["draws"][0]) == 2
        assert int(rows["side 0"][0]) + int(rows["side 1"][0]) == won
        share = lines[first + 7]
        assert share.startswith("share: ")
        shares.append(float(share.split()[1]))
    assert lines[-1] == f"ratio: {max(shares):.3f}"
