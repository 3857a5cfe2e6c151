"""`/match orders line:` through the real bot process against the loopback fake of Discord
(issue 21, part 5): a whole activation in one message, its map and the next player's ping as
usual; a line that stops at a refused step keeps what it did and says why, privately; a line
from someone who does not play changes nothing; `/match standing` keeps the standing orders.
"""

from __future__ import annotations

import asyncio

from fakediscord import FakeDiscord
from test_wire import (
    TEST_TIMEOUT,
    choices,
    clean,
    fake,
    practice_match,
    say,
    settled,
    start_bot,
)

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire


async def test_a_whole_activation_in_one_line_over_the_wire(fake: FakeDiscord, start_bot) -> None:
    async with asyncio.timeout(TEST_TIMEOUT * 2):
        bot = await start_bot()
        await practice_match(bot)

        # The line's autocomplete offers Alice's units and what each may do now.
        units = await choices(bot, "move", "unit")
        offered = await choices(bot, "match orders", "line", line=units[0][:2])
        assert f"{units[0]} move" in offered, offered

        # Someone who does not play is refused, privately, and nothing changes.
        squares = await choices(bot, "move", "square", unit=units[0])
        line = f"{units[0].lower()} move {squares[0].lower()}; end"
        refused = await say(bot, "match orders", user=fake.bob, line=line)
        assert [m.ephemeral for m in refused.messages] == [True], refused.text

        # Alice's whole activation: done in one message with the map, then the automatic
        # player's activation, then Alice is pinged that it is her turn again.
        orders = await say(bot, "match orders", line=line)
        await settled(
            bot,
            orders,
            lambda: orders.pngs and any(fake.alice.id in m.pings for m in orders.messages[1:]),
            "the map and Alice's turn again after her one-line activation",
        )
        assert all(not m.ephemeral for m in orders.messages), orders.text
        first = orders.messages[0].text
        assert f"{units[0]} moves" in first and f"{units[0]}'s activation ends" in first, first

        # A line that stops at a refused step: the move is done (public), the rest is not,
        # and Alice alone reads which step was refused and why.
        others = [u for u in await choices(bot, "move", "unit") if u != units[0]]
        there = await choices(bot, "move", "square", unit=others[0])
        stopped = await say(bot, "match orders", line=f"{others[0]} move {there[0]}; move Z99; end")
        await settled(
            bot,
            stopped,
            lambda: any(m.ephemeral for m in stopped.messages),
            "the private note of where the line stopped",
        )
        done, note = stopped.messages[0], stopped.messages[-1]
        assert not done.ephemeral and f"{others[0]} moves" in done.text, done.text
        assert note.ephemeral and "Step 2 ('move Z99'): Z99 is off the map" in note.text, note.text
        assert "Step 1 is done; steps 2 to 3 are not." in note.text, note.text
        assert not stopped.pngs, "the activation goes on: no map yet"

        # The standing orders answer to their own name now.
        standing = await say(bot, "match standing", reroll_saves=True, above=1)
        assert [m.ephemeral for m in standing.messages] == [True], standing.text
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
