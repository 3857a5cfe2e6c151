"""Names read from a file a player gives (a squad's units and weapons, a map), checked the same
way wherever they come from: 1 to a limit of visible characters, on one line, with no invisible
character inside, so that a player can read the name and type it back.

A ruleset adds its own rules on top (Skirm's unit names must not read like a square, and must
not hold the separators its commands use: skirmbot.rules.skirm.cards.check_name)."""

from __future__ import annotations

import unicodedata
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.words import HIDDEN, shown

LINE_BREAKING = ("Cc", "Zl", "Zp")  # control characters, line and paragraph separators


def trimmed(text: str) -> str:
    """The text without blanks and zero-width characters at either end."""
    start, end = 0, len(text)
    while start < end and _blank(text[start]):
        start += 1
    while end > start and _blank(text[end - 1]):
        end -= 1
    return text[start:end]


def _blank(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) in ("Cf", *LINE_BREAKING)


def visible_length(text: str) -> int:
    """How many characters of `text` show: zero-width characters and combining marks don't."""
    return sum(1 for char in text if unicodedata.category(char) not in HIDDEN)


def shown_name(text: str) -> str:
    """The name as quoted in an error: its invisible characters shown as U+FFFD, cut short
    like anything a player typed (`words.shown`)."""
    printable = "".join(
        char if unicodedata.category(char) not in (*HIDDEN, *LINE_BREAKING) else "\ufffd"
        for char in text
    )
    return shown(printable)


def check_text_name(value: Any, label: str, what: str, limit: int) -> str:
    """The name trimmed and NFC-normalised, or ContentError in words: not a text, nothing
    visible, a line break or control character, an invisible character inside, longer than
    `limit` visible characters. `label` says whose name it is; `what` what the name is."""
    if not isinstance(value, str):
        raise ContentError(f"{label}: the {what} must be a text, not {shown(repr(value))}.")
    name = unicodedata.normalize("NFC", trimmed(value))
    if not any(not char.isspace() and unicodedata.category(char) not in HIDDEN for char in name):
        raise ContentError(
            f"{label}: the {what} has no visible characters; "
            f"give it 1 to {limit} letters, digits or signs."
        )
    if any(unicodedata.category(char) in LINE_BREAKING for char in name):
        raise ContentError(
            f"{label}: the {what} '{shown_name(name)}' holds a line break or control character; "
            "write it on one line."
        )
    hidden = next((char for char in name if unicodedata.category(char) == "Cf"), None)
    if hidden is not None:
        raise ContentError(
            f"{label}: the {what} '{shown_name(name)}' holds an invisible character "
            f"(U+{ord(hidden):04X}); players could not type it. Remove it."
        )
    length = visible_length(name)
    if length > limit or len(name) > 2 * limit:
        raise ContentError(
            f"{label}: the {what} '{shown_name(name)}' is {max(length, len(name))} characters "
            f"long; a {what} has 1 to {limit} visible characters."
        )
    return name


__all__ = ["LINE_BREAKING", "check_text_name", "shown_name", "trimmed", "visible_length"]
