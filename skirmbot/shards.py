"""Which of Discord's shards this process runs (`SKIRMBOT_SHARDS`).

A big bot is split by Discord into shards: shard `(guild_id >> 22) % count` gets a guild's
events. skirmbot runs as one or more processes that each own some of the shards, all sharing
one database; `SKIRMBOT_SHARDS` says which: `0-3/16` (shards 0 to 3 of 16), `2/4` (shard 2 of
4), `0,2/4` (shards 0 and 2 of 4), or a mix of both, `0-3,8/16`. Pure: no Discord, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EXAMPLE = "such as 0-3/16 (shards 0 to 3 of 16), 2/4 or 0,2/4"
# Digits as ASCII only: int() would take "٣", "+3" and " 3 ", which are no shard numbers.
_NUMBER = re.compile(r"[0-9]+")
_RANGE = re.compile(r"([0-9]+)\s*-\s*([0-9]+)")
# Far beyond any real bot (Discord asks for a shard per 1,000 to 2,500 servers); a cap keeps
# a typo such as 0-99999999/100000000 from building a list of a hundred million ids.
MAX_SHARDS = 65_536


class ShardsError(ValueError):
    """SKIRMBOT_SHARDS cannot be used; the message is one line for the operator."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to (DMs and guild 0 are on shard 0)."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shard ids one process runs, in ascending order, out of `count`."""

    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    @property
    def leads(self) -> bool:
        """Does this process do the chores that must happen once for the whole bot (syncing
        the global slash commands)? The one running shard 0, as Discord's DMs go there."""
        return 0 in self.ids

    def __str__(self) -> str:
        return f"{_spans(self.ids)}/{self.count}"


def parse_shards(text: str) -> Shards:
    """`0-3/16`, `2/4`, `0,2/4` (ids, ranges, commas; then the shard count after a slash).
    Raises ShardsError with a one-line reason for anything else."""
    ids_text, slash, count_text = text.strip().rpartition("/")
    if not slash:
        raise ShardsError(f"give the shard ids, a slash and the shard count, {EXAMPLE}.")
    if not ids_text.strip():
        raise ShardsError(f"give the shard ids before the slash, {EXAMPLE}.")
    count = _count(count_text.strip())
    ids: set[int] = set()
    for part in ids_text.split(","):
        named = _part(part.strip(), count)
        twice = ids.intersection(named)
        if twice:
            raise ShardsError(f"shard {min(twice)} is named twice; name each shard once.")
        ids.update(named)
    return Shards(tuple(sorted(ids)), count)


def _count(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise ShardsError(f"the shard count after the slash must be a whole number, {EXAMPLE}.")
    count = int(text)
    if not 1 <= count <= MAX_SHARDS:
        raise ShardsError(f"the shard count must be from 1 to {MAX_SHARDS}, not {count}.")
    return count


def _part(text: str, count: int) -> range:
    """One comma-separated part: a shard id `2` or a range `0-3`, checked against the count."""
    if _NUMBER.fullmatch(text):
        first = last = int(text)
    elif found := _RANGE.fullmatch(text):
        first, last = int(found[1]), int(found[2])
        if first > last:
            raise ShardsError(f"the range {first}-{last} runs backwards; write {last}-{first}.")
    else:
        raise ShardsError(f"{text!r} is not a shard id or a range of ids, {EXAMPLE}.")
    if last >= count:
        known = "the only shard is 0" if count == 1 else f"the {count} shards are 0 to {count - 1}"
        raise ShardsError(f"shard {last} is out of range: {known}.")
    return range(first, last + 1)


def _spans(ids: tuple[int, ...]) -> str:
    """`0-3,8`: consecutive ids as ranges, the way they are written in SKIRMBOT_SHARDS."""
    spans: list[tuple[int, int]] = []
    for shard in ids:
        if spans and spans[-1][1] == shard - 1:
            spans[-1] = (spans[-1][0], shard)
        else:
            spans.append((shard, shard))
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
