"""The bot's garbage collector settings (issue 14: full collections held the event loop for up
to 1.8 s with many live matches): what start-up made is frozen, the thresholds raised."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from skirmbot.collector import THRESHOLDS, settle_collector


@pytest.fixture
def restored_collector() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


def test_settling_freezes_what_exists_and_raises_the_thresholds(restored_collector: None) -> None:
    kept = [object() for _ in range(10)]  # noqa: F841 (alive across the freeze)
    settle_collector()
    assert gc.get_threshold() == THRESHOLDS
    assert gc.get_freeze_count() > 0
    assert THRESHOLDS[0] > 700 and THRESHOLDS[2] > 10  # collected less often than by default
