"""/squad: keep your squads with the bot, so their units carry their XP from match to match
(issue 6: campaigns). Play a stored squad with /match squad my:NAME."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.service.campaigns import MAX_NAME, CampaignService

from .common import Text, answer, service_of
from .matches import read_squad_file


def campaigns(interaction: discord.Interaction[Any]) -> CampaignService:
    return service_of(interaction).campaigns


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


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Squads(bot))
