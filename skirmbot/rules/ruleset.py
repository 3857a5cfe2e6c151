"""Rulesets: the small interface a rulebook's engine offers the rest of skirmbot.

Skirm (full rules) is the first and default ruleset; Skirm Lite and the other rulebooks in
shared/rules/ will register here beside it. The service layer, the record and the automatic
player reach a ruleset only through this interface.
"""

from __future__ import annotations

from typing import Any, Protocol

from skirmbot.rules.commands import Command, command_from_json
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.legal import legal_commands
from skirmbot.rules.skirm.missions import mission_from_json
from skirmbot.rules.skirm.squads import squad_from_json
from skirmbot.rules.skirm.state import MatchState


class Ruleset(Protocol):
    name: str

    def new_match(self, content: dict[str, Any], dice: Dice) -> Match:
        """A match before deployment, from content as in the record: map, mission, two squads."""
        ...

    def parse_command(self, data: Any) -> Command: ...

    def apply(self, match: Match, command: Command) -> list[Event]: ...

    def legal_commands(self, state: MatchState, side: int) -> list[Command]: ...

    def scores(self, state: MatchState) -> tuple[int, int]:
        """Each squad's Mission Points now."""
        ...


class Skirm:
    name = "skirm"

    def new_match(self, content: dict[str, Any], dice: Dice) -> Match:
        squads = content.get("squads")
        if not isinstance(squads, list) or len(squads) != 2:
            raise RulesError("A match needs exactly two squads.")
        mission = mission_from_json(content.get("mission"))
        return Match(
            map_from_json(content.get("map")),
            mission,
            (
                # The squads as accepted when the match began: a record saved before squad
                # files' names and keys were checked still replays.
                squad_from_json(squads[0], mission.ep_limit, strict=False),
                squad_from_json(squads[1], mission.ep_limit, strict=False),
            ),
            dice,
        )

    def parse_command(self, data: Any) -> Command:
        return command_from_json(data)

    def apply(self, match: Match, command: Command) -> list[Event]:
        return match.apply(command)

    def legal_commands(self, state: MatchState, side: int) -> list[Command]:
        return legal_commands(state, side)

    def scores(self, state: MatchState) -> tuple[int, int]:
        return state.squads[0].mp, state.squads[1].mp


RULESETS: dict[str, Ruleset] = {Skirm.name: Skirm()}
DEFAULT_RULESET = Skirm.name


def ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise RulesError(
            f"There is no ruleset '{name}'; available: {', '.join(RULESETS)}."
        ) from None
