"""The group rules behind the Ruleset interface (skirmbot.rules.ruleset): two sides of 1, 2 or 3
players, each commanding their own Company. Each member delegates to a module of this package.
"""

from __future__ import annotations

from typing import Any, NoReturn

from skirmbot.rules.board import Board
from skirmbot.rules.commands import Command, CommandTable, Deploy
from skirmbot.rules.companies import (
    autoplayer,
    engine,
    export,
    geometry,
    legal,
    orders,
    setup,
    undo,
    views,
)
from skirmbot.rules.companies import preview as companies_preview
from skirmbot.rules.companies.choices import CompaniesChoices
from skirmbot.rules.companies.commands import COMMAND_TYPES, parse_command
from skirmbot.rules.companies.lists import CompanyList, check_points, company_from_json
from skirmbot.rules.companies.profiles import catalogue_of, with_catalogue
from skirmbot.rules.companies.scenarios import Scenario, scenario_from_json
from skirmbot.rules.companies.state import SIDES, Group, State
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

# Rulebook 003, Turns, Activation, Moving, Shooting, Attacking and Retreating; Cast and Summon
# are our content's special orders.
ACTION_RULES = [
    ActionRule("move", "Move", "2d6 activation test", "Each model moves up to the Group's MO; at the end every model is within 3\" of another of its Group and at least 3\" from enemy Groups. Not while in melee."),
    ActionRule("shoot", "Shoot", "2d6 activation test", "A Group with MI shoots a Group in range it can see: 12d6 (6d6 if Bloodied), each die at or above MI hits; every T hits take 1 R. Cover re-rolls the hits."),
    ActionRule("melee", "Attack", "2d6 activation test", "Charge a Group within MO it can see into base contact; both roll 12d6 (6d6 if Bloodied) against their ME to-hit, Shaken Groups hit only on 6. Defiant and Elusive defenders may interrupt."),
    ActionRule("retreat", "Retreat", "2d6 activation test", "A Group in melee moves half its MO directly away from the enemy."),
    ActionRule("cast", "Cast", "2d6 activation test", "A Group with Cast hexes an enemy Group within 12\" it can see: it loses 1 R and Tests Resilience."),
    ActionRule("summon", "Summon", "2d6 activation test", "Once per game, a Group with Summon places a new Group within 3\" of it and at least 3\" from enemies."),
    ActionRule("end_turn", "End turn", "free", "Your part of your side's turn ends; a failed activation test ends the whole side's turn."),
    ActionRule("interrupt", "Interrupt", "2d6 trait test", "An attacked Defiant or Elusive Group tests its trait: by its standing order, or chosen when its player asked to be prompted."),
    ActionRule("standing_orders", "Standing orders", "free", "Whether your Groups test Defiant and Elusive when attacked without asking you, or you are prompted (these answer if you do not, in time)."),
    ActionRule("ambition", "Choose ambition", "free", "After deployment each player chooses an ambition; met at the end, it scores VP for their side."),
]  # fmt: skip


class Companies(PickledMatches):
    """The group rules (rulebook 003): companies of Groups, 2d6 activation tests, Resilience,
    Shaken and Retreat, for two sides of 1, 2 or 3 players."""

    name = "companies"
    title = "Companies"
    rulebook = "003_d6157e54c94c6aa4.txt"
    exact_odds = False  # /odds gives the preview's odds
    seats: tuple[int, ...] = setup.SEATS
    features: frozenset[str] = frozenset()
    typed_kinds: frozenset[str] = frozenset()
    refused_kinds: frozenset[str] = frozenset()
    demo_players = 4  # the demo shows team play: two sides of two
    board = SQUARES  # the kind of map it plays on (rules/mapkinds)

    def sides_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Seat n is on side n % 2: ((0, 2), (1, 3)) for two teams of two."""
        if players not in self.seats:
            raise RulesError(f"The group rules are played by {setup.SEATS_WORDS}, not {players}.")
        return tuple(tuple(range(side, players, SIDES)) for side in range(SIDES))

    def view(self, state: State) -> MatchView:
        return views.view(state, self.name)

    def card(self, state: State, unit: str) -> CardView:
        return views.card(state, unit)

    def deciding(self, state: State) -> tuple[Decision, ...]:
        return views.deciding(state, self.automatic_command)

    def new_match(self, content: dict[str, Any], dice: Dice) -> engine.CompaniesMatch:
        # As accepted when the match began (points limits are checked when it is made).
        return engine.CompaniesMatch(setup.new_state(content, strict=False), dice)

    def check_squad(self, data: Any, ep_limit: int) -> SquadSummary:
        """A company list against the catalogue; `ep_limit` is one seat's points (0: none)."""
        company = self.load_squad(data, ep_limit)
        return SquadSummary(company.name, len(company.groups), company.points, "Groups")

    def parse_command(self, data: Any) -> Command:
        return parse_command(data)

    def legal_commands(self, state: State, side: int) -> list[Command]:
        return legal.legal_commands(state, side)

    def routes(self, state: State, unit: Any, action: str) -> dict[Square, Route]:
        """The Move order of the whole Group keeping its shape, each square its first model can
        end on with that model's path and its cost in inches (Difficult terrain counts 2")."""
        group = unit if isinstance(unit, Group) else state.group(str(unit))
        if action != "move":
            return {}
        routes = orders.move_routes(state, group)
        return {square: Route(cost, path) for square, (cost, path) in routes.items()}

    def scores(self, state: State) -> tuple[int, ...]:
        return views.scores(state)

    def outcome(self, state: State) -> Outcome | None:
        return views.outcome(state)

    def action_rules(self) -> list[ActionRule]:
        return list(ACTION_RULES)

    def medals(self, match: PlayedMatch, side: int) -> dict[str, list[Medal]] | None:
        """The group rules keep no campaign progress."""
        return None

    def set_up_stage(self, state: State) -> SetUpStage | None:
        if views.revealed(state) or state.over:
            return None
        return SetUpStage(
            "deploy", tuple(range(len(state.seats))), "Every Company deploys", what="Groups"
        )

    def placement(self, state: State, side: int, placements: dict[str, str]) -> Command:
        return Deploy(side, placements)

    def placement_help(self, state: State, side: int) -> str:
        return setup.placement_help(state, side)

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
        return companies_preview.preview(state, unit, own_square(where))

    # The kernel's Move, Shoot and Melee (what /move, /shoot, /melee send) and the group rules'.
    command_types: CommandTable = COMMAND_TYPES

    def choices(self, state: State, side: int | None) -> CompaniesChoices:
        return CompaniesChoices(state, side)

    def load_mission(self, data: Any) -> Scenario:
        return scenario_from_json(data)

    def load_squad(self, data: Any, points_limit: int) -> CompanyList:
        """A company list against the shipped catalogue, within `points_limit` (0: none)."""
        company = company_from_json(data, catalogue_of({}))
        if points_limit:
            check_points(company, points_limit)
        return company

    def points_limit(self, mission: Any, players: int = 2) -> int:
        """What ONE seat's Company may cost: the scenario's points are each side's, shared by
        its seats (24 in 1 v 1, 12 each in 2 v 2, 8 each in 3 v 3)."""
        return setup.seat_points(self.load_mission(mission).points, players)

    def load_map(self, data: Any) -> Board:
        check_kind(self.title, self.board, data)
        return map_from_json(data).board  # the kernel's map of squares

    def deployment_zones(self, state: State) -> tuple[tuple[Position, ...], ...]:
        areas = geometry.deployment_zones(state.board, len(state.seats))
        return tuple(tuple(sorted(zone)) for zone in areas)

    def check_mission(self, mission: Any, board: Board, squad_sizes: tuple[int, ...]) -> None:
        self.load_mission(mission)
        setup.check_zones(board, squad_sizes)

    def state_json(self, state: State) -> dict[str, Any]:
        return export.state_json(state)

    def campaign(self) -> NoReturn:
        """The group rules keep no campaign progress (our ruling)."""
        raise lacking(self.title, CAMPAIGNS)

    def hand_dice(self) -> NoReturn:
        """/odds by hand knows only Skirm's combat."""
        raise lacking(self.title, HAND_ODDS)

    def recorded_result(self, state: State) -> dict[str, Any] | None:
        return export.recorded_result(state)

    def held_in_secret(self, state: State) -> tuple[object, ...]:
        return ()  # every die is rolled in the open: no card is drawn or held

    def keeps_secret(self, state: State, side: int) -> bool:
        return False

    def undo_point(self, state: State, recorded: list[dict[str, Any]], side: int) -> int:
        return undo.undo_point(state, recorded, side)

    def secret_note(self, state: State, side: int) -> str:
        raise RulesError("The group rules keep nothing secret: no card is drawn or held.")

    def buttons(self, state: State) -> tuple[str, ...]:
        return views.buttons(state)

    def match_content(self, content: dict[str, Any]) -> dict[str, Any]:
        return with_catalogue(content)

    points_word = "points"  # a Company's cost in the catalogue's points (rulebook Setup 1)
    score_words = ("VP", "Victory Point")  # rulebook End of Game: "total VP"


RULESET = Companies()
