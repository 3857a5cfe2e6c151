"""The layers of docs/architecture.md: cogs talk to the service only, the rules do no I/O and
import nothing above them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COGS = sorted((ROOT / "cogs").glob("*.py"))
RULES = sorted((ROOT / "skirmbot" / "rules").rglob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module the file imports, at any depth (also under TYPE_CHECKING)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names


@pytest.mark.parametrize("path", COGS, ids=[p.name for p in COGS])
def test_a_cog_imports_nothing_from_the_rules_or_the_store(path: Path) -> None:
    reached = sorted(
        name for name in imported(path) if name.startswith(("skirmbot.rules", "skirmbot.store"))
    )
    assert reached == [], f"{path.name} reaches past the service: {reached}"


@pytest.mark.parametrize("path", RULES, ids=[p.name for p in RULES])
def test_the_rules_import_no_io_clock_or_global_random(path: Path) -> None:
    banned = ("asyncio", "discord", "sqlite3", "aiosqlite", "time", "datetime", "skirmbot.store")
    reached = sorted(
        name for name in imported(path) if name.split(".")[0] in banned or name.startswith(banned)
    )
    assert reached == [], f"{path.name} imports {reached}"


@pytest.mark.parametrize("path", RULES, ids=[p.name for p in RULES])
def test_the_rules_import_nothing_above_them(path: Path) -> None:
    """Calls go cogs -> service -> rules: of skirmbot, the rules use only the rules and the
    words (not the dice commands, the service, the store, the render, ...)."""
    allowed = ("skirmbot.rules", "skirmbot.words")
    reached = sorted(
        name
        for name in imported(path)
        if name.startswith("skirmbot.")
        and not any(name == top or name.startswith(f"{top}.") for top in allowed)
    )
    assert reached == [], f"{path.name} reaches above the rules: {reached}"
