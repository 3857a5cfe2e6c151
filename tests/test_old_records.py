"""Records written by the previous release (commit 1525db4, November 2026) still replay.

tests/data/records holds three whole demo matches that version wrote, and the final state it
replayed them to. A match is its record: a stored match from before an upgrade must go on.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from skirmbot.demo import play_out
from skirmbot.rules.commands import EndActivation
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.record import RECORD_VERSION, MatchRecord, ReplayError, replay
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.state import ENDED

RECORDS = Path(__file__).parent / "data" / "records"
OLD = sorted(p for p in RECORDS.glob("skirm-*.json") if not p.name.endswith(".state.json"))


def state_of(path: Path) -> object:
    """The final state the old version replayed the record to."""
    return json.loads(path.with_suffix(".state.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", OLD, ids=[p.stem for p in OLD])
def test_an_old_record_replays_to_the_state_its_version_reached(path: Path) -> None:
    record = MatchRecord.loads(path.read_text(encoding="utf-8"))
    match = replay(record)
    assert json.loads(json.dumps(match.state.to_json(), sort_keys=True)) == state_of(path)


@pytest.mark.parametrize("path", OLD, ids=[p.stem for p in OLD])
def test_an_old_match_stopped_halfway_goes_on_to_its_end(path: Path) -> None:
    """A match in progress when the bot was upgraded: its record so far replays, and it plays
    on under today's rules."""
    record = MatchRecord.loads(path.read_text(encoding="utf-8"))
    match = replay(record, upto=len(record.commands) // 2)
    play_out(match)
    assert match.state.phase == ENDED


def late_end(record: MatchRecord) -> tuple[Match, EndActivation]:
    """The old match just before the first command that today's rules refuse (read as a
    version-2 record), and that command: an `end` for an activation that had already ended."""
    with pytest.raises(ReplayError) as refused:
        replay(replace(record, version=2))
    position = refused.value.position - 1  # 0-based
    data = record.commands[position]
    assert data["type"] == "end", data
    return replay(record, upto=position), EndActivation(data["side"], data["unit"])


def test_a_version_1_end_for_an_activation_that_ended_by_itself_changes_nothing() -> None:
    """Rulings, Activations: version 1 ended with an `end` activations that now end by
    themselves; replaying it, that `end` is accepted and changes nothing."""
    record = MatchRecord.loads(OLD[0].read_text(encoding="utf-8"))
    assert record.version == 1
    match, end = late_end(record)
    state = json.dumps(match.state.to_json(), sort_keys=True)
    events = match.apply(end)
    assert [e.kind for e in events] == ["activation_already_ended"]
    assert "activation had already ended" in events[0].text
    assert json.dumps(match.state.to_json(), sort_keys=True) == state


def test_in_a_version_2_record_that_end_is_refused_and_the_version_is_kept() -> None:
    """Records written since are version 2 or later: there, as in play, an `end` for an activation that is over is
    refused and changes nothing; a version-1 record keeps its version when written again."""
    old = MatchRecord.loads(OLD[0].read_text(encoding="utf-8"))
    assert MatchRecord.loads(old.dumps()).version == 1
    assert MatchRecord(content={}, dice={}).to_json()["version"] == RECORD_VERSION == 4  # today
    match, end = late_end(old)
    match.late_end_is_no_op = False  # as in a version-2 record
    state = json.dumps(match.state.to_json(), sort_keys=True)
    with pytest.raises(IllegalCommand):
        match.apply(end)
    assert json.dumps(match.state.to_json(), sort_keys=True) == state


@pytest.mark.parametrize("path", OLD, ids=[p.stem for p in OLD])
def test_skirmbot_verify_says_plainly_why_an_old_record_cannot_be_verified(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rulings, Verifiable dice: a record from before them (no commitment) does not verify (1)
    and says why; reading it changes nothing: it is written back as it was, no salts added."""
    from skirmbot.cli import main

    assert main(["verify", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "no commitment to its dice" in err and "before verifiable dice" in err
    data = json.loads(path.read_text(encoding="utf-8"))
    again = MatchRecord.loads(path.read_text(encoding="utf-8")).to_json()
    assert again["version"] == data["version"] and again["dice"] == data["dice"]
    assert not {"commitment", "salts", "seals", "rolls", "result"} & set(again)
