"""Every slash command a message names exists (issue 11: the pause messages told players to use
`/match pause` and `/match resume`, which never existed; the commands are `/timer pause` and
`/timer resume`).

The messages are the string literals of skirmbot/ and cogs/ (f-strings' constant parts
included; docstrings left out: nobody reads them in Discord). Each `/word` or `/word word` in
them is checked against the command tree the bot syncs, built as tests/test_commands_static.py
builds it: the first word must be a top-level command, and when that command is a group, the
second word must be one of its subcommands (`/match squad`; `/timer` alone names the group).
"""

from __future__ import annotations

import ast
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from skirmbot.bot import make_bot  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("skirmbot", "cogs")
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2

# `/name` or `/name word`: not part of a path, URL, mention or channel link (`a/b`, `://x`,
# `<#1>`), and not a file name (`/match.json`).
REFERENCE = re.compile(
    r"(?<![\w/:.<>#@\-])/([a-z][a-z0-9_-]*)(?![\w/-]|\.\w)(?: ([a-z][a-z0-9_-]*))?"
)
# Words that look like commands but are not Discord's: (file, word) with the reason.
NOT_DISCORD = {
    ("skirmbot/console.py", "quit"),  # the local console's own way out, typed at its prompt
}


@pytest.fixture
async def tree() -> AsyncIterator[dict[str, set[str] | None]]:
    """Top-level command -> its subcommands (None: a plain command, not a group)."""
    bot = make_bot(":memory:", sync_commands=False)
    await bot.setup_hook()
    try:
        payload = [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    finally:
        await bot.store.close()
    yield {command["name"]: _subcommands(command) for command in payload}


def _subcommands(command: dict[str, Any]) -> set[str] | None:
    subs = {
        option["name"]
        for option in command.get("options", [])
        if option["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
    }
    return subs or None


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def literals(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every string literal that is not a docstring; an f-string gives its
    constant parts (they are `ast.Constant` nodes inside the `JoinedStr`)."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.lineno, node.value


def references(text: str) -> list[tuple[str, str | None]]:
    return [(found.group(1), found.group(2)) for found in REFERENCE.finditer(text)]


def every_reference() -> Iterator[tuple[str, int, str, str | None]]:
    for folder in SOURCES:
        for path in sorted((REPO / folder).rglob("*.py")):
            name = path.relative_to(REPO).as_posix()
            for line, text in literals(path.read_text(encoding="utf-8")):
                for command, word in references(text):
                    if (name, command) not in NOT_DISCORD:
                        yield name, line, command, word


def unknown(tree: dict[str, set[str] | None], command: str, word: str | None) -> str | None:
    """Why `/command word` names no command the bot has, or None when it does."""
    if command not in tree:
        return f"/{command} is not a command"
    subcommands = tree[command]
    if subcommands is not None and word is not None and word not in subcommands:
        return f"/{command} has no subcommand {word!r} (it has {', '.join(sorted(subcommands))})"
    return None


def test_the_reference_pattern_finds_commands_and_skips_paths_and_links() -> None:
    assert references("Either player can /timer resume.") == [("timer", "resume")]
    assert references("deploy with /deploy. Then /end it") == [("deploy", None), ("end", "it")]
    assert references(f"{'(/match log)'}") == [("match", "log")]
    assert references("wrote out/match.json, http://x/api/v10 <#12> 1/2 /match.json") == []


def test_the_pattern_reads_f_string_parts() -> None:
    source = 'x = 3\nmessage = f"{x} left. <@{x}>: /match pause to agree."\n'
    found = [ref for _, text in literals(source) for ref in references(text)]
    assert found == [("match", "pause")]


async def test_the_check_refuses_a_command_that_does_not_exist(
    tree: dict[str, set[str] | None],
) -> None:
    """What the real test below would say about the issue's `/match pause`."""
    assert unknown(tree, "match", "pause") is not None
    assert unknown(tree, "match", "resume") is not None
    assert unknown(tree, "timer", "pause") is None and unknown(tree, "timer", "resume") is None
    assert unknown(tree, "end", "it") is None  # a plain command: the next word is prose
    assert unknown(tree, "nonsense", None) is not None


async def test_every_command_a_message_names_exists(tree: dict[str, set[str] | None]) -> None:
    found = list(every_reference())
    assert len(found) > 20, "the scan found too few references to be looking at the messages"
    wrong = [
        f"{name}:{line}: {reason}"
        for name, line, command, word in found
        if (reason := unknown(tree, command, word)) is not None
    ]
    assert not wrong, "messages name commands the bot does not have:\n" + "\n".join(wrong)
