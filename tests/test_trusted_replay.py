"""A trusted replay (a record from our own store) skips the checks that only refuse, and
rebuilds the very same match as a checked one: state, events, dice (issue 32)."""

from __future__ import annotations

from typing import Any

import pytest

from skirmbot.demo import play_demo
from skirmbot.rules.dice import RecordingDice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import (
    MatchRecord,
    ReplayError,
    continue_replay,
    dice_of,
    replay,
    start_match,
)
from skirmbot.rules.ruleset import PACKAGES, PlayedMatch, ruleset
from skirmbot.rules.skirm import actions as skirm_actions

RULESETS = [package.rsplit(".", 1)[1] for package in PACKAGES]
SEEDS = (1, 2)


def _played(record: MatchRecord, trusted: bool) -> tuple[PlayedMatch, list[int]]:
    """The record replayed (trusted or checked), and every face its dice rolled."""
    dice = RecordingDice(dice_of(record))
    return continue_replay(record, start_match(record, dice), trusted=trusted), dice.faces


def _events(match: PlayedMatch) -> list[Any]:
    return [(event.kind, event.text, event.data) for event in match.log]


@pytest.fixture(scope="module", params=[(name, seed) for name in RULESETS for seed in SEEDS])
def demo_record(request: pytest.FixtureRequest) -> MatchRecord:
    name, seed = request.param
    return play_demo(seed, name)[1]


def test_every_ruleset_engine_has_the_seam() -> None:
    for name in RULESETS:
        match = start_match(play_demo(1, name)[1])
        assert match.trusted is False  # checked unless a replay says otherwise


def test_a_trusted_replay_rebuilds_the_same_match(demo_record: MatchRecord) -> None:
    rules = ruleset(demo_record.ruleset)
    checked, checked_faces = _played(demo_record, trusted=False)
    trusted, trusted_faces = _played(demo_record, trusted=True)
    assert rules.state_json(trusted.state) == rules.state_json(checked.state)
    assert _events(trusted) == _events(checked)  # a move's path and cost too
    assert trusted_faces == checked_faces
    assert [c.to_json() for c in trusted.commands] == demo_record.commands


def test_a_trusted_replay_part_of_the_way_then_on_is_the_same(demo_record: MatchRecord) -> None:
    rules = ruleset(demo_record.ruleset)
    half = replay(demo_record, upto=len(demo_record.commands) // 2, trusted=True)
    on = continue_replay(demo_record, half, trusted=True)
    assert rules.state_json(on.state) == rules.state_json(replay(demo_record).state)


def test_the_match_after_a_trusted_replay_checks_new_commands() -> None:
    record = play_demo(1)[1]
    match = replay(record, upto=len(record.commands) // 2, trusted=True)
    assert match.trusted is False
    illegal = dict(record.commands[len(record.commands) // 2], type="move", square="Z99")
    with pytest.raises(RulesError):
        match.apply(ruleset(record.ruleset).parse_command(illegal))


def _first_move(record: MatchRecord) -> int:
    return next(i for i, data in enumerate(record.commands) if data["type"] in ("move", "dash"))


@pytest.mark.parametrize("name", ["skirm", "lite"])
def test_a_trusted_replay_does_not_list_every_reachable_square(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = play_demo(1, name)[1]
    _first_move(record)  # the record has moves to trust

    def listed(*_: object) -> None:
        raise AssertionError("a trusted replay checked a move against every reachable square")

    # Lite lists reachable squares after an action too (whether the activation goes on):
    # that changes the state, and stays; only the move's own check is skipped.
    monkeypatch.setattr(skirm_actions, "check_move", listed)
    monkeypatch.setattr("skirmbot.rules.lite.actions.check_move", listed)
    replay(record, trusted=True)
    with pytest.raises(AssertionError):
        replay(record)  # a checked replay does


@pytest.mark.parametrize("name", ["skirm", "lite"])
def test_a_trusted_replay_still_refuses_a_move_nowhere_reachable(name: str) -> None:
    record = play_demo(1, name)[1]
    position = _first_move(record)
    commands = list(record.commands)
    enemy = next(
        c for c in commands if c["type"] == "deploy" and c["side"] != commands[position]["side"]
    )
    commands[position] = dict(commands[position], square=next(iter(enemy["placements"].values())))
    broken = MatchRecord(record.content, record.dice, commands, record.players, record.ruleset)
    with pytest.raises(ReplayError) as checked:
        replay(broken)
    with pytest.raises(ReplayError) as trusted:
        replay(broken, trusted=True)
    assert trusted.value.position == checked.value.position == position + 1
    assert trusted.value.reason == checked.value.reason


def test_the_store_restores_its_own_records_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    from skirmbot.service import snapshots

    record = play_demo(1)[1]
    expected = ruleset(record.ruleset).state_json(replay(record).state)

    def listed(*_: object) -> None:
        raise AssertionError("the store's own record was checked in full")

    monkeypatch.setattr(skirm_actions, "check_move", listed)
    whole = snapshots.restore(None, record)  # no snapshot: the whole record
    half = replay(record, upto=20, trusted=True)
    after_snapshot = snapshots.restore(snapshots.take(half, record), record)
    for match in (whole, after_snapshot):
        assert ruleset(record.ruleset).state_json(match.state) == expected
        assert match.trusted is False


@pytest.mark.parametrize("name", RULESETS)
def test_a_trusted_replay_refuses_what_a_checked_one_does(name: str) -> None:
    record = play_demo(1, name)[1]
    commands = list(record.commands)
    commands.insert(1, commands[0])  # the first seat's set-up, given twice
    broken = MatchRecord(record.content, record.dice, commands, record.players, record.ruleset)
    with pytest.raises(ReplayError) as checked:
        replay(broken)
    with pytest.raises(ReplayError) as trusted:
        replay(broken, trusted=True)
    assert (trusted.value.position, trusted.value.reason) == (
        checked.value.position,
        checked.value.reason,
    )


@pytest.mark.parametrize("name", ["d20", "companies", "infantry"])
def test_a_trusted_replay_keeps_no_copy_to_put_back(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = play_demo(1, name)[1]
    expected = ruleset(name).state_json(replay(record).state)

    class NoCopies:
        @staticmethod
        def deepcopy(*_: object) -> None:
            raise AssertionError("a trusted replay copied the state to put back")

    monkeypatch.setattr(f"skirmbot.rules.{name}.engine.copy", NoCopies)
    assert ruleset(name).state_json(replay(record, trusted=True).state) == expected
    with pytest.raises(AssertionError):
        replay(record)  # a checked replay keeps one


def test_a_trusted_group_move_is_not_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    from skirmbot.rules.companies import orders

    record = play_demo(1, "companies")[1]
    assert any(data["type"] == "move" for data in record.commands)

    def explained(*_: object) -> None:
        raise AssertionError("a trusted replay worked out why a Move would be refused")

    monkeypatch.setattr(orders, "why_not_move", explained)
    replay(record, trusted=True)
    with pytest.raises(AssertionError):
        replay(record)


def test_the_catch_up_and_the_pages_replay_our_records_trusted_to_the_same_steps(
    demo_record: MatchRecord,
) -> None:
    """The recap and the web pages replay a stored record step by step (render/replay.py),
    trusted: the same steps, events and views as checked, and the match handed out between
    commands is not trusted (a caller that goes on with it is checked)."""
    from skirmbot.render.replay import _steps, numbered_steps

    def steps(trusted: bool) -> list[Any]:
        return [
            (step.number, step.side, step.mp, step.key, _kinds(step.events), view.turn)
            for step, view in numbered_steps(demo_record, trusted=trusted)
        ]

    assert steps(trusted=True) == steps(trusted=False)
    assert all(match.trusted is False for match, *_ in _steps(demo_record, trusted=True))


def _kinds(events: list[Any]) -> list[tuple[str, str]]:
    return [(event.kind, event.text) for event in events]


def test_the_catch_up_replays_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recap of a stored Skirm match never checks a move against every reachable square."""
    from skirmbot.service.recap import catch_up

    record = play_demo(1)[1]
    expected = catch_up(record, 0)

    def listed(*_: object) -> None:
        raise AssertionError("the recap checked the store's own record in full")

    monkeypatch.setattr(skirm_actions, "check_move", listed)
    again = catch_up(record, 0)
    assert expected is not None and again is not None
    assert (again.text, again.first, again.last) == (expected.text, expected.first, expected.last)
