"""The d20 rules behind the Ruleset interface (skirmbot.rules.ruleset): 2 to 4 players, each
for themselves. Each member delegates to a module of this package."""

from __future__ import annotations

from typing import Any, NoReturn

from skirmbot.rules.board import Board
from skirmbot.rules.commands import Command, CommandTable, Deploy
from skirmbot.rules.d20 import autoplayer, engine, export, legal, undo, views
from skirmbot.rules.d20 import preview as d20_preview
from skirmbot.rules.d20.choices import D20Choices
from skirmbot.rules.d20.commands import COMMAND_TYPES, parse_command
from skirmbot.rules.d20.scenarios import EDGES, Scenario, scenario_from_json, zones
from skirmbot.rules.d20.setup import SEATS, armory_of, check_zones, new_state, with_armory
from skirmbot.rules.d20.state import Model, State
from skirmbot.rules.d20.warbands import Warband, check_points, warband_from_json
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
    ActionRule,
    Outcome,
    PlayedMatch,
    SetUpStage,
    SquadSummary,
    lacking,
)
from skirmbot.rules.squares import Square, own_square
from skirmbot.rules.view import CardView, Decision, MatchView, Position

# Rulebook 004, Playing the Game and Combat; the costs of combat are our ruling.
ACTION_RULES = [
    ActionRule("buy", "Purchase Bonus Dice", "1, 2, 4, 7, 12, 20 AP", "Before or after activating models, never during the Action Phase: 1 to 6 bonus dice held cost 1, 2, 4, 7, 12, 20 AP in all; at most 6 held, kept until the round ends."),
    ActionRule("move", "Movement", "1 / 3 / 5 AP", "Small Models 6\", Big Models 12\" (a square is 2\"), up to three times an activation; bonus dice add their faces in inches. Never move, fight and move again."),
    ActionRule("attack", "Combat", "2 AP", "Ranged within the weapon's range, or melee next to the target: d10 + bonus dice + modifiers against the defender's d10 + bonus dice + modifiers (+1 in cover). The loser is downed; a melee winner may move 3\"."),
    ActionRule("shift", "Free move", "free", "The melee winner may move up to 3\" (one square), or stay."),
    ActionRule("defend", "Defend", "bonus dice", "The defender adds bonus dice to its roll: by its standing order, or chosen when it asked to be prompted."),
    ActionRule("end", "End activation", "free", "The model is done for this turn."),
    ActionRule("end_turn", "End turn", "free", "Action points left are lost: they never carry over."),
]  # fmt: skip


class D20(PickledMatches):
    """The d20 action-point rules (rulebook 004) for 2, 3 or 4 players."""

    name = "d20"
    title = "d20 Skirmish"
    rulebook = "004_27e3c50d77c100e8.txt"
    exact_odds = False  # /odds gives the preview's exact opposed-roll odds
    seats: tuple[int, ...] = SEATS
    features: frozenset[str] = frozenset()
    typed_kinds: frozenset[str] = frozenset()
    refused_kinds: frozenset[str] = frozenset()

    def sides_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        if players not in self.seats:
            raise RulesError(f"The d20 rules are played by 2, 3 or 4 players, not {players}.")
        return tuple((seat,) for seat in range(players))

    def view(self, state: State) -> MatchView:
        return views.view(state, self.name)

    def card(self, state: State, unit: str) -> CardView:
        return views.card(state, unit)

    def deciding(self, state: State) -> tuple[Decision, ...]:
        return views.deciding(state)

    def new_match(self, content: dict[str, Any], dice: Dice) -> engine.D20Match:
        # As accepted when the match began (points limits are checked when it is made).
        return engine.D20Match(new_state(content, strict=False), dice)

    def check_squad(self, data: Any, ep_limit: int) -> SquadSummary:
        """A warband against the armory; `ep_limit` is the points limit (0: none)."""
        warband = self.load_squad(data, ep_limit)
        return SquadSummary(warband.name, len(warband.models), warband.points)

    def parse_command(self, data: Any) -> Command:
        return parse_command(data)

    def legal_commands(self, state: State, side: int) -> list[Command]:
        return legal.legal_commands(state, side)

    def routes(self, state: State, unit: Any, action: str) -> dict[Square, Route]:
        """One movement ("move": the d20 rules have no other) without bonus dice, each square
        with its steps."""
        model = unit if isinstance(unit, Model) else state.model(str(unit))
        if action != "move" or not model.standing:
            return {}
        return {
            square: Route(len(path) - 1, path) for square, path in legal.moves(state, model).items()
        }

    def scores(self, state: State) -> tuple[int, ...]:
        return views.scores(state)

    def outcome(self, state: State) -> Outcome | None:
        return views.outcome(state)

    def action_rules(self) -> list[ActionRule]:
        return list(ACTION_RULES)

    def medals(self, match: PlayedMatch, side: int) -> dict[str, list[Medal]] | None:
        """The d20 rules keep no campaign progress."""
        return None

    def set_up_stage(self, state: State) -> SetUpStage | None:
        if state.round or state.over:
            return None
        return SetUpStage(
            "deploy", tuple(range(len(state.seats))), "Every warband deploys", what="models"
        )

    def placement(self, state: State, side: int, placements: dict[str, str]) -> Command:
        return Deploy(side, placements)

    def placement_help(self, state: State, side: int) -> str:
        names = ", ".join(
            f"{m.id} (Big: its top-left square of 2x2)" if m.big else m.id
            for m in state.models.values()
            if m.side == side
        )
        zone = sorted(state.zones[side], key=lambda s: (s.y, s.x))
        return (
            f"Place {names} in your zone along the {EDGES[side]} edge, "
            f"from {zone[0]} to {zone[-1]}; all are revealed together."
        )

    def status_line(self, state: State, side: int) -> str:
        return views.status_line(state, side)

    def automatic_command(self, state: State, side: int) -> Command:
        return autoplayer.choose(state, side)

    def automatic_placement(self, state: State, side: int) -> Command:
        return autoplayer.deployment(state, side)

    def position(self, state: State, text: str) -> Square:
        """A square of the match's board, as typed ("C4"); RulesError if off the map."""
        return state.board.parse_square(text)

    def preview(self, state: State, unit: str, where: Position | None = None) -> Preview:
        return d20_preview.preview(state, unit, own_square(where))

    # The kernel's Move, Shoot and Melee (what /move, /shoot, /melee send) and d20's own.
    command_types: CommandTable = COMMAND_TYPES

    def choices(self, state: State, side: int | None) -> D20Choices:
        return D20Choices(state, side)

    def load_mission(self, data: Any) -> Scenario:
        return scenario_from_json(data)

    def load_squad(self, data: Any, points_limit: int) -> Warband:
        """A warband against the shipped armory, within `points_limit` (0: none)."""
        warband = warband_from_json(data, armory_of({}))
        if points_limit:
            check_points(warband, points_limit)
        return warband

    def points_limit(self, mission: Any, players: int = 2) -> int:
        """The scenario's limit for every warband: each is a side of its own."""
        return self.load_mission(mission).points_limit

    def load_map(self, data: Any) -> Board:
        check_kind(self.title, self.board, data)
        return map_from_json(data).board  # the kernel's map of squares

    def deployment_zones(self, state: State) -> tuple[tuple[Position, ...], ...]:
        return tuple(tuple(sorted(zone)) for zone in zones(state.board, len(state.seats)))

    def check_mission(self, mission: Any, board: Board, squad_sizes: tuple[int, ...]) -> None:
        self.load_mission(mission)
        check_zones(board, squad_sizes)

    def state_json(self, state: State) -> dict[str, Any]:
        return export.state_json(state)

    def campaign(self) -> NoReturn:
        """The d20 rules keep no campaign progress (our ruling)."""
        raise lacking(self.title, CAMPAIGNS)

    def hand_dice(self) -> NoReturn:
        """/odds by hand knows only Skirm's combat."""
        raise lacking(self.title, HAND_ODDS)

    def recorded_result(self, state: State) -> dict[str, Any] | None:
        return export.recorded_result(state)

    def held_in_secret(self, state: State) -> tuple[object, ...]:
        return ()  # no die draws a secret: every warband's dice and AP are on the table

    def keeps_secret(self, state: State, side: int) -> bool:
        return False

    def undo_point(self, state: State, recorded: list[dict[str, Any]], side: int) -> int:
        return undo.undo_point(state, recorded, side)

    def secret_note(self, state: State, side: int) -> str:
        raise RulesError("The d20 rules keep nothing secret: no card is drawn or held.")

    def buttons(self, state: State) -> tuple[str, ...]:
        return views.buttons(state)

    def match_content(self, content: dict[str, Any]) -> dict[str, Any]:
        return with_armory(content)

    points_word = "points"  # the warband's cost in the armory's points (ours)
    demo_players = 2
    board = SQUARES  # the kind of map it plays on (rules/mapkinds)
    score_words = ("VP", "Victory Point")  # as its status line counts them (views.standing)


RULESET = D20()
