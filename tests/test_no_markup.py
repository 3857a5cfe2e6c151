"""The service and the timers write no Discord markup: a person and a moment are neutral
placeholders (skirmbot.service.replies), which cogs/text.py writes the Discord way and the
console as a name and "in 3 hours". cogs/text.py is the one cog module that knows Discord's
markup and limits."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import discord
import pytest
from skirmbot.cogs import text
from skirmbot.cogs.common import with_mention

from skirmbot.console import NAMES, plain_text
from skirmbot.service import Reply, person, when

ROOT = Path(__file__).resolve().parents[1]
NEUTRAL = sorted(
    [*(ROOT / "skirmbot" / "service").rglob("*.py"), *(ROOT / "skirmbot" / "timers").rglob("*.py")]
)
MARKUP = ("<@", "<t:", "<#")
# Slicing to Discord's limits by hand, in a cog: cogs/text.py does it.
BY_HAND = re.compile(r"\[:\s*(?:25|100)\s*\]")


@pytest.mark.parametrize("path", NEUTRAL, ids=[p.name for p in NEUTRAL])
def test_the_service_and_the_timers_build_no_discord_markup(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    found = [markup for markup in MARKUP if markup in source]
    assert found == [], f"{path.name} writes Discord markup {found}: use person() and when()"


COGS = sorted(p for p in (ROOT / "cogs").glob("*.py") if p.name != "text.py")


@pytest.mark.parametrize("path", COGS, ids=[p.name for p in COGS])
def test_only_cogs_text_knows_discords_markup_and_limits(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    found = [markup for markup in MARKUP if markup in source] + BY_HAND.findall(source)
    assert found == [], f"{path.name} has {found}: use skirmbot.cogs.text"


def test_a_person_becomes_a_mention_in_discord_and_a_name_in_the_console() -> None:
    reply = Reply(f"{person(123)}: activate a unit.", ping=123)
    assert text.markup(reply.text) == "<@123>: activate a unit."
    assert with_mention(reply.text, reply.notify()) == "<@123>: activate a unit."  # once
    assert with_mention(f"{person(1)} offers a draw.", 2) == "<@2> <@1> offers a draw."
    assert plain_text(f"{person(1)} offers a draw.", NAMES) == "Player 1 offers a draw."
    assert plain_text(f"{person(0)} has deployed.", NAMES) == "Automatic player has deployed."


def test_a_moment_becomes_a_relative_timestamp_in_discord_and_words_in_the_console() -> None:
    moment = 1_700_010_800
    written = discord.utils.format_dt(datetime.fromtimestamp(moment, tz=UTC), "R")
    assert written == f"<t:{moment}:R>"
    assert text.markup(f"Time runs out {when(moment + 0.9)}.") == f"Time runs out {written}."
    assert (
        plain_text(f"Time runs out {when(moment)}.", NAMES, now=moment - 3 * 3600)
        == "Time runs out in 3 hours."
    )


def test_the_placeholders_survive_the_services_text_functions() -> None:
    from skirmbot.service.replies import clip
    from skirmbot.words import shown

    line = f"{person(7)}: time runs out {when(100)}."
    assert clip(line) == line and shown(line, 100) == line
    assert line.splitlines() == [line] and line.split() == line.split(" ")


def test_discords_limits() -> None:
    long = "x" * 300
    assert len(text.fit(long * 10)) == text.MESSAGE_LIMIT == 2000
    offered = text.choices((f"{long}{n}", f"{long}{n}") for n in range(40))
    assert len(offered) == 25
    assert all(len(c.name) <= 100 and len(c.value) <= 100 for c in offered)
    assert text.choices([("five", 5)])[0].value == 5
    assert text.listed(list(range(30))) == list(range(25))
    assert text.short("a" * 101).endswith("…") and len(text.short("a" * 101)) == 100
    assert text.short("kept") == "kept"
