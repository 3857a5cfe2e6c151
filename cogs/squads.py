"""/squad: keep your squads with the bot, so their units carry their XP from match to match
(issue 6: campaigns). Play a stored squad with /match squad my:NAME."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.service import ServiceError
from skirmbot.service.campaigns import MAX_NAME, CampaignService

from .buttons import answer
from .common import NAME_LENGTH, Text, service_of
from .matches import read_squad_file
from .text import choices


def campaigns(interaction: discord.Interaction[Any]) -> CampaignService:
    return service_of(interaction).campaigns


SquadName = app_commands.Transform[str, Text(MAX_NAME, "squad name")]
UnitName = app_commands.Transform[str, Text(NAME_LENGTH, "unit name")]
RewardName = app_commands.Transform[str, Text(NAME_LENGTH, "Spoil Of War")]


async def stored_squads(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    names = await campaigns(interaction).squad_names(interaction.user.id)
    typed = current.strip().casefold()
    return choices([(name, name) for name in names if typed in name.casefold()])


async def squad_units(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    name = str(getattr(interaction.namespace, "name", "") or "")
    progress = service_of(interaction).progress
    try:
        row = await progress.campaigns.load_squad(interaction.user.id, name)
    except ServiceError:
        return []
    units = [str(unit.get("name", "")) for unit in row.data.get("units", [])]
    typed = current.strip().casefold()
    return choices([(unit, unit) for unit in units if typed in unit.casefold()])


async def spoils_offered(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    namespace = interaction.namespace
    offered = await service_of(interaction).progress.reward_choices(
        interaction.user.id,
        str(getattr(namespace, "name", "") or ""),
        str(getattr(namespace, "unit", "") or ""),
    )
    typed = current.strip().casefold()
    return choices([(label, value) for value, label in offered if typed in label.casefold()])


@app_commands.guild_only()
class Squads(
    commands.GroupCog,
    group_name="squad",
    group_description="Your stored squads and their campaign progress",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="save", description="Store a squad file (its units keep the XP they earn)"
    )
    @app_commands.describe(
        file="The squad as a JSON file", name="Store it under this name (default: the squad's own)"
    )
    async def save(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment,
        name: app_commands.Transform[str, Text(MAX_NAME, "squad name")] = "",
    ) -> None:
        data = await read_squad_file(file)
        await answer(
            interaction,
            campaigns(interaction).save_squad(
                interaction.user.id, interaction.guild_id or 0, name, data
            ),
            private=True,
        )

    @app_commands.command(
        name="list",
        description="Your stored squads, their units' XP and the Spoils of War they may take",
    )
    async def list(self, interaction: discord.Interaction[Any]) -> None:
        await answer(
            interaction, campaigns(interaction).list_squads(interaction.user.id), private=True
        )

    @app_commands.command(
        name="show", description="A stored squad's roster card: XP, medals, Spoils to take"
    )
    @app_commands.describe(name="One of your stored squads")
    @app_commands.autocomplete(name=stored_squads)
    async def show(self, interaction: discord.Interaction[Any], name: SquadName) -> None:
        work = service_of(interaction).progress.roster(
            interaction.user.id, interaction.user.display_name, name
        )
        await answer(interaction, work, private=True)

    @app_commands.command(
        name="spoils", description="A unit of a stored squad takes a Spoil Of War its XP allows"
    )
    @app_commands.describe(
        name="One of your stored squads",
        unit="The unit that takes it",
        reward="The Spoil Of War (only those its XP allows are offered)",
    )
    @app_commands.autocomplete(name=stored_squads, unit=squad_units, reward=spoils_offered)
    async def spoils(
        self,
        interaction: discord.Interaction[Any],
        name: SquadName,
        unit: UnitName,
        reward: RewardName,
    ) -> None:
        work = service_of(interaction).progress.take_spoil(
            interaction.user.id, interaction.guild_id or 0, name, unit, reward
        )
        await answer(interaction, work, private=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Squads(bot))
