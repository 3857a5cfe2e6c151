"""`skirmbot console`: play a match locally against the same service layer as the Discord bot.

Hot-seat (two players at one keyboard: the prompt names whose turn it is) or against the
automatic player. The command words are the slash commands' names: `move Halden C4`,
`shoot Halden Vex`, `end`, `status`... and the battlemap is written as a PNG after each
activation. Every prompt answers `help`; a mistake is explained and the prompt asks again;
`quit`, end of input (Ctrl-D) and Ctrl-C leave cleanly. When the match is over its record is
written next to the pictures.
"""

from __future__ import annotations

import re
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from skirmbot import content
from skirmbot.demo import PlayersError, check_players
from skirmbot.rules import commands
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.ruleset import DEFAULT_RULESET, ORDERS, PlayedMatch, Ruleset
from skirmbot.rules.view import MatchView
from skirmbot.service import (
    AUTOMATIC,
    MatchService,
    Member,
    NeedsConfirmation,
    Reply,
    ServiceError,
    actions,
    orderline,
)
from skirmbot.service import recap as recaps
from skirmbot.service.calendar import Calendars
from skirmbot.service.matches import (
    AUTOMATIC_NAME,
    DEPLOYING,
    SAVES,
    SETUP,
    hidden_key,
    ruleset_name,
    ruleset_of,
)
from skirmbot.service.replies import MOMENT, written
from skirmbot.service.timing import timer, vacation
from skirmbot.store import MatchRow, Store, StoreError
from skirmbot.timers.clock import ControlsError, TimeControls, controls_for
from skirmbot.words import shown

CHANNEL, GUILD = 1, 1
# One per seat, the first ones taken (2 to 4 seats, as the ruleset allows).
PLAYERS = tuple(Member(seat, f"Player {seat}") for seat in range(1, 5))
NAMES = {**{player.id: player.name for player in PLAYERS}, AUTOMATIC: AUTOMATIC_NAME}
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report it

T = TypeVar("T")

# What can be typed at the main prompt, and how many words each needs (the game's words are
# read by the service's parser, shared with /match orders: skirmbot.service.orderline).
USAGE = {
    **orderline.USAGE,
    "act": "act [NUMBER]",
    "rules": "rules",
    "orders": "orders STEP; STEP; ...",
    "standing": "standing N|never [PER_ATTACK]",
    "status": "status",
    "log": "log",
    "recap": "recap [ACTIVATION]",
    "card": "card UNIT",
    "preview": "preview [UNIT] [SQUARE]",
    "secondary": "secondary",
    "undo": "undo",
    "draw": "draw",
    "concede": "concede",
    "export": "export FILE",
    "timer": "timer",
    "calendar": "calendar FILE",
    "vacation": "vacation DAYS",
    **orderline.OWN_USAGE,
    "help": "help [WORD]",
    "quit": "quit",
}
HELP = """Commands (the same words as the Discord slash commands):
  move UNIT SQUARE [TO]      dash UNIT SQUARE [TO]      end [UNIT]      activate UNIT
  shoot UNIT TARGET [WEAPON] melee UNIT TARGET [WEAPON] turret UNIT TARGET
  door UNIT [TOWARD]         pickup UNIT      drop UNIT      crate UNIT OPTION      delay
  leap UNIT SQUARE           skill UNIT SKILL [TARGET]  mission UNIT ACTION    secondary
  reroll DIE   modify DIE +1|-1   accept      standing N|never (re-roll failed saves above N TO)
  standing N PER_ATTACK (Skirm Lite: up to PER_ATTACK TO per attack on failed saves, -1/-2/re-roll)
  act [NUMBER] (the actions of this match's rules that have no word above, e.g. Revive)
  rules   status   log   card UNIT   undo   draw   concede   help [WORD]   quit
  recap [N]  (what happened since you last acted, or since activation N: a GIF and a summary)
  preview [UNIT] [SQUARE]  (where your unit can go and its odds, as if on SQUARE: a picture)
  timer (the clock)   calendar FILE (your deadlines as .ics)   vacation DAYS (0 ends it)
Quote names with spaces: move "Remus 1" C4. TO is how many Tactical Orders to spend.
A whole activation in one line, steps separated by ';': Halden move C5; shoot Kor; end
The record is written next to the pictures when the match is over."""
# The help's words that send a command, by the command's kind (a ruleset's `command_types`
# says which it plays): the game's words are their kinds; `standing` sets standing orders.
_COMMAND_WORDS = {**{verb: verb for verb in orderline.USAGE}, "standing": "standing_orders"}


def help_for(rules: Ruleset, state: Any = None, side: int | None = None) -> str:
    """HELP without the words of commands this ruleset does not play (the d20 rules have no
    turrets, doors or Tactical Orders; the infantry rules' Shoot is there only to be refused):
    a token of a line is a verb and its arguments. A ruleset whose Move places each model, whose
    standing orders are its own (not re-rolled saves), or whose own actions are typed field by
    field (an infantry arc, a throw), gets a line for each after the game's words. With the
    match's `state`: no `secondary` where nothing is ever secret, and the example line names
    the match's units (`side`'s first, an enemy)."""
    missing = {word for word, kind in _COMMAND_WORDS.items() if kind not in rules.command_types}
    missing |= rules.refused_kinds
    if state is not None and not rules.held_in_secret(state):
        missing.add("secondary")  # no secondary objective, nor anything else, is ever drawn
    orders = ORDERS in rules.features
    if not missing and orders and state is None:
        return HELP
    lines = []
    for line in HELP.splitlines():
        tokens = _HELP_TOKEN.split(line.strip())
        kept = [t for t in tokens if t.split(" ")[0] not in missing]
        if not orders:  # standing orders that spend TO, and TO paid for an action
            kept = [t.replace(" [TO]", "") for t in kept if not t.startswith("standing ")]
            kept = [t.replace(" TO is how many Tactical Orders to spend.", "") for t in kept]
        kept = [_own_example(rules, t) for t in kept]
        if state is not None:
            kept = [_line_example(rules, state, side, missing, t) for t in kept]
        if kept:
            lines.append(("  " if line.startswith("  ") else "") + "   ".join(kept))
        if line.startswith("  act "):
            lines += _own_words(rules)
    return "\n".join(lines)


def _own_example(rules: Ruleset, token: str) -> str:
    """The `act` line's example: Revive where the rules have it, else their first own action
    that has no word of its own ("Change level" in the infantry rules)."""
    if "e.g. Revive" not in token or "revive" in rules.command_types:
        return token
    worded = {*_COMMAND_WORDS.values(), *orderline.typed_kinds(rules)}
    titles = [
        rule.title
        for rule in rules.action_rules()
        if rule.name in rules.command_types
        and rule.name not in worded
        and rule.name not in actions.COMMON_KINDS
    ]
    return token.replace("e.g. Revive", f"e.g. {titles[0]}") if titles else token


def _line_example(
    rules: Ruleset, state: Any, side: int | None, missing: set[str], token: str
) -> str:
    """The one-line example with the match's own units: "Hale move C5; melee Ishida; end"."""
    if "Halden move C5; shoot Kor; end" not in token:
        return token
    pieces = rules.view(state).pieces
    if not pieces:
        return token
    own = pieces[0].side if side is None else side
    mine = [p.id for p in pieces if p.side == own]
    theirs = [p.id for p in pieces if p.side != own]
    if not mine:
        return token
    unit = _quoted(mine[0])
    attack = next((verb for verb in ("shoot", "melee") if verb not in missing), None)
    middle = f"{attack} {_quoted(theirs[0])}; " if attack and theirs else ""
    return token.replace("Halden move C5; shoot Kor; end", f"{unit} move C5; {middle}end")


def _quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


def _own_words(rules: Ruleset) -> list[str]:
    """The help's lines for a Move of each model's square, a ruleset's own actions typed field
    by field, and its own standing orders."""
    found = []
    typed = [orderline.OWN_USAGE[kind] for kind in orderline.OWN_USAGE
             if kind in orderline.typed_kinds(rules)]  # fmt: skip
    if typed:
        found.append("  " + "   ".join(typed))
    if "models" in actions.fields_of(rules, "move"):
        found.append(
            "  move UNIT SQUARE SQUARE ... (each model of a Group to its square, in order)"
        )
    standing = own_standing_fields(rules)
    # Only a ruleset that tells its players of its standing orders (`/match rules`) lists them.
    if standing and "standing_orders" in {rule.name for rule in rules.action_rules()}:
        values = "   ".join(f"{name} {'on|off' if name in _SWITCHES else 'N'}" for name in standing)
        found.append(f"  standing {values} (your standing orders; those left out: default)")
    return found


_SWITCHES = {"prompt", "defiant", "elusive"}  # standing orders that are on or off


def own_standing_fields(rules: Ruleset) -> list[str]:
    """What a ruleset's own standing orders take (none for Skirm's re-rolled saves)."""
    fields = actions.fields_of(rules, "standing_orders")
    return [] if SAVES in fields else fields


def _standing_given(fields: list[str], args: list[str]) -> dict[str, Any]:
    """`defiant off prompt on` (the ruleset's own standing orders) as {field: value}."""
    if len(args) % 2:
        raise ServiceError(f"Give each standing order with its value: {fields[0]} on|off ...")
    given: dict[str, Any] = {}
    for name, value in zip(args[::2], args[1::2], strict=True):
        field = name.lower()
        if field not in fields:
            raise ServiceError(
                f"Standing orders here are {', '.join(fields)}; not '{shown(name)}'."
            )
        if field in _SWITCHES:
            if value.lower() not in ("on", "off"):
                raise ServiceError(f"{field} is on or off, not '{shown(value)}'.")
            given[field] = value.lower() == "on"
        else:
            given[field] = _number(value, "standing")
    return given


_HELP_TOKEN = re.compile(r"\s{2,}|(?<=\]) (?=[a-z])")  # "[WEAPON] melee": one space between


# Sentences about the turn clock, which the console does not run.
_CLOCK = re.compile(rf"^Time controls: .*$\n?|\s*Time runs out {MOMENT.pattern}\.", re.M)
_SQUARE = re.compile(r"^[A-Za-z]{1,2}\d{1,2}$")
_ORDERS = re.compile(r"^\s*/?\s*(?:match\s+)?orders\b", re.I)

Ask = Callable[[str], str]
Say = Callable[[str], None]
Squad = str | dict[str, Any]  # a shipped squad's name, or a squad file's data


class ConsoleError(Exception):
    """The console cannot start (its database cannot be used, or the match cannot be set up);
    the message says why."""


class _Leave(Exception):
    """The players leave the console: quit, end of input or Ctrl-C."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code, self.why = code, why


def terminal_ask(prompt: str) -> str:
    """input(), echoing the line when it does not come from a terminal (a pipe, a file), so
    the transcript reads like a session."""
    line = input(prompt)
    if not sys.stdin.isatty():
        print(line)
    return line


class Console:
    def __init__(
        self,
        service: MatchService,
        out: Path,
        practice: bool,
        ask: Ask,
        say: Say,
        kept_in: str | None = None,
        rules: str = DEFAULT_RULESET,
        players: int = 2,
    ) -> None:
        self.service, self.out, self.practice = service, out, practice
        self.rules = rules  # the ruleset of a new match (a kept match goes on in its own)
        self.players = players  # a new match's seats (a kept match goes on with its own)
        self.ask, self.say = ask, say
        self.kept_in = kept_in  # the database file the match is kept in (None: in memory)
        self.controls: TimeControls | None = None  # a new match's clock (--clock)
        self.map_data: dict[str, Any] | None = None  # a new match's map file (--map-file)
        self.pictures = 0
        self.helped = False  # the command list is shown once, when the first turn begins

    async def play(self, squads: tuple[Squad, ...], mission: str, battle_map: str | None) -> int:
        """Play (or go on with) the channel's match until it ends or the players leave."""
        try:
            try:
                await self._set_up(squads, mission, battle_map)
            except ServiceError as error:  # a mission, map or squad that cannot play
                raise ConsoleError(f"cannot start the match: {self._plain(str(error))}") from error
            while True:
                row = await self.service.store.active_match(CHANNEL)
                if row is None:
                    await self._finished()
                    return 0
                if row.status == DEPLOYING:
                    await self._deployment(row)
                else:
                    await self._turn()
        except _Leave as leave:
            self.say(f"{leave.why} {self._kept()}")
            return leave.code

    # --- prompts --------------------------------------------------------------------------
    def _ask(self, prompt: str) -> str:
        """One line from the players; leaving (quit, Ctrl-D, Ctrl-C) ends the session."""
        try:
            line = self.ask(prompt)
        except EOFError:
            raise _Leave(0, "\nEnd of input: goodbye.") from None
        except KeyboardInterrupt:
            raise _Leave(EXIT_INTERRUPTED, "\nInterrupted: goodbye.") from None
        if line.strip().lower() in ("quit", "exit", "/quit"):
            raise _Leave(0, "Goodbye.")
        return line

    def _confirm(self, question: str, explain: str) -> bool:
        """A yes/no question; Enter means no."""
        while True:
            answer = self._ask(f"{question} [y/N]> ").strip().lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("", "n", "no"):
                return False
            if answer in ("help", "?"):
                self.say(f"{explain}\nType y (yes) or n (no; Enter says no too), or quit.")
            else:
                self.say("! Answer y (yes) or n (no); Enter says no. Type help for more.")

    def _kept(self) -> str:
        if self.kept_in is None:
            return "The match was not saved (skirmbot console --db FILE keeps a match to go on with later)."
        return f"The match is kept in {self.kept_in}: skirmbot console --db {self.kept_in} goes on with it."

    # --- set-up and deployment ------------------------------------------------------------
    async def _set_up(
        self, squads: tuple[Squad, ...], mission: str, battle_map: str | None
    ) -> None:
        row = await self.service.store.active_match(CHANNEL)
        if row is None:
            await self._show(
                await self.service.create(
                    GUILD,
                    CHANNEL,
                    PLAYERS[0],
                    practice=self.practice,
                    mission=mission,
                    battle_map=battle_map,
                    rules=self.rules,
                    controls=self.controls,
                    map_data=self.map_data,
                    **_seats(self.players),
                )
            )
        else:
            self.practice = AUTOMATIC in row.players
            against = "against the automatic player" if self.practice else "hot-seat"
            self.say(f"Going on with match #{row.id} ({against}), kept in {self.kept_in}.")
            # Number the new pictures after the ones already there.
            numbers = [int(p.stem[-3:]) for p in self.out.glob("*-[0-9][0-9][0-9].png")]
            self.pictures = max(numbers, default=-1) + 1
        row = await self.service.store.active_match(CHANNEL)
        if row is not None:
            self.players = len(row.players)
        if row is None or row.status != SETUP:
            return
        for seat, member in enumerate(PLAYERS[: self.players]):
            if row.players[seat] is None:
                await self._show(await self.service.join(CHANNEL, member))
        chosen = row.setup.get("squads", [None] * self.players)
        for side, (member, squad) in enumerate(zip(self._humans(), squads, strict=False)):
            if chosen[side] is None:
                await self._show(await self.service.choose_squad(CHANNEL, member, squad))

    def _humans(self) -> list[Member]:
        return [PLAYERS[0]] if self.practice else list(PLAYERS[: self.players])

    async def _deployment(self, row: MatchRow) -> None:
        """Ask the next player who has to deploy (or place infiltrators), until they have."""
        match, rules = replay(MatchRecord.from_json(row.record)), ruleset_of(row)
        stage = rules.set_up_stage(match.state)
        assert stage is not None  # a match deploying is in a set-up stage
        hidden = row.setup.get(hidden_key(stage), {})
        waiting = [
            (member, side)
            for member in self._humans()
            if (side := row.players.index(member.id)) in stage.sides and str(side) not in hidden
        ]
        if not waiting:
            raise _Leave(1, "! The match waits for a deployment the console cannot make.")
        member, side = waiting[0]
        squad = rules.view(match.state).sides[side].name
        example = self._deployment_example(rules, match, side)
        verb = stage.verb
        short = ", ".join(example.split(", ")[:2])
        prompt = f"{member.name}, {verb} {squad} (auto, help, or like '{short}')> "
        while True:
            line = self._ask(prompt).strip()
            words = line.split()
            word = words[0].lower().lstrip("/") if words else ""
            if word in ("deploy", "infiltrate"):  # the slash command's name, typed along
                line = line.split(maxsplit=1)[1] if len(words) > 1 else ""
                words = line.split()
                word = words[0].lower() if words else ""
            if not line:
                continue
            if word in ("help", "?"):
                self.say(self._deployment_help(rules.placement_help(match.state, side), example))
                continue
            if word in ("status", "card", "concede", "log", "draw", "match"):
                await self.handle(member, line)
                return
            try:
                placements = None if word == "auto" else _placements(line)
                await self._show(await self.service.deploy(CHANNEL, member, placements))
                return
            except ServiceError as error:
                self._refuse(error, "Type help for how to deploy.")

    def _deployment_example(self, rules: Ruleset, match: PlayedMatch, side: int) -> str:
        # Any ruleset's placement command carries {unit: square} (Deploy, Skirm's Infiltrate).
        placements = rules.automatic_placement(match.state, side).to_json()["placements"]
        return ", ".join(f"{unit} {square}" for unit, square in placements.items())

    def _deployment_help(self, what: str, example: str) -> str:
        return (
            f"{what}\nType one of:\n"
            "  auto                       the bot places them for you\n"
            "  UNIT SQUARE, UNIT SQUARE   every unit and its square, separated by commas\n"
            "  status   card UNIT   concede   quit   help\n"
            f"For example: {example}\n"
            "Your placement stays hidden until your opponent's is in too."
        )

    # --- the match ------------------------------------------------------------------------
    async def _turn(self) -> None:
        row, match = await self.service.view(CHANNEL)
        if match is None:  # back in deployment (cannot happen while playing): look again
            return
        rules = ruleset_of(row)
        member = self._whose_turn(row.players, _deciding_seat(rules, match.state))
        if not self.helped:
            self.say(
                help_for(
                    rules, match.state, _seat_in_turn(rules.view(match.state), row.players, member)
                )
            )
            self.helped = True
        squad = rules.view(match.state).sides[row.players.index(member.id)].name
        line = self._ask(f"[{squad}] {member.name}> ")
        await self.handle(member, line)

    def _whose_turn(self, players: list[int | None], side: int | None) -> Member:
        if self.practice or side is None:
            return PLAYERS[0]
        return next(m for m in PLAYERS if m.id == players[side])

    async def handle(self, member: Member, line: str) -> None:
        """One typed line: a game command, a whole activation (`orders`, or steps separated
        by ';'), or a match command (status, log, ...)."""
        try:
            words = _slash_words(orderline.words_of(line))
            if words and (words[0].lower() == "orders" or ";" in line):
                await self._orders(member, _steps(line))
            elif words:
                await self._dispatch(member, words[0].lower(), words[1:])
        except ServiceError as error:
            self._refuse(error)

    async def _orders(self, member: Member, line: str) -> None:
        """A whole activation in one line (the service's /match orders). When its first step
        needs Tactical Orders, ask as for a single command, then play the line again with the
        first step offering them (nothing was done: the steps keep their numbers, and the line
        stops where it would have)."""

        def offering_at_first_step(line: str, error: NeedsConfirmation) -> str:
            first, *rest = orderline.split_steps(line)
            return "; ".join([orderline.offering(first, getattr(error.retry, "orders", 1)), *rest])

        await self._spending(
            lambda typed: self.service.orders(CHANNEL, member, typed), line, offering_at_first_step
        )

    async def _spending(
        self,
        play: Callable[[T], Awaitable[Reply]],
        what: T,
        again: Callable[[T, NeedsConfirmation], T],
    ) -> None:
        """Play `what`; when it needs Tactical Orders not offered, ask before spending them,
        and play `again(what, error)` (what offers them) on a yes."""
        while True:
            try:
                await self._show(await play(what))
                return
            except NeedsConfirmation as error:
                explain = "The action costs Tactical Orders (TO) your squad has not offered."
                if not self._confirm(f"{self._plain(str(error))} Spend them?", explain):
                    self.say("Not done.")
                    return
                what = again(what, error)

    async def _dispatch(self, member: Member, word: str, args: list[str]) -> None:
        service = self.service
        managing: dict[str, Callable[[], Awaitable[Reply]]] = {
            "status": lambda: service.status(CHANNEL),
            "log": lambda: service.log(CHANNEL),
            "concede": lambda: service.concede(CHANNEL, member),
            "secondary": lambda: service.secondary(CHANNEL, member),
        }
        if word in ("help", "?"):
            self.say(await self._help(member, args))
        elif word in ("timer", "pause", "resume", "extend", "calendar", "vacation"):
            await self._clock(member, word, args)
        elif word in managing:
            await self._show(await managing[word]())
        elif word == "draw":
            await self._offer(member, "draw", service.offer_draw(CHANNEL, member))
        elif word == "undo":
            await self._offer(member, "undo", service.request_undo(CHANNEL, member))
        elif word == "recap":  # catch-up since the player last acted (skirmbot.service.recap)
            since = _number(args[0], word) if args else None
            await self._show(await recaps.show(service, CHANNEL, member, since))
        elif word == "preview":  # the activating unit, or the one named (as if on SQUARE)
            await self._show(await service.preview(CHANNEL, member, *_preview_words(args)))
        elif word == "card":
            _need(word, args)
            await self._show(await service.card(CHANNEL, " ".join(args)))
        elif word == "export":
            _need(word, args)
            name, data = await service.export(CHANNEL)
            self._write(Path(args[0]), data, f"wrote {args[0]} ({name})")
        elif word == "rules":
            self.say(self._plain(await service.rules_text(CHANNEL)))
        elif word == "act":
            await self._ruleset_action(member, args)
        elif word == "standing":
            _need(word, args)
            row, _ = await service.view(CHANNEL)
            own = own_standing_fields(ruleset_of(row))
            if args[0].lower() in own:
                given = _standing_given(own, args)
                await self._show(await service.own_standing_orders(CHANNEL, member, given))
                return
            above = None if args[0].lower() == "never" else _number(args[0], word)
            per_attack = _number(args[1], word) if len(args) > 1 else None
            await self._show(await service.standing_orders(CHANNEL, member, above, per_attack))
        else:
            await self._act(member, await self._game_command(member, [word, *args]))

    async def _game_command(self, member: Member, words: list[str]) -> commands.Command:
        """The action typed, read by the service's parser (the one /match orders uses)."""
        situation = await self.service.situation(CHANNEL, member)
        try:
            command = orderline.read_words(situation, words)
        except orderline.UnknownWord as error:
            raise ServiceError(
                f"'{error.word}' is not a command. Type help for the list."
            ) from None
        if command is None:
            raise ServiceError("Type an action, or help for the list.")
        return command

    async def _clock(self, member: Member, word: str, args: list[str]) -> None:
        """The clock's words. The console fires no deadlines (nobody misses at one keyboard),
        but it shows the clock, keeps a vacation and writes the calendar file."""
        if word == "timer":
            clock_words = self._plain((await timer(self.service, CHANNEL)).text)
            self.say(
                f"{clock_words}\n(The console keeps no clock running: nobody misses a deadline here.)"
            )
        elif word == "calendar":
            _need(word, args)
            told = await Calendars(self.service.store, clock=self.service.now).told(member.id)
            self.say(self._plain(told.text))
            self._write(Path(args[0]), told.data, f"wrote {args[0]} ({member.name}'s deadlines)")
        elif word == "vacation":
            _need(word, args)
            await self._show(await vacation(self.service, GUILD, member, _number(args[0], word)))
        else:
            self.say("The console keeps no clock running: take all the time you need.")

    async def _act(self, member: Member, command: commands.Command) -> None:
        """Play a game command; when it needs Tactical Orders, ask before spending them."""
        await self._spending(
            lambda sent: self.service.act(CHANNEL, member, sent), command, _offered_by_retry
        )

    async def _ruleset_action(self, member: Member, args: list[str]) -> None:
        """`act` lists the legal actions of the match's rules that have no word of their own,
        numbered; `act N` takes the Nth (as /act offers and takes them in Discord)."""
        situation = await self.service.situation(CHANNEL, member)
        offered = situation.own_actions(actions.COMMON_KINDS)
        if not args:
            listed = [f"  {n}. {words}" for n, (_, words) in enumerate(offered, start=1)]
            self.say("\n".join(["Actions you may take now:", *listed]) if listed else
                     "No action of this match's rules is open to you now; see rules.")  # fmt: skip
            return
        number = _number(args[0], "act")
        if not 1 <= number <= len(offered):
            raise ServiceError(
                f"There is no action {number}: type act for the {len(offered)} you may take now."
            )
        await self._act(member, actions.decode(offered[number - 1][0]))

    async def _offer(self, member: Member, what: str, asking: Awaitable[Reply]) -> None:
        """A draw offer or an undo request; in hot-seat the other player answers at once."""
        reply = await asking
        await self._show(reply)
        if reply.match_over or self.practice or what not in reply.choices:
            return
        other = next(player for player in self._humans() if player != member)
        question = "accept the draw" if what == "draw" else "agree to take the action back"
        if self._confirm(f"{other.name}, {question}?", f"{member.name} asked to {what}."):
            agree = self.service.accept_draw if what == "draw" else self.service.accept_undo
            await self._show(await agree(CHANNEL, other))
        else:
            self.say(f"{other.name} says no.")

    async def _help(self, member: Member, args: list[str]) -> str:
        if args:
            word = _slash_words(args)[0].lower()
            if word not in USAGE:
                return f"'{args[0]}' is not a command. Type help for the list."
            return f"Usage: {USAGE[word]}"
        row, match = await self.service.view(CHANNEL)
        if match is None:
            return help_for(ruleset_of(row))
        rules = ruleset_of(row)
        view = rules.view(match.state)
        side = _seat_in_turn(view, row.players, member)
        deciding = [d for d in rules.deciding(match.state) if row.players[d.side] == member.id]
        ready = ", ".join(p.id for p in view.ready(side)) if side is not None else ""
        if view.activating is None and not ready and deciding:
            # Nothing to activate, yet a decision waits (an ambition, an answer to an Attack).
            now = f"{deciding[0].why}; act lists what you may choose."
        elif view.activating is None:
            now = f"activate a unit ({ready}), or act with it at once: move UNIT SQUARE."
        elif side is not None and any(
            command.type == commands.Accept.type
            for command in rules.legal_commands(match.state, side)
        ):  # a roll waits for its decision
            now = "a roll waits: accept it, or reroll DIE (1 TO), or modify DIE +1|-1."
        else:
            now = f"{view.activating} is activating: act with it, or end its activation."
        return f"{help_for(rules, match.state, side)}\nNow, {member.name}: {now}"

    async def _finished(self) -> None:
        """The match is over: write its record next to the pictures and say what it is for."""
        name, data = await self.service.export(CHANNEL)
        path = self.out / name
        self._write(
            path,
            data,
            f"The match is over. Its record: {path}\n"
            f"  skirmbot replay {path}   tells the match again\n"
            f"  skirmbot render {path} --out {self.out / 'final.png'}   draws the end"
            + _verify_lines(path, data),
        )

    # --- output ---------------------------------------------------------------------------
    async def _show(self, reply: Reply) -> None:
        for message in reply.all():
            text = self._plain(message.text)
            if text.strip():
                self.say(text)
            if message.picture is not None:
                path = (
                    self.out
                    / f"{message.picture_name.removesuffix('.png')}-{self.pictures:03d}.png"
                )
                self.pictures += 1
                self._write(path, message.picture, f"  (picture: {path})")
            if message.animation is not None:  # a catch-up GIF, numbered with the pictures
                name = message.animation_name.removesuffix(".gif")
                path = self.out / f"{name}-{self.pictures:03d}.gif"
                self.pictures += 1
                self._write(path, message.animation, f"  (animation: {path})")

    def _write(self, path: Path, data: bytes, done: str) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as error:
            self.say(f"! Cannot write {path}: {error.strerror or error}.")
            return
        self.say(done)

    def _refuse(self, error: ServiceError, hint: str = "") -> None:
        self.say(f"! {self._plain(str(error))}{' ' + hint if hint else ''}")

    def _plain(self, text: str) -> str:
        return plain_text(_CLOCK.sub("", text), NAMES).rstrip()


def _deciding_seat(rules: Ruleset, state: Any) -> int | None:
    """The seat the keyboard goes to: the first the rules ask to decide (a defender's reaction
    in another's turn before it), else the one to act."""
    found = rules.deciding(state)
    return found[0].side if found else rules.view(state).to_act


def _seat_in_turn(view: MatchView, players: list[int | None], member: Member) -> int | None:
    """The member's seat when it may act now (a side's turn taken by several seats at once:
    each of them), else the one to act."""
    own = players.index(member.id) if member.id in players else None
    return own if own in view.seats_acting() else view.to_act


def _slash_words(words: list[str]) -> list[str]:
    """The slash commands typed as in Discord work too: '/match status' is 'status'."""
    if words and words[0].startswith("/"):
        words = [words[0][1:], *words[1:]]
    if len(words) > 1 and words[0].lower() == "match":
        words = words[1:]
    return words


def _preview_words(args: list[str]) -> tuple[str | None, str | None]:
    """`preview [UNIT] [SQUARE]` as (unit, square): one word that reads as a square is the
    square, for the unit activating."""
    if len(args) == 1 and _SQUARE.match(args[0]):
        return None, args[0]
    return (args[0] if args else None), (args[1] if len(args) > 1 else None)


def _need(word: str, args: list[str]) -> None:
    """ServiceError with the usage when `args` has fewer words than the command needs."""
    usage = USAGE[word]
    needed = sum(1 for part in usage.split()[1:] if not part.startswith("["))
    if len(args) < needed:
        raise ServiceError(f"Usage: {usage}")


def _steps(line: str) -> str:
    """The steps of a typed line, without the command's name in front ('/match orders')."""
    return _ORDERS.sub("", line, count=1)


def _number(text: str, word: str | None = None) -> int:
    try:
        return int(text)
    except ValueError:
        usage = f" Usage: {USAGE[word]}." if word else ""
        if word in ("move", "dash"):
            usage += ' Quote names with spaces: move "Remus 1" C4.'
        raise ServiceError(f"'{text}' is not a whole number.{usage}") from None


def _placements(text: str) -> dict[str, str]:
    """'Halden C2, Brann D2' -> {"Halden": "C2", "Brann": "D2"} (names may contain spaces)."""
    placements = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, _, square = part.strip().rpartition(" ")
        if not name or not _SQUARE.match(square):
            raise ServiceError(f"'{part.strip()}' should be a unit and a square, like 'Halden C2'.")
        if any(_SQUARE.match(word) for word in name.split()):
            raise ServiceError(
                f"'{part.strip()}': separate the units with commas, like 'Halden C2, Brann D2'."
            )
        placements[name.strip()] = square
    if not placements:
        raise ServiceError("Give units and squares like 'Halden C2, Brann D2', or auto.")
    return placements


# --- the service's texts as plain text ----------------------------------------------------------
_CODE = re.compile(r"```(?:[\w+-]*\n)?(.*?)```|`([^`]+)`", re.S)
_ESCAPED = re.compile(r"\\([\\*_~|`>#\-\[\]()<:])")
_KEPT = re.compile("\x00(\\d+)\x00")
_MARKUP = (
    (re.compile(r"\|\|(.+?)\|\|", re.S), r"\1"),  # ||spoiler||
    (re.compile(r"\*\*(.+?)\*\*", re.S), r"\1"),  # **bold**
    (re.compile(r"__(.+?)__", re.S), r"\1"),  # __underline__
    (re.compile(r"~~(.+?)~~", re.S), r"\1"),  # ~~strikethrough~~
    (re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])"), r"\1"),  # *italic*
    (re.compile(r"(?<!\w)_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)"), r"\1"),  # _italic_
    (re.compile(r"^(?:#{1,3}|-#) +", re.M), ""),  # # headings, -# small text
    (re.compile(r"^>(?:>>)? ", re.M), ""),  # > quotes
    (re.compile(r"\[([^\]\n]+)\]\(<?(https?://[^)\s>]+)>?\)"), r"\1 (\2)"),  # [masked](link)
    (re.compile(r"<(https?://[^>\s]+)>"), r"\1"),  # <link> without a preview
    (re.compile(r"<a?(:\w+:)\d+>"), r"\1"),  # custom emoji
    (re.compile(r"</([\w -]+):\d+>"), r"/\1"),  # a slash command's mention
    (re.compile(r"<@&\d+>"), "@role"),
    (re.compile(r"<#\d+>"), "#channel"),
)


def _verify_lines(path: Path, data: bytes) -> str:
    """The end's lines about verifiable dice: the seed, secret until now, and how to check the
    record (none for a match played with --seed, which has no commitment)."""
    record = MatchRecord.loads(data.decode("utf-8"))
    if record.commitment is None:
        return ""
    return (
        f"\n  skirmbot verify {path}   checks its dice against the commitment posted at the start"
        f"\nThe dice seed, secret until now: {record.dice.get('key')}"
        f" (SHA-256: {record.commitment})"
    )


def plain_text(text: str, names: Mapping[int, str], now: float | None = None) -> str:
    """A service text as the plain text a terminal shows: a person (`skirmbot.service.person`)
    becomes their name in `names`, a moment (`skirmbot.service.when`) the time from `now` ("in
    3 hours"); bold, italics, code, spoilers and the like lose their marks, custom emoji show
    their `:name:`."""
    kept: list[str] = []  # text already plain, kept out of the markup rules

    def keep(plain: str) -> str:
        kept.append(plain)
        return f"\x00{len(kept) - 1}\x00"

    text = written(
        text,
        lambda user: keep(names.get(user, f"@{user}")),
        lambda moment: keep(_relative(moment - (time.time() if now is None else now))),
        lambda place: keep(f"#{place}"),  # a channel (skirmbot.service.replies.channel)
    )
    text = _CODE.sub(lambda m: keep(m.group(2) or m.group(1).strip("\n")), text)
    text = _ESCAPED.sub(lambda m: keep(m.group(1)), text)
    for pattern, plain in _MARKUP:
        text = pattern.sub(plain, text)
    return _KEPT.sub(lambda m: kept[int(m.group(1))], text)


def _relative(seconds: float) -> str:
    """3 * 3600 -> "in 3 hours", -90 -> "2 minutes ago"."""
    units = (
        (365 * 86400, "year"),
        (30 * 86400, "month"),
        (86400, "day"),
        (3600, "hour"),
        (60, "minute"),
    )
    size, unit = next(((s, u) for s, u in units if abs(seconds) >= s), (1, "second"))
    count = round(abs(seconds) / size)
    if count == 0:
        return "now"
    amount = f"{count} {unit}{'' if count == 1 else 's'}"
    return f"in {amount}" if seconds > 0 else f"{amount} ago"


async def run_console(
    practice: bool,
    out: Path,
    db: str = ":memory:",
    squads: tuple[Squad, ...] | None = None,
    mission: str | None = None,
    battle_map: str | None = None,
    ask: Ask = terminal_ask,
    say: Say = print,
    seed: int | None = None,
    rules: str = DEFAULT_RULESET,
    clock: str | None = None,
    players: int = 2,
    map_data: dict[str, Any] | None = None,
) -> int:
    """Play in the terminal; the exit code: 0 (over, or left), 130 (Ctrl-C). ConsoleError
    when the database cannot be used, or the ruleset is not played by `players`. `clock`: a
    new match's clock (`console_clock`); `rules`, and the mission, map and squads, as a player
    types them (a key or file name, or a title)."""
    controls = console_clock(clock) if clock else None
    try:
        rules = ruleset_name(rules)
        check_players(rules, players)
    except (ServiceError, PlayersError) as error:
        raise ConsoleError(str(error)) from error
    try:
        store = await Store.open(db)
    except (sqlite3.Error, StoreError) as error:
        raise ConsoleError(f"cannot use {db} as the console's database: {error}") from error
    try:
        service = MatchService(store, seed_source=(lambda: seed) if seed is not None else None)
        kept_in = None if db == ":memory:" else db
        console = Console(service, out, practice, ask, say, kept_in, rules, players)
        console.controls = controls
        console.map_data = map_data  # a map file read by path, instead of `battle_map`
        default_mission, default_squads = content.defaults(rules, players)
        return await console.play(squads or default_squads, mission or default_mission, battle_map)
    finally:
        await store.close()


def _seats(players: int) -> dict[str, Any]:
    """The seats a new match asks for: two unless told (`MatchService.create(players=)`, which
    the seats work adds; a two-seat match asks nothing, as before it)."""
    return {} if players == 2 else {"players": players}


def console_clock(spec: str) -> TimeControls:
    """`--clock`: `activation[:HOURS]`, `fischer[:BANK+INCREMENT]` (hours) or `days[:DAYS]`
    (ConsoleError in plain words when it is none of them)."""
    mode, _, numbers = spec.strip().lower().partition(":")
    try:
        values = [int(n) for n in numbers.split("+")] if numbers else []
        if mode == "fischer" and len(values) in (0, 2):
            bank, increment = values or (72, 12)
            return controls_for(mode, 24, 2, "skip", bank_hours=bank, increment_hours=increment)
        if mode in ("activation", "days") and len(values) <= 1:
            hours = values[0] if values and mode == "activation" else 24
            days = values[0] if values and mode == "days" else 14
            return controls_for(mode, hours, 2, "skip", days=days)
    except (ValueError, ControlsError) as error:
        raise ConsoleError(f"--clock {spec}: {error}") from error
    raise ConsoleError(
        f"--clock {spec} is not a clock: activation[:HOURS], fischer[:BANK+INCREMENT] (hours) "
        "or days[:DAYS], such as fischer:48+6."
    )


def _offered_by_retry(command: commands.Command, error: NeedsConfirmation) -> commands.Command:
    """The command again, offering the Tactical Orders it needs (the service's own retry)."""
    return error.retry
