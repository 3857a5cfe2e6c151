"""Snapshots are a cache (issue 14): a match loaded from a snapshot and the commands after it is
the match that replaying its whole record gives, on every prefix of many random records, in
both rulesets; a snapshot made by other rules code, or that does not fit the record, is
ignored and the record replayed instead."""

from __future__ import annotations

import json
import pickle
import zlib
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmbot.demo import play_demo
from skirmbot.rules.record import MatchRecord, faces_rolled, replay, start_match
from skirmbot.rules.ruleset import PlayedMatch, ruleset
from skirmbot.service import snapshots

CONTINUE_EVERY = 15  # prefixes from which the rest of the record is replayed too


def view(match: PlayedMatch) -> str:
    """What a match is, as text: its state and everything that happened."""
    return json.dumps(
        [match.state.to_json(), [event.to_json() for event in match.log]], sort_keys=True
    )


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(["skirm", "lite"]), seed=st.integers(0, 10_000))
def test_a_snapshot_on_every_prefix_loads_the_same_match_as_a_full_replay(
    rules: str, seed: int
) -> None:
    record = play_demo(seed, rules)[1]
    whole = view(replay(record))
    parse = ruleset(record.ruleset).parse_command
    running = start_match(record)
    for position in range(len(record.commands) + 1):
        snapshot = snapshots.take(running, record)
        assert snapshot.seq == position
        cut = replace(record, commands=record.commands[:position])
        assert view(snapshots.restore(snapshot, cut)) == view(running)
        if position % CONTINUE_EVERY == 0 or position == len(record.commands):
            assert view(snapshots.restore(snapshot, record)) == whole
        if position < len(record.commands):
            running.apply(parse(record.commands[position]))


def a_record() -> MatchRecord:
    return play_demo(11)[1]


def test_a_snapshot_from_other_rules_code_is_not_read() -> None:
    record = a_record()
    taken = snapshots.take(replay(record, upto=30), record)
    # A snapshot that would say something else: if it were read, the match would differ.
    lying = replace(
        taken, code="another release", state=snapshots.take(replay(record, 29), record).state
    )
    assert view(snapshots.restore(lying, record)) == view(replay(record))


def test_a_snapshot_that_does_not_fit_the_record_is_not_read() -> None:
    record = a_record()
    other = play_demo(12)[1]
    foreign = snapshots.take(replay(other, upto=30), other)  # another match's, at the same position
    assert view(snapshots.restore(foreign, record)) == view(replay(record))
    broken = replace(snapshots.take(replay(record, upto=30), record), state=b"not a snapshot")
    assert view(snapshots.restore(broken, record)) == view(replay(record))
    ahead = snapshots.take(replay(record, upto=30), record)
    assert view(snapshots.restore(ahead, replace(record, commands=record.commands[:20]))) == view(
        replay(record, upto=20)
    )


def test_a_snapshot_keeps_no_board_memo() -> None:
    match = replay(a_record(), upto=40)
    assert match.state.board._memo  # sight and paths were worked out while playing
    restored = pickle.loads(zlib.decompress(snapshots.take(match, a_record()).state))
    assert restored.state.board._memo == {}
    restored.state.board.doors[next(iter(restored.state.board.doors))] = True  # still tells


def test_a_snapshot_of_the_same_commands_with_other_dice_is_not_read() -> None:
    """A record whose dice changed (a fork with scripted dice, as tests/test_secrecy.py makes)
    is not the match its old snapshot kept, even where the commands are the same."""
    record = replace(a_record(), commands=a_record().commands[:30])
    taken = snapshots.take(replay(record), record)
    scripted = replace(record, dice={"script": faces_rolled(record)})  # the same faces, so far
    assert snapshots.stamp(scripted) != taken.code
    restored = snapshots.restore(taken, scripted)
    assert view(restored) == view(replay(scripted))
    assert (
        restored.dice.to_json() == replay(scripted).dice.to_json()
    )  # its own dice, not the seed's


def test_snapshots_are_due_every_few_commands() -> None:
    assert not snapshots.due(snapshots.SNAPSHOT_EVERY - 1, None)
    assert snapshots.due(snapshots.SNAPSHOT_EVERY, None)
    assert not snapshots.due(snapshots.SNAPSHOT_EVERY + 5, 10)
    assert snapshots.due(2 * snapshots.SNAPSHOT_EVERY, snapshots.SNAPSHOT_EVERY)


def test_the_fingerprint_names_the_rules_code() -> None:
    assert snapshots.rules_fingerprint() == snapshots.rules_fingerprint()
    assert len(snapshots.rules_fingerprint()) == 32


def test_a_snapshot_of_the_same_key_with_other_salts_is_not_read() -> None:
    """Issue 21, verifiable dice: the faces come from the key and both salts, so a record whose
    salts differ is another match's dice even with the same key."""
    record = replace(a_record(), dice={"key": "ab" * 32}, commitment="c" * 64, salts=["one", "two"])
    other = replace(record, salts=["one", "three"])
    assert snapshots.stamp(record) != snapshots.stamp(other)


def test_an_infantry_match_snapshot_keeps_its_read_only_weapons_tables() -> None:
    """The infantry rules keep their weapons tables read-only (mappingproxy, which does not
    pickle): a live match pickles all the same (the service snapshots it every few commands)
    and reads back the same match, its tables read-only again."""
    from types import MappingProxyType

    from infantry_helpers import fresh

    match = fresh()
    again = pickle.loads(pickle.dumps(match, protocol=pickle.HIGHEST_PROTOCOL))
    assert again.state == match.state
    assert again.state.arms == match.state.arms
    assert isinstance(again.state.arms.weapons, MappingProxyType)
