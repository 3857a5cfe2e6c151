"""Every slash command the bot registers fits Discord's limits, checked on the payload that
`tree.sync()` would send, so a command Discord would refuse fails here instead of at start-up.

Limits (Discord's Application Commands documentation): names 1-32 characters, lowercase,
`^[-_\\w]{1,32}$`; descriptions 1-100; at most 25 options per command or subcommand, 25
subcommands (or groups) per group, 25 choices per option, choice names 1-100 characters and
string values at most 100; required options before optional ones; at most 8000 characters in a
command's names, descriptions and choice values together; at most 100 top-level slash commands.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import pytest

from skirmbot.bot import make_bot  # noqa: E402

NAME = re.compile(r"^[-_\w]{1,32}$")
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
MAX_OPTIONS = MAX_CHOICES = MAX_SUBCOMMANDS = 25
MAX_TOTAL_CHARACTERS = 8000
MAX_SLASH_COMMANDS = 100


@pytest.fixture
async def payload() -> AsyncIterator[list[dict[str, Any]]]:
    """What the bot would sync: every command's JSON, all cogs loaded (no Discord needed)."""
    bot = make_bot(":memory:", sync_commands=False)
    await bot.setup_hook()
    try:
        yield [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    finally:
        await bot.store.close()


def walk(node: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The command and every option below it, with a readable path for failure messages."""
    yield path, node
    for option in node.get("options", []):
        yield from walk(option, f"{path} {option['name']}")


def characters(node: dict[str, Any]) -> int:
    """What Discord counts toward a command's 8000: names, descriptions, choices, recursively."""
    total = len(node["name"]) + len(node.get("description", ""))
    for choice in node.get("choices", []):
        total += len(choice["name"]) + len(str(choice["value"]))
    return total + sum(characters(option) for option in node.get("options", []))


def is_group(node: dict[str, Any]) -> bool:
    return any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options", []))


async def test_the_bot_registers_the_game_commands(payload: list[dict[str, Any]]) -> None:
    names = {command["name"] for command in payload}
    assert {"match", "deploy", "move", "dash", "shoot", "melee", "door", "pickup", "drop"} <= names
    assert {"crate", "turret", "end", "activate", "delay", "reroll", "accept"} <= names
    [match] = [command for command in payload if command["name"] == "match"]
    subcommands = {option["name"] for option in match["options"]}
    assert {
        "new",
        "join",
        "squad",
        "status",
        "log",
        "card",
        "concede",
        "draw",
        "undo",
    } <= subcommands
    assert {"export", "abort", "orders", "standing", "modrole"} <= subcommands


async def test_names_are_lowercase_and_short(payload: list[dict[str, Any]]) -> None:
    for command in payload:
        for path, node in walk(command, command["name"]):
            name = node["name"]
            assert NAME.match(name), f"{path}: name {name!r} does not match {NAME.pattern}"
            assert name == name.lower(), f"{path}: name {name!r} is not lowercase"


async def test_descriptions_are_present_and_short(payload: list[dict[str, Any]]) -> None:
    for command in payload:
        for path, node in walk(command, command["name"]):
            description = node.get("description", "")
            assert 1 <= len(description) <= 100, (
                f"{path}: description of {len(description)} characters"
            )


async def test_options_subcommands_and_choices_fit(payload: list[dict[str, Any]]) -> None:
    for command in payload:
        for path, node in walk(command, command["name"]):
            options = node.get("options", [])
            if is_group(node):
                assert len(options) <= MAX_SUBCOMMANDS, f"{path}: {len(options)} subcommands"
            else:
                assert len(options) <= MAX_OPTIONS, f"{path}: {len(options)} options"
                required = [bool(o.get("required")) for o in options]
                assert required == sorted(required, reverse=True), (
                    f"{path}: optional before required"
                )
            choices = node.get("choices", [])
            assert len(choices) <= MAX_CHOICES, f"{path}: {len(choices)} choices"
            for choice in choices:
                assert 1 <= len(choice["name"]) <= 100, f"{path}: choice {choice['name']!r}"
                if isinstance(choice["value"], str):
                    assert 1 <= len(choice["value"]) <= 100, (
                        f"{path}: choice value {choice['value']!r}"
                    )
            assert not (choices and node.get("autocomplete")), f"{path}: choices and autocomplete"


async def test_each_command_stays_under_8000_characters(payload: list[dict[str, Any]]) -> None:
    for command in payload:
        assert characters(command) <= MAX_TOTAL_CHARACTERS, (
            f"/{command['name']}: {characters(command)}"
        )


async def test_at_most_100_slash_commands(payload: list[dict[str, Any]]) -> None:
    slash = [c for c in payload if c.get("type", 1) == discord.AppCommandType.chat_input.value]
    assert len(slash) <= MAX_SLASH_COMMANDS
    assert len({c["name"] for c in slash}) == len(slash), "two commands share a name"
