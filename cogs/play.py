"""One short slash command per game action (/move, /shoot, /end, ...), with autocomplete that
offers only what the asking player may legally do now.

The choices come from the rules' own listings (`legal_commands`, `reachable_squares`,
`attack_targets`): the cog never decides what is legal, it only shows it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.rules import commands as rules
from skirmbot.rules.actions import CRATE_OPTIONS
from skirmbot.rules.cards import MELEE, RANGED
from skirmbot.rules.errors import RulesError
from skirmbot.rules.legal import attack_targets, legal_commands, reachable_squares, usable_weapons
from skirmbot.rules.squares import Square
from skirmbot.rules.state import MatchState, UnitState
from skirmbot.service import ServiceError
from skirmbot.words import shown

from .common import (
    NAME_LENGTH,
    SQUARE_LENGTH,
    TARGET_LENGTH,
    Text,
    answer,
    asker,
    channel_of,
    player,
    service_of,
)
from .errors import context, log

Choice = app_commands.Choice
T = TypeVar("T", str, int)
Completer = Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[Choice[T]]]]
Autocomplete = Completer[str]
PLACEMENT = re.compile(r"^(?P<unit>.+?)\s*[:=\s]\s*(?P<square>[A-Za-z]+[0-9]+)$")
DEPLOY_EXAMPLE = "Halden C2, Brann D2"
PLACEMENTS_LENGTH = 1000  # 12 units, each a name of up to 64 characters and a square
ALSO_LENGTH = 500  # several targets, comma-separated

# The free-text options (see common.Text: Discord lets nobody type more).
UnitText = app_commands.Transform[str, Text(NAME_LENGTH, "unit name")]
SquareText = app_commands.Transform[str, Text(SQUARE_LENGTH, "square")]
TargetText = app_commands.Transform[str, Text(TARGET_LENGTH, "target")]
NameText = app_commands.Transform[str, Text(NAME_LENGTH, "name")]
TargetsText = app_commands.Transform[str, Text(ALSO_LENGTH, "list of targets")]
PlacementsText = app_commands.Transform[str, Text(PLACEMENTS_LENGTH, "list of placements")]


# --- what the asking player may do now ---------------------------------------------------------
async def situation(interaction: discord.Interaction[Any]) -> tuple[MatchState, int] | None:
    """The live state and the asker's side, when the asker plays the match in progress here."""
    service = service_of(interaction)
    try:
        row, match = await service.view(channel_of(interaction))
    except ServiceError:
        return None
    side = service.side_of(row, asker(interaction))
    if match is None or side is None:
        return None
    return match.state, side


def legal_of(state: MatchState, side: int, kinds: tuple[type[rules.Command], ...]) -> list[Any]:
    return [command for command in legal_commands(state, side) if isinstance(command, kinds)]


def chosen_unit(interaction: discord.Interaction[Any], state: MatchState) -> UnitState | None:
    """The unit typed in the command's `unit` option, else the one activating."""
    name = getattr(interaction.namespace, "unit", None)
    if name:
        try:
            return state.unit(str(name))
        except RulesError:
            return None
    activation = state.activation
    return state.units[activation.unit] if activation is not None else None


def offer(options: Iterable[tuple[str, str]], current: str) -> list[Choice[str]]:
    """(value, label) pairs whose label contains what was typed, at most 25 (Discord's limit)."""
    typed = current.strip().casefold()
    seen: set[str] = set()
    choices: list[Choice[str]] = []
    for value, label in options:
        if value in seen or (typed and typed not in label.casefold()):
            continue
        seen.add(value)
        choices.append(Choice(name=label[:100], value=value[:100]))
    return choices[:25]


def safely(function: Completer[T]) -> Completer[T]:
    """Autocomplete must answer something: an error offers nothing (and is logged)."""

    async def wrapper(interaction: discord.Interaction[Any], current: str) -> list[Choice[T]]:
        try:
            return await function(interaction, current)
        except Exception:
            log.exception("Autocomplete failed in %s", context(interaction))
            return []

    return wrapper


# --- autocomplete: units ---------------------------------------------------------------------
def units_for(*kinds: type[rules.Command]) -> Autocomplete:
    """The asker's units that can do one of `kinds` now (Activate: the ready units)."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None:
            return []
        state, side = found
        if rules.Activate in kinds:
            ready = (
                state.ready_units(side) if state.to_act == side and state.activation is None else []
            )
            return offer(((u.id, _unit_label(u)) for u in ready), current)
        names = {command.unit for command in legal_of(state, side, kinds) if command.unit}
        units = [unit for unit in state.units.values() if unit.id in names]
        return offer(((u.id, _unit_label(u)) for u in units), current)

    return complete


def _unit_label(unit: UnitState) -> str:
    return f"{unit.id} ({unit.hit} HIT, on {unit.square})"


# --- autocomplete: squares, targets, weapons, ... ---------------------------------------------
def squares_for(kind: type[rules.Move] | type[rules.Dash], action: str) -> Autocomplete:
    """Squares the unit can end its Move/Dash on, cheapest first: "C4 (2)"."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None or (unit := chosen_unit(interaction, found[0])) is None:
            return []
        state, side = found
        legal = {c.square for c in legal_of(state, side, (kind,)) if c.unit == unit.id}
        routes = reachable_squares(state, unit, action)
        ends = sorted(
            (route.cost, square.y, square.x, str(square))
            for square, route in routes.items()
            if str(square) in legal
        )
        return offer(((name, f"{name} ({cost})") for cost, _, _, name in ends), current)

    return complete


def leaps_for() -> Autocomplete:
    """Squares the unit can Leap to (LPx)."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None or (unit := chosen_unit(interaction, found[0])) is None:
            return []
        state, side = found
        squares = sorted(
            {c.square for c in legal_of(state, side, (rules.Leap,)) if c.unit == unit.id}
        )
        return offer(((square, square) for square in squares), current)

    return complete


def mission_actions_for() -> Autocomplete:
    """The mission actions the unit can perform now."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None or (unit := chosen_unit(interaction, found[0])) is None:
            return []
        state, side = found
        names = sorted(
            {c.action for c in legal_of(state, side, (rules.MissionAction,)) if c.unit == unit.id}
        )
        return offer(((name, name) for name in names), current)

    return complete


def skills_for() -> Autocomplete:
    """The unit's skills that can be used now: "Field Dressing (1 ACT): regain 2 HIT ..."."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None or (unit := chosen_unit(interaction, found[0])) is None:
            return []
        state, side = found
        usable = {c.skill for c in legal_of(state, side, (rules.UseSkill,)) if c.unit == unit.id}
        return offer(((s.name, s.summary()) for s in unit.card.skills if s.name in usable), current)

    return complete


def skill_targets_for() -> Autocomplete:
    """What the chosen skill can be aimed at: a unit or a square."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None or (unit := chosen_unit(interaction, found[0])) is None:
            return []
        state, side = found
        skill = str(getattr(interaction.namespace, "skill", "") or "")
        aims = {
            c.target
            for c in legal_of(state, side, (rules.UseSkill,))
            if c.unit == unit.id and c.skill == skill
        }
        return offer(((aim, aim) for aim in sorted(a for a in aims if a)), current)

    return complete


def targets_for(kind: type[rules.Shoot] | type[rules.Melee], attack: str) -> Autocomplete:
    """What the unit can attack now: "Vex (5 sq, in cover)"."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None or (unit := chosen_unit(interaction, found[0])) is None:
            return []
        state, side = found
        weapon = getattr(interaction.namespace, "weapon", None)
        legal = [
            c for c in legal_of(state, side, (kind,))
            if c.unit == unit.id and (not weapon or c.weapon.casefold() == str(weapon).casefold())
        ]  # fmt: skip
        targets = {c.target for c in legal}
        labels = {
            option.target: f"{option.label} ({option.distance} sq{', in cover' if option.cover else ''})"
            for w in usable_weapons(unit, attack)
            for option in attack_targets(state, unit, attack, w)
        }
        return offer(((t, labels.get(t, t)) for t in sorted(targets)), current)

    return complete


def weapons_for(kind: type[rules.Shoot] | type[rules.Melee], attack: str) -> Autocomplete:
    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None or (unit := chosen_unit(interaction, found[0])) is None:
            return []
        state, side = found
        target = getattr(interaction.namespace, "target", None)
        legal = {
            c.weapon for c in legal_of(state, side, (kind,))
            if c.unit == unit.id and (not target or c.target.casefold() == str(target).casefold())
        }  # fmt: skip
        weapons = [w for w in usable_weapons(unit, attack) if w.name in legal]
        return offer(((w.name, w.summary()) for w in weapons), current)

    return complete


def item_choices(
    kind: type[rules.UnitCommand],
    value: Callable[[Any], str | None],
    label: Callable[[MatchState, UnitState, str], str],
) -> Autocomplete:
    """Doors, crate options, turret targets: the values legal commands of `kind` carry."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None or (unit := chosen_unit(interaction, found[0])) is None:
            return []
        state, side = found
        values = sorted(
            {v for c in legal_of(state, side, (kind,)) if c.unit == unit.id and (v := value(c))}
        )
        return offer(((v, label(state, unit, v)) for v in values), current)

    return complete


def dice_for(kind: type[rules.Reroll] | type[rules.Modify]) -> Completer[int]:
    """The dice of the roll waiting for a decision that can be re-rolled (or changed)."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[int]]:
        found = await situation(interaction)
        if found is None or found[0].activation is None or found[0].activation.pending is None:
            return []
        state, side = found
        dice = state.activation.pending.dice  # type: ignore[union-attr]
        numbers = sorted({c.die for c in legal_of(state, side, (kind,))})
        return [Choice(name=f"Die {n}: rolled {dice[n - 1].value}", value=n) for n in numbers][:25]

    return complete


# --- reading options -------------------------------------------------------------------------
def square_of(text: str) -> str:
    """What a player typed or picked ("c4", "C4 (2)") as a square name."""
    words = text.split()
    if not words:
        raise ServiceError("Name a square, like C4.")
    return words[0].upper()


def read_placements(text: str) -> dict[str, str]:
    """`Halden C2, Brann D2` as {unit: square}, with an error naming the part not understood."""
    placements: dict[str, str] = {}
    for part in re.split(r"[,;\n]+", text):
        part = part.strip()
        if not part:
            continue
        found = PLACEMENT.match(part)
        if found is None:
            raise ServiceError(
                f"I could not read '{shown(part)}': give each unit and its square, like `{DEPLOY_EXAMPLE}`."
            )
        unit = found["unit"].strip()
        if len(unit) > NAME_LENGTH:
            raise ServiceError(
                f"'{shown(unit)}' is too long for a unit's name; give each unit and its square, "
                f"like `{DEPLOY_EXAMPLE}`."
            )
        placements[unit] = found["square"].upper()
    if not placements:
        raise ServiceError(
            f"Give each unit and its square, like `{DEPLOY_EXAMPLE}`, or use auto: True."
        )
    return placements


def door_label(state: MatchState, unit: UnitState, toward: str) -> str:
    return f"the door toward {toward}"


def crate_label(state: MatchState, unit: UnitState, option: str) -> str:
    return CRATE_OPTIONS.get(option, option)


def distance_label(state: MatchState, unit: UnitState, target: str) -> str:
    """A turret's target and how far it is: "Vex (5 sq)"."""
    where = state.units[target].square if target in state.units else None
    if where is None and "@" in target:
        try:
            where = Square.parse(target.split("@", 1)[1])
        except RulesError:
            where = None
    if where is None or unit.square is None:
        return target
    return f"{target} ({unit.square.distance(where)} sq)"


# --- the commands ----------------------------------------------------------------------------
class Play(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def act(self, interaction: discord.Interaction[Any], command: rules.Command) -> None:
        member = await player(interaction)
        await answer(
            interaction, service_of(interaction).act(channel_of(interaction), member, command)
        )

    @app_commands.command(
        name="deploy", description=f"Deploy your squad: placements like '{DEPLOY_EXAMPLE}', or auto"
    )
    @app_commands.describe(
        placements=f"Each unit and its square, e.g. {DEPLOY_EXAMPLE}",
        auto="Let the bot deploy your squad",
    )
    @app_commands.guild_only()
    async def deploy(
        self,
        interaction: discord.Interaction[Any],
        placements: PlacementsText | None = None,
        auto: bool = False,
    ) -> None:
        given = bool(placements and placements.strip())
        if auto == given:
            raise ServiceError(
                f"Give placements (like `{DEPLOY_EXAMPLE}`) or auto: True, one of the two."
            )
        member = await player(interaction)
        chosen = read_placements(placements) if given and placements else None
        await answer(
            interaction, service_of(interaction).deploy(channel_of(interaction), member, chosen)
        )

    @app_commands.command(name="activate", description="Activate one of your ready units")
    @app_commands.describe(unit="A ready unit of yours")
    @app_commands.autocomplete(unit=units_for(rules.Activate))
    @app_commands.guild_only()
    async def activate(self, interaction: discord.Interaction[Any], unit: UnitText) -> None:
        await self.act(interaction, rules.Activate(0, unit.strip()))

    @app_commands.command(name="move", description="Move a unit (up to 3 squares)")
    @app_commands.describe(unit="Your unit", square="Where it ends its move")
    @app_commands.autocomplete(unit=units_for(rules.Move), square=squares_for(rules.Move, "move"))
    @app_commands.guild_only()
    async def move(
        self, interaction: discord.Interaction[Any], unit: UnitText, square: SquareText
    ) -> None:
        await self.act(interaction, rules.Move(0, unit.strip(), square_of(square)))

    @app_commands.command(name="dash", description="Dash or crawl a unit (1 square)")
    @app_commands.describe(unit="Your unit", square="Where it ends")
    @app_commands.autocomplete(unit=units_for(rules.Dash), square=squares_for(rules.Dash, "dash"))
    @app_commands.guild_only()
    async def dash(
        self, interaction: discord.Interaction[Any], unit: UnitText, square: SquareText
    ) -> None:
        await self.act(interaction, rules.Dash(0, unit.strip(), square_of(square)))

    @app_commands.command(
        name="leap", description="Leap a unit with LPx up to x squares in a straight line (2 ACT)"
    )
    @app_commands.describe(unit="Your unit", square="Where it lands")
    @app_commands.autocomplete(unit=units_for(rules.Leap), square=leaps_for())
    @app_commands.guild_only()
    async def leap(
        self, interaction: discord.Interaction[Any], unit: UnitText, square: SquareText
    ) -> None:
        await self.act(interaction, rules.Leap(0, unit.strip(), square_of(square)))

    @app_commands.command(name="skill", description="Use a skill from a unit's stat card")
    @app_commands.describe(
        unit="Your unit",
        skill="The skill",
        target="Its target, a unit or a square, if it needs one",
    )
    @app_commands.autocomplete(
        unit=units_for(rules.UseSkill), skill=skills_for(), target=skill_targets_for()
    )
    @app_commands.guild_only()
    async def skill(
        self,
        interaction: discord.Interaction[Any],
        unit: UnitText,
        skill: NameText,
        target: TargetText | None = None,
    ) -> None:
        await self.act(
            interaction,
            rules.UseSkill(0, unit.strip(), skill.strip(), target.strip() if target else None),
        )

    @app_commands.command(
        name="mission", description="Perform one of the mission's actions with a unit"
    )
    @app_commands.describe(unit="Your unit", action="The mission action")
    @app_commands.autocomplete(unit=units_for(rules.MissionAction), action=mission_actions_for())
    @app_commands.guild_only()
    async def mission(
        self, interaction: discord.Interaction[Any], unit: UnitText, action: NameText
    ) -> None:
        await self.act(interaction, rules.MissionAction(0, unit.strip(), action.strip()))

    @app_commands.command(name="shoot", description="Make a ranged attack")
    @app_commands.describe(
        unit="Your unit",
        target="What it shoots at",
        weapon="Which ranged weapon (default: the first)",
        also="More targets for a Chain Reaction or Spread weapon, comma-separated",
    )
    @app_commands.autocomplete(
        unit=units_for(rules.Shoot),
        target=targets_for(rules.Shoot, RANGED),
        weapon=weapons_for(rules.Shoot, RANGED),
    )
    @app_commands.guild_only()
    async def shoot(
        self,
        interaction: discord.Interaction[Any],
        unit: UnitText,
        target: TargetText,
        weapon: NameText | None = None,
        also: TargetsText | None = None,
    ) -> None:
        await self.act(
            interaction,
            rules.Shoot(0, unit.strip(), target.split(" (")[0].strip(), weapon, also=also),
        )

    @app_commands.command(name="melee", description="Make a melee attack on an adjacent enemy")
    @app_commands.describe(
        unit="Your unit",
        target="Whom it attacks",
        weapon="Which melee weapon (default: the first)",
        also="More targets for a Chain Reaction or Spread weapon, comma-separated",
    )
    @app_commands.autocomplete(
        unit=units_for(rules.Melee),
        target=targets_for(rules.Melee, MELEE),
        weapon=weapons_for(rules.Melee, MELEE),
    )
    @app_commands.guild_only()
    async def melee(
        self,
        interaction: discord.Interaction[Any],
        unit: UnitText,
        target: TargetText,
        weapon: NameText | None = None,
        also: TargetsText | None = None,
    ) -> None:
        await self.act(
            interaction,
            rules.Melee(0, unit.strip(), target.split(" (")[0].strip(), weapon, also=also),
        )

    @app_commands.command(name="door", description="Open or close a door on the unit's square")
    @app_commands.describe(
        unit="Your unit", toward="The square across the door (when there are several)"
    )
    @app_commands.autocomplete(
        unit=units_for(rules.Door), toward=item_choices(rules.Door, lambda c: c.toward, door_label)
    )
    @app_commands.guild_only()
    async def door(
        self,
        interaction: discord.Interaction[Any],
        unit: UnitText,
        toward: SquareText | None = None,
    ) -> None:
        await self.act(
            interaction, rules.Door(0, unit.strip(), square_of(toward) if toward else None)
        )

    @app_commands.command(name="pickup", description="Pick up the marker on the unit's square")
    @app_commands.describe(unit="Your unit")
    @app_commands.autocomplete(unit=units_for(rules.PickUp))
    @app_commands.guild_only()
    async def pickup(self, interaction: discord.Interaction[Any], unit: UnitText) -> None:
        await self.act(interaction, rules.PickUp(0, unit.strip()))

    @app_commands.command(name="drop", description="Drop the marker the unit carries")
    @app_commands.describe(unit="Your unit")
    @app_commands.autocomplete(unit=units_for(rules.Drop))
    @app_commands.guild_only()
    async def drop(self, interaction: discord.Interaction[Any], unit: UnitText) -> None:
        await self.act(interaction, rules.Drop(0, unit.strip()))

    @app_commands.command(
        name="crate", description="Open the crate on the unit's square and take one option"
    )
    @app_commands.describe(unit="Your unit", option="What to take from the crate")
    @app_commands.autocomplete(
        unit=units_for(rules.OpenCrate),
        option=item_choices(rules.OpenCrate, lambda c: c.option, crate_label),
    )
    @app_commands.guild_only()
    async def crate(
        self, interaction: discord.Interaction[Any], unit: UnitText, option: NameText
    ) -> None:
        await self.act(interaction, rules.OpenCrate(0, unit.strip(), option.strip().lower()))

    @app_commands.command(name="turret", description="Fire the turret the unit stands at")
    @app_commands.describe(unit="Your unit at a turret", target="What the turret fires at")
    @app_commands.autocomplete(
        unit=units_for(rules.UseTurret),
        target=item_choices(rules.UseTurret, lambda c: c.target, distance_label),
    )
    @app_commands.guild_only()
    async def turret(
        self, interaction: discord.Interaction[Any], unit: UnitText, target: TargetText
    ) -> None:
        await self.act(interaction, rules.UseTurret(0, unit.strip(), target.split(" (")[0].strip()))

    @app_commands.command(name="end", description="End the activation in progress")
    @app_commands.describe(unit="The activating unit (or a ready unit, to end it without acting)")
    @app_commands.autocomplete(unit=units_for(rules.EndActivation))
    @app_commands.guild_only()
    async def end(
        self, interaction: discord.Interaction[Any], unit: UnitText | None = None
    ) -> None:
        await self.act(interaction, rules.EndActivation(0, unit.strip() if unit else None))

    @app_commands.command(name="delay", description="Delay: let your opponent activate first")
    @app_commands.guild_only()
    async def delay(self, interaction: discord.Interaction[Any]) -> None:
        await self.act(interaction, rules.Delay(0))

    @app_commands.command(name="accept", description="Accept the roll and go on with the attack")
    @app_commands.guild_only()
    async def accept(self, interaction: discord.Interaction[Any]) -> None:
        await self.act(interaction, rules.Accept(0))

    @app_commands.command(name="reroll", description="Spend 1 TO to re-roll one die of the roll")
    @app_commands.describe(die="Which die (1 is the first)")
    @app_commands.autocomplete(die=dice_for(rules.Reroll))
    @app_commands.guild_only()
    async def reroll(
        self, interaction: discord.Interaction[Any], die: app_commands.Range[int, 1, 20]
    ) -> None:
        await self.act(interaction, rules.Reroll(0, die))

    @app_commands.command(
        name="modify", description="Spend 1 TO to change one die of the roll by 1"
    )
    @app_commands.describe(die="Which die (1 is the first)", change="Up or down by one")
    @app_commands.autocomplete(die=dice_for(rules.Modify))
    @app_commands.choices(change=[Choice(name="+1", value=1), Choice(name="-1", value=-1)])
    @app_commands.guild_only()
    async def modify(
        self,
        interaction: discord.Interaction[Any],
        die: app_commands.Range[int, 1, 20],
        change: int,
    ) -> None:
        await self.act(interaction, rules.Modify(0, die, change))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
