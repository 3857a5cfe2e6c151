"""The matches a process keeps in memory between commands: a few hundred live, many more frozen.

A command for a match that is not in memory loads it from the store: its latest snapshot, and
the commands after it replayed (a few milliseconds of CPU, and a read of the store). With more
matches acting at once than are kept live (a thousand on a league night), nearly every command
was such a load, since the matches take turns and the least recently used is dropped first.
So a live match that has to make room is frozen instead of dropped: its ruleset gives it as
bytes (`Ruleset.freeze`, about 12 KiB for a Skirm match in mid-game against about 200 KiB
live), and a command for it thaws it (`Ruleset.thaw`, under a millisecond). The frozen ones are
bounded by their bytes, the least recently used dropped first; a dropped one is loaded from
the store again when it is wanted.

Each entry is the match at one stored version: what is found is used only for that version
(another process may have saved the match since). A live match that a unit of work holds when
it has to make room is dropped, not frozen: it may hold commands not saved yet, and the unit of
work keeps it again when it saves.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Container
from dataclasses import dataclass

from skirmbot.rules.ruleset import PlayedMatch, Ruleset

log = logging.getLogger(__name__)

# Live matches kept in memory: each command for one of these needs no load at all.
LIVE = 256
# The bytes of frozen matches kept in memory: about 5,000 Skirm matches in mid-game.
FROZEN_BYTES = 64 * 2**20


@dataclass(frozen=True, slots=True)
class _Frozen:
    version: int
    rules: Ruleset
    frozen: bytes


class KeptMatches:
    """The live matches, each at its stored version, and the frozen ones (see the module)."""

    def __init__(self, live: int = LIVE, frozen_bytes: int = FROZEN_BYTES) -> None:
        self.live, self.frozen_bytes = live, frozen_bytes
        self._live: OrderedDict[int, tuple[int, Ruleset, PlayedMatch]] = OrderedDict()
        self._frozen: OrderedDict[int, _Frozen] = OrderedDict()
        self._bytes = 0  # of the frozen matches kept
        self.thawed = 0  # matches thawed since this was made (the benchmarks count them)

    def get(self, match_id: int, version: int) -> PlayedMatch | None:
        """The match at `version`, live or thawed; None when it is not kept at that version."""
        found = self._live.get(match_id)
        if found is not None and found[0] == version:
            self._live.move_to_end(match_id)
            return found[2]
        frozen = self._frozen.get(match_id)
        if frozen is None or frozen.version != version:
            return None
        self._drop_frozen(match_id)
        try:
            match = frozen.rules.thaw(frozen.frozen)
        except Exception:  # a cache: whatever is wrong with it, the store has the match
            log.exception("A frozen match could not be thawed; loading it from the store")
            return None
        self.thawed += 1
        return match

    def keep(
        self,
        match_id: int,
        version: int,
        rules: Ruleset,
        match: PlayedMatch,
        held: Container[int] = (),
    ) -> None:
        """Keep the match live at `version`; the least recently used live ones make room, frozen
        unless in `held` (the matches units of work hold now)."""
        self._drop_frozen(match_id)
        self._live[match_id] = (version, rules, match)
        self._live.move_to_end(match_id)
        while len(self._live) > self.live:
            oldest, (old_version, old_rules, old_match) = self._live.popitem(last=False)
            if oldest not in held:
                self._freeze(oldest, old_version, old_rules, old_match)

    def forget(self, match_id: int) -> None:
        """Keep nothing of the match (its live match took commands that were not saved)."""
        self._live.pop(match_id, None)
        self._drop_frozen(match_id)

    @property
    def frozen_count(self) -> int:
        return len(self._frozen)

    @property
    def kept_bytes(self) -> int:
        """The bytes of the frozen matches kept now."""
        return self._bytes

    def _freeze(self, match_id: int, version: int, rules: Ruleset, match: PlayedMatch) -> None:
        try:
            frozen = rules.freeze(match)
        except Exception:  # a match that does not freeze is loaded from the store when wanted
            log.exception("A live match could not be frozen; it will be loaded from the store")
            return
        if len(frozen) > self.frozen_bytes:
            return
        self._frozen[match_id] = _Frozen(version, rules, frozen)
        self._bytes += len(frozen)
        while self._bytes > self.frozen_bytes:
            oldest = next(iter(self._frozen))
            self._drop_frozen(oldest)

    def _drop_frozen(self, match_id: int) -> None:
        dropped = self._frozen.pop(match_id, None)
        if dropped is not None:
            self._bytes -= len(dropped.frozen)


__all__ = ["FROZEN_BYTES", "LIVE", "KeptMatches"]
