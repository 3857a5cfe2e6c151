"""Rulesets: the one interface a rulebook's package offers the rest of skirmbot.

A record names its ruleset ("skirm", "lite") as a chess PGN names its variant, and `ruleset()`
picks the package. Service, record, console, timers, render and the automatic player reach a
ruleset's rules only through this interface; docs/rulesets.md tells how to add one.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from skirmbot.rules.commands import Command, CommandTable
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.medal import Medal
from skirmbot.rules.movement import Route
from skirmbot.rules.preview import Preview
from skirmbot.rules.squares import Square
from skirmbot.rules.view import CardView, Decision, MatchView, Position
from skirmbot.words import named, shown

# Features only some rulesets have; the service, the cogs and the console ask before offering one.
CAMPAIGNS = "campaigns"  # squads that grow from match to match (`medals`, spoils, XP)
HAND_ODDS = "hand_odds"  # /odds by hand: attack odds from typed stats, no match needed
ORDERS = "orders"  # Tactical Orders: /to, standing orders that spend them

# How a refusal names a feature, before the rulesets that have it.
FEATURE_WORDS = {
    CAMPAIGNS: "Campaigns are played with",
    HAND_ODDS: "/odds by hand works out the attacks of",
    ORDERS: "Tactical Orders are played with",
}

# The packages that hold a ruleset, each exposing RULESET; adding a ruleset adds a line here.
PACKAGES = (
    "skirmbot.rules.skirm",
    "skirmbot.rules.lite",
    "skirmbot.rules.d20",
    "skirmbot.rules.companies",
    "skirmbot.rules.infantry",
)
DEFAULT_RULESET = "skirm"


class PlayedMatch(Protocol):
    """A match in a ruleset: its state, dice and accepted commands, changed only by `apply`."""

    state: Any
    dice: Dice
    commands: list[Command]
    log: list[Event]
    late_end_is_no_op: bool  # a version-1 record's late `end` (skirmbot.rules.record)
    unused_fields_allowed: bool  # a recorded command's fields it did not use, while replaying
    # While replaying a record from our own store (each command was checked when accepted): the
    # engine may skip checks that only refuse a command, never what changes the state or draws
    # dice, so the match ends the same. Off in play, and for a record from outside. A command
    # refused while trusted may leave the match part changed: the replay fails, and its match
    # is thrown away.
    trusted: bool

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
    units_word: str = "units"  # what the rulebook calls them, many ("Groups": the group rules)


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


Option = tuple[str, str]  # (the value a command gets, what the player reads)


class Choices(Protocol):
    """Autocomplete's options in one match as one seat sees it (`Ruleset.choices`): the values
    of the ruleset's legal commands, labelled in its words. Units are named by their id."""

    def named(self, name: str) -> str:
        """The unit called `name` as a player types it; RulesError listing the names."""
        ...

    def unit(self, name: str | None) -> str | None:
        """The unit named (None if there is none such), else the one activating, if any."""
        ...

    def side_of(self, unit: str) -> int:
        """The seat that commands the unit."""
        ...

    def units(self, kinds: tuple[str, ...]) -> list[Option]:
        """The seat's units that can send a command of one of `kinds` now."""
        ...

    def units_on_map(self) -> list[str]:
        """Every unit on the map, whoever commands it (/odds)."""
        ...

    def squares(self, unit: str, kind: str, action: str) -> list[Option]:
        """Squares the unit can end a movement (`kind`, `action`) on, nearest first."""
        ...

    def values(self, unit: str, kind: str, field: str) -> list[Option]:
        """The values the unit's legal commands of `kind` carry in `field`, labelled."""
        ...

    def skills(self, unit: str) -> list[Option]:
        """The unit's skills that can be used now."""
        ...

    def skill_targets(self, unit: str, skill: str) -> list[Option]:
        """What the chosen skill can be aimed at."""
        ...

    def targets(self, unit: str, kind: str, weapon: str | None) -> list[Option]:
        """What the unit can attack now with an attack of `kind` (with `weapon`, if chosen)."""
        ...

    def weapons(self, unit: str, kind: str, target: str | None) -> list[Option]:
        """The weapons the unit can attack with now (at `target`, if chosen)."""
        ...

    def dice(self, kind: str) -> list[tuple[int, str]]:
        """The dice of a roll waiting for a decision that a command of `kind` can change."""
        ...

    def any_targets(self, unit: str) -> list[Option]:
        """Everything the unit could attack with any weapon, whoever asks (/odds)."""
        ...

    def target_odds(self, name: str, target: str | None, orders: int) -> tuple[str, list[Any]]:
        """The unit's name and the exact odds of its attacks (on `target`, if named) spending
        up to `orders` TO, for a ruleset with `exact_odds`; RulesError in plain words."""
        ...

    def words(self, command: Command) -> str | None:
        """A legal command in the ruleset's words for a menu (/act, the console's `act`):
        "Combat: Hulk at Birch with Launcher, +2 bonus dice (2 AP)"; None: the plain form,
        its action's title then its fields ("Revive: Mara, Kor (2 TO)")."""
        ...


@dataclass(frozen=True)
class RosterEntry:
    """One unit of a stored squad on its roster card (campaigns)."""

    name: str
    unit_type: str
    xp: int
    spoils_taken: int  # rewards (Spoils Of War) it holds
    spoils_available: int  # rewards it may take now
    next_spoil_at: int  # the XP at which its next reward comes


class UnitSpoils(Protocol):
    """What a unit may take after a match, as the medals message says it (Spoils Of War)."""

    @property
    def xp(self) -> int: ...

    @property
    def available(self) -> int: ...

    @property
    def neq(self) -> bool: ...


class Campaign(Protocol):
    """A ruleset's campaigns (CAMPAIGNS): stored squads that gain XP from medals, match after
    match, and take rewards with it. Changes a squad file's data; the service stores it."""

    points_limit: int  # what a stored squad may cost
    medal_xp: Mapping[str, int]  # each medal's XP (the roster card's legend)
    spoils_xp_step: int  # one more reward per this many XP

    def add_xp(
        self, data: Mapping[str, Any], earned: Mapping[str, Sequence[Medal]]
    ) -> tuple[dict[str, Any], Mapping[str, UnitSpoils]]:
        """The squad's data with each unit's medals added to its XP (units by name), and what
        each may take now."""
        ...

    def roster(self, data: dict[str, Any]) -> list[RosterEntry]:
        """The squad's units as its roster card shows them."""
        ...

    def rewards(self, data: dict[str, Any], unit: str, rewards: Any) -> list[Option]:
        """The rewards (from the content data `rewards`) the unit may take now."""
        ...

    def take_reward(
        self, data: dict[str, Any], unit: str, reward: str, rewards: Any
    ) -> tuple[dict[str, Any], str] | None:
        """The squad's data with the unit's reward taken, and the unit's name; None: no such
        unit. ContentError in plain words when it may not take it."""
        ...


class HandDice(Protocol):
    """A ruleset's dice rolled by hand, with no match: /odds by hand, /roll's skill test, /to
    (HAND_ODDS; Skirm's rules)."""

    default_orders: int  # the TO /odds spends on re-rolls unless told
    order_dice: int  # the Tactical Orders roll's dice before leader dice

    def succeeds(self, face: int, skill: int) -> bool:
        """Whether a die's face passes a skill test against `skill`."""
        ...

    def attack(
        self,
        stats: Mapping[str, int],
        rules: Mapping[str, int],
        *,
        cover: bool,
        support: bool,
        budget: int,
    ) -> Any:
        """The exact outcome of one attack given by hand (its odds: HIT lost, taken out, ...)."""
        ...


class Ruleset(Protocol):
    name: str  # the key in records and the database ("skirm")
    title: str  # what players read ("Skirm Lite")
    rulebook: str  # the rulebook's file in shared/rules
    # whether /odds works out its attacks in full (skirmbot.rules.skirm.odds knows Skirm's:
    # with TO spent, CTR, further targets); if not, /odds gives its preview's odds
    exact_odds: bool
    seats: tuple[int, ...]  # how many players a match may have: (2,) for Skirm, (2, 3, 4)
    features: frozenset[str]  # which of CAMPAIGNS, HAND_ODDS, ORDERS this ruleset has
    # Its own actions whose fields a player may type as they like, not only pick from what
    # `legal_commands` lists (the infantry rules' firing arc faces any dot): one-line orders and
    # the console read them field by field.
    typed_kinds: frozenset[str]
    # Kinds in its command table only to be refused in words (no help offers them).
    refused_kinds: frozenset[str]

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

    def position(self, state: Any, text: str) -> Position:
        """A place typed in the match's notation ("C4") read into this ruleset's own position,
        checked to lie on its board; RulesError in plain words otherwise. `str()` of the
        position names it back, so nothing outside the ruleset knows which grid it is on."""
        ...

    def preview(self, state: Any, unit: str, where: Position | None = None) -> Preview:
        """The unit's options where it stands (or as if it stood `where`, a position this
        ruleset gave), worked out on a copy of `state` without a die rolled
        (skirmbot.rules.preview); RulesError in plain words when there is nothing to preview
        (a secret set-up, a unit off the map)."""
        ...

    # The commands this ruleset plays, by their type in records: the kernel's common verbs
    # (skirmbot.rules.commands) and its own. `parse_command` reads only these; the service
    # sends a ruleset's own command by its kind and fields (skirmbot.service.actions).
    command_types: CommandTable

    def choices(self, state: Any, side: int | None) -> Choices:
        """Autocomplete's options in the match for `side` (None: someone not playing)."""
        ...

    def load_mission(self, data: Any) -> Any:
        """The ruleset's own mission (scenario) from content data, checked; ContentError in
        plain words saying what is wrong."""
        ...

    def load_squad(self, data: Any, points_limit: int) -> Any:
        """The ruleset's own squad from content data, checked against its squad building
        rules within `points_limit` (where it counts points); ContentError in plain words."""
        ...

    def points_limit(self, mission: Any, players: int = 2) -> int:
        """The points ONE seat's squad may cost in the mission (content data; EP limit in
        Skirm) in a match of `players`: a ruleset whose sides share their points between
        their seats gives each seat its share; one whose every seat is a side ignores it."""
        ...

    def load_map(self, data: Any) -> Any:
        """A map file's JSON (content's "maps", the ruleset's own when it keeps a folder of
        them) read into this ruleset's own map: what `check_mission` checks a mission on (the
        square rulesets: the kernel map's Board). ContentError in plain words."""
        ...

    def deployment_zones(self, state: Any) -> tuple[tuple[Position, ...], ...]:
        """Where each seat deploys, seat by seat: the open places of its zone (the picture of an
        empty map, `/map show`, marks them in the seat's colour)."""
        ...

    def check_mission(self, mission: Any, board: Any, squad_sizes: tuple[int, ...]) -> None:
        """The mission's (content data) set-up checks on `board` (the ruleset's own map, from
        `load_map`) for squads of these sizes, one per seat (Skirm: each deployment zone holds
        its squad); ContentError in plain words."""
        ...

    def freeze(self, match: PlayedMatch) -> bytes:
        """The live match as bytes this code's `thaw` gives back: what the service keeps of a
        match between commands, in memory and in the store's snapshots (skirmbot.rules.frozen
        has the kernel's way, pickling)."""
        ...

    def thaw(self, frozen: bytes) -> PlayedMatch:
        """The live match `freeze` made these bytes of; any error when they are not."""
        ...

    def state_json(self, state: Any) -> dict[str, Any]:
        """The whole state as JSON, in the ruleset's own shape (`skirmbot replay --json`)."""
        ...

    def campaign(self) -> Campaign:
        """Its campaign rules; RulesError in plain words for a ruleset without CAMPAIGNS."""
        ...

    def hand_dice(self) -> HandDice:
        """Its dice rolled by hand with no match (/odds by hand, /roll's skill test, /to);
        RulesError in plain words for a ruleset without HAND_ODDS."""
        ...

    def recorded_result(self, state: Any) -> dict[str, Any] | None:
        """The result as a finished match's exported record keeps it and `skirmbot verify`
        compares it (Skirm: {"winner": side or None, "reason": ...}); None while it goes on."""
        ...

    def held_in_secret(self, state: Any) -> tuple[object, ...]:
        """What each seat holds now that a die drew and its opponents may not see (Skirm: each
        squad's secondary objective card, None for none); () when nothing is ever secret. The
        record keeps it with every roll, to find the roll that drew a secret (`so_far`)."""
        ...

    def keeps_secret(self, state: Any, side: int) -> bool:
        """Whether `side` holds something drawn that is still secret from the others (an
        export of a match in progress hides it from them)."""
        ...

    def undo_point(self, state: Any, recorded: list[dict[str, Any]], side: int) -> int:
        """How many of the `recorded` commands (as the record keeps them) to keep to take back
        `side`'s last action of its activation (turn) in progress, with the decisions about it
        (Skirm: re-rolls, changed dice, an accepted roll); RulesError in words when there is
        nothing to take back."""
        ...

    def secret_note(self, state: Any, side: int) -> str:
        """What `side` holds in secret now, in words for its player alone (Skirm: the squad's
        secondary objective of the turn, `/match secondary`); RulesError in words when the
        ruleset or the mission keeps nothing of the kind."""
        ...

    def buttons(self, state: Any) -> tuple[str, ...]:
        """The buttons under a reply now, as the cogs name them: "end" and "preview" during an
        activation; with a roll waiting for a decision, "accept" and "reroll:N" for each die
        worth re-rolling that its player may re-roll; () when nothing is in progress."""
        ...

    def match_content(self, content: dict[str, Any]) -> dict[str, Any]:
        """The content a new match's record keeps, from the map, mission and squads chosen:
        with whatever else of the shipped content its rules read (d20: the armory), so that a
        later change to the shipped content never changes an old match. Skirm: as it is."""
        ...

    # How a side's score is named, short and in full for one point: ("MP", "Mission Point") in
    # Skirm. League standings, their tiebreaks and their picture's column say it in its words.
    score_words: tuple[str, str]
    # What a squad's cost is counted in, after the number: "EP" (Skirm's Equipment Points).
    points_word: str
    # How many players `skirmbot demo` seats unless told (`--players`): one of `seats`.
    demo_players: int
    # The kind of map it plays on (skirmbot.rules.mapkinds): "squares" (the shared maps) or
    # "dots" (the infantry rules' own boards); `load_map` refuses any other kind in words.
    board: str


def seats_of_their_own(players: int) -> tuple[tuple[int, ...], ...]:
    """Every seat a side of its own, as in 1 v 1 and every free-for-all (`Ruleset.sides_of`)."""
    return tuple((seat,) for seat in range(players))


def lacking(title: str, feature: str) -> RulesError:
    """The refusal of a feature to a ruleset (`title`) without it, in words: "Campaigns are
    played with Skirm, not Skirm Lite." (said of a match or of a league)."""
    having = " or ".join(r.title for r in rulesets().values() if feature in r.features)
    return RulesError(f"{FEATURE_WORDS[feature]} {having}, not {title}.")


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
