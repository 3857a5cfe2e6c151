"""/web publish: the server's admins choose whether its league and match pages are public
(skirmbot.web; off by default: an unpublished server's pages answer 404)."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.service import NotAllowed

from .common import bot_of, is_moderator, send


@app_commands.guild_only()
class Web(
    commands.GroupCog,
    group_name="web",
    group_description="The league and match pages of this server on the web",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="publish",
        description="Admins: make this server's league and match pages public (on) or not (off)",
    )
    @app_commands.describe(state="on: anyone with the link reads them; off: they answer 404")
    async def publish(
        self, interaction: discord.Interaction[Any], state: Literal["on", "off"]
    ) -> None:
        if interaction.guild_id is None or not await is_moderator(interaction):
            raise NotAllowed(
                "Only the server's admins (Manage Server) or its moderator role publish its pages."
            )
        await bot_of(interaction).pages.set_published(interaction.guild_id, state == "on")
        text = (
            "This server's league and match pages are now public: anyone with a link reads them."
            if state == "on"
            else "This server's league and match pages are no longer public."
        )
        await send(interaction, text, private=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Web(bot))
