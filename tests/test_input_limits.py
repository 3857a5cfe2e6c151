"""Very long input gets a short, private answer in plain words and changes nothing (issue 11).

Every free-text option has a max_length, so Discord lets nobody type more. A longer value can
still reach the bot (Discord's listing of a command from before the limit, a modified client):
the bot refuses it itself, never repeats it, quotes at most ~40 characters of anything it does
repeat, cuts every message to Discord's 2,000 characters, and never builds a filesystem path
from a name a player typed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
import test_cogs
import test_commands_static
from discord import app_commands
from test_cogs import World, said
from test_commands_static import walk

from skirmbot import content
from skirmbot.service import MatchService, Member, Reply, ServiceError
from skirmbot.service.campaigns import MAX_NAME, STORED_PREFIX
from skirmbot.store import Store

# The fixtures the cog tests use (a bot on simcord, Alice, Bob, Eve and an admin in a channel)
# and the payload the bot would sync.
bots, simcord_bot, world = test_cogs.bots, test_cogs.simcord_bot, test_cogs.world
payload = test_commands_static.payload

STRING = discord.AppCommandOptionType.string.value
LONG = "x" * 4000
SHORT_ANSWER = 300  # characters: a refusal is a sentence or two


# --- the limits themselves -------------------------------------------------------------------
async def test_every_free_text_option_has_a_max_length(payload: list[dict[str, Any]]) -> None:
    for command in payload:
        for path, node in walk(command, command["name"]):
            if node.get("type") != STRING or node.get("choices"):
                continue  # not text, or Discord only takes one of the choices
            assert 1 <= node.get("max_length", 0) <= 1000, (
                f"{path}: max_length {node.get('max_length')}"
            )
            assert node.get("min_length") == 1, f"{path}: min_length {node.get('min_length')}"


def test_the_limits_fit_every_name_a_squad_file_may_use() -> None:
    from skirmbot.cogs.common import NAME_LENGTH, Text
    from skirmbot.cogs.matches import SquadName

    from skirmbot.rules.skirm.cards import NAME_LIMIT

    assert NAME_LENGTH == 2 * NAME_LIMIT  # check_name: 32 visible characters, 64 in all
    squad_name = SquadName
    assert isinstance(squad_name, Text)
    assert squad_name.limit >= len(STORED_PREFIX) + 1 + MAX_NAME  # `my: NAME`


def test_shown_quotes_at_most_40_characters_on_one_line() -> None:
    from skirmbot.words import shown

    assert shown("Halden C2") == "Halden C2"
    assert shown("a\nb\tc") == "a b c"
    cut = shown(LONG)
    assert len(cut) == 40 and cut.endswith("…")


def test_a_refused_option_value_is_not_repeated_in_full() -> None:
    from skirmbot.cogs.common import Text
    from skirmbot.cogs.errors import refusal

    error = app_commands.TransformerError(LONG, discord.AppCommandOptionType.integer, Text(5, "x"))
    text = refusal(error)
    assert text is not None and len(text) < 100 and "…" in text


# --- through the cogs ------------------------------------------------------------------------
def forget_limits(env: simcord.Env) -> None:
    """Make simcord's Discord list the commands as it did before they had limits, so an
    over-long value reaches the bot (as it would from a stale listing or a modified client)."""

    def strip(node: dict[str, Any]) -> None:
        node.pop("max_length", None)
        node.pop("min_length", None)
        for option in node.get("options", []):
            strip(option)

    for scope in env.backend.commands.values():
        for command in scope.values():
            strip(command)


async def deploying(world: World) -> None:
    await world.alice.slash(world.channel, "match new", opponent=world.bob)
    await world.bob.slash(world.channel, "match join")
    await world.alice.slash(world.channel, "match squad", name="iron-wardens")
    await world.bob.slash(world.channel, "match squad", name="ash-runners")


async def snapshot(world: World) -> tuple[int, str, dict[str, Any]] | None:
    row = await world.bot.store.active_match(world.channel.id)
    return None if row is None else (row.version, row.status, row.record)


def assert_short_refusal(result: simcord.InteractionResult) -> str:
    text = said(result).content
    assert result.ephemeral, text
    assert len(text) <= SHORT_ANSWER, text
    assert "x" * 41 not in text, "the input is not repeated in full"
    assert not text.startswith("Sorry, something went wrong"), text
    return text


async def test_discord_refuses_an_over_long_option_as_it_is_typed(world: World) -> None:
    await deploying(world)
    with pytest.raises(simcord.OptionError, match="at most 1000 characters"):
        await world.alice.slash(world.channel, "deploy", placements=LONG)


async def test_over_long_options_are_refused_briefly_and_change_nothing(world: World) -> None:
    await world.started()
    forget_limits(world.env)
    acting, _, unit = await world.turn()
    cases: list[tuple[simcord.MemberActor, str, dict[str, Any]]] = [
        (acting, "deploy", {"placements": LONG}),
        (acting, "move", {"unit": unit, "square": LONG}),
        (acting, "move", {"unit": LONG, "square": "C4"}),
        (acting, "activate", {"unit": LONG}),
        (acting, "shoot", {"unit": unit, "target": LONG}),
        (acting, "shoot", {"unit": unit, "target": "Vex", "also": LONG}),
        (acting, "skill", {"unit": unit, "skill": LONG}),
        (acting, "crate", {"unit": unit, "option": LONG}),
        (acting, "end", {"unit": LONG}),
        (acting, "match card", {"unit": LONG}),
        (acting, "match squad", {"name": "x" * 3000}),
    ]
    before = await snapshot(world)
    for member, command, options in cases:
        result = await member.slash(world.channel, command, **options)
        text = assert_short_refusal(result)
        assert "characters long" in text, f"/{command}: {text}"
        assert await snapshot(world) == before, f"/{command} changed the match"


async def test_an_over_long_squad_name_never_reaches_the_filesystem(world: World) -> None:
    await world.alice.slash(world.channel, "match new", opponent=world.bob)
    forget_limits(world.env)
    before = await snapshot(world)
    for name in ("x" * 3000, "my:" + "x" * 3000):
        result = await world.alice.slash(world.channel, "match squad", name=name)
        assert "characters long" in assert_short_refusal(result)
    saved = await world.alice.slash(
        world.channel, "squad save", file=("w.json", b"{}"), name="x" * 3000
    )
    assert "characters long" in assert_short_refusal(saved)
    assert await snapshot(world) == before
    assert await world.bot.store.squads_of(world.alice.id) == []


async def test_what_is_quoted_back_from_a_long_placement_is_cut(world: World) -> None:
    await deploying(world)
    before = await snapshot(world)
    result = await world.alice.slash(world.channel, "deploy", placements="Halden " + "y" * 900)
    text = said(result).content
    assert result.ephemeral and "could not read 'Halden yyyy" in text and "…'" in text
    assert len(text) <= SHORT_ANSWER
    named = await world.alice.slash(world.channel, "deploy", placements="z" * 900 + " C2")
    assert named.ephemeral and "too long for a unit's name" in said(named).content
    assert len(said(named).content) <= SHORT_ANSWER
    assert await snapshot(world) == before


async def test_every_message_is_cut_to_2000_characters(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.started()

    async def wordy(channel_id: int) -> Reply:
        return Reply("The map. " + "y" * 5000, ping=world.alice.id)

    monkeypatch.setattr(world.bot.service, "status", wordy)
    result = await world.bob.slash(world.channel, "match status")
    text = said(result).content
    assert len(text) == 2000 and text.endswith("…") and text.startswith(world.alice.mention)


# --- the service: shipped content by name only -----------------------------------------------
@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    store = await Store.open(tmp_path / "skirm.db")
    yield MatchService(store, seed_source=lambda: 1234)
    await store.close()


ALICE, BOB = Member(11, "Alice"), Member(22, "Bob")


@pytest.mark.parametrize(
    "name",
    ["x" * 3000, "../missions/hold-the-line", "/etc/hostname", "iron-wardens\x00", "."],
)
async def test_a_squad_name_that_is_not_shipped_is_refused_before_any_file_is_read(
    service: MatchService, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await service.create(900, 500, ALICE, opponent=BOB)

    def no_files(kind: str, name: str) -> dict[str, Any]:
        raise AssertionError(f"read {kind}/{name!r}")

    monkeypatch.setattr(content, "raw", no_files)
    with pytest.raises(ServiceError, match="There is no squad called") as refused:
        await service.choose_squad(500, ALICE, name)
    assert len(str(refused.value)) <= SHORT_ANSWER


async def test_a_mission_or_map_that_is_not_shipped_is_refused(service: MatchService) -> None:
    with pytest.raises(ServiceError, match="There is no mission called"):
        await service.create(900, 500, ALICE, mission="../squads/iron-wardens")
    with pytest.raises(ServiceError, match="There is no map called"):
        await service.create(900, 500, ALICE, battle_map="/etc/passwd")
    reply = await service.create(900, 500, ALICE, mission=" Hold-The-Line ")  # as typed
    assert "New Skirm match" in reply.text
