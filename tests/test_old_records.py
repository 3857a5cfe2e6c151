"""Records written by the previous release (commit 1525db4, November 2026) still replay.

tests/data/records holds three whole demo matches that version wrote, and the final state it
replayed them to. A match is its record: a stored match from before an upgrade must go on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import of

from skirmbot.demo import play_out
from skirmbot.rules.commands import EndActivation
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.state import ENDED

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


def test_ending_an_activation_that_ended_by_itself_changes_nothing() -> None:
    """Rulings, An activation: the old version needed an End where an activation now ends by
    itself (nothing legal left); such an End, or a player's late /end, is accepted and changes
    nothing."""
    record = MatchRecord.loads(OLD[0].read_text(encoding="utf-8"))
    for position, data in enumerate(record.commands):
        before = replay(record, upto=position)
        ended = of(before._last_events, "activation_ended")
        if data["type"] == "end" and ended and ended[-1]["unit"] == data["unit"]:
            break
    else:
        pytest.fail("the old record has no End after an activation that ended by itself")
    state = json.dumps(before.state.to_json(), sort_keys=True)
    events = before.apply(EndActivation(data["side"], data["unit"]))
    assert [e.kind for e in events] == ["activation_already_ended"]
    assert "activation had already ended" in events[0].text
    assert json.dumps(before.state.to_json(), sort_keys=True) == state
