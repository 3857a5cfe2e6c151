"""Dice sources: every die the engine rolls comes from one of these, never from global random.

- A keyed source (`{"key": HEX}`, every new match) draws each face from HMAC-SHA256 of a secret
  256-bit key and the roll's number: the same key gives the same faces on every machine, and
  without the key no number of faces seen tells anything about the next one (a keyed hash is a
  pseudorandom function). The key stays secret until the match is over (rulings: Fair play).
- A seeded source (`{"seed": N}`, the matches and demos from before keys, and `--seed`) uses
  random.Random, stable across Python versions. Its seeds were below 2**31 and the Mersenne
  Twister is not a secret: a few faces pin the seed down, so it is kept for replaying old
  records and for tests, never for a new match whose future rolls must stay unknown.
- A scripted source (`{"script": [faces]}`) gives exact faces: tests, and an export taken before
  the end, which holds the faces rolled so far and nothing more.
- A salted source (`SaltedDice`, every new match since issue 21) is a keyed source whose HMAC
  key is derived from the secret key (the match's "seed") and one salt per player:
  HMAC-SHA256(seed, "skirmbot dice" + both salts). The bot posts SHA-256(seed), the commitment,
  when the match is created, and each salt when it is fixed; the seed is revealed at the end.
  Neither the operator (who cannot change the seed once committed, nor know the salt to come)
  nor a player (who does not know the seed) chooses the dice alone. The record keeps its dice
  as `{"key": HEX}` and the commitment, salts and their seals beside them
  (skirmbot.rules.record, skirmbot.rules.verify).

`RecordingDice` wraps any of them and keeps every face it gave, in order (the export's script).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from skirmbot.rules.errors import RulesError
from skirmbot.words import plural

KEY_BYTES = 32  # a new match's dice key: 256 bits from the operating system's randomness
MIN_KEY_BYTES = 16  # a record's key must have at least 128 bits
SALT_LENGTH = 32  # a player's salt: at most this many characters...
SALT_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-_.")  # ...of these
SALT_BYTES = 8  # a salt the bot makes: 16 hexadecimal digits


class DiceExhausted(RulesError):
    """A scripted dice list ran out: the test or record did not script enough faces."""


class Dice(Protocol):
    def roll(self, sides: int = 6) -> int:
        """One die with `sides` faces, 1..sides."""
        ...

    def to_json(self) -> dict[str, object]:
        """How to build this source again from the start (for the match record)."""
        ...


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll(self, sides: int = 6) -> int:
        return self._random.randint(1, sides)

    def to_json(self) -> dict[str, object]:
        return {"seed": self.seed}


class ScriptedDice:
    """Faces in the order they will be rolled; a D3 face is scripted as 1-3 directly."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self._next = 0

    def roll(self, sides: int = 6) -> int:
        if self._next >= len(self.faces):
            raise DiceExhausted(
                f"The scripted dice ran out after {plural(len(self.faces), 'face')}."
            )
        face = self.faces[self._next]
        self._next += 1
        if not 1 <= face <= sides:
            raise DiceExhausted(f"Scripted face {face} cannot come up on a D{sides}.")
        return face

    @property
    def remaining(self) -> int:
        return len(self.faces) - self._next

    def to_json(self) -> dict[str, object]:
        return {"script": list(self.faces)}


class KeyedDice:
    """Faces from a secret key: roll number n is HMAC-SHA256(key, "n.attempt") read as a 64-bit
    number, kept when it falls in a whole number of `sides` (else the next attempt: fewer than
    one draw in 10**17 is thrown away) and reduced to 1..sides."""

    def __init__(self, key: str) -> None:
        self.key = key
        self._secret = key_bytes(key)
        self._count = 0

    def roll(self, sides: int = 6) -> int:
        return self._draw(self._secret, sides)

    def _draw(self, secret: bytes, sides: int) -> int:
        if sides < 1:
            raise RulesError(f"A die needs at least one face, not {sides}.")
        limit = 2**64 - 2**64 % sides
        attempt = 0
        while True:
            message = f"{self._count}.{attempt}".encode()
            digest = hmac.new(secret, message, hashlib.sha256).digest()
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                self._count += 1
                return value % sides + 1
            attempt += 1

    def to_json(self) -> dict[str, object]:
        return {"key": self.key}


class SaltedDice(KeyedDice):
    """Keyed dice whose HMAC key comes from the secret key and every player's salt
    (`salted_key`). No die is rolled while a salt is missing: the dice are not fixed yet."""

    def __init__(self, key: str, salts: Sequence[str | None]) -> None:
        super().__init__(key)
        self.salts = list(salts)
        self._salted = (
            salted_key(key, [salt for salt in self.salts if salt is not None])
            if len(self.salts) >= 2 and None not in self.salts
            else None
        )

    def roll(self, sides: int = 6) -> int:
        if self._salted is None:
            raise RulesError(unsalted_words(len(self.salts)))
        return self._draw(self._salted, sides)

    def to_json(self) -> dict[str, object]:
        return {"key": self.key}  # the salts are kept in the record beside the dice


def salted_key(key: str, salts: Sequence[str]) -> bytes:
    """The dice's HMAC key: HMAC-SHA256 of the seed and the salts in seat order, one a line (a
    salt holds no line break, so two lists of salts never give the same text; two seats give
    the bytes of every record made before matches had more)."""
    text = "\n".join(["skirmbot dice", *salts]).encode()
    return hmac.new(key_bytes(key), text, hashlib.sha256).digest()


def unsalted_words(seats: int) -> str:
    """Why no die rolls yet: a salt is missing (a seat not joined yet)."""
    if seats == 2:  # the words of two-player matches since issue 21
        return (
            "No die can be rolled before both players' salts are fixed: the second player "
            "has not joined yet."
        )
    return "No die can be rolled before every player's salt is fixed: a seat is still open."


def commitment_of(key: str) -> str:
    """What the bot posts at the start: SHA-256 of the seed's bytes, in hexadecimal (the same
    as `echo -n KEY | xxd -r -p | sha256sum`)."""
    return hashlib.sha256(key_bytes(key)).hexdigest()


def seal_of(commitment: str, side: int, salt: str, player: str | None = None) -> str:
    """A salt's seal, kept with it in the record: SHA-256 of the commitment, the squad's number,
    the salt and the name of the player who fixed it. A salt or a name changed in a record no
    longer matches its seal, so `skirmbot verify` tells them apart from a changed die. (`player`
    None: the seals of the first version-3 records, made without the name, which still verify.)"""
    text = f"skirmbot salt\n{commitment}\n{side + 1}\n{salt}"
    if player is not None:
        text += f"\n{player}"
    return hashlib.sha256(text.encode()).hexdigest()


def new_salt() -> str:
    """A salt the bot makes for a player who gave none (and for the automatic player)."""
    return secrets.token_hex(SALT_BYTES)


def check_salt(text: str) -> str:
    """A salt a player typed, without surrounding blanks; RulesError saying what a salt may be."""
    salt = text.strip()
    if not 1 <= len(salt) <= SALT_LENGTH or not set(salt) <= SALT_CHARACTERS:
        raise RulesError(
            f"A salt is 1 to {SALT_LENGTH} characters: letters, digits, '-', '_' and '.' "
            "(such as dragon-42); leave it out and the bot makes one for you."
        )
    return salt


def key_bytes(key: object) -> bytes:
    """A record's dice key: hexadecimal, at least MIN_KEY_BYTES bytes."""
    try:
        secret = bytes.fromhex(key) if isinstance(key, str) else b""
    except ValueError:
        secret = b""
    if len(secret) < MIN_KEY_BYTES:
        raise RulesError(
            f"The record's dice key must be at least {MIN_KEY_BYTES * 2} hexadecimal digits."
        )
    return secret


def new_dice() -> dict[str, object]:
    """The dice of a new match: a fresh secret key."""
    return {"key": secrets.token_hex(KEY_BYTES)}


@dataclass(frozen=True, slots=True)
class Roll:
    """One die as rolled: its faces, what came up, and what the watcher saw just before."""

    sides: int
    face: int
    before: object = None


class RecordingDice:
    """Another source's dice, each roll kept (`rolls`, `faces`). `watch`, when set, is called
    before every roll and what it returns kept with the roll (who held what just then)."""

    def __init__(self, inner: Dice, watch: Callable[[], object] | None = None) -> None:
        self.inner = inner
        self.watch = watch
        self.rolls: list[Roll] = []

    def roll(self, sides: int = 6) -> int:
        before = self.watch() if self.watch is not None else None
        face = self.inner.roll(sides)
        self.rolls.append(Roll(sides, face, before))
        return face

    @property
    def faces(self) -> list[int]:
        return [roll.face for roll in self.rolls]

    def to_json(self) -> dict[str, object]:
        return self.inner.to_json()


def dice_from_json(data: dict[str, object]) -> Dice:
    """Build the dice source a record names: {"key": HEX}, {"seed": N} or {"script": [faces]}."""
    if "key" in data:
        key = data["key"]
        return KeyedDice(key if isinstance(key, str) else "")
    if "seed" in data and isinstance(data["seed"], int):
        return SeededDice(data["seed"])
    script = data.get("script")
    if isinstance(script, list) and all(isinstance(face, int) for face in script):
        return ScriptedDice(script)
    raise RulesError('The record\'s dice must be {"key": HEX}, {"seed": N} or {"script": [faces]}.')
