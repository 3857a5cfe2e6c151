"""Whole matches of the group rules between automatic players: every scenario in 1 v 1, 2 v 2
and 3 v 3 reaches its end with an outcome (rulebook End of Game: "total VP ... to determine the
winning side"); a team match's record replays to the same match; and `skirmbot demo --ruleset
companies` plays a whole 2 v 2 match, writing a picture per activation and the replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from companies_auto import MAPS, RULES, SCENARIOS, deployed, match_content, play_out

from skirmbot.cli import main
from skirmbot.rules.companies.ruleset import RULESET
from skirmbot.rules.record import MatchRecord, record_of, replay
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.view import OVER


@pytest.mark.parametrize("seats", [2, 4, 6])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_match_between_automatic_players_reaches_its_end(seats: int, scenario: str) -> None:
    seed = seats * 31 + len(scenario)
    data = match_content(seats, scenario, MAPS[seed % 2], shift=seed)
    match = deployed(data, seed)
    play_out(match)
    outcome = RULESET.outcome(match.state)
    assert RULESET.view(match.state).phase == OVER and outcome is not None
    # Placings are by side (team play: teammates share theirs).
    assert len(outcome.placings) == 2 and min(outcome.placings) == 1
    assert len(match.state.seats) == seats
    assert match.state.reason in ("rounds", "routed")
    assert any(event.kind == "match_ended" for event in match.log)
    assert any(event.kind == "moved" for event in match.log)  # it did more than end turns


def test_a_team_match_record_replays_to_the_same_match() -> None:
    data = match_content(4, "hold-the-field", "ruined-chapel")
    match = deployed(data, 7)
    play_out(match)
    names = [f"Player {n + 1}" for n in range(4)]
    record = MatchRecord.loads(record_of(match, data, names, ruleset=RULES).dumps())
    again = replay(record)
    assert RULESET.state_json(again.state) == RULESET.state_json(match.state)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in match.log]
    assert RULESET.recorded_result(again.state) == RULESET.recorded_result(match.state)


def test_the_automatic_players_in_the_same_seat_and_seed_play_the_same_match() -> None:
    data = match_content(2, "clash")
    first, second = deployed(data, 3), deployed(data, 3)
    play_out(first)
    play_out(second)
    assert [c.to_json() for c in first.commands] == [c.to_json() for c in second.commands]


def test_the_companies_demo_is_two_against_two() -> None:
    assert ruleset(RULES).demo_players == 4


def test_skirmbot_demo_ruleset_companies_plays_a_team_match_with_pictures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--ruleset", RULES, "--seed", "3", "--out", str(tmp_path)]) == 0
    record = MatchRecord.loads((tmp_path / "match.json").read_text(encoding="utf-8"))
    assert record.ruleset == RULES and len(record.content["squads"]) == 4
    assert len(record.players) == 4
    played = replay(record)
    assert played.state.over and RULESET.outcome(played.state) is not None
    said = capsys.readouterr().out
    last = int(said.split(" activations")[0].rsplit(" ", 1)[-1])
    assert last > 0
    pictures = sorted(tmp_path.glob("activation-*.png"))
    assert len(pictures) == last + 1 and pictures[-1].name == f"activation-{last:03d}.png"
    assert (tmp_path / "replay.gif").stat().st_size > 0
    assert json.loads((tmp_path / "match.json").read_text(encoding="utf-8"))["dice"] == {"seed": 3}


def test_a_side_of_three_companies_is_named_as_a_list() -> None:
    data = match_content(6, "clash")
    match = deployed(data, 1)
    names = [seat.name for seat in match.state.seats]
    roll_off = next(e for e in match.log if e.kind == "roll_off")
    side = roll_off.data["attackers"]
    first, second, third = names[side::2]
    assert f"({first}, {second} and {third}) attacks" in roll_off.text


def test_objective_markers_show_only_where_the_scenario_scores_them() -> None:
    """Our content: only hold-the-field scores objectives; in clash and breakthrough the map's
    objective markers would mislead, so the picture leaves them off."""
    for scenario, shown in (("hold-the-field", True), ("clash", False), ("breakthrough", False)):
        match = deployed(match_content(2, scenario), 1)
        markers = RULESET.view(match.state).markers
        assert bool(markers) == shown, scenario
        assert len(markers) == (len(match.state.objectives) if shown else 0)
