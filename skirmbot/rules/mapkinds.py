"""The kinds of map a ruleset plays on: a grid of squares (the shared maps, `rules/maps.py`), or
a board of its own (the infantry rules' dots, `rules/infantry/maps.py`).

A map file may say its kind (`"board": "squares"` or `"dots"`); the square format had no such
field, and records made before it keep their maps as they were, so a file without one is read by
its shape: a board of dots has "dots", anything else is a map of squares. A ruleset states the
kind it plays on (`Ruleset.board`) and refuses any other in words, so a map never reaches rules
that cannot play it.
"""

from __future__ import annotations

from typing import Any

from skirmbot.rules.errors import ContentError

SQUARES = "squares"
DOTS = "dots"
KINDS = (SQUARES, DOTS)

# How a kind is said of a ruleset ("plays on maps of squares") and of one map ("a map of squares").
PLAYED_ON = {SQUARES: "maps of squares", DOTS: "boards of dots"}
ONE_OF = {SQUARES: "a map of squares", DOTS: "a board of dots"}


def kind_of(data: Any) -> str:
    """The kind of map a file's data is: its "board" when it says one, else read by its shape;
    ContentError in words for a kind no ruleset plays on."""
    if not isinstance(data, dict):
        raise ContentError(
            'A map file must hold a JSON object, such as {"name": ..., "rows": [...]}.'
        )
    said = data.get("board")
    if said is None:
        return DOTS if "dots" in data else SQUARES
    if said not in KINDS:
        raise ContentError(
            f'A map\'s \'board\' is "{SQUARES}" (a grid of squares) or "{DOTS}" (a board of '
            f"dots), not {str(said)[:40]!r}."
        )
    return str(said)


def check_kind(title: str, plays_on: str, data: Any) -> None:
    """Refuse, in words, a map of another kind than the ruleset (`title`) plays on: "Skirmishers
    plays on boards of dots; Foundry is a map of squares."."""
    kind = kind_of(data)
    if kind != plays_on:
        name = str(data.get("name") or "this map").strip()[:64]
        raise ContentError(f"{title} plays on {PLAYED_ON[plays_on]}; {name} is {ONE_OF[kind]}.")
