"""/map: a server's own maps (issue 33). Moderators, or the role they name with /map role,
upload and remove them; anyone lists them and looks at any map, the shipped ones too, empty with
a mission's deployment zones and objectives, before choosing it in /match new or /league create.
The service checks everything (skirmbot.service.maps); this module carries the file and the
asker's roles to it."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.mapfiles import MAP_FILE_LIMIT
from skirmbot.service import ServiceError
from skirmbot.service.maps import MapService
from skirmbot.words import typed_key

from .buttons import answer
from .common import guild_of, player, roles_of, service_of
from .matches import RULESETS, MapName, MissionName, mission_choices
from .text import choices


def maps_of(interaction: discord.Interaction[Any]) -> MapService:
    return service_of(interaction).maps


async def any_map(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Every map /map show can draw: the shipped ones of the ruleset chosen (every ruleset's
    until one is), and the server's own."""
    rules = getattr(interaction.namespace, "ruleset", None)
    options = await maps_of(interaction).choices(guild_of(interaction), rules)
    return _matching(options, current)


async def own_map(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The server's own maps (/map remove)."""
    kept = await maps_of(interaction).own_names(guild_of(interaction))
    return _matching([(name, name) for name in kept], current)


def _matching(options: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    typed = typed_key(current)  # "old-m" finds Old Mill
    return choices([(label, value) for value, label in options if typed in typed_key(label)])


async def read_map_upload(file: discord.Attachment) -> bytes:
    """The uploaded file's bytes; a file past the cap is refused before it is downloaded."""
    if file.size > MAP_FILE_LIMIT:
        raise ServiceError(
            f"{file.filename} is {file.size:,} bytes; a map file is at most {MAP_FILE_LIMIT:,}."
        )
    return await file.read()


@app_commands.guild_only()
class Maps(
    commands.GroupCog,
    group_name="map",
    group_description="This server's own maps, and a look at any map before choosing it",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="upload", description="Moderators: add a map file to this server")
    @app_commands.describe(
        file="The map as a JSON file (the README's Map files; check it with skirmbot map check)",
        replace="Replace this server's map of the same name (matches made on it keep theirs)",
    )
    async def upload(
        self, interaction: discord.Interaction[Any], file: discord.Attachment, replace: bool = False
    ) -> None:
        raw = await read_map_upload(file)
        work = maps_of(interaction).upload(
            guild_of(interaction), await player(interaction), raw, file.filename,
            replace=replace, role_ids=roles_of(interaction),
        )  # fmt: skip
        await answer(interaction, work)

    @app_commands.command(name="list", description="This server's maps and the shipped ones")
    async def list(self, interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, maps_of(interaction).listing(guild_of(interaction)), private=True)

    @app_commands.command(
        name="show", description="A map, empty, with a mission's deployment zones and objectives"
    )
    @app_commands.describe(
        name="A shipped map or one of this server's",
        mission="The mission whose zones are drawn (default: the first that fits)",
        ruleset="The rules the mission is of (default Skirm; Skirmishers for boards of dots)",
    )
    @app_commands.autocomplete(name=any_map, mission=mission_choices)
    @app_commands.choices(ruleset=RULESETS)
    async def show(
        self,
        interaction: discord.Interaction[Any],
        name: MapName,
        mission: MissionName | None = None,
        ruleset: str | None = None,
    ) -> None:
        work = maps_of(interaction).show(guild_of(interaction), name, mission, ruleset)
        await answer(interaction, work, private=True)

    @app_commands.command(name="remove", description="Moderators: remove one of this server's maps")
    @app_commands.describe(name="One of this server's maps (matches made on it keep theirs)")
    @app_commands.autocomplete(name=own_map)
    async def remove(self, interaction: discord.Interaction[Any], name: MapName) -> None:
        work = maps_of(interaction).remove(
            guild_of(interaction), await player(interaction), name, roles_of(interaction)
        )
        await answer(interaction, work)

    @app_commands.command(
        name="role", description="Moderators: name the role whose members may upload maps"
    )
    @app_commands.describe(role="The role (leave out: moderators alone)")
    async def role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        work = maps_of(interaction).set_map_role(
            guild_of(interaction), await player(interaction), role.id if role else None
        )
        await answer(interaction, work, private=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Maps(bot))
