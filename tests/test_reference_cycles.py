"""A match dropped from memory is freed at once (issue 32): nothing a match holds, and nothing
playing it makes, is a reference cycle.

The bot keeps a few hundred live matches and drops the least recently used; with a thousand
matches acting at once it drops one at nearly every command. A match caught in a reference
cycle is not freed when dropped but when the garbage collector next runs a full collection,
which the bot runs rarely (skirmbot.collector: a full collection walks every object): a
thousand matches' worth of such garbage took the process past 900 MB. These tests play with
the collector off, then ask it what it would have to free: nothing.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from service_setup import CHANNEL, end_one, started

from skirmbot.demo import play_demo
from skirmbot.rules.board import Board, EdgeFeature
from skirmbot.rules.record import replay
from skirmbot.rules.ruleset import PACKAGES
from skirmbot.rules.squares import Square
from skirmbot.service import MatchService, snapshots
from skirmbot.store import Store

RULESETS = [package.rsplit(".", 1)[1] for package in PACKAGES]


@contextmanager
def cyclic_garbage() -> Iterator[Counter[str]]:
    """While open, the collector does not run; on leaving, the kinds of the objects only it
    could free (reference cycles no longer reachable), counted into the yielded Counter."""
    found: Counter[str] = Counter()
    gc.collect()
    gc.disable()
    try:
        yield found
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found.update(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.parametrize("name", RULESETS)
def test_a_whole_match_replayed_and_restored_leaves_no_cycle_to_collect(name: str) -> None:
    """Played by the automatic players, replayed checked and trusted, snapshotted and
    restored: every object of it is freed by its reference count alone."""
    play_demo(1, name)  # what is made once per process (caches, content) is made before

    with cyclic_garbage() as found:
        match, record = play_demo(2, name)[:2]
        checked, trusted = replay(record), replay(record, trusted=True)
        restored = snapshots.restore(snapshots.take(trusted, record), record)
        assert restored.commands == match.commands == checked.commands
        del match, checked, trusted, restored

    assert found == Counter(), f"{name}: reference cycles left for the collector: {found}"


def test_a_board_with_doors_is_no_cycle_and_its_doors_still_clear_its_memo() -> None:
    """The doors clear what the board worked out (the reason they knew their board) without
    pointing back at it; a copy's doors clear the copy's memo only."""
    door = (Square(0, 0), Square(1, 0))

    with cyclic_garbage() as found:
        board = board_with_a_door(door)
        board.memo("asked", lambda: 1)
        board.doors[door] = True  # a door opens: what was worked out is forgotten
        assert board.memo("asked", lambda: 2) == 2
        copied = board.copy(keep_memo=True)
        copied.doors[door] = False
        assert copied.memo("asked", lambda: 3) == 3
        assert board.memo("asked", lambda: 4) == 2
        del board, copied

    assert found == Counter()


def board_with_a_door(door: tuple[Square, Square]) -> Board:
    """The smallest board, with a closed door between its first two squares."""
    levels = {Square(x, y): 0 for x in range(6) for y in range(6)}
    return Board(6, 6, levels, frozenset(), frozenset(), {door: EdgeFeature(door="closed")})


async def test_playing_through_the_service_leaves_no_cycle_to_collect(store: Store) -> None:
    """Commands, pictures and saves through MatchService, with the live match dropped from
    memory and loaded again between them (as with more matches than it keeps)."""
    service = MatchService(store)
    await started(service)
    await end_one(service)  # what the first command makes once per process is made before
    forget: Callable[[int], None] = service.live.forget

    with cyclic_garbage() as found:
        for _ in range(6):
            row, _ = await service.view(CHANNEL)
            forget(row.id)
            reply = await end_one(service)
            assert reply.text
        del row, reply

    ours = {kind: count for kind, count in found.items() if kind.startswith("skirmbot.")}
    assert ours == {}, f"skirmbot objects left for the collector: {ours}"
