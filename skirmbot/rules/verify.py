"""Dice anyone can verify (issue 21): what the bot posts about a match's dice, and the check of
an exported record that `skirmbot verify` runs.

The scheme (skirmbot.rules.dice, `SaltedDice`): at the start the bot posts the commitment,
SHA-256 of the match's secret seed; each player's salt is posted when it is fixed (at
/match new and /match join); the dice are HMAC-SHA256 of the seed and every player's salt (both
salts, with two players); at the end
the record reveals the seed. `verify` checks, in this order, and names what does not match:

1. the seed hashes to the commitment (and, when the user gives it, the commitment is the one
   they saw posted);
2. each salt matches its seal (SHA-256 of the commitment, the squad's number, the salt and the
   player's name, made when the salt was fixed), so a changed salt or name is named as such and
   not as changed dice; when the seed does not hash to the commitment, the seals tell which of
   the two was changed (they were made with the commitment the bot posted);
3. with the seed and salts sound, the record is replayed with the dice they give: every die
   must be the one recorded, in order, and the replay must end with the recorded result.

Everything here is pure: a record in, words out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skirmbot.rules.dice import commitment_of, seal_of
from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import MatchRecord, ReplayError, replay_rolled
from skirmbot.rules.ruleset import ruleset
from skirmbot.words import plural

SHOWN_MISMATCHES = 5  # the changed dice named one by one; more are counted


@dataclass
class Verdict:
    """What `verify` found: the checks that held and the things that do not match."""

    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(record: MatchRecord, posted: str | None = None) -> Verdict:
    """Check an exported record's dice against its commitment and salts and replay it;
    `posted`: the commitment the user saw the bot post, to hold the record's against."""
    verdict = Verdict()
    if not _verifiable(record, verdict):
        return verdict
    assert record.commitment is not None and record.salts is not None
    seed_sound, sealed_with = _check_seed(record, posted, verdict)
    salts_sound = _check_salts(record, sealed_with, verdict)
    if not (seed_sound and salts_sound):
        verdict.problems.append(
            "The rolls and the result were not checked: they come from the seed and the salts."
        )
        return verdict
    _check_rolls_and_result(record, verdict)
    return verdict


def _verifiable(record: MatchRecord, verdict: Verdict) -> bool:
    """Whether the record holds what a check needs; else why not, as the verdict's problem."""
    if record.commitment is None or record.salts is None or record.seals is None:
        verdict.problems.append(
            "This record has no commitment to its dice: its match was played before verifiable "
            "dice, or with a fixed seed (tests and demos), so there is nothing to check its "
            "dice against."
        )
        return False
    if not all(record.content.get("squads") or [None]):
        verdict.problems.append(
            "This match was called off in set-up, before both squads were in: no die was "
            "rolled, so there are no dice to check."
        )
        return False
    if not isinstance(record.dice.get("key"), str):
        verdict.problems.append(
            "This record does not reveal its seed: it is the record of a match still in play "
            "(its dice are the faces rolled so far). The seed is in the record once the match "
            "is over: export it then."
        )
        return False
    if record.rolls is None:
        verdict.problems.append(
            "This record lists no rolls to check: export the record of the match once it is "
            "over (/match export, or the match page's record)."
        )
        return False
    return True


def _check_seed(record: MatchRecord, posted: str | None, verdict: Verdict) -> tuple[bool, str]:
    """Whether the seed hashes to the commitment (and the one given); and the commitment the
    salts' seals are to be checked with: the record's, or SHA-256 of the seed when the seals
    show that it is the commitment that was changed."""
    commitment = str(record.commitment)
    sound = True
    if posted is not None and posted.strip().lower() != commitment.lower():
        verdict.problems.append(
            f"The record's commitment {commitment} is not the one you give ({posted.strip()}): "
            "the commitment in the record was changed, or the record is of another match."
        )
        sound = False
    try:
        hashed = commitment_of(str(record.dice["key"]))
    except RulesError as error:
        verdict.problems.append(f"The revealed seed is not a seed the bot makes: {error}")
        return False, commitment
    if hashed != commitment.lower():
        if _seals_fit(record, hashed) and not _seals_fit(record, commitment):
            verdict.problems.append(
                f"The record's commitment {commitment} is not the SHA-256 of its seed "
                f"({hashed}), with which the salts were sealed: the commitment was changed."
            )
            return False, hashed
        which = (
            "the seed was changed"
            if _seals_fit(record, commitment)
            else ("the seed or the commitment was changed")
        )
        verdict.problems.append(
            "The revealed seed does not hash to the commitment posted at the start (the "
            f"commitment is {commitment}; SHA-256 of the seed is {hashed}): {which}."
        )
        return False, commitment
    if sound:
        also = " and is the one you give" if posted is not None else ""
        verdict.checked.append(
            f"The revealed seed hashes to the commitment posted at the start ({commitment}){also}."
        )
    return sound, hashed  # (the commitment as the bot writes it, in lower case)


def _sealed(record: MatchRecord, commitment: str, side: int) -> bool:
    """Whether `side`'s salt matches its seal made with `commitment` (and the player's name;
    the first version-3 records sealed without it)."""
    assert record.salts is not None and record.seals is not None
    salt, seal = record.salts[side], record.seals[side]
    if salt is None:
        return False
    name = record.players[side] if side < len(record.players) else ""
    return seal in (seal_of(commitment, side, salt, name), seal_of(commitment, side, salt))


def _seals_fit(record: MatchRecord, commitment: str) -> bool:
    """Whether every salt matches its seal made with `commitment`."""
    assert record.salts is not None
    return all(_sealed(record, commitment, side) for side in range(len(record.salts)))


def _check_salts(record: MatchRecord, commitment: str, verdict: Verdict) -> bool:
    assert record.salts is not None and record.seals is not None
    sound = True
    for side, salt in enumerate(record.salts):
        who = _player(record, side)
        if salt is None:
            verdict.problems.append(
                f"The salt of {who} is missing: no die can be rolled without it."
            )
            sound = False
        elif not _sealed(record, commitment, side):
            verdict.problems.append(
                f"The salt of {who[:40]} (recorded as {salt[:40]!r}) does not match its seal, "
                "made with the salt and the player's name when the salt was posted: the salt "
                "or the player's name (or the seal) was changed."
            )
            sound = False
    if sound:
        salts = ", ".join(
            f"{_player(record, side)}: {salt}" for side, salt in enumerate(record.salts)
        )
        verdict.checked.append(f"{_all_salts(record).capitalize()} match their seals ({salts}).")
    return sound


def _check_rolls_and_result(record: MatchRecord, verdict: Verdict) -> None:
    recorded = list(record.rolls or [])
    try:
        match, dice = replay_rolled(record)
    except ReplayError as error:
        command: object = error.command
        kind = command.get("type", "?") if isinstance(command, dict) else "not an object"
        verdict.problems.append(
            f"With the dice the seed and salts give, command {error.position} "
            f"({kind}) cannot be played: {error.reason} The record's "
            "commands or dice were changed."
        )
        return
    derived = dice.faces
    changed = [
        index for index, (was, is_) in enumerate(zip(recorded, derived, strict=False)) if was != is_
    ]
    for index in changed[:SHOWN_MISMATCHES]:
        verdict.problems.append(
            f"Roll {index + 1} is recorded as {recorded[index]}, but the seed and salts give "
            f"{derived[index]}."
        )
    if len(changed) > SHOWN_MISMATCHES:
        more = len(changed) - SHOWN_MISMATCHES
        verdict.problems.append(f"And {plural(more, 'more roll')} differ from what the seed and salts give.")  # fmt: skip
    if len(recorded) != len(derived):
        verdict.problems.append(
            f"The record lists {plural(len(recorded), 'roll')}, but its commands roll "
            f"{len(derived)} with the seed and salts."
        )
    if not changed and len(recorded) == len(derived):
        verdict.checked.append(
            f"All {plural(len(derived), 'roll')} of the match, derived again from the seed and "
            f"{_all_salts(record)}, are the ones recorded, in order."
        )
    replayed = ruleset(record.ruleset).recorded_result(match.state)
    if replayed != record.result:
        verdict.problems.append(
            f"The recorded result ({_result_words(record, record.result)}) is not the "
            f"replay's ({_result_words(record, replayed)}): the result (or a command) was "
            "changed."
        )
    else:
        verdict.checked.append(
            f"Replayed with those dice, the match ends as recorded: {_result_words(record, replayed)}."
        )


def _player(record: MatchRecord, side: int) -> str:
    name = record.players[side] if side < len(record.players) else ""
    return name or f"squad {side + 1}"


def _result_words(record: MatchRecord, result: object) -> str:
    if not isinstance(result, dict):
        return "no result: the match was called off"
    winner, reason = result.get("winner"), result.get("reason", "")
    who = f"{_player(record, winner)} wins" if isinstance(winner, int) and winner >= 0 else "a draw"
    return f"{who} ({reason.rstrip('.')})" if reason else who


# --- what the bot posts ----------------------------------------------------------------------
def commitment_words(record: MatchRecord) -> str | None:
    """The opening message's line about the dice (None: the match has no commitment)."""
    if record.commitment is None or record.salts is None:
        return None
    salts = [
        f"{_player(record, side)}'s salt is {salt}"
        for side, salt in enumerate(record.salts)
        if salt is not None
    ]
    return (
        f"Dice: the commitment to this match's secret seed is SHA-256 {record.commitment}. "
        f"{'; '.join(salts)}{_salts_to_come(record)}. The dice come from the seed and "
        f"{_all_salts(record)}; the seed is revealed when the match ends."
    )


def salt_words(record: MatchRecord, side: int) -> str | None:
    """The join message's line: the player's salt, and that the dice are now fixed."""
    if record.salts is None or record.salts[side] is None:
        return None
    both = ", ".join(
        f"{_player(record, other)} {salt}" for other, salt in enumerate(record.salts) if salt
    )
    salt = f"{_player(record, side)}'s salt is {record.salts[side]}."
    if None in record.salts:  # a match of more than two with a seat still open
        return f"{salt} The dice are fixed when every player's salt is in ({both} so far)."
    return (
        f"{salt} The dice are now fixed by the committed seed and {_all_salts(record)} "
        f"({both}): neither the bot nor a player chose them alone."
    )


def _all_salts(record: MatchRecord) -> str:
    """The salts the dice come from, in words: two players' words kept since issue 21."""
    assert record.salts is not None
    return "both salts" if len(record.salts) == 2 else "every player's salt"


def _salts_to_come(record: MatchRecord) -> str:
    """What the opening message says of the salts still to come (none: "")."""
    assert record.salts is not None
    if None not in record.salts:
        return ""
    if len(record.salts) == 2:
        return "; the second salt comes when the opponent joins"
    return "; the others come as the players join"


def reveal_words(record: MatchRecord) -> str | None:
    """The end message's line: where the seed is revealed and how to check it."""
    if record.commitment is None:
        return None
    return (
        "Dice: the secret seed is revealed in the record (/match export). "
        "`skirmbot verify` on that file checks it against the commitment "
        f"{record.commitment}, derives every die again and replays the match."
    )
