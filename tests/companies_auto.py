"""Matches of the group rules played from the shipped content by automatic players, for the
property and whole-match tests: a Company per seat that fits one seat's points, a map, a
scenario, seeded dice."""

from __future__ import annotations

from typing import Any

from skirmbot import content
from skirmbot.rules.commands import Command
from skirmbot.rules.companies.engine import CompaniesMatch
from skirmbot.rules.companies.profiles import with_catalogue
from skirmbot.rules.companies.ruleset import RULESET
from skirmbot.rules.dice import SeededDice
from skirmbot.rules.record import content_of

RULES = "companies"
# Companies by the points one seat may field: 24 in 1 v 1, 12 each in 2 v 2, 8 each in 3 v 3.
COMPANIES = {
    2: ("hill-wardens", "river-guard", "ash-raiders", "grey-covenant"),
    4: ("ember-circle", "iron-lances", "red-hounds", "thornwatch"),
    6: ("lone-lance", "shield-oath", "wild-hunt", "wild-hunt", "lone-lance", "shield-oath"),
}
SCENARIOS = ("clash", "hold-the-field", "breakthrough")
MAPS = ("foundry", "ruined-chapel")
MOST_COMMANDS = 3000  # a 6-round match takes a few hundred; this only catches a loop


def match_content(
    seats: int, scenario: str = "clash", map_name: str = "foundry", shift: int = 0
) -> dict[str, Any]:
    """The content of a match of `seats` players: shipped Companies (taken in turn from
    `shift`), map and scenario, with the catalogue as a record keeps it."""
    names = COMPANIES[seats]
    squads = [content.raw("squads", names[(shift + n) % len(names)], RULES) for n in range(seats)]
    data = content_of(
        content.raw("maps", map_name), content.raw("missions", scenario, RULES), squads
    )
    return with_catalogue(data)


def deployed(data: dict[str, Any], seed: int) -> CompaniesMatch:
    """The match with every Company deployed by the automatic player."""
    match = RULESET.new_match(data, SeededDice(seed))
    for seat in range(len(data["squads"])):
        match.apply(RULESET.automatic_placement(match.state, seat))
    return match


def automatic(match: CompaniesMatch) -> Command | None:
    """What the first seat that must decide sends (None: nobody must: the match is over)."""
    deciding = RULESET.deciding(match.state)
    if not deciding:
        return None
    return RULESET.automatic_command(match.state, deciding[0].side)


def play_out(match: CompaniesMatch) -> None:
    for _ in range(MOST_COMMANDS):
        command = automatic(match)
        if command is None:
            return
        match.apply(command)
    raise AssertionError(f"the match did not end within {MOST_COMMANDS} commands")
