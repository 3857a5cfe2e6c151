"""A d20 league through the real bot process, against the loopback fake of Discord (issue 29):
Alice creates a league of the d20 rules, /league signup offers only d20 warbands, Alice and Bob
sign up, the round opens their match in a thread, Bob drops out (conceding it), and the
standings count Victory Points."""

from __future__ import annotations

import asyncio

from fakediscord import FakeDiscord
from test_wire import REPLY_TIMEOUT, answered, fake, public, say, start_bot
from test_wire_league import LEAGUE_TIMEOUT, posts_in, threads

from skirmbot import content

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

LEAGUE = "Arena Cup"


async def test_a_d20_league_over_the_wire(fake: FakeDiscord, start_bot) -> None:  # type: ignore[no-untyped-def]
    async with asyncio.timeout(LEAGUE_TIMEOUT):
        bot = await start_bot()
        created = await say(bot, "league create", name=LEAGUE, ruleset="d20", rounds=1)
        assert public(created) and "Victory Point difference" in created.text, created.text

        offered = await bot.fake.autocomplete("league signup", focused="squad", league=LEAGUE)
        await answered(bot, offered)
        squads = [c["value"] for c in offered.choices]
        assert squads == content.names("squads", "d20"), offered.choices  # d20's only
        for user, squad in zip((fake.alice, fake.bob), squads, strict=False):
            joined = await say(bot, "league signup", user=user, league=LEAGUE, squad=squad)
            assert public(joined), joined.text

        started = await say(bot, "league round start", league=LEAGUE)
        await bot.until(lambda: threads(fake), f"the match's thread ({started.text!r})", 5)
        [thread] = threads(fake)
        opening = await bot.until(
            lambda: len(posts_in(fake, thread)) >= 2 and posts_in(fake, thread),
            "the match's first messages in its thread",
            5,
        )
        warbands = [content.raw("squads", squad, "d20")["name"] for squad in squads[:2]]
        assert all(name in opening[1].text for name in warbands), opening[1].text

        left = await say(bot, "league drop", user=fake.bob, league=LEAGUE)
        assert public(left) and "conceded" in left.text, left.text
        table = await say(bot, "league standings", league=LEAGUE)
        await bot.until(lambda: table.pngs, "the standings picture", REPLY_TIMEOUT)
        lines = table.text.splitlines()
        assert lines[1].startswith("1.") and "alice" in lines[1].lower(), table.text
        assert "VP" in table.text and "MP" not in table.text, table.text
