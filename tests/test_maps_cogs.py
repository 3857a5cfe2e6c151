"""/map offline with simcord (issue 33): the real bot, cogs, service and store. A moderator
uploads a map file and /map show posts its picture; a member without the map role is refused in
words and nothing is kept; /match new and /league create offer the server's maps."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from test_server_maps import mill

from skirmbot.bot import SkirmBot, make_bot


@pytest.fixture
async def simcord_bot(tmp_path: Path) -> AsyncIterator[SkirmBot]:
    """The bot simcord drives (its store closed at the end: simcord does not close the bot)."""
    made = make_bot(tmp_path / "skirm.db", seed_source=lambda: 1234, run_timers=False)
    yield made
    await made.store.close()


@pytest.fixture
def bot(simcord_bot: SkirmBot) -> SkirmBot:
    return simcord_bot


class Server:
    def __init__(self, env: simcord.Env) -> None:
        guild = env.create_guild()
        self.guild = guild
        self.channel = guild.create_text_channel("maps")
        admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        self.mappers = guild.create_role("Mappers")
        self.admin = guild.add_member(env.create_user("admin"), roles=[admins])
        self.alice = guild.add_member(env.create_user("alice"))
        self.bob = guild.add_member(env.create_user("bob"), roles=[self.mappers])


@pytest.fixture
def server(simcord_env: simcord.Env, bot: SkirmBot) -> Server:
    return Server(simcord_env)


def said(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    assert result.response is not None, f"no response message: {result!r}"
    return result.response


def file_of(data: dict[str, Any] | bytes, name: str = "mill.json") -> tuple[str, bytes]:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8")
    return (name, raw)


async def test_a_moderator_uploads_a_map_and_show_posts_its_picture(
    server: Server, bot: SkirmBot
) -> None:
    uploaded = await server.admin.slash(server.channel, "map upload", file=file_of(mill()))
    assert not uploaded.ephemeral and "Map added: Old Mill" in said(uploaded).content
    shown = await server.alice.slash(
        server.channel, "map show", name="old mill", mission="Take and Hold", ruleset="lite"
    )
    assert shown.ephemeral
    [picture] = said(shown).attachments
    assert picture.filename == "map.png" and (await picture.read()).startswith(b"\x89PNG")
    assert "Empty map: Old Mill" in (picture.description or "")
    listed = await server.alice.slash(server.channel, "map list")
    assert listed.ephemeral and "Old Mill: 10 x 10 squares" in said(listed).content


async def test_a_member_without_the_role_is_refused_and_nothing_is_kept(
    server: Server, bot: SkirmBot
) -> None:
    refused = await server.bob.slash(server.channel, "map upload", file=file_of(mill()))
    assert refused.ephemeral and "Only moderators upload" in said(refused).content
    named = await server.alice.slash(server.channel, "map role", role=server.mappers)
    assert named.ephemeral and "Only moderators name the role" in said(named).content
    await server.admin.slash(server.channel, "map role", role=server.mappers)
    assert await bot.store.server_maps(server.guild.id) == []
    allowed = await server.bob.slash(server.channel, "map upload", file=file_of(mill()))
    assert "Map added" in said(allowed).content
    removed = await server.alice.slash(server.channel, "map remove", name="Old Mill")
    assert removed.ephemeral and "Only moderators" in said(removed).content
    assert len(await bot.store.server_maps(server.guild.id)) == 1


async def test_a_broken_upload_is_refused_in_words(server: Server, bot: SkirmBot) -> None:
    broken = await server.admin.slash(server.channel, "map upload", file=file_of(b'{"name": '))
    assert broken.ephemeral and "mill.json is not valid JSON" in said(broken).content
    shipped = await server.admin.slash(
        server.channel, "map upload", file=file_of(mill(name="Foundry"))
    )
    assert shipped.ephemeral and "Foundry is the name of a shipped map" in said(shipped).content
    assert await bot.store.server_maps(server.guild.id) == []


async def test_match_new_and_league_create_offer_the_servers_maps(
    server: Server, bot: SkirmBot
) -> None:
    await server.admin.slash(server.channel, "map upload", file=file_of(mill()))
    offered = await server.alice.autocomplete(server.channel, "match new", "map", "old mi")
    assert offered == [{"name": "Old Mill (this server's)", "value": "Old Mill"}]
    everything = await server.alice.autocomplete(server.channel, "match new", "map", "")
    assert [c["value"] for c in everything][-1] == "Old Mill"
    dots = await server.alice.autocomplete(
        server.channel, "match new", "map", "", ruleset="infantry"
    )
    assert "Old Mill" not in [c["value"] for c in dots]
    league = await server.alice.autocomplete(server.channel, "league create", "map", "mill")
    assert [c["value"] for c in league] == ["Old Mill"]
    removable = await server.admin.autocomplete(server.channel, "map remove", "name", "")
    assert [c["value"] for c in removable] == ["Old Mill"]
    made = await server.alice.slash(server.channel, "match new", practice=True, map="Old Mill")
    assert "on Old Mill" in said(made).content
    row = await bot.store.active_match(server.channel.id)
    assert row is not None and row.record["content"]["map"] == mill()
