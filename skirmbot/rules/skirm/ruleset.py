"""Skirm (the full rules) behind the Ruleset interface (skirmbot.rules.ruleset)."""

from __future__ import annotations

from typing import Any

from skirmbot.rules.board import Board
from skirmbot.rules.commands import Command, CommandTable, command_from_json
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.frozen import PickledMatches
from skirmbot.rules.mapkinds import SQUARES, check_kind
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.medal import Medal
from skirmbot.rules.movement import Route
from skirmbot.rules.preview import Preview
from skirmbot.rules.ruleset import (
    CAMPAIGNS,
    HAND_ODDS,
    ORDERS,
    ActionRule,
    Outcome,
    PlayedMatch,
    SetUpStage,
    SquadSummary,
    seats_of_their_own,
)
from skirmbot.rules.skirm import autoplayer, secrets, undo
from skirmbot.rules.skirm import deciding as skirm_deciding
from skirmbot.rules.skirm import preview as skirm_preview
from skirmbot.rules.skirm.campaign import CAMPAIGN, SkirmCampaign
from skirmbot.rules.skirm.choices import SkirmChoices
from skirmbot.rules.skirm.commands import SKIRM_COMMANDS, Deploy, Infiltrate
from skirmbot.rules.skirm.deployment import placement_help, set_up_stage
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.hand_odds import HAND_DICE, SkirmHandDice
from skirmbot.rules.skirm.legal import legal_commands, reachable_squares
from skirmbot.rules.skirm.medals import squad_medals
from skirmbot.rules.skirm.missions import Mission, check_map_fits, mission_from_json
from skirmbot.rules.skirm.squads import Squad, squad_from_json
from skirmbot.rules.skirm.state import MatchState, UnitState
from skirmbot.rules.skirm.view import SKIRM as SKIRM_SKIN
from skirmbot.rules.skirm.view import card_view, match_view
from skirmbot.rules.squares import Square, own_square
from skirmbot.rules.view import CardView, Decision, MatchView, Position

# Rulebook: Basic Actions, Leap (LPx), Skills, Mission Actions, Items, Tactical Orders.
ACTION_RULES = [
    ActionRule("move", "Move", "1 ACT", "Move up to 3 squares; each repeat in one activation costs 1 ACT more."),
    ActionRule("dash", "Dash/Crawl", "1 ACT", "Move up to 1 square."),
    ActionRule("leap", "Leap", "2 ACT", "LPx units jump up to x squares in a straight line."),
    ActionRule("shoot", "Ranged Attack", "1 ACT", "Attack a target 2+ squares away in sight and range."),
    ActionRule("melee", "Melee Attack", "1 ACT", "Attack an enemy in an adjacent square."),
    ActionRule("door", "Open/Close Door", "1 ACT", "Open or close a door on an edge of the unit's square."),
    ActionRule("pick_up", "Pick Up", "1 ACT", "Pick up a marker in the unit's square."),
    ActionRule("drop", "Drop", "1 ACT", "Drop the carried marker in the unit's square."),
    ActionRule("crate", "Open Crate", "1 ACT", "Open the crate in the unit's square and take one of its options."),
    ActionRule("turret", "Use Turret", "1 ACT", "Fire the turret in the unit's square."),
    ActionRule("skill", "Skill", "as listed", "Use a skill from the unit's card."),
    ActionRule("mission", "Mission Action", "as listed", "An action the mission defines (TCH: 1 ACT less once)."),
    ActionRule("delay", "Delay", "free", "The squad with 2+ fewer units lets the other activate twice, once per turn."),
    ActionRule("reroll", "Re-roll", "1 TO", "Re-roll one of your dice (once per die)."),
    ActionRule("modify", "Change a die", "1 TO", "Change one of your dice by +1 or -1."),
]  # fmt: skip


class Skirm(PickledMatches):
    name = "skirm"
    title = "Skirm"
    rulebook = "000_f1df78981dc08e5e.txt"
    exact_odds = True
    features = frozenset({CAMPAIGNS, HAND_ODDS, ORDERS})
    typed_kinds: frozenset[str] = frozenset()
    refused_kinds: frozenset[str] = frozenset()

    @staticmethod
    def squads_of(content: dict[str, Any]) -> list[Any]:
        """The two squads' data of a match's content (RulesError if there are not two)."""
        squads = content.get("squads")
        if not isinstance(squads, list) or len(squads) != 2:
            raise RulesError("A match needs exactly two squads.")
        return squads

    def new_match(self, content: dict[str, Any], dice: Dice) -> Match:
        squads = self.squads_of(content)
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

    def check_squad(self, data: Any, ep_limit: int) -> SquadSummary:
        squad = squad_from_json(data, ep_limit)
        return SquadSummary(squad.name, len(squad.units), squad.total_ep)

    def parse_command(self, data: Any) -> Command:
        """One of this ruleset's `command_types`, for a match of two players."""
        return command_from_json(data, self.command_types, seats=2, ruleset=self.title)

    def legal_commands(self, state: MatchState, side: int) -> list[Command]:
        return legal_commands(state, side)

    def routes(self, state: MatchState, unit: UnitState, action: str) -> dict[Square, Route]:
        return reachable_squares(state, unit, action)

    def scores(self, state: MatchState) -> tuple[int, ...]:
        return tuple(squad.mp for squad in state.squads)

    def outcome(self, state: MatchState) -> Outcome | None:
        """Skirm and Skirm Lite: two sides; the winner, or a draw (rulebook Mission End)."""
        if state.result is None:
            return None
        winner = state.result.winner
        placings = (1, 1) if winner is None else (1, 2) if winner == 0 else (2, 1)
        return Outcome(placings, self.scores(state), state.result.reason)

    def action_rules(self) -> list[ActionRule]:
        return list(ACTION_RULES)

    def medals(self, match: PlayedMatch, side: int) -> dict[str, list[Medal]] | None:
        assert isinstance(match, Match)
        return squad_medals(match, side)

    def set_up_stage(self, state: MatchState) -> SetUpStage | None:
        return set_up_stage(state)

    def placement(self, state: MatchState, side: int, placements: dict[str, str]) -> Command:
        if state.infiltrators:
            return Infiltrate(side, placements)
        return Deploy(side, placements)

    def placement_help(self, state: MatchState, side: int) -> str:
        return placement_help(state, side)

    def status_line(self, state: MatchState, side: int) -> str:
        squad = state.squads[side]
        return f"{squad.name} {squad.mp} MP, {squad.orders} TO"

    def automatic_command(self, state: MatchState, side: int) -> Command:
        return autoplayer.choose(state, side)

    def automatic_placement(self, state: MatchState, side: int) -> Command:
        if state.infiltrators:
            return autoplayer.infiltration(state, side)
        return autoplayer.deployment(state, side)

    def position(self, state: MatchState, text: str) -> Square:
        """A square of the match's board, as typed ("C4"); RulesError if off the map."""
        return state.board.parse_square(text)

    def preview(self, state: MatchState, unit: str, where: Position | None = None) -> Preview:
        return skirm_preview.preview(state, unit, own_square(where))

    command_types: CommandTable = SKIRM_COMMANDS

    def view(self, state: MatchState) -> MatchView:
        return match_view(state, self.name)

    def card(self, state: MatchState, unit: str) -> CardView:
        return card_view(state, unit, SKIRM_SKIN)

    # Skirm and Skirm Lite: player 1 and player 2 activate in turn (rulebook Game Cycle).
    seats: tuple[int, ...] = (2,)

    def sides_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        return seats_of_their_own(players)

    def choices(self, state: MatchState, side: int | None) -> SkirmChoices:
        return SkirmChoices(state, side, self)

    def hand_dice(self) -> SkirmHandDice:
        return HAND_DICE

    def load_mission(self, data: Any) -> Mission:
        return mission_from_json(data)

    def load_squad(self, data: Any, points_limit: int) -> Squad:
        return squad_from_json(data, points_limit)

    def points_limit(self, mission: Any, players: int = 2) -> int:
        """The mission's EP limit: each squad is a side of its own (`players` changes nothing)."""
        return self.load_mission(mission).ep_limit

    def load_map(self, data: Any) -> Board:
        check_kind(self.title, self.board, data)
        return map_from_json(data).board  # the kernel's map of squares

    def deployment_zones(self, state: MatchState) -> tuple[tuple[Position, ...], ...]:
        return tuple(tuple(zone.squares(state.board)) for zone in state.mission.zones)

    def check_mission(self, mission: Any, board: Board, squad_sizes: tuple[int, ...]) -> None:
        check_map_fits(self.load_mission(mission), board, squad_sizes)

    def state_json(self, state: MatchState) -> dict[str, Any]:
        return state.to_json()

    def campaign(self) -> SkirmCampaign:
        return CAMPAIGN

    def deciding(self, state: MatchState) -> tuple[Decision, ...]:
        return skirm_deciding.deciding(state)

    def recorded_result(self, state: MatchState) -> dict[str, Any] | None:
        return None if state.result is None else state.result.to_json()

    def held_in_secret(self, state: MatchState) -> tuple[object, ...]:
        return secrets.held(state)

    def keeps_secret(self, state: MatchState, side: int) -> bool:
        return secrets.unrevealed(state, side)

    def undo_point(self, state: MatchState, recorded: list[dict[str, Any]], side: int) -> int:
        return undo.undo_point(state, recorded, side)

    def secret_note(self, state: MatchState, side: int) -> str:
        return secrets.note(state, side)

    def buttons(self, state: MatchState) -> tuple[str, ...]:
        return skirm_deciding.buttons(state, self.legal_commands)

    def match_content(self, content: dict[str, Any]) -> dict[str, Any]:
        return content  # map, mission and squads are all Skirm's rules read

    score_words = ("MP", "Mission Point")
    points_word = "EP"
    demo_players = 2
    board = SQUARES  # the kind of map it plays on (rules/mapkinds)


RULESET = Skirm()
