"""`skirmbot console`: play a match locally against the same service layer as the Discord bot.

Hot-seat (two players at one keyboard: the prompt names whose turn it is) or against the
automatic player. The command words are the slash commands' names: `move Halden C4`,
`shoot Halden Vex`, `end`, `match status`... and the battlemap is written as a PNG after each
activation.
"""

from __future__ import annotations

import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path

from skirmbot import content
from skirmbot.rules import commands
from skirmbot.service import MatchService, Member, NeedsConfirmation, Reply, ServiceError
from skirmbot.store import Store

CHANNEL, GUILD = 1, 1
PLAYERS = (Member(1, "Player 1"), Member(2, "Player 2"))
HELP = """Commands (the same words as the Discord slash commands):
  move UNIT SQUARE [TO]      dash UNIT SQUARE [TO]      end [UNIT]      activate UNIT
  shoot UNIT TARGET [WEAPON] melee UNIT TARGET [WEAPON] turret UNIT TARGET
  door UNIT [TOWARD]         pickup UNIT      drop UNIT      crate UNIT OPTION      delay
  leap UNIT SQUARE           skill UNIT SKILL [TARGET]  mission UNIT ACTION    secondary
  reroll DIE   modify DIE +1|-1   accept      orders N|never (re-roll failed saves above N TO)
  status   log   card UNIT   undo   draw   concede   export FILE   help   quit
Quote names with spaces: move "Remus 1" C4. TO is how many Tactical Orders to spend."""

Ask = Callable[[str], str]
Say = Callable[[str], None]


class Console:
    def __init__(
        self, service: MatchService, out: Path, practice: bool, ask: Ask, say: Say
    ) -> None:
        self.service, self.out, self.practice = service, out, practice
        self.ask, self.say = ask, say
        self.pictures = 0

    async def play(self, squads: tuple[str, str], mission: str, battle_map: str) -> int:
        await self._show(
            await self.service.create(
                GUILD,
                CHANNEL,
                PLAYERS[0],
                practice=self.practice,
                mission=mission,
                battle_map=battle_map,
            )
        )
        if not self.practice:
            await self._show(await self.service.join(CHANNEL, PLAYERS[1]))
        for member, squad in zip(self._humans(), squads, strict=False):
            await self._show(await self.service.choose_squad(CHANNEL, member, squad))
        for member in self._humans():
            await self._deploy(member)
        self.say(HELP)
        while True:
            if await self.service.store.active_match(CHANNEL) is None:
                return 0  # the match ended (or was conceded)
            row, match = await self.service.view(CHANNEL)
            if match is None:
                return 0
            member = self._whose_turn(row.players, match.state.to_act)
            try:
                line = self.ask(
                    f"[{match.state.squads[row.players.index(member.id)].name}] {member.name}> "
                )
            except EOFError:
                return 0
            if line.strip() in ("quit", "exit"):
                return 0
            await self.handle(member, line)

    def _humans(self) -> list[Member]:
        return [PLAYERS[0]] if self.practice else list(PLAYERS)

    def _whose_turn(self, players: list[int | None], side: int | None) -> Member:
        if self.practice or side is None:
            return PLAYERS[0]
        return next(m for m in PLAYERS if m.id == players[side])

    async def _deploy(self, member: Member) -> None:
        while True:
            try:
                line = self.ask(
                    f"{member.name}, deploy: 'auto', or units and squares like 'Halden C2, Brann D2'> "
                )
            except EOFError:
                line = "auto"
            placements = None if line.strip() in ("", "auto") else _placements(line)
            try:
                await self._show(await self.service.deploy(CHANNEL, member, placements))
                return
            except ServiceError as error:
                self.say(f"! {error}")

    async def handle(self, member: Member, line: str) -> None:
        """One typed line: a game command, or a match command (status, log, ...)."""
        try:
            words = shlex.split(line)
        except ValueError as error:
            self.say(f"! {error}")
            return
        if not words:
            return
        try:
            await self._dispatch(member, words[0].lower(), words[1:])
        except NeedsConfirmation as error:
            if self.ask(f"{error} Spend them? [y/N] ").strip().lower().startswith("y"):
                await self._show(await self.service.act(CHANNEL, member, error.retry))
        except ServiceError as error:
            self.say(f"! {error}")

    async def _dispatch(self, member: Member, word: str, args: list[str]) -> None:
        service = self.service
        managing: dict[str, Callable[[], Awaitable[Reply]]] = {
            "status": lambda: service.status(CHANNEL),
            "log": lambda: service.log(CHANNEL),
            "undo": lambda: service.request_undo(CHANNEL, member),
            "draw": lambda: service.offer_draw(CHANNEL, member),
            "concede": lambda: service.concede(CHANNEL, member),
            "secondary": lambda: service.secondary(CHANNEL, member),
        }
        if word == "help":
            self.say(HELP)
        elif word in managing:
            await self._show(await managing[word]())
        elif word == "card" and args:
            await self._show(await service.card(CHANNEL, args[0]))
        elif word == "export" and args:
            name, data = await service.export(CHANNEL)
            Path(args[0]).write_bytes(data)
            self.say(f"wrote {args[0]} ({name})")
        elif word == "orders" and args:
            above = None if args[0] == "never" else _number(args[0])
            await self._show(await service.standing_orders(CHANNEL, member, above))
        else:
            await self._show(await service.act(CHANNEL, member, _game_command(word, args)))

    async def _show(self, reply: Reply) -> None:
        for message in reply.all():
            self.say(message.text)
            if message.picture is not None:
                self.out.mkdir(parents=True, exist_ok=True)
                path = (
                    self.out
                    / f"{message.picture_name.removesuffix('.png')}-{self.pictures:03d}.png"
                )
                path.write_bytes(message.picture)
                self.pictures += 1
                self.say(f"  (picture: {path})")


def _game_command(word: str, args: list[str]) -> commands.Command:
    """The rules command a typed line names; ServiceError shows the usage when it does not fit."""

    def arg(n: int) -> str | None:
        return args[n] if len(args) > n else None

    def need(count: int, usage: str) -> None:
        if len(args) < count:
            raise ServiceError(f"Usage: {usage}")

    if word in ("move", "dash"):
        need(2, f"{word} UNIT SQUARE [TO]")
        cls = commands.Move if word == "move" else commands.Dash
        return cls(0, args[0], args[1], _number(arg(2) or "0"))
    if word in ("shoot", "melee"):
        need(2, f"{word} UNIT TARGET [WEAPON]")
        attack = commands.Shoot if word == "shoot" else commands.Melee
        return attack(0, args[0], args[1], arg(2))
    simple: dict[str, Callable[[], commands.Command]] = {
        "end": lambda: commands.EndActivation(0, arg(0)),
        "activate": lambda: commands.Activate(0, args[0]),
        "door": lambda: commands.Door(0, args[0], arg(1)),
        "pickup": lambda: commands.PickUp(0, args[0]),
        "drop": lambda: commands.Drop(0, args[0]),
        "crate": lambda: commands.OpenCrate(0, args[0], args[1]),
        "mission": lambda: commands.MissionAction(0, args[0], " ".join(args[1:])),
        "leap": lambda: commands.Leap(0, args[0], args[1]),
        "skill": lambda: commands.UseSkill(0, args[0], args[1], arg(2)),
        "turret": lambda: commands.UseTurret(0, args[0], args[1]),
        "delay": lambda: commands.Delay(0),
        "reroll": lambda: commands.Reroll(0, _number(args[0])),
        "modify": lambda: commands.Modify(0, _number(args[0]), _number(args[1])),
        "accept": lambda: commands.Accept(0),
    }
    if word not in simple:
        raise ServiceError(f"'{word}' is not a command. Type help for the list.")
    try:
        return simple[word]()
    except IndexError:
        raise ServiceError(f"'{word}' needs more words. Type help for the list.") from None


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ServiceError(f"'{text}' is not a whole number.") from None


def _placements(text: str) -> dict[str, str]:
    """'Halden C2, Brann D2' -> {"Halden": "C2", "Brann": "D2"} (names may contain spaces)."""
    placements = {}
    for part in text.split(","):
        name, _, square = part.strip().rpartition(" ")
        if not name:
            raise ServiceError(f"'{part.strip()}' should be a unit and a square, like 'Halden C2'.")
        placements[name.strip()] = square
    return placements


async def run_console(
    practice: bool,
    out: Path,
    db: str = ":memory:",
    squads: tuple[str, str] = content.DEFAULT_SQUADS,
    mission: str = content.DEFAULT_MISSION,
    battle_map: str = content.DEFAULT_MAP,
    ask: Ask = input,
    say: Say = print,
    seed: int | None = None,
) -> int:
    store = await Store.open(db)
    try:
        service = MatchService(store, seed_source=(lambda: seed) if seed is not None else None)
        return await Console(service, out, practice, ask, say).play(squads, mission, battle_map)
    finally:
        await store.close()
