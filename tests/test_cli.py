"""The command line as a user runs it (issue 2: `skirmbot demo`, `skirmbot replay`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skirmbot.cli import main


def test_demo_writes_a_record_that_is_byte_identical_for_the_same_seed(tmp_path: Path) -> None:
    """Issue 2 item 10: the same seed gives a byte-identical record."""
    assert main(["demo", "--seed", "5", "--out", str(tmp_path / "a")]) == 0
    assert main(["demo", "--seed", "5", "--out", str(tmp_path / "b")]) == 0
    first = (tmp_path / "a" / "match.json").read_bytes()
    assert first == (tmp_path / "b" / "match.json").read_bytes()
    record = json.loads(first)
    assert record["format"] == "skirmbot-record" and record["dice"] == {"seed": 5}
    assert record["commands"][0]["type"] == "deploy"


def test_demo_record_replays_to_a_finished_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 2 item 8: replaying the demo's record prints the log, ending with the result."""
    main(["demo", "--seed", "2", "--out", str(tmp_path)])
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "match.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(".") and "deploys" in lines[0]
    assert "Turn 1 of 4 begins." in lines
    assert lines[-1].startswith("The match ends")
    assert main(["replay", str(tmp_path / "match.json"), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "ended" and state["result"]["reason"] == lines[-1]


def test_replay_of_a_missing_file_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_of_something_that_is_not_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}')
    assert main(["replay", str(path)]) == 2
    assert "not a skirmbot match record" in capsys.readouterr().err
