"""The matches a process keeps between commands (issue 32): a few live, more frozen by their
ruleset (skirmbot.service.kept). A thawed match is the match it was frozen from; it is used
only at the version it was kept at; a match a unit of work holds is never frozen; the frozen
ones stay within their bytes; and a match played through the service with room for a single
live match plays exactly as one kept live all along, thawed rather than loaded from the store.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from service_setup import ALICE, BOB, CHANNEL, end_one, started

from skirmbot.demo import play_demo
from skirmbot.rules import commands
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.ruleset import PACKAGES, PlayedMatch, Ruleset, ruleset
from skirmbot.service import MatchService, snapshots
from skirmbot.service.kept import KeptMatches
from skirmbot.store import Snapshot, Store

RULESETS = [package.rsplit(".", 1)[1] for package in PACKAGES]
OTHER = CHANNEL + 1  # the second match's channel


def what(match: PlayedMatch, rules: Ruleset) -> str:
    """What a match is, as text: its state, its commands and everything that happened."""
    return json.dumps(
        [
            rules.state_json(match.state),
            [command.to_json() for command in match.commands],
            [event.to_json() for event in match.log],
        ],
        sort_keys=True,
        default=str,
    )


def halfway(name: str, seed: int = 2) -> PlayedMatch:
    record = play_demo(seed, name)[1]
    return replay(record, upto=len(record.commands) // 2)


@pytest.mark.parametrize("name", RULESETS)
def test_a_match_that_makes_room_is_frozen_and_thawed_as_it_was(name: str) -> None:
    """Ruleset.freeze and Ruleset.thaw, through the kept matches: past the live ones, a match
    comes back equal, plays on to the same end as one never frozen, and is live again."""
    rules = ruleset(name)
    kept = KeptMatches(live=1)
    first, second = halfway(name, 2), halfway(name, 3)
    before = what(first, rules)
    kept.keep(1, 7, rules, first)
    kept.keep(2, 4, rules, second)  # no room: the first is frozen

    thawed = kept.get(1, 7)

    assert thawed is not None and thawed is not first
    assert what(thawed, rules) == before
    assert kept.thawed == 1 and kept.frozen_count == 0  # thawed: no longer kept frozen
    record = play_demo(2, name)[1]
    for data in record.commands[len(thawed.commands) :]:
        thawed.apply(rules.parse_command(data))
    assert what(thawed, rules) == what(replay(record), rules)


def test_a_kept_match_is_used_only_at_the_version_it_was_kept_at() -> None:
    """Another process may have saved the match since: what is kept of an older version is not
    used (and a live one of another version neither)."""
    rules = ruleset("skirm")
    kept = KeptMatches(live=1)
    kept.keep(1, 7, rules, halfway("skirm"))
    assert kept.get(1, 8) is None
    kept.keep(2, 1, rules, halfway("skirm", 3))  # the first is frozen at version 7
    assert kept.get(1, 8) is None
    assert kept.get(1, 7) is not None


def test_a_match_held_by_a_unit_of_work_is_dropped_not_frozen() -> None:
    """It may have taken commands not saved yet: frozen at its stored version it would be
    another match than that version's."""
    rules = ruleset("skirm")
    kept = KeptMatches(live=1)
    kept.keep(1, 7, rules, halfway("skirm"))
    kept.keep(2, 1, rules, halfway("skirm", 3), held={1})
    assert kept.get(1, 7) is None
    assert kept.frozen_count == 0


def test_the_frozen_matches_stay_within_their_bytes_the_least_recently_used_dropped() -> None:
    rules = ruleset("skirm")
    size = len(rules.freeze(halfway("skirm")))
    kept = KeptMatches(live=1, frozen_bytes=2 * size + size // 2)  # room for two
    matches = [halfway("skirm", seed) for seed in range(2)]
    for number in range(4):  # 0, 1 and 2 are frozen in turn: 0 is dropped for 2
        kept.keep(number, 1, rules, matches[number % 2])
    assert kept.frozen_count == 2 and kept.kept_bytes <= kept.frozen_bytes
    assert kept.get(0, 1) is None
    assert kept.get(1, 1) is not None and kept.get(2, 1) is not None


def test_forget_keeps_nothing_of_the_match_live_or_frozen() -> None:
    rules = ruleset("skirm")
    kept = KeptMatches(live=1)
    kept.keep(1, 1, rules, halfway("skirm"))
    kept.keep(2, 1, rules, halfway("skirm", 3))
    kept.forget(1)
    kept.forget(2)
    assert kept.get(1, 1) is None and kept.get(2, 1) is None and kept.kept_bytes == 0


class Unfreezable:
    """A ruleset whose matches do not freeze (a bug in its freezing must not stop a command)."""

    def __init__(self, rules: Ruleset) -> None:
        self._rules = rules

    def freeze(self, match: PlayedMatch) -> bytes:
        raise TypeError("cannot freeze this")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def test_a_match_that_does_not_freeze_is_dropped_and_loaded_from_the_store_when_wanted() -> None:
    rules: Any = Unfreezable(ruleset("skirm"))
    kept = KeptMatches(live=1)
    kept.keep(1, 1, rules, halfway("skirm"))
    kept.keep(2, 1, rules, halfway("skirm", 3))
    assert kept.get(1, 1) is None and kept.frozen_count == 0


async def two_matches(service: MatchService) -> None:
    """Alice and Bob play in two channels at once."""
    await started(service)
    await started(service, channel=OTHER)


async def played_in_turn(service: MatchService, turns: int) -> None:
    """Activations ended in one match, then in the other."""
    for _ in range(turns):
        await end_one(service)
        await end_in(service, OTHER)


async def end_in(service: MatchService, channel: int) -> None:
    """The squad whose turn it is in `channel` ends its next unit's activation."""
    row, match = await service.view(channel)
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    member = ALICE if row.players[side] == ALICE.id else BOB
    unit = match.state.ready_units(side)[0].id
    await service.act(channel, member, commands.EndActivation(side, unit))


async def test_with_room_for_one_live_match_two_matches_play_as_if_both_were_live(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through MatchService: each command thaws its match (the other one froze it), none loads
    it from the store, and each match is what replaying its stored record gives."""
    service = MatchService(store)
    service.live.kept = KeptMatches(live=1)
    await two_matches(service)
    loads: list[int] = []
    restore = snapshots.restore

    def counted(snapshot: Snapshot | None, record: MatchRecord) -> PlayedMatch:
        loads.append(len(record.commands))
        return restore(snapshot, record)

    monkeypatch.setattr(snapshots, "restore", counted)

    await played_in_turn(service, 6)

    assert service.live.kept.thawed >= 12, "each turn of the other match thaws it"
    assert loads == [], "no command loaded its match from the store"
    rules = ruleset("skirm")
    for channel in (CHANNEL, OTHER):
        row, match = await service.view(channel)
        assert match is not None and len(match.commands) == 2 + 6  # the deployments, 6 ends
        assert what(match, rules) == what(replay(MatchRecord.from_json(row.record)), rules)
