"""Rulesets: the one interface a rulebook's package offers the rest of skirmbot.

A record names its ruleset ("skirm", "lite") as a chess PGN names its variant, and `ruleset()`
picks the package. Service, record, console, timers, render and the automatic player reach a
ruleset's rules only through this interface; docs/rulesets.md tells how to add one.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol

from skirmbot.rules.commands import Command
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.medal import Medal
from skirmbot.rules.movement import Route
from skirmbot.rules.preview import Preview
from skirmbot.rules.squares import Square
from skirmbot.rules.view import CardView, Decision, MatchView
from skirmbot.words import named, shown

# Features only some rulesets have; the service, the cogs and the console ask before offering one.
CAMPAIGNS = "campaigns"  # squads that grow from match to match (`medals`, spoils, XP)
HAND_ODDS = "hand_odds"  # /odds by hand: attack odds from typed stats, no match needed
ORDERS = "orders"  # Tactical Orders: /to, standing orders that spend them

# The packages that hold a ruleset, each exposing RULESET; adding a ruleset adds a line here.
PACKAGES = ("skirmbot.rules.skirm", "skirmbot.rules.lite", "skirmbot.rules.d20")
DEFAULT_RULESET = "skirm"


class PlayedMatch(Protocol):
    """A match in a ruleset: its state, dice and accepted commands, changed only by `apply`."""

    state: Any
    dice: Dice
    commands: list[Command]
    log: list[Event]
    late_end_is_no_op: bool  # a version-1 record's late `end` (skirmbot.rules.record)
    unused_fields_allowed: bool  # a recorded command's fields it did not use, while replaying

    def started_under(self, version: int) -> None:
        """Play on by the rules a record of `version` was played under (a ruleset whose rules
        changed with a record version keeps the earlier ones for an earlier record)."""

    def apply(self, command: Command) -> list[Event]:
        """The command's events, or IllegalCommand and no change at all."""
        ...


@dataclass(frozen=True)
class ActionRule:
    """One action a player can take in this ruleset, as `/match rules` explains it."""

    name: str  # the command's type in records ("move", "revive")
    title: str  # as the rulebook names it ("Revive")
    cost: str  # "1 ACT", "2 TO", "free"
    text: str  # one or two sentences from the rulebook


@dataclass(frozen=True)
class SquadSummary:
    """A squad file that passed a ruleset's squad building rules, as a player is told of it."""

    name: str
    size: int  # units (agents, models) in the squad
    points: int  # what it costs (EP in Skirm)


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended, side by side: what standings and ratings are made of."""

    placings: tuple[int, ...]  # each side's place: (1, 2) a win for side 0, (1, 1) a draw
    scores: tuple[int, ...]  # each side's score (Mission Points in Skirm)
    reason: str  # in words: "Iron Wardens wins 5 MP to 3", "Ash Runners conceded"

    @property
    def winner(self) -> int | None:
        """The side placed first alone; None for a draw."""
        first = [side for side, place in enumerate(self.placings) if place == 1]
        return first[0] if len(first) == 1 else None


@dataclass(frozen=True)
class SetUpStage:
    """Units placed before the first turn, in secret: each side in `sides` places its own, and
    all are revealed together (rulings: Deployment). Deployment is the first stage; a ruleset
    may have later ones (Skirm's Infiltrators)."""

    name: str  # "deploy" for the first; a later stage's own name ("infiltrate")
    sides: tuple[int, ...]  # the sides that place units in this stage
    heading: str  # told when all are revealed: "Both squads deploy"
    announce: str = ""  # told when a later stage begins: "Remus will infiltrate: ..."
    verb: str = "deploy"  # what a player is asked to do, before the squad's name
    what: str = "units"  # what is placed: "infiltrators"


class Ruleset(Protocol):
    name: str  # the key in records and the database ("skirm")
    title: str  # what players read ("Skirm Lite")
    rulebook: str  # the rulebook's file in shared/rules
    # whether /odds works out its attacks in full (skirmbot.rules.skirm.odds knows Skirm's:
    # with TO spent, CTR, further targets); if not, /odds gives its preview's odds
    exact_odds: bool
    seats: tuple[int, ...]  # how many players a match may have: (2,) for Skirm, (2, 3, 4)
    features: frozenset[str]  # which of CAMPAIGNS, HAND_ODDS, ORDERS this ruleset has

    def sides_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The seats of a match of `players` grouped into sides: ((0,), (1,)) for 1 v 1 and
        every free-for-all; ((0, 2), (1, 3)) for two teams of two."""
        ...

    def view(self, state: Any) -> MatchView:
        """The match as pictures, captions, status lines, timers and autocomplete see it."""
        ...

    def card(self, state: Any, unit: str) -> CardView:
        """The unit's card; RulesError in plain words when there is no such unit."""
        ...

    def deciding(self, state: Any) -> tuple[Decision, ...]:
        """The seats that must decide now (none in secret set-up or when over), each with what
        a missed deadline sends for it."""
        ...

    def new_match(self, content: dict[str, Any], dice: Dice) -> PlayedMatch:
        """A match before deployment, from content as in the record: map, mission, squads."""
        ...

    def check_squad(self, data: Any, ep_limit: int) -> SquadSummary:
        """A squad file's data checked against this rulebook's squad building rules, or
        ContentError saying what is wrong."""
        ...

    def parse_command(self, data: Any) -> Command: ...

    def legal_commands(self, state: Any, side: int) -> list[Command]:
        """Every command `side` may send now (the automatic player's and autocomplete's menu)."""
        ...

    def routes(self, state: Any, unit: Any, action: str) -> dict[Square, Route]:
        """Where the unit can end a movement action ("move", "dash") now, each square with its
        cheapest route (its cost labels autocomplete's squares)."""
        ...

    def scores(self, state: Any) -> tuple[int, ...]:
        """Each side's score now (Mission Points in Skirm)."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """How the match ended (None while it goes on): placings, scores and why."""
        ...

    def action_rules(self) -> list[ActionRule]:
        """The actions of this ruleset, for `/match rules` and the ruleset's action command."""
        ...

    def medals(self, match: PlayedMatch, side: int) -> dict[str, list[Medal]] | None:
        """Each unit's medals (by its name in the squad file) for a finished match; None: this
        ruleset keeps no campaign progress."""
        ...

    def set_up_stage(self, state: Any) -> SetUpStage | None:
        """The set-up stage the match is in (None: set-up is over)."""
        ...

    def placement(self, state: Any, side: int, placements: dict[str, str]) -> Command:
        """The command that places `side`'s units as typed ({unit: square}) in this stage."""
        ...

    def placement_help(self, state: Any, side: int) -> str:
        """What `side` places now and where, in words for a player."""
        ...

    def status_line(self, state: Any, side: int) -> str:
        """A side's standing in a few words, for the status: "Iron Wardens 2 MP, 3 TO"."""
        ...

    def automatic_command(self, state: Any, side: int) -> Command:
        """What the automatic player sends for `side` now (practice matches, timeouts, demo)."""
        ...

    def automatic_placement(self, state: Any, side: int) -> Command:
        """The automatic player's deployment (or other set-up placement due now) for `side`."""
        ...

    def preview(self, state: Any, unit: str, square: Square | None = None) -> Preview:
        """The unit's options where it stands (or as if it stood on `square`), worked out on a
        copy of `state` without a die rolled (skirmbot.rules.preview); RulesError in plain
        words when there is nothing to preview (a secret set-up, a unit off the map)."""
        ...


_REGISTRY: dict[str, Ruleset] = {}


def rulesets() -> dict[str, Ruleset]:
    """Every ruleset this skirmbot plays, by name, the default first."""
    if not _REGISTRY:
        for package in PACKAGES:
            found: Ruleset = importlib.import_module(package).RULESET
            _REGISTRY[found.name] = found
    return _REGISTRY


def ruleset(name: str) -> Ruleset:
    """The ruleset called `name`: its key or its title, as a person types it (`words.named`:
    `lite`, `Skirm Lite`, `skirm-lite`); RulesError lists the titles when there is none."""
    known = rulesets()
    if name in known:  # as records and the database name it: no need to read it loosely
        return known[name]
    found = named(name, {key: (played.title,) for key, played in known.items()})
    if found is None:
        titles = ", ".join(played.title for played in known.values())
        raise RulesError(f"There is no ruleset called '{shown(name)}'. Choose one of: {titles}.")
    return known[found]
