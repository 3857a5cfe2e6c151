"""Dice commands for everyone on the server: /roll, /rolloff, /to and /odds.

The work is done by the pure modules in `skirmbot.dice`; this cog only reads the options and
answers. A bad expression or option gets an ephemeral answer with the module's message, never a
traceback; answers never ping anyone but the members a roll-off names.

Load it with `await bot.load_extension("skirmbot.cogs.dice")`. The odds for a unit's targets need the
game bot: a `bot.service` (`skirmbot.service.MatchService`) to find the channel's match.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.dice.expressions import (
    HELP_WORDS,
    MAX_EXPRESSION,
    MAX_NOTE,
    ROLL_HELP,
    DiceError,
    DieSource,
    SystemDice,
    format_roll,
    roll_expression,
)
from skirmbot.dice.odds import (
    DEFAULT_ORDERS,
    LIMITS,
    MAX_ORDERS,
    Attack,
    attack_odds,
    format_attack_odds,
    parse_rules,
)
from skirmbot.dice.rolloff import (
    MAX_LEADER_DICE,
    format_orders,
    format_roll_off,
    roll_off,
    roll_tactical_orders,
)
from skirmbot.service.errors import ServiceError

from .text import choices, fit

if TYPE_CHECKING:
    from skirmbot.service.choices import Situation
    from skirmbot.service.matches import MatchService

log = logging.getLogger(__name__)

QUIET = discord.AllowedMentions.none()
PING_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NEEDS_GAME_BOT = (
    "Odds for a unit's targets need the game bot, which runs the matches; here, give skill, "
    "ROA, DAM, ARM and HIT instead."
)
NEEDS_STATS = (
    "Give skill, ROA, DAM, ARM and HIT (for example skill 3, ROA 2, DAM 1, ARM 3, HIT 2), "
    "or a unit of this channel's match."
)

# Discord allows 100 characters for each; the whole grammar is `/roll help`.
ROLL_DESCRIPTION = (
    "Roll dice: 4d6k3, 1d20+5 adv, 3d6!, 4dF; 6d6<=3 counts successes. /roll help: all"
)
EXPRESSION_DESCRIPTION = (
    "Dice, e.g. 2d20kl1, 1d8+3 fire, 4d6dl1, 10d6>=5; type help for every notation"
)
BOTS_REFUSED = "Bots cannot take part in a roll-off: name the players."

Skill = app_commands.Range[int, LIMITS["skill"][0], LIMITS["skill"][1]]
Roa = app_commands.Range[int, LIMITS["roa"][0], LIMITS["roa"][1]]
Dam = app_commands.Range[int, LIMITS["dam"][0], LIMITS["dam"][1]]
Arm = app_commands.Range[int, LIMITS["arm"][0], LIMITS["arm"][1]]
Hit = app_commands.Range[int, LIMITS["hit"][0], LIMITS["hit"][1]]
Orders = app_commands.Range[int, 0, MAX_ORDERS]
MAX_UNIT_NAME = 64  # a unit's name as squads name them
MAX_TARGETS_TEXT = 200  # a target and the further ones of a Spread or Chain Reaction weapon
MAX_RULES_TEXT = 100


class DiceCog(commands.Cog, name="Dice"):
    def __init__(self, bot: commands.Bot, source: DieSource | None = None) -> None:
        self.bot = bot
        self.source: DieSource = source or SystemDice()  # tests pass scripted faces

    # --- /roll ------------------------------------------------------------------------------
    @app_commands.command(name="roll", description=ROLL_DESCRIPTION)
    @app_commands.describe(
        expression=EXPRESSION_DESCRIPTION,
        label="A title for the roll",
        private="Only you see the result",
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, MAX_EXPRESSION],
        label: app_commands.Range[str, 1, MAX_NOTE] | None = None,
        private: bool = False,
    ) -> None:
        if expression.strip().casefold() in HELP_WORDS:
            await interaction.response.send_message(
                ROLL_HELP, ephemeral=True, allowed_mentions=QUIET
            )
            return
        try:
            outcome = roll_expression(expression, self.source)
        except DiceError as error:
            await _refuse(interaction, str(error))
            return
        await interaction.response.send_message(
            fit(format_roll(outcome, label)), ephemeral=private, allowed_mentions=QUIET
        )

    # --- /rolloff ---------------------------------------------------------------------------
    @app_commands.command(
        name="rolloff", description="Roll-off: each rolls 1D6, lowest wins, ties re-roll"
    )
    @app_commands.describe(
        member1="A player (you join in when you name only one other player)",
        highest="Highest wins instead of lowest",
    )
    async def rolloff(
        self,
        interaction: discord.Interaction,
        member1: discord.User,
        member2: discord.User | None = None,
        member3: discord.User | None = None,
        member4: discord.User | None = None,
        member5: discord.User | None = None,
        member6: discord.User | None = None,
        member7: discord.User | None = None,
        member8: discord.User | None = None,
        highest: bool = False,
    ) -> None:
        named = [member1, member2, member3, member4, member5, member6, member7, member8]
        if any(member is not None and member.bot for member in named):
            await _refuse(interaction, BOTS_REFUSED)
            return
        players = _players(interaction, [m for m in named if m is not None])
        try:
            result = roll_off(players, self.source, lowest_wins=not highest)
        except DiceError as error:
            await _refuse(interaction, str(error))
            return
        await interaction.response.send_message(
            fit(format_roll_off(result)), allowed_mentions=PING_USERS
        )

    # --- /to --------------------------------------------------------------------------------
    @app_commands.command(
        name="to", description="Roll Tactical Orders: 3D6 plus leader dice, each 1-3 is one TO"
    )
    @app_commands.describe(leader_dice="Extra dice from leaders: the total of their LDx")
    async def to(
        self,
        interaction: discord.Interaction,
        leader_dice: app_commands.Range[int, 0, MAX_LEADER_DICE] = 0,
    ) -> None:
        try:
            result = roll_tactical_orders(leader_dice, self.source)
        except DiceError as error:
            await _refuse(interaction, str(error))
            return
        await interaction.response.send_message(fit(format_orders(result)), allowed_mentions=QUIET)

    # --- /odds ------------------------------------------------------------------------------
    @app_commands.command(
        name="odds", description="Exact chances of HIT lost and Taken Out for an attack, with TO"
    )
    @app_commands.describe(
        skill="The attacker's MSK or RSK",
        roa="The weapon's ROA (attack dice)",
        dam="The weapon's DAM",
        arm="The target's ARM",
        hit="The target's HIT now",
        cover="The target is in cover (the first point of damage is saved)",
        support="Melee support: one automatic strike",
        rules="Special rules by hand, e.g. RND DD1 AH1 RLT PR1 TG1 PAR BLS",
        orders="Most TO you would spend re-rolling failed attack dice (0: none)",
        unit="In a match: your unit; everything comes from the match (cover, support, rules)",
        target="In a match: its target (Spread/Chain: Bo, Cy); none lists every target",
        detail="In a match: every line (CTR, further targets, the rules applied)",
    )
    async def odds(
        self,
        interaction: discord.Interaction,
        skill: Skill | None = None,
        roa: Roa | None = None,
        dam: Dam | None = None,
        arm: Arm | None = None,
        hit: Hit | None = None,
        cover: bool = False,
        support: bool = False,
        rules: app_commands.Range[str, 1, MAX_RULES_TEXT] | None = None,
        orders: Orders = DEFAULT_ORDERS,
        unit: app_commands.Range[str, 1, MAX_UNIT_NAME] | None = None,
        target: app_commands.Range[str, 1, MAX_TARGETS_TEXT] | None = None,
        detail: bool = False,
    ) -> None:
        if unit is not None:
            await self._match_odds(interaction, unit, target, orders, detail)
            return
        if skill is None or roa is None or dam is None or arm is None or hit is None:
            await _refuse(interaction, NEEDS_STATS)
            return
        try:
            attack = Attack(skill, roa, dam, arm, hit, cover, support, parse_rules(rules))
            result = attack_odds(attack, orders)
        except DiceError as error:
            await _refuse(interaction, str(error))
            return
        situation = await self._situation(interaction)
        note = situation.by_hand_note() if situation is not None else ""
        text = f"{format_attack_odds(result)}\n{note}" if note else format_attack_odds(result)
        await interaction.response.send_message(fit(text), ephemeral=True, allowed_mentions=QUIET)

    async def _match_odds(
        self,
        interaction: discord.Interaction,
        name: str,
        target: str | None,
        orders: int,
        detail: bool,
    ) -> None:
        service = self._service()
        if service is None:
            await _refuse(interaction, NEEDS_GAME_BOT)
            return
        try:
            situation = await service.situation(interaction.channel_id or 0)
            text = situation.odds(name, target, orders, detail)
        except ServiceError as error:
            await _refuse(interaction, str(error))
            return
        await interaction.response.send_message(fit(text), ephemeral=True, allowed_mentions=QUIET)

    @odds.autocomplete("unit")
    async def _unit_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        situation = await self._situation(interaction)
        if situation is None:
            return []
        names = [n for n in situation.units_on_map() if current.casefold() in n.casefold()]
        return choices((n, n) for n in names)

    @odds.autocomplete("target")
    async def _target_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The legal targets of the unit already typed (enemy units, barrels, turrets)."""
        name = getattr(interaction.namespace, "unit", None)
        situation = await self._situation(interaction) if name else None
        if situation is None:
            return []
        options = situation.any_targets(str(name))
        return choices(
            (label, value) for value, label in options if current.casefold() in label.casefold()
        )

    async def _situation(self, interaction: discord.Interaction) -> Situation | None:
        """The channel's match as /odds reads it; None without the game bot or a match."""
        service = self._service()
        if service is None:
            return None
        try:
            return await service.situation(interaction.channel_id or 0)
        except ServiceError:
            return None

    def _service(self) -> MatchService | None:
        service: MatchService | None = getattr(self.bot, "service", None)
        return service

    # --- anything unexpected ------------------------------------------------------------------
    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """A bug must not show a traceback in the channel: log it, apologise privately."""
        log.error("Dice command failed", exc_info=error)
        message = (
            "Something went wrong with that command; it has been logged for the bot's keepers."
        )
        await _refuse(interaction, message)


def _players(interaction: discord.Interaction, named: list[Any]) -> list[str]:
    """Mentions of the named members, each once; the caller joins when naming only one other."""
    seen: dict[int, str] = {}
    for member in named:
        seen.setdefault(member.id, member.mention)
    if len(seen) < 2:
        seen.setdefault(interaction.user.id, interaction.user.mention)
    return list(seen.values())


async def _refuse(interaction: discord.Interaction, message: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True, allowed_mentions=QUIET)
    else:
        await interaction.response.send_message(message, ephemeral=True, allowed_mentions=QUIET)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DiceCog(bot))
