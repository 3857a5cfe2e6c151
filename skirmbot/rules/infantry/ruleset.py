"""The infantry rules behind the Ruleset interface (skirmbot.rules.ruleset): two players, each a
squad of troopers on a map of dots, firing arcs that shoot during the enemy's move. Each member
delegates to a module of this package.
"""

from __future__ import annotations

from typing import Any, NoReturn, cast

from skirmbot.rules.commands import Command, CommandTable, Deploy
from skirmbot.rules.dice import Dice
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import ContentError, RulesError
from skirmbot.rules.frozen import PickledMatches
from skirmbot.rules.infantry import autoplayer, engine, export, legal, setup, undo, views
from skirmbot.rules.infantry import preview as infantry_preview
from skirmbot.rules.infantry.arms import load_arms
from skirmbot.rules.infantry.choices import InfantryChoices
from skirmbot.rules.infantry.commands import COMMAND_TYPES, parse_command
from skirmbot.rules.infantry.maps import DotMap, map_from_json
from skirmbot.rules.infantry.scenarios import Scenario, check_zones_fit, parse_scenario
from skirmbot.rules.infantry.squads import Squad, parse_squad
from skirmbot.rules.infantry.state import SIDES, State, Trooper
from skirmbot.rules.mapkinds import DOTS, check_kind
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
    seats_of_their_own,
)
from skirmbot.rules.squares import Square
from skirmbot.rules.view import CardView, Decision, MatchView, Position

# Rulebook 002: Movement, Special Actions, Firing Arcs, Resolving Fire, Melee Combat,
# Explosives; the turn, standing orders and conceding are our rulings (plan section 2, 3).
ACTION_RULES = [
    ActionRule("activate", "Activate", "free", "A trooper of your side's turn begins its activation: a melee waiting for it is resolved, then enemy arcs it stands in may fire, and its own arc is removed."),
    ActionRule("move", "Move", "1 AP a dot", "Move between adjacent dots, at most 8 AP a activation: 2 AP across an obstruction or a doorway, 4 through a window; double while prone. Enemy arcs fire at each dot entered."),
    ActionRule("climb", "Change level", "3 AP", "On stairs or a ladder, up or down one level on the same dot (6 AP prone)."),
    ActionRule("prone", "Go prone", "1 AP", "Lie down: harder to hit beyond 1 dot, moves cost double."),
    ActionRule("stand", "Stand up", "2 AP", "Stand from prone; arcs that have not fired at you on this dot may fire."),
    ActionRule("change_weapon", "Change weapon", "3 AP", "Make another weapon active, a grenade or satchel charge included; after a throw you switch back for free."),
    ActionRule("take", "Take", "6 AP", "Take a weapon from a trooper on or beside your dot (dead or unconscious too) or one dropped there, within what you can carry."),
    ActionRule("drop", "Drop", "0 AP", "Drop a weapon on your dot; any trooper may pick it up."),
    ActionRule("arc", "Firing arc", "2/4/6 AP", "A 30, 60 or 150 degree arc from your dot: 1, 2 or 4 shots times the weapon's shots. It fires during the enemy's turn, at each position an enemy activates in or enters, by its order: every, first N, short, hold."),
    ActionRule("fire", "Fire or hold", "free", "An arc's owner answers a chance to fire when asked live; unanswered, the arc's order decides."),
    ActionRule("throw", "Throw", "1 AP a dot (satchel 2)", "Throw the active grenade or satchel charge at a dot you see (3 AP up or down stairs); it goes off at the end of your side's turn: 2D6 against the AP paid, or it scatters."),
    ActionRule("melee", "Melee", "5 AP", "Attack an adjacent enemy with fists, knife, bayonet, club or a melee weapon; resolved when the target next activates. 2D6 against 4, no cover."),
    ActionRule("end", "End activation", "free", "The trooper's activation ends; when your side's last trooper has activated, its explosives go off and the other side's turn begins."),
    ActionRule("standing_orders", "Standing orders", "free", "Whether your arcs ask you live at each chance to fire, or fire by their own orders without asking."),
]  # fmt: skip


class Infantry(PickledMatches):
    """The infantry rules (rulebook 002, "3 Infantry", the Skirmishers chapter): troopers on a
    map of dots with HP cells, AP and firing arcs, for two players."""

    name = "infantry"
    title = "Skirmishers"
    rulebook = "002_4d9a1d47f073b3fe.txt"
    exact_odds = False  # /odds gives the preview's odds
    seats: tuple[int, ...] = setup.SEATS
    features: frozenset[str] = frozenset()
    demo_players = 2
    board = DOTS  # the kind of map it plays on (rules/mapkinds)
    # A firing arc faces any dot and a throw aims at any dot (Firing Arcs ¶1, Explosives ¶1):
    # typed orders are read field by field, not only matched to legal.py's few listed ones.
    typed_kinds: frozenset[str] = frozenset({"arc", "throw"})
    # The kernel's Shoot is in the command table only to be refused in words: no help offers it.
    refused_kinds: frozenset[str] = frozenset({"shoot"})

    def sides_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        if players not in self.seats:
            raise RulesError(f"The infantry rules are played by two players, not {players}.")
        return seats_of_their_own(players)

    def view(self, state: State) -> MatchView:
        return views.view(state, self.name)

    def card(self, state: State, unit: str) -> CardView:
        return views.card(state, unit)

    def deciding(self, state: State) -> tuple[Decision, ...]:
        return views.deciding(state, self.automatic_command)

    def new_match(self, content: dict[str, Any], dice: Dice) -> engine.InfantryMatch:
        # As accepted when the match began (points limits are checked when it is made).
        return engine.InfantryMatch(setup.new_state(content, strict=False), dice)

    def check_squad(self, data: Any, ep_limit: int) -> SquadSummary:
        """A squad file against the tables; `ep_limit` is its PV limit (0: none)."""
        squad = self.load_squad(data, ep_limit)
        return SquadSummary(squad.name, len(squad.troopers), squad.pv, "troopers")

    def parse_command(self, data: Any) -> Command:
        return parse_command(data)

    def legal_commands(self, state: State, side: int) -> list[Command]:
        return legal.legal_commands(state, side)

    def routes(self, state: State, unit: Any, action: str) -> dict[Dot, Route]:
        """Every dot the trooper's move may end on now, each with its cheapest route's AP and
        steps (the start first, as the kernel's routes)."""
        trooper = unit if isinstance(unit, Trooper) else state.trooper(str(unit))
        if action != "move" or trooper.dot is None:
            return {}
        found: dict[Dot, Route] = {}
        for dot, cost in infantry_preview.reach_of(state, trooper).items():
            found[dot] = Route(cost, build=_route_builder(state, trooper, dot))
        return found

    def scores(self, state: State) -> tuple[int, ...]:
        return views.scores(state)

    def outcome(self, state: State) -> Outcome | None:
        return views.outcome(state)

    def action_rules(self) -> list[ActionRule]:
        return list(ACTION_RULES)

    def medals(self, match: PlayedMatch, side: int) -> dict[str, list[Medal]] | None:
        """The infantry rules keep no campaign progress."""
        return None

    def set_up_stage(self, state: State) -> SetUpStage | None:
        if views.revealed(state) or state.over:
            return None
        return SetUpStage("deploy", tuple(range(SIDES)), "Both squads deploy", what="troopers")

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

    def position(self, state: State, text: str) -> Dot:
        """A dot of the match's map, as typed ("C4"); RulesError in words if off the map."""
        dot = Dot.parse(text)
        if not state.board.on_map(dot):
            last = Dot(state.board.width - 1, state.board.height - 1)
            raise RulesError(f"{dot} is not on the map: its dots run from A1 to {last}.")
        return dot

    def preview(self, state: State, unit: str, where: Position | None = None) -> Preview:
        dot = None if where is None else self.position(state, str(where))
        return infantry_preview.preview(state, unit, dot)

    # The kernel's Move, Shoot (refused in words), Melee and End, and this rulebook's own.
    command_types: CommandTable = COMMAND_TYPES

    def choices(self, state: State, side: int | None) -> InfantryChoices:
        return InfantryChoices(state, side)

    def load_mission(self, data: Any) -> Scenario:
        return parse_scenario(data)

    def load_map(self, data: Any) -> DotMap:
        """This ruleset's own map of dots (content/infantry/maps), checked."""
        check_kind(self.title, self.board, data)
        return map_from_json(data)

    def load_squad(self, data: Any, points_limit: int) -> Squad:
        """A squad file against the shipped tables, within `points_limit` PV (0: none)."""
        return parse_squad(load_arms(), data, points_limit or setup.UNLIMITED)

    def points_limit(self, mission: Any, players: int = 2) -> int:
        """The scenario's PV limit for each squad: each player is a side of their own."""
        return self.load_mission(mission).points

    def deployment_zones(self, state: State) -> tuple[tuple[Position, ...], ...]:
        return tuple(tuple(setup.zone_dots(state, seat)) for seat in range(len(state.seats)))

    def check_mission(self, mission: Any, board: Any, squad_sizes: tuple[int, ...]) -> None:
        """The scenario's zones fit the map (this ruleset's own, from `load_map`), and each
        holds its squad (an open dot a trooper)."""
        scenario = self.load_mission(mission)
        if not isinstance(board, DotMap):
            raise ContentError(f"{scenario.name} is played on a map of dots.")
        check_zones_fit(scenario, board.height)
        for seat, size in enumerate(squad_sizes):
            first, last = scenario.zones[seat].rows(board.height)
            room = sum(
                1
                for dot in board.dots()
                if first - 1 <= dot.y <= last - 1 and not board.impassable(dot)
            )
            if room < size:
                raise ContentError(
                    f"{scenario.name}: seat {seat + 1}'s zone has {room} open dots for "
                    f"{size} troopers."
                )

    def state_json(self, state: State) -> dict[str, Any]:
        return export.state_json(state)

    def campaign(self) -> NoReturn:
        """The infantry rules keep no campaign progress (our ruling)."""
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
        raise RulesError("The infantry rules keep nothing secret: no card is drawn or held.")

    def buttons(self, state: State) -> tuple[str, ...]:
        return views.buttons(state)

    def match_content(self, content: dict[str, Any]) -> dict[str, Any]:
        return setup.match_content(content)

    points_word = "PV"  # a trooper's Point Value, the weapons tables' column
    score_words = ("PV", "Point Value")  # the PV of enemy troopers put out (plan section 2)


def _route_builder(state: State, trooper: Trooper, dot: Dot) -> Any:
    """The steps to `dot`, worked out when asked (the kernel's Route takes squares; a dot is a
    Position just as well: nothing outside the ruleset looks inside)."""

    def build() -> tuple[Square, ...]:
        steps = infantry_preview.route_to(state, trooper, dot)
        return cast("tuple[Square, ...]", (trooper.dot, *steps))

    return build


RULESET = Infantry()
