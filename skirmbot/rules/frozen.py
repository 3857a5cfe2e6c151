"""A live match as bytes and back: what a ruleset gives the service to keep a match between
commands without keeping its objects (`Ruleset.freeze` and `Ruleset.thaw`).

The service keeps a few hundred matches live; others it keeps frozen, in memory and in the
store's snapshots, and thaws one when a command comes for it, which costs far less than
replaying its commands. What a frozen match is belongs to its ruleset: `PickledMatches` is the
kernel's way, for a ruleset whose matches are plain Python objects - the objects as they are,
pickled (nothing to keep in step with a hand-written format) and compressed (to about a third:
a Skirm match in mid-game is about 12 KiB). A ruleset with a more compact form of its own gives
its own `freeze` and `thaw`.

Frozen bytes are read back only by the code that made them: in memory, by the same process;
in a snapshot, after its stamp has said so (skirmbot.service.snapshots). Unpickling trusts
nothing that could not already change the matches themselves: the bytes are ours.
"""

from __future__ import annotations

import pickle
import zlib
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from skirmbot.rules.ruleset import PlayedMatch

# zlib's fastest level: a frozen match is made at nearly every command when more matches act
# at once than are kept live, and level 1 already takes a match to about a third.
LEVEL = 1


class PickledMatches:
    """Freezing by pickling the match's objects (a ruleset class takes it as a base)."""

    def freeze(self, match: PlayedMatch) -> bytes:
        """The match as bytes `thaw` gives back as an equal live match."""
        return zlib.compress(pickle.dumps(match, protocol=pickle.HIGHEST_PROTOCOL), LEVEL)

    def thaw(self, frozen: bytes) -> PlayedMatch:
        """The live match `freeze` made these bytes of (any error: they are not such bytes)."""
        return cast("PlayedMatch", pickle.loads(zlib.decompress(frozen)))


__all__ = ["LEVEL", "PickledMatches"]
