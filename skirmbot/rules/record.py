"""The match record: ruleset, content, dice and the accepted commands (rulings; ARCHITECTURE:
"a match is its record"). Replaying a record rebuilds the match exactly, like a chess PGN.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from skirmbot.rules.commands import Command
from skirmbot.rules.dice import (
    Dice,
    RecordingDice,
    SaltedDice,
    commitment_of,
    dice_from_json,
    seal_of,
)
from skirmbot.rules.errors import RulesError
from skirmbot.rules.ruleset import DEFAULT_RULESET, PlayedMatch, Ruleset, ruleset

RECORD_FORMAT = "skirmbot-record"
RECORD_VERSION = 4
# Version 1 (the first release) was written when an activation ended by itself only at 0 ACT and
# 0 TO: its records end with an `end` some activations that now end by themselves, and replay
# with such an `end` taken as a no-op (docs/rulings.md, Activations). It also took commands with
# a field their action did not use (a single-target weapon's `also`, a target for a skill that
# takes none), and so did versions 2 and 3 until issue 28: a new command with one is refused,
# a recorded one replays as it was played (`_play_on`).
# Version 3 (issue 21) is a record with verifiable dice: beside its `{"key": HEX}` dice it has
# the commitment to the key and each player's salt, from which the dice come (a version-2
# reader would roll them from the key alone, wrongly). Records without them are still version 2.
# Version 4 (issue 28) plays Skirm Lite as its rulebook says: High Ground and a blast leave a
# target its Cover. A Lite record of an earlier version replays with the full game's cover, as
# it was played (`PlayedMatch.started_under`). Version 4 records may or may not have verifiable
# dice; whether they do is their commitment's presence.
VERIFIABLE_VERSION = 3
READABLE_VERSIONS = (1, 2, 3, 4)
SKIRM = DEFAULT_RULESET


class ReplayError(RulesError):
    """A record could not be replayed; `position` is the 1-based number of the failing command."""

    def __init__(self, position: int, command: dict[str, Any], reason: str) -> None:
        super().__init__(f"Command {position} ({json.dumps(command)}) is illegal: {reason}")
        self.position = position
        self.command = command
        self.reason = reason


@dataclass
class MatchRecord:
    content: dict[
        str, Any
    ]  # {"map": ..., "mission": ..., "squads": [..., ...]} as in the content files
    dice: dict[str, Any]  # {"key": HEX}, {"seed": N} or {"script": [faces]} (skirmbot.rules.dice)
    commands: list[dict[str, Any]] = field(default_factory=list)
    players: list[str] = field(default_factory=lambda: ["Player 1", "Player 2"])
    ruleset: str = SKIRM
    version: int = RECORD_VERSION  # kept as read: a match goes on under its record's version
    # Verifiable dice (issue 21; skirmbot.rules.verify): SHA-256 of the key, posted at the start;
    # each player's salt (None until fixed) and its seal. None: a match without them (older, or
    # played with a fixed seed), whose dice come from `dice` alone.
    commitment: str | None = None
    salts: list[str | None] | None = None
    seals: list[str | None] | None = None
    # Only in the record of a match that is over (`revealed`): every face rolled, in order, and
    # the result, which `skirmbot verify` derives again from the seed and salts.
    rolls: list[int] | None = None
    result: dict[str, Any] | None = None
    # Substitutes (issue 34): each hand-over of a seat, in order, as {"seat": S, "player": NAME,
    # "from": N}: NAME holds seat S from the record's command N (0-based) on. Seats start with
    # `players`. Replay and `skirmbot verify` never read it (the seals stay on the first
    # names); None: no seat changed hands, as in every record written before it.
    holders: list[dict[str, Any]] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": self.version,
            "ruleset": self.ruleset,
            "players": list(self.players),
            "content": self.content,
            "dice": self.dice,
        }
        if self.commitment is not None:
            data["version"] = max(self.version, VERIFIABLE_VERSION)
            data.update(commitment=self.commitment, salts=self.salts, seals=self.seals)
        data["commands"] = self.commands
        if self.rolls is not None:
            data["rolls"] = self.rolls
        if self.result is not None:
            data["result"] = self.result
        if self.holders is not None:
            data["holders"] = self.holders
        return data

    def dumps(self) -> str:
        """The record as text; the same record always gives the same bytes."""
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RulesError(
                f'This is not a skirmbot match record (it needs "format": "{RECORD_FORMAT}").'
            )
        version = data.get("version")
        if version not in READABLE_VERSIONS or isinstance(version, bool):
            *others, last = (str(v) for v in READABLE_VERSIONS)
            readable = f"{', '.join(others)} and {last}"
            raise RulesError(
                f"Record version {version!r} is not supported; this skirmbot reads versions {readable}."
            )
        name = data.get("ruleset", SKIRM)  # the first release wrote Skirm records without it
        if not isinstance(name, str):
            raise RulesError("A record's 'ruleset' names a ruleset, such as \"skirm\".")
        rules = ruleset(name)  # a RulesError lists the rulesets this skirmbot plays
        content, dice, commands = data.get("content"), data.get("dice"), data.get("commands", [])
        if (
            not isinstance(content, dict)
            or not isinstance(dice, dict)
            or not isinstance(commands, list)
        ):
            raise RulesError("A record needs 'content' and 'dice' objects and a 'commands' list.")
        players = data.get("players", ["Player 1", "Player 2"])
        if (
            not isinstance(players, list)
            or len(players) not in rules.seats  # one name per seat
            or not all(isinstance(name, str) for name in players)
        ):
            seats = "two" if rules.seats == (2,) else f"{min(rules.seats)} to {max(rules.seats)}"
            raise RulesError(f"A record's 'players' must list the {seats} players' names.")
        record = cls(content, dice, list(commands), list(players), rules.name, int(version))
        record.holders = _holders(data.get("holders"), len(players))
        return _with_verifiable_dice(record, data)

    @classmethod
    def loads(cls, text: str) -> MatchRecord:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as error:
            raise RulesError(f"The record is not valid JSON: {error}.") from error
        except RecursionError:  # "[[[[..." thousands deep: no record nests like that
            raise RulesError(
                "This is not a match record: its JSON nests far deeper than a record does."
            ) from None


def _with_verifiable_dice(record: MatchRecord, data: dict[str, Any]) -> MatchRecord:
    """The record's commitment, salts, seals, rolls and result, checked for their types (what
    they say is for `skirmbot verify` to judge)."""
    commitment = data.get("commitment")
    if commitment is None:
        return record
    salts, seals = data.get("salts"), data.get("seals")
    rolls, result = data.get("rolls"), data.get("result")
    if (
        not isinstance(commitment, str)
        or not _texts_per_seat(salts, len(record.players))
        or not _texts_per_seat(seals, len(record.players))
        or (rolls is not None and not _faces(rolls))
        or (result is not None and not isinstance(result, dict))
    ):
        raise RulesError(
            "A record's verifiable dice need a 'commitment' (hexadecimal), 'salts' and "
            "'seals' (text or null), one of each per player, and, when given, 'rolls' (whole numbers) and a "
            "'result' object."
        )
    return replace(
        record,
        commitment=commitment,
        salts=list(salts or ()),
        seals=list(seals or ()),
        rolls=rolls,
        result=result,
    )


def _holders(value: object, seats: int) -> list[dict[str, Any]] | None:
    """A record's seat hand-overs (substitutes), checked for their shape; None when it has none."""
    if value is None:
        return None
    if isinstance(value, list) and all(_holder(item, seats) for item in value):
        return [dict(item) for item in value]
    raise RulesError(
        "A record's 'holders' lists who took a seat from which command on: "
        '{"seat": 0, "player": "name", "from": 12}, the seat one of the players\' seats.'
    )


def _holder(item: object, seats: int) -> bool:
    if not isinstance(item, dict):
        return False
    seat, player, start = item.get("seat"), item.get("player"), item.get("from")
    return (
        isinstance(seat, int)
        and not isinstance(seat, bool)
        and 0 <= seat < seats
        and isinstance(player, str)
        and isinstance(start, int)
        and not isinstance(start, bool)
        and start >= 0
    )


def held_by(record: MatchRecord) -> list[list[tuple[str, int]]]:
    """Who held each seat, in order, from which command on: (name, first command, 0-based)."""
    seats: list[list[tuple[str, int]]] = [[(name, 0)] for name in record.players]
    for change in record.holders or ():
        seats[change["seat"]].append((str(change["player"]), int(change["from"])))
    return seats


def _texts_per_seat(value: object, seats: int) -> bool:
    """One text (or null) for each of the match's seats."""
    return (
        isinstance(value, list)
        and len(value) == seats
        and all(item is None or isinstance(item, str) for item in value)
    )


def _faces(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(face, int) and not isinstance(face, bool) for face in value
    )


def dice_of(record: MatchRecord) -> Dice:
    """The dice source the record rolls: its keyed dice with every player's salt when it has
    a commitment (a match with verifiable dice), else what its `dice` name."""
    key = record.dice.get("key")
    if record.salts is not None and isinstance(key, str):
        return SaltedDice(key, record.salts)
    return dice_from_json(record.dice)


def commit_dice(record: MatchRecord, salts: Sequence[str | None]) -> bool:
    """A new match's record made verifiable: when its dice are keyed, the commitment to the key
    and each salt given so far (None: that player has not joined yet), with its seal. False for
    other dice (a fixed seed in tests and demos): nothing to commit to."""
    key = record.dice.get("key")
    if not isinstance(key, str):
        return False
    record.commitment = commitment_of(key)
    record.salts = list(salts)
    record.seals = [
        None if salt is None else seal_of(record.commitment, side, salt, record.players[side])
        for side, salt in enumerate(salts)
    ]
    record.version = max(record.version, VERIFIABLE_VERSION)
    return True


def add_salt(data: dict[str, Any], side: int, salt: str) -> bool:
    """Fix a player's salt in a stored record (its JSON, as the store keeps it), with its seal
    (made with the player's name as the record has it: set the name first). False when the
    record takes no salts (no commitment: a fixed seed)."""
    commitment = data.get("commitment")
    if not isinstance(commitment, str):
        return False
    data["salts"][side] = salt
    data["seals"][side] = seal_of(commitment, side, salt, str(data["players"][side]))
    return True


def revealed(record: MatchRecord) -> MatchRecord:
    """The record of a match that is over as it is exported, with what `skirmbot verify`
    checks: every face rolled, in order, and the result. A record without a commitment, or
    whose match never started, is returned as it is."""
    if record.commitment is None or not all(record.content.get("squads") or [None]):
        return record
    try:
        match, dice = replay_rolled(record)
    except RulesError:
        return record  # a record that does not replay is exported as it is kept
    return replace(
        record,
        commands=list(record.commands),
        rolls=dice.faces,
        result=ruleset(record.ruleset).recorded_result(match.state),
    )


def start_match(record: MatchRecord, dice: Dice | None = None) -> PlayedMatch:
    """A match at its start, built from the record's content and dice by its ruleset."""
    rules = ruleset(record.ruleset)
    match = rules.new_match(record.content, dice if dice is not None else dice_of(record))
    match.late_end_is_no_op = record.version == 1
    match.unused_fields_allowed = record.version == 1
    match.started_under(record.version)
    return match


def replay(record: MatchRecord, upto: int | None = None, *, trusted: bool = False) -> PlayedMatch:
    """Apply the record's commands in order (the first `upto` of them if given).

    `trusted`: the record is our own store's, whose every command was checked when it was
    accepted, so the engine may skip the checks that only refuse (`PlayedMatch.trusted`); the
    match comes out the same. A record from outside (an import, `skirmbot verify`, a file given
    to `skirmbot replay`) is replayed checked, as by default."""
    return _play_on(record, start_match(record), upto, trusted=trusted)


def continue_replay(
    record: MatchRecord, match: PlayedMatch, *, trusted: bool = False
) -> PlayedMatch:
    """Apply the record's commands that `match` (the record replayed part of the way, as a
    snapshot keeps it) has not taken yet; `trusted` as for `replay`."""
    return _play_on(record, match, None, start=len(match.commands), trusted=trusted)


def _play_on(
    record: MatchRecord,
    match: PlayedMatch,
    upto: int | None,
    start: int = 0,
    trusted: bool = False,
) -> PlayedMatch:
    rules = ruleset(record.ruleset)
    # A recorded command was accepted when it was played. One that carried a field its action
    # does not use (which releases before issue 28 took, in records of every version) replays
    # as it was played; only a new command is refused for such a field.
    live, match.unused_fields_allowed = match.unused_fields_allowed, True
    # Trusted only while replaying: the commands played next on the match are checked in full.
    match.trusted = trusted
    try:
        for position, data in enumerate(record.commands[start:upto], start=start + 1):
            try:
                match.apply(rules.parse_command(data))
            except RulesError as error:
                raise ReplayError(position, data, str(error)) from error
    finally:
        match.unused_fields_allowed = live
        match.trusted = False
    return match


def replay_rolled(
    record: MatchRecord, upto: int | None = None
) -> tuple[PlayedMatch, RecordingDice]:
    """Replay the record (its first `upto` commands if given), keeping every die rolled, each
    with what the seats held in secret just before it (`Ruleset.held_in_secret`, see `so_far`)."""
    dice = RecordingDice(dice_of(record))
    match = start_match(record, dice)
    rules = ruleset(record.ruleset)
    dice.watch = lambda: rules.held_in_secret(match.state)
    return _play_on(record, match, upto), dice


def faces_rolled(record: MatchRecord, upto: int | None = None) -> list[int]:
    """The faces the record's commands (the first `upto` of them if given) rolled, in order."""
    return replay_rolled(record, upto)[1].faces


def so_far(record: MatchRecord, hide: Iterable[int] | None = None) -> MatchRecord:
    """The record of a match in progress as it may be shown: its dice are the faces rolled so
    far (a script), never the key or seed, which tell every roll to come. Replaying it rebuilds
    the match so far exactly, and runs out of dice at the next roll.

    The squads in `hide` (those the asker does not play) keep their secondary objective of the
    turn secret while it is unrevealed: its draw is scripted as a 1, so in the replay that squad
    holds the first card it could draw instead. Nothing else changes: a card only acts at the end
    of its turn, when it scores (and is revealed) or goes back into the deck."""
    match, dice = replay_rolled(record)
    faces = dice.faces
    rules = ruleset(record.ruleset)
    for side in range(len(record.players)) if hide is None else hide:
        position = _secret_draw(rules, match, dice, side)
        if position is not None:
            faces[position] = 1
    # The commitment and salts stay (they are public); rolls and result are the end's.
    return replace(
        record, dice={"script": faces}, commands=list(record.commands), rolls=None, result=None
    )


def _secret_draw(rules: Ruleset, match: PlayedMatch, dice: RecordingDice, side: int) -> int | None:
    """Which roll drew what `side` holds in secret, if it is still unrevealed (Skirm: its
    secondary objective of this turn): the last roll before which the squad held nothing, and
    after which it held something (a draw starts by taking both squads' cards back; nothing
    else gives a squad a card)."""
    if not rules.keeps_secret(match.state, side):
        return None
    seen: list[object] = [roll.before for roll in dice.rolls] + [rules.held_in_secret(match.state)]
    for position in range(len(dice.rolls) - 1, -1, -1):
        before, after = seen[position], seen[position + 1]
        if (
            isinstance(before, tuple)
            and isinstance(after, tuple)
            and before[side] is None
            and after[side] is not None
        ):
            return position
    return None


def record_of(
    match: PlayedMatch,
    content: dict[str, Any],
    players: list[str] | None = None,
    ruleset: str = SKIRM,
) -> MatchRecord:
    """The record of a live match in `ruleset`: its content, dice and every accepted command
    (and, for salted dice, the commitment and both salts, without which they roll otherwise)."""
    record = MatchRecord(
        content=content,
        dice=match.dice.to_json(),
        commands=[command.to_json() for command in match.commands],
        players=players or ["Player 1", "Player 2"],
        ruleset=ruleset,
    )
    dice = match.dice.inner if isinstance(match.dice, RecordingDice) else match.dice
    if isinstance(dice, SaltedDice):
        commit_dice(record, dice.salts)
    return record


def content_of(
    map_data: dict[str, Any], mission_data: dict[str, Any], squads: list[dict[str, Any]]
) -> dict[str, Any]:
    return {"map": map_data, "mission": mission_data, "squads": squads}


__all__ = [
    "MatchRecord",
    "ReplayError",
    "replay",
    "replay_rolled",
    "revealed",
    "commit_dice",
    "add_salt",
    "dice_of",
    "faces_rolled",
    "so_far",
    "start_match",
    "record_of",
    "content_of",
    "Command",
]
