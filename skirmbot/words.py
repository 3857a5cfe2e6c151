"""Small English helpers for messages: counts with the right noun, possessives, and what a
player typed as quoted back; and the key a name is compared by.

Plain functions with no imports from the rest of skirmbot, so every layer can use them: the
rules' event texts, the service's replies, the cogs.
"""

from __future__ import annotations

import unicodedata


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


_HIDDEN = ("Cf", "Mn", "Me")  # format (zero-width) characters and combining marks


def name_key(name: str) -> str:
    """What two names must not share: the name as read, without case, zero-width characters
    or compatibility forms (so `Halden` and `HALDEN` or `Hal\u200bden` are the same name)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(char for char in folded if unicodedata.category(char) not in _HIDDEN)
