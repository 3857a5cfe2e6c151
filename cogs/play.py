"""One short slash command per common game action (/move, /shoot, /end, ...), and /act for the
actions a ruleset has of its own (Skirm Lite's Revive), with autocomplete that offers only what
the asking player may legally do now in this match's ruleset.

The choices come from the service (`skirmbot.service.choices`, which asks the rules' own
listings): the cog never decides what is legal, it only shows it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Iterable
from itertools import zip_longest
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.service import Member, ServiceError, actions
from skirmbot.service.choices import Option, Situation
from skirmbot.words import shown

from .buttons import answer
from .common import (
    NAME_LENGTH,
    SQUARE_LENGTH,
    TARGET_LENGTH,
    Text,
    asker,
    channel_of,
    player,
    send,
    service_of,
)
from .errors import context, log
from .text import CHOICES_LIMIT, NAME_LIMIT, choice, listed

Choice = app_commands.Choice
T = TypeVar("T", str, int)
Completer = Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[Choice[T]]]]
Autocomplete = Completer[str]
# A unit and its square; or, in the group rules, a Group and every model's square in order
# ("Spearmen C3 D3 E3": the squares are one value, the ruleset reads them).
PLACEMENT = re.compile(
    r"^(?P<unit>.+?)\s*[:=\s]\s*(?P<square>[A-Za-z]+[0-9]+(?:\s+[A-Za-z]+[0-9]+)*)$"
)
DEPLOY_EXAMPLE = "Halden C2, Brann D2"
PLACEMENTS_LENGTH = 1000  # 12 units, each a name of up to 64 characters and a square
ALSO_LENGTH = 500  # several targets, comma-separated
MODELS_LENGTH = 100  # a square for each model of a Group, space-separated

# The free-text options (see common.Text: Discord lets nobody type more).
UnitText = app_commands.Transform[str, Text(NAME_LENGTH, "unit name")]
SquareText = app_commands.Transform[str, Text(SQUARE_LENGTH, "square")]
TargetText = app_commands.Transform[str, Text(TARGET_LENGTH, "target")]
NameText = app_commands.Transform[str, Text(NAME_LENGTH, "name")]
TargetsText = app_commands.Transform[str, Text(ALSO_LENGTH, "list of targets")]
PlacementsText = app_commands.Transform[str, Text(PLACEMENTS_LENGTH, "list of placements")]
ModelsText = app_commands.Transform[str, Text(MODELS_LENGTH, "list of squares")]


# --- what the asking player may do now ---------------------------------------------------------
async def situation(interaction: discord.Interaction[Any]) -> Situation | None:
    """The live match as the asker sees it, when the asker plays the match in progress here."""
    try:
        found = await service_of(interaction).situation(channel_of(interaction), asker(interaction))
    except ServiceError:
        return None
    return found if found.side is not None else None


def offer(options: Iterable[tuple[str, str]], current: str) -> list[Choice[str]]:
    """(value, label) pairs whose label contains what was typed, at most 25 (Discord's limit)."""
    typed = current.strip().casefold()
    seen: set[str] = set()
    choices: list[Choice[str]] = []
    for value, label in options:
        if value in seen or (typed and typed not in label.casefold()):
            continue
        seen.add(value)
        choices.append(choice(label, value))
    return listed(choices)


def safely(function: Completer[T]) -> Completer[T]:
    """Autocomplete must answer something: an error offers nothing (and is logged)."""

    async def wrapper(interaction: discord.Interaction[Any], current: str) -> list[Choice[T]]:
        try:
            return await function(interaction, current)
        except Exception:
            log.exception("Autocomplete failed in %s", context(interaction))
            return []

    return wrapper


def option(interaction: discord.Interaction[Any], name: str) -> str:
    """What the player has put in another option of the same command so far."""
    return str(getattr(interaction.namespace, name, "") or "")


def for_unit(
    choices: Callable[[Situation, Any, discord.Interaction[Any]], list[Option]],
) -> Autocomplete:
    """Autocomplete from the situation and the unit chosen in the `unit` option (else the one
    activating): `choices(situation, unit, interaction)` gives the (value, label) pairs."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        if found is None or (unit := found.unit(option(interaction, "unit"))) is None:
            return []
        return offer(choices(found, unit, interaction), current)

    return complete


# --- autocomplete ----------------------------------------------------------------------------
def units_for(*kinds: type[actions.Command] | str) -> Autocomplete:
    """The asker's units that can do one of `kinds` now (Activate: the ready units); a
    ruleset's own command by its kind ("leap")."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        found = await situation(interaction)
        return [] if found is None else offer(found.units(*kinds), current)

    return complete


def squares_for(kind: type[actions.Move] | type[actions.Dash], action: str) -> Autocomplete:
    """Squares the unit can end its Move/Dash on, cheapest first: "C4 (2)"."""
    return for_unit(lambda found, unit, _: found.squares(unit, kind, action))


@safely
async def own_actions(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
    """The legal actions of the match's ruleset that no command of this cog sends; an action
    whose compact form is longer than a choice's value may be is left out (none is, today)."""
    found = await situation(interaction)
    if found is None:
        return []
    options = found.own_actions(actions.COMMON_KINDS, option(interaction, "unit"))
    fitting = [(value, label) for value, label in options if len(value) <= 100]
    return offer(every_kind_listed(fitting, current), current)


def every_kind_listed(options: list[tuple[str, str]], current: str) -> list[tuple[str, str]]:
    """The actions in their order while the list shows them all; more than it shows, each kind's
    first, then each kind's second, and so on: a long run of one kind (a Summon at each square
    it may use) must not push the others (End turn) off the list."""
    typed = current.strip().casefold()
    matching = [(value, label) for value, label in options if typed in label.casefold()]
    if len(matching) <= CHOICES_LIMIT:
        return matching
    by_kind: dict[str, list[tuple[str, str]]] = {}
    for value, label in matching:
        by_kind.setdefault(actions.kind_of(actions.decode(value)), []).append((value, label))
    rounds = zip_longest(*by_kind.values())
    return [found for each in rounds for found in each if found is not None]


async def placement_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[Choice[str]]:
    """A whole deployment of the asker's squad to take or start from, while they deploy; one
    longer than a choice's value may be (a big squad's) is left out: /deploy auto does it."""
    try:
        found = await service_of(interaction).placing(channel_of(interaction), asker(interaction))
    except ServiceError:
        return []
    return offer([(v, label) for v, label in found.placements() if len(v) <= NAME_LIMIT], current)


def leaps_for() -> Autocomplete:
    return for_unit(lambda found, unit, _: found.leaps(unit))


def own_values_for(kind: str, field: str) -> Autocomplete:
    """What a field of the ruleset's own command of `kind` may hold for the unit, labelled: an
    infantry arc's dots to face ("F7 (Varga, 6 dots)") and orders, a throw's dots."""
    return for_unit(lambda found, unit, _: found.own_values(unit, kind, field))


def own_numbers_for(kind: str, field: str) -> Completer[int]:
    """`own_values_for` of a field that holds a whole number (an arc's width: "60° (4 AP, 2
    shots)")."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[int]]:
        found = await situation(interaction)
        if found is None or (unit := found.unit(option(interaction, "unit"))) is None:
            return []
        options = found.own_values(unit, kind, field)
        typed = current.strip().casefold()
        return listed(
            [
                choice(label, int(value))
                for value, label in options
                if value.isdigit() and typed in label.casefold()
            ]
        )

    return complete


def mission_actions_for() -> Autocomplete:
    return for_unit(lambda found, unit, _: found.mission_actions(unit))


def skills_for() -> Autocomplete:
    return for_unit(lambda found, unit, _: found.skills(unit))


def skill_targets_for() -> Autocomplete:
    return for_unit(lambda found, unit, i: found.skill_targets(unit, option(i, "skill")))


def targets_for(kind: type[actions.Shoot] | type[actions.Melee]) -> Autocomplete:
    """What the unit can attack now: "Vex (5 sq, in cover)"."""
    return for_unit(lambda found, unit, i: found.targets(unit, kind, option(i, "weapon")))


def weapons_for(kind: type[actions.Shoot] | type[actions.Melee]) -> Autocomplete:
    return for_unit(lambda found, unit, i: found.weapons(unit, kind, option(i, "target")))


def doors_for() -> Autocomplete:
    return for_unit(lambda found, unit, _: found.doors(unit))


def crate_options_for() -> Autocomplete:
    return for_unit(lambda found, unit, _: found.crate_options(unit))


def turret_targets_for() -> Autocomplete:
    return for_unit(lambda found, unit, _: found.turret_targets(unit))


def dice_for(kind: type[actions.Reroll] | type[actions.Modify]) -> Completer[int]:
    """The dice of the roll waiting for a decision that can be re-rolled (or changed)."""

    @safely
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[int]]:
        found = await situation(interaction)
        if found is None:
            return []
        return listed([choice(label, n) for n, label in found.dice(kind)])

    return complete


# --- reading options -------------------------------------------------------------------------
def square_of(text: str) -> str:
    """What a player typed or picked ("c4", "C4 (2)") as a square name."""
    words = text.split()
    if not words:
        raise ServiceError("Name a square, like C4.")
    return words[0].upper()


def squares_of(text: str) -> str:
    """Squares typed one after another ("c3, d3 e4") as the rules read them: "C3 D3 E4"."""
    squares = text.replace(",", " ").split()
    if not squares:
        raise ServiceError("Name each model's square in order, like C3 D3 E4.")
    return " ".join(square.upper() for square in squares)


def read_placements(text: str) -> dict[str, str]:
    """`Halden C2, Brann D2` as {unit: square}, with an error naming the part not understood;
    `Spearmen C3 D3 E3` (every model's square, the group rules) as {"Spearmen": "C3 D3 E3"}."""
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
        placements[unit] = " ".join(found["square"].upper().split())
    if not placements:
        raise ServiceError(
            f"Give each unit and its square, like `{DEPLOY_EXAMPLE}`, or use auto: True."
        )
    return placements


# --- the commands ----------------------------------------------------------------------------
ActionText = app_commands.Transform[str, Text(100, "action")]


class Play(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def act(self, interaction: discord.Interaction[Any], command: actions.Command) -> None:
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
    @app_commands.autocomplete(placements=placement_choices)
    @app_commands.guild_only()
    async def deploy(
        self,
        interaction: discord.Interaction[Any],
        placements: PlacementsText | None = None,
        auto: bool = False,
    ) -> None:
        given = bool(placements and placements.strip())
        member = await player(interaction)
        if not given and not auto:
            await self._placement_help(interaction, member)
            return
        if auto and given:
            raise ServiceError(
                f"Give placements (like `{DEPLOY_EXAMPLE}`) or auto: True, one of the two."
            )
        chosen = read_placements(placements) if given and placements else None
        await answer(
            interaction, service_of(interaction).deploy(channel_of(interaction), member, chosen)
        )

    async def _placement_help(self, interaction: discord.Interaction[Any], member: Member) -> None:
        """/deploy alone: where the player's units may go, in their ruleset's words."""
        found = await service_of(interaction).placing(channel_of(interaction), member)
        text = found.placement_help() or "Every unit of your squad goes in your deployment zone."
        await send(
            interaction,
            f"{text}\nGive placements (like `{DEPLOY_EXAMPLE}`; the list offers a whole "
            "deployment to start from) or auto: True.",
            private=True,
        )

    @app_commands.command(name="activate", description="Activate one of your ready units")
    @app_commands.describe(unit="A ready unit of yours")
    @app_commands.autocomplete(unit=units_for(actions.Activate))
    @app_commands.guild_only()
    async def activate(self, interaction: discord.Interaction[Any], unit: UnitText) -> None:
        await self.act(interaction, actions.Activate(0, unit.strip()))

    @app_commands.command(name="move", description="Move a unit (up to 3 squares)")
    @app_commands.describe(
        unit="Your unit",
        square="Where it ends its move",
        bonus="The d20 rules: bonus dice whose faces add inches to this movement",
        models="The group rules: each model's square in order, e.g. C3 D3 E4",
    )
    @app_commands.autocomplete(
        unit=units_for(actions.Move), square=squares_for(actions.Move, "move")
    )
    @app_commands.guild_only()
    async def move(
        self,
        interaction: discord.Interaction[Any],
        unit: UnitText,
        square: SquareText,
        bonus: app_commands.Range[int, 1, 6] | None = None,
        models: ModelsText | None = None,
    ) -> None:
        if bonus is None and models is None:
            await self.act(interaction, actions.Move(0, unit.strip(), square_of(square)))
            return
        # Bonus dice (d20) and each model's own square (the group rules) are a ruleset's own
        # Move's fields; a ruleset without them refuses them in words.
        extra: dict[str, Any] = {} if bonus is None else {"bonus": bonus}
        if models is not None:
            extra["models"] = squares_of(models)
        moved = actions.own_command("move", unit=unit.strip(), square=square_of(square), **extra)
        await self.act(interaction, moved)

    @app_commands.command(name="dash", description="Dash or crawl a unit (1 square)")
    @app_commands.describe(unit="Your unit", square="Where it ends")
    @app_commands.autocomplete(
        unit=units_for(actions.Dash), square=squares_for(actions.Dash, "dash")
    )
    @app_commands.guild_only()
    async def dash(
        self, interaction: discord.Interaction[Any], unit: UnitText, square: SquareText
    ) -> None:
        await self.act(interaction, actions.Dash(0, unit.strip(), square_of(square)))

    @app_commands.command(
        name="leap", description="Leap a unit with LPx up to x squares in a straight line (2 ACT)"
    )
    @app_commands.describe(unit="Your unit", square="Where it lands")
    @app_commands.autocomplete(unit=units_for("leap"), square=leaps_for())
    @app_commands.guild_only()
    async def leap(
        self, interaction: discord.Interaction[Any], unit: UnitText, square: SquareText
    ) -> None:
        await self.act(
            interaction, actions.own_command("leap", unit=unit.strip(), square=square_of(square))
        )

    @app_commands.command(
        name="arc", description="Set a unit's firing arc toward any square, with its order"
    )
    @app_commands.describe(
        unit="Your unit",
        width="Degrees: 30, 60 or 150 (wider costs more AP, gives more shots)",
        toward="The square the arc faces: any one, in sight or not",
        order="When it fires unasked: every, first (N enemies), short (range), hold",
        count="For the order first: how many enemies it fires at",
    )
    @app_commands.autocomplete(
        unit=units_for("arc"),
        toward=own_values_for("arc", "toward"),
        order=own_values_for("arc", "order"),
    )
    @app_commands.autocomplete(width=own_numbers_for("arc", "width"))  # numbers: on their own
    @app_commands.guild_only()
    async def arc(
        self,
        interaction: discord.Interaction[Any],
        unit: UnitText,
        width: app_commands.Range[int, 1, 360],
        toward: SquareText,
        order: NameText = "every",
        count: app_commands.Range[int, 1, 99] | None = None,
    ) -> None:
        await self.act(
            interaction,
            actions.own_command(
                "arc",
                unit=unit.strip(),
                width=width,
                toward=square_of(toward),
                order=order.split(":")[0].strip().lower(),
                **({"n": count} if count is not None else {}),
            ),
        )

    @app_commands.command(
        name="throw", description="Throw a unit's active grenade or satchel charge at a square"
    )
    @app_commands.describe(
        unit="Your unit",
        target="The square it lands on",
        level="The level it lands on, for a throw up or down stairs or a ladder",
    )
    @app_commands.autocomplete(unit=units_for("throw"), target=own_values_for("throw", "target"))
    @app_commands.guild_only()
    async def throw(
        self,
        interaction: discord.Interaction[Any],
        unit: UnitText,
        target: SquareText,
        level: app_commands.Range[int, -9, 9] | None = None,
    ) -> None:
        await self.act(
            interaction,
            actions.own_command(
                "throw",
                unit=unit.strip(),
                target=square_of(target),
                **({"level": level} if level is not None else {}),
            ),
        )

    @app_commands.command(name="skill", description="Use a skill from a unit's stat card")
    @app_commands.describe(
        unit="Your unit",
        skill="The skill",
        target="Its target, a unit or a square, if it needs one",
    )
    @app_commands.autocomplete(
        unit=units_for("skill"), skill=skills_for(), target=skill_targets_for()
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
            actions.own_command(
                "skill",
                unit=unit.strip(),
                skill=skill.strip(),
                target=target.strip() if target else None,
            ),
        )

    @app_commands.command(
        name="mission", description="Perform one of the mission's actions with a unit"
    )
    @app_commands.describe(unit="Your unit", action="The mission action")
    @app_commands.autocomplete(unit=units_for("mission"), action=mission_actions_for())
    @app_commands.guild_only()
    async def mission(
        self, interaction: discord.Interaction[Any], unit: UnitText, action: NameText
    ) -> None:
        await self.act(
            interaction, actions.own_command("mission", unit=unit.strip(), action=action.strip())
        )

    @app_commands.command(name="shoot", description="Make a ranged attack")
    @app_commands.describe(
        unit="Your unit",
        target="What it shoots at",
        weapon="Which ranged weapon (default: the first)",
        also="More targets for a Chain Reaction or Spread weapon, comma-separated",
    )
    @app_commands.autocomplete(
        unit=units_for(actions.Shoot),
        target=targets_for(actions.Shoot),
        weapon=weapons_for(actions.Shoot),
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
            actions.Shoot(0, unit.strip(), target.split(" (")[0].strip(), weapon, also=also),
        )

    @app_commands.command(name="melee", description="Make a melee attack on an adjacent enemy")
    @app_commands.describe(
        unit="Your unit",
        target="Whom it attacks",
        weapon="Which melee weapon (default: the first)",
        also="More targets for a Chain Reaction or Spread weapon, comma-separated",
    )
    @app_commands.autocomplete(
        unit=units_for(actions.Melee),
        target=targets_for(actions.Melee),
        weapon=weapons_for(actions.Melee),
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
            actions.Melee(0, unit.strip(), target.split(" (")[0].strip(), weapon, also=also),
        )

    @app_commands.command(name="door", description="Open or close a door on the unit's square")
    @app_commands.describe(
        unit="Your unit", toward="The square across the door (when there are several)"
    )
    @app_commands.autocomplete(unit=units_for(actions.Door), toward=doors_for())
    @app_commands.guild_only()
    async def door(
        self,
        interaction: discord.Interaction[Any],
        unit: UnitText,
        toward: SquareText | None = None,
    ) -> None:
        await self.act(
            interaction, actions.Door(0, unit.strip(), square_of(toward) if toward else None)
        )

    @app_commands.command(name="pickup", description="Pick up the marker on the unit's square")
    @app_commands.describe(unit="Your unit")
    @app_commands.autocomplete(unit=units_for(actions.PickUp))
    @app_commands.guild_only()
    async def pickup(self, interaction: discord.Interaction[Any], unit: UnitText) -> None:
        await self.act(interaction, actions.PickUp(0, unit.strip()))

    @app_commands.command(name="drop", description="Drop the marker the unit carries")
    @app_commands.describe(unit="Your unit")
    @app_commands.autocomplete(unit=units_for(actions.Drop))
    @app_commands.guild_only()
    async def drop(self, interaction: discord.Interaction[Any], unit: UnitText) -> None:
        await self.act(interaction, actions.Drop(0, unit.strip()))

    @app_commands.command(
        name="crate", description="Open the crate on the unit's square and take one option"
    )
    @app_commands.describe(unit="Your unit", option="What to take from the crate")
    @app_commands.autocomplete(
        unit=units_for("crate"),
        option=crate_options_for(),
    )
    @app_commands.guild_only()
    async def crate(
        self, interaction: discord.Interaction[Any], unit: UnitText, option: NameText
    ) -> None:
        await self.act(
            interaction,
            actions.own_command("crate", unit=unit.strip(), option=option.strip().lower()),
        )

    @app_commands.command(name="turret", description="Fire the turret the unit stands at")
    @app_commands.describe(unit="Your unit at a turret", target="What the turret fires at")
    @app_commands.autocomplete(
        unit=units_for("turret"),
        target=turret_targets_for(),
    )
    @app_commands.guild_only()
    async def turret(
        self, interaction: discord.Interaction[Any], unit: UnitText, target: TargetText
    ) -> None:
        await self.act(
            interaction,
            actions.own_command("turret", unit=unit.strip(), target=target.split(" (")[0].strip()),
        )

    @app_commands.command(name="end", description="End the activation in progress")
    @app_commands.describe(unit="The activating unit (or a ready unit, to end it without acting)")
    @app_commands.autocomplete(unit=units_for(actions.EndActivation))
    @app_commands.guild_only()
    async def end(
        self, interaction: discord.Interaction[Any], unit: UnitText | None = None
    ) -> None:
        await self.act(interaction, actions.EndActivation(0, unit.strip() if unit else None))

    @app_commands.command(
        name="act", description="An action of this match's rules with no command of its own"
    )
    @app_commands.describe(
        action="One of the actions you may take now (e.g. Revive in Skirm Lite)",
        unit="Only this unit's actions (optional)",
    )
    @app_commands.autocomplete(action=own_actions, unit=units_for(actions.UnitCommand))
    @app_commands.guild_only()
    async def act_of_the_ruleset(
        self,
        interaction: discord.Interaction[Any],
        action: ActionText,
        unit: UnitText | None = None,
    ) -> None:
        try:
            command = actions.decode(action)
        except ValueError:
            raise ServiceError(
                f"'{shown(action)}' is not one of the actions offered; pick one from the list "
                "(/match rules lists the actions of this match's rules)."
            ) from None
        await self.act(interaction, command)

    @app_commands.command(name="delay", description="Delay: let your opponent activate first")
    @app_commands.guild_only()
    async def delay(self, interaction: discord.Interaction[Any]) -> None:
        await self.act(interaction, actions.own_command("delay"))

    @app_commands.command(name="accept", description="Accept the roll and go on with the attack")
    @app_commands.guild_only()
    async def accept(self, interaction: discord.Interaction[Any]) -> None:
        await self.act(interaction, actions.Accept(0))

    @app_commands.command(name="reroll", description="Spend 1 TO to re-roll one die of the roll")
    @app_commands.describe(die="Which die (1 is the first)")
    @app_commands.autocomplete(die=dice_for(actions.Reroll))
    @app_commands.guild_only()
    async def reroll(
        self, interaction: discord.Interaction[Any], die: app_commands.Range[int, 1, 20]
    ) -> None:
        await self.act(interaction, actions.Reroll(0, die))

    @app_commands.command(
        name="modify", description="Spend 1 TO to change one die of the roll by 1"
    )
    @app_commands.describe(die="Which die (1 is the first)", change="Up or down by one")
    @app_commands.autocomplete(die=dice_for(actions.Modify))
    @app_commands.choices(change=[Choice(name="+1", value=1), Choice(name="-1", value=-1)])
    @app_commands.guild_only()
    async def modify(
        self,
        interaction: discord.Interaction[Any],
        die: app_commands.Range[int, 1, 20],
        change: int,
    ) -> None:
        await self.act(interaction, actions.Modify(0, die, change))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
