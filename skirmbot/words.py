"""Small English helpers for messages: counts with the right noun, possessives, and what a
player typed as quoted back.

Plain functions with no imports from the rest of skirmbot, so every layer can use them: the
rules' event texts, the service's replies, the cogs. Also how a name is read: two names that
must not be told apart (`name_key`), and a name as a person types it (`typed_key`, `named`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping


def ordinal(place: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th`, `11th`, `22nd`: a placing in a free-for-all."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """`1 excused miss`, `2 excused misses`, `0 extensions`: the count and its noun.

    The plural adds "es" after s, x, z, ch and sh ("miss" -> "misses"), else "s"; give
    `plural_form` for anything else ("medal" is fine, "activation" is fine, "die" -> "dice").
    """
    if count == 1:
        return f"{count} {singular}"
    if plural_form is None:
        plural_form = (
            f"{singular}es" if singular.endswith(("s", "x", "z", "ch", "sh")) else f"{singular}s"
        )
    return f"{count} {plural_form}"


def possessive(name: str) -> str:
    """`Ada's`, but `Iron Wardens'` (a name ending in s takes the apostrophe alone)."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


SHOWN = 40  # characters of a player's input quoted back in a message


def shown(text: str, limit: int = SHOWN) -> str:
    """What a player typed, as quoted back in a message: on one line and at most `limit`
    characters, cut with "…" (a 4,000-character option must not make the answer too long for
    Discord, nor fill the screen)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


HIDDEN = ("Cf", "Mn", "Me")  # format (zero-width) characters and combining marks


def name_key(name: str) -> str:
    """What two names must not share: the name as read, without case, zero-width characters
    or compatibility forms (so `Halden` and `HALDEN` or `Hal\u200bden` are the same name)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(char for char in folded if unicodedata.category(char) not in HIDDEN)


# Between the words of a name a person may type a space, a hyphen (as in the file name
# `bloody-crossroads`) or an underscore; an apostrophe they may leave out (`No Mans Land`).
_WORD_BREAK = re.compile(r"[\s_\-\u2010-\u2015\u2212]+")
_APOSTROPHES = re.compile(r"['\u2018\u2019\u02bc`]")


def typed_key(text: str) -> str:
    """A name as a person may type it (`name_key`), with its words apart by one space however
    they were separated and without apostrophes: `Bloody-Crossroads`, `bloody_crossroads`,
    ` BLOODY  crossroads` and `ｂｌｏｏｄｙ ｃｒｏｓｓｒｏａｄｓ` all read `bloody crossroads`."""
    return _WORD_BREAK.sub(" ", _APOSTROPHES.sub("", name_key(text))).strip()


def named(typed: str, spellings: Mapping[str, Iterable[str]]) -> str | None:
    """The key of `spellings` (a file name, a ruleset's key) one of whose spellings (the key
    itself, a display name) reads as `typed` does (`typed_key`); None if none does."""
    wanted = typed_key(typed)
    if not wanted:
        return None
    for key, names in spellings.items():
        if any(typed_key(name) == wanted for name in (key, *names)):
            return key
    return None


def target_label(name: str, distance: int, cover: bool) -> str:
    """A target, how far and whether in cover, as autocomplete lists it: "Vex (5 sq, in
    cover)"."""
    return f"{name} ({distance} sq{', in cover' if cover else ''})"


def number_choices(numbers: Iterable[int]) -> str:
    """Numbers a person may choose from, in words: "2", "3 or 4", "2 to 4", "2, 4 or 6"."""
    ordered = sorted(set(numbers))
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} to {ordered[-1]}"
    shown_numbers = [str(number) for number in ordered]
    if len(shown_numbers) < 2:
        return "".join(shown_numbers)
    return f"{', '.join(shown_numbers[:-1])} or {shown_numbers[-1]}"


def seats_words(title: str, seats: Iterable[int]) -> str:
    """Who plays a ruleset, as a refusal says it: "Skirm is played by 2 players"."""
    return f"{title} is played by {number_choices(seats)} players"
