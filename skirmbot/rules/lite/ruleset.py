"""Skirm Lite behind the Ruleset interface (skirmbot.rules.ruleset)."""

from __future__ import annotations

from typing import Any, NoReturn

from skirmbot.rules.commands import Command, CommandTable
from skirmbot.rules.dice import Dice
from skirmbot.rules.lite import actions as lite_actions
from skirmbot.rules.lite import autoplayer
from skirmbot.rules.lite import preview as lite_preview
from skirmbot.rules.lite.commands import LITE_COMMANDS, Deploy
from skirmbot.rules.lite.engine import LiteMatch
from skirmbot.rules.lite.legal import legal_commands
from skirmbot.rules.lite.missions import mission_from_json
from skirmbot.rules.lite.squads import squad_from_json
from skirmbot.rules.lite.view import LITE as LITE_SKIN
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.medal import Medal
from skirmbot.rules.movement import Route
from skirmbot.rules.preview import Preview
from skirmbot.rules.ruleset import (
    CAMPAIGNS,
    HAND_ODDS,
    ORDERS,
    ActionRule,
    PlayedMatch,
    SquadSummary,
    lacking,
)
from skirmbot.rules.skirm import deciding as skirm_deciding
from skirmbot.rules.skirm.missions import Mission
from skirmbot.rules.skirm.ruleset import Skirm
from skirmbot.rules.skirm.squads import Squad
from skirmbot.rules.skirm.state import MatchState, UnitState
from skirmbot.rules.skirm.view import card_view
from skirmbot.rules.squares import Square, own_square
from skirmbot.rules.view import CardView, Decision, Position

# Lite rulebook: Basic Actions, Sentry Actions, Tactical Orders.
ACTION_RULES = [
    ActionRule("move", "Move", "1 ACT", "Move up to the Agent's MOV squares."),
    ActionRule("dash", "Dash", "1 ACT", "Move up to 2 squares, following the rules of a Move."),
    ActionRule("shoot", "Shoot", "1 ACT", "Fire a ranged weapon at a target in line of sight (HVY: 2 ACT with a Move)."),
    ActionRule("melee", "Melee", "1 ACT", "Attack an enemy Agent in an adjacent square."),
    ActionRule("door", "Open/Close Door", "1 ACT", "Open or close a door on an edge of the Agent's square."),
    ActionRule("pickup", "Pick Up", "1 ACT", "Pick up a marker in the Agent's square."),
    ActionRule("drop", "Drop", "1 ACT", "Drop the carried marker in the Agent's square."),
    ActionRule("revive", "Revive", "2 TO", "Revive an adjacent Downed squadmate: back with 1D3 HIT, counted as activated."),
    ActionRule("sentry", "Sentry Action", "free", "With fewer Agents in play and none left to activate: one free Melee, Shoot or Dash, once per Agent per turn."),
    ActionRule("reroll", "Re-roll", "1 TO", "Re-roll one of your dice."),
    ActionRule("modify", "Change a die", "1 TO", "Change one of your dice by +1 or -1."),
]  # fmt: skip


class Lite(Skirm):
    """Skirm Lite, "a simplified version of the full rulebook": Skirm's ruleset with Lite's
    match, squads, legal commands, actions and automatic player (as a python-chess variant
    keeps the standard board's interface)."""

    name = "lite"
    title = "Skirm Lite"
    rulebook = "001_50fd32b630dc62b8.txt"
    # /odds gives the preview's exact Lite odds (one source for both), not Skirm's fuller ones
    exact_odds = False
    # Lite has Tactical Orders but no campaigns; /odds by hand gives Skirm's odds (with a note)
    features = frozenset({ORDERS})

    def new_match(self, content: dict[str, Any], dice: Dice) -> LiteMatch:
        squads = self.squads_of(content)
        return LiteMatch(
            map_from_json(content.get("map")),
            mission_from_json(content.get("mission")),
            (
                # As accepted when the match began, so a saved match always replays.
                squad_from_json(squads[0], strict=False),
                squad_from_json(squads[1], strict=False),
            ),
            dice,
        )

    def check_squad(self, data: Any, ep_limit: int) -> SquadSummary:
        """Lite has no Equipment Points: `ep_limit` does not apply and the squad costs 0."""
        squad = squad_from_json(data)
        return SquadSummary(squad.name, len(squad.units), 0)

    def legal_commands(self, state: MatchState, side: int) -> list[Command]:
        return legal_commands(state, side)

    def routes(self, state: MatchState, unit: UnitState, action: str) -> dict[Square, Route]:
        """Lite rulebook Move (MOV squares) and Dash (2 squares)."""
        if not unit.on_map:
            return {}
        found = lite_actions.routes(state, unit, action)
        return {square: route for square, route in found.items() if square != unit.square}

    def action_rules(self) -> list[ActionRule]:
        return list(ACTION_RULES)

    def medals(self, match: PlayedMatch, side: int) -> dict[str, list[Medal]] | None:
        """Lite has no campaigns: no medals, no XP (Lite rulebook; our ruling)."""
        return None

    def placement(self, state: MatchState, side: int, placements: dict[str, str]) -> Command:
        """Lite has one set-up stage, the deployment (no Infiltrators)."""
        return Deploy(side, placements)

    def automatic_command(self, state: MatchState, side: int) -> Command:
        return autoplayer.choose(state, side)

    def automatic_placement(self, state: MatchState, side: int) -> Command:
        return autoplayer.deployment(state, side)

    def preview(self, state: MatchState, unit: str, where: Position | None = None) -> Preview:
        """Lite's reach (Move, Dash) and Lite's own attack odds, on a copy."""
        return lite_preview.preview(state, unit, own_square(where))

    command_types: CommandTable = LITE_COMMANDS

    def card(self, state: MatchState, unit: str) -> CardView:
        return card_view(state, unit, LITE_SKIN)

    def deciding(self, state: MatchState) -> tuple[Decision, ...]:
        """As in the full game: the side whose activation it is decides, alone."""
        return skirm_deciding.deciding(state)

    def load_mission(self, data: Any) -> Mission:
        return mission_from_json(data)

    def load_squad(self, data: Any, points_limit: int) -> Squad:
        """Lite has no Equipment Points: `points_limit` does not apply."""
        return squad_from_json(data)

    def campaign(self) -> NoReturn:
        """Lite has no campaigns (Lite rulebook; our ruling)."""
        raise lacking(self.title, CAMPAIGNS)

    def hand_dice(self) -> NoReturn:
        """/odds by hand knows only Skirm's combat."""
        raise lacking(self.title, HAND_ODDS)

    score_words = ("MP", "Mission Point")  # Lite's End of Turn scores them as Skirm does


RULESET = Lite()
