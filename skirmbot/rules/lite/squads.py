"""Skirm Lite squad files (Lite rulebook Game Cycle: Select Squad; Squads and Agents).

A Lite squad file is `{"name", "description", "agents": [...]}`; each Agent as in
`lite/cards.py`. Lite has no Equipment Points and names no squad building rules, so our rulings
(docs/rulings.md, Skirm Lite) keep only what play needs: 1 to 12 Agents with names of their own.
The squad is Skirm's `Squad`, so the match state holds it as for Skirm.
"""

from __future__ import annotations

from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.lite.cards import agent_from_json
from skirmbot.rules.skirm.cards import check_keys, read_name, reads_like_square, valid_name
from skirmbot.rules.skirm.squads import MAX_UNITS, MIN_UNITS, Squad, check_unique_names

SQUAD_KEYS = ("name", "description", "agents")


def squad_from_json(data: Any, *, strict: bool = True) -> Squad:
    """Read a Lite squad file; ContentError says what is wrong in plain words. Not `strict`:
    as a match record holds it (accepted when the match began)."""
    if not isinstance(data, dict):
        raise ContentError("A squad must be an object with a 'name' and a list of 'agents'.")
    shown = valid_name(data.get("name"), commands=False)
    if strict:
        check_keys(data, SQUAD_KEYS, f"Squad '{shown}'" if shown else "The squad file", "a squad")
    if "name" not in data:
        raise ContentError("The squad needs a 'name'.")
    name = read_name(data["name"], "The squad file", "squad name", strict=strict, commands=False)
    if strict and reads_like_square(name):
        raise ContentError(
            f"The squad file: the squad name '{name}' reads like a square of the map; "
            "choose another name."
        )
    if not isinstance(data.get("description", ""), str):
        raise ContentError(f"Squad {name}: 'description' must be a text.")
    raw = data.get("agents")
    if not isinstance(raw, list) or not raw:
        raise ContentError(f"Squad {name}: 'agents' must list the squad's agents.")
    squad = Squad(
        name,
        tuple(
            agent_from_json(item, f"Squad {name}", n, strict) for n, item in enumerate(raw, start=1)
        ),
    )
    check_building_rules(squad)
    return squad


def check_building_rules(squad: Squad) -> None:
    """1 to 12 Agents, each with a name of its own (our ruling: Lite sets no other limit)."""
    where = f"Squad {squad.name}"
    if not MIN_UNITS <= len(squad.units) <= MAX_UNITS:
        raise ContentError(
            f"{where} has {len(squad.units)} agents; a squad has {MIN_UNITS} to {MAX_UNITS}."
        )
    check_unique_names(squad, where)
