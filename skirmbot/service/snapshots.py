"""Snapshots of live matches, so that loading a match never replays the whole game.

A match is its record: replaying the commands rebuilds it exactly. Replaying is the slow part
of loading a match that is not in memory (a few milliseconds per dozen commands), so every
`SNAPSHOT_EVERY` commands the save keeps a copy of the live match, and loading replays only the
commands after the latest copy. A snapshot is a cache, never the truth:

- it is the live match frozen by its ruleset (`Ruleset.freeze`: the kernel's way pickles the
  rules' objects as they are, skirmbot.rules.frozen); the database is ours, so thawing it
  trusts nothing that could not already change the matches themselves;
- it is stamped with a fingerprint of the rules code and the Python that made it, and of the
  record it was made from (its ruleset, content and dice), and a snapshot made by other code
  or from another record is ignored: the match is replayed from its commands instead, so a new
  release never reads an old release's objects;
- anything wrong with it (it does not load, its command count is not where it says) is the
  same: replay from the commands.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import sys
from importlib.resources import files
from importlib.resources.abc import Traversable

from skirmbot.rules.record import MatchRecord, continue_replay, replay
from skirmbot.rules.ruleset import PlayedMatch, Ruleset, ruleset
from skirmbot.store import Snapshot

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 20  # commands between snapshots: at most this many are replayed on a load
RULES_PACKAGE = "skirmbot.rules"


@functools.cache
def rules_fingerprint() -> str:
    """A hash of every source file of the rules and of the Python version: what a snapshot
    may only be read back by."""
    return code_fingerprint(RULES_PACKAGE)


@functools.cache
def code_fingerprint(package: str) -> str:
    """A hash of every source file of `package` and of the Python version: what something the
    package's code made (a snapshot, a picture) may only be taken for."""
    digest = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode())
    for name, data in sorted(_sources(files(package), "")):
        digest.update(name.encode())
        digest.update(data)
    return digest.hexdigest()[:32]


def _sources(folder: Traversable, prefix: str) -> list[tuple[str, bytes]]:
    found: list[tuple[str, bytes]] = []
    for entry in folder.iterdir():
        if entry.is_dir() and entry.name != "__pycache__":
            found += _sources(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(".py"):
            found.append((prefix + entry.name, entry.read_bytes()))
    return found


def due(commands: int, latest: int | None) -> bool:
    """Whether a match with `commands` commands, whose latest snapshot stands at `latest`,
    should keep a new one."""
    return commands - (latest or 0) >= SNAPSHOT_EVERY


def stamp(record: MatchRecord) -> str:
    """What a snapshot of `record`'s match may only be read back by: the rules code, and the
    record's ruleset, version, content and dice, salts included (not its commands: they are
    counted)."""
    made_from = [record.ruleset, record.version, record.content, record.dice, record.salts]
    digest = hashlib.sha256(json.dumps(made_from, sort_keys=True).encode()).hexdigest()
    return f"{rules_fingerprint()}:{digest[:32]}"


def take(match: PlayedMatch, record: MatchRecord) -> Snapshot:
    """A snapshot of the live match of `record` as it stands (its commands so far)."""
    return Snapshot(len(match.commands), stamp(record), _rules(record).freeze(match))


def restore(snapshot: Snapshot | None, record: MatchRecord) -> PlayedMatch:
    """The live match of `record`: from the snapshot, with the commands after it replayed,
    when the snapshot is usable; else the whole record replayed. Trusted: the record is our
    store's, each of its commands checked when it was accepted (skirmbot.rules.record.replay)."""
    start = _thawed(snapshot, record)
    if start is None or not _fits(start, record):
        return replay(record, trusted=True)
    return continue_replay(record, start, trusted=True)


def _thawed(snapshot: Snapshot | None, record: MatchRecord) -> PlayedMatch | None:
    if snapshot is None or snapshot.seq > len(record.commands) or snapshot.code != stamp(record):
        return None
    try:
        return _rules(record).thaw(snapshot.state)
    except Exception:  # a cache: whatever is wrong with it, the commands are the truth
        log.warning("A match snapshot could not be read; replaying the match instead")
        return None


def _rules(record: MatchRecord) -> Ruleset:
    return ruleset(record.ruleset)


def _fits(match: PlayedMatch, record: MatchRecord) -> bool:
    """Whether the snapshot's match took the record's first commands: its last command is
    the record's at that place (the store drops a snapshot when an undo rewrites the record
    before it, and the stamp tells the record's content and dice)."""
    taken = len(match.commands)
    if taken == 0:
        return True
    return taken <= len(record.commands) and (
        match.commands[-1].to_json() == record.commands[taken - 1]
    )


__all__ = [
    "SNAPSHOT_EVERY", "code_fingerprint", "due", "restore", "rules_fingerprint", "stamp", "take",
]  # fmt: skip
