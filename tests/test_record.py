"""Match records and replay (rulings: Combat, "every die is recorded in the match log";
skirmbot/rules/record.py: "a match is its record", replayed like a chess PGN), and the
`skirmbot replay` command line.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from builders import FLAT_12, KNIFE, RIFLE

from skirmbot.cli import main
from skirmbot.demo import play_out
from skirmbot.rules.commands import (
    Accept,
    Activate,
    Command,
    Concede,
    Dash,
    Deploy,
    EndActivation,
    Move,
    Reroll,
    Shoot,
)
from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import (
    MatchRecord,
    ReplayError,
    content_of,
    record_of,
    replay,
    start_match,
)
from skirmbot.rules.skirm.commands import SetStandingOrders
from skirmbot.rules.skirm.engine import Match


def card(name: str, *specials: str) -> dict[str, Any]:
    return {
        "name": name, "type": "Trooper", "ep": 5, "act": 3, "msk": 3, "rsk": 3, "arm": 3,
        "hit": 3, "specials": list(specials), "weapons": [RIFLE, KNIFE],
    }  # fmt: skip


CONTENT: dict[str, Any] = content_of(
    {
        "name": "Yard",
        "rows": FLAT_12,
        "edges": ["E6|F6, E7|F7: wall=1", "G5|G6: door=closed"],
        "objectives": ["F6", "G7"],
        "items": [
            {"kind": "crate", "square": "D6"},
            {"kind": "barrel", "square": "H6"},
            {"kind": "turret", "square": "C7", "type": "machine_gun"},
        ],
    },
    {
        "name": "Hold the yard",
        "deployment": [{"edge": "top", "depth": 1}, {"edge": "bottom", "depth": 1}],
        "scoring": [{"kind": "control", "points": 1}, {"kind": "take_out", "points": 1}],
    },
    [
        {"name": "Red", "units": [card("Remus", "LD1"), card("Ann"), card("Cid")]},
        {"name": "Blue", "units": [card("Vex", "LD2"), card("Bo"), card("Dee")]},
    ],
)

# Turn 1: initiative Red (1 v 2), Red 4 TO dice (2 TO), Blue 5 TO dice (0 TO); Remus's shot 2 6,
# the 6 re-rolled to a 4, one save 6. Turn 2: initiative tie 3 3, then 2 5 (Red); no TO.
SCRIPT = [1, 2, 1, 1, 6, 6, *[6] * 5, 2, 6, 4, 6, 3, 3, 2, 5, *[6] * 9]
COMMANDS: list[Command] = [
    Deploy(0, {"Remus": "C1", "Ann": "F1", "Cid": "J1"}),
    Deploy(1, {"Vex": "C12", "Bo": "F12", "Dee": "J12"}),
    SetStandingOrders(1, reroll_saves_above=0),
    Move(0, "Remus", "C4"),
    Shoot(0, "Remus", "Vex"),
    Reroll(0, 2),
    Accept(0),
    EndActivation(0),
    Move(1, "Vex", "C10"),
    EndActivation(1),
    Activate(0, "Ann"),
    Dash(0, "Ann", "F2"),
    EndActivation(0),
    EndActivation(1, "Bo"),
    EndActivation(0, "Cid"),
    EndActivation(1, "Dee"),
    Move(0, "Remus", "D6"),
    Concede(1),
]


def live_match() -> tuple[Match, list[dict[str, Any]]]:
    """Play COMMANDS on a fresh match; the state after each command, as JSON."""
    match = start_match(MatchRecord(CONTENT, {"script": SCRIPT}))
    states = []
    for command in COMMANDS:
        match.apply(command)
        states.append(match.state.to_json())
    return match, states


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def broken(record: MatchRecord, position: int, command: dict[str, Any]) -> MatchRecord:
    """The record with `command` put in at 1-based `position`."""
    data = copy.deepcopy(record.to_json())
    data["commands"].insert(position - 1, command)
    return MatchRecord.from_json(data)


OUT_OF_TURN = {"type": "move", "side": 1, "unit": "Vex", "square": "C11", "orders": 0}


# --- the record ---------------------------------------------------------------------------------
def test_live_script_is_used_up() -> None:
    """Record: the scripted match plays through to the concession with every face used."""
    match, _ = live_match()
    assert match.state.result is not None and match.state.result.winner == 0
    assert match.state.turn == 2
    assert match.dice.remaining == 0  # type: ignore[attr-defined]


def test_record_round_trips_through_json() -> None:
    """Record: a record written as JSON reads back to the same record, byte for byte."""
    match, _ = live_match()
    record = record_of(match, CONTENT, ["Ada", "Bob"])
    text = record.dumps()
    again = MatchRecord.loads(text)
    assert again.to_json() == record.to_json()
    assert again.dumps() == text
    assert again.players == ["Ada", "Bob"]
    assert again.commands == [command.to_json() for command in COMMANDS]
    assert again.dice == {"script": SCRIPT}


@pytest.mark.parametrize("players", [5, ["Ada"], ["Ada", "Bob", "Cy"], ["Ada", 7], None])
def test_a_record_whose_players_are_not_two_names_is_refused(players: Any) -> None:
    """Record: 'players' names the two players; anything else is refused in plain words."""
    match, _ = live_match()
    data = record_of(match, CONTENT, ["Ada", "Bob"]).to_json()
    data["players"] = players
    with pytest.raises(RulesError, match="'players' must list the two players' names"):
        MatchRecord.from_json(data)


def test_replay_gives_the_live_final_state_and_log() -> None:
    """Record: replaying the record rebuilds the match exactly: same state, same event log."""
    match, _ = live_match()
    replayed = replay(MatchRecord.loads(record_of(match, CONTENT).dumps()))
    assert replayed.state.to_json() == match.state.to_json()
    assert [e.to_json() for e in replayed.log] == [e.to_json() for e in match.log]


def test_replay_upto_gives_the_state_after_that_many_commands() -> None:
    """Record: replay of the first k commands is the live state after command k (here k = 5,
    with the attack roll waiting for Red's decision)."""
    match, states = live_match()
    record = record_of(match, CONTENT)
    for k in (1, 5, 9, len(COMMANDS)):
        assert replay(record, upto=k).state.to_json() == states[k - 1]
    assert states[4]["activation"]["pending"]["dice"][1]["face"] == 6


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replay_of_a_whole_seeded_match(seed: int) -> None:
    """Record: a whole match between automatic players (seeded dice) replays to the same end."""
    match = start_match(MatchRecord(CONTENT, {"seed": seed}))
    play_out(match)
    replayed = replay(MatchRecord.loads(record_of(match, CONTENT).dumps()))
    assert replayed.state.to_json() == match.state.to_json()
    assert replayed.state.result is not None and replayed.state.result == match.state.result


def test_illegal_command_stops_replay_with_its_position() -> None:
    """Record: an illegal command stops the replay with ReplayError, naming its 1-based
    position and the reason."""
    match, _ = live_match()
    record = broken(record_of(match, CONTENT), 4, OUT_OF_TURN)
    with pytest.raises(ReplayError) as error:
        replay(record)
    assert error.value.position == 4
    assert error.value.reason == "It is Red's activation, not yours."
    assert error.value.command == OUT_OF_TURN
    assert str(error.value).startswith("Command 4 (")


def test_malformed_command_stops_replay() -> None:
    """Record: a command the engine does not know stops the replay at its position."""
    match, _ = live_match()
    record = broken(record_of(match, CONTENT), 2, {"type": "teleport", "side": 0})
    with pytest.raises(ReplayError) as error:
        replay(record)
    assert error.value.position == 2 and "is not a command" in error.value.reason


def test_record_that_is_not_a_record_refused() -> None:
    """Record: only skirmbot records of a known version are read."""
    with pytest.raises(RulesError, match="not a skirmbot match record"):
        MatchRecord.loads('{"commands": []}')
    with pytest.raises(RulesError, match="not valid JSON"):
        MatchRecord.loads("{")
    with pytest.raises(RulesError, match="version 9 is not supported"):
        MatchRecord.loads('{"format": "skirmbot-record", "version": 9}')


# --- the command line ---------------------------------------------------------------------------
def test_cli_replay_prints_the_readable_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI `skirmbot replay FILE`: the match log in sentences (costs left out), exit 0."""
    match, _ = live_match()
    path = write(tmp_path, record_of(match, CONTENT).to_json())
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [e.text for e in match.log if e.kind != "cost_paid"]
    assert "Turn 1 of 4 begins." in out and "Blue conceded: Red wins." in out


def test_cli_replay_json_prints_the_final_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI `skirmbot replay FILE --json`: the final state as JSON, exit 0."""
    match, _ = live_match()
    path = write(tmp_path, record_of(match, CONTENT).to_json())
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == match.state.to_json()


def test_cli_broken_record_exits_non_zero_with_the_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI: a record with an illegal command exits non-zero and names the command's position
    and the reason on stderr."""
    match, _ = live_match()
    path = write(tmp_path, broken(record_of(match, CONTENT), 4, OUT_OF_TURN).to_json())
    assert main(["replay", str(path)]) != 0
    err = capsys.readouterr().err
    assert "replay stopped at command 4: It is Red's activation, not yours." in err


def test_cli_unreadable_record_exits_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI: a file that is not a record, or no file, exits non-zero with a message."""
    path = write(tmp_path, {"hello": "world"})
    assert main(["replay", str(path)]) != 0
    assert "not a skirmbot match record" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) != 0
    assert "cannot read" in capsys.readouterr().err
